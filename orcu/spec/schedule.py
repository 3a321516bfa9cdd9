"""A schedule: how a loop nest runs on the GPU.

The loops a schedule maps become the dimensions of the launch, x first: a loop on a grid
dimension is spread over blocks and the threads of each block along that axis, a whole
grid apart (so any grid covers any trip count); a loop on threads only is spread over the
threads of each block along the axis, every block covering all its iterations, and when
the loop reduces (``y[i] += ...``) the threads' shares are combined across the axis. A loop
split along y reduces a sum over the threads and the blocks along y (each thread a share, the
block's shares folded in shared memory, the blocks' results added atomically): it fills the
device where the grid loop alone has too few iterations (a transposed matrix-vector product's
columns). The other loops run in each thread in their source order. Orio's mapping (the outer loop over
a 1-D grid of ``threadCount`` x ``blockCount``, everything else in the thread) is one
schedule among these: the one with ``orio`` set.

A schedule is written ``x=j y=i`` (grid dimensions), ``x=j(threads) y=i`` or ``x=j y=i(split)``; that text is
also the value of the tuning parameter through which the search chooses among the TSG's
candidates.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

AXES = ("x", "y")
_DIM = re.compile(r"^(x|y)=([A-Za-z_]\w*)(\((threads|split)\))?$")


@dataclass(frozen=True)
class Dim:
    axis: str  # "x" or "y"
    loop: str  # the source loop's iterator
    threads_only: bool = False  # over the block's threads alone (each block covers the whole loop)
    split: bool = False  # a sum over the threads and the blocks along the axis, folded, then added atomically

    def __str__(self) -> str:
        return f"{self.axis}={self.loop}" + ("(threads)" if self.threads_only else "(split)" if self.split else "")


@dataclass(frozen=True)
class Schedule:
    dims: tuple[Dim, ...]  # x first
    orio: bool = False  # Orio's 1-D mapping of the outer loop (threadCount, blockCount, streams...)

    @property
    def name(self) -> str:
        return "orio" if self.orio else " ".join(str(d) for d in self.dims)

    def dim(self, loop: str) -> Dim | None:
        return next((d for d in self.dims if d.loop == loop), None)

    @property
    def grid(self) -> tuple[Dim, ...]:
        return tuple(d for d in self.dims if not d.threads_only and not d.split)

    @property
    def split(self) -> Dim | None:
        return next((d for d in self.dims if d.split), None)

    @property
    def threads_only(self) -> tuple[Dim, ...]:
        return tuple(d for d in self.dims if d.threads_only)

    @staticmethod
    @functools.lru_cache(maxsize=4096)  # every configuration of a space parses its mapping's text
    def parse(text: str) -> Schedule | None:
        """``x=j y=i`` -> the schedule; None when the text is not one."""
        if text == "orio":
            return None
        dims = []
        for word in text.split():
            m = _DIM.match(word)
            if m is None:
                return None
            dims.append(Dim(m.group(1), m.group(2), m.group(4) == "threads", m.group(4) == "split"))
        axes = [d.axis for d in dims]
        if not dims or axes != list(AXES[: len(axes)]) or len({d.loop for d in dims}) != len(dims):
            return None
        return Schedule(tuple(dims))


def block_shape(schedule: Schedule, threads: int, tiles: Mapping[str, int]) -> tuple[int, int] | str:
    """(threads along x, along y) of a block: ``tile`` where it names the loops, else
    ``threadCount`` with up to a warp along x (where consecutive threads read consecutive
    elements) and the rest along y. A string says why the request has no such shape."""
    x = schedule.dims[0]
    if len(schedule.dims) == 1:
        tx, ty = tiles.get(x.loop, threads), 1
    else:
        y = schedule.dims[1]
        tx = tiles.get(x.loop) or (max(1, threads // tiles[y.loop]) if y.loop in tiles else min(threads, 32))
        ty = tiles.get(y.loop) or max(1, threads // tx)
        if x.loop not in tiles and y.loop not in tiles and tx * ty != threads:
            return f"threadCount={threads} does not split into {tx} threads along x and a whole number along y"
    if x.threads_only and (tx > 32 or tx & (tx - 1)):
        return f"the row of {tx} threads along x ('{x.loop}') must be a power of two up to 32: one warp folds it"
    if schedule.split and ty == 1:
        return f"threadCount={threads} leaves one thread along y to split '{schedule.split.loop}' (mapping 'x={x.loop}' runs it so)"
    return tx, ty
