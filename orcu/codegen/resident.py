"""Arrays a Loop region keeps on the device for all of its loops.

A region whose transformed loops run more than once per run of the region (several loops one
after another, or loops inside a host loop of time steps) would move its arrays to the device
and back around every kernel. Instead the tuned file copies each array the loops use to the
device once before the region's host code, calls the loops' host functions with the device
copies (as with dataOnDevice), and copies back once after it the arrays a loop writes. That is
sound where the host code between the kernels leaves the arrays alone, or only swaps them
(double buffering: ``temp = a; a = b; b = temp;``, which the device copies then follow), and
where how far the loops reach into each array is known before the host code runs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from orcu.analysis.affine import loop_bounds, poly_of, value_range
from orcu.analysis.nest import analyze
from orcu.codegen.region import RegionCode, transform_values
from orcu.frontend.cparse import parse_expression
from orcu.frontend.host import MARKER, Sync
from orcu.frontend.liveness import copy_groups
from orcu.frontend.types import canonical_type, used_names
from orcu.planning.program import Program
from orcu.spec.schedule import Schedule


@dataclass(frozen=True)
class ResidentArray:
    name: str
    element: str
    end: str  # C expression: one past the last element any loop touches
    written: bool


@dataclass(frozen=True)
class Resident:
    arrays: tuple[ResidentArray, ...]
    # The host code's pointer copies among them (double buffering), which the device copies
    # follow, and the pointers it copies through that no loop uses (temp in a swap).
    swaps: tuple[tuple[str, str], ...] = ()
    temps: tuple[str, ...] = ()
    # What the host statements between the kernels move (frontend/host_syncs.py), by marker.
    syncs: Mapping[int, Sync] = dataclasses.field(default_factory=dict)

    def call(self, code: RegionCode, call: str) -> str:
        """``call`` of a loop's host function (generated on_device) with the device copies."""
        kept = {a.name for a in self.arrays} & set(code.arrays)
        # a kept array's device copy in its place, cast as the host function takes it (a C99 array
        # parameter flat: its cast; else the array's own pointer type)
        args = [
            f"{passed[1] or f'(decltype(&{passed[0]}[0]))'}{_device(passed[0])}"
            if passed is not None and passed[0] in kept
            else arg
            for arg, passed in zip(code.args, code.passes)
        ]
        return f"{call[: call.index('(')]}({', '.join(args)});"

    def wrap(self, host_code: str) -> str:
        names = ", ".join(a.name for a in self.arrays)
        lines = [f"{{   // {names} stay on the device while the region's loops run: copied in once, back once"]
        if self.syncs:
            lines.append("    // (the host statements between the loops copy what they touch there and back)")
        synced = {t.array for sync in self.syncs.values() for t in sync.touches}
        for a in self.arrays:
            lines.append(f"    const long long orcu_{a.name}_count = {a.end};")
            if a.name in synced:
                lines.append(
                    f"    const long long orcu_{a.name}_bytes = orcu_{a.name}_count * (long long)sizeof({a.element});"
                )
            swapped = any(a.name in pair for pair in self.swaps)  # then it follows the host code's copies
            lines.append(
                f"    void *{'' if swapped else 'const '}{_device(a.name)} = orcu_resident_in({a.name}, "
                f"orcu_{a.name}_count, sizeof({a.element}));"
            )
        lines += [f"    void *{_device(t)} = nullptr;" for t in self.temps]
        for line in host_code.splitlines():
            marker = MARKER.fullmatch(line.strip())
            if marker is not None:
                pad = line[: len(line) - len(line.lstrip())]
                lines += [f"    {pad}{copy}" for copy in self._copies(self.syncs[int(marker.group(1))])]
                continue
            lines.append("    " + line if line else "")
            copy = _COPY.fullmatch(line.strip())
            if copy is not None and (copy.group(1), copy.group(2)) in self.swaps:  # the device copies swap alike
                pad = line[: len(line) - len(line.lstrip())]
                lines.append(f"    {pad}{_device(copy.group(1))} = {_device(copy.group(2))};")
        for a in self.arrays:
            # (void *): a const array is only freed (a written one cannot be const)
            lines.append(
                f"    orcu_resident_out((void *){a.name}, {_device(a.name)}, orcu_{a.name}_count, sizeof({a.element}), "
                f"{'true' if a.written else 'false'});"
            )
        lines.append("}")
        return "\n".join(lines)

    def _copies(self, sync: Sync) -> list[str]:
        """A host statement's copies: before it, the elements it reads that a kernel may have
        written; after it, those it wrote (the device's copy is what later kernels read, and what
        comes back at the end)."""
        kept = {a.name: a for a in self.arrays}
        out = []
        for t in sync.touches:
            a = kept.get(t.array)
            if a is None or not (sync.to_device or a.written):
                continue
            whole = f"orcu_{a.name}_bytes"
            first, size = (f"&({t.element})", f"sizeof({t.element})") if t.element else (a.name, whole)
            direction = "true" if sync.to_device else "false"
            what = f"'{t.element}'" if t.element else f"all of '{a.name}'"
            where = (
                "to the device: later kernels read it there" if sync.to_device else "back: a kernel may have written it"
            )
            out.append(
                f"orcu_resident_sync({_device(a.name)}, {a.name}, {first}, {size}, {whole}, {direction});"
                f"  // {what} {where}"
            )
        return out


def _device(array: str) -> str:
    """The name of an array's device copy: apart from orcu_resident_in/out/sync, whatever the
    arrays are called (``in`` and ``out`` are common)."""
    return f"orcu_on_device_{array}"


_COPY = re.compile(r"(?:[\w ]+\*\s*)?(\w+) = (\w+);")  # a pointer copy as the host code prints it


def resident(
    program: Program, r: int, choices: Mapping[int, tuple[Mapping[str, Any], Mapping[str, Any]]]
) -> Resident | str | None:
    """What region ``r`` keeps on the device, given each of its loops' (params, inputs); None
    where its loops run once (nothing to keep); else why each loop moves its own arrays."""
    program = program.of_nest(program.hosts[r].nests[0])
    host = program.hosts[r]
    if not host.repeated:
        return None
    if program.fragment:
        return "a fragment's statements are C: they cannot hold the device copies"
    if isinstance(host.syncs, str):
        return host.syncs
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
            if nest.variables[info.name].origin == "region":
                return f"'{info.name}' is declared in the region: it exists only once its declaration has run"
            if info.extent is None:
                return f"how far the loops reach into '{info.name}' is not known"
            if info.extent_source == "runtime":
                return (
                    f"how far the loops reach into '{info.name}' depends on the values of the arrays their bounds read"
                )
            parsed = parse_expression(info.extent)
            end = info.extent
            if parsed is None or set(used_names([parsed])) & host.changed:
                end = _furthest(parsed, nest.context, host.changed)
                if end is None:
                    return f"how far the loops reach into '{info.name}' changes as the region's host code runs"
            entry = found.setdefault(info.name, {"element": canonical_type(info.element), "ends": [], "written": False})
            if end not in entry["ends"]:
                entry["ends"].append(end)
            entry["written"] |= info.written
    arrays = {name: ResidentArray(name, e["element"], _largest(e["ends"]), e["written"]) for name, e in found.items()}
    extents = {name: frozenset(_normal(end) for end in e["ends"]) for name, e in found.items()}
    kept = _swapped(arrays, extents, host.swaps or ())
    return dataclasses.replace(kept, syncs=host.syncs) if isinstance(kept, Resident) else kept


def _furthest(extent, context, changed) -> str | None:
    """The largest an extent gets as the host loops around the kernel run (pathfinder's
    ``(t + 1)*cols + cols`` with t below rows - 1: ``rows*cols``), where that no longer changes
    as the host code runs; else None."""
    poly = poly_of(extent) if extent is not None else None
    bounds = loop_bounds(context)
    span = value_range(poly, bounds) if poly is not None and bounds is not None else None
    return None if span is None or span[1].names & changed else span[1].c_expr()


def _normal(end: str):
    """An extent as a polynomial where it is one (nx*ny and ny*nx alike), else its text."""
    parsed = parse_expression(end)
    poly = poly_of(parsed) if parsed is not None else None
    return poly if poly is not None else end


def _swapped(
    arrays: dict[str, ResidentArray], extents: Mapping[str, frozenset], swaps: tuple[tuple[str, str], ...]
) -> Resident | str:
    """The arrays kept, where the host code swaps some of them: each swapped pair of one type and
    extent (a host buffer gets back as many elements as it gave), written back if either is."""
    group = copy_groups(swaps, {name for pair in swaps for name in pair})
    temps = sorted(name for name in group if name not in arrays)
    for members in {id(g): g for g in group.values()}.values():
        kept = [arrays[n] for n in sorted(members) if n in arrays]
        if not kept:
            return f"the host code copies '{sorted(members)[0]}', which no loop uses, among the arrays"
        if len({(a.element, extents[a.name]) for a in kept}) > 1:
            return f"the host code swaps {', '.join(repr(a.name) for a in kept)}, which differ in type or extent"
        written = any(a.written for a in kept)
        arrays.update({a.name: dataclasses.replace(a, written=written) for a in kept})
    return Resident(tuple(arrays.values()), swaps, tuple(temps))


def _largest(ends: list[str]) -> str:
    out = f"(long long)({ends[0]})"
    for end in ends[1:]:
        out = f"({out} > (long long)({end}) ? {out} : (long long)({end}))"
    return out
