"""Phase II's shared tiles: an array only read whose elements the threads of a block read
several times between them, copied by the block tile by tile (tsg/phase2.py decides which
arrays; this module finds each one's box and judges its reads).

A tile covers the box the block's accesses read along each dimension of the array (the tiled
loops' coefficients, alike in every access, and the accesses' constant distances), once per
block tile or per strip of the deepest sequential loop its subscripts use; its bank
conflicts are those of a warp's reads (SharedTile.ways), its fill's are none (its order).
Accesses of one array that move unlike along the tiled loops (syrk's A[i][k], rows of the
block's i, and A[j][k], rows of its j) are tiles of their own, its parts (SharedTile.part),
copied together when the array is shared; a group with no box or no reuse reads global memory."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod

from orcu.analysis.affine import Poly, poly_of
from orcu.analysis.poly import Dependences
from orcu.analysis.subscripts import Shaped
from orcu.frontend.ir import Loop
from orcu.tsg.banks import WORD, bank_ways
from orcu.tsg.phase1 import bound_names
from orcu.tsg.tensor_cores import TENSOR_ROWS
from orcu.tsg.vectors import VECTOR_BYTES

NOMINAL = 16  # threads along each axis, and iterations of a strip, on which reuse is judged
STATIC_SHARED = 48 * 1024  # bytes of __shared__ arrays a block declares statically, on every GPU since Fermi


@dataclass(frozen=True)
class TileDim:
    """One dimension of a shared tile: ``sum(coef * var) + rest + offset`` over the accesses,
    with ``offset`` from ``low`` to ``high``."""

    coefs: tuple[tuple[str, int], ...]  # the tile's loops (grid loops, the strip's loop) in it
    rest: Poly  # the part every thread of the block agrees on, of the first access
    low: int
    high: int

    def extent(self, counts: Mapping[str, int]) -> int:
        """Elements along this dimension when each loop takes ``counts[var]`` consecutive values."""
        return 1 + sum(c * (counts[v] - 1) for v, c in self.coefs) + self.high - self.low


@dataclass(frozen=True)
class SharedTile:
    """An array copied to shared memory: per block tile, or per strip of a sequential loop."""

    array: str
    loop: str | None  # the sequential loop strip-mined around the copy; None: once per block tile
    dims: tuple[TileDim, ...]
    offsets: tuple[tuple[int, ...], ...]  # each access's offset along each dimension (from low)
    accesses: tuple[Shaped, ...]
    padded: bool  # thread x moves along a dimension that is not the last: rows get one more element
    reuse: float  # reads per element copied, at NOMINAL threads and strip
    # the loop around ``loop`` strip-mined with it (its body is that loop alone): one copy per pair
    # of strips, reused across both (a convolution's filter rows and columns); None: ``loop`` alone
    outer: str | None = None
    # an operand of the tensor cores: rows of 16k + 4 doubles, so that the 8 x 4 and 4 x 8 elements a
    # warp reads for one instruction fall in distinct banks (a multiple of 16 puts them in 4)
    tensor_rows: bool = False
    # one of several tiles of the array, each of the accesses that move alike along the tiled
    # loops (syrk's A[i][k] and A[j][k]: a block's rows of i, and its rows of j); 0: the first
    part: int = 0

    @property
    def key(self) -> str:
        """The tile's name among the block's tiles (its array's, with its part past the first)."""
        return f"{self.array}#{self.part + 1}" if self.part else self.array

    @property
    def label(self) -> str:
        """The tile as figures and the kernel name it."""
        return self.named("shared")

    def named(self, what: str) -> str:
        """A name of the tile's storage: its array's, ``what`` it is, and its part past the first."""
        return f"{self.array}_{what}" + (f"{self.part + 1}" if self.part else "")

    @property
    def strips(self) -> tuple[str, ...]:
        """The loops strip-mined around its copy, outermost first."""
        return tuple(v for v in (self.outer, self.loop) if v)

    def vector_lanes(self, counts: Mapping[str, int], size: int) -> int:
        """Elements its fill moves per thread at once, 16 bytes of them (1: one by one): rows
        along the array's contiguous dimension, unpadded, a whole number of vectors wide."""
        kept = [k for k, d in enumerate(self.dims) if d.coefs or d.high > d.low]
        strides = self.accesses[0].strides
        lanes = 16 // size if size in (4, 8) else 1
        if lanes == 1 or not kept or self.padded or kept[-1] != len(self.dims) - 1:
            return 1
        if (
            strides is None or strides[-1].constant != 1
        ):  # flat rows only: their alignment is checked when the kernel runs
            return 1
        return lanes if self.dims[-1].extent(counts) % lanes == 0 else 1

    def vector_read(self, k: int, x: str, width: int, counts: Mapping[str, int]) -> bool:
        """Whether access ``k`` of the tile reads a thread's ``width`` consecutive iterations of x
        as one aligned vector: x alone moves the tile's last dimension, one element a step, from
        an offset and along rows that are whole vectors."""
        kept = [n for n, d in enumerate(self.dims) if d.coefs or d.high > d.low]
        if width == 1 or self.padded or not kept or kept[-1] != len(self.dims) - 1 or self.dims[-1].coefs != ((x, 1),):
            return False
        return self.offsets[k][-1] % width == 0 and (len(kept) == 1 or self.shape(counts)[-1] % width == 0)

    def shape(self, counts: Mapping[str, int]) -> tuple[int, ...]:
        """Declared extents: dimensions of one element dropped, the last one padded."""
        dims = [d.extent(counts) for d in self.dims if d.coefs or d.high > d.low]
        if self.padded and dims:
            dims[-1] += 1
        if self.tensor_rows and dims:
            dims[-1] += (TENSOR_ROWS - dims[-1]) % 16
        return tuple(dims) or (1,)

    def ways(
        self,
        shape: tuple[int, int],
        counts: Mapping[str, int],
        tiles: Mapping[str, int],
        axes: Mapping[str, str],
        x: str,
        width: int,
        element_bytes: int,
    ) -> int:
        """The most requests of one warp that fall in one bank, over the tile's reads by each
        iteration of the register tile (``tiles``: its iterations along each grid loop, on
        ``axes``; ``width``: those along x read as one vector), the block ``shape`` threads;
        1: free of bank conflicts (its fill is, by its order)."""
        tx, ty = shape
        threads = {v: tx if axes[v] == "x" else ty for v in tiles}
        lanes = [(lane % tx, lane // tx % ty) for lane in range(min(32, tx * ty))]
        vectors = [self.vector_read(a, x, width, counts) for a in range(len(self.offsets))]
        strides = self._strides(counts)
        # an address is linear in the loops' values: each access adds its offsets' part to the
        # part the lane's position gives, the same for every access
        weights = self._weights(strides)
        bases = [sum(offsets[k] * stride for k, stride in strides) for offsets in self.offsets]
        # Another iteration of the register tile moves every lane's address by one amount: where
        # that is whole words (elements of 4 bytes or more), the words' banks turn round
        # together and each bank serves as many words as before, so its first iteration says all.
        its = itertools.product(*(range(n) for n in tiles.values())) if element_bytes % WORD else [(0,) * len(tiles)]
        worst = 1
        for it in its:
            rank = dict(zip(tiles, it))
            moved = [
                sum(
                    w * position(v, lx if axes[v] == "x" else ly, rank[v], x, width, threads)
                    for v, w in weights.items()
                    if v in rank
                )
                for lx, ly in lanes
            ]
            for base, vector in zip(bases, vectors):
                if vector and rank[x] % width:
                    continue  # read with the group's first iteration
                size = element_bytes * (width if vector else 1)
                worst = max(worst, bank_ways([element_bytes * (base + m) for m in moved], size))
        return worst

    def addresses(
        self, offsets: tuple[int, ...], positions: Sequence[Mapping[str, int]], counts: Mapping[str, int], size: int
    ) -> list[int]:
        """The byte address in the tile of the element an access (its ``offsets``) reads at each
        of ``positions``: each loop's value from the tile's first (0 where it names none)."""
        strides = self._strides(counts)
        weights = self._weights(strides)
        base = sum(offsets[k] * stride for k, stride in strides)
        return [size * (base + sum(w * at.get(v, 0) for v, w in weights.items())) for at in positions]

    def _strides(self, counts: Mapping[str, int]) -> list[tuple[int, int]]:
        """Each dimension the tile declares, with its stride in elements."""
        declared = self.shape(counts)
        kept = [k for k, d in enumerate(self.dims) if d.coefs or d.high > d.low]
        return [(k, prod(declared[n + 1 :])) for n, k in enumerate(kept)]

    def _weights(self, strides: Sequence[tuple[int, int]]) -> dict[str, int]:
        """Elements of the tile one step of each loop moves an access."""
        weights: dict[str, int] = {}
        for k, stride in strides:
            for v, c in self.dims[k].coefs:
                weights[v] = weights.get(v, 0) + c * stride
        return weights


def position(var: str, thread: int, rank: int, x: str, width: int, threads: Mapping[str, int]) -> int:
    """The iteration of a grid loop, from its tile's first, that a thread's ``rank``-th runs:
    ranks a block apart, or along x (``width`` > 1) in groups of ``width`` consecutive ones."""
    if var == x and width > 1:
        group, lane = divmod(rank, width)
        return (thread + group * threads[var]) * width + lane
    return thread + rank * threads[var]


def double_buffered(tiles: list[SharedTile], counts: Mapping[str, int], element_bytes: Mapping[str, int]) -> bool:
    """Whether the tiles copied per strip of one loop (not per pair of strips: their copy is
    reused across the inner strips) get two buffers each, the next strip copied into one while
    the threads read the other: where every tile of the block fits the static shared memory
    with those doubled, and each buffer is a whole number of 16-byte vectors (the second stays
    aligned for them)."""
    strips = [t for t in tiles if t.loop and not t.outer]
    sizes = {t.key: prod(t.shape(counts)) * element_bytes[t.array] for t in tiles}
    if not strips or any(sizes[t.key] % VECTOR_BYTES for t in strips):
        return False
    return sum(sizes.values()) + sum(sizes[t.key] for t in strips) <= STATIC_SHARED


def uniform(loop: Loop, grid: set[str], scalars: list[str]) -> bool:
    """Whether every thread of a block runs the loop alike (its bounds name no grid loop and no private scalar)."""
    for bound in (loop.lower, loop.upper):
        p = poly_of(bound)
        if p is None or p.names & (grid | set(scalars)):
            return False
    return True


def follows(bound, grid: set[str], free: set[str]) -> bool:
    """Whether a loop bound is affine, names none of ``free``, and names each of the ``grid``
    loops with a constant coefficient: a block tile runs it at those loops' extreme values in
    the tile (codegen/tile_iterations.tile_bound), each iteration guarded by its own."""
    p = poly_of(bound)
    return (
        p is not None
        and not p.names & free
        and all(p.split(v) is not None and p.split(v)[0].constant is not None for v in p.names & grid)
    )


def widens(loop: Loop, grid: list[Loop], scalars: list[str]) -> bool:
    """Whether a strip's loop whose bounds follow the grid loops (trmm's ``k`` from ``i + 1``,
    no private scalar) runs over the union of its block's ranges, from the bound at the block's
    extreme value of each grid loop, each thread's iterations guarded by its own bounds
    (codegen/tiled.py): every thread then reaches the strips' barriers."""
    grid_vars = {lp.var for lp in grid}
    return all(follows(bound, grid_vars, set(scalars)) for bound in (loop.lower, loop.upper))


def _tile_dims(accesses: list[Shaped], tiled) -> tuple[list[TileDim], list[list[int]]] | str:
    """The tile's box along each dimension of the array (the coefficients of the tiled loops,
    alike in every access of the group, and the accesses' constant distances), with each
    access's offset in it; or why the accesses make no box."""
    dims: list[TileDim] = []
    offsets: list[list[int]] = [[] for _ in accesses]
    for k in range(len(accesses[0].dims)):
        coefs: tuple[tuple[str, int], ...] = ()
        rests = []
        for sh in accesses:  # one group (_groups): the tiled loops' coefficients are the same in each
            p, own = sh.dims[k], []
            for var in sorted(tiled):
                coef, p = p.split(var) or (None, p)
                if coef is None or coef.constant is None or coef.constant < 0:
                    return f"'{var}' moves its subscripts with a coefficient that is not a positive constant"
                if coef.constant:
                    own.append((var, coef.constant))
            coefs = tuple(own)
            rests.append(p)
        deltas = [(r - rests[0]).constant for r in rests]
        if any(d is None for d in deltas):
            return "its accesses are not a constant distance apart"
        low = min(deltas)
        dims.append(TileDim(coefs, rests[0] + Poly.const(low), 0, max(deltas) - low))
        for j, d in enumerate(deltas):
            offsets[j].append(d - low)
    return dims, offsets


def shared_tile(
    name: str,
    accesses: list[Shaped],
    written: set[str],
    grid: list[Loop],
    body: tuple,
    scalars: list[str],
    x: str,
    conditional: set[str],
    deps: Dependences | None = None,
) -> tuple[SharedTile, ...] | str:
    """The array's shared tiles, one per group of its accesses that move alike along the tiled
    loops and have reuse (the others read global memory), or why it has none; with ``deps`` (the nest's dependences), a
    pair of strips where its subscripts use the strip's loop and the one around it, a loop whose
    body is the strip's loop alone, that may be swapped with it."""
    if name in written:
        return "the nest writes it (shared copies are for data the block only reads)"
    if any(sh.dims is None or not sh.exact for sh in accesses):
        return "a subscript is not affine in the loops, so the elements a block reads are not a box"
    guarded = next((sh.access.text for sh in accesses if sh.access.text in conditional), None)
    if guarded:
        return f"'{guarded}' is read under a condition: the loops' ranges do not bound the elements it reads"
    grid_vars = {lp.var for lp in grid}
    paths = [[lp for lp in sh.loops if lp.var not in grid_vars] for sh in accesses]
    common = [level[0] for level in itertools.takewhile(lambda level: all(lp is level[0] for lp in level), zip(*paths))]
    used = set().union(*(p.names for sh in accesses for p in sh.dims))
    beyond = sorted({lp.var for path in paths for lp in path[len(common) :]} & used)
    if beyond:
        return f"the loop on '{beyond[0]}' moves its subscripts inside the loops its reads share"
    strip = next((lp for lp in reversed(common) if lp.var in used), None)
    path = common[: common.index(strip) + 1] if strip else []
    for lp in path:
        if not uniform(lp, grid_vars, scalars) and not (lp is strip and widens(lp, grid, scalars)):
            return f"the loop on '{lp.var}' does not run alike in every thread of a block (its bounds), so no barrier fits it"
    if strip is not None and strip.step != 1:
        return f"the loop on '{strip.var}' steps by {strip.step}"
    if strip is not None and strip.descending:  # strips run up; the loop's order may matter
        return f"the loop on '{strip.var}' counts down"
    outer = path[-2] if deps is not None and len(path) > 1 and uniform(strip, grid_vars, scalars) else None
    if outer is not None and not (
        outer.var in used
        and len(outer.body) == 1
        and outer.body[0] is strip
        and outer.step == 1
        and not outer.descending
        and outer.var not in bound_names(strip)
        and deps.permutable(outer.var, strip.var) is None
    ):
        outer = None
    tiled = {lp.var: lp for lp in grid} | {lp.var: lp for lp in (strip, outer) if lp is not None}
    for lp in grid:
        if lp.step != 1 and lp.var in used:
            return f"the loop on '{lp.var}' steps by {lp.step}"
    if used & set(scalars):
        return f"its subscripts read '{sorted(used & set(scalars))[0]}', which the threads write"
    made: list[SharedTile] = []
    why = ""
    for group in _groups(accesses, tiled):
        tile = _tile(name, group, tiled, strip, outer, x, len(made))
        if isinstance(tile, str):
            why = why or tile
        else:
            made.append(tile)
    return tuple(made) or why


def _groups(accesses: list[Shaped], tiled: Mapping[str, Loop]) -> list[list[Shaped]]:
    """The accesses in groups that move alike along the tiled loops (each dimension's
    coefficients of them the same), in the order of their first access: each group a tile."""
    groups: dict[tuple, list[Shaped]] = {}
    for sh in accesses:
        sign = tuple(tuple((v, (p.split(v) or (None,))[0]) for v in sorted(tiled)) for p in sh.dims)
        groups.setdefault(sign, []).append(sh)
    return list(groups.values())


def _tile(
    name: str,
    accesses: list[Shaped],
    tiled: Mapping[str, Loop],
    strip: Loop | None,
    outer: Loop | None,
    x: str,
    part: int,
) -> SharedTile | str:
    """The tile of one group of the array's accesses, or why it has none."""
    boxed = _tile_dims(accesses, tiled)
    if isinstance(boxed, str):
        return boxed
    dims, offsets = boxed
    counts = {v: NOMINAL for v in tiled}
    footprint = prod(d.extent(counts) for d in dims)
    reads = len(accesses) * NOMINAL ** (len(tiled))
    if footprint >= reads:
        return f"no reuse across the threads of a block: each element is read once ({NOMINAL} threads per axis)"
    kept_dims = [d for d in dims if d.coefs or d.high > d.low]
    padded = any(v == x for d in kept_dims[:-1] for v, _ in d.coefs)
    return SharedTile(
        name,
        strip.var if strip else None,
        tuple(dims),
        tuple(tuple(o) for o in offsets),
        tuple(accesses),
        padded,
        reads / footprint,
        outer.var if outer else None,
        part=part,
    )
