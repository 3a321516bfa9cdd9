"""The tuned source: the user's file with each Loop region calling its GPU version.

Kernels and host functions go before the function that holds the region; the region's
original loop stays under ``#ifdef ORCU_ORIGINAL``; the annotations stay unless
``strip``. The file is written atomically to a new path: the input is never touched.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orcu.codegen.region import RegionCode, generate, links, prelude
from orcu.codegen.resident import Resident, resident
from orcu.codegen.templates import render
from orcu.errors import AnnotationError, UsageError
from orcu.execution.result import MEASURE_NAMES
from orcu.files import replace_atomically
from orcu.frontend import generated
from orcu.frontend.ctext import blank_comments
from orcu.frontend.types import cxx_spellings
from orcu.planning.program import Program
from orcu.planning.space import settings_text
from orcu.version import __version__

MIXED_FRAGMENT = (
    "a Loop region outside a function cannot become a call in a file whose other Loop regions are in "
    "functions: put it in a function (a file whose Loop regions all stand outside functions is a fragment, "
    "tuned into a fragment and a .cu)"
)


@dataclass(frozen=True)
class Choice:
    """The configuration written for one region, and how it was found."""

    params: Mapping[str, Any]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    time_ms: float | None = None
    measure: str = "kernel"  # what time_ms is: the kernels' time, the host function's whole time, or the model's
    objective: str = (
        ""  # what chose it where not that time: "max:gflop_s = 812.3" (orcu/driver/tuning.py objective_text)
    )


@dataclass(frozen=True)
class Provenance:
    device: str = "none (not measured)"
    compiler: str = "not compiled by orcu"
    date: str = field(default_factory=lambda: datetime.date.today().isoformat())
    unchecked: bool = False  # a variant was only predicted, never run against the original code (--unchecked)


def tuned_source(
    program: Program,
    choices: Sequence[Choice | list[Choice]],
    strip: bool = False,
    provenance: Provenance | None = None,
    output: str | Path | None = None,
) -> tuple[str, list[RegionCode]]:
    """The tuned file's text and the generated code of each region.

    ``choices`` has one entry per region, in order: a Choice, or one Choice per tuned input
    size; different configurations for different sizes give a size dispatch. ``output``: where
    the text goes; its comments name the source relative to it, so the text does not depend
    on the directory orcu ran in.
    """
    src, provenance = program.src, provenance or Provenance()
    source = os.path.relpath(src.path, Path(output).resolve().parent) if output is not None else src.path
    options = [c if isinstance(c, list) else [c] for c in choices]
    texts, calls, codes, kept = _regions(program, options, source)
    header = _header(program, options, codes, strip, provenance, source)
    if program.fragment:  # the generated code alone: fragment_source writes the statements that call it
        return "\n".join(
            [
                header + generated.BEGIN,
                f"#ifndef {generated.ORIGINAL}",
                prelude(codes),
                *texts,
                f"#endif  // {generated.ORIGINAL}",
                generated.END,
                "",
            ]
        ), codes
    edits: list[tuple[int, int, str]] = [(a, b, "") for a, b in generated.spans(src.text)]
    edits.append((0, 0, header))

    blanked = blank_comments(generated.blank_spans(src.text))
    first_block = True
    for function, offset in sorted(program.functions.items(), key=lambda kv: kv[1]):
        parts = [t for nest, t in zip(program.nests, texts) if nest.function == function]
        if first_block:
            parts.insert(0, prelude(codes) + "".join(_helper_prototype(h) for h in program.helpers))
            first_block = False
        # -DORCU_ORIGINAL builds the original C loops alone: no CUDA needed then.
        block = "\n".join(
            [
                generated.BEGIN,
                f"#ifndef {generated.ORIGINAL}",
                *parts,
                f"#endif  // {generated.ORIGINAL}",
                generated.END,
                "",
            ]
        )
        point = _insertion_point(src.text, blanked, offset)
        edits.append((point, point, block))
    on_gpu = {h.prototype for h in program.helpers}
    for (
        offset,
        prototype,
        written,
    ) in program.exported:  # C callers link against the tuned file (the .tuned.h declares them)
        point = _insertion_point(src.text, blanked, offset)
        hd = "ORCU_HD " if written in on_gpu else ""
        edits.append(
            (
                point,
                point,
                f'{generated.BEGIN}\n#ifdef __cplusplus\nextern "C" {hd}{prototype};  // C linkage: C code '
                f"calls it\n#endif\n{generated.END}\n",
            )
        )
    edits += _region_edits(program, calls, kept, strip)
    edits += _spec_edits(program, strip)
    edits += program.cxx
    edits += [(at, at, "ORCU_HD ") for h in program.helpers for at in h.starts]  # the kernels call them
    return _apply(src.text, edits), codes


def _helper_prototype(helper) -> str:
    """The declaration of a function of the file the kernels call, before the kernels (its
    definition may come later); unused where the host compiler sees no kernel."""
    linkage = 'extern "C" ' if helper.exported else ""
    return f"{linkage}[[maybe_unused]] ORCU_HD {helper.prototype};  // called by the kernels\n"


def c_header_path(output: str | Path) -> str:
    """Where the C header of the tuned file ``output`` goes: FILE.tuned.cu -> FILE.tuned.h."""
    path = Path(output)
    return str(path.with_suffix(".h") if path.suffix == ".cu" else Path(str(path) + ".h"))


def c_header(program: Program, cu_name: str) -> str:
    """The header that declares the tuned file's functions for C and C++ callers."""
    guard = "ORCU_" + re.sub(r"\W", "_", Path(cu_name).stem).upper() + "_H"
    return render(
        "c_header.h.j2",
        version=__version__,
        source=Path(program.src.path).name,
        cu=cu_name,
        guard=guard,
        prototypes=[(cxx, c) for _, cxx, c in program.exported],
        spellings=cxx_spellings(program.src.text),
    )


def _macro_sizes(program: Program) -> dict[str, tuple]:
    """Input parameters the code uses as macros (Orio's style: N is defined by the build): the
    values each was tuned for, by its region's spec."""
    if program.fragment:  # a fragment's host functions take them as parameters from the caller
        return {}
    sizes: dict[str, tuple] = {}
    code = blank_comments(program.src.text)  # the C code as the build compiles it: annotations are comments
    # names the C code declares (a parameter n beside the input parameter n) are no macros
    declared = {
        name
        for nest in program.nests
        for name, v in {**nest.outside, **nest.variables}.items()
        if v.origin in ("parameter", "local", "global", "region")
    }
    for host in program.hosts:
        spec = program.of_nest(host.nests[0]).spec
        used = {name for name, v in host.variables.items() if v.origin == "input_params"}
        # and the C code around the regions (Orio's `int n_ = N;` before the PerfTuning region)
        used |= {
            p.name for p in spec.input_params if p.name not in declared and re.search(rf"\b{re.escape(p.name)}\b", code)
        }
        sizes.update((p.name, p.values) for p in spec.input_params if p.name in used)
    return sizes


def _size_macros(program: Program) -> list[tuple[str, str]]:
    """Each size macro with the values it was tuned for, as the tuned file's header says them."""
    return [(name, " or ".join(map(str, values))) for name, values in _macro_sizes(program).items()]


def size_defines(program: Program) -> list[dict[str, str]]:
    """The -D of builds of the tuned file, for the sizes the code uses as macros: each value each
    was tuned for in one of them (one build, with no -D, where the code uses none)."""
    sizes = _macro_sizes(program)
    count = max((len(values) for values in sizes.values()), default=1)
    return [{name: str(values[min(k, len(values) - 1)]) for name, values in sizes.items()} for k in range(count)]


def fragment_source(
    program: Program,
    choices: Sequence[Choice | list[Choice]],
    cu_path: str | Path,
    strip: bool = False,
    provenance: Provenance | None = None,
) -> str:
    """The tuned fragment of a fragment file (Program.fragment): its statements, each Loop
    region calling its host function, declared where it is called, which the .cu at
    ``cu_path`` defines (tuned_source writes it)."""
    src, provenance = program.src, provenance or Provenance()
    options = [c if isinstance(c, list) else [c] for c in choices]
    _, calls, _, kept = _regions(program, options, os.path.relpath(src.path, Path(cu_path).resolve().parent))
    note = render(
        "fragment.c.j2",
        begin=generated.BEGIN,
        end=generated.END,
        original=generated.ORIGINAL,
        version=__version__,
        date=provenance.date,
        cu=Path(cu_path).name,
    )
    edits: list[tuple[int, int, str]] = [(a, b, "") for a, b in generated.spans(src.text)]
    edits.append((0, 0, note))
    edits += _region_edits(program, calls, kept, strip)
    edits += _spec_edits(program, strip)
    return _apply(src.text, edits)


def _spec_edits(program: Program, strip: bool) -> list[tuple[int, int, str]]:
    """``strip``: the PerfTuning annotation goes (its lines too where it stands alone)."""
    src = program.src
    if not strip:
        return []
    return [
        (*(_comment_lines(src.text, a, b) or (a, b)), "")
        for perf in program.spec_regions
        for a, b in ((perf.start, perf.code_start), (perf.code_end, perf.end))
    ]


def fragment_path(output: str | Path) -> str:
    """Where the tuned fragment goes beside the .cu ``output``: the same name ending in .c."""
    path = Path(output)
    return str(path.with_suffix(".c") if path.suffix == ".cu" else Path(str(path) + ".c"))


def _regions(program: Program, options, source: str):
    """(each nest's generated code, the statement that calls it, every RegionCode, what each
    region keeps on the device (codegen/resident.py))."""
    texts, calls, codes, kept = [], [], [], []
    for r in range(len(program.hosts)):
        pieces, resident_arrays = _region_pieces(program, r, options, source)
        for text, call, made in pieces:
            texts.append(text)
            calls.append(call)
            codes += made
        kept.append(resident_arrays)
    return texts, calls, codes, kept


def _region_pieces(program: Program, r: int, options, source: str):
    """([(generated code, call, RegionCodes) of each loop of region ``r``], what the region keeps
    on the device); ``options[k]``: loop k's choices, one per input size. In a fragment the call
    declares the host function first, and the host functions have C linkage: another file
    calls them."""
    program = program.of_nest(program.hosts[r].nests[0])
    host = program.hosts[r]
    resident_arrays = resident(program, r, {k: (options[k][0].params, options[k][0].inputs) for k in host.nests})
    on_device = isinstance(resident_arrays, Resident)
    pieces = []
    for k in host.nests:
        text, call, made, declaration = _region(
            program, k, options[k], source, 'extern "C"' if program.fragment else "static", on_device
        )
        if isinstance(resident_arrays, Resident):
            call = resident_arrays.call(made[0], call)
            made[0].needs.update(("resident", "resident_sync") if resident_arrays.syncs else ("resident",))
        pieces.append((text, f"{{ extern void {declaration}; {call} }}" if program.fragment else call, made))
    return pieces, resident_arrays


def _region_edits(program: Program, calls: list[str], kept: list, strip: bool) -> list[tuple[int, int, str]]:
    """Each region's code replaced by its host code calling its loops' generated code (the
    original kept under ORCU_ORIGINAL)."""
    src = program.src
    edits = []
    for region, host, resident_arrays in zip(program.regions, program.hosts, kept):
        if program.nests[host.nests[0]].function is None and not program.fragment:
            raise src.error(region.start, MIXED_FRAGMENT, AnnotationError)
        original = region.code(src)
        found = generated.original_code(original)
        if found is not None:  # a tuned file: the kept loop, and the indentation of its end marker
            original = found[1] + original[original.rindex("\n") + 1 :]
        elif not original.strip():
            original = "\n" + host.reference.strip("\n") + "\n"
        start, end = region.code_start, region.code_end
        lead = trail = True
        if strip:  # the annotation comments go; so do their lines when they stand alone
            begin, finish = _comment_lines(src.text, region.start, start), _comment_lines(src.text, end, region.end)
            lead, trail = begin is None, finish is None
            start, end = begin[0] if begin else region.start, finish[1] if finish else region.end
        replacement = _host_code(program, host, calls, resident_arrays)
        idle = _idle_locals(program, host, original, replacement)
        if idle:  # else nvcc and gcc -Wall warn that they are declared and never used
            replacement += (
                "\n"
                + " ".join(f"(void){name};" for name in idle)
                + f"  // only the original loops above use {'it' if len(idle) == 1 else 'them'}"
            )
        edits.append((start, end, generated.region_code(original, replacement, lead, trail)))
    return edits


def _idle_locals(program: Program, host, original: str, replacement: str) -> list[str]:
    """The enclosing function's locals (the loops' iterators, say) that the region's original
    code names and its replacement does not (an iterator declared nowhere, as Orio's inputs
    leave them, has no declaration to mark)."""
    names = {
        name
        for k in host.nests
        for name, var in program.nests[k].variables.items()
        if var.origin == "local" and var.loc is not None
    }
    mentioned = set(re.findall(r"[A-Za-z_]\w*", blank_comments(original)))
    kept = set(re.findall(r"[A-Za-z_]\w*", replacement))
    return sorted(names & mentioned - kept)


def _host_code(program: Program, host, calls, resident_arrays) -> str:
    """A region's new code: its host code calling its loops' generated code."""
    where = {
        k: "the loop above" if len(host.nests) == 1 else f"the loop at line {program.nests[k].loc.line}"
        for k in host.nests
    }
    parts = {k: f"{calls[k]}  // {where[k]}, run on the GPU by orcu" for k in host.nests}
    code = host.code(parts, markers=isinstance(resident_arrays, Resident))
    if isinstance(resident_arrays, Resident):
        return resident_arrays.wrap(code)
    if isinstance(resident_arrays, str):
        return f"// Each loop moves its arrays to the device and back: {resident_arrays}.\n{code}"
    return code


def composed_region(program: Program, r: int, choices: Mapping[int, Choice]) -> tuple[str, list[RegionCode]]:
    """Region ``r`` as the tuned file runs it, each loop at its chosen configuration: its new
    code and the generated code it calls (for the harness to check the loops together)."""
    program = program.of_nest(program.hosts[r].nests[0])
    host = program.hosts[r]
    pieces, kept = _region_pieces(program, r, {k: [choices[k]] for k in host.nests}, program.src.path)
    calls = dict(zip(host.nests, (call for _, call, _ in pieces)))
    return _host_code(program, host, calls, kept), [code for _, _, made in pieces for code in made]


def _region(
    program: Program, index: int, options: list[Choice], source: str, linkage: str, on_device: bool = False
) -> tuple[str, str, list[RegionCode], str]:
    """(code to insert, call, generated pieces, the host function's declaration) of region
    ``index``: one configuration, or one per input size behind a dispatch on the sizes the host
    function can see (Orio's selector). Every region runs on the GPU here, so consecutive
    regions may share arrays on the device."""
    program = program.of_nest(index)
    nest = program.nests[index]
    receive, send = links(program, index)
    table = ""
    if send is not None:
        table = (
            f"// Arrays orcu_{nest.name} leaves on the device for orcu_{program.nests[index + 1].name}, which runs next "
            f"({', '.join(send.arrays)}).\nstatic orcu_handoff {send.table}[{len(send.arrays)}];\n\n"
        )
    distinct: list[Choice] = []
    for c in options:
        if not any(dict(d.params) == dict(c.params) for d in distinct):
            distinct.append(c)
    if len(distinct) == 1:
        code = generate(
            program,
            nest,
            distinct[0].params,
            distinct[0].inputs,
            receive=receive,
            send=send,
            source=source,
            linkage=linkage,
            on_device=on_device,
        )
        return table + code.text, code.call, [code], _prototype(code.host, code)
    variants = [
        generate(
            program,
            nest,
            c.params,
            c.inputs,
            suffix=f"_v{k + 1}",
            receive=receive,
            send=send,
            source=source,
            on_device=on_device,
        )
        for k, c in enumerate(distinct)
    ]
    visible = [name for name in program.spec.input_names if name in variants[0].params]
    cases: list[Any] = []
    for c in options:
        k = next(j for j, d in enumerate(distinct) if dict(d.params) == dict(c.params))
        sizes = {name: c.inputs[name] for name in visible if name in c.inputs}
        condition = " && ".join(f"{name} == {value!r}" for name, value in sizes.items())
        distance = " + ".join(
            f"fabs(((double){name} - {value!r}) / {max(abs(value), 1)!r})" for name, value in sizes.items()
        )
        if condition and all(condition != case["condition"] for case in cases):
            cases.append({"condition": condition, "distance": distance, "variant": variants[k].host})
    if not cases:  # the sizes are not visible in the host function: the last size's configuration
        cases.append({"condition": "1", "distance": "0.0", "variant": variants[-1].host})
    variants[0].includes.add("math.h")
    base = f"orcu_{nest.name}"
    args = ", ".join(variants[0].params)
    dispatch = render(
        "dispatch.cu.j2",
        host=base,
        linkage=linkage,
        params=variants[0].host_params,
        args=args,
        cases=cases,
        where=f"{source}:{nest.loc.line}",
        release=f"orcu_release_{nest.name}",
        releases=[v.release for v in variants],
    )
    call = variants[0].call.replace(variants[0].host + "(", base + "(", 1)
    declaration = _prototype(base, variants[0])
    return table + "\n".join(v.text for v in variants) + "\n" + dispatch, call, variants, declaration


def _prototype(name: str, code: RegionCode) -> str:
    """``name(types...)`` of the host function, its parameters unnamed: where a fragment
    declares it, a parameter's name may be one of the caller's macros (N)."""
    types = [
        re.sub(rf"\b{re.escape(p)}\b", "", decl, count=1).strip() for decl, p in zip(code.host_params, code.params)
    ]
    return f"{name}({', '.join(types) or 'void'})"


def write_atomically(path: str | Path, text: str, source: str | Path) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename; never onto ``source``."""
    path = Path(path)
    if path.resolve() == Path(source).resolve() or (path.exists() and os.path.samefile(path, source)):
        raise UsageError(f"refusing to overwrite the input file {source}: choose another output path with -o")
    try:
        replace_atomically(path, text)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from None


def _header(
    program: Program, options: list[list[Choice]], codes, strip: bool, provenance: Provenance, source: str
) -> str:
    regions = []
    for k, (nest, opts) in enumerate(zip(program.nests, options)):
        used = region_parameters(program.of_nest(k), nest)
        if nest.recipe is not None and nest.recipe.min_blocks:  # the runner's, where ptxas spilled the tile
            used.append(nest.recipe.min_blocks)
        for choice in opts:
            regions.append(
                {
                    "name": f"orcu_{nest.name}",
                    "line": nest.loc.line,
                    "params": settings_text({k: choice.params[k] for k in used if k in choice.params}),
                    "inputs": settings_text(choice.inputs),
                    "time": "not measured"
                    if choice.time_ms is None
                    else f"{choice.time_ms:.4g} ms ({MEASURE_NAMES[choice.measure]}, which ranked the variants)"
                    if not choice.objective
                    else f"{choice.time_ms:.4g} ms ({MEASURE_NAMES[choice.measure]}); chosen by the objective {choice.objective}",
                }
            )
    return render(
        "header.cu.j2",
        begin=generated.BEGIN,
        end=generated.END,
        original=generated.ORIGINAL,
        version=__version__,
        date=provenance.date,
        source=source,
        regions=regions,
        device=provenance.device,
        compiler=provenance.compiler,
        strip=strip,
        unchecked=provenance.unchecked,
        helpers=bool(program.helpers) and not program.fragment,
        includes=sorted(set().union(*(c.includes for c in codes))),
        **program.c_meaning.template_args(),
        macros=_size_macros(program),
    )


def region_parameters(program: Program, nest) -> list[str]:
    """The performance parameters that change a region's code or build, in spec order."""
    names = {n for expr in nest.transform.args.values() for n in expr.names}
    command = program.spec.build_command or ""
    for p in program.spec.performance_params:
        if f"@{p.name}@" in command or (p.name == "CFLAGS" and "@CFLAGS" in command):
            names.add(p.name)
    return [p.name for p in program.spec.performance_params if p.name in names]


def _insertion_point(text: str, blanked: str, name_offset: int) -> int:
    """Start of the line where the declaration of the function named at ``name_offset`` begins,
    above the comment lines directly over it."""
    i = name_offset
    while True:
        j = i - 1
        while j >= 0 and blanked[j].isspace():
            j -= 1
        if j < 0 or not (blanked[j].isalnum() or blanked[j] in "_*"):
            break
        k = j
        while k >= 0 and (blanked[k].isalnum() or blanked[k] in "_*"):
            k -= 1
        line_start = blanked.rfind("\n", 0, k + 1) + 1
        if blanked[line_start:].lstrip().startswith("#"):
            break
        i = k + 1
    start = blanked.rfind("\n", 0, i) + 1
    unmarked = generated.blank_spans(text)
    while start > 0:  # keep the comment that documents the function next to it
        prev = blanked.rfind("\n", 0, start - 1) + 1
        if blanked[prev:start].strip() or not unmarked[prev:start].strip():
            break
        start = prev
    return start


def _comment_lines(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The whole lines of a comment spanning [start, end) when nothing else is on them."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:start].strip() or text[end:line_end].strip():
        return None
    return line_start, line_end


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        end = max(end, start)
        out.append(text[pos:start])
        out.append(replacement)
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)
