"""How a region's arrays move and how the kernel and the host function take them: for
codegen/region.py's generator, whose class takes these methods. Each array the loop reads or
writes gets an ArrayPlan (codegen/plans.py): its device copy, what is copied in and out (and
through the streams' chunks), its declarations for a C99 array of run-time extents (a strided
view) or fixed ones, and its shared copy under cacheBlocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from orcu.analysis.affine import poly_of
from orcu.analysis.nest import ArrayInfo, NestAnalysis
from orcu.codegen import printer
from orcu.codegen.plans import ArrayPlan, Link
from orcu.errors import AnalysisError
from orcu.frontend.ctext import IDENTIFIER
from orcu.frontend.ir import Loop, LoopNest, statements
from orcu.frontend.source import SourceFile
from orcu.frontend.types import canonical_type


class ArrayDecisions:
    """The arrays' plans; what they read of the generator's state is declared here."""

    v: dict[str, Any]
    a: NestAnalysis
    nest: LoopNest
    outer: Loop
    src: SourceFile
    send: Link | None
    receive: Link | None
    notes: list[str]
    needs: set[str]
    buffers: int  # buffers the host function keeps between calls, numbered in order

    fresh: Callable[[str], str]  # a name no variable of the nest has

    def buffer(self) -> int:
        self.buffers += 1
        return self.buffers - 1

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
            var = self._flat(info.name)
            copy_in = not on_device and (info.read or not info.dense_write)
            copy_out = not on_device and info.written
            chunked = streams > 1 and info.chunkable and not on_device
            if streams > 1 and not info.chunkable and not on_device:
                self.notes.append(
                    f"streamCount: '{info.name}' moves whole before and after the chunks: "
                    f"it is not indexed by '{self.outer.var}' alone"
                )
            transferred = copy_in or copy_out
            sent = (
                self.send.arrays.index(info.name)
                if self.send and info.name in self.send.arrays and transferred
                else None
            )
            received = (
                self.receive.arrays.index(info.name) if self.receive and info.name in self.receive.arrays else None
            )
            deferred = sent is not None and copy_out and not chunked and info.name in self.send.deferred
            elem = canonical_type(info.element)
            dims = "".join(f"[{d}]" for d in var.dims[1:])
            # An array passed whole to a function of the file keeps the constness it is declared
            # with: the function only reads it (frontend/helpers.py) but may not say so (float *pt).
            const = "" if info.written or (self._passed_whole(info.name) and not var.const) else "const "
            restrict = "" if on_device else "__restrict__ "
            strided = self._runtime_extents(var.dims[1:])
            host_name = f"orcu_{info.name}_flat" if strided else info.name
            kernel_param, host_param, device_type, device_decl, view = self._declarations(
                info.name, var, elem, const, restrict, strided
            )
            device = host_name if on_device else self.fresh("d_" + info.name)
            plans.append(
                ArrayPlan(
                    name=info.name,
                    element=elem,
                    device=device,
                    first=printer.widened_text(info.first),
                    end=printer.widened_text(extent),
                    copy_in=copy_in,
                    copy_out=copy_out,
                    chunked=chunked,
                    pinned=v["pinHostMem"] and not chunked and transferred,
                    written=info.written,
                    dense=info.dense_write,
                    shared=self.fresh(info.name + "_shared") if info.name in staged else None,
                    extent=extent,
                    kernel_param=kernel_param,
                    host_param=host_param,
                    device_type=device_type,
                    device_decl=device_decl.format(device),
                    flat=f"(({const}{elem} *){info.name})" if dims and not strided else host_name,
                    device_flat=f"(({elem} *){device})" if dims and not strided else device,
                    buffer=self.buffer() if transferred else None,
                    staging=self.buffer() if chunked else None,
                    sent=sent,
                    deferred=deferred,
                    received=received,
                    view=view,
                    host_name=host_name,
                    cast=f"({const}{elem} *)" if strided else "",
                )
            )
        if v["pinHostMem"] and on_device:
            self.notes.append("pinHostMem: no effect with dataOnDevice (nothing is transferred)")
        if v["pinHostMem"] and streams > 1 and plans and all(a.chunked or not a.transferred for a in plans):
            self.notes.append("pinHostMem: no effect, every array moves through the streams' pinned staging buffers")
        return plans

    def _flat(self, name: str):
        """The array's C type, which must be flat: rows of pointers are not moved."""
        var = self.nest.variables[name].ctype
        if var.pointers > 1 or (var.pointers and var.dims):
            raise self._error(
                name,
                f"'{name}' is an array of row pointers ({var}); orcu moves flat "
                f"arrays only: pass the rows as one block, a C99 array "
                f"({var.base} {name}[rows][cols]) or a flat pointer "
                f"({var.base} *{name}, indexed {name}[i*cols + j])",
            )
        return var

    def _passed_whole(self, name: str) -> bool:
        """Whether the loop passes the array whole to a function (``f(a)``, not ``f(a[i])``)."""
        return any(
            acc.array == name and not acc.subscripts for st, _ in statements(self.nest.body) for acc in st.accesses
        )

    def _declarations(
        self, name: str, var, elem: str, const: str, restrict: str, strided: bool
    ) -> tuple[str, str, str, str, str | None]:
        """How the kernel and the host function take the array, the device copy's type and
        declaration, and the kernel's strided view of a C99 array of run-time extents."""
        dims = "".join(f"[{d}]" for d in var.dims[1:])
        if strided:
            self.needs.add("strided")
            host_name = f"orcu_{name}_flat"
            extents = ", ".join(f"(long long)({d})" for d in var.dims[1:])
            view = f"const orcu_strided<{const}{elem}, {len(var.dims) - 1}> {name} = {{{host_name}, {{{extents}}}}};"
            return (
                f"{const}{elem} *{restrict}{host_name}",
                f"{const}{elem} *{host_name}",
                f"{elem} *",
                f"{elem} *const {{}}",
                view,
            )
        if dims:
            return (
                f"{const}{elem} (*{restrict}{name}){dims}",
                f"{const}{elem} (*{name}){dims}",
                f"{elem} (*){dims}",
                f"{elem} (*const {{}}){dims}",
                None,
            )
        return f"{const}{elem} *{restrict}{name}", f"{const}{elem} *{name}", f"{elem} *", f"{elem} *const {{}}", None

    def _runtime_extents(self, dims: tuple[str, ...]) -> bool:
        """Whether these extents name a variable (a parameter, a local), not only numbers and macros."""
        for name in {n for d in dims for n in IDENTIFIER.findall(d)}:
            var = self.nest.variables.get(name) or self.nest.outside.get(name)
            if var is None or var.origin != "macro":
                return True
        return False

    def _extent(self, info: ArrayInfo) -> str:
        if info.extent is None:
            raise self._error(
                info.name,
                f"cannot tell how many elements of '{info.name}' to transfer: its subscripts are not affine "
                f"in the loop bounds; declare it in input_vars or give arraySizes={{'{info.name}': ...}}",
            )
        if info.extent_source == "runtime" and self.v["dataOnDevice"]:
            raise self._error(
                info.name,
                f"dataOnDevice: how far the loops reach into '{info.name}' is read from arrays on the device, which "
                f"the host cannot scan; give arraySizes={{'{info.name}': ...}}",
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
            self.notes.append(
                "cacheBlocks: skipped, no data is reused across the threads of a block (" + "; ".join(reasons) + ")"
            )
        return staged

    def _error(self, array: str, message: str) -> AnalysisError:
        acc = next(
            (a for st, _ in statements(self.outer.body) for a in st.accesses if a.array == array),
            None,
        )
        return self.src.error_at(acc.loc if acc is not None else self.nest.loc, message, AnalysisError)
