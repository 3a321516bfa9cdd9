"""Why a configuration's Phase II placements cannot run on its schedule (the runner and the
preflight prune such configurations before anything is built), and why a choice among them
would only repeat another: vectors whose shared reads conflict in banks beside a twin that
does not, two buffers that no tile gets."""

from __future__ import annotations

from collections.abc import Mapping

from orcu.analysis.affine import poly_of
from orcu.frontend.ir import LoopNest
from orcu.spec.schedule import Schedule
from orcu.tsg.phase1 import kernel_body
from orcu.tsg.phase2 import Placement, element_sizes
from orcu.tsg.shared_tiles import STATIC_SHARED, double_buffered
from orcu.tsg.vectors import by_text


def placement_problem(
    nest: LoopNest, values: Mapping, schedule: Schedule, shape: tuple[int, int], shared_limit: int
) -> str | None:
    """Why a configuration's placements cannot run on its schedule (Placement.problem), with
    the nest's element sizes; None when they can."""
    placed = next(p for p in nest.recipe.placements if p.schedule == schedule.name)
    sizes = element_sizes(nest)
    found = placed.problem(values, schedule, shape, sizes, shared_limit)
    vectorize, double = nest.transform.args.get("vectorize"), nest.transform.args.get("doubleBuffer")
    if found is None and values["vectorize"] and values["shared"] and vectorize is not None and vectorize.names:
        found = _needless_conflicts(nest, placed, values, schedule, shape, sizes)
    if (
        found is None
        and values["doubleBuffer"]
        and double is not None
        and double.names
        and not double_buffered(placed.tiles(values), placed.counts(values, schedule, shape), sizes)
    ):
        found = (
            f"doubleBuffer: no shared tile of a strip gets two buffers with the mapping '{schedule.name}' (none is "
            f"copied per strip of one loop, or two buffers of each would not fit {STATIC_SHARED} bytes): the same code as "
            "doubleBuffer=False"
        )
    return found


def _needless_conflicts(
    nest: LoopNest,
    placed: Placement,
    values: Mapping,
    schedule: Schedule,
    shape: tuple[int, int],
    sizes: Mapping[str, int],
) -> str | None:
    """Why a vectorized configuration is not offered: a shared tile whose reads its vectors
    spread over banks (a thread's iterations along x a vector apart, so a warp's lanes read
    every few words) where the same configuration without vectors, which the space holds
    (``vectorize`` is a parameter), reads it free of conflicts. None when it is not so."""
    # the space asks of every vectorized configuration: what decides the answer is kept per nest
    memo = nest.memo.setdefault(("vector conflicts", id(nest.body)), {})
    key = (
        schedule.name,
        shape,
        tuple(sorted(values["registerTile"].items())),
        tuple(values["shared"]),
        values["sharedDepth"],
    )
    if key not in memo:
        memo[key] = _conflicted_vectors(nest, placed, values, schedule, shape, sizes)
    return memo[key]


def _conflicted_vectors(nest, placed, values, schedule, shape, sizes) -> str | None:
    grid, _ = kernel_body(nest, schedule)
    x_loop = next(lp for lp in grid if lp.var == placed.x)
    width, _ = placed.vectors(values, sizes, poly_of(x_loop.lower), by_text(nest))
    if width == 1:
        return None
    counts = placed.counts(values, schedule, shape)
    axes = {d.loop: d.axis for d in schedule.grid}
    tiles = {lp.var: values["registerTile"].get(lp.var, 1) for lp in grid}
    for t in placed.tiles(values):
        ways = t.ways(shape, counts, tiles, axes, placed.x, width, sizes[t.array])
        if ways > 1 and t.ways(shape, counts, tiles, axes, placed.x, 1, sizes[t.array]) == 1:
            return (
                f"vectorize: the reads of '{t.array}''s shared tile would put up to {ways} requests of a warp in one bank "
                "(a thread's iterations along x a vector apart); the same configuration without vectorize reads it "
                "free of conflicts"
            )
    return None
