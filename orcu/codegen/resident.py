"""Arrays a Loop region keeps on the device for all of its loops.

A region whose transformed loops run more than once per run of the region (several loops one
after another, or loops inside a host loop of time steps) would move its arrays to the device
and back around every kernel. Instead the tuned file copies each array the loops use to the
device once before the region's host code, calls the loops' host functions with the device
copies (as with dataOnDevice), and copies back once after it the arrays a loop writes. That is
sound where the host code between the kernels leaves the arrays alone, and where how far the
loops reach into each array is known before the host code runs.
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Any, Mapping

from ..analysis.nest import analyze
from ..frontend.cparse import parse_expression
from ..frontend.types import used_names
from ..program import Program
from ..tsg.schedule import Schedule
from ..frontend.types import canonical_type
from .region import RegionCode, transform_values


@dataclass(frozen=True)
class ResidentArray:
    name: str
    element: str
    end: str  # C expression: one past the last element any loop touches
    written: bool


@dataclass(frozen=True)
class Resident:
    arrays: tuple[ResidentArray, ...]

    def call(self, code: RegionCode, call: str) -> str:
        """``call`` of a loop's host function (generated on_device) with the device copies."""
        kept = {a.name for a in self.arrays} & set(code.arrays)
        args = [_resident_arg(a, kept) for a in code.args]
        return f"{call[: call.index('(')]}({', '.join(args)});"

    def wrap(self, host_code: str) -> str:
        names = ", ".join(a.name for a in self.arrays)
        lines = [f"{{   // {names} stay on the device while the region's loops run: copied in once, back once"]
        for a in self.arrays:
            lines.append(f"    const long long orcu_{a.name}_count = {a.end};")
            lines.append(f"    void *const orcu_resident_{a.name} = orcu_resident_in({a.name}, orcu_{a.name}_count, "
                         f"sizeof({a.element}));")
        lines += ["    " + line for line in host_code.splitlines()]
        for a in self.arrays:
            # (void *): a const array is only freed (a written one cannot be const)
            lines.append(f"    orcu_resident_out((void *){a.name}, orcu_resident_{a.name}, orcu_{a.name}_count, sizeof({a.element}), "
                         f"{'true' if a.written else 'false'});")
        lines.append("}")
        return "\n".join(lines)


def _resident_arg(arg: str, kept: set[str]) -> str:
    """A call's argument with a kept array's device copy in place of the array: ``x``, or the
    cast of a C99 array parameter the host function takes flat (``(double *)A``)."""
    m = re.fullmatch(r"(\([^()]*\*\))?(\w+)", arg)
    if m is None or m.group(2) not in kept:
        return arg
    name = m.group(2)
    return f"{m.group(1) or f'(decltype(&{name}[0]))'}orcu_resident_{name}"


def resident(program: Program, r: int, choices: Mapping[int, tuple[Mapping[str, Any], Mapping[str, Any]]]) -> Resident | str | None:
    """What region ``r`` keeps on the device, given each of its loops' (params, inputs); None
    where its loops run once (nothing to keep); else why each loop moves its own arrays."""
    host = program.hosts[r]
    if not host.repeated:
        return None
    if program.fragment:
        return "a fragment's statements are C: they cannot hold the device copies"
    if host.touches_arrays:
        return "the region's host statements touch its arrays"
    found: dict[str, dict[str, Any]] = {}
    for k in host.nests:
        nest = program.nests[k]
        params, inputs = choices[k]
        values = transform_values(program, nest, params, inputs)
        sizes = {name: str(v) for name, v in values["arraySizes"].items()}
        analysis = analyze(program.src, nest, program.spec, sizes, mapped=Schedule.parse(values["mapping"]) is not None)
        for info in analysis.arrays:
            if not (info.read or info.written):
                continue
            if info.extent is None:
                return f"how far the loops reach into '{info.name}' is not known"
            parsed = parse_expression(info.extent)
            if parsed is None or set(used_names([parsed])) & host.changed:
                return f"how far the loops reach into '{info.name}' changes as the region's host code runs"
            entry = found.setdefault(info.name, {"element": canonical_type(info.element), "ends": [], "written": False})
            if info.extent not in entry["ends"]:
                entry["ends"].append(info.extent)
            entry["written"] |= info.written
    return Resident(tuple(ResidentArray(name, e["element"], _largest(e["ends"]), e["written"]) for name, e in found.items()))


def _largest(ends: list[str]) -> str:
    out = f"(long long)({ends[0]})"
    for end in ends[1:]:
        out = f"({out} > (long long)({end}) ? {out} : (long long)({end}))"
    return out
