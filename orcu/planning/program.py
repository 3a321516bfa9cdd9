"""The front end's one entry point: an annotated C file -> a checked tuning problem."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pycparser import c_ast

from orcu.device import DEFAULT_PROFILE, Device, profile
from orcu.errors import AnalysisError, AnnotationError, OrcuError
from orcu.frontend import generated
from orcu.frontend.annotations import Region, scan_regions
from orcu.frontend.clib import CMeaning
from orcu.frontend.cparse import ambiguous_typedefs, copied, file_macros, local_headers, parse_file, parse_statements
from orcu.frontend.ctext import blank, blank_comments, brace_depth, matching_bracket
from orcu.frontend.cxx import cxx_edits, cxx_prototype, declared
from orcu.frontend.cxxnames import cxx_renames
from orcu.frontend.helpers import Helper, declarations, host_helpers, used_helpers
from orcu.frontend.host import (
    Host,
    following,
    in_host_loop,
    left_to_host,
    split,
    statement_text,
    targets,
)
from orcu.frontend.host_syncs import marked
from orcu.frontend.ir import LoopNest, Variable, c_text, loops_of, statements
from orcu.frontend.liveness import between, copy_groups, effects, named_elsewhere, offset_of, pointer_copies, read_after
from orcu.frontend.lower import Lowering, loc_of
from orcu.frontend.pointers import subscripted
from orcu.frontend.source import SourceFile
from orcu.frontend.structs import Struct, structs
from orcu.frontend.types import resolve_types, used_names, visible_variables
from orcu.planning.assumed import is_assumed
from orcu.planning.wavefronts import host_context, wavefronts
from orcu.spec.builder import SpecBuilder
from orcu.spec.expr import compile_expr
from orcu.spec.language import parse_perftuning
from orcu.spec.model import TuningSpec
from orcu.spec.transform import CudaTransform, find_transforms
from orcu.tsg.plan import plan
from orcu.tsg.scop import SCHEDULE_KEPT, schedule_scop

if TYPE_CHECKING:
    from orcu.planning.assumed import Assumed


@dataclass(frozen=True)
class Handoff:
    """Arrays a Loop region may leave on the device for the next one: the code between them
    runs straight through and writes no array (``arrays``); for ``deferred`` it does not read
    them either, so their copy back to the host can wait until the next region is done."""

    arrays: frozenset[str]
    deferred: frozenset[str]


@dataclass(frozen=True)
class Program:
    src: SourceFile
    spec: TuningSpec
    spec_region: Region | None
    regions: tuple[Region, ...]  # the Loop regions, in file order
    nests: tuple[LoopNest, ...]
    functions: Mapping[str, int]  # where the name of each function holding a Loop region is
    handoffs: tuple[Handoff | None, ...] = ()  # k: from nest k to nest k + 1
    hosts: tuple[Host, ...] = ()  # per region: what of it runs on the host, around its nests
    # The file's functions that other files may call (not static, not main): where each is
    # named, its prototype as C++ takes it and as written (they differ for C99 array
    # parameters, frontend/cxx.py). The tuned file gives them C linkage.
    exported: tuple[tuple[int, str, str], ...] = ()
    # Edits of the file's text that make its function signatures C++ (frontend/cxx.py): the
    # tuned file applies them, nvcc compiling it as C++.
    cxx: tuple[tuple[int, int, str], ...] = ()
    # The file's functions the kernels call (frontend/helpers.py), callees first.
    helpers: tuple[Helper, ...] = ()
    # The file's structs of scalar fields, by the name declarations use (frontend/structs.py).
    structs: Mapping[str, Struct] = field(default_factory=dict)
    # Several PerfTuning regions in a file: each one's spec and region, and per nest the one that
    # tunes it (``spec`` and ``spec_region`` are the first's; ``of_nest`` gives nest k's view).
    specs: tuple[TuningSpec, ...] = ()
    spec_regions: tuple[Region, ...] = ()
    groups: tuple[int, ...] = ()
    # The file's functions the PerfTuning regions' code calls on the host (the harness runs it).
    host_helpers: tuple[Helper, ...] = ()
    # Per PerfTuning region: what the declarations before it in its function set that its code
    # reads (``int *src = buffer;``), as assignments the harness runs first (_prologue).
    prologues: tuple[str, ...] = ()
    c_meaning: CMeaning = field(default_factory=lambda: CMeaning((), (), (), ()))  # clib.py: to keep C's meaning
    # What is computed once from the program and kept (space.performance_space's spaces).
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def of_nest(self, k: int) -> Program:
        """The program as nest k's PerfTuning region sees it: its spec and its region. The same
        program where one spec tunes every nest."""
        if len(self.specs) < 2 or self.spec is self.specs[self.groups[k]]:
            return self
        g = self.groups[k]
        views = self.memo.setdefault("views", {})
        if g not in views:
            views[g] = replace(self, spec=self.specs[g], spec_region=self.spec_regions[g])
        return views[g]

    @property
    def own_nests(self) -> list[int]:
        """The nests this program's spec tunes (nest k's view: those of k's PerfTuning region)."""
        if len(self.specs) < 2:
            return list(range(len(self.nests)))
        return [k for k in range(len(self.nests)) if self.specs[self.groups[k]] is self.spec]

    def nests_of(self, g: int) -> list[int]:
        """The nests the spec of PerfTuning region ``g`` tunes."""
        return [k for k in range(len(self.nests)) if not self.groups or self.groups[k] == g]

    @property
    def prologue(self) -> str:
        """The assignments the harness runs before this program's PerfTuning region's code."""
        if self.spec_region is None or not self.prologues:
            return ""
        return self.prologues[self.spec_regions.index(self.spec_region) if self.spec_regions else 0]

    def region_of(self, k: int) -> int:
        """The region that holds nest k."""
        return next(r for r, host in enumerate(self.hosts) if k in host.nests)

    @property
    def spec_kind(self) -> str | None:
        """Where the spec comes from: "PerfTuning", "yaml", "assumed" (spec/assumed.py), or None."""
        if self.spec_region is not None:
            return "PerfTuning"
        if is_assumed(self.spec):
            return "assumed"
        return "yaml" if self.spec.path != self.src.path else None

    @property
    def fragment(self) -> bool:
        """Every Loop region stands outside any function: statements at file scope, as in Orio's
        SPAPT inputs, meant to be pasted into a function of the user's."""
        return bool(self.nests) and all(n.function is None for n in self.nests)


def sidecar_spec(path: str | Path) -> Path | None:
    candidate = Path(str(path) + ".orcu.yaml")
    return candidate if candidate.is_file() else None


def load(
    path: str | Path, spec_path: str | Path | None = None, device: Device | None = None, assumed: Assumed | None = None
) -> Program:
    """``device``: the GPU tuned for, whose facts the spec may read (default: the default profile);
    ``assumed``: the spec of a file that has none (spec/assumed.py), with the transform
    arguments its parameters tune."""
    src = SourceFile.read(path)
    predefined = (device or profile(DEFAULT_PROFILE)).spec_names()
    top = scan_regions(src)
    perf = [r for r in top if r.name == "PerfTuning"]
    loops, owner = _loop_regions(src, top, perf)

    specs = _specs(src, path, spec_path, perf, assumed, predefined)

    # Each region's own code first (its errors are the most precise), then the file once.
    parsed = [_parse_region(src, specs[g], r) for r, g in zip(loops, owner)]
    context = _file_context(src, loops)
    found: list[LoopNest] = []
    hosts = []
    groups: list[int] = []  # per nest: its PerfTuning region
    for region, code, g in zip(loops, parsed, owner):
        made, host = _lower_region(src, specs[g], region, code, context, len(found), assumed.unset if assumed else {})
        found += made
        groups += [g] * len(made)
        hosts.append(host)
    nests = _plan(src, specs, found, groups, loops, hosts)
    spec = specs[0]
    functions = {
        f.decl.name: src.offset(f.decl.coord.line, f.decl.coord.column)
        for _, _, f in context[1]
        if any(n.function == f.decl.name for n in nests)
    }
    # Arrays stay on the device from one region to the next where each is one loop alone.
    handoffs: list[Handoff | None] = [None] * max(len(nests) - 1, 0)
    for g in range(len(loops) - 1):
        if hosts[g].trivial and hosts[g + 1].trivial:
            k = hosts[g].nests[0]
            handoffs[k] = _handoff(src, context[1], loops[g], loops[g + 1], nests[k], nests[k + 1])
    tree, spans, macros, catalogue = context
    cxx = cxx_edits(
        src.text, tree, lambda c: src.offset(c.line, c.column) if c and c.file == src.path else None, macros
    )
    blanked = blank_comments(generated.blank_spans(src.text))
    helpers = used_helpers(src, blanked, tree, spans, [loop for code in parsed for loop in code.loops], set(functions))
    on_host = host_helpers(
        src, blanked, tree, spans, [(r.code_start, r.code_end) for r in perf], {h.name for h in helpers}
    )
    prologues = tuple(_prologue(src, specs[g], r, spans) for g, r in enumerate(perf))
    return Program(
        src,
        spec,
        perf[0] if perf else None,
        tuple(loops),
        nests,
        functions,
        tuple(handoffs),
        tuple(hosts),
        _exported(src, tree, spans, macros),
        tuple(cxx),
        helpers,
        catalogue,
        tuple(specs),
        tuple(perf),
        tuple(groups),
        on_host,
        prologues,
        c_meaning=CMeaning.of(src, cxx_renames(src, tree, spans)),
    )


def _loop_regions(src: SourceFile, top: tuple[Region, ...], perf: list[Region]) -> tuple[list[Region], list[int]]:
    """The Loop regions, and per Loop region the PerfTuning region whose spec tunes it."""
    loops: list[Region] = []
    owner: list[int] = []  # per Loop region: the PerfTuning region whose spec tunes it
    for r in top:
        if r.name == "Loop":
            if len(perf) > 1:
                raise src.error(
                    r.start,
                    "a file with several PerfTuning regions needs each Loop region inside one: "
                    "which spec tunes this one?",
                    AnnotationError,
                )
            loops.append(r)
            owner.append(0)
        for child in r.children:
            if child.name == "PerfTuning":
                raise src.error(child.start, "a PerfTuning region must be at the top level", AnnotationError)
            loops.append(child)
            owner.append(perf.index(r) if r in perf else 0)
    for g, r in enumerate(perf):
        if g not in owner:
            raise src.error(r.start, "this PerfTuning region holds no Loop region: it tunes nothing", AnnotationError)
    for r in loops:
        if r.children:
            raise src.error(r.children[0].start, "Loop regions cannot be nested", AnnotationError)
    if not loops:
        raise src.error(
            0, "no Loop regions found (expected /*@ begin Loop(transform CUDA(...) ...) @*/)", AnnotationError
        )
    return loops, owner


def _specs(
    src: SourceFile, path, spec_path, perf: list[Region], assumed: Assumed | None, predefined
) -> list[TuningSpec]:
    """The specs: one per PerfTuning region, else the YAML file's, the assumed one or none."""
    yaml_path = spec_path or sidecar_spec(path)
    if perf and yaml_path is not None:
        raise src.error(
            perf[0].start, f"the spec is given twice: in this PerfTuning region and in {yaml_path}", AnnotationError
        )
    if assumed is not None:
        return [assumed.spec]
    elif perf:
        return [parse_perftuning(src, r.args_start, r.args_end, predefined) for r in perf]
    elif yaml_path is not None:
        from orcu.spec.yaml_spec import load_yaml

        return [load_yaml(yaml_path, predefined)]
    else:
        return [SpecBuilder(src, None, predefined).finish()]


def _plan(src: SourceFile, specs: list[TuningSpec], found, groups, loops, hosts) -> tuple[LoopNest, ...]:
    """The TSG's mappings (dependences, Phase I, mapping parameters), each spec for its own
    nests; ``specs`` takes each spec's mapping parameters."""
    nests: tuple[LoopNest, ...] = ()
    for g in range(len(specs)):
        mine = [k for k, owned in enumerate(groups) if owned == g]
        try:
            specs[g], planned = plan(src, specs[g], tuple(found[k] for k in mine), mine[0] if mine else 0)
        except OrcuError as e:
            # the nest of a region whose one transform could not take it whole: say why too
            why = next(
                (
                    h.unscheduled
                    for r, h in zip(loops, hosts)
                    if h.unscheduled and e.loc is not None and r.start <= src.offset(e.loc.line, e.loc.col) < r.end
                ),
                None,
            )
            if why is not None and isinstance(e, AnalysisError) and why not in SCHEDULE_KEPT:
                e.message += f" (the region was not scheduled as a whole: {why})"
            raise
        nests += planned
    return nests


def _exported(src: SourceFile, tree, spans, macros):
    """The file's external functions: where C linkage starts (the function's first declaration:
    a prototype of it may come first), their C++ prototype and their C declaration."""
    first = {
        f.decl.name: min([d.coord.line, d.coord.column] for d in [*declarations(tree, src, f.decl.name), f.decl])
        for _, _, f in spans
    }
    return tuple(
        (src.offset(*first[f.decl.name]), cxx_prototype(declared(f), macros), c_text(declared(f)))
        for _, _, f in spans
        if f.decl.name != "main" and not set(f.decl.storage) & {"static"} and "inline" not in f.decl.funcspec
    )


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _prologue(src: SourceFile, spec: TuningSpec, region: Region, spans) -> str:
    """The declarations before a PerfTuning region, in its function, that set from the spec's
    inputs what the region's code reads (``int *src = buffer, *dst = result;``, ``int last =
    cols - 1;``), as assignments: the harness runs only the region's code, so it runs these
    first, as the function does. Initialisers that call functions or read anything else are
    left out (the harness's value stands)."""
    function = next((f for lo, hi, f in spans if lo < region.start < hi), None)
    if function is None:
        return ""
    known = set(spec.input_names) | {d.name for d in spec.input_vars} | set(file_macros(src, parameters=True))
    named = set(_IDENTIFIER.findall(src.text[region.code_start : region.code_end]))
    lines = []
    for item in function.body.block_items or ():
        at = offset_of(src, item)
        if at is None or at >= region.start:
            break
        for d in item.decls if isinstance(item, c_ast.DeclList) else [item] if isinstance(item, c_ast.Decl) else []:
            if (
                d.init is None
                or isinstance(d.init, c_ast.InitList)
                or isinstance(d.type, c_ast.ArrayDecl)
                or d.name not in named
                or d.name in spec.input_names
                or spec.decl(d.name) is not None
            ):
                continue
            if set(used_names([d.init])) - known or _calls(d.init):
                continue
            lines.append(f"{d.name} = {c_text(d.init)};  // as declared at line {d.coord.line}")
            known.add(d.name)
    return "".join(line + "\n" for line in lines)


# C tokens, and what lies between them (white space, comments), for comparing two copies of a loop.
_TOKEN = re.compile(
    r"""(?P<skip>\s+|//[^\n]*|/\*.*?\*/)|[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'"""
    r"""|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|.""",
    re.S,
)


def _tokens(text: str, start: int) -> list[tuple[str, int]]:
    return [(m.group(), start + m.start()) for m in _TOKEN.finditer(text) if not m.group("skip")]


def _copies_differ(src: SourceFile, code_start: int, code: str, copy_start: int, copy: str) -> OrcuError:
    """The error for a Loop region whose two copies of the loop (in Loop(...), which the kernels
    are built from, and below it, which the reference runs) differ: at the first token that
    differs in each, with a caret at each."""
    mine, theirs = _tokens(code, code_start), _tokens(copy, copy_start)
    k = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a[0] != b[0]), min(len(mine), len(theirs)))
    at = mine[k][1] if k < len(mine) else code_start + len(code.rstrip())
    there = theirs[k][1] if k < len(theirs) else copy_start + len(copy.rstrip())
    said = lambda tokens: f"'{tokens[k][0]}'" if k < len(tokens) else "its end"  # noqa: E731
    error = src.error(
        at,
        f"the loop in Loop(...) and its copy below differ here: {said(mine)} against {said(theirs)}; "
        "the kernels are built from this one, the copy is what every variant is checked against: make "
        "them the same",
        AnnotationError,
    )
    error.notes.append(src.error(there, f"the copy has {said(theirs)} here"))
    return error


def _calls(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.FuncCall) or any(_calls(child) for _, child in node.children())


def _handoff(src: SourceFile, spans, first: Region, second: Region, a: LoopNest, b: LoopNest) -> Handoff | None:
    function = next((f for lo, hi, f in spans if lo < first.start < hi), None)
    if a.function is None or a.function != b.function:
        return None
    items = between(src, function, (first.start, first.end), (second.start, second.end))
    if items is None:
        return None
    done = effects(items)
    if done.opaque or done.writes_memory:
        return None
    arrays = {n for n, v in a.variables.items() if v.kind == "array" and v.origin != "region"}
    arrays &= {n for n, v in b.variables.items() if v.kind == "array" and v.origin != "region"}
    arrays -= done.assigned
    deferred = set() if done.reads_memory else arrays - done.names
    return Handoff(frozenset(arrays), frozenset(deferred)) if arrays else None


def _function_spans(text: str, tree: c_ast.FileAST, src: SourceFile) -> list[tuple[int, int, c_ast.FuncDef]]:
    spans = []
    for ext in tree.ext:
        if isinstance(ext, c_ast.FuncDef) and ext.body.coord is not None and ext.body.coord.file == src.path:
            open_at = src.offset(ext.body.coord.line, ext.body.coord.column)
            open_at = text.find("{", open_at)
            close, _ = matching_bracket(text, open_at, len(text))
            spans.append((open_at, close if close >= 0 else len(text), ext))
    return spans


def _file_context(src: SourceFile, loops: list[Region]):
    """The whole file parsed once (comments and file-scope regions blanked)."""
    blanked = blank_comments(generated.blank_spans(src.text))
    fragments = [(r.code_start, r.code_end) for r in loops if brace_depth(blanked, 0, r.start) == 0]  # at file scope
    text = blank(blanked, fragments)
    tree = parse_file(src, text)
    headers = {h for h, _ in local_headers(src.path, src.text)}
    return tree, _function_spans(text, tree, src), file_macros(src), structs(tree, {src.path} | headers)


@dataclass(frozen=True)
class _Parsed:
    """A Loop region's code: its statements, the transforms and the loops they apply to."""

    transforms: list  # CudaTransform per transformed loop
    items: list  # the statements (pycparser)
    loops: list  # the transformed loops (pycparser For), as the transforms
    code: str  # the code to transform as written
    reference: str  # the region's code to validate against
    head: bool = False  # one transform, before all of the region's statements (it may take the whole scop)


def _parse_region(src: SourceFile, spec: TuningSpec, region: Region) -> _Parsed:
    """The transforms, the code to transform (parsed) and the reference code of a region."""
    markers = find_transforms(src, region.args_start, region.args_end)
    defined = set(spec.lets) | set(spec.performance_names) | set(spec.input_names)
    for transform, _, _ in markers:
        for name, expr in transform.args.items():
            expr.check_names(src, defined, f"transform argument '{name}'")
    # The code in the annotation, its transforms blanked (offsets stay true).
    body_text = blank(
        src.text[region.args_start : region.args_end],
        [(start - region.args_start, end - region.args_start) for _, start, end in markers],
    )
    original_start, original = region.code_start, region.code(src)
    kept = generated.original_code(original)  # a tuned file: the original loop under #ifdef
    if kept is not None:
        original_start, original = original_start + kept[0], kept[1]
    if body_text.strip():
        code_start, code = region.args_start, body_text
    elif original.strip() and len(markers) == 1:  # 'transform CUDA(...)' alone: the loop below it
        code_start, code = original_start, original
        markers = [(markers[0][0], original_start, original_start)]
    else:
        raise src.error(
            region.start, "the Loop region has no code: write the loop after 'transform CUDA(...)'", AnnotationError
        )
    items = parse_statements(src, code_start, code)
    if not items:
        raise src.error(code_start, "the Loop region has no statements", AnnotationError)
    if original.strip() and code_start != original_start:
        copy = parse_statements(src, original_start, original)  # the reference must parse too
        if [c_text(n) for n in items] != [c_text(n) for n in copy]:
            raise _copies_differ(src, code_start, code, original_start, original)
    loops = targets(src, items, markers)
    reference = original if original.strip() else "\n".join(line for line in code.split("\n") if line.strip()) + "\n"
    first = min(offset for offset in (offset_of(src, n) for n in items) if offset is not None)
    head = len(markers) == 1 and markers[0][2] <= first
    return _Parsed([m[0] for m in markers], items, loops, code.lstrip(" \t"), reference, head)


def _typed(src: SourceFile, items: list, variables: dict[str, Variable]) -> dict[str, Variable]:
    """A region's variables, once their types are known: its statements' pointer dereferences
    become subscripts (``*(a + i)`` is ``a[i]``), and a variable whose type the file defines
    twice as different types is refused (which one the compiler sees depends on preprocessor
    conditions, which orcu does not evaluate)."""
    subscripted(items, {n: len(v.ctype.dims) + v.ctype.pointers for n, v in variables.items() if v.kind == "array"})
    ambiguous = ambiguous_typedefs(src)
    for var in variables.values():
        if var.ctype.base in ambiguous and var.loc is not None:  # no loc: an input parameter, an int or a double
            raise src.error_at(
                var.loc,
                f"'{var.name}' is of type '{var.ctype.base}', which the file defines as more than one type "
                "(typedefs under #if or #ifdef, which orcu does not evaluate): keep the one to tune",
                AnalysisError,
            )
    return variables


def _scheduled(src: SourceFile, spec: TuningSpec, region: Region, parsed: _Parsed, context, function, variables):
    """A whole scop under one transform, scheduled with isl: the region's statements as the
    schedule makes them (its kernels the loops to transform) and their variables, the schedule,
    and why there is none where isl's could not be used."""
    tree, spans, macros, _ = context
    scalars = [n for n, v in variables.items() if v.kind == "scalar"]
    live = read_after(src, function, region.start, region.end, scalars)
    functions = {f.decl.name for _, _, f in spans}
    scheduled, unscheduled = schedule_scop(src, parsed.items, variables, functions, set(live))
    if scheduled is not None:
        parsed = replace(
            parsed,
            items=scheduled.items,
            loops=scheduled.kernels,
            transforms=[parsed.transforms[0]] * len(scheduled.kernels),
        )
        variables = _redeclared(src, parsed.items, (function, tree, spec, macros), variables)
    return parsed, variables, scheduled, unscheduled


def _lower_region(
    src: SourceFile,
    spec: TuningSpec,
    region: Region,
    parsed: _Parsed,
    context,
    first: int,
    unset: Mapping[int, Mapping[str, str]],
) -> tuple[list[LoopNest], Host]:
    """The region's transformed loops as nests (numbered from ``first``) and its host side."""
    tree, spans, macros, catalogue = context
    function = next((f for lo, hi, f in spans if lo < region.start < hi), None)
    variables = _typed(src, parsed.items, resolve_types(src, parsed.items, function, tree, spec, macros))
    functions = {f.decl.name for _, _, f in spans}
    scheduled, unscheduled = None, ""
    if parsed.head and _maps_auto(parsed.transforms[0]):
        parsed, variables, scheduled, unscheduled = _scheduled(src, spec, region, parsed, context, function, variables)
    auto = [_maps_auto(t) for t in parsed.transforms]
    waved = (
        wavefronts(src, parsed.items, parsed.loops, auto, variables, functions, (function, region))
        if scheduled is None
        else None
    )
    if waved is not None:
        parsed = replace(parsed, items=waved[0], loops=waved[1])
        variables = _redeclared(src, parsed.items, (function, tree, spec, macros), variables)
    text, host_items = split(src, parsed.items, parsed.loops, first)
    arrays = {n: v for n, v in variables.items() if v.kind == "array"}
    bodies = [Lowering(src, arrays, functions).block([loop]) for loop in parsed.loops]
    done = effects(host_items)
    outside = visible_variables(function, tree)
    scope = {**outside, **variables}
    aliases = _aliases(function, parsed.items, scope)
    kernel_iterators = {lp.var for body in bodies for lp in loops_of(body)}
    # what the kernels write (through a local pointer: what it may point at too)
    kernel_writes = {a.array for body in bodies for st, _ in statements(body) for a in st.accesses if a.write}
    kernel_writes |= {target for p in kernel_writes for target in aliases.get(p, ())}
    host = Host(
        **_host_arrays(text, host_items, done, scope, set(arrays), kernel_writes),
        nests=tuple(range(first, first + len(parsed.loops))),
        writes=frozenset(done.assigned - kernel_iterators),  # a kernel's iterator: its nest says if it is read after
        reference=parsed.reference,
        variables=variables,
        changed=frozenset(done.assigned | _host_iterators(host_items)) - kernel_iterators,
        repeated=len(parsed.loops) > 1 or any(in_host_loop(parsed.items, lp) for lp in parsed.loops),
        left=left_to_host(host_items),
        aliases=aliases,
        schedule=scheduled,
        unscheduled=unscheduled,
    )
    nests = []
    for j, (transform, loop, body) in enumerate(zip(parsed.transforms, parsed.loops, bodies)):
        k = first + j
        if unset.get(k):
            given = {name: compile_expr(src, region.args_start, param) for name, param in unset[k].items()}
            transform = CudaTransform({**transform.args, **given})
        used = used_names([loop])
        own = {n: v for n, v in variables.items() if n in used}
        written = {lp.var for lp in loops_of(body)} | {n for st, _ in statements(body) for n in st.scalar_writes}
        candidates = [n for n in written if n in own and own[n].kind == "scalar" and own[n].origin != "region"]
        nests.append(
            LoopNest(
                index=k + 1,
                loc=src.location(region.start) if host.trivial else loc_of(loop),
                body=body,
                variables=own,
                function=function.decl.name if function is not None else None,
                transform=transform,
                reference=parsed.reference if host.trivial else statement_text(loop),
                code=parsed.code if host.trivial else statement_text(loop),
                outside=outside,
                context=host_context(src, parsed.items, loop),
                aliases=aliases,
                structs=frozenset(catalogue),
                read_after=read_after(
                    src, function, region.start, region.end, candidates, following(parsed.items, loop)
                ),
            )
        )
    return nests, host


def _host_arrays(text: str, host_items: list, done, scope, arrays: set[str], kernel_writes: set[str]) -> dict[str, Any]:
    """Host's fields on what the host code does with the arrays: whether it touches them, the
    swaps it makes of them, and where it touches elements, its text with the markers of what
    each statement moves when the arrays stay on the device (frontend/host_syncs.py);
    ``kernel_writes``: the arrays the region's kernels may write."""
    swaps = _swaps(host_items, done, scope)
    touches = done.reads_memory or done.writes_memory or bool(done.names & arrays)
    marks = marked([copied(item) for item in host_items], scope, kernel_writes) if touches and swaps is None else None
    if isinstance(marks, tuple):
        text = "\n".join(statement_text(item) for item in marks[0])
    syncs = marks[1] if isinstance(marks, tuple) else marks or {}
    return {"text": text, "touches_arrays": touches, "swaps": swaps, "syncs": syncs}


def _redeclared(src: SourceFile, items: list, context, variables: dict) -> dict:
    """The variables of rewritten code: what it declares (the copies of private arrays, a
    wavefront's iterator) and what the region as written uses (the reference), though no kernel
    does any more (a wavefront's j). ``context``: the function, its file's tree, spec and macros."""
    function, tree, spec, macros = context
    resolved = resolve_types(src, items, function, tree, spec, macros)
    return {**resolved, **{n: v for n, v in variables.items() if n not in resolved}}


def _maps_auto(transform: CudaTransform) -> bool:
    """``mapping='auto'`` written as such, with no loops named by hand."""
    mapping = transform.args.get("mapping")
    return (
        mapping is not None
        and not mapping.names
        and mapping.text.strip() in ("'auto'", '"auto"')
        and not {"blockLoops", "threadLoops"} & set(transform.args)
    )


def _aliases(function: c_ast.FuncDef | None, items, variables) -> dict[str, tuple[str, ...]]:
    """The arrays each local pointer of a region may point at: those it is set to (``src =
    buffer;`` before the region, ``temp = src; src = dst; dst = temp;`` in it), through other
    local pointers too. Where a local pointer is set to anything else (an element's address, an
    allocation), none is taken for an alias."""

    def local_pointer(name):
        v = variables.get(name)
        return v is not None and v.kind == "array" and not v.ctype.dims and v.origin in ("local", "region")

    arrays = {name for name, v in variables.items() if v.kind == "array"}
    copies = pointer_copies([function.body if function is not None else None, *items])
    if any(local_pointer(p) and q not in arrays for p, q in copies):  # set to something else (buffer + 1)
        return {}
    group = copy_groups(copies, arrays)
    return {
        name: tuple(sorted(n for n in group[name] if not local_pointer(n)))
        for name in group
        if local_pointer(name) and any(not local_pointer(n) for n in group[name])
    }


def _swaps(host_items, done, variables) -> tuple[tuple[str, str], ...] | None:
    """The pointer copies of the host code when they are all it does with the arrays (double
    buffering: the device copies can follow them); None otherwise."""
    arrays = {n for n, v in variables.items() if v.kind == "array"}
    if done.reads_memory or done.writes_memory or not done.names & arrays:
        return None
    copies = [(p, q) for p, q in pointer_copies(host_items) if p in arrays or q in arrays]
    if any(q is None or p not in arrays or q not in arrays for p, q in copies):
        return None
    if named_elsewhere(host_items, arrays) or _unbraced(host_items):  # passed to a function, say
        return None
    return tuple(copies)


def _unbraced(items) -> bool:
    """Whether a statement is the whole body of an ``if`` or a loop without braces (``if (c)
    a = b;``): a statement added after it would not be under its test."""
    found = []

    class Finder(c_ast.NodeVisitor):
        def generic_visit(self, node):
            bodies = (
                [node.iftrue, node.iffalse]
                if isinstance(node, c_ast.If)
                else [node.stmt]
                if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))
                else []
            )
            found.extend(b for b in bodies if b is not None and not isinstance(b, c_ast.Compound))
            super().generic_visit(node)

    for item in items:
        Finder().visit(item)
    return bool(found)


def _host_iterators(items) -> set[str]:
    """The variables the host code's loops step."""
    found: set[str] = set()

    class Finder(c_ast.NodeVisitor):
        def visit_For(self, node: c_ast.For) -> None:
            found.update(used_names([node.next]) if node.next is not None else ())
            self.generic_visit(node)

    for item in items:
        Finder().visit(item)
    return found
