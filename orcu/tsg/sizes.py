"""Phase IV of the TSG: which tile sizes to try first (Khan's thesis, docs/design.md: Sources; section 5.6, SelectBlockTileSizes).

A grid of blocks runs in waves of one block per multiprocessor (at least); the last wave is
the tail where multiprocessors idle. Sizes whose block count fills the last wave best go
first: the fraction of the last wave's slots that hold a block, from the grid loops' trip
counts at the input size.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from orcu.analysis.affine import Poly, poly_of
from orcu.frontend.ir import Loop, LoopNest
from orcu.spec.schedule import Schedule, block_shape
from orcu.tsg.phase1 import chain, kernel_body


def value(p: Poly | None, env: Mapping[str, Any]) -> int | None:
    """A polynomial's value where every name it reads is an integer of ``env``; None elsewhere."""
    if p is None or not all(isinstance(env.get(n), int) for n in p.names):
        return None
    return sum(c * math.prod(env[n] for n in m) for m, c in p.terms)


def trip_count(loop: Loop, env: Mapping[str, Any]) -> int | None:
    """The iterations of ``loop`` at ``env``; None where its bounds are not numbers there."""
    return trips(value(poly_of(loop.lower), env), value(poly_of(loop.upper), env), loop.step)


# Host-loop iterations enumerated at most, counting the launches of a kernel whose host loops'
# bounds read each other's iterators (a triangle of launches)
_MOST_ENUMERATED = 100_000


def launches(nest: LoopNest, env: Mapping[str, Any]) -> int | None:
    """The kernel launches of ``nest`` in one run of its region at ``env``: the iterations of the
    host loops around it (``nest.context``, outermost first); None where their bounds are not
    numbers there. A loop orcu cannot read the bounds of is not in the context, so the count is
    then a lower bound."""
    return iterations(nest.context, env, [_MOST_ENUMERATED])


def iterations(loops, env: Mapping[str, Any], budget: list[int]) -> int | None:
    """Iterations of the innermost of ``loops`` (outermost first) at ``env``: an outer loop whose
    variable an inner bound reads (a triangle) is counted value by value, up to ``budget``."""
    bounds = [(lp.var, lp.step, poly_of(lp.lower), poly_of(lp.upper)) for lp in loops]  # parsed once, read per value
    inner_names = [
        {n for _, _, *polys in bounds[k + 1 :] for p in polys if p is not None for n in p.names}
        for k in range(len(bounds))
    ]
    return _count(bounds, inner_names, 0, env, budget)


def _count(bounds: list, inner_names: list[set], k: int, env: Mapping[str, Any], budget: list[int]) -> int | None:
    if k == len(bounds):
        return 1
    var, step, lower, upper = bounds[k]
    low = value(lower, env)
    trip = trips(low, value(upper, env), step)
    if trip is None:
        return None
    if var not in inner_names[k]:
        rest = _count(bounds, inner_names, k + 1, env, budget)
        return None if rest is None else trip * rest
    budget[0] -= trip
    if budget[0] < 0:
        return None
    total = 0
    for j in range(trip):
        rest = _count(bounds, inner_names, k + 1, {**env, var: low + j * step}, budget)
        if rest is None:
            return None
        total += rest
    return total


def trips(low: int | None, high: int | None, step: int) -> int | None:
    """The iterations from ``low`` up to ``high`` (exclusive) by ``step``; None where a bound is unknown."""
    return None if low is None or high is None else max(0, -(-(high - low) // step))


# Threads a multiprocessor runs at once (compute capability 7.0 to 9.0; 8.6 and 8.9 run 1536), as
# the prelude's orcu_blocks_split takes them to size the blocks of a split sum.
SPLIT_THREADS = 2048


def split_blocks(trip: int, threads_y: int, across: int, threads: int, multiprocessors: int) -> int:
    """Blocks along y of a loop split over them (prelude's orcu_blocks_split): enough that the
    grid holds SPLIT_THREADS threads for every multiprocessor, given ``across`` blocks along x;
    at most one per ``threads_y`` of its ``trip`` iterations, at least one."""
    wanted = -(-(SPLIT_THREADS // threads) * multiprocessors // across)
    return max(1, min(wanted, -(-trip // threads_y), 65535))


def last_wave(nest: LoopNest, values: Mapping[str, Any], inputs: Mapping[str, Any], multiprocessors: int) -> float:
    """The fraction of the last wave's multiprocessors a configuration's grid keeps busy (1.0
    when the grid is a whole number of waves, or when the block count is not known)."""
    schedule = Schedule.parse(values["mapping"])
    shape = block_shape(schedule, values["threadCount"], values["tile"]) if schedule else None
    if shape is None or isinstance(shape, str):
        return 1.0
    threads = dict(zip(("x", "y"), shape))
    grid, _ = kernel_body(nest, schedule)
    blocks = 1
    for lp in grid:
        trip = trip_count(lp, inputs)
        if trip is None:
            return 1.0
        blocks *= max(1, -(-trip // (threads[schedule.dim(lp.var).axis] * values["registerTile"].get(lp.var, 1))))
    split = next((lp for lp in chain(nest) if schedule.split and lp.var == schedule.split.loop), None)
    if split is not None:
        trip = trip_count(split, inputs)
        if trip is None:
            return 1.0
        blocks *= split_blocks(trip, shape[1], blocks, shape[0] * shape[1], multiprocessors)
    return blocks / (math.ceil(blocks / multiprocessors) * multiprocessors)
