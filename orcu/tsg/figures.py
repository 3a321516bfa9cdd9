"""The figures of a variant's memory traffic, static (tsg/traffic.py) or counted by the emulation:
per access its sectors and requests, and per launch their sums, from which the model predicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SECTOR = 32  # bytes a global-memory transaction moves


WARP = 32


@dataclass(frozen=True)
class Figure:
    access: str  # its text; a shared tile's fill is named after the tile
    sectors: int  # 32-byte sectors one request of a warp touches
    requests: int  # requests the grid issues
    array: str = ""
    repeats: int = 1  # register-tile copies at one address: the compiler loads it once for them all

    @property
    def bytes(self) -> int:
        return self.sectors * SECTOR * self.requests


@dataclass(frozen=True)
class Traffic:
    globals_: tuple[Figure, ...]
    fills: tuple[Figure, ...]
    banks: tuple[tuple[str, int], ...]  # (tile, most requests of a warp in one bank)
    outputs: int  # iterations of the grid loops
    blocks: int = 0  # the launch's blocks
    threads: int = 0  # ... and threads a block
    shared_reads: tuple[
        tuple[str, int, int, int], ...
    ] = ()  # (tile, requests, worst bank's words, repeats) of each read
    operations: int = 0  # arithmetic operations (+ - * / and the like) the threads run
    bytes_by_array: tuple[tuple[str, int], ...] = ()  # global bytes requested, by array
    tile: int = 1  # iterations of a register tile a thread runs together
    tensor_operations: int = 0  # those of ``operations`` the tensor cores run (mma.sync)
    whole_run: bool = False  # counted over a run of the region (every launch), not one launch
    # (array, warp requests) of the reads of arrays copied to constant memory (TSG phase II), which
    # its cache serves, every lane the same element; from global memory where the array is larger
    constant_reads: tuple[tuple[str, int], ...] = ()

    @property
    def bytes_per_output(self) -> float:
        return self.bytes / max(1, self.outputs)

    @property
    def bytes(self) -> int:
        return sum(f.bytes for f in self.globals_ + self.fills)

    @property
    def requests(self) -> int:
        """Warp requests to global memory."""
        return sum(f.requests for f in self.globals_ + self.fills)

    @property
    def sectors(self) -> int:
        return sum(f.sectors * f.requests for f in self.globals_ + self.fills)

    @property
    def wavefronts(self) -> int:
        """Shared-memory cycles of the reads: each request as many as its worst bank serves."""
        return sum(requests * ways for _, requests, ways, _ in self.shared_reads)

    @property
    def distinct(self) -> tuple[int, int, int]:
        """(global requests, their sectors, shared wavefronts) with each register tile's copies at
        one address counted once: what the compiled kernel issues (the emulation at -O0 runs the
        copies as written)."""
        figures = self.globals_ + self.fills
        return (
            sum(f.requests // f.repeats for f in figures),
            sum(f.sectors * f.requests // f.repeats for f in figures),
            sum(r * w // k for _, r, w, k in self.shared_reads),
        )

    @property
    def parallel(self) -> int:
        """Global loads a thread has in flight at once: its distinct accesses in one step."""
        copies = max(1, self.tile)
        return max(1, sum(copies // f.repeats for f in self.globals_ + self.fills))

    def as_dict(self) -> dict[str, Any]:
        """The figures as the results database keeps them with an evaluation."""
        return {
            "bytes_per_output": round(self.bytes_per_output, 3),
            "outputs": self.outputs,
            "blocks": self.blocks,
            "threads": self.threads,
            "operations": self.operations,
            **({"tensor_operations": self.tensor_operations} if self.tensor_operations else {}),
            "global": [{"access": f.access, "sectors": f.sectors, "requests": f.requests} for f in self.globals_],
            "fills": [{"tile": f.access, "sectors": f.sectors, "requests": f.requests} for f in self.fills],
            **({"constant": dict(self.constant_reads)} if self.constant_reads else {}),
            "bank_ways": dict(self.banks),
            "shared_wavefronts": self.wavefronts,
        }

    def lines(self) -> list[str]:
        out = [
            f"traffic: {self.bytes_per_output:.1f} bytes of global memory requested per iteration of the grid loops "
            f"({self.outputs} iterations; sectors of 32 bytes, before any cache)"
        ]
        out += [f"  {f.access}: {f.sectors} sectors per warp request, {f.requests} requests" for f in self.globals_]
        out += [
            f"  {f.access} (fill of its shared tile): {f.sectors} sectors per warp request, {f.requests} requests"
            for f in self.fills
        ]
        out += [
            f"  {tile}: {'no bank conflicts' if ways == 1 else f'up to {ways} requests of a warp in one bank'}"
            for tile, ways in self.banks
        ]
        out += [
            f"  {array} (constant memory, its cache): one element a warp request, {requests} requests"
            for array, requests in self.constant_reads
        ]
        return out


def counted_traffic(counted: Mapping[str, int]) -> Traffic:
    """The figures of a variant from what its emulated run counted (Runner's count_memory):
    loads and stores each one figure of the mean sectors per request, no arithmetic known."""
    figures = tuple(
        Figure(
            f"global {kind} (counted)",
            -(-counted[f"{kind}_sectors"] // counted[f"{kind}_requests"]),
            counted[f"{kind}_requests"],
        )
        for kind in ("load", "store")
        if counted[f"{kind}_requests"]
    )
    # one figure of as many one-way requests as the reads' wavefronts (each request its worst bank's words)
    reads = (("shared tiles (counted)", counted["shared_wavefronts"], 1, 1),) if counted["shared_requests"] else ()
    return Traffic(figures, (), (), 0, counted["blocks"], counted["threads"], reads, whole_run=True)
