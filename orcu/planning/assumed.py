"""A tuning spec for a file that has none: Orio's regression inputs are a Loop region alone.

The sizes come from the command line (``--input n=1000``, repeatable); the rest is assumed,
and said: every array the regions use is allocated as far as its subscripts reach over
the loops' bounds and filled at random, as is every scalar they read; the launch shape
each region leaves unset (threadCount, blockCount) gets a default search space. Names that
bound a loop or size an array must be given: no guess of a problem size is worth timing.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from orcu.analysis.affine import poly_of
from orcu.analysis.nest import analyze
from orcu.errors import AnalysisError, UsageError
from orcu.frontend.cparse import file_macros
from orcu.frontend.source import SourceFile
from orcu.spec.language import parse_perftuning
from orcu.spec.model import TuningSpec

# What a region that leaves its launch shape unset searches: every warp multiple a block
# may hold up to its limit in powers of two, and a few grids per multiprocessor.
DEFAULT_SPACE = {
    "threadCount": "[32, 64, 128, 256, 512, 1024]",
    "blockCount": "[device_sms * k for k in [1, 2, 4, 8]]",
}


_PATH = "<the spec orcu assumed for {}>"  # what diagnostics in it would name


def is_assumed(spec: TuningSpec) -> bool:
    return spec.path.startswith(_PATH.split("{")[0])


@dataclass(frozen=True)
class Assumed:
    spec: TuningSpec
    unset: Mapping[int, Mapping[str, str]]  # region index -> transform argument -> the parameter that tunes it
    notes: tuple[str, ...]  # what was assumed, for the user


def input_values(pairs: list[str]) -> dict[str, list[Any]]:
    """``--input NAME=VALUE`` pairs -> each name's values, in order (a name given twice is
    tuned at both sizes)."""
    out: dict[str, list[Any]] = {}
    for pair in pairs:
        name, eq, text = (part.strip() for part in pair.partition("="))
        if not eq or not name.isidentifier():
            raise UsageError(f"--input expects NAME=VALUE, got '{pair}'")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"--input {name}: '{text}' is not a number")
        out.setdefault(name, []).append(value)
    return out


def assumed_spec(program, inputs: Mapping[str, list[Any]], predefined: Mapping[str, Any]) -> Assumed:
    """The spec of a file without one (``program`` loaded without a spec)."""
    src = program.src
    macros = file_macros(src)
    decls: dict[str, str] = {}
    random_scalars: list[str] = []
    sizes: dict[str, str] = {}
    needed: dict[str, Any] = {}  # a name that bounds a loop or sizes an array -> where
    unset: dict[int, dict[str, str]] = {}
    perf: list[str] = []
    for k, nest in enumerate(program.nests):
        analysis = analyze(src, nest, program.spec, mapped=nest.deps is not None)
        iterators = {lp.var for lp in nest.loops()}
        for lp in nest.loops():
            for bound in (lp.lower, lp.upper):
                p = poly_of(bound)
                for name in sorted(p.names - iterators) if p is not None else ():
                    needed.setdefault(name, lp.loc)
        for info in analysis.arrays:
            var = nest.variables[info.name]
            if info.name in decls or var.origin == "region":
                continue
            if info.extent is None or info.extent_source == "runtime":
                why = " (the bounds of its loops are read from arrays)" if info.extent_source == "runtime" else ""
                raise src.error_at(
                    var.loc or nest.loc,
                    f"cannot size '{info.name}' from its subscripts{why}, and the "
                    "file has no tuning spec: declare it in input_vars",
                    AnalysisError,
                )
            extent, names = _spec_expression(src, info.extent, var.loc or nest.loc, info.name)
            for name in names:
                needed.setdefault(name, var.loc or nest.loc)
            decls[info.name] = f"decl dynamic {_element(var.ctype.base)} {info.name}[{extent}] = random;"
            sizes[info.name] = extent
        for name in analysis.scalars_in:
            var = nest.variables[name]
            if name in decls or name in inputs or var.origin in ("macro", "region"):
                continue
            decls[name] = f"decl {_element(var.ctype.base)} {name} = random;"
            random_scalars.append(name)
        for arg, space in DEFAULT_SPACE.items():
            if arg not in nest.transform.args:
                param = f"{arg}_{nest.index}"
                unset.setdefault(k, {})[arg] = param
                perf.append(f"param {param}[] = {space};")
    lets = []
    for name, where in needed.items():
        if name in inputs:
            continue
        if name not in macros or _number(macros[name]) is None:
            raise src.error_at(
                where,
                f"'{name}' sets a loop bound or an array's size, and the file has no tuning "
                f"spec: give its value with --input {name}=VALUE",
                AnalysisError,
            )
        lets.append(f"let {name} = {_number(macros[name])!r};")  # the file's own #define
    used = set(needed) | {n for nest in program.nests for n in nest.variables}
    for name in inputs:
        if name not in used:
            raise UsageError(f"--input {name}: no Loop region of {src.path} uses '{name}'")
    text = "\n".join(
        [
            "def performance_params {",
            *perf,
            "}",
            "def input_params {",
            *lets,
            *(f"param {n}[] = {values!r};" for n, values in inputs.items()),
            "}",
            "def input_vars {",
            *decls.values(),
            "}",
        ]
    )
    spec = parse_perftuning(SourceFile(_PATH.format(src.path), text), 0, len(text), predefined)
    return Assumed(spec, unset, _notes(program, inputs, sizes, random_scalars, unset))


def _notes(program, inputs, sizes: dict[str, str], random_scalars: list[str], unset) -> tuple[str, ...]:
    """What orcu says it assumed."""
    src = program.src
    notes = [f"{src.path} has no tuning spec: orcu assumed one (a PerfTuning region or a .orcu.yaml spec replaces it)"]
    if inputs:
        notes.append("sizes from --input: " + ", ".join(f"{n}={'/'.join(map(str, v))}" for n, v in inputs.items()))
    if sizes:
        notes.append(
            "arrays as far as their subscripts reach, at random: " + ", ".join(f"{n}[{e}]" for n, e in sizes.items())
        )
    if random_scalars:
        notes.append("scalars at random: " + ", ".join(random_scalars))
    for k, args in unset.items():
        shown = "; ".join(f"{arg} in {DEFAULT_SPACE[arg]}" for arg in args)
        notes.append(f"orcu_{program.nests[k].name} leaves its launch shape unset: searched {shown}")
    return tuple(notes)


def _spec_expression(src: SourceFile, c_expr: str, loc, name: str) -> tuple[str, list[str]]:
    """A C size expression as the spec's (Python) one: the same text where both read it alike;
    with the names it reads."""
    try:
        tree = ast.parse(c_expr, mode="eval")
    except SyntaxError:
        tree = None
    allowed = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.Name,
        ast.Load,
        ast.Constant,
        ast.Add,
        ast.Sub,
        ast.Mult,
        ast.USub,
    )
    if tree is None or not all(isinstance(n, allowed) for n in ast.walk(tree)):
        raise src.error_at(
            loc,
            f"'{name}' reaches element {c_expr} - 1, which orcu cannot size for you: declare it in input_vars",
            AnalysisError,
        )
    return c_expr, [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]


def _element(base: str) -> str:
    return " ".join(w for w in base.split() if w not in ("const", "volatile", "restrict"))


def _number(text: str) -> int | float | None:
    try:
        value = ast.literal_eval(text.strip().rstrip("uUlLfF") if text.strip()[:1].isdigit() else text.strip())
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
