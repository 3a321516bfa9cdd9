"""Shared-memory bank conflicts of one warp's request, as the hardware serialises it.

Shared memory is 32 banks of 4-byte words. A warp's request is served in phases of 128
bytes' worth of lanes (32 lanes of 4-byte elements, 16 of 8-byte, 8 of 16-byte); within a
phase, lanes reading one word share it (a broadcast), and distinct words of one bank are
served one after another. The emulation counts the same way on the addresses a kernel
really touches (templates/emulation/cuda_runtime.h, ``orcu_tile``).
"""

from __future__ import annotations

from collections import Counter

BANKS = 32
WORD = 4


def bank_ways(addresses: list[int], size: int) -> int:
    """The most distinct words one bank serves in one phase: 1 when free of conflicts.
    ``addresses``: each active lane's byte address, lane order; ``size``: bytes per element."""
    span = max(size, WORD)
    per_phase = max(1, BANKS * WORD // span)
    worst = 1
    for start in range(0, len(addresses), per_phase):
        words = {w for a in addresses[start : start + per_phase] for w in range(a // WORD, (a + span - 1) // WORD + 1)}
        if len(words) > worst:  # a bank serves at most every word
            worst = max(worst, *Counter(w % BANKS for w in words).values())
    return worst
