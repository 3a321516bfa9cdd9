"""The iterations of a thread's register tile, each with its names and the guard that keeps it
inside the loops' bounds, and the bounds of a block's tiles (codegen/tiled.py writes them)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from math import prod

from orcu.analysis.affine import poly_of
from orcu.codegen import printer
from orcu.frontend.ir import Loop


@dataclass(frozen=True)
class Iteration:
    """One iteration of a thread's register tile."""

    renames: Mapping[str, str]  # grid loops and private scalars -> this iteration's names
    guard: str  # C condition: the iteration is one the loops run
    suffix: str  # of its registers' names ("" when the tile is one iteration)
    index: tuple[int, ...]  # its place in the tile along each grid loop
    bounds: tuple[str, ...]  # the conditions of ``guard``, one per grid loop


def iterations(
    grid: list[Loop], tiles: Mapping[str, int], accumulators, fresh: Callable[[str], str]
) -> list[Iteration]:
    """Every iteration of the tile (``tiles``: iterations per grid loop), the private scalars
    ``accumulators`` one register each where the tile has several iterations."""
    names = [lp.var for lp in grid]
    many = prod(tiles.values()) > 1
    out = []
    for index in itertools.product(*(range(tiles[v]) for v in names)):
        suffix = "_".join(str(r) for r, v in zip(index, names) if tiles[v] > 1)
        renames = {v: register_name(v, r, tiles, fresh) for v, r in zip(names, index)}
        if many:
            renames.update({s: fresh(f"{s}_{suffix}") for s in accumulators})
        bounds = tuple(_inside(lp, renames, set(names)) for lp in grid)
        out.append(Iteration(renames, " && ".join(bounds), f"_{suffix}" if many else "", index, bounds))
    return out


def register_name(var: str, r: int, tiles: Mapping[str, int], fresh: Callable[[str], str]) -> str:
    """The name of a grid loop's iterator in the ``r``-th iteration of its tile (``fresh`` gives
    one name per base, so every caller gets the same)."""
    return var if tiles[var] == 1 else fresh(f"{var}_{r}")


def _inside(lp: Loop, renames: Mapping[str, str], grid: set[str]) -> str:
    """The iteration is inside the loop: below its upper bound, and above its lower one where
    that reads a grid loop (a triangle's, at this iteration's copy of it: the tile starts at the
    block's least)."""
    upper = f"{renames[lp.var]} < {printer.expression(lp.upper, renames)}"
    lower = poly_of(lp.lower)
    if lower is not None and not lower.names & grid:
        return upper
    return f"{renames[lp.var]} >= {printer.expression(lp.lower, renames)} && {upper}"


def tile_bound(bound, direction: int, grid: list[Loop], start: Mapping[str, str], counts: Mapping[str, int]) -> str:
    """A grid loop's bound for the tiles of a block: where it reads an outer grid loop (a
    triangle, ``j < i + 1``), at that loop's value in the block's tile that makes it the largest
    (``direction`` 1) or the smallest (-1); each iteration's guard holds the rest. ``start``:
    each grid loop's first value in the block's tile, ``counts`` its values there."""
    p = poly_of(bound)
    extremes = {}
    for lp in grid:
        if p is None or lp.var not in p.names:
            continue
        coef = p.split(lp.var)[0].constant  # a constant (phase2._blocked)
        last = f"({start[lp.var]} + {(counts[lp.var] - 1) * lp.step})"
        extremes[lp.var] = last if coef * direction > 0 else start[lp.var]
    return printer.expression(bound, extremes)
