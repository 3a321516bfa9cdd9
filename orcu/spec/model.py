"""The typed result of reading a tuning spec, whichever syntax it was written in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from orcu.errors import Location
from orcu.search.registry import canonical
from orcu.spec.expr import Expr


@dataclass(frozen=True)
class Param:
    name: str
    values: tuple
    axis: bool  # written NAME[]: the values are a tuning axis
    loc: Location


@dataclass(frozen=True)
class Constraint:
    name: str
    expr: Expr


@dataclass(frozen=True)
class Decl:
    """``decl [static|dynamic] type name[dim]... [= init];`` of input_vars."""

    name: str
    ctype: str
    storage: str | None  # "static", "dynamic" or None
    dims: tuple[Expr, ...]
    init: str  # "none", "random", "value" (fill/assign an expression) or "list"
    init_expr: Expr | None
    loc: Location

    @property
    def is_array(self) -> bool:
        return bool(self.dims)


@dataclass(frozen=True)
class Arg:
    name: str
    value: Any
    loc: Location


@dataclass(frozen=True)
class Metric:
    """``let name = expr;`` of the metrics section: computed for each evaluated variant (orcu/execution/metrics.py)."""

    name: str
    expr: Expr


@dataclass(frozen=True)
class Option:
    """A command-line option of the tuned program (cmdline_params)."""

    flag: str
    values: tuple
    loc: Location


def _frozen(d: Mapping | None = None) -> Mapping:
    return MappingProxyType(dict(d or {}))


@dataclass(frozen=True)
class TuningSpec:
    path: str
    loc: Location | None
    lets: Mapping[str, Any] = field(default_factory=_frozen)
    performance_params: tuple[Param, ...] = ()
    performance_constraints: tuple[Constraint, ...] = ()
    input_params: tuple[Param, ...] = ()
    input_constraints: tuple[Constraint, ...] = ()
    input_vars: tuple[Decl, ...] = ()
    build: Mapping[str, Arg] = field(default_factory=_frozen)
    performance_counter: Mapping[str, Arg] = field(default_factory=_frozen)
    search: Mapping[str, Arg] = field(default_factory=_frozen)
    validation: Mapping[str, Arg] = field(default_factory=_frozen)
    cmdline: tuple[Option, ...] = ()
    metrics: tuple[Metric, ...] = ()
    objective: Mapping[str, Arg] = field(default_factory=_frozen)  # the metrics section's objective and direction
    init_code: str = ""  # input_vars' init_file: C code whose init_input_vars() fills the inputs

    def arg(self, section: str, name: str, default: Any = None) -> Any:
        found = getattr(self, section).get(name)
        return default if found is None else found.value

    @property
    def repetitions(self) -> int:
        return self.arg("performance_counter", "repetitions", 5)

    @property
    def measure(self) -> str | None:
        """What ranks variants where the spec says: 'kernel' (the kernels' time, as in Orio) or 'total'."""
        return self.arg("performance_counter", "measure")

    @property
    def metric_exprs(self) -> dict[str, Any]:
        return {m.name: m.expr for m in self.metrics}

    def ranking_objective(self, requested: str | None = None):
        """``requested`` (--objective), else the spec's, else kernel time (orcu/execution/metrics.py)."""
        from orcu.spec.objectives import objective

        if requested is not None:
            return objective(requested, None, self.metric_exprs)
        return objective(self.arg("objective", "objective"), self.arg("objective", "direction"), self.metric_exprs)

    @property
    def build_command(self) -> str | None:
        return self.arg("build", "build_command")

    @property
    def search_algorithm(self) -> str:
        return canonical(self.arg("search", "algorithm", "Exhaustive")) or "Exhaustive"  # the builder checked it

    def search_options(self, algorithm: str | None = None) -> dict[str, Any]:
        """Options prefixed with the algorithm's name, e.g. ``simplex_reflection_coef`` -> ``reflection_coef``."""
        prefix = (algorithm or self.search_algorithm).lower() + "_"
        return {k[len(prefix) :]: a.value for k, a in self.search.items() if k.startswith(prefix)}

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.input_params)

    @property
    def performance_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.performance_params)

    def decl(self, name: str) -> Decl | None:
        return next((d for d in self.input_vars if d.name == name), None)
