"""The warps of a TSG launch that issue a global access: codegen guards each register-tile
iteration of a thread by the grid loops' ends, so where a loop's trip count is not a whole
number of block tiles, the warps and iterations of the last block along it past the end
issue nothing (tsg/traffic.py counts the rest).

Along an axis a block covers its threads times the register tile, each thread's iterations a
block apart, or with vectors in groups of ``width`` consecutive ones, the groups a block apart
(codegen/tiled.py); a warp is 32 consecutive threads of the block, x fastest.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from orcu.tsg.figures import WARP


@dataclass(frozen=True)
class Axis:
    blocks: int  # blocks along the axis
    trip: int | None  # iterations of its grid loop; None: every thread runs (no grid loop, or a split)
    tile: int = 1  # its register tile
    width: int = 1  # iterations of a vector group (vectorize along x)


def issuing(shape: tuple[int, int], axes: Mapping[str, Axis]) -> int:
    """(warp, register-tile iteration) pairs of the launch with a lane inside the loops' ends."""
    lanes = shape[0] * shape[1]
    warps = [
        [(lane % shape[0], lane // shape[0]) for lane in range(first, min(first + WARP, lanes))]
        for first in range(0, lanes, WARP)
    ]
    classes = {a: _classes(axes[a], n) for a, n in zip("xy", shape)}
    total = 0
    for count_x, xs in classes["x"]:
        for count_y, ys in classes["y"]:
            if min(xs) == shape[0] and min(ys) == shape[1]:  # a block the loops' ends do not cut
                total += count_x * count_y * len(warps) * len(xs) * len(ys)
                continue
            pairs = 0
            for warp in warps:
                for limit in xs:  # the lowest row of the warp with a thread inside along x
                    low = min((y for x, y in warp if x < limit), default=None)
                    pairs += 0 if low is None else sum(low < bound for bound in ys)
            total += count_x * count_y * pairs
    return total


def _classes(axis: Axis, threads: int) -> list[tuple[int, list[int]]]:
    """The blocks along an axis in classes alike: (how many, for each register-tile iteration
    the threads along the axis inside the loop's end: those below the figure)."""
    whole = [threads] * axis.tile
    if axis.trip is None:
        return [(axis.blocks, whole)]
    left = axis.trip - (axis.blocks - 1) * threads * axis.tile  # the last block's iterations
    w = axis.width
    last = [max(0, min(threads, math.ceil((left - r % w - r // w * threads * w) / w))) for r in range(axis.tile)]
    return [(axis.blocks - 1, whole), (1, last)] if axis.blocks > 1 else [(1, last)]
