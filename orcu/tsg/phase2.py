"""Phase II of the TSG: where the data lives while a schedule runs (Khan's thesis, docs/design.md: Sources; section 5.4).

For each kept schedule, the candidates of the master recipe, each with its condition, and
every array that is not one with the reason:

- *register tiles*: each thread computes a small tile of the grid loops' iterations (unroll
  and jam of the grid loops, a whole block apart along each axis so that a warp still reads
  consecutive elements); the thread's private scalars (accumulators) and the array elements
  a sequential loop updates at one place become registers, one per iteration of the tile;
- *shared memory*: an array only read, whose elements the threads of a block read several
  times between them (reuse across threads: a grid loop missing from its subscripts, or
  neighbouring threads reading overlapping windows), is copied tile by tile by the whole
  block in coalesced order, then read from the copy. The copy sits at the level of the
  deepest sequential loop its subscripts use (strip-mined by ``sharedDepth``), or once per
  block tile when they use none; a tile read with thread x moving along a row that is not
  the contiguous one is padded by one element so that the reads hit distinct banks. An
  array whose accesses move unlike along the block's loops (syrk's A[i][k] and A[j][k]) has a
  tile per group of alike accesses, all copied when the array is shared. A read
  under an ``if`` whose test only narrows iterators (``if (i >= 1) ... a[i - 1][j]``) may be
  in a tile, its fill kept inside the narrowed box; under any other condition it may not. With
  ``doubleBuffer``, the tiles of a strip get two buffers where they fit (double_buffered):
  the next strip's copy is in flight while the threads read this one, one barrier a strip;
- *constant memory*: an array only read whose one flat subscript names the same element for
  every thread of a block (it reads only loops all threads run alike, and sizes) is read
  from a ``__constant__`` copy of CONSTANT_BYTES when it fits, from global memory otherwise;
- *the read-only path*: arrays only read are ``const __restrict__`` kernel arguments;
- *vectors*: with ``vectorize``, a thread's register tile along x is consecutive iterations,
  in groups of up to 16 bytes of elements, the groups a block apart; an access that x moves
  one element a step along its contiguous dimension (only there) reads or writes a group as
  one vector (``float4``, ``double2``) when the group is whole and aligned as the kernel
  runs, element by element otherwise; a shared tile read that way the same.

Block tiles need loops every thread of a block runs alike (barriers are reached by all):
grid loops with bounds free of one another, sequential loops with bounds free of the grid
loops, or a shared tile's strip whose bounds follow them (trmm's ``k`` from ``i + 1``), which
the block runs over the union of its threads' ranges, each iteration guarded by its own. Where a schedule has none, the reason is the recipe's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from math import prod

from pycparser import c_ast

from orcu.analysis.affine import Poly, poly_of
from orcu.analysis.poly import Dependences
from orcu.analysis.subscripts import Shaped, bounds_iterators, shapes
from orcu.frontend.ir import Loop, LoopNest, c_text, loops_of, statements
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.spec.schedule import Schedule
from orcu.tsg.phase1 import kernel_body
from orcu.tsg.shared_tiles import SharedTile, follows, shared_tile, uniform
from orcu.tsg.tensor_cores import K, Product, product, warp_layout
from orcu.tsg.vectors import (
    _has_vectors,
    contiguous,
    starts_aligned,
    vector_width,
)

CONSTANT_BYTES = 16384  # constant memory an array may take: four such arrays fill the 64 KB of a file
SHARED_DEPTH = 16  # sharedDepth's default


@dataclass(frozen=True)
class Placement:
    """Phase II's decisions for one schedule."""

    schedule: str
    blocked: str | None  # why block and register tiles cannot apply; None when they can
    grid: tuple[str, ...]  # the loops that take register tiles
    shared: tuple[SharedTile, ...]
    rejected: tuple[tuple[str, str], ...]  # (array, why it stays in global memory)
    accumulators: tuple[str, ...]  # private scalars: one register per iteration of a register tile
    read_only: tuple[str, ...]
    constant: tuple[str, ...] = ()  # arrays every thread of a warp reads alike: constant memory candidates
    not_constant: tuple[tuple[str, str], ...] = ()  # (array only read, why it is no constant candidate)
    x: str = ""  # the grid loop on threadIdx.x
    along_x: tuple[str, ...] = ()  # accesses (their text) that x moves one element a step: vector candidates
    # arrays of elements CUDA has no vector type of (short, char): in a shared tile, the tile's
    # layout and its banks are those of elements read one by one, so no access moves as vectors
    no_vectors: tuple[str, ...] = ()
    tensor: Product | None = None  # the multiply-add the tensor cores can run (tsg/tensor_cores.py)
    no_tensor: str = ""  # why there is none

    def tile(self, key: str) -> SharedTile | None:
        """The tile of that key (SharedTile.key: an array's name for its first)."""
        return next((t for t in self.shared if t.key == key), None)

    def parts(self, array: str) -> list[SharedTile]:
        """The array's tiles: one per group of its accesses that move alike (SharedTile.part)."""
        return [t for t in self.shared if t.array == array]

    def tiles(self, values: Mapping) -> list[SharedTile]:
        """The shared tiles of a configuration (``values["shared"]``: all the parts of each
        array the placement has tiles of), the tensor cores' operands with their rows laid out
        for the warps' reads."""
        operands = self.tensor.arrays if self.tensor is not None and values.get("tensorCores") else ()
        return [
            replace(t, tensor_rows=True) if t.array in operands else t for n in values["shared"] for t in self.parts(n)
        ]

    def tiled_reads(self, values: Mapping) -> dict[str, SharedTile]:
        """The accesses a configuration reads from its shared tiles, by text: each one's tile."""
        return {sh.access.text: t for t in self.tiles(values) for sh in t.accesses}

    def problem(
        self,
        values: Mapping,
        schedule: Schedule,
        shape: tuple[int, int],
        element_bytes: Mapping[str, int],
        shared_limit: int,
    ) -> str | None:
        """Why a configuration's ``registerTile``, ``shared`` and ``sharedDepth`` cannot run this
        schedule (None when they can): what the recipe rules out, shared memory past the device's."""
        tiles = {v: n for v, n in values["registerTile"].items() if n > 1}
        if (tiles or values["shared"] or values["constant"]) and self.blocked:
            return f"no register, shared or constant placement with the mapping '{self.schedule}': {self.blocked}"
        if values["vectorize"]:
            if self.blocked or not self.along_x:
                return f"vectorize: no access moves as vectors with the mapping '{self.schedule}': " + (
                    self.blocked or f"none moves one element a step along its contiguous dimension with '{self.x}'"
                )
            if tiles.get(self.x, 1) == 1:
                return f"vectorize: the register tile along '{self.x}' has one iteration (the same code as vectorize=False)"
        for name in values["constant"]:
            if name not in self.constant:
                why = dict(self.not_constant).get(name, "the nest writes it")
                return f"constant: '{name}' cannot be in constant memory with the mapping '{self.schedule}': {why}"
            if name in values["shared"]:
                return f"'{name}' is in constant memory and in shared memory: one place"
        for v in tiles:
            if v not in self.grid:
                return f"registerTile: '{v}' is not a grid loop of the mapping '{self.schedule}'"
        rejected = dict(self.rejected)
        for name in values["shared"]:
            if not self.parts(name):
                why = rejected.get(name, "it is not read in the loops the threads run")
                return f"shared: '{name}' cannot be copied to shared memory with the mapping '{self.schedule}': {why}"
        strips = [t for n in values["shared"] for t in self.parts(n) if t.loop]
        if not strips and values["sharedDepth"] != SHARED_DEPTH:
            return f"sharedDepth={values['sharedDepth']}: no shared tile is a strip of a loop (the same code as sharedDepth={SHARED_DEPTH})"
        counts = self.counts(values, schedule, shape)
        if values.get("tensorCores"):
            found = self._tensor_problem(values, shape, counts)
            if found:
                return f"tensorCores: {found}"
        total = sum(prod(t.shape(counts)) * element_bytes[t.array] for t in self.tiles(values))
        if total > shared_limit:
            return f"the shared tiles take {total} bytes per block, above the {shared_limit} of the device"
        return None

    def _tensor_problem(self, values: Mapping, shape: tuple[int, int], counts: Mapping[str, int]) -> str | None:
        if self.tensor is None:
            return self.no_tensor or f"no multiply-add for them with the mapping '{self.schedule}'"
        missing = [a for a in self.tensor.arrays if a not in values["shared"]]
        if missing:
            return f"'{missing[0]}' is not in shared memory: the warps read their operands from the shared tiles"
        others = [a for a in values["shared"] if a not in self.tensor.arrays]
        if others:
            return f"'{others[0]}' is in shared memory: only the operands' tiles are laid out for the warps' reads"
        if values["vectorize"]:
            return "a thread's sums are the instruction's, not consecutive iterations along x (vectorize=False)"
        if values["sharedDepth"] % K:
            return f"sharedDepth={values['sharedDepth']} is not a multiple of the instruction's {K} iterations"
        layout = warp_layout(shape, counts, self.tensor)
        return layout if isinstance(layout, str) else None

    def vectors(
        self, values: Mapping, sizes: Mapping[str, int], lower: Poly | None, shaped: Mapping[str, Shaped]
    ) -> tuple[int, frozenset[str]]:
        """(iterations of x a thread moves as one vector, the global accesses that move so, by
        their text) of a configuration; (1, none) without vectorize. ``sizes``: bytes of each
        array's element; ``lower``: the x loop's lower bound; ``shaped``: accesses by text."""
        if not values["vectorize"] or not self.along_x or lower is None or set(values["shared"]) & set(self.no_vectors):
            return 1, frozenset()
        width = vector_width(
            values["registerTile"].get(self.x, 1), [sizes[shaped[t].access.array] for t in self.along_x]
        )
        if width == 1:
            return 1, frozenset()
        tiled = self.tiled_reads(values)
        return width, frozenset(
            t for t in self.along_x if t not in tiled and starts_aligned(shaped[t], self.x, lower, width)
        )

    def counts(self, values: Mapping, schedule: Schedule, shape: tuple[int, int]) -> dict[str, int]:
        """Consecutive values each tiled loop takes in one tile: a grid loop its threads times its
        register tile, a strip's loop ``sharedDepth``."""
        threads = dict(zip(("x", "y"), shape))
        out = {d.loop: threads[d.axis] * values["registerTile"].get(d.loop, 1) for d in schedule.grid}
        out.update({v: values["sharedDepth"] for t in self.shared for v in t.strips})
        return out

    def explain(self) -> list[str]:
        lines = [f"TSG phase II (data placement) for '{self.schedule}':"]
        if self.blocked:
            lines.append(f"  no register or shared tiles: {self.blocked}")
        else:
            lines.append(
                f"  registers: tiles over {' and '.join(repr(v) for v in self.grid)}, a block apart per axis"
                + (
                    f"; {', '.join(repr(a) for a in self.accumulators)} one register per element of the tile"
                    if self.accumulators
                    else ""
                )
            )
        for t in self.shared:
            where = (
                f"per pair of strips of the loops on '{t.outer}' and '{t.loop}'"
                if t.outer
                else f"per strip of the loop on '{t.loop}'"
                if t.loop
                else "once per block tile"
            )
            which = f" ({', '.join(sh.access.text for sh in t.accesses)})" if len(self.parts(t.array)) > 1 else ""
            lines.append(
                f"  shared: '{t.array}'{which} copied {where}, read {t.reuse:.3g}x per element copied"
                + (" (rows padded by one element: thread x reads down a column)" if t.padded else "")
            )
        for name, why in self.rejected:
            lines.append(f"  not shared: '{name}': {why}")
        for name in self.constant:
            lines.append(
                f"  constant: '{name}' read alike by every thread of a block (constant memory when it has at most "
                f"{CONSTANT_BYTES} bytes, else global memory)"
            )
        for name, why in self.not_constant:
            lines.append(f"  not constant: '{name}': {why}")
        if self.read_only:
            lines.append(f"  read-only path (const __restrict__): {', '.join(self.read_only)}")
        if self.tensor is not None:
            p = self.tensor
            lines.append(
                f"  tensor cores: '{p.target} += {' * '.join(p.left)} * {p.right}' over '{p.loop}' as "
                f"{p.instruction.name} mma.sync ({8 * p.instruction.blocks} x 8 x 4 a warp, operands from the shared "
                f"tiles of {p.arrays[0]} and {p.arrays[1]})"
                + (
                    f"; operands rounded to TF32, results checked to {p.instruction.rounding:g} of their size"
                    if p.instruction.rounding
                    else ""
                )
            )
        elif self.no_tensor and not self.blocked:
            lines.append(f"  no tensor cores: {self.no_tensor}")
        if self.along_x:
            lines.append(
                f"  vectors: {', '.join(self.along_x)} move one element a step with '{self.x}': with vectorize, "
                f"a thread's register tile along '{self.x}' reads and writes them 16 bytes at a time where aligned"
            )
        elif not self.blocked:
            lines.append(
                f"  no vectors: no access moves one element a step along its contiguous dimension with '{self.x}'"
            )
        return lines


def element_sizes(nest: LoopNest) -> dict[str, int]:
    """Bytes of an element of each of the nest's variables (8 for a type orcu does not size)."""
    return {n: ELEMENT_BYTES.get(canonical_type(v.ctype.base), 8) for n, v in nest.variables.items()}


def private_scalars(body: tuple) -> list[str]:
    """Scalars the thread program writes (its loops' iterators aside), in order of first write."""
    loops = {lp.var for lp in loops_of(body)}
    out: list[str] = []
    for st, _ in statements(body):
        out += [n for n in sorted(st.scalar_writes) if n not in loops and n not in out]
    return out


def placement(nest: LoopNest, schedule: Schedule, deps: Dependences, reduced: bool = False) -> Placement:
    """Phase II's candidates for one schedule of the nest, with its dependences; ``reduced``: the
    transform lets float products round their operands (allowReducedPrecision)."""
    arrays = shapes(nest)
    written = {a.array for st, _ in statements(nest.body) for a in st.accesses if a.write}
    read_only = tuple(sorted(set(arrays) - written))
    if schedule.threads_only:
        return Placement(
            schedule.name,
            f"the loop on '{schedule.threads_only[0].loop}' runs over a row of threads that "
            "folds a reduction: each thread holds one share, not a tile",
            (),
            (),
            (),
            (),
            read_only,
        )
    grid, body = kernel_body(nest, schedule)
    # a scalar reduced over the whole nest is the thread's one share (codegen/region.py folds
    # it across the grid), which every iteration of a register tile adds to: no copy per iteration
    scalars = [s for s in private_scalars(body) if deps.global_reduction(s) is None]
    blocked = _blocked(nest, grid, body, scalars)
    if blocked:
        return Placement(schedule.name, blocked, (), (), (), (), read_only)
    shared: list[SharedTile] = []
    rejected: list[tuple[str, str]] = []
    x = schedule.dims[0].loop
    conditional, unbounded = conditional_reads(nest), conditional_reads(nest, bounded=True)
    structs = {name for name in arrays if _of_structs(nest, name)}
    split = schedule.split
    for name in sorted(arrays):
        if name in structs:
            rejected.append((name, "its elements are structs, each thread reading the fields it uses"))
            continue
        tiles = shared_tile(name, arrays[name], written, grid, body, scalars, x, unbounded, deps)
        if split and not isinstance(tiles, str) and any(_along(t, split.loop) for t in tiles):
            tiles = f"it is read along '{split.loop}', which the threads along y split: each reads its own elements"
        if isinstance(tiles, str):
            rejected.append((name, tiles))
        else:
            shared += tiles
    shared = _strips_one_way(
        shared, lambda name: shared_tile(name, arrays[name], written, grid, body, scalars, x, unbounded), rejected
    )
    constant, not_constant = _constants(nest, read_only, structs, arrays, grid, body, scalars)
    step = next(lp.step for lp in grid if lp.var == x)  # a grid loop on x: block tiles apply
    along = [
        sh.access.text
        for name in sorted(arrays)
        for sh in arrays[name]
        if step == 1 and sh.access.text not in conditional and contiguous(sh, x) and _has_vectors(nest, name)
    ]
    tensor = _tensor(nest, grid, body, arrays, shared, scalars, reduced)
    return Placement(
        schedule.name,
        None,
        tuple(lp.var for lp in grid),
        tuple(shared),
        tuple(rejected),
        tuple(scalars),
        read_only,
        tuple(constant),
        tuple(not_constant),
        x,
        tuple(dict.fromkeys(along)),
        tuple(name for name in sorted(arrays) if not _has_vectors(nest, name)),
        tensor if isinstance(tensor, Product) else None,
        tensor if isinstance(tensor, str) else "",
    )


def _strips_one_way(shared: list[SharedTile], alone: Callable, rejected: list[tuple[str, str]]) -> list[SharedTile]:
    """The tiles with each loop strip-mined one way for all: a pair where no tile strips either
    of its loops alone, else each pair's array tiled on its inner loop alone (``alone(array)``:
    its tiles so, or why none, added to ``rejected``: it may leave no reuse to copy for)."""
    single = {v for t in shared if not t.outer for v in t.strips}
    again = {t.array: alone(t.array) for t in shared if t.outer and {t.outer, t.loop} & single}
    rejected += [(name, why) for name, why in again.items() if isinstance(why, str)]
    out: list[SharedTile] = []
    for t in shared:
        tiles = again.get(t.array)
        if tiles is None:
            out.append(t)
        elif not isinstance(tiles, str) and t.part == 0:
            out += tiles
    return out


def _along(t: SharedTile, loop: str) -> bool:
    """Whether the tile is copied per strip of the loop, or its box moves along it."""
    return t.loop == loop or any(loop in dict(d.coefs) for d in t.dims)


def _tensor(
    nest: LoopNest,
    grid: list[Loop],
    body: tuple,
    arrays: Mapping[str, list[Shaped]],
    shared: list[SharedTile],
    scalars: list[str],
    reduced: bool,
) -> Product | str:
    """The nest's multiply-add for the tensor cores (its operands in shared tiles copied per
    strip of the loop it sums over), or why there is none."""
    types = {n: canonical_type(v.ctype.base) for n, v in nest.variables.items()}
    shaped = {sh.access.text: sh for s in arrays.values() for sh in s}
    found = product(grid, body, shaped, types, set(scalars), reduced)
    if isinstance(found, str):
        return found
    for name in found.arrays:
        tiles = [t for t in shared if t.array == name]
        if len(tiles) != 1 or tiles[0].loop != found.loop or tiles[0].outer:
            return f"'{name}' has no one shared tile copied per strip of the loop on '{found.loop}'"
    return found


def _constants(nest: LoopNest, read_only, structs, arrays, grid, body, scalars):
    """(the read-only arrays that may live in constant memory, (each other one, why not)). Under a
    split loop each row of threads reads its own element: a warp's lanes share a row where the
    block holds a warp along x (block_shape), and the cache serves a row's element once."""
    constant, not_constant = [], []
    for name in read_only:
        why = (
            "its elements are structs" if name in structs else _constant(nest, name, arrays[name], grid, body, scalars)
        )
        if why is None:
            constant.append(name)
        else:
            not_constant.append((name, why))
    return constant, not_constant


def _of_structs(nest: LoopNest, name: str) -> bool:
    """Whether the array's elements are structs (frontend/structs.py): no tile, vector or
    constant-memory copy takes them."""
    return name in nest.variables and canonical_type(nest.variables[name].ctype.base) in nest.structs


def _constant(
    nest: LoopNest, name: str, accesses: list[Shaped], grid: list[Loop], body: tuple, scalars: list[str]
) -> str | None:
    """Why an array only read is no constant-memory candidate (None when it is): each access
    must name one element for the whole block (its subscript reads only loops every thread
    runs alike, and sizes), through one flat subscript."""
    if len(nest.variables[name].ctype.dims) > 1 or any(len(sh.access.subscripts) != 1 for sh in accesses):
        return "it is indexed with several subscripts"
    grid_vars = {lp.var for lp in grid}
    alike = {lp.var for lp in loops_of(body) if uniform(lp, grid_vars, scalars)}
    iterators = {lp.var for lp in nest.loops()}
    for sh in accesses:
        p = poly_of(sh.access.subscripts[0])
        if p is None:
            return f"'{sh.access.text}' is not affine"
        moving = sorted(p.names & ((iterators - alike) | set(scalars)))
        if moving:
            return f"'{sh.access.text}' moves with '{moving[0]}', which differs between the threads"
        enclosing = [lp for lp in sh.loops if lp.var not in grid_vars]
        if any(lp.var not in alike for lp in enclosing):
            return f"'{sh.access.text}' sits in a loop the threads do not run alike"
    return None


def _blocked(nest: LoopNest, grid: list[Loop], body: tuple, scalars: list[str]) -> str | None:
    for k, lp in enumerate(grid):
        if lp.jumps:
            return f"the loop on '{lp.var}' has a {lp.jumps[0].kind}"
        # a triangle (j < i + 1, i an outer grid loop) takes each tile's extreme value of i
        inner, outer = {g.var for g in grid[k:]}, {g.var for g in grid[:k]}
        for bound in (lp.lower, lp.upper):
            if not follows(bound, outer, inner | set(scalars)):
                return f"the bounds of '{lp.var}' are not the same for every thread of a block"
    for lp in loops_of(body):
        if lp.jumps:
            return f"the loop on '{lp.var}' (line {lp.loc.line}) has a {lp.jumps[0].kind}"
    after = sorted(set(nest.read_after) & set(scalars))
    if after:
        return f"'{after[0]}' is read after the region: its value would come from one thread's last iteration"
    return None


def conditional_reads(nest: LoopNest, bounded: bool = False) -> set[str]:
    """The texts of array elements read only under a condition (an ``if``'s branches, ``?:``,
    the right of ``&&``/``||``): the loops' ranges do not bound them. ``bounded``: not those
    under ``if`` tests that only narrow iterators' ranges (``if (i >= 1)``: the box of the
    elements read is the loops' ranges narrowed by the tests, Shaped.guards)."""
    found: set[str] = set()
    iterators = {lp.var for lp in nest.loops()}
    written = {n for st, _ in statements(nest.body) for n in st.scalar_writes} - iterators

    def walk(node, under: bool) -> None:
        if isinstance(node, c_ast.ArrayRef) and under:
            found.add(c_text(node))
        if isinstance(node, (c_ast.If, c_ast.TernaryOp)):
            walk(node.cond, under)
            narrows = bounded and isinstance(node, c_ast.If) and bounds_iterators(node.cond, iterators, written)
            walk(node.iftrue, under or not narrows)
            if node.iffalse is not None:
                walk(node.iffalse, True)
            return
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            walk(node.left, under)
            walk(node.right, True)
            return
        for _, child in node.children():
            walk(child, under)

    for st, _ in statements(nest.body):
        walk(st.node, False)
    return found
