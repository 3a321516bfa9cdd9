"""Static traffic figures of a variant, in Orio's mapping or a TSG schedule: what its kernel
asks of memory and arithmetic, from the schedule, the placements and the subscripts at one
input size (no run). orcu/execution/model.py predicts a GPU time from them.

- each global access of the kernel: the 32-byte sectors one request of a warp touches (the
  first warp of the first block, every loop a thread runs at its first iteration: 4 for a
  coalesced float, 32 where each lane reads its own sector), and how many requests the
  whole grid issues (a row of threads' folded reduction: one load and one store a row);
- each shared tile: the sectors of one request of its fill, the fills (tsg/fills.py), the bank conflicts
  of its reads (the figure its declaration carries) and the reads' requests;
- the grid stage of scalar reductions (partial results, the arrival counter, the fold);
- the arithmetic operations, the blocks of the launch, the bytes moved from global memory
  per iteration of the grid loops (an output element).

Where warps are whole and rows start on a sector these are the counts the emulation makes
on the generated code (tests/test_model.py). Elsewhere they bound them: the requests are
those of the warps and register-tile iterations with a lane inside the grid loops' ends
(tsg/warps.py; a split loop's rows each their own turns), but a request counts the sectors
of every lane of its warp, and the first warp's alignment stands for every warp's (a row
off a sector boundary costs one sector more per request); a loop whose bounds follow the grid (a triangle) runs
as often as the longest lane of a warp, averaged over warps spread along the grid, and grid
loops whose bounds follow each other cover their box, of which the warps with a lane inside
the bounds (sampled) issue requests.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from orcu.analysis.affine import poly_of
from orcu.analysis.subscripts import shapes
from orcu.frontend.ir import Loop, LoopNest, loops_of, statements
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.spec.schedule import Schedule, block_shape
from orcu.tsg.figures import SECTOR, WARP, Figure, Traffic
from orcu.tsg.fills import element_strides, fill
from orcu.tsg.phase1 import kernel_body
from orcu.tsg.phase2 import Placement, element_sizes
from orcu.tsg.sizes import split_blocks, trip_count, value
from orcu.tsg.tensor_cores import K, warp_layout
from orcu.tsg.vectors import by_text, moves_as_vector
from orcu.tsg.warps import Axis, issuing


@dataclass(frozen=True)
class _Launch:
    """What the figures need of a kernel's launch: the loops on the grid and the body each
    thread runs, the first warp's lanes (each grid loop's value there, and the lane's x), the
    requests one access issues at one iteration of a thread's own loops, over the whole grid."""

    grid: tuple[Loop, ...]
    body: tuple
    lanes: tuple[dict[str, int], ...]
    per_loop: int
    blocks: int
    threads: int
    outputs: int
    row: tuple[str, int] | None = None  # a loop over the threads along x (its iterator, the row's width)
    # the warp requests of a shared tile's read at one iteration: every warp and register-tile iteration
    # of the blocks, the threads past the loops' ends too (they read tiles, codegen/tiled.py); 0: per_loop
    every: int = 0
    # a loop split over the threads and blocks along y: its iterator, the grid's threads along y, the
    # share of the warps in a block's first row (they add the block's sums), the rows a warp spans
    split: tuple[str, int, float, int] | None = None
    vector: int = 1  # iterations a thread takes at once, each access one vector (Orio's vectorize)
    tiles: tuple[tuple[str, int], ...] = ()  # each grid loop's register tile
    ranges: tuple[tuple[str, int, int, int], ...] = ()  # each grid loop's (iterator, first value, trip count, step)
    width: int = 1  # vectorize: iterations of x a thread moves as one vector (codegen/tiled.py)
    vectors: frozenset[str] = frozenset()  # ... the global accesses and shared reads that move so
    edges: int = 0  # ... per turn of a thread's loops: requests of the vector groups a loop's end cuts, one per element
    # tensorCores: the loop whose product the warps run as mma.sync, and the share of its operands'
    # scalar reads their loads are (one a thread's row, or pair of columns, per 4 iterations), by text
    tensor: tuple[str, tuple[tuple[str, float], ...]] | None = None


def traffic(
    nest: LoopNest,
    placed: Placement,
    values: Mapping[str, Any],
    inputs: Mapping[str, Any],
    ways: Mapping[str, int],
    kept: Mapping[str, str],
    reductions: Sequence[str],
    multiprocessors: int,
) -> Traffic | None:
    """The figures of one TSG configuration at ``inputs``; None where the grid's loops or the
    subscripts are not known numbers there. ``kept``: array elements held in a register over a
    loop (by their text: the loop's iterator), loaded before it and stored after it;
    ``reductions``: the element type of each scalar the grid reduces (its partial results);
    ``multiprocessors``: the device's (a split sum's blocks fill them)."""
    schedule = Schedule.parse(values["mapping"])
    shape = block_shape(schedule, values["threadCount"], values["tile"]) if schedule else None
    if shape is None or isinstance(shape, str):
        return None
    env = dict(inputs)
    grid, body = kernel_body(nest, schedule)
    threads = {d.loop: dict(zip(("x", "y"), shape))[d.axis] for d in schedule.grid}
    tiles = {lp.var: values["registerTile"].get(lp.var, 1) for lp in grid}
    box = _box(grid, env)
    if box is None:
        return None
    lowers, trips = {v: lo for v, (lo, _) in box.items()}, {v: t for v, (_, t) in box.items()}
    sized = _blocks(schedule, body, env, shape, {v: threads[v] * tiles[v] for v in trips}, trips, multiprocessors)
    if sized is None:
        return None
    (along, blocks, split), warps = sized, -(-(shape[0] * shape[1]) // WARP)
    x = next((lp for lp in grid if lp.var == placed.x), None)
    width, vectors = placed.vectors(values, element_sizes(nest), poly_of(x.lower) if x else None, by_text(nest))
    edges = 0
    if width > 1:  # the tiles' reads that move as vectors, and the groups the loop's end cuts
        assert x is not None
        vectors |= _vector_reads(placed, values, schedule, shape, x.var, width)
        edges = _edges(x.var, width, trips, threads, tiles, blocks, warps // max(1, shape[0] // WARP))
    lanes = _first_warp(grid, schedule, shape, lowers, x, width)
    # a grid loop whose bounds follow another (a triangle) leaves part of the box idle
    warp_share, lane_share = _active(grid, env, box, lanes)
    row = (schedule.threads_only[0].loop, shape[0]) if schedule.threads_only else None
    tensor = _tensor(placed, values, schedule, shape, tiles)
    if isinstance(tensor, str):
        return None
    every = round(blocks * warps * math.prod(tiles.values()) * warp_share)
    per_loop = every
    if tensor is None and all(trip_count(lp, env) is not None for lp in grid):  # a rectangle: the warps its ends leave
        per_loop = issuing(shape, _axes(schedule, along, trips, tiles, width if x else 1, x))
    launch = _Launch(
        tuple(grid),
        body,
        tuple(lanes),
        per_loop,
        blocks,
        shape[0] * shape[1],
        round(math.prod(trips.values()) * lane_share),
        row,
        every=every,
        tiles=tuple(tiles.items()),
        ranges=tuple((lp.var, lowers[lp.var], trips[lp.var], lp.step) for lp in grid),
        width=width,
        vectors=frozenset(vectors),
        edges=edges,
        split=split,
        tensor=tensor,
    )
    tiled = {text: (t.label, ways[t.key]) for text, t in placed.tiled_reads(values).items()}
    found = _accesses(nest, launch, env, tiled, kept, set(values["constant"]))
    if found is None:
        return None
    globals_, shared_reads, operations, tensor_operations, constant_reads = found
    shared = placed.tiles(values)
    copies = [fill(nest, t, values, shape, tiles, threads, env, grid, box, body) for t in shared]
    if None in copies:
        return None
    fills = [Figure(t.label, f[0], round(blocks * f[1]), t.array) for t, f in zip(shared, copies) if f]
    globals_ += _reduction(reductions, blocks, shape[0] * shape[1])
    banks = tuple((t.label, ways[t.key]) for t in shared)
    return _traffic(launch, globals_, fills, banks, shared_reads, operations, tensor_operations, constant_reads)


def _axes(schedule: Schedule, along: Mapping[str, int], trips, tiles, width: int, x: Loop | None) -> dict[str, Axis]:
    """Each axis of the launch as tsg/warps.py counts its warps: its grid loop's blocks, trip
    count, register tile and vector width; a split's blocks along y, every thread running."""
    axes = {"x": Axis(1, None), "y": Axis(1, None)}
    for d in schedule.grid:
        axes[d.axis] = Axis(along[d.loop], trips[d.loop], tiles[d.loop], width if x and d.loop == x.var else 1)
    if schedule.split:
        axes[schedule.split.axis] = Axis(along[schedule.split.loop], None)
    return axes


def _edges(
    x: str,
    width: int,
    trips: Mapping[str, int],
    threads: Mapping[str, int],
    tiles: Mapping[str, int],
    blocks: int,
    rows: int,
) -> int:
    """Requests per turn of a thread's loops of the vector groups the end of x cuts, one per
    element: in the last block tile along x, each of a block's ``rows`` of warps, each register
    tile iteration along the other grid loops."""
    columns = -(-trips[x] // (threads[x] * tiles[x]))
    cut = (blocks // columns) * rows
    return cut * math.prod(t for v, t in tiles.items() if v != x) * (trips[x] % width)


def _tensor(
    placed: Placement, values: Mapping[str, Any], schedule: Schedule, shape: tuple[int, int], tiles: Mapping[str, int]
) -> tuple[str, tuple[tuple[str, float], ...]] | str | None:
    """_Launch.tensor of a configuration (None: no product on the tensor cores), or why its
    block tile does not split among its warps."""
    if not values.get("tensorCores") or placed.tensor is None:
        return None
    product = placed.tensor
    layout = warp_layout(shape, placed.counts(values, schedule, shape), product)
    if isinstance(layout, str):
        return layout
    left = layout.rows / (K * tiles[product.rows])
    right = layout.cols / 2 / (K * tiles[product.cols])
    return product.loop, ((product.left[-1], left), (product.right, right))


def _blocks(
    schedule: Schedule, body, env, shape, spans: Mapping[str, int], trips: Mapping[str, int], multiprocessors: int
):
    """(the blocks along each grid loop, and a split loop's along y; the launch's blocks;
    _Launch.split), ``spans`` the iterations of each grid loop a block covers; None where the
    split loop's trip count is not known."""
    along = {v: -(-trips[v] // spans[v]) for v in trips}
    blocks = math.prod(along.values())
    if not schedule.split:
        return along, blocks, None
    found = _split(schedule, body, env, shape, blocks, -(-(shape[0] * shape[1]) // WARP), multiprocessors)
    if found is None:
        return None
    split, along[schedule.split.loop] = found
    return along, blocks * along[schedule.split.loop], split


def _split(
    schedule, body, env, shape, blocks: int, warps: int, multiprocessors: int
) -> tuple[tuple[str, int, float, int], int] | None:
    """_Launch.split of a loop split over the threads and blocks along y, and the blocks along y
    (None: its trip count is not known at these inputs)."""
    loop = next(lp for lp in loops_of(body) if lp.var == schedule.split.loop)
    trip = trip_count(loop, env)
    if trip is None:
        return None
    along = split_blocks(trip, shape[1], blocks, shape[0] * shape[1], multiprocessors)
    return (loop.var, along * shape[1], -(-shape[0] // WARP) / warps, max(1, WARP // shape[0])), along


def _vector_reads(placed: Placement, values: Mapping[str, Any], schedule, shape, x: str, width: int) -> set[str]:
    """The shared tiles' reads that move as vectors of ``width`` elements along ``x``."""
    counts = placed.counts(values, schedule, shape)
    return {
        sh.access.text
        for t in placed.tiles(values)
        for k, sh in enumerate(t.accesses)
        if t.vector_read(k, x, width, counts)
    }


def _first_warp(grid, schedule, shape, lowers: Mapping[str, int], x: Loop | None, width: int) -> list[dict[str, int]]:
    """The first warp: each lane's grid loops at their first iteration of the tile."""
    lanes = []
    for lane in range(min(WARP, shape[0] * shape[1])):
        axis = {"x": lane % shape[0], "y": lane // shape[0]}
        at = {
            lp.var: lowers[lp.var] + axis[schedule.dim(lp.var).axis] * lp.step * (width if lp is x else 1)
            for lp in grid
        }
        lanes.append({**at, "threadIdx.x": axis["x"], "threadIdx.y": axis["y"]})
    return lanes


def _box(grid: Sequence[Loop], env: Mapping[str, Any]) -> dict[str, tuple[int, int]] | None:
    """Each grid loop's (first value, trip count) over the box the launch covers: a loop whose
    bounds follow other grid loops spans its range at their first and last values."""
    own = {lp.var: (value(poly_of(lp.lower), env), trip_count(lp, env)) for lp in grid}
    box = {}
    for lp in grid:
        if None not in own[lp.var]:
            box[lp.var] = own[lp.var]
            continue
        follows = [
            g for g in grid if g.var in poly_of(lp.lower).names | poly_of(lp.upper).names and None not in own[g.var]
        ]
        corners = [dict(env)]
        for g in follows:
            first, trip = own[g.var]
            corners = [{**c, g.var: first + k * g.step} for c in corners for k in (0, max(0, trip - 1))]
        lows = [value(poly_of(lp.lower), c) for c in corners]
        highs = [value(poly_of(lp.upper), c) for c in corners]
        if None in lows or None in highs:
            return None
        box[lp.var] = (min(lows), max(0, -(-(max(highs) - min(lows)) // lp.step)))
    return box


def _active(
    grid: Sequence[Loop],
    env: Mapping[str, Any],
    box: Mapping[str, tuple[int, int]],
    lanes: Sequence[dict],
    samples: int = 24,
) -> tuple[float, float]:
    """(the share of the box's warps with a lane inside the loops' bounds, the share of its lanes
    inside them): 1 for a rectangle; for a triangle, warps sampled evenly over the box."""
    if all(trip_count(lp, env) is not None for lp in grid):
        return 1.0, 1.0
    steps = {}  # each grid loop's sampled warp positions, a warp's extent apart
    for lp in grid:
        first, trip = box[lp.var]
        extent = (max(lane[lp.var] for lane in lanes) - first) // lp.step + 1  # iterations one warp spans
        count = max(1, -(-trip // extent))
        taken = min(samples, count)
        steps[lp.var] = sorted(
            {first + (k * (count - 1) // max(1, taken - 1)) * extent * lp.step for k in range(taken)}
        )
    warps = inside = total = 0
    for corner in itertools.product(*steps.values()):
        base = dict(zip(steps, corner))
        hits = 0
        for lane in lanes:
            point = {**env, **{v: base[v] + lane[v] - box[v][0] for v in base}}
            hits += all(_within(lp, point) for lp in grid)
        warps += hits > 0
        inside += hits
        total += 1
    return warps / total, inside / (total * len(lanes))


def _within(loop: Loop, env: Mapping[str, Any]) -> bool:
    """Whether the loop's iterator at ``env`` is one of its iterations there."""
    low, high = value(poly_of(loop.lower), env), value(poly_of(loop.upper), env)
    x = env[loop.var]
    return low is not None and high is not None and low <= x < high and (x - low) % loop.step == 0


def orio_traffic(
    nest: LoopNest,
    outer: Loop,
    values: Mapping[str, Any],
    inputs: Mapping[str, Any],
    kept: Mapping[str, str],
    vector: int = 1,
    reductions: Sequence[str] = (),
    multiprocessors: int = 132,
) -> Traffic | None:
    """The figures of Orio's mapping: the outer loop over ``threadCount`` threads a block and
    ``blockCount`` blocks (else enough to cover it, at most 32 a multiprocessor), a whole grid
    apart, in one launch per chunk of ``streamCount``; ``vector`` iterations a thread at once
    where vectorize applies. Arrays that cacheBlocks stages are counted as read from global
    memory (an upper bound: the block reads them once)."""
    env = dict(inputs)
    trip, lower = trip_count(outer, env), value(poly_of(outer.lower), env)
    if trip is None or lower is None:
        return None
    threads, streams = values["threadCount"], values["streamCount"]
    # each chunk's iterations (prelude's orcu_chunk), and the blocks of each launch (orcu_blocks_for)
    chunks = [trip * (s + 1) // streams - trip * s // streams for s in range(streams)]
    chunks = [c for c in chunks if c > 0]
    per_chunk = -(-trip // streams)
    blocks = values["blockCount"] or min(max(1, -(-per_chunk // threads)), 32 * multiprocessors)
    stride = blocks * threads
    per_loop = 0  # warp requests of one access: each warp once per turn of the grid-stride loop it has a lane in
    for chunk in chunks:
        covered = -(-chunk // vector)
        for b in range(min(blocks, -(-covered // threads))):
            for w in range(0, threads, WARP):
                first = b * threads + w
                if first < covered:
                    per_loop += -(-(covered - first) // stride)
    lanes = tuple(
        {outer.var: lower + lane * vector * outer.step, "threadIdx.x": lane} for lane in range(min(WARP, threads))
    )
    launch = _Launch(
        (outer,),
        outer.body,
        lanes,
        per_loop,
        blocks * len(chunks),
        threads,
        trip,
        vector=vector,
        ranges=((outer.var, lower, trip, outer.step),),
    )
    found = _accesses(nest, launch, env, {}, kept)
    if found is None:
        return None
    globals_, _, operations, _, _ = found
    return _traffic(launch, globals_ + _reduction(reductions, blocks * len(chunks), threads), [], (), (), operations)


def _reduction(reductions: Sequence[str], blocks: int, threads: int) -> list[Figure]:
    """The grid stage of scalar reductions (prelude's orcu_arrived_last and orcu_fold): each
    block's first thread stores its partial result and counts its arrival (an atomic: one request),
    the last block resets the counter and its threads read every block's partial result."""
    if not reductions:
        return []
    figures = [Figure("the blocks' arrival counter", 1, blocks + 1)]
    for k, ctype in enumerate(reductions):
        size = ELEMENT_BYTES.get(ctype, 8)
        folds: dict[int, int] = {}  # the fold's warp requests by their sectors
        for start in range(0, blocks, threads):
            for w in range(start, min(blocks, start + threads), WARP):
                sectors = len({e * size // SECTOR for e in range(w, min(blocks, w + WARP, start + threads))})
                folds[sectors] = folds.get(sectors, 0) + 1
        figures.append(Figure(f"partial results of reduction {k + 1}", 1, blocks))
        figures += [
            Figure(f"fold of reduction {k + 1}" + (f" ({n} sectors)" if len(folds) > 1 else ""), n, count)
            for n, count in sorted(folds.items())
        ]
    return figures


def _traffic(
    launch: _Launch, globals_, fills, banks, shared_reads, operations, tensor_operations=0, constant_reads=()
) -> Traffic:
    by_array: dict[str, int] = {}
    for f in globals_ + fills:
        by_array[f.array] = by_array.get(f.array, 0) + f.bytes
    return Traffic(
        tuple(globals_),
        tuple(fills),
        banks,
        launch.outputs,
        launch.blocks,
        launch.threads,
        tuple(shared_reads),
        operations,
        tuple(by_array.items()),
        math.prod(t for _, t in launch.tiles),
        tensor_operations,
        constant_reads=tuple(constant_reads),
    )


def _accesses(
    nest: LoopNest,
    launch: _Launch,
    env: Mapping[str, Any],
    shared: Mapping[str, tuple[str, int]],
    kept: Mapping[str, str],
    constant: frozenset[str] | set[str] = frozenset(),
):
    """(the global figures of each access, (tile, requests, ways, repeats) of each read of a
    ``shared`` tile (by the access's text: the tile's name and bank ways), the arithmetic operations, those on the tensor cores, (array, warp requests) of the reads of the
    ``constant`` arrays' copies) of the kernel's body; None where a number is not known at ``env``."""
    arrays = shapes(nest)
    grid = {lp.var for lp in launch.grid}
    found: dict[str, Figure] = {}
    reads: dict[str, tuple[str, int, int, int]] = {}
    held: dict[str, str] = {}  # register elements counted already (a load and a store around their loop): the loop
    constant_reads: Counter[str] = Counter()
    operations = tensor_operations = 0
    row_var, split_var = (launch.row[0] if launch.row else None), (launch.split[0] if launch.split else None)
    for st, loops in statements(launch.body):
        inner = [lp for lp in loops if lp.var not in grid]
        counted = _runs(inner, env, launch, grid)
        if counted is None:
            return None
        runs, executed, here = counted
        in_row = any(lp.var == row_var for lp in inner)
        in_split = any(lp.var == split_var for lp in inner)
        operations += statement_operations(st.node) * launch.outputs * executed * launch.vector
        on_tensor = launch.tensor is not None and any(lp.var == launch.tensor[0] for lp in inner)
        if on_tensor:
            tensor_operations += statement_operations(st.node) * launch.outputs * executed
        lanes = _row_lanes(launch, inner, here, in_row, in_split)
        inside = {lp.var for lp in inner}
        shaped = [next(s for s in arrays[a.array] if s.access is a) for a in st.accesses]
        folded = {s.access.text for s in shaped if in_row and _folded(s, row_var)}
        summed = {s.access.text for s in shaped if in_split and _folded(s, split_var)}
        written = {a.text for a in st.accesses if a.write}
        for access in st.accesses:
            sh = next(s for s in arrays[access.array] if s.access is access)
            used = set().union(*(d.names for d in sh.dims)) if sh.dims else set(grid)
            repeats = math.prod(t for v, t in launch.tiles if v not in used)
            size = ELEMENT_BYTES.get(canonical_type(nest.variables[access.array].ctype.base), 8)
            if access.text in shared:
                share = dict(launch.tensor[1]).get(access.text, 1.0) if on_tensor else 1.0
                _shared_read(reads, access, launch, runs[-1], size, repeats, shared[access.text], share)
                continue
            if access.array in constant:  # the cache serves a warp's request one distinct element at a time
                issued = int(launch.per_loop * runs[-1] // repeats)
                constant_reads[access.array] += issued * _distinct(nest, sh, here, lanes)
                continue
            if held.get(access.text) in inside:
                continue
            # turns of the thread's loops that issue it; 2 where loaded and stored around a loop, 1 an atomicAdd
            turns, factor, lanes_here = runs[-1], 1, lanes
            if access.text in folded:  # a share of the row's reduction: in a register, combined once per row
                lanes_here = [lane for lane in lanes if lane["threadIdx.x"] == 0]
            around = _kept_over(access.text, folded, summed, kept, inside, launch)
            if around is not None:  # the turns of the loops outside the one it is kept over
                held[access.text] = around
                turns, factor = runs[[lp.var for lp in inner].index(around)], 1 if access.text in summed else 2
            strides = element_strides(nest, sh, here)
            if sh.dims is None or strides is None:
                return None
            addresses = [_element(sh, strides, {**here, **lane}) for lane in lanes_here]
            if None in addresses:
                return None
            width = launch.vector
            requests = round(factor * launch.per_loop * turns)
            if access.text in summed:  # atomicAdd, an element at a time, by the warps of each block's first row
                requests = round(requests * launch.split[2])
            elif _as_vector(st, sh, launch, written, factor == 2 and access.text not in folded, addresses, strides):
                width = launch.width
                requests = round(factor * (launch.per_loop * turns // width + launch.edges * turns) // repeats)
                repeats = 1
            sectors = {(a * size + b) // SECTOR for a in addresses for b in (0, width * size - 1)}
            earlier = found.get(access.text)
            found[access.text] = Figure(
                access.text, len(sectors), requests + (earlier.requests if earlier else 0), access.array, repeats
            )
    return list(found.values()), list(reads.values()), operations, tensor_operations, list(constant_reads.items())


def _row_lanes(
    launch: _Launch, inner: list[Loop], here: Mapping[str, int], in_row: bool, in_split: bool = False
) -> list[dict[str, int]]:
    """The first warp's lanes at a statement: outside a row's loop its threads agree on every
    address, and the row's first thread stands for them; inside, each lane its own iteration.
    In a split loop each row of threads runs its own iteration (the rows a whole grid's apart)."""
    if in_split and launch.split:
        split, step = launch.split[0], next(lp.step for lp in inner if lp.var == launch.split[0])
        return [{**lane, split: here[split] + lane["threadIdx.y"] * step} for lane in launch.lanes]
    row_var = launch.row[0] if launch.row else None
    if row_var is None:
        return list(launch.lanes)
    if not in_row:
        return [lane for lane in launch.lanes if lane["threadIdx.x"] == 0]
    step = next(lp.step for lp in inner if lp.var == row_var)
    return [{**lane, row_var: here[row_var] + lane["threadIdx.x"] * step} for lane in launch.lanes]


def _kept_over(
    text: str, folded: set[str], summed: set[str], kept: Mapping[str, str], inside: set[str], launch: _Launch
) -> str | None:
    """The loop an access's element stays in a register over (loaded before it, stored after
    it), or None: a share of a row's reduction over the row's loop, a share of a split sum over
    the split loop, an element the plan keeps over a loop around the statement."""
    if text in folded:
        return launch.row[0] if launch.row else None
    if text in summed:
        return launch.split[0] if launch.split else None
    return kept[text] if kept.get(text) in inside else None


def _runs(inner: list[Loop], env: Mapping[str, Any], launch: _Launch, grid: set[str]):
    """(the iterations of each loop around a statement per thread, outermost first, from 1; those
    of all the threads of a row together; the values at each loop's first iteration), or None
    where a trip count is not a known number."""
    row_var = launch.row[0] if launch.row else None
    split_var = launch.split[0] if launch.split else None
    runs: list[float] = [1]
    executed = 1
    here = dict(env)
    for lp in inner:  # each loop at its first iteration; its trip count from there
        trip = trip_count(lp, {**here, **launch.lanes[0]})
        start = value(poly_of(lp.lower), {**here, **launch.lanes[0]})
        if trip is None or start is None:
            return None
        if (poly_of(lp.lower).names | poly_of(lp.upper).names) & grid:  # a bound that follows the grid: a triangle
            trip = _warp_trip(lp, here, launch)
            if trip is None:
                return None
        executed *= trip
        if lp.var == row_var:
            runs.append(runs[-1] * -(-trip // launch.row[1]))
        elif lp.var == split_var:  # its rows a grid apart: a warp runs it as often as its first row
            runs.append(runs[-1] * _split_turns(trip, launch.split[1], launch.split[3]))
        else:
            runs.append(runs[-1] * trip)
        here[lp.var] = start
    return runs, executed, here


def _split_turns(trip: int, rows: int, spans: int) -> float:
    """Turns of a split loop of ``trip`` iterations a warp runs, averaged over the grid's ``rows``
    along y, a warp spanning ``spans`` of them: the rows below the remainder run one turn more."""
    whole, rest = divmod(trip, rows)
    return whole + -(-rest // spans) / -(-rows // spans)


def _shared_read(
    reads: dict,
    access,
    launch: _Launch,
    turns: int,
    size: int,
    repeats: int,
    tile: tuple[str, int],
    share: float = 1.0,
) -> None:
    """Count one read of a shared ``tile`` (its name, its bank ways): (tile, requests, ways,
    repeats) by the access's text; ``share``: the part of the scalar reads the kernel issues
    (the tensor cores' operands)."""
    name, ways = tile
    count, width = round((launch.every or launch.per_loop) * turns * share), 1
    if access.text in launch.vectors:  # one load a group, shared by the groups that read it (codegen)
        count, width, repeats = count // launch.width // repeats, launch.width, 1
    phases = -(-min(WARP, launch.threads) * max(4, size * width) // 128)
    before = reads.get(access.text, (name, 0, ways * phases, repeats))
    reads[access.text] = (name, before[1] + count, before[2], repeats)


def _as_vector(st, sh, launch: _Launch, written: set[str], kept: bool, addresses, strides) -> bool:
    """Whether codegen/tiled.py moves the access a group at a time (phase2.moves_as_vector), and
    every row starts a vector where the first does, at the first element's ``addresses`` (else
    each element alone, as codegen's check finds)."""
    return (
        sh.access.text in launch.vectors
        and moves_as_vector(
            sh, {v for v, t in launch.tiles if t > 1}, kept=kept, node=st.node, written=sh.access.text in written
        )
        and addresses[0] % launch.width == 0
        and all(n % launch.width == 0 for n in strides[:-1])
    )


def _warp_trip(loop: Loop, env: Mapping[str, Any], launch: _Launch, samples: int = 17) -> int | None:
    """The mean trip count of a loop whose bounds follow the grid's loops, over the warps: each
    warp runs it as often as its longest lane does; warps sampled evenly over the grid's range."""
    follows = [r for r in launch.ranges if r[0] in poly_of(loop.lower).names | poly_of(loop.upper).names]
    trips = []
    for k in range(samples):
        shift = {}
        for var, first, trip, step in follows:  # the first warp's lanes moved k/(samples-1) of the way along the range
            reach = max(lane[var] for lane in launch.lanes) - first
            shift[var] = (k * max(0, (trip - 1) * step - reach) // (samples - 1)) // step * step
        counts = [
            trip_count(loop, {**env, **lane, **{v: lane[v] + d for v, d in shift.items()}}) for lane in launch.lanes
        ]
        if None in counts:
            return None
        trips.append(max(counts))
    return round(sum(trips) / len(trips))


def _folded(sh, row: str) -> bool:
    """Whether an access in a row's loop is the target of the row's folded reduction: written,
    at an element the row's loop does not move (codegen/mapped.py's targets)."""
    return sh.access.write and sh.dims is not None and all(row not in d.names for d in sh.dims)


_ARITHMETIC = {"+", "-", "*", "/", "%", "+=", "-=", "*=", "/="}


def statement_operations(node) -> int:
    """Arithmetic operations of one statement (a multiply-add counts two, as peak rates do)."""
    count = 0
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        op = getattr(n, "op", None)
        if op in _ARITHMETIC and type(n).__name__ in ("BinaryOp", "Assignment"):
            count += 1
        # a subscript's arithmetic is the address's: integer work beside the floating-point work that peak rates count
        stack.extend(
            child for name, child in n.children() if not (type(n).__name__ == "ArrayRef" and name == "subscript")
        )
    return count


def _distinct(nest: LoopNest, sh, here: Mapping[str, Any], lanes: Sequence[Mapping[str, int]]) -> int:
    """The distinct elements a warp's lanes read at one access (1 where a subscript is not known)."""
    strides = element_strides(nest, sh, here)
    if sh.dims is None or strides is None:
        return 1
    addresses = {_element(sh, strides, {**here, **lane}) for lane in lanes}
    return 1 if None in addresses else len(addresses)


def _element(sh, strides: list[int], env: Mapping[str, Any]) -> int | None:
    """The element an access reads, counted from the array's start, at ``env``."""
    index = [value(d, env) for d in sh.dims]
    return None if None in index else sum(i * s for i, s in zip(index, strides))
