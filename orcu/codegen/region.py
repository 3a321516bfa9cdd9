"""One Loop region plus one configuration -> its CUDA kernels and host function.

The decisions live here (which arrays move and how, what is staged in shared memory,
how reductions finish, which transformations apply); the text lives in
``templates/region.cu.j2``. Every transformation that cannot apply says why in
``RegionCode.notes`` (shown by ``orcu emit --explain``).
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Any, Mapping

from pycparser import c_ast

from ..analysis.nest import ArrayInfo, NestAnalysis, analyze
from ..analysis.affine import poly_of
from ..errors import AnalysisError
from ..frontend.ir import Loop, LoopNest, statements
from ..frontend.types import used_names
from ..program import Program
from . import printer
from .templates import render

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
_SIZES = {"double": 8, "long": 8, "long long": 8, "unsigned long": 8, "unsigned long long": 8, "size_t": 8,
          "float": 4, "int": 4, "unsigned int": 4, "short": 2, "unsigned short": 2, "char": 1,
          "signed char": 1, "unsigned char": 1}
# preferL1Size (KB of L1 out of Fermi's 64) -> cache preference and sm_70+ shared-memory carveout.
_PREFER_L1 = {
    16: ("cudaFuncCachePreferShared", "cudaSharedmemCarveoutMaxShared", "a larger shared memory"),
    32: ("cudaFuncCachePreferEqual", "50", "an even L1/shared split"),
    48: ("cudaFuncCachePreferL1", "cudaSharedmemCarveoutMaxL1", "a larger L1 cache"),
}
FINISH_THREADS = 256  # threads of the one block that folds the blocks' partial results
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def canonical_type(base: str) -> str:
    """``long int`` -> ``long``, ``unsigned`` -> ``unsigned int``, ``signed int`` -> ``int``."""
    words = [w for w in base.split() if w != "signed" or base.split() == ["signed", "char"]]
    if "int" in words and len(words) > 1:
        words.remove("int")
    if words == ["unsigned"]:
        words = ["unsigned", "int"]
    return " ".join(words) or "int"


@dataclass(frozen=True)
class ArrayPlan:
    name: str
    element: str
    device: str  # the kernel argument: a device copy, or the pointer itself with dataOnDevice
    extent: str
    first: str
    copy_in: bool
    copy_out: bool
    chunked: bool  # moved chunk by chunk with the streams
    pinned: bool  # page-locked for the duration of the call
    shared: str | None  # name of the shared-memory copy when cacheBlocks stages it
    kernel_param: str
    host_param: str
    device_decl: str  # declaration of the device copy

    @property
    def transferred(self) -> bool:
        return self.copy_in or self.copy_out


@dataclass(frozen=True)
class ReductionPlan:
    var: str
    op: str
    ctype: str
    identity: str
    functor: str
    finish: str  # the second-stage kernel
    buffer: str  # device buffer: one partial per block, then the result


@dataclass
class RegionCode:
    name: str
    host: str  # the host function's name
    call: str  # the statement that replaces the region
    text: str  # kernels and host function
    notes: list[str]
    needs: set[str]  # prelude pieces: "count", "pin", "blocks_for", "reduce", "shared", functor names
    includes: set[str]  # headers beyond cuda_runtime.h, stdio.h, stdlib.h
    values: dict[str, Any] = field(default_factory=dict)  # the transform's arguments
    params: tuple[str, ...] = ()  # names of the host function's parameters
    host_params: tuple[str, ...] = ()  # their declarations


def prelude(codes: list[RegionCode]) -> str:
    """The definitions shared by the generated code of ``codes`` (only those they use)."""
    return render("prelude.cu.j2", needs=set().union(*(c.needs for c in codes)))


def transform_values(program: Program, nest: LoopNest, params: Mapping[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any]:
    env = {**program.spec.lets, **inputs, **params}
    return nest.transform.values(env)


def generate(
    program: Program, nest: LoopNest, params: Mapping[str, Any], inputs: Mapping[str, Any] | None = None, suffix: str = ""
) -> RegionCode:
    """``suffix`` tells apart several configurations of one region in one file (size dispatch)."""
    values = transform_values(program, nest, params, inputs or {})
    sizes = {k: str(v) for k, v in values["arraySizes"].items()}
    analysis = analyze(program.src, nest, program.spec, sizes)
    return _Generator(program, nest, analysis, values, suffix).region()


class _Generator:
    def __init__(self, program: Program, nest: LoopNest, analysis: NestAnalysis, values: dict[str, Any], suffix: str):
        self.program, self.nest, self.a, self.v = program, nest, analysis, values
        self.suffix = suffix
        self.src = program.src
        self.notes: list[str] = []
        self.needs: set[str] = set()
        self.includes: set[str] = set()
        taken = set(nest.variables) | set(nest.outside)
        self.fresh = lambda base: base if base not in taken else "orcu_" + base
        self.outer: Loop = analysis.outer
        self.itype = canonical_type(nest.variables[self.outer.var].ctype.base)

    # -- decisions ------------------------------------------------------------------
    def arrays(self) -> list[ArrayPlan]:
        v = self.v
        on_device = v["dataOnDevice"]
        streams = v["streamCount"]
        staged = self._staged() if v["cacheBlocks"] else set()
        plans = []
        for info in self.a.arrays:
            if not (info.read or info.written):
                continue
            extent = self._extent(info)
            var = self.nest.variables[info.name].ctype
            if var.pointers > 1 or (var.pointers and var.dims):
                raise self._error(info.name, f"'{info.name}' is an array of pointers; orcu transfers flat arrays only")
            copy_in = not on_device and (info.read or not info.dense_write)
            copy_out = not on_device and info.written
            chunked = streams > 1 and info.chunkable and not on_device
            if streams > 1 and not info.chunkable and not on_device:
                self.notes.append(
                    f"streamCount: '{info.name}' moves whole before and after the chunks: "
                    f"it is not indexed by '{self.outer.var}' alone"
                )
            pinned = (chunked or (v["pinHostMem"] and not on_device)) and (copy_in or copy_out)
            elem = canonical_type(info.element)
            dims = "".join(f"[{d}]" for d in var.dims[1:])
            const = "" if info.written else "const "
            restrict = "" if on_device else "__restrict__ "
            device = info.name if on_device else self.fresh("d_" + info.name)
            if dims:
                kernel_param = f"{const}{elem} (*{restrict}{info.name}){dims}"
                host_param = f"{const}{elem} (*{info.name}){dims}"
                device_decl = f"{elem} (*{device}){dims}"
            else:
                kernel_param = f"{const}{elem} *{restrict}{info.name}"
                host_param = f"{const}{elem} *{info.name}"
                device_decl = f"{elem} *{device}"
            plans.append(
                ArrayPlan(
                    name=info.name,
                    element=elem,
                    device=device,
                    extent=extent,
                    first=info.first,
                    copy_in=copy_in,
                    copy_out=copy_out,
                    chunked=chunked,
                    pinned=pinned,
                    shared=self.fresh(info.name + "_shared") if info.name in staged else None,
                    kernel_param=kernel_param,
                    host_param=host_param,
                    device_decl=device_decl,
                )
            )
        if v["pinHostMem"] and on_device:
            self.notes.append("pinHostMem: no effect with dataOnDevice (nothing is transferred)")
        return plans

    def _extent(self, info: ArrayInfo) -> str:
        if info.extent is None:
            raise self._error(
                info.name,
                f"cannot tell how many elements of '{info.name}' to transfer: its subscripts are not affine "
                f"in the loop bounds; declare it in input_vars or give arraySizes={{'{info.name}': ...}}",
            )
        return info.extent

    def _staged(self) -> set[str]:
        """Arrays every thread of a block reads whole: subscripts free of the outer iterator."""
        staged, reasons = set(), []
        outer = self.outer.var
        private = set(self.a.private) - {lp.var for lp in self.nest.loops()}
        for info in self.a.arrays:
            accesses = [acc for st, _ in statements(self.outer.body) for acc in st.accesses if acc.array == info.name]
            if info.written:
                reasons.append(f"'{info.name}' is written")
                continue
            polys = [poly_of(s) for acc in accesses for s in acc.subscripts]
            if any(p is None or p.names & private for p in polys):
                reasons.append(f"'{info.name}' has a subscript that is not affine")
                continue
            if any(outer in p.names for p in polys):
                reasons.append(f"each thread reads its own elements of '{info.name}'")
                continue
            if info.extent_source not in ("affine", "declared") or len(self.nest.variables[info.name].ctype.dims) > 1:
                reasons.append(f"the size of '{info.name}' is not known inside the kernel")
                continue
            staged.add(info.name)
        if not staged:
            self.notes.append("cacheBlocks: skipped, no data is reused across the threads of a block (" + "; ".join(reasons) + ")")
        return staged

    def reductions(self) -> list[ReductionPlan]:
        plans = []
        for r in self.a.reductions:
            ctype = canonical_type(r.ctype)
            if ctype not in _REDUCIBLE:
                raise self.src.error_at(
                    r.loc,
                    f"reductions of type '{r.ctype}' are not supported (float, double, int, long, long long and their unsigned forms are)",
                    AnalysisError,
                )
            low, high, zero, one = _REDUCIBLE[ctype]
            identity = {"+": zero, "*": one, "min": high, "max": low}[r.op]
            if not identity[0].isdigit():
                self.includes.add("math.h" if "INFINITY" in identity else "limits.h")
            plans.append(
                ReductionPlan(
                    var=r.var, op=r.op, ctype=ctype, identity=identity, functor=_FUNCTORS[r.op],
                    finish=f"orcu_{self.nest.name}{self.suffix}_finish_{r.var}",
                    buffer=self.fresh("d_" + r.var + "_partial"),
                )
            )
            self.needs |= {"reduce", _FUNCTORS[r.op]}
        return plans

    def _error(self, array: str, message: str) -> AnalysisError:
        acc = next(
            (a for st, _ in statements(self.outer.body) for a in st.accesses if a.array == array),
            None,
        )
        return self.src.error_at(acc.loc if acc is not None else self.nest.loc, message, AnalysisError)

    # -- parameters -------------------------------------------------------------------
    def scalars(self, arrays: list[ArrayPlan]) -> list[tuple[str, str]]:
        """(type, name) of the values the host function and the kernel take by value."""
        out = []
        for name in self.a.scalars_in:
            var = self.nest.variables[name]
            if var.kind == "scalar":
                out.append((canonical_type(var.ctype.base), name))
        known = {n for _, n in out} | set(self.nest.variables)
        extra = []  # names only the array sizes use (e.g. m, n of x[m*n*dof] in input_vars)
        for a in arrays:
            for text in (a.extent, a.first):
                for name in _IDENT.findall(text):
                    var = self.nest.outside.get(name)
                    if name in known or var is None or var.ctype.is_array:
                        continue
                    known.add(name)
                    extra.append((canonical_type(var.ctype.base), name))
        return out + extra

    def host_params(self, arrays, scalars, reductions) -> list[tuple[str, str]]:
        """(declaration, argument at the call site) of the host function, in first-use order."""
        by_name: dict[str, tuple[str, str]] = {a.name: (a.host_param, a.name) for a in arrays}
        by_name.update({n: (f"{t} {n}", n) for t, n in scalars})
        by_name.update({r.var: (f"{r.ctype} *{r.var}", "&" + r.var) for r in reductions})
        order = [n for n in self.nest.variables if n in by_name]
        order += [n for n in by_name if n not in order]
        return [by_name[n] for n in order]

    # -- text -------------------------------------------------------------------------
    def region(self) -> RegionCode:
        v = self.v
        arrays = self.arrays()
        reductions = self.reductions()
        scalars = self.scalars(arrays)
        in_kernel = set(used_names(_ir_nodes(self.outer.body)))
        staged_extents = {n for a in arrays if a.shared for n in _IDENT.findall(a.extent)}
        kernel_scalars = [(t, n) for t, n in scalars if n in in_kernel or n in staged_extents]
        nest = self.nest
        name = nest.name + self.suffix
        staged = [a for a in arrays if a.shared]
        staged.sort(key=lambda a: -_SIZES.get(a.element, 8))
        renames = {a.name: a.shared for a in staged}
        if staged:
            self.needs.add("shared")

        inner = [lp for lp in nest.loops() if lp is not self.outer]
        unroll = v["unrollInner"]
        if unroll > 1 and not inner:
            self.notes.append(f"unrollInner={unroll}: no effect, the loop at line {self.outer.loc.line} has no inner loop")
        body = printer.nodes(self.outer.body, 2, renames, unroll)
        if _calls_functions(_ir_nodes(self.outer.body)):  # fmax, sqrt...: the C file's math.h
            self.includes.add("math.h")

        locals_: dict[str, list[str]] = {}
        for var in (self.outer.var, *self.a.private):
            locals_.setdefault(canonical_type(nest.variables[var].ctype.base), []).append(var)
        streams = v["streamCount"]
        if v["blockCount"] is None:
            self.needs.add("blocks_for")
        if any(a.transferred for a in arrays) or reductions:
            self.needs.add("count")
        if any(a.pinned for a in arrays):
            self.needs.add("pin")
        if streams > 1 and not any(a.chunked for a in arrays) and not v["dataOnDevice"]:
            self.notes.append(f"streamCount={streams}: no array is indexed by '{self.outer.var}' alone, so no transfer overlaps a kernel")

        step = self.outer.step
        data = {
            "kernel": f"orcu_{name}_kernel",
            "host": f"orcu_{name}",
            "where": f"{self.src.path}:{self.outer.loc.line}",
            "function": nest.function,
            "loop_comment": _comment_lines(nest.code),
            "settings": ", ".join(f"{k}={val}" for k, val in v.items() if k in nest.transform.args),
            "var": self.outer.var,
            "itype": self.itype,
            "step": step,
            "lower": printer.expression(self.outer.lower),
            "upper": printer.expression(self.outer.upper),
            "locals": [f"{t} {', '.join(names)};" for t, names in locals_.items()],
            "reductions": reductions,
            "arrays": arrays,
            "staged": staged,
            "body": body,
            "threads": v["threadCount"],
            "blocks": v["blockCount"],
            "streams": streams,
            "prefer": _PREFER_L1.get(v["preferL1Size"]),
            "prefer_kb": v["preferL1Size"],
            "on_device": v["dataOnDevice"],
            "finish_threads": FINISH_THREADS,
        }
        params = self.host_params(arrays, scalars, reductions)
        kernel_params = [f"{self.itype} orcu_lo", f"{self.itype} orcu_hi"] + [a.kernel_param for a in arrays]
        kernel_params += [f"{t} {n}" for t, n in kernel_scalars]
        kernel_params += [f"{red.ctype} *__restrict__ orcu_partial_{red.var}" for red in reductions]

        def kernel_args(lo: str, hi: str, partial_offset: str) -> str:
            args = [lo, hi] + [a.device for a in arrays] + [n for _, n in kernel_scalars]
            return ", ".join(args + [red.buffer + partial_offset for red in reductions])

        data.update(
            kernel_signature=_signature("__global__ void", data["kernel"], kernel_params),
            host_signature=_signature("void", data["host"], [decl for decl, _ in params]),
            kernel_args=kernel_args,
            kernels=[data["kernel"]] + [red.finish for red in reductions],
            device_arrays=[a for a in arrays if a.transferred],
            needs_sync=streams == 1 and not reductions and not any(a.copy_out for a in arrays),
        )
        text = render("region.cu.j2", r=data)
        call = f"orcu_{name}({', '.join(arg for _, arg in params)});"
        names = tuple(arg.lstrip("&") for _, arg in params)
        decls = tuple(decl for decl, _ in params)
        return RegionCode(name, f"orcu_{name}", call, text, self.notes, self.needs, self.includes, v, names, decls)


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
