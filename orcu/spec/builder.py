"""Collects spec statements from either syntax, checks them, and builds a TuningSpec.

The PerfTuning language and YAML specs both feed this one builder, so every check
(duplicate names, undefined names, unknown sections and arguments, argument types)
is written once and gives the same diagnostic for both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from orcu.errors import OrcuError, SpecError, did_you_mean
from orcu.frontend.cparse import arithmetic_typedefs, file_macros, local_headers
from orcu.frontend.source import SourceFile
from orcu.frontend.structs import struct_names
from orcu.search.registry import SPELLINGS, STRATEGIES, canonical, known
from orcu.spec.expr import Expr
from orcu.spec.model import Arg, Constraint, Decl, Metric, Option, Param, TuningSpec, _frozen
from orcu.spec.objectives import BUILTIN, DIRECTIONS, objective

PARAM_SECTIONS = ("performance_params", "input_params")
ARG_SECTIONS = ("build", "performance_counter", "search", "validation", "input_vars", "metrics")
# Which statements each section holds.
SECTIONS: dict[str, tuple[str, ...]] = {
    "performance_params": ("param", "constraint", "let"),
    "input_params": ("param", "constraint", "let"),
    "input_vars": ("decl", "arg", "let"),
    "build": ("arg", "let"),
    "performance_counter": ("arg", "let"),
    "search": ("arg", "let"),
    "validation": ("arg", "let"),
    "cmdline_params": ("option", "param", "let"),
    "metrics": ("let", "arg"),  # its lets are metrics, computed for each variant (orcu/execution/metrics.py)
}
STATEMENTS = ("let", "param", "constraint", "arg", "option", "decl")

ELEMENT_TYPES = (
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "const",
    "size_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "_Bool",
    "bool",
)


def _string(v: Any) -> str | None:
    return None if isinstance(v, str) else "a string"


def _positive_int(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else "a positive integer"


def _positive_number(v: Any) -> str | None:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
    return None if ok else "a positive number"


def _boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else "True or False"


def _algorithm(v: Any) -> str | None:
    if isinstance(v, str) and canonical(v) is not None:
        return None
    return "one of " + known()


def _measure(v: Any) -> str | None:
    return None if v in ("kernel", "total") else "'kernel' or 'total'"


def _direction(v: Any) -> str | None:
    return None if isinstance(v, str) and v.lower() in DIRECTIONS else "'max' or 'min'"


def _integer(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) else "an integer"


ARGS: dict[str, dict[str, Callable[[Any], str | None]]] = {
    "build": {
        "build_command": _string,
        "libs": _string,
        "prebuild_command": _string,
        "postbuild_command": _string,
    },
    "performance_counter": {"method": _string, "repetitions": _positive_int, "measure": _measure},
    "search": {
        "algorithm": _algorithm,
        "total_runs": _positive_int,
        "time_limit": _positive_number,
        "resume": _boolean,
        "seed": _integer,
    },
    "validation": {"validation_file": _string},
    "input_vars": {"init_file": _string},
    "metrics": {"objective": _string, "direction": _direction},
}
# Orio's C function that fills the inputs, which an init_file defines.
INIT_FUNCTION = re.compile(r"\bvoid\s+init_input_vars\s*\(\s*(void\s*)?\)\s*\{")
_SEARCH_PREFIXES = tuple(sorted({a.lower() + "_" for a in STRATEGIES} | {k + "_" for k in SPELLINGS}))


_INTEGER = re.compile(r"\(?\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\)?")


def _number_macros(src: SourceFile) -> dict[str, int]:
    """The file's macros that are an integer (``#define N 64``): a spec reads them as the C does
    (``decl dynamic float A[N][N]``); an input parameter or ``let`` of the name wins."""
    found = {}
    for name, value in file_macros(src).items():
        m = _INTEGER.fullmatch(value.strip())
        if m is not None:
            found[name] = int(m.group(1), 0)
    return found


class SpecBuilder:
    def __init__(self, src: SourceFile, start: int | None, predefined: Mapping[str, Any] | None = None):
        """``predefined``: names every spec may read (the device's facts); a spec may define them anew."""
        self.src = src
        self.loc = src.location(start) if start is not None else None
        self.lets: dict[str, Any] = {**_number_macros(src), **dict(predefined or {})}
        self.params: dict[str, list[Param]] = {s: [] for s in PARAM_SECTIONS}
        self.constraints: dict[str, list[Constraint]] = {s: [] for s in PARAM_SECTIONS}
        self.decls: list[Decl] = []
        self.args: dict[str, dict[str, Arg]] = {s: {} for s in ARG_SECTIONS}
        self.options: list[Option] = []
        self.metrics: list[Metric] = []
        self.defined_at: dict[str, int] = {}  # every defined name -> offset, for duplicates

    # -- helpers --------------------------------------------------------------
    def error(self, offset: int, message: str) -> SpecError:
        return self.src.error(offset, message, SpecError)

    def _define(self, name: str, offset: int) -> None:
        if name.startswith("__"):
            raise self.error(offset, f"name '{name}' is not allowed: names starting with '__' are reserved")
        if name in self.defined_at:
            line = self.src.location(self.defined_at[name]).line
            raise self.error(offset, f"'{name}' is already defined on line {line}")
        self.defined_at[name] = offset

    def evaluate(self, expr: Expr, what: str) -> Any:
        """The value of a spec expression that may read only earlier ``let`` names."""
        expr.check_names(self.src, self.lets, what)
        return expr.evaluate(dict(self.lets))

    def check_section(self, name: str, offset: int) -> None:
        if name not in SECTIONS:
            raise self.error(offset, f"unknown section '{name}'{did_you_mean(name, SECTIONS)}")

    def check_statement(self, section: str, keyword: str, offset: int) -> None:
        if keyword not in STATEMENTS:
            raise self.error(offset, f"unknown statement '{keyword}'{did_you_mean(keyword, STATEMENTS)}")
        if keyword not in SECTIONS[section]:
            allowed = ", ".join(f"'{k}'" for k in SECTIONS[section])
            raise self.error(offset, f"'{keyword}' is not allowed in section '{section}' (it holds {allowed})")

    # -- statements -----------------------------------------------------------
    def let(self, name: str, offset: int, expr: Expr) -> None:
        value = self.evaluate(expr, f"'let {name}'")
        self._define(name, offset)
        self.lets[name] = value

    def let_value(self, name: str, offset: int, value: Any) -> None:
        """A ``let`` whose value is already known (a YAML literal)."""
        self._define(name, offset)
        self.lets[name] = value

    def metric(self, name: str, offset: int, expr: Expr) -> None:
        """``let name = expr;`` of the metrics section: evaluated for each variant, its names checked at the end."""
        if name in self.args["metrics"] or name in ("objective", "direction"):
            raise self.error(offset, f"'{name}' names the objective's argument, not a metric")
        self._define(name, offset)
        self.metrics.append(Metric(name, expr))

    def param(self, section: str, name: str, offset: int, expr: Expr, axis: bool) -> None:
        value = self.evaluate(expr, f"parameter '{name}'")
        self.param_values(section, name, offset, value, axis, expr.loc)

    def param_values(self, section: str, name: str, offset: int, value: Any, axis: bool, loc=None) -> None:
        loc = loc or self.src.location(offset)
        if axis:
            if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
                raise self.src.error_at(
                    loc, f"parameter '{name}[]' needs a list of values, got {type(value).__name__}", SpecError
                )
            values = tuple(value)
            if not values:
                raise self.src.error_at(loc, f"parameter '{name}[]' has no values", SpecError)
        else:
            values = (value,)
        if section == "cmdline_params":
            self._define(name, offset)
            self.options.append(Option(name, values, self.src.location(offset)))
            return
        self._define(name, offset)
        self.params[section].append(Param(name, values, axis, self.src.location(offset)))

    def constraint(self, section: str, name: str, offset: int, expr: Expr) -> None:
        self._define(name, offset)
        self.constraints[section].append(Constraint(name, expr))

    def arg(self, section: str, name: str, offset: int, value: Any, value_loc=None) -> None:
        if isinstance(value, Expr):
            value_loc = value.loc
            value = self.evaluate(value, f"argument '{name}'")
        value_loc = value_loc or self.src.location(offset)
        known = ARGS[section]
        check = known.get(name)
        if check is None and section == "search" and name.startswith(_SEARCH_PREFIXES):
            check = lambda v: None  # noqa: E731  strategy options are checked by the strategy
        if check is None and (section, name) == ("input_vars", "decl_file"):
            raise self.error(
                offset,
                "'decl_file' is not supported: orcu declares and allocates the inputs itself from "
                "'decl' statements; an init_file may fill them",
            )
        if check is None:
            raise self.error(offset, f"unknown argument '{name}' in section '{section}'{did_you_mean(name, known)}")
        problem = check(value)
        if problem:
            raise self.src.error_at(value_loc, f"argument '{name}' must be {problem}, got {value!r}", SpecError)
        if name in self.args[section]:
            line = self.args[section][name].loc.line
            raise self.error(offset, f"argument '{name}' is already set on line {line}")
        self.args[section][name] = Arg(name, value, self.src.location(offset))

    def option(self, flag: str, offset: int, expr: Expr) -> None:
        value = self.evaluate(expr, f"option '{flag}'")
        values = tuple(value) if isinstance(value, (list, tuple, range)) else (value,)
        self.options.append(Option(flag, values, self.src.location(offset)))

    @functools.cached_property
    def _file_types(self) -> tuple[set[str], dict[str, str]]:
        """The file's struct names and its other names of arithmetic types (``decl real x[n]``,
        the file's ``typedef double real``), read once for all of the spec's decls."""
        texts = [self.src.text, *(t for _, t in local_headers(self.src.path, self.src.text))]
        return struct_names("\n".join(texts)), arithmetic_typedefs(self.src)

    def decl(self, decl: Decl, offset: int) -> None:
        structs, aliases = self._file_types
        decl = replace(decl, ctype=" ".join(aliases.get(word, word) for word in decl.ctype.split()))
        for word in [] if decl.ctype.replace("const ", "") in structs else decl.ctype.split():
            if word not in ELEMENT_TYPES:
                raise self.error(
                    offset, f"unknown type '{word}' in declaration of '{decl.name}'{did_you_mean(word, ELEMENT_TYPES)}"
                )
        self._define(decl.name, self.src.offset(decl.loc.line, decl.loc.col))
        self.decls.append(decl)

    def _init_code(self) -> str:
        """The text of the ``init_file`` (beside the annotated file), checked for Orio's
        ``void init_input_vars()``; "" without one."""
        arg = self.args["input_vars"].get("init_file")
        if arg is None:
            return ""
        path = Path(self.src.path).parent / arg.value
        try:
            text = path.read_text()
        except OSError as e:
            raise self.src.error_at(arg.loc, f"cannot read the init_file '{path}': {e.strerror}", SpecError) from None
        if not INIT_FUNCTION.search(text):
            raise self.src.error_at(
                arg.loc,
                f"the init_file '{path}' defines no 'void init_input_vars()', the function that fills the inputs",
                SpecError,
            )
        return text

    # -- the result -----------------------------------------------------------
    def finish(self) -> TuningSpec:
        lets = set(self.lets)
        inputs = {p.name for p in self.params["input_params"]}
        perf = {p.name for p in self.params["performance_params"]}
        for c in self.constraints["input_params"]:
            c.expr.check_names(self.src, lets | inputs, f"constraint '{c.name}'")
        for c in self.constraints["performance_params"]:
            c.expr.check_names(self.src, lets | inputs | perf, f"constraint '{c.name}'")
        visible = lets | inputs
        for d in self.decls:
            for dim in d.dims:
                dim.check_names(self.src, visible, f"the size of '{d.name}'")
            if d.init_expr is not None:
                d.init_expr.check_names(self.src, visible, f"the initial value of '{d.name}'")
            if not d.is_array:
                visible = visible | {d.name}
        known = lets | inputs | perf | set(BUILTIN)
        for m in self.metrics:
            m.expr.check_names(self.src, known, f"metric '{m.name}'")
            known = known | {m.name}
        if "objective" in self.args["metrics"] or "direction" in self.args["metrics"]:
            arg = self.args["metrics"].get("objective") or self.args["metrics"]["direction"]
            try:
                objective(
                    self.args["metrics"]["objective"].value if "objective" in self.args["metrics"] else "time",
                    self.args["metrics"]["direction"].value if "direction" in self.args["metrics"] else None,
                    {m.name: m.expr for m in self.metrics},
                )
            except OrcuError as e:
                raise self.src.error_at(arg.loc, e.message, SpecError) from None
        return TuningSpec(
            path=self.src.path,
            loc=self.loc,
            lets=_frozen(self.lets),
            performance_params=tuple(self.params["performance_params"]),
            performance_constraints=tuple(self.constraints["performance_params"]),
            input_params=tuple(self.params["input_params"]),
            input_constraints=tuple(self.constraints["input_params"]),
            input_vars=tuple(self.decls),
            build=_frozen(self.args["build"]),
            performance_counter=_frozen(self.args["performance_counter"]),
            search=_frozen(self.args["search"]),
            validation=_frozen(self.args["validation"]),
            init_code=self._init_code(),
            cmdline=tuple(self.options),
            metrics=tuple(self.metrics),
            objective=_frozen(self.args["metrics"]),
        )
