"""The copies of shared tiles into shared memory in a variant's static traffic (tsg/traffic.py):
the sectors of one warp request of a tile's fill and the requests a block issues for it, as
codegen/tiled.py copies it; and the strides of an access, which both count with."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from orcu.analysis.affine import Poly, poly_of
from orcu.frontend.cparse import parse_expression
from orcu.frontend.ir import Loop, LoopNest, loops_of
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.tsg.figures import SECTOR, WARP
from orcu.tsg.shared_tiles import SharedTile
from orcu.tsg.sizes import value


def element_strides(nest: LoopNest, sh, env: Mapping[str, Any]) -> list[int] | None:
    """Elements between consecutive indexes of each dimension of an access, at ``env``."""
    if sh.strides is not None:
        strides = [value(p, env) for p in sh.strides]
    else:  # declared dimensions: A[i][j]
        dims = nest.variables[sh.access.array].ctype.dims
        extents = [value(poly_of(n) if (n := parse_expression(d)) is not None else None, env) for d in dims[1:]]
        strides = None if None in extents else [math.prod(extents[k:]) for k in range(len(dims))]
    return None if strides is None or None in strides else strides


def fill(
    nest: LoopNest, tile: SharedTile, values, shape, tiles, threads, env, grid: Sequence[Loop], box, body
) -> tuple[int, float] | None:
    """(sectors of one warp request of the tile's fill, the requests a block issues for it, over
    the blocks' mean): consecutive threads on consecutive elements of the tile as declared,
    padding idle; the request counted at the first block's tile, at the corner of the grid
    loops' ``box`` (each grid loop's first value and trip count)."""
    counts = {v: threads[v] * tiles[v] for v in box}
    counts.update({v: values["sharedDepth"] for v in tile.strips})
    starts = {v: first for v, (first, _) in box.items()}
    fills: float = 1
    if tile.strips:  # once per strip of its loops, in each iteration of the loops around them
        around = _ancestors(body, tile.strips[0])
        loops = around + [next(q for q in loops_of(body) if q.var == v) for v in tile.strips]
        found = _fills(loops, len(around), values["sharedDepth"], env, grid, box, counts)
        if found is None:
            return None
        fills = found
        for loop in loops:
            starts[loop.var] = value(poly_of(loop.lower), {**env, **starts})
    base = [value(d.rest + Poly.of({(v,): c for v, c in d.coefs}), {**env, **starts}) for d in tile.dims]
    steps_of = element_strides(nest, tile.accesses[0], env)
    if None in base or steps_of is None:
        return None
    declared = tile.shape(counts)
    kept = [k for k, d in enumerate(tile.dims) if d.coefs or d.high > d.low]
    width = tile.dims[kept[-1]].extent(counts) if kept else 1
    size = ELEMENT_BYTES.get(canonical_type(nest.variables[tile.array].ctype.base), 8)
    lanes = tile.vector_lanes(counts, size)  # 16 bytes a thread where every row starts on 16 bytes (codegen/tiled.py)
    first = sum(i * st for i, st in zip(base, steps_of))
    if lanes > 1 and (first % lanes or any(steps_of[k] % lanes for k in kept[:-1])):
        lanes = 1
    steps = list(declared[:-1]) + [declared[-1] // lanes]
    addresses = []
    for e in range(min(WARP, shape[0] * shape[1], math.prod(steps))):
        cell = [e // math.prod(steps[n + 1 :]) % steps[n] for n in range(len(kept))]
        if kept:
            cell[-1] *= lanes
        if kept and cell[-1] >= width:
            continue  # the padding's lane idles
        index = list(base)
        for n, k in enumerate(kept):
            index[k] += cell[n]
        address = sum(i * st for i, st in zip(index, steps_of)) * size
        addresses += [address, address + lanes * size - 1]
    requests = -(-math.prod(steps) // WARP)  # the block's threads take consecutive items, a warp's 32 a request
    return len({a // SECTOR for a in addresses}), requests * fills


def _fills(
    loops: list[Loop], around: int, depth: int, env, grid: Sequence[Loop], box, counts, samples: int = 17
) -> float | None:
    """The fills a block issues, averaged over blocks sampled evenly along the grid loops the
    bounds follow: one per iteration of the ``around`` loops around the strips, one per
    ``depth`` iterations of each strip, each loop run over the union of the ranges of its
    block's threads (a triangle's, trmm's ``k`` from ``i + 1``: shared_tiles.widens), an inner
    loop's bounds at the outer one's first value; None where a trip count is not known."""
    names = set().union(*(poly_of(lp.lower).names | poly_of(lp.upper).names for lp in loops))
    follows = [g for g in grid if g.var in names]
    blocks = {g.var: -(-box[g.var][1] // counts[g.var]) for g in follows}
    picks = [sorted({k * (n - 1) // (samples - 1) for k in range(samples)}) for n in blocks.values()]
    totals = []
    for chosen in itertools.product(*picks):
        corners = [dict(env)]
        for g, b in zip(follows, chosen):  # the block's first and last values of each grid loop
            first = box[g.var][0] + b * counts[g.var] * g.step
            last = min(first + (counts[g.var] - 1) * g.step, box[g.var][0] + (box[g.var][1] - 1) * g.step)
            corners = [{**c, g.var: x} for c in corners for x in (first, last)]
        total = 1
        for n, loop in enumerate(loops):
            lows = [value(poly_of(loop.lower), c) for c in corners]
            highs = [value(poly_of(loop.upper), c) for c in corners]
            if None in lows or None in highs:
                return None
            trip = max(0, -(-(max(highs) - min(lows)) // loop.step))
            total *= trip if n < around else -(-trip // depth)
            corners = [{**c, loop.var: min(lows)} for c in corners]
        totals.append(total)
    return sum(totals) / len(totals)


def _ancestors(body: tuple, var: str) -> list[Loop]:
    """The loops around the loop on ``var`` in ``body``, outermost first."""

    def walk(nodes, path):
        for n in nodes:
            if isinstance(n, Loop):
                found = path if n.var == var else walk(n.body, path + [n])
                if found is not None:
                    return found
        return None

    return walk(body, []) or []
