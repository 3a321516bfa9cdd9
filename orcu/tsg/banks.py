"""Shared-memory bank conflicts of one warp's request, as the hardware serialises it.

Shared memory is 32 banks of 4-byte words. A warp's request is served in phases of 128
bytes' worth of lanes (32 lanes of 4-byte elements, 16 of 8-byte, 8 of 16-byte); within a
phase, lanes reading one word share it (a broadcast), and distinct words of one bank are
served one after another. The emulation counts the same way on the addresses a kernel
really touches (templates/emulation/cuda_runtime.h, ``orcu_tile``).
"""

from __future__ import annotations

BANKS = 32
WORD = 4


def bank_ways(addresses: list[int], size: int) -> int:
    """The most distinct words one bank serves in one phase: 1 when free of conflicts.
    ``addresses``: each active lane's byte address, lane order; ``size``: bytes per element."""
    per_phase = max(1, BANKS * WORD // max(size, WORD))
    worst = 1
    for start in range(0, len(addresses), per_phase):
        words: dict[int, set[int]] = {}
        for address in addresses[start : start + per_phase]:
            for word in range(address // WORD, (address + max(size, WORD) - 1) // WORD + 1):
                words.setdefault(word % BANKS, set()).add(word)
        worst = max(worst, max(len(w) for w in words.values()))
    return worst
