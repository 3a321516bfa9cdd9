"""The kernel body of a TSG schedule with Phase II's placements (tsg/phase2.py).

Each block computes a tile of the grid loops' iterations, the tiles a whole grid apart
(every thread of a block runs the same tile loops, so barriers are reached by all): along
each grid loop, the block's threads times the register tile. Each thread computes its
register tile, the iterations a block apart along each axis (a warp still reads
consecutive elements), with the thread program unrolled and jammed over them: a loop every
thread runs alike is printed once around the iterations' statements; any other loop, once
per iteration. A private scalar is one register per iteration; an iteration past the
loop's end runs only what reads registers and shared tiles, and nothing that touches
global memory. With ``vectorize``, a thread's iterations along x come in groups of up to 16
bytes of consecutive elements, the groups a block apart: an access that x moves one element
a step (Placement.vectors) moves a group as one vector where the group is whole and its
first element aligned as the kernel runs, element by element otherwise; shared tiles read
so (SharedTile.vector_read) the same, one vector load per distinct group
(codegen/vector_groups.py). With ``tensorCores``, a product's register tile is its sums in
the tensor cores' layout, four iterations a step (codegen/tensor_steps.py). A shared tile is
filled by the whole block in coalesced order (the tile's
last dimension is the array's contiguous one), between barriers, once per block tile or
once per strip of ``sharedDepth`` iterations of its sequential loop; elements past the
array's accessed box are zeros that no kept iteration reads (codegen/shared_fills.py). A
strip's loop whose bounds follow the grid loops runs from the block's least lower bound to its
greatest upper one, each iteration's statements guarded by its own bounds and its tile reads
made by every thread at every step, as a warp makes them. With ``doubleBuffer``, a strip's
tiles have two buffers: the next strip is copied (cp.async where the GPU has it) into one
while the threads read the other, one barrier a strip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pycparser import c_ast

from orcu.analysis.affine import poly_of
from orcu.analysis.subscripts import Shaped
from orcu.codegen import printer
from orcu.codegen.shared_fills import SharedFills
from orcu.codegen.tensor_steps import TensorSteps
from orcu.codegen.tile_iterations import Iteration, iterations, register_name, tile_bound
from orcu.codegen.vector_groups import LANES, VectorGroups
from orcu.frontend.cparse import copied, parse_expression, replaced
from orcu.frontend.ir import Loop, Stmt, loops_of, statements
from orcu.frontend.types import VECTORS
from orcu.tsg.phase1 import bound_names
from orcu.tsg.phase2 import Placement
from orcu.tsg.shared_tiles import SharedTile, double_buffered


class TiledBody(SharedFills, TensorSteps, VectorGroups):
    def __init__(
        self,
        grid: list[Loop],
        body: tuple,
        placed: Placement,
        values: Mapping,
        shape: tuple[int, int],
        axes: Mapping[str, str],
        scalar_types: Mapping[str, str],
        element_types: Mapping[str, str],
        element_bytes: Mapping[str, int],
        registers: Mapping[int, list],
        unroll: int,
        fresh,
        where: str,
        constants: Mapping[str, Mapping[str, Any]],
        shaped: Mapping[str, Shaped],
        split: tuple | None = None,
        atomics: Mapping | None = None,
    ):
        self.grid, self.body, self.placed, self.atomics = grid, body, placed, atomics  # atomics: codegen/atomics.py
        # the loop split over the threads and blocks along y, and the sums it folds (codegen/mapped.py's targets)
        self.split_loop, self.sums = split or (None, [])
        self.fold_buffers = {t.ctype: fresh(f"orcu_fold_{t.ctype.replace(' ', '_')}") for t in self.sums}
        self.shape, self.axes, self.unroll, self.fresh, self.where = shape, axes, unroll, fresh, where
        self.registers = registers
        self.constants = constants  # arrays in constant memory when they fit: their symbol and flag
        self._constant_refs = {}  # their elements, read alike by every thread: the same text in every iteration
        for st, _ in statements(body):
            for a in st.accesses:
                if a.array in constants:
                    c, index = constants[a.array], printer.expression(a.subscripts[0])
                    self._constant_refs[a.text] = f"({c['flag']} ? {c['symbol']}[{index}] : {a.array}[{index}])"
        self.scalar_types, self.element_types, self.element_bytes = scalar_types, element_types, element_bytes
        self.tiles = {v: values["registerTile"].get(v, 1) for v in (lp.var for lp in grid)}
        self.threads = {v: shape[0] if axes[v] == "x" else shape[1] for v in self.tiles}
        self.depth = values["sharedDepth"]
        self.shared = placed.tiles(values)
        self.start = {lp.var: fresh(f"{lp.var}0") for lp in grid}
        self.tile_names = {t.key: fresh(t.label) for t in self.shared}
        self.strips = {v for t in self.shared for v in t.strips}
        self._in_strip: set[str] = set()  # inner loops of a pair of strips, while their strip's iterations are printed
        self.start.update({v: fresh(f"{v}0") for v in self.strips})
        counts = {v: self.threads[v] * n for v, n in self.tiles.items()}
        counts.update({v: self.depth for v in self.strips})
        self.counts = counts
        self._tensor_setup(placed, values)
        # doubleBuffer: the tiles of a strip in two buffers (declared as one array of two, read
        # through a view of the strip's buffer under the tile's name) where they fit
        self.double = values["doubleBuffer"] and split is None and double_buffered(self.shared, counts, element_bytes)
        self.buffer_names = {
            t.key: fresh(t.named("buffers")) for t in self.shared if self.double and t.loop and not t.outer
        }
        self.x, self.shaped = placed.x, shaped
        self.tiled = {lp.var for lp in grid if self.tiles[lp.var] > 1}  # grid loops with a register tile
        x_loop = next(lp for lp in grid if lp.var == self.x)
        # iterations of x a thread moves as one vector (1: none), the global accesses that do
        # a triangle on x (j < i + 1, either of them x): a vector's lanes would each need their
        # own bound
        triangle = bool(bound_names(x_loop) & {lp.var for lp in grid}) or any(
            placed.x in bound_names(lp) for lp in grid
        )
        lower = None if triangle else poly_of(x_loop.lower)
        self.width, self.vector_texts = placed.vectors(values, element_bytes, lower, shaped)
        self.iterations = self._iterations()
        self._named = 0  # vector registers named so far
        self._parsed: dict[str, Any] = {}  # access texts' expressions
        self._ways: dict[str, int] = {}
        # the accesses read from a tile, by text: their tile (an array's accesses that move unlike
        # the others may have none, read from global memory as any other array's)
        self.tile_reads = {sh.access.text: t for t in self.shared for sh in t.accesses}
        # Where every iteration of the tile may run a statement that reads only what no grid
        # loop moves (_guarded): not with a break (iterations run a loop unalike), nor with a grid
        # loop whose bounds follow another (a triangle: a block may hold no iteration the loops run)
        self._alike_runs = not any(lp.jumps for lp in loops_of(body)) and not any(
            bound_names(lp) & (set(self.tiles) | {"?"}) for lp in grid
        )
        # what differs between the iterations of the tile: the grid loops and the private scalars
        self._moving = set(self.tiles) | set(self.placed.accumulators)
        self._narrowing: list[Loop] = []  # the widened loops around what is printed (_widened), outermost first

    # -- the tile's iterations ----------------------------------------------------------
    def _iterations(self) -> list[Iteration]:
        return iterations(self.grid, self.tiles, self.placed.accumulators, self.fresh)

    def _tile_bound(self, bound, direction: int) -> str:
        return tile_bound(bound, direction, self.grid, self.start, self.counts)

    def _name(self, var: str, r: int) -> str:
        return register_name(var, r, self.tiles, self.fresh)

    def ways(self, t: SharedTile) -> int:
        """SharedFills.ways, or with the tensor cores, the warps' reads of an operand's tile."""
        if self.tensor is not None and t.array in self.tensor.arrays and t.key not in self._ways:
            self._ways[t.key] = self._fragment_ways(t)
        return super().ways(t)

    def lines(self) -> list[str]:
        pad = printer.INDENT
        out = []
        for t in self.shared:
            ways = self.ways(t)
            dims = "".join(f"[{n}]" for n in t.shape(self.counts))
            name = self.buffer_names.get(t.key, self.tile_names[t.key])
            if t.key in self.buffer_names:
                dims = "[2]" + dims
            out.append(
                f"{pad}ORCU_SHARED_TILE({self.element_types[t.array]}, {name}, {dims}, {ways});  "
                + (
                    "// free of bank conflicts"
                    if ways == 1
                    else f"// reads: up to {ways} requests of a warp in one bank"
                )
            )
        for ctype, name in self.fold_buffers.items():
            out.append(
                f"{pad}__shared__ {ctype} {name}[{self.shape[0] * self.shape[1]}];  // the shares the threads along y fold"
            )
        depth = 1
        for lp in self.grid:
            v, per = lp.var, self.counts[lp.var] * lp.step
            axis = self.axes[v]
            lower, upper = self._tile_bound(lp.lower, -1), self._tile_bound(lp.upper, 1)
            start = "" if lower == "0" else f"(orcu_index)({lower}) + "
            spread = (
                "its sums in the warps' 8 x 8 tiles"
                if self.tensor is not None
                else f"{self.threads[v]} apart"
                if v != self.x or self.width == 1
                else f"in groups of {self.width} consecutive ones (one vector), the groups {self.threads[v] * self.width} apart"
            )
            out += [
                f"{pad * depth}// '{v}' (the loop at {self.where}:{lp.loc.line}): tiles of {self.counts[v]} iterations "
                f"over blockIdx.{axis}, a whole grid apart; each thread {self.tiles[v]} of them, "
                f"{spread} (threadIdx.{axis})",
                f"{pad * depth}for (orcu_index {self.start[v]} = {start}(orcu_index)blockIdx.{axis} * {per}; "
                f"{self.start[v]} < {upper}; {self.start[v]} += (orcu_index)gridDim.{axis} * {per}) {{",
            ]
            depth += 1
        inner = pad * depth
        for lp in self.grid if self.tensor is None else ():
            v, step = lp.var, f" * {lp.step}" if lp.step != 1 else ""
            for r in range(self.tiles[v]):
                name = self._name(v, r)
                offset = (
                    f"((orcu_index)threadIdx.{self.axes[v]} + {r * self.threads[v]}){step}"
                    if r
                    else f"(orcu_index)threadIdx.{self.axes[v]}{step}"
                )
                if v == self.x and self.width > 1:  # vectorize: step 1 (Placement.along_x)
                    # in 32 bits (a few thousand at most): the 64-bit kernel's wider arithmetic made
                    # ptxas spill registers of 1 x 2 float tiles
                    group, lane = divmod(r, self.width)
                    thread = f"(threadIdx.x + {group * self.threads[v]})" if group else "threadIdx.x"
                    offset = f"(orcu_index)({thread} * {self.width}" + (f" + {lane})" if lane else ")")
                out.append(f"{inner}{'' if name == v else 'const orcu_index '}{name} = {self.start[v]} + {offset};")
        if self.tensor is not None:
            out += self._tensor_names(depth)
        if len(self.iterations) > 1:
            for s in self.placed.accumulators:
                out.append(f"{inner}{self.scalar_types[s]} " + ", ".join(it.renames[s] for it in self.iterations) + ";")
        once = [t for t in self.shared if t.loop is None]
        if once:
            out += self._fill(once, depth)
        out += self._jam(self.body, depth, ())
        if once:
            out.append(
                f"{inner}__syncthreads();  // every thread has read the tiles before the next block tile fills them"
            )
        for _ in self.grid:
            depth -= 1
            out.append(pad * depth + "}")
        return out

    def _jam(self, body: tuple, depth: int, active: tuple) -> list[str]:
        """``active``: the registers of the jammed loops around ``body``."""
        pad = printer.INDENT * depth
        out: list[str] = []
        for node in body:
            if isinstance(node, Stmt):
                out += self._statements(node, depth, active)
            elif self.split_loop is not None and node.var == self.split_loop.var:
                out += self._split(node, depth, active)
            elif self._alike(node) or self._widened(node):
                out += self._jammed_loop(node, depth, active)
            else:  # bounds that differ between iterations: the loop runs once per iteration
                if len(self.iterations) > 1:
                    node = _registers_assigned(node, self.placed.accumulators)
                for it in self.iterations:
                    out.append(f"{pad}if ({self._guard(it)}) {{")
                    out += printer.nodes(
                        (node,),
                        depth + 1,
                        it.renames,
                        self.unroll,
                        self.registers,
                        self._refs(it, active),
                        atomics=self.atomics,
                    )
                    out.append(f"{pad}}}")
        return out

    def _alike(self, loop: Loop) -> bool:
        return not bound_names(loop) & (self._moving | {"?"})

    def _widened(self, loop: Loop) -> bool:
        """Whether the loop is a shared tile's strip whose bounds follow the grid loops
        (shared_tiles.widens): the block runs the union of its threads' ranges (_bounds), each
        iteration of the tile's statements guarded by its own (_guard)."""
        return loop.var in self.strips and any(loop.var in t.strips and self._holds(loop, t) for t in self.shared)

    def _bounds(self, loop: Loop) -> tuple[str, str]:
        """The loop's lower and upper bound as the block runs it: a widened loop's at the block's
        extreme values of the grid loops (the least lower bound, the greatest upper one)."""
        if self._alike(loop):
            return printer.expression(loop.lower), printer.expression(loop.upper)
        return self._tile_bound(loop.lower, -1), self._tile_bound(loop.upper, 1)

    def _guard(self, it: Iteration) -> str:
        """The condition under which an iteration of the tile runs a statement: its grid loops'
        bounds, and each widened loop around it within this iteration's own bounds."""
        conds = [it.guard]
        for loop in self._narrowing:  # the bounds that follow the grid loops (the others the block's own)
            for op, bound in ((">=", loop.lower), ("<", loop.upper)):
                if _names(bound) & set(self.tiles):
                    conds.append(f"{loop.var} {op} {printer.expression(bound, it.renames)}")
        return " && ".join(conds)

    def _jammed_loop(self, loop: Loop, depth: int, active: tuple) -> list[str]:
        pad = printer.INDENT * depth
        kept = self.registers.get(id(loop), [])
        out = []
        for r in kept:
            if self._vector_register(r):
                vector = VECTORS[(r.ctype, self.width)]
                for group in self._groups():
                    name = self._vector_name(r.name)
                    out += self._vector_load(name, r.ref, self.shaped[r.ref].access.array, vector, group, depth)
                    out += [
                        f"{pad}{r.ctype} {r.name}{it.suffix} = {name}.{LANES[lane]};  // {self._at(r.ref, it)} stays in "
                        f"a register over the loop on {r.loop}"
                        for lane, it in enumerate(group)
                    ]
                continue
            for it in self.iterations:
                ref = self._at(r.ref, it)
                out.append(
                    f"{pad}{r.ctype} {r.name}{it.suffix} = {it.guard} ? {ref} : ({r.ctype})0;  "
                    f"// {ref} stays in a register over the loop on {r.loop}"
                )
        tiles = [t for t in self.shared if t.strips[:1] == (loop.var,) and self._holds(loop, t)]
        lower, upper = self._bounds(loop)
        narrowed = not self._alike(loop)
        if narrowed:
            self._narrowing.append(loop)
        if loop.var in self._in_strip:  # the inner loop of a pair of strips: its strip's iterations
            out += self._strip_runs(
                loop, self.start[loop.var], self._jam(loop.body, depth + 2, active + tuple(kept)), depth
            )
        elif tiles and tiles[0].outer:
            inner = loop.body[0]
            assert isinstance(inner, Loop)  # a tile's outer loop holds its inner one alone
            v, k0, w, l0 = loop.var, self.start[loop.var], inner.var, self.start[inner.var]
            inner_lower, inner_upper = printer.expression(inner.lower), printer.expression(inner.upper)
            out.append(
                f"{pad}// '{v}' and '{w}' (the loops at {self.where}:{loop.loc.line} and {inner.loc.line}) in strips of "
                f"{self.depth} x {self.depth}: {_arrays(tiles)} copied to shared memory per pair of "
                "strips, the copy reused by both loops"
            )
            out.append(f"{pad}for (orcu_index {k0} = {lower}; {k0} < {upper}; {k0} += {self.depth}) {{")
            out.append(f"{pad}    for (orcu_index {l0} = {inner_lower}; {l0} < {inner_upper}; {l0} += {self.depth}) {{")
            out += self._fill(tiles, depth + 2)
            self._in_strip.add(w)
            out.append(f"{pad}        for ({v} = {k0}; {v} < {k0} + {self.depth} && {v} < {upper}; {v}++) {{")
            out += self._jam(loop.body, depth + 3, active + tuple(kept))
            out.append(f"{pad}        }}")
            self._in_strip.discard(w)
            out += [
                f"{pad}        __syncthreads();  // every thread has read the strips before the next ones fill them",
                f"{pad}    }}",
                f"{pad}}}",
            ]
        elif tiles and self.double:
            out += self._double_buffered(loop, tiles, active + tuple(kept), depth)
        elif tiles:
            out += self._one_buffer(loop, tiles, active + tuple(kept), depth)
        else:
            if self.unroll > 1 and printer.innermost(loop):
                out.append(f"{pad}#pragma unroll {self.unroll}")
            out.append(f"{pad}{printer.loop_header(loop, {})} {{")
            out += self._jam(loop.body, depth + 1, active + tuple(kept))
            out.append(f"{pad}}}")
        if narrowed:
            self._narrowing.pop()
        for r in kept:
            if self._vector_register(r):
                vector = VECTORS[(r.ctype, self.width)]
                for group in self._groups():
                    name = self._vector_name(r.name)
                    out.append(f"{pad}const {vector} {name} = {{{', '.join(r.name + it.suffix for it in group)}}};")
                    out += self._vector_store(r.ref, self.shaped[r.ref].access.array, vector, group, name, depth)
                continue
            for it in self.iterations:
                out.append(f"{pad}if ({it.guard}) {self._at(r.ref, it)} = {r.name}{it.suffix};")
        return out

    def _split(self, loop: Loop, depth: int, active: tuple) -> list[str]:
        """The loop over the threads and blocks along y: each thread sums its share of every
        target (of each iteration of its tile) in a register, the block's column of threads
        folds the shares, and its first thread adds the block's sum to memory with atomicAdd
        (blocks along y share the target). Every thread of the block runs the fold."""
        pad = printer.INDENT * depth
        lower, upper = printer.expression(loop.lower), printer.expression(loop.upper)
        start = "" if lower == "0" else f"(orcu_index)({lower}) + "
        step = f" * {loop.step}" if loop.step != 1 else ""
        out = [
            f"{pad}// '{loop.var}' (the loop at {self.where}:{loop.loc.line}): over threadIdx.y and blockIdx.y, a whole "
            f"grid apart, each thread a share of {', '.join(t.ref for t in self.sums)}"
        ]
        out += [f"{pad}{t.ctype} {t.name}{it.suffix} = {t.identity};" for t in self.sums for it in self.iterations]
        if self.unroll > 1 and printer.innermost(loop):
            out.append(f"{pad}#pragma unroll {self.unroll}")
        out.append(
            f"{pad}for ({loop.var} = {start}((orcu_index)blockIdx.y * blockDim.y + threadIdx.y){step}; {loop.var} < {upper}; "
            f"{loop.var} += (orcu_index)gridDim.y * blockDim.y{step}) {{"
        )
        out += self._jam(loop.body, depth + 1, active + tuple(self.sums))
        out.append(f"{pad}}}")
        out.append(
            f"{pad}// the column's shares folded (in its thread y 0), the block's sum added to the blocks' along y"
        )
        for t in self.sums:
            for it in self.iterations:
                out.append(
                    f"{pad}{t.name}{it.suffix} = orcu_column_reduce<{t.ctype}, {t.functor}>({t.name}{it.suffix}, "
                    f"{self.fold_buffers[t.ctype]});"
                )
        out.append(f"{pad}if (threadIdx.y == 0) {{")
        out += [
            f"{pad}    if ({it.guard}) atomicAdd(&{self._at(t.ref, it)}, {t.name}{it.suffix});"
            for t in self.sums
            for it in self.iterations
        ]
        out.append(f"{pad}}}")
        return out

    def _one_buffer(self, loop: Loop, tiles: list[SharedTile], active: tuple, depth: int) -> list[str]:
        """``loop`` in strips, ``tiles`` copied per strip between two barriers."""
        pad, v, k0 = printer.INDENT * depth, loop.var, self.start[loop.var]
        lower, upper = self._bounds(loop)
        return [
            f"{pad}// '{v}' (the loop at {self.where}:{loop.loc.line}) in strips of {self.depth}: "
            f"{_arrays(tiles)} copied to shared memory per strip",
            f"{pad}for (orcu_index {k0} = {lower}; {k0} < {upper}; {k0} += {self.depth}) {{",
            *self._fill(tiles, depth + 1),
            *self._strip(loop, k0, active, depth + 1),
            f"{pad}    __syncthreads();  // every thread has read the strip before the next one fills it",
            f"{pad}}}",
        ]

    def _double_buffered(self, loop: Loop, tiles: list[SharedTile], active: tuple, depth: int) -> list[str]:
        """``loop`` in strips, ``tiles`` in two buffers: the first strip copied before the loop,
        each strip's iterations run while the next strip's copy is in flight into the other
        buffer, then one barrier: after it the next strip is whole, and no thread reads the
        buffer the strip after it overwrites. The kernel's 64-bit index instance runs the strips
        with one buffer (_one_buffer, in buffer 0): there the next strip's addresses, live across
        a strip's iterations, made ptxas spill registers."""
        pad, v, k0 = printer.INDENT * depth, loop.var, self.start[loop.var]
        lower, upper = self._bounds(loop)
        b, following = self.fresh("orcu_buffer"), self.fresh(f"{v}0_next")

        def views(which: str, level: int) -> list[str]:
            return [
                f"{printer.INDENT * level}auto {self.tile_names[t.key]} = {self.buffer_names[t.key]}[{which}];"
                for t in tiles
            ]

        out = [
            f"{pad}if (sizeof(orcu_index) == 4) {{",
            f"{pad}    // '{v}' (the loop at {self.where}:{loop.loc.line}) in strips of {self.depth}: "
            f"{_arrays(tiles)} copied to shared memory per strip, in two buffers: the next strip's copy "
            "in flight while the threads read this one",
            f"{pad}    orcu_index {k0} = {lower};",
            f"{pad}    {{  // the first strip",
        ]
        out += views("0", depth + 2)
        out += self._fill(tiles, depth + 2, asynchronous=True)
        out += [
            f"{pad}    }}",
            f"{pad}    for (int {b} = 0; {k0} < {upper}; {k0} += {self.depth}, {b} ^= 1) {{",
            f"{pad}        if ({k0} + {self.depth} < {upper}) {{  // the next strip, into the other buffer",
            f"{pad}            const orcu_index {following} = {k0} + {self.depth};",
        ]
        out += views(f"{b} ^ 1", depth + 3)
        self.start[v] = following  # the fill's origin: the next strip's
        out += self._fill(tiles, depth + 3, asynchronous=True, barrier=False)
        self.start[v] = k0
        out.append(f"{pad}        }}")
        out += views(b, depth + 2)
        out += self._strip(loop, k0, active, depth + 2)
        out += [
            f"{pad}        orcu_copies_wait();",
            f"{pad}        __syncthreads();  // the next strip is whole, and every thread has read this one",
            f"{pad}    }}",
            f"{pad}}} else {{  // 64-bit indices: one buffer",
        ]
        out += views("0", depth + 1)
        out += self._one_buffer(loop, tiles, active, depth + 1)
        out.append(f"{pad}}}")
        return out

    def _strip(self, loop: Loop, start: str, active: tuple, depth: int) -> list[str]:
        """The iterations of ``loop`` in its strip from ``start``: on the tensor cores where it is
        their product's, else as the body's statements (_strip_runs)."""
        if self.tensor is not None and loop.var == self.tensor.loop:
            return self._tensor_runs(loop, start, active, depth)
        return self._strip_runs(loop, start, self._jam(loop.body, depth + 2, active), depth)

    def _printed(self, text: str, renames: Mapping[str, str], refs: Mapping[str, str]) -> str:
        if text not in self._parsed:
            self._parsed[text] = parse_expression(text)
        return printer.expression(printer.renamed(self._parsed[text], renames, refs))

    def _strip_runs(
        self, loop: Loop, start: str, body: list[str], depth: int, last: list[str] | None = None, step: int = 1
    ) -> list[str]:
        """The iterations of ``loop`` in its strip from ``start``, ``step`` a run of ``body``
        (printed two levels deeper; ``last``, where given, in the last strip). A whole strip has a
        constant trip count, which nvcc unrolls fully (the shared reads become constant offsets,
        the register tile's products independent); the last one may be shorter."""
        pad, v, upper = printer.INDENT * depth, loop.var, self._bounds(loop)[1]
        increment = f"{v}++" if step == 1 else f"{v} += {step}"
        return [
            f"{pad}if ({start} + {self.depth} <= {upper}) {{",
            f"{pad}    #pragma unroll",
            f"{pad}    for ({v} = {start}; {v} < {start} + {self.depth}; {increment}) {{",
            *body,
            f"{pad}    }}",
            f"{pad}}} else {{",
            f"{pad}    for ({v} = {start}; {v} < {upper}; {increment}) {{",
            *(body if last is None else last),
            f"{pad}    }}",
            f"{pad}}}",
        ]

    def _statements(self, node: Stmt, depth: int, active: tuple) -> list[str]:
        """The statement once per iteration of the register tile; with vectors, group by group:
        its vectors loaded, its iterations on their components, the vectors written stored (one
        group's registers live at a time)."""
        if len(self.iterations) > 1 and any(
            isinstance(n, c_ast.Decl) and n.name in self.placed.accumulators for n in _nodes(node.node)
        ):
            if isinstance(node.node, c_ast.Decl) and node.node.init is None:
                return []  # each iteration's register is declared with the tile (lines)
            # a local declared in the nest (under an if too): each iteration assigns its own
            # register, so that a guard around the statement does not end the register's scope
            node = replace(node, node=_assigned(node.node, self.placed.accumulators))
        # in a widened loop an iteration's vector of global memory could read past its own range
        # (element by element there); a shared tile's holds the block's box
        vectors = {
            text: how
            for text, how in self._vector_accesses(node, active).items()
            if not self._narrowing or text in self.tile_reads
        }
        if not vectors:
            return [line for it in self.iterations for line in self._statement(node, it, depth, active)]
        pad = printer.INDENT * depth
        out: list[str] = []
        loaded: dict = {}  # a read's load -> its register: groups that read one vector share it
        for group in self._groups():
            first, stores = group[0], []
            components: dict[int, dict] = {id(it): {} for it in group}
            for text, (array, written) in vectors.items():
                vector = VECTORS[(self.element_types[array], self.width)]
                if written == "read":  # loaded and stored where the same condition holds: decided once
                    name = self._vector_name(array)
                    whole = f"{name}_whole"
                    out.append(f"{pad}const bool {whole} = {self._whole(text, array, group)};")
                    out += self._vector_load(name, text, array, vector, group, depth, whole)
                    stores += self._vector_store(text, array, vector, group, name, depth, whole)
                elif written:
                    name = self._vector_name(array)
                    out.append(f"{pad}{vector} {name};  // every iteration assigns it")
                    stores += self._vector_store(text, array, vector, group, name, depth)
                elif text in self.tile_reads:
                    ref, tile = self._refs(first, active)[text], self.tile_names[self.tile_reads[text].key]
                    load = f"ORCU_TILE_VECTOR({vector}, {tile}, {ref[len(tile) :]})"
                    if load not in loaded:
                        loaded[load] = self._vector_name(array)
                        out.append(f"{pad}const {vector} {loaded[load]} = {load};")
                    name = loaded[load]
                else:
                    key = (text, self._moving_inside(text, group[-1]), self._at(text, group[0]))
                    if key not in loaded:
                        loaded[key] = self._vector_name(array)
                        out += self._vector_load(loaded[key], text, array, vector, group, depth)
                    name = loaded[key]
                for lane, it in enumerate(group):
                    components[id(it)][text] = f"{name}.{LANES[lane]}"
            for it in group:
                out += self._statement(node, it, depth, active, components[id(it)])
            out += stores
        return out

    def _at(self, text: str, it: Iteration) -> str:
        """An access as this iteration reads it (pycparser parses each text once: it is slow)."""
        return self._printed(text, it.renames, {})

    def _statement(
        self, node: Stmt, it: Iteration, depth: int, active: tuple, vectors: Mapping[str, str] | None = None
    ) -> list[str]:
        refs = {**self._refs(it, active), **(vectors or {})}
        if not self._guarded(node, refs):
            return printer.nodes((node,), depth, it.renames, refs=refs, atomics=self.atomics)
        # In a widened loop the threads' guards differ from one step to the next: the tile's
        # elements are read by every thread at every step (all inside the block's box), as a
        # warp reads them, its lanes in step, and only what the iteration keeps is guarded.
        read = [a.text for a in node.accesses if a.text in self.tile_reads and a.text not in (vectors or {})]
        read = list(dict.fromkeys(read)) if self._narrowing else []
        within = depth + 1 if read else depth  # the guard's depth: inside the block of the reads
        pad, inner = printer.INDENT * depth, printer.INDENT * within
        out = [f"{pad}{{"] if read else []
        for n, text in enumerate(read):
            out.append(
                f"{inner}const {self.element_types[self.shaped[text].access.array]} orcu_read{n} = {refs[text]};"
            )
            refs[text] = f"orcu_read{n}"
        out += [
            f"{inner}if ({self._guard(it)}) {{",
            *printer.nodes((node,), within + 1, it.renames, refs=refs, atomics=self.atomics),
            f"{inner}}}",
        ]
        return out + ([f"{pad}}}"] if read else [])

    def _guarded(self, node: Stmt, refs: Mapping[str, str]) -> bool:
        """Whether an iteration runs ``node`` only where it is one the loops run. Not where it
        reads only shared tiles, registers and global elements that no grid loop or private
        scalar moves, in an expression without branches or calls, and writes no global element:
        then an iteration past the arrays' end computes a value it never stores, from elements
        the block's first iteration reads too (the grid loops, a box, start within their bounds,
        and the loops around a jammed statement run alike for every iteration). A weight read
        by every iteration of the tile (conv2d's mask[p * k + q]) is then loaded once for the
        tile, not once per iteration under its guard. A statement that writes a scalar the
        iterations share is always guarded, and so is every statement in a widened loop."""
        if any(op in node.text for op in ("/", "%")) or not self._alike_runs or self._narrowing:
            return True
        if any(s not in self.placed.accumulators for s in node.scalar_writes):
            return True  # a scalar all the tile's iterations share (the thread's share of a reduction): every update counts
        outside = [a for a in node.accesses if a.array in self.element_types and a.text not in refs]
        if not outside:
            return False
        return (
            any(a.write for a in outside)
            or not _straight(node.node)
            or any((p := poly_of(s)) is None or p.names & self._moving for a in outside for s in a.subscripts)
        )

    def _refs(self, it: Iteration, active: tuple) -> dict[str, str]:
        """Array elements this iteration reads from a shared tile or keeps in a register, by their text."""
        refs = {}
        for t in self.shared:
            kept = [(d, o) for d, o in zip(t.dims, range(len(t.dims))) if d.coefs or d.high > d.low]
            for sh, offsets in zip(t.accesses, t.offsets):
                index = []
                for d, k in kept:
                    terms = [
                        f"{c}*({it.renames.get(v, v)} - {self.start[v]})"
                        if c != 1
                        else f"{it.renames.get(v, v)} - {self.start[v]}"
                        for v, c in d.coefs
                    ]
                    if offsets[k]:
                        terms.append(str(offsets[k]))
                    index.append(" + ".join(terms) or "0")
                refs[sh.access.text] = self.tile_names[t.key] + "".join(f"[{i}]" for i in (index or ["0"]))
        for r in active:
            refs.setdefault(r.ref, r.name + it.suffix)
        refs.update(self._constant_refs)
        return refs


_STRAIGHT = (
    c_ast.Assignment,
    c_ast.Decl,
    c_ast.BinaryOp,
    c_ast.UnaryOp,
    c_ast.ArrayRef,
    c_ast.StructRef,
    c_ast.ID,
    c_ast.Constant,
    c_ast.Cast,
    c_ast.Typename,
    c_ast.TypeDecl,
    c_ast.PtrDecl,
    c_ast.IdentifierType,
)


def _names(bound: c_ast.Node) -> set[str]:
    p = poly_of(bound)
    return p.names if p is not None else {"?"}


def _arrays(tiles: list[SharedTile]) -> str:
    """The arrays of ``tiles``, for a comment (an array of several tiles once)."""
    return ", ".join(dict.fromkeys(t.array for t in tiles))


def _nodes(node: c_ast.Node):
    yield node
    for _, child in node.children():
        yield from _nodes(child)


def _registers_assigned(node, names):
    """The IR node (a loop, a statement) with each declaration of one of ``names`` inside it an
    assignment (``_assigned``)."""
    if isinstance(node, Loop):
        return replace(node, body=tuple(_registers_assigned(n, names) for n in node.body))
    if any(isinstance(n, c_ast.Decl) and n.name in names for n in _nodes(node.node)):
        return replace(node, node=_assigned(node.node, names))
    return node


def _assigned(node: c_ast.Node, names) -> c_ast.Node:
    """A copy of ``node`` with each declaration of one of ``names`` an assignment of its
    initializer (none: nothing), the tile declaring their registers."""

    def each(n: c_ast.Node) -> c_ast.Node | None:
        if not (isinstance(n, c_ast.Decl) and n.name in names):
            return None
        if n.init is None:
            return c_ast.EmptyStatement(coord=n.coord)
        return c_ast.Assignment("=", c_ast.ID(n.name), copied(n.init), coord=n.coord)

    return replaced(node, each)


def _straight(node: c_ast.Node) -> bool:
    """Whether ``node`` computes without a branch or a call: every read it makes is one of its
    accesses, made whatever the values."""
    return isinstance(node, _STRAIGHT) and all(_straight(child) for _, child in node.children())
