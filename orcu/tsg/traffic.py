"""Static traffic figures of a TSG variant: what its kernel asks of memory, from the schedule,
the placements and the subscripts at one input size (no run).

- each global access of the kernel: the 32-byte sectors one request of a warp touches (the
  first warp of the first block, every loop a thread runs at its first iteration: 4 for a
  coalesced float, 32 where each lane reads its own sector), and how many requests the
  whole grid issues;
- each shared tile: the sectors of one request of its fill, the fills, and the bank
  conflicts of its reads (the figure its declaration carries);
- the bytes moved from global memory per iteration of the grid loops (an output element).

Requests count every iteration of a register tile, those past a loop's end too: a bound,
not a measurement.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from ..analysis.affine import Poly, poly_of
from ..analysis.subscripts import shapes
from ..frontend.cparse import parse_expression
from ..frontend.ir import Loop, LoopNest, loops_of, statements
from ..frontend.types import ELEMENT_BYTES, canonical_type
from .phase2 import Placement, SharedTile, kernel_body
from .schedule import Schedule, block_shape
from .sizes import trip_count, value

SECTOR = 32  # bytes a global-memory transaction moves
WARP = 32


@dataclass(frozen=True)
class Figure:
    access: str  # its text; a shared tile's fill is named after the tile
    sectors: int  # 32-byte sectors one request of a warp touches
    requests: int  # requests the grid issues

    @property
    def bytes(self) -> int:
        return self.sectors * SECTOR * self.requests


@dataclass(frozen=True)
class Traffic:
    globals_: tuple[Figure, ...]
    fills: tuple[Figure, ...]
    banks: tuple[tuple[str, int], ...]  # (tile, most requests of a warp in one bank)
    outputs: int  # iterations of the grid loops

    @property
    def bytes_per_output(self) -> float:
        return sum(f.bytes for f in self.globals_ + self.fills) / max(1, self.outputs)

    def as_dict(self) -> dict[str, Any]:
        """The figures as the results database keeps them with an evaluation."""
        return {"bytes_per_output": round(self.bytes_per_output, 3), "outputs": self.outputs,
                "global": [{"access": f.access, "sectors": f.sectors, "requests": f.requests} for f in self.globals_],
                "fills": [{"tile": f.access, "sectors": f.sectors, "requests": f.requests} for f in self.fills],
                "bank_ways": dict(self.banks)}

    def lines(self) -> list[str]:
        out = [f"traffic: {self.bytes_per_output:.1f} bytes of global memory requested per iteration of the grid loops "
               f"({self.outputs} iterations; sectors of 32 bytes, before any cache)"]
        out += [f"  {f.access}: {f.sectors} sectors per warp request, {f.requests} requests" for f in self.globals_]
        out += [f"  {f.access} (fill of its shared tile): {f.sectors} sectors per warp request, {f.requests} requests"
                for f in self.fills]
        out += [f"  {tile}: {'no bank conflicts' if ways == 1 else f'up to {ways} requests of a warp in one bank'}"
                for tile, ways in self.banks]
        return out


def traffic(nest: LoopNest, placed: Placement, values: Mapping[str, Any], inputs: Mapping[str, Any],
            ways: Mapping[str, int], kept: Mapping[str, str]) -> Traffic | None:
    """The figures of one configuration at ``inputs``; None where the grid's loops or the
    subscripts are not known numbers there (or the schedule folds a row of threads).
    ``kept``: array elements held in a register over a loop (by their text: the loop's
    iterator), loaded before it and stored after it."""
    schedule = Schedule.parse(values["mapping"])
    shape = block_shape(schedule, values["threadCount"], values["tile"]) if schedule else None
    if shape is None or isinstance(shape, str) or schedule.threads_only:
        return None
    env = dict(inputs)
    grid, body = kernel_body(nest, schedule)
    threads = {d.loop: dict(zip(("x", "y"), shape))[d.axis] for d in schedule.grid}
    tiles = {lp.var: values["registerTile"].get(lp.var, 1) for lp in grid}
    trips = {lp.var: trip_count(lp, env) for lp in grid}
    lowers = {lp.var: value(poly_of(lp.lower), env) for lp in grid}
    if None in trips.values() or None in lowers.values():
        return None
    blocks = math.prod(-(-trips[v] // (threads[v] * tiles[v])) for v in trips)
    warps = -(-(shape[0] * shape[1]) // WARP)
    lanes = []  # the first warp: each lane's grid loops at their first iteration of the tile
    for lane in range(min(WARP, shape[0] * shape[1])):
        axis = {"x": lane % shape[0], "y": lane // shape[0]}
        lanes.append({lp.var: lowers[lp.var] + axis[schedule.dim(lp.var).axis] * lp.step for lp in grid})
    arrays = shapes(nest)
    shared = set(values["shared"])
    found: dict[str, Figure] = {}
    per_loop = blocks * warps * math.prod(tiles.values())  # requests of one access at one iteration of a thread's loops
    held: set[str] = set()  # register elements counted already: a load and a store around their loop
    for st, loops in statements(body):
        inner = [lp for lp in loops if lp.var not in trips]
        runs = [1]  # iterations of each loop around the statement, outermost first
        here = dict(env)
        for lp in inner:  # each loop at its first iteration; its trip count from there
            trip = trip_count(lp, {**here, **lanes[0]})
            start = value(poly_of(lp.lower), {**here, **lanes[0]})
            if trip is None or start is None:
                return None
            runs.append(runs[-1] * trip)
            here[lp.var] = start
        for access in st.accesses:
            if access.array in shared or access.text in held:
                continue
            sh = next(s for s in arrays[access.array] if s.access is access)
            size = ELEMENT_BYTES.get(canonical_type(nest.variables[access.array].ctype.base), 8)
            strides = _strides(nest, sh, here)
            if sh.dims is None or strides is None:
                return None
            addresses = [_element(sh, strides, {**here, **lane}) for lane in lanes]
            if None in addresses:
                return None
            if any(lp.var == kept.get(access.text) for lp in inner):
                held.add(access.text)
                outside = next(k for k, lp in enumerate(inner) if lp.var == kept[access.text])
                requests = 2 * per_loop * runs[outside]
            else:
                requests = per_loop * runs[-1]
            before = found.get(access.text)
            found[access.text] = Figure(access.text, len({a * size // SECTOR for a in addresses}),
                                        requests + (before.requests if before else 0))
    fills = []
    for name in values["shared"]:
        tile = placed.tile(name)
        fill = _fill(nest, tile, values, shape, trips, tiles, threads, env, grid, body)
        if fill is None:
            return None
        fills.append(Figure(f"{name}_shared", fill[0], blocks * fill[1]))
    return Traffic(tuple(found.values()), tuple(fills), tuple((f"{n}_shared", ways[n]) for n in values["shared"]),
                   math.prod(trips.values()))


def _strides(nest: LoopNest, sh, env: Mapping[str, Any]) -> list[int] | None:
    """Elements between consecutive indexes of each dimension of an access, at ``env``."""
    if sh.strides is not None:
        strides = [value(p, env) for p in sh.strides]
    else:  # declared dimensions: A[i][j]
        dims = nest.variables[sh.access.array].ctype.dims
        extents = [value(poly_of(n) if (n := parse_expression(d)) is not None else None, env) for d in dims[1:]]
        strides = None if None in extents else [math.prod(extents[k:]) for k in range(len(dims))]
    return None if strides is None or None in strides else strides


def _element(sh, strides: list[int], env: Mapping[str, Any]) -> int | None:
    """The element an access reads, counted from the array's start, at ``env``."""
    index = [value(d, env) for d in sh.dims]
    return None if None in index else sum(i * s for i, s in zip(index, strides))


def _fill(nest: LoopNest, tile: SharedTile, values, shape, trips, tiles, threads, env, grid, body) -> tuple[int, int] | None:
    """(sectors of one warp request of the tile's fill, the requests a block issues for it):
    consecutive threads on consecutive elements of the tile as declared, padding idle."""
    counts = {v: threads[v] * tiles[v] for v in trips}
    if tile.loop:
        counts[tile.loop] = values["sharedDepth"]
    starts = {lp.var: value(poly_of(lp.lower), env) for lp in grid}
    fills = 1
    if tile.loop is not None:  # once per strip of its loop, in each iteration of the loops around it
        for lp in _ancestors(body, tile.loop) + [None]:
            loop = lp or next(q for q in loops_of(body) if q.var == tile.loop)
            trip = trip_count(loop, {**env, **starts})
            if trip is None:
                return None
            fills *= trip if lp is not None else -(-trip // values["sharedDepth"])
            starts[loop.var] = value(poly_of(loop.lower), {**env, **starts})
    base = [value(d.rest + Poly.of({(v,): c for v, c in d.coefs}), {**env, **starts}) for d in tile.dims]
    strides = _strides(nest, tile.accesses[0], env)
    if None in base or strides is None:
        return None
    declared = tile.shape(counts)
    kept = [k for k, d in enumerate(tile.dims) if d.coefs or d.high > d.low]
    width = tile.dims[kept[-1]].extent(counts) if kept else 1
    size = ELEMENT_BYTES.get(canonical_type(nest.variables[tile.array].ctype.base), 8)
    lanes = tile.vector_lanes(counts, size)  # 16 bytes a thread where every row starts on 16 bytes (codegen/tiled.py)
    first = sum(i * st for i, st in zip(base, strides))
    if lanes > 1 and (first % lanes or any(strides[k] % lanes for k in kept[:-1])):
        lanes = 1
    steps = list(declared[:-1]) + [declared[-1] // lanes]
    addresses = []
    for e in range(min(WARP, shape[0] * shape[1], math.prod(steps))):
        cell = [e // math.prod(steps[n + 1:]) % steps[n] for n in range(len(kept))]
        if kept:
            cell[-1] *= lanes
        if kept and cell[-1] >= width:
            continue  # the padding's lane idles
        index = list(base)
        for n, k in enumerate(kept):
            index[k] += cell[n]
        address = sum(i * st for i, st in zip(index, strides)) * size
        addresses += [address, address + lanes * size - 1]
    requests = -(-math.prod(steps) // WARP)  # the block's threads take consecutive items, a warp's 32 a request
    return len({a // SECTOR for a in addresses}), requests * fills


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
