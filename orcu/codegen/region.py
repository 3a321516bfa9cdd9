"""One Loop region plus one configuration -> its CUDA kernel and host function.

The decisions live here (which arrays move and how, what is staged in shared memory or
kept in registers, how reductions finish, which index type is safe, which transformations
apply); the text lives in ``templates/region.cu.j2``. Every transformation that cannot
apply says why in ``RegionCode.notes`` (shown by ``orcu emit --explain``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pycparser import c_ast

from orcu.analysis.affine import Poly, poly_of
from orcu.analysis.conversions import accumulator_type
from orcu.analysis.nest import NestAnalysis, analyze
from orcu.analysis.poly import dependences
from orcu.codegen import printer
from orcu.codegen.arrays import ArrayDecisions
from orcu.codegen.atomics import atomic_forms
from orcu.codegen.mapped import MappedKernel
from orcu.codegen.plans import ArrayPlan, Link, ReductionPlan, RegionContext, Register, figures_once
from orcu.codegen.templates import render
from orcu.errors import AnalysisError
from orcu.frontend.ctext import IDENTIFIER
from orcu.frontend.ir import Loop, LoopNest, loops_of, statements
from orcu.frontend.types import ELEMENT_BYTES, VECTORS, canonical_type, used_names
from orcu.planning.program import Program
from orcu.spec.schedule import Schedule
from orcu.tsg.figures import Traffic
from orcu.tsg.traffic import orio_traffic

# Reduction element types: those __shfl_down_sync moves, with the limits min and max start from.
_REDUCIBLE = {
    "float": ("-INFINITY", "INFINITY", "0.0f", "1.0f"),
    "double": ("-INFINITY", "INFINITY", "0.0", "1.0"),
    "int": ("INT_MIN", "INT_MAX", "0", "1"),
    "unsigned int": ("0u", "UINT_MAX", "0u", "1u"),
    "long": ("LONG_MIN", "LONG_MAX", "0L", "1L"),
    "unsigned long": ("0ul", "ULONG_MAX", "0ul", "1ul"),
    "long long": ("LLONG_MIN", "LLONG_MAX", "0LL", "1LL"),
    "unsigned long long": ("0ull", "ULLONG_MAX", "0ull", "1ull"),
}
_FUNCTORS = {"+": "orcu_sum", "*": "orcu_product", "min": "orcu_min", "max": "orcu_max"}
# fmax and fmin skip NaN operands: their reductions combine with the C functions and start
# from NaN, which gives way to the first number (a true identity for them).
_NAN_FUNCTORS = {"min": "orcu_fmin", "max": "orcu_fmax"}
# Iterator types whose arithmetic orcu widens to 64 bits when a call's sizes need it:
# type -> (the 64-bit type, the largest value of the 32-bit one).
_WIDENS = {"int": ("long long", "INT_MAX"), "unsigned int": ("unsigned long long", "UINT_MAX")}
# preferL1Size (KB of L1 out of Fermi's 64) -> cache preference and sm_70+ shared-memory carveout.
_PREFER_L1 = {
    16: ("cudaFuncCachePreferShared", "cudaSharedmemCarveoutMaxShared", "a larger shared memory"),
    32: ("cudaFuncCachePreferEqual", "50", "an even L1/shared split"),
    48: ("cudaFuncCachePreferL1", "cudaSharedmemCarveoutMaxL1", "a larger L1 cache"),
}
_LANES = "xyzw"


@dataclass
class RegionCode:
    name: str
    host: str  # the host function's name
    call: str  # the statement that replaces the region
    text: str  # kernels and host function
    notes: list[str]
    needs: set[str]  # prelude pieces: "count", "pin", "blocks_for", "reduce", "shared", "buffers", functor names
    includes: set[str]  # headers beyond cuda_runtime.h, stdio.h, stdlib.h
    values: dict[str, Any] = field(default_factory=dict)  # the transform's arguments
    params: tuple[str, ...] = ()  # names of the host function's parameters
    host_params: tuple[str, ...] = ()  # their declarations
    release: str = ""  # the function that frees what the host function keeps between calls
    arrays: tuple[str, ...] = ()  # the host function's array parameters (device pointers with dataOnDevice)
    args: tuple[str, ...] = ()  # the call's arguments (&s for a scalar that comes back)
    # For each argument, the array it passes and the cast the host function needs ("" or
    # "(double *)" for a C99 array parameter taken flat); None for the others. Callers that pass
    # another copy of the array (its device copy) rebuild the argument from it.
    passes: tuple[tuple[str, str] | None, ...] = ()
    figures: Callable[[int], Traffic | None] | None = None  # the static traffic at the input size, by the device's SMs
    threads: int = 0  # per block
    # the relative error, of a float result's size, that products rounding their operands below
    # float may add (the TF32 tensor cores); the harness widens its check of float values by it
    rounding: float = 0.0

    def traffic(self, multiprocessors: int) -> Traffic | None:
        """The kernel's static traffic figures at the input size on a device of this many
        multiprocessors (Orio's grids follow them); None where they are not numbers."""
        return self.figures(multiprocessors) if self.figures is not None else None


def prelude(codes: list[RegionCode]) -> str:
    """The definitions shared by the generated code of ``codes`` (only those they use)."""
    return render("prelude.cu.j2", needs=set().union(*(c.needs for c in codes)))


def transform_values(
    program: Program, nest: LoopNest, params: Mapping[str, Any], inputs: Mapping[str, Any]
) -> dict[str, Any]:
    env = {**program.spec.lets, **inputs, **params}
    values = nest.transform.values(env)
    if nest.recipe is not None and env.get(nest.recipe.min_blocks):  # the runner's, for a tile ptxas spilled
        values["minBlocks"] = env[nest.recipe.min_blocks]
    return values


def links(program: Program, k: int) -> tuple[Link | None, Link | None]:
    """(what region k receives from region k - 1, what it sends to region k + 1)."""
    program = program.of_nest(k)

    def link(j: int) -> Link | None:
        handoff = program.handoffs[j] if 0 <= j < len(program.handoffs) else None
        if handoff is None:
            return None
        return Link(f"orcu_handoff_{program.nests[j].name}", tuple(sorted(handoff.arrays)), handoff.deferred)

    return link(k - 1), link(k)


def generate(
    program: Program,
    nest: LoopNest,
    params: Mapping[str, Any],
    inputs: Mapping[str, Any] | None = None,
    suffix: str = "",
    receive: Link | None = None,
    send: Link | None = None,
    source: str | None = None,
    linkage: str = "static",
    on_device: bool = False,
) -> RegionCode:
    """``suffix`` tells apart several configurations of one region in one file (size dispatch);
    ``receive`` and ``send``: arrays the region shares with its neighbours on the device
    (only where every region of the file runs on the GPU, as in the tuned file); ``source``:
    how comments name the C file (default: its path as given); ``linkage``: the host
    function's (``extern "C"`` where C code in another file calls it); ``on_device``: the
    arrays are device memory whatever dataOnDevice says."""
    values = transform_values(program, nest, params, inputs or {})
    if on_device:  # its region keeps the arrays on the device for all of its loops (codegen/resident.py)
        values["dataOnDevice"] = True
    sizes = {k: str(v) for k, v in values["arraySizes"].items()}
    schedule = Schedule.parse(values["mapping"])  # None: Orio's mapping
    analysis = analyze(program.src, nest, program.spec, sizes, mapped=schedule is not None)
    generator = _Generator(program, nest, analysis, values, suffix, receive, send, source, schedule, linkage)
    generator.inputs = {**program.spec.lets, **(inputs or {})}
    generator.resident = on_device
    return generator.region()


class _Generator(ArrayDecisions, MappedKernel):
    resident = False  # generate()'s on_device

    def __init__(
        self,
        program: Program,
        nest: LoopNest,
        analysis: NestAnalysis,
        values: dict[str, Any],
        suffix: str,
        receive: Link | None = None,
        send: Link | None = None,
        source: str | None = None,
        schedule: Schedule | None = None,
        linkage: str = "static",
    ):
        self.program, self.nest, self.a, self.v = program, nest, analysis, values
        self.schedule, self.linkage = schedule, linkage
        self.suffix = suffix
        self.receive, self.send = receive, send
        self.source = source or program.src.path
        self.src = program.src
        self.notes: list[str] = []
        self.needs: set[str] = set()
        self.includes: set[str] = set()
        self.rounding = 0.0  # RegionCode.rounding
        taken = set(nest.variables) | set(nest.outside)
        self.fresh = lambda base: base if base not in taken else "orcu_" + base
        self.outer: Loop = analysis.outer
        self.itype = canonical_type(nest.variables[self.outer.var].ctype.base)
        self.buffers = 0  # buffers the host function keeps between calls, numbered in order
        self.inputs: dict[str, Any] = {}  # the input sizes, for the static traffic figures
        self.figures: Callable[[int], Traffic | None] | None = None  # computed when asked for: most variants never are
        self.reduced: list[str] = []  # the element type of each scalar reduction
        self.constants: list[dict[str, Any]] = []  # arrays in constant memory (TSG phase II)
        # the sums the kernel makes with atomicAdd: through subscripts that are not affine, and
        # under Orio's mapping (no schedule) those along its outer loop
        orio = None if schedule else self.outer.var
        self.atomics = atomic_forms((nest.deps or dependences(nest)).kernel_atomics(orio), nest.variables)

    # -- decisions ------------------------------------------------------------------
    def reductions(self) -> list[ReductionPlan]:
        plans = []
        for r in self.a.reductions:
            ctype = accumulator_type(r.ctype)
            if ctype not in _REDUCIBLE:
                raise self.src.error_at(
                    r.loc,
                    f"reductions of type '{r.ctype}' are not supported (float, double, int, long, long long and their unsigned forms are)",
                    AnalysisError,
                )
            identity, functor = self._identity(ctype, r.op, r.skips_nan)
            plans.append(
                ReductionPlan(
                    r.var, r.op, ctype, identity, functor, self.buffer(), self.buffer(), canonical_type(r.ctype)
                )
            )
            self.needs |= {"reduce", functor}
        return plans

    def registers(self, arrays: list[ArrayPlan], loops: list[Loop]) -> dict[int, list[Register]]:
        """Array elements that a sequential loop updates at one place: kept in a register across
        the loop (``y[i] += ...`` over ``j``), so they are loaded and stored once. By the id
        of the loop."""
        written = {a.name for a in arrays if a.written and not a.shared}
        # an atomic sum's element is added to where it lies, each update at once (codegen/atomics.py)
        written -= {a.array for st in self.atomics for a in st.accesses if a.write}
        out: dict[int, list[Register]] = {}
        claimed: set[str] = set()  # element texts an enclosing loop keeps already
        for loop in loops:
            inner = {lp.var for lp in loops_of([loop])}
            stmts = list(statements(loop.body))
            changed = inner | {n for st, _ in stmts for n in st.scalar_writes}
            by_array: dict[str, set[str]] = {}
            for st, _ in stmts:
                for acc in st.accesses:
                    by_array.setdefault(acc.array, set()).add(acc.text)
            for name in sorted(written & set(by_array)):
                refs = by_array[name]
                if len(refs) != 1:
                    continue
                ref = next(iter(refs))
                acc = next(a for st, _ in stmts for a in st.accesses if a.array == name)
                polys = [poly_of(s) for s in acc.subscripts]
                if ref in claimed or any(p is None or p.names & changed for p in polys):
                    continue
                claimed.add(ref)
                element = next(a.element for a in arrays if a.name == name)
                reg = self.fresh(f"{name}_{loop.var}_acc")
                out.setdefault(id(loop), []).append(Register(reg, element, ref, loop.var))
        return out

    def _identity(self, ctype: str, op: str, skips_nan: bool) -> tuple[str, str]:
        """(identity, functor) of a reduction of ``ctype`` with ``op``."""
        low, high, zero, one = _REDUCIBLE[ctype]
        if skips_nan and ctype in ("float", "double") and op in _NAN_FUNCTORS:
            self.includes.add("math.h")
            return "NAN", _NAN_FUNCTORS[op]
        identity = {"+": zero, "*": one, "min": high, "max": low}[op]
        if not identity[0].isdigit():
            self.includes.add("limits.h" if identity[0] in "IULS" else "math.h")
        return identity, _FUNCTORS[op]

    def vector_lanes(self, arrays: list[ArrayPlan], live) -> int | None:
        """vectorize: how many iterations go together, each array moved as one vector of that
        many elements; None (with a note) where the loop does not allow it."""
        if not self.v["vectorize"]:
            return None
        outer = self.outer.var
        accesses = [acc for st, _ in statements(self.outer.body) for acc in st.accesses]
        lanes = 16 // max((ELEMENT_BYTES.get(a.element, 16) for a in arrays), default=16)
        reasons = []
        if self.outer.step != 1:
            reasons.append(f"the step of '{outer}' is not 1")
        if not accesses or any(
            len(acc.subscripts) != 1 or poly_of(acc.subscripts[0]) != Poly.var(outer) for acc in accesses
        ):
            reasons.append(f"an array is indexed by more than '{outer}' alone")
        if any((a.element, lanes) not in VECTORS for a in arrays):
            reasons.append("an element type has no CUDA vector type (float, double, int, unsigned int, long long)")
        if self.outer.jumps_of("continue"):
            reasons.append("a 'continue' may skip part of an iteration")
        if live:
            reasons.append("the code after the loop reads a value of its last iteration")
        if reasons:
            self.notes.append("vectorize: no effect: " + "; ".join(reasons))
            return None
        return lanes

    def vector_body(self, arrays: list[ArrayPlan], lanes: int, renames, registers) -> list[str]:
        """One step of the vector loop: each array's vector loaded, the loop body once per
        lane on the vectors' elements, the vectors written stored."""
        var = self.outer.var
        lines = []
        for a in arrays:
            vector = VECTORS[(a.element, lanes)]
            if a.dense:
                lines.append(f"        {vector} orcu_{a.name}_v;  // every lane writes it")
            elif a.written:
                lines.append(f"        {vector} orcu_{a.name}_v = *(const {vector} *)({a.name} + {var});")
            else:
                lines.append(f"        const {vector} orcu_{a.name}_v = *(const {vector} *)({a.name} + {var});")
        for lane in range(lanes):
            lines.append(f"        {{  // {var} + {lane}" if lane else f"        {{  // {var}")
            refs = {f"{a.name}[{var}]": f"orcu_{a.name}_v.{_LANES[lane]}" for a in arrays}
            lane_renames = {**renames, **({var: f"({var} + {lane})"} if lane else {})}
            lines += printer.nodes(
                self.outer.body, 3, lane_renames, self.v["unrollInner"], registers, refs, atomics=self.atomics
            )
            lines.append("        }")
        lines += [
            f"        *({VECTORS[(a.element, lanes)]} *)({a.name} + {var}) = orcu_{a.name}_v;"
            for a in arrays
            if a.written
        ]
        return lines

    # -- parameters -------------------------------------------------------------------
    def scalars(self, arrays: list[ArrayPlan]) -> list[tuple[str, str]]:
        """(type, name) of the values the host function and the kernel take by value."""
        out = []
        for name in self.a.scalars_in:
            var = self.nest.variables[name]
            # A fragment's sizes and macros are the caller's: its host function, in a file of its own, takes them.
            if var.kind == "scalar" or (var.kind == "constant" and self.program.fragment):
                out.append((canonical_type(var.ctype.base), name))
        known = {n for _, n in out} | set(self.nest.variables)
        extra = []  # names only the array sizes use (e.g. m, n of x[m*n*dof] in input_vars)
        for a in arrays:
            for text in (a.end, a.first):
                for name in IDENTIFIER.findall(text):
                    var = self.nest.outside.get(name)
                    if name in known or var is None or var.ctype.is_array:
                        continue
                    known.add(name)
                    extra.append((canonical_type(var.ctype.base), name))
        return out + extra

    def host_params(self, arrays, scalars, reductions, live) -> list[tuple[str, str, str, tuple[str, str] | None]]:
        """(declaration, argument at the call site, parameter name, the array it passes and its
        cast, or None) of the host function, in first-use order. Reductions and the values the
        code after the region reads come back through pointers."""
        by_name: dict[str, tuple] = {a.name: (a.host_param, a.argument, a.host_name, (a.name, a.cast)) for a in arrays}
        by_name.update({n: (f"{t} {n}", n, n, None) for t, n in scalars})
        by_name.update({r.var: (f"{r.host_type} *{r.var}", "&" + r.var, r.var, None) for r in reductions})
        by_name.update({n: (f"{t} *{n}", "&" + n, n, None) for t, n in live})
        order = [n for n in self.nest.variables if n in by_name]
        order += [n for n in by_name if n not in order]
        return [by_name[n] for n in order]

    # -- text -------------------------------------------------------------------------
    def region(self) -> RegionCode:
        v, nest = self.v, self.nest
        arrays = self.arrays()
        reductions = self.reductions()
        self.reduced = [red.ctype for red in reductions]
        scalars = self.scalars(arrays)
        kernel_scalars = self._kernel_scalars(arrays, scalars)
        name = nest.name + self.suffix
        staged = sorted((a for a in arrays if a.shared), key=lambda a: -ELEMENT_BYTES.get(a.element, 8))
        if staged:
            self.needs.add("shared")
        header = self._header(name)
        index_vars = {lp.var for lp in nest.loops() if canonical_type(nest.variables[lp.var].ctype.base) == self.itype}
        unroll = self._unroll()
        live = [(canonical_type(nest.variables[n].ctype.base), n) for n in self.a.live_private]
        mapped = self.mapped(arrays, unroll) if self.schedule is not None else None
        body, lanes, vector_body = self._body(arrays, mapped, {a.name: a.shared for a in staged}, unroll, live)
        block_threads = mapped["shape"][0] * mapped["shape"][1] if mapped else v["threadCount"]
        locals_ = self._locals(body, mapped, index_vars)
        self._launch_needs(arrays, mapped, lanes)
        live_buffers = {n: self.buffer() for _, n in live}
        overlaps = self._overlaps(arrays)
        returned = live + ([(self.itype, self.outer.var)] if self.a.iterator_live else [])
        params = self.host_params(arrays, scalars, reductions, returned)
        kernel_params = self._kernel_params(mapped, lanes, arrays, kernel_scalars, reductions, live)
        counter = self.buffer() if reductions else None  # blocks that finished, for the single-pass reduction
        self._host_needs(arrays, reductions, live)
        fallback = bool(overlaps) and not v["dataOnDevice"]
        context = RegionContext(
            **header,
            locals=[a.view for a in arrays if a.view] + [f"{t} {', '.join(ns)};" for t, ns in locals_.items()],
            reductions=reductions,
            arrays=arrays,
            staged=staged,
            device_arrays=[a for a in arrays if a.transferred],
            body=body,
            lanes=lanes,
            vector_body=vector_body,
            vector_bytes=lanes * max(ELEMENT_BYTES[a.element] for a in arrays) if lanes else None,
            live=[(t, n, live_buffers[n]) for t, n in live],
            iterator_live=self.a.iterator_live,
            constants=self.constants,
            values=v,
            threads=block_threads,
            mapped=mapped,
            schedule=self.schedule.name if self.schedule else None,
            blocks=v["blockCount"],
            streams=v["streamCount"],
            prefer=_PREFER_L1.get(v["preferL1Size"]),
            prefer_kb=v["preferL1Size"],
            on_device=v["dataOnDevice"],
            resident=self.resident,
            buffers=self.buffers,
            counter=counter,
            overlaps=overlaps,
            fallback=fallback,
            original=self._original(arrays, reductions, returned) if fallback else None,
            **self._signatures(header, block_threads, kernel_params, params),
            host_args=", ".join(name for _, _, name, _ in params),
            kernel_args=self._kernel_args(name, mapped, lanes, arrays, kernel_scalars, reductions, live, live_buffers),
            receive=self.receive,
            send=self.send,
        )
        return self._code(context, arrays, params)

    def _header(self, name: str) -> dict[str, Any]:
        """The context's names, the loop's place and bounds, and its iterator's types: the type as
        declared and the 64-bit one a call switches to when 32 bits could overflow."""
        narrow = self.itype
        wide, limit = _WIDENS.get(narrow, (narrow, None))
        if limit is not None:
            self.includes.add("limits.h")
        host = f"orcu_{name}"
        return {
            "name": name,
            "kernel": f"{host}_kernel",
            "host": host,
            "release": f"orcu_release_{name}",
            "where": f"{self.source}:{self.outer.loc.line}",
            "function": self.nest.function,
            "loop_comment": _comment_lines(self.nest.code),
            "settings": self._settings(),
            "var": self.outer.var,
            "step": self.outer.step,
            "lower": printer.widened(self.outer.lower),
            "upper": printer.widened(self.outer.upper),
            "narrow": narrow,
            "wide": wide,
            "limit": limit,
            "itype": self.itype,
        }

    def _overlaps(self, arrays: list[ArrayPlan]) -> list[tuple[ArrayPlan, ArrayPlan]]:
        """Pairs of arrays the kernel reads as __restrict__ that must not overlap: one of them is written."""
        overlaps = [(a, b) for k, a in enumerate(arrays) for b in arrays[k + 1 :] if a.written or b.written]
        if overlaps:
            self.needs.add("overlap")
            self.includes.add("stdint.h")
        return overlaps

    def _host_needs(self, arrays: list[ArrayPlan], reductions: list[ReductionPlan], live) -> None:
        """The prelude's pieces the host function needs for its buffers."""
        if self.buffers:
            self.needs.add("buffers")
        if any(a.sent is not None or a.received is not None for a in arrays):
            self.needs.add("handoff")
        if reductions or live or any(a.chunked for a in arrays):
            self.needs.add("pinned")

    def _kernel_args(
        self, name: str, mapped, lanes, arrays, kernel_scalars, reductions, live, live_buffers
    ) -> Callable[[str, str, str, str, str], str]:
        """The kernel's arguments at a launch (the template names the bounds, the first block and
        the vector loop's bounds of each launch), in the order of _kernel_params."""

        def kept(k: int) -> str:  # the device address of a kept pinned buffer
            return f"orcu_buffer_device(&orcu_{name}_buffers[{k}])"

        def kernel_args(lo: str, hi: str, first_block: str, vlo: str, vhi: str) -> str:
            args = ([] if mapped else [lo, hi]) + ([vlo, vhi] if lanes else []) + [a.device for a in arrays]
            args += [n for _, n in kernel_scalars]
            args += [c["flag"] for c in self.constants]
            for red in reductions:
                args += [f"orcu_{red.var}_partial", f"*{red.var}", f"({red.ctype} *){kept(red.result)}"]
            if reductions:
                args += ["orcu_arrived", first_block, "orcu_all_blocks"]
            if live:
                args.append("orcu_last")
                args += [f"({t} *){kept(live_buffers[n])}" for t, n in live]
            return ", ".join(args)

        return kernel_args

    def _signatures(self, header: dict[str, Any], block_threads: int, kernel_params, params) -> dict[str, Any]:
        """The kernel's, the host function's and the host fallback's heads."""
        v, host = self.v, header["host"]
        bounds = f"__launch_bounds__({block_threads}" + (f", {v['minBlocks']})" if v["minBlocks"] else ")")
        return {
            "kernel_signature": _signature(f"__global__ void {bounds}", header["kernel"], kernel_params),
            "host_signature": _signature(f"{self.linkage} void", host, [decl for decl, *_ in params]),
            "fallback_signature": _signature("static void", f"{host}_on_host", [decl for decl, *_ in params]),
        }

    def _code(self, context: RegionContext, arrays: list[ArrayPlan], params) -> RegionCode:
        """The region's CUDA, rendered, with what the file and the harness need to know of it."""
        return RegionCode(
            context.name,
            context.host,
            f"{context.host}({', '.join(arg for _, arg, _, _ in params)});",
            render("region.cu.j2", r=context),
            self.notes,
            self.needs,
            self.includes,
            self.v,
            tuple(name for _, _, name, _ in params),
            tuple(decl for decl, *_ in params),
            release=context.release,
            arrays=tuple(a.name for a in arrays),
            args=tuple(arg for _, arg, _, _ in params),
            passes=tuple(passed for *_, passed in params),
            figures=self.figures,
            threads=context.threads,
            rounding=self.rounding,
        )

    def _kernel_scalars(self, arrays: list[ArrayPlan], scalars: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The scalars the kernel reads: those its body names, and those a staged or strided
        array's extent does."""
        in_kernel = set(used_names(_ir_nodes(self.nest.body if self.schedule else self.outer.body)))
        extents = {n for a in arrays if a.shared for n in IDENTIFIER.findall(a.extent)}
        extents |= {n for a in arrays if a.view for n in IDENTIFIER.findall(a.view)}
        return [(t, n) for t, n in scalars if n in in_kernel or n in extents]

    def _unroll(self) -> int:
        unroll = self.v["unrollInner"]
        if unroll > 1 and not any(lp is not self.outer for lp in self.nest.loops()):
            self.notes.append(
                f"unrollInner={unroll}: no effect, the loop at line {self.outer.loc.line} has no inner loop"
            )
        return unroll

    def _body(self, arrays, mapped, renames, unroll: int, live) -> tuple[list[str], int | None, list[str]]:
        """The kernel's statements, the iterations a vector holds (None: no vectors) and the
        vectorized body; Orio's mapping's traffic figures on the way."""
        if mapped is not None:
            return mapped["lines"], None, []
        registers = self.registers(arrays, loops_of(self.outer.body))
        body = printer.nodes(self.outer.body, 2, renames, unroll, registers, atomics=self.atomics)
        lanes = self.vector_lanes(arrays, live)
        held = {r.ref: r.loop for regs in registers.values() for r in regs}
        nest, outer, v, inputs, reduced = self.nest, self.outer, self.v, self.inputs, self.reduced
        self.figures = figures_once(lambda sms: orio_traffic(nest, outer, v, inputs, held, lanes or 1, reduced, sms))
        vector_body = self.vector_body(arrays, lanes, renames, registers) if lanes else []
        return body, lanes, vector_body

    def _locals(self, body: list[str], mapped, index_vars: set[str]) -> dict[str, list[str]]:
        """The kernel's local variables by type: the mapped loop's iterator and the privates."""
        locals_: dict[str, list[str]] = {}
        # Orio's loop header is the template's; the kernel's comments name loops the code no longer does
        kernel_text = re.sub(r"//[^\n]*|/\*.*?\*/", "", "\n".join(body), flags=re.S) if mapped is not None else None
        for var in (self.outer.var, *self.a.private):
            if kernel_text is not None and not re.search(rf"\b{re.escape(var)}\b", kernel_text):
                continue  # replaced by its register tile's copies (sum_0_0, ...): declared, it would be unused
            ctype = "orcu_index" if var in index_vars else canonical_type(self.nest.variables[var].ctype.base)
            locals_.setdefault(ctype, []).append(var)
        return locals_

    def _launch_needs(self, arrays: list[ArrayPlan], mapped, lanes: int | None) -> None:
        """The prelude's pieces the launch needs, and the note of streams that overlap nothing."""
        v = self.v
        if lanes:
            self.needs.add("vectors")
            self.includes.add("stdint.h")
        if _calls_functions(_ir_nodes(self.outer.body)):  # fmax, sqrt...: the C file's math.h
            self.includes.add("math.h")
        streams = v["streamCount"]
        if v["blockCount"] is None and mapped is None:  # a TSG grid is sized by orcu_blocks_along
            self.needs.add("blocks_for")
        if any(a.transferred for a in arrays):
            self.needs.add("count")
        if any(a.pinned for a in arrays):
            self.needs.add("pin")
        if streams > 1:
            self.needs.add("chunks")
        if streams > 1 and not any(a.chunked for a in arrays) and not v["dataOnDevice"]:
            self.notes.append(
                f"streamCount={streams}: no array is indexed by '{self.outer.var}' alone, so no transfer overlaps a kernel"
            )

    def _kernel_params(self, mapped, lanes, arrays, kernel_scalars, reductions, live) -> list[str]:
        """The kernel's parameters, in the order kernel_args passes them."""
        out = [] if mapped else ["long long orcu_lo", "long long orcu_hi"]  # a TSG kernel reads its loops' bounds
        out += (["long long orcu_vlo", "long long orcu_vhi"] if lanes else []) + [a.kernel_param for a in arrays]
        out += [f"{t} {n}" for t, n in kernel_scalars]
        out += [f"bool {c['flag']}" for c in self.constants]
        for red in reductions:
            out += [
                f"{red.ctype} *__restrict__ orcu_{red.var}_partial",
                f"{red.ctype} orcu_{red.var}_before",
                f"{red.ctype} *orcu_{red.var}_result",
            ]
        if reductions:
            out += ["unsigned int *orcu_arrived", "int orcu_first_block", "int orcu_all_blocks"]
        if live:
            out.append("long long orcu_last")
            out += [f"{t} *orcu_{n}_last" for t, n in live]
        return out

    def _settings(self) -> str:
        """The transform's arguments as the annotation wrote them (and minBlocks, which the runner
        may set), for the kernel's comment."""
        args = self.nest.transform.args
        return ", ".join(
            f"{k}={val!r}" if isinstance(val, str) else f"{k}={val}"
            for k, val in self.v.items()
            if k in args or k == "minBlocks" and val
        )

    def _original(
        self, arrays: list[ArrayPlan], reductions: list[ReductionPlan], returned: list[tuple[str, str]]
    ) -> list[str]:
        """The loop as written, in a host function of the same parameters: what a call whose
        arrays overlap runs instead (-DORCU_ALLOW_ALIASING). Scalars that come back through
        pointers are copied in and out, and C99 array parameters taken flat get the kernel's
        strided view (its operator[] runs on the host too), so the loop's own text runs unchanged."""
        nest = self.nest
        by_pointer = [(r.host_type, r.var) for r in reductions] + returned
        depth = 2 if by_pointer else 1
        pad = "    " * depth
        lines = [f"    {a.view}" for a in arrays if a.view]
        lines += [f"    {t} *const orcu_{n}_at = {n};" for t, n in by_pointer]
        if by_pointer:
            lines.append("    {  // the scalars under their own names, as the loop uses them")
        lines += [f"{pad}{t} {n} = *orcu_{n}_at;" for t, n in by_pointer]
        declared = {n for _, n in by_pointer}
        for var in (self.outer.var, *self.a.private):
            if var not in declared:
                lines.append(f"{pad}{canonical_type(nest.variables[var].ctype.base)} {var};")
        lines += printer.nodes(nest.body, depth, {})
        lines += [f"{pad}*orcu_{n}_at = {n};" for _, n in by_pointer]
        if by_pointer:
            lines.append("    }")
        return lines


def _ir_nodes(body):
    """The pycparser nodes of an IR body: statements, and loop bounds."""
    for n in body:
        if isinstance(n, Loop):
            yield n.lower
            yield n.upper
            yield from _ir_nodes(n.body)
        else:
            yield n.node


def _calls_functions(nodes) -> bool:
    class Finder(c_ast.NodeVisitor):
        found = False

        def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
            self.found = True

    finder = Finder()
    for node in nodes:
        finder.visit(node)
    return finder.found


def _comment_lines(code: str) -> list[str]:
    lines = textwrap.dedent(code.expandtabs(4).strip("\n")).rstrip().split("\n")
    return [line.rstrip().rstrip("\\") for line in lines]


def _signature(head: str, name: str, params: list[str]) -> str:
    """A function head on one line, or one parameter per line when that is too long."""
    line = f"{head} {name}({', '.join(params)})"
    if len(line) <= 100:
        return line
    return f"{head} {name}(\n    " + ",\n    ".join(params) + ")"
