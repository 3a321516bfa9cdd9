"""The kernel body of a TSG schedule: mapped loops as launch dimensions, the rest in the thread.

The grid loops come first, in their source order (so a loop whose bounds use another's
iterator sits inside it): each one runs over its axis's threads and blocks a whole grid
apart. The loops of the perfect nest that the schedule leaves sequential follow, in their
order, around the body of the innermost grid loop. A loop on threads only runs over the
block's threads along x; its reductions go to one accumulator per target in each thread,
the row of threads folds them (warp shuffles), and the row's first thread combines the
result with the target. Around such a loop, statements that write memory run once per row
(in its first thread), so that the row's threads do not repeat them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from orcu.analysis.affine import Bound, Poly, poly_of, value_range
from orcu.analysis.conversions import accumulator_type
from orcu.analysis.nest import NestAnalysis
from orcu.analysis.poly import array_update
from orcu.analysis.scalars import calls_c_minmax, match_reduction
from orcu.analysis.subscripts import varies_along
from orcu.codegen import printer
from orcu.codegen.plans import ArrayPlan, Register, figures_once
from orcu.codegen.tiled import TiledBody
from orcu.frontend.cparse import parse_expression
from orcu.frontend.ir import Loop, LoopNest, loops_of, statements
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.spec.schedule import Schedule, block_shape
from orcu.tsg.figures import Traffic
from orcu.tsg.phase1 import chain, kernel_body
from orcu.tsg.phase2 import CONSTANT_BYTES, Placement
from orcu.tsg.traffic import traffic
from orcu.tsg.vectors import by_text


@dataclass(frozen=True)
class Target:
    """What a loop on threads reduces: its text in the body, its accumulator, how to combine."""

    ref: str  # y[i] or t
    name: str  # the thread's accumulator
    ctype: str
    identity: str
    functor: str
    scalar: bool
    widened: bool  # ctype is wider than the target's own type (conversions.accumulator_type)


def grid_header(loop: Loop, axis: str, renames: Mapping[str, str], where: str) -> list[str]:
    step = f" * {loop.step}" if loop.step != 1 else ""
    lower, upper = printer.expression(loop.lower, renames), printer.expression(loop.upper, renames)
    var = loop.var
    start = "" if lower == "0" else f"(orcu_index)({lower}) + "
    return [
        f"// '{var}' (the loop at {where}:{loop.loc.line}): over threadIdx.{axis} and blockIdx.{axis}, a whole grid apart",
        f"for ({var} = {start}((orcu_index)blockIdx.{axis} * blockDim.{axis} + threadIdx.{axis}){step}; "
        f"{var} < {upper}; {var} += (orcu_index)gridDim.{axis} * blockDim.{axis}{step}) {{",
    ]


def targets(
    nest: LoopNest, loop: Loop, types: Mapping[str, str], identities: Callable[[str, str, bool], tuple[str, str]], fresh
) -> list[Target]:
    """The reductions a loop on threads combines across them: array elements it updates with
    one operator, and scalars reduced along it."""
    out: dict[str, Target] = {}
    scalars = nest.deps.scalar_reductions(loop.var)
    inner = {lp.var for lp in loops_of([loop])}
    for st, _ in statements(loop.body):
        update = array_update(st.node, nest.variables)
        if update is not None and varies_along(nest, next(a for a in st.accesses if a.write), inner):
            continue  # a parallel loop's update of its own elements (J[k], k = i*cols + j): each thread runs it
        if update is not None:
            ref, op = update
            array = next(a.array for a in st.accesses if a.write)
            ctype = accumulator_type(types[array])
            out.setdefault(
                ref,
                Target(ref, fresh(f"{array}_sum"), ctype, *identities(ctype, op, False), False, ctype != types[array]),
            )
            continue
        m = match_reduction(st.node, nest.variables)
        if m is not None and m[0] in scalars and m[0] not in out:
            ctype = accumulator_type(types[m[0]])
            out[m[0]] = Target(
                m[0],
                fresh(f"{m[0]}_sum"),
                ctype,
                *identities(ctype, m[1], calls_c_minmax(st.node)),
                True,
                ctype != types[m[0]],
            )
    return list(out.values())


def threads_loop(
    loop: Loop,
    depth: int,
    found: list[Target],
    width: int,
    renames: Mapping[str, str],
    unroll: int,
    registers,
    where: str,
    atomics: Mapping | None = None,
) -> list[str]:
    """A loop over the block's threads along x, with its reductions folded across the row;
    ``atomics`` as printer.nodes takes them."""
    pad = printer.INDENT * depth
    step = f" * {loop.step}" if loop.step != 1 else ""
    lower, upper = printer.expression(loop.lower, renames), printer.expression(loop.upper, renames)
    names = {t.ref: t.name for t in found}
    scalar = {t.ref: t.name for t in found if t.scalar}
    lines = [
        f"{pad}// '{loop.var}' (the loop at {where}:{loop.loc.line}): over threadIdx.x"
        + (", each thread a share; the row of threads then folds the shares" if found else ""),
        f"{pad}{{",
    ]
    lines += [f"{pad}    {t.ctype} {t.name} = {t.identity};" for t in found]
    start = "" if lower == "0" else f"(orcu_index)({lower}) + "
    lines.append(
        f"{pad}    for ({loop.var} = {start}(orcu_index)threadIdx.x{step}; {loop.var} < {upper}; "
        f"{loop.var} += (orcu_index)blockDim.x{step}) {{"
    )
    inner_renames = {**renames, **scalar}
    lines += printer.nodes(
        loop.body,
        depth + 2,
        inner_renames,
        unroll,
        registers,
        {ref: name for ref, name in names.items() if ref not in scalar},
        atomics=atomics,
    )
    lines.append(f"{pad}    }}")
    lines += [f"{pad}    {t.name} = orcu_row_reduce<{t.ctype}, {t.functor}, {width}>({t.name});" for t in found]
    if found:
        lines.append(f"{pad}    if (threadIdx.x == 0) {{")
        for t in found:
            ref = t.ref if t.scalar else printer.expression(parse_expression(t.ref), renames)
            # a share kept wider than its target (a short's in int) is folded in the share's type
            combine = f"combine<{t.ctype}>" if t.widened else "combine"
            lines.append(f"{pad}        {ref} = {t.functor}::{combine}({ref}, {t.name});")
        lines.append(f"{pad}    }}")
    lines.append(f"{pad}}}")
    return lines


def row_effect(node, reduced: set[str]) -> bool:
    """Whether a node beside a row's loop writes memory or updates one of the kernel's
    reductions (``t += best`` after the row's max): the row's threads would each do it once."""
    return any(st.scalar_writes & reduced or any(a.write for a in st.accesses) for st, _ in statements((node,)))


def once_per_row(lines: list[str], depth: int) -> list[str]:
    """``lines`` (printed one level deeper than ``depth``) run by the first thread of each row."""
    pad = printer.INDENT * depth
    return [f"{pad}if (threadIdx.x == 0) {{  // once per row of threads"] + lines + [f"{pad}}}"]


class MappedKernel:
    """A TSG schedule's kernel, for codegen/region.py's generator, whose class takes these
    methods; what they read of the generator's state is declared here."""

    v: dict[str, Any]
    a: NestAnalysis
    nest: LoopNest
    schedule: Schedule
    source: str
    notes: list[str]
    needs: set[str]
    rounding: float
    inputs: dict[str, Any]
    reduced: list[str]
    constants: list[dict[str, Any]]
    figures: Callable[[int], Traffic | None] | None
    fresh: Callable[[str], str]
    registers: Callable[[list[ArrayPlan], list[Loop]], dict[int, list[Register]]]
    atomics: Mapping  # statements run as atomicAdd (codegen/atomics.py)
    _identity: Callable[[str, str, bool], tuple[str, str]]

    def mapped(self, arrays: list[ArrayPlan], unroll: int) -> dict[str, Any]:
        """The kernel's loops for a TSG schedule, and what the host needs to launch it."""
        v, nest, schedule = self.v, self.nest, self.schedule
        for arg, default in (("streamCount", 1), ("cacheBlocks", False), ("blockCount", None)):
            if v[arg] != default:
                self.notes.append(
                    f"{arg}={v[arg]}: no effect with the TSG's mapping '{schedule.name}' (it belongs to Orio's)"
                )
        shape = block_shape(schedule, v["threadCount"], v["tile"])
        assert not isinstance(shape, str), shape  # the runner pruned shapes that do not exist
        tx, ty = shape
        grid, body = kernel_body(nest, schedule)
        threads = schedule.threads_only[0].loop if schedule.threads_only else None
        split = schedule.split.loop if schedule.split else None
        sequential = [lp for lp in loops_of(body) if lp.var not in (threads, split)]  # no register over a shared loop
        registers = self.registers(arrays, sequential)
        types = {n: canonical_type(var.ctype.base) for n, var in nest.variables.items()}
        row_loop = next((lp for lp in loops_of(body) if lp.var == threads), None)
        row_body = {id(n) for n in _parent_body(body, row_loop)} if row_loop is not None else set()
        found = targets(nest, row_loop, types, self._identity, self.fresh) if row_loop is not None else []
        for t in found:
            self.needs |= {"row_reduce", t.functor}
        where = str(self.source)
        placed = next((p for p in nest.recipe.placements if p.schedule == schedule.name), None) if nest.recipe else None
        tiled = placed is not None and (
            any(n > 1 for n in v["registerTile"].values()) or v["shared"] or v["constant"] or split is not None
        )  # a split's fold needs the block's loops alike
        if tiled:  # Phase II's block and register tiles, shared copies (the runner pruned those that cannot apply)
            return self._tiled(arrays, unroll, grid, body, placed, registers, types, (tx, ty), split)
        if placed is not None:
            self._traffic(placed, {}, registers)

        def special(node, depth, refs):
            if node is row_loop:
                return threads_loop(node, depth, found, tx, {}, unroll, registers, where, self.atomics)
            if id(node) in row_body and row_effect(node, {r.var for r in self.a.reductions}):  # once per row
                lines = printer.nodes((node,), depth + 1, {}, unroll, registers, refs, atomics=self.atomics)
                return once_per_row(lines, depth)
            return None

        lines: list[str] = []
        depth = 1
        for lp in grid:
            lines += [printer.INDENT * depth + line for line in grid_header(lp, schedule.dim(lp.var).axis, {}, where)]
            depth += 1
        lines += printer.nodes(body, depth, {}, unroll, registers, special=special, atomics=self.atomics)
        for _ in grid:
            depth -= 1
            lines.append(printer.INDENT * depth + "}")
        return self._launch(
            grid, lines, (tx, ty), {lp.var: {"x": tx, "y": ty}[schedule.dim(lp.var).axis] for lp in grid}
        )

    def _tiled(
        self, arrays, unroll: int, grid, body, placed: Placement, registers, types, shape, split: str | None
    ) -> dict[str, Any]:
        """mapped()'s kernel where phase II places tiles: block and register tiles, shared and
        constant copies, a loop split over blocks (``split``, its iterator; codegen/tiled.py)."""
        v, nest, schedule = self.v, self.nest, self.schedule
        axes = {d.loop: d.axis for d in schedule.grid}
        self.constants = [self._constant(next(a for a in arrays if a.name == name)) for name in v["constant"]]
        split_loop = next((lp for lp in loops_of(body) if lp.var == split), None)
        sums = targets(nest, split_loop, types, self._identity, self.fresh) if split_loop else []
        if split_loop is not None:
            self.needs |= {"column_reduce", "blocks_split"} | {t.functor for t in sums}
        body_ = TiledBody(
            grid,
            body,
            placed,
            v,
            shape,
            axes,
            types,
            {a.name: a.element for a in arrays},
            {a.name: ELEMENT_BYTES.get(a.element, 8) for a in arrays},
            registers,
            unroll,
            self.fresh,
            str(self.source),
            {c["name"]: c for c in self.constants},
            by_text(nest),
            (split_loop, sums) if split_loop else None,
            self.atomics,
        )
        self.needs |= {"tiles"} | ({"copy_async"} if body_.double else set())
        if body_.tensor is not None:
            self.needs.add(body_.tensor.instruction.helper)
            self.rounding = max(self.rounding, body_.tensor.instruction.rounding)
        self._traffic(placed, {t.key: body_.ways(t) for t in body_.shared}, registers)
        return self._launch(grid, body_.lines(), shape, body_.counts, split_loop)

    def _constant(self, array: ArrayPlan) -> dict[str, Any]:
        """An array in constant memory: its symbol (one per file, by name and type: a harness's
        variants share it), its capacity, and the kernel's flag that it fits."""
        symbol = f"orcu_constant_{array.element.replace(' ', '_')}_{array.name}"
        return {
            "name": array.name,
            "element": array.element,
            "symbol": symbol,
            "device": array.device,
            "end": array.end_var,
            "cap": CONSTANT_BYTES // ELEMENT_BYTES.get(array.element, 8),
            "flag": self.fresh(f"{array.name}_in_constant"),
        }

    def _traffic(self, placed: Placement, ways: Mapping[str, int], registers: Mapping[int, list]) -> None:
        kept = {r.ref: r.loop for regs in registers.values() for r in regs}
        self.figures = figures_once(
            lambda sms: traffic(self.nest, placed, self.v, self.inputs, ways, kept, self.reduced, sms)
        )

    def _launch(
        self,
        grid: list[Loop],
        lines: list[str],
        shape: tuple[int, int],
        per_block: Mapping[str, int],
        split: Loop | None = None,
    ) -> dict[str, Any]:
        """The mapped kernel's lines with what the host needs to launch it; ``per_block``: the
        iterations of each grid loop one block covers; ``split``: the loop split over the
        threads and blocks along y."""
        spans = []
        for lp in grid + ([split] if split else []):
            axis = self.schedule.dim(lp.var).axis
            extent = self._span(lp)
            spans.append(
                {
                    "var": lp.var,
                    "axis": axis,
                    "threads": per_block[lp.var] if lp is not split else shape[1],
                    "step": lp.step,
                    "span": extent[0] if extent else "-1LL",
                    "reach": extent[1] if extent else None,
                    "most": "2147483647LL" if axis == "x" else "65535LL",
                }
            )
        self.needs.add("blocks_along")
        blocks: list[str] = []
        for axis in ("x", "y"):  # blocks along each axis: the grid loop's, else one
            s = next((s for s in spans if s["axis"] == axis), None)
            step = f" * {s['step']}" if s and s["step"] != 1 else ""
            if (
                split is not None and s is not None and s["var"] == split.var
            ):  # enough to fill the device, given those along x
                blocks.append(
                    f"orcu_blocks_split(orcu_span_{s['var']}, {s['threads']}LL{step}, {blocks[0]}, {shape[0] * shape[1]})"
                )
                continue
            blocks.append(f"orcu_blocks_along(orcu_span_{s['var']}, {s['threads']}LL{step}, {s['most']})" if s else "1")
        empty = " || ".join(f"orcu_span_{s['var']} <= 0" for s in spans if s["reach"]) or None
        return {"lines": lines, "shape": shape, "spans": spans, "grid": blocks, "empty": empty}

    def _span(self, loop: Loop) -> tuple[str, str] | None:
        """(the most iterations times the step a grid loop has over the loops around it, the
        highest value its upper bound takes): C text, None when its bounds are not affine."""
        outer = []
        for lp in chain(self.nest):
            if lp.var == loop.var:  # (a kernel body's loop is a copy of the nest's, in its new place)
                break
            outer.append(lp)
        lower, upper = poly_of(loop.lower), poly_of(loop.upper)
        bounds = [
            Bound(lp.var, poly_of(lp.lower), poly_of(lp.upper) - Poly.const(1))
            for lp in outer
            if poly_of(lp.lower) is not None and poly_of(lp.upper) is not None
        ]
        if lower is None or upper is None or len(bounds) != len(outer):
            return None
        span, reach = value_range(upper - lower, bounds), value_range(upper, bounds)
        return (
            (printer.widened_text(span[1].c_expr()), printer.widened_text(reach[1].c_expr()))
            if span is not None and reach is not None
            else None
        )


def _parent_body(body, loop: Loop) -> tuple:
    """The body (a tuple of IR nodes) that holds ``loop`` directly."""
    if any(n is loop for n in body):
        return body
    for n in body:
        if isinstance(n, Loop):
            found = _parent_body(n.body, loop)
            if found:
                return found
    return ()
