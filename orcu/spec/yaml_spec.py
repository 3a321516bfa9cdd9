"""Tuning specs written in YAML (``--spec FILE.yaml`` or a sidecar ``FILE.c.orcu.yaml``).

The keys mirror the PerfTuning sections::

    let: {SMS: 132}
    performance_params:
      TC: range(32, 1025, 32)     # a string is an expression (a list of values: an axis)
      BC: [132, 264]              # a YAML list is an axis of those values
      constraint: {fits: TC * BC <= 65536}
    input_params: {N: [1000, 1000000]}
    input_vars: [static double x[N] = random, static double y[N] = 0]   # and {init_file: init.c}
    build: {build_command: nvcc -O3}
    performance_counter: {repetitions: 10}
    search: {algorithm: Random, total_runs: 50}
    metrics: {gflops: 2.0 * N / time_s / 1e9, objective: gflops, direction: max}

Every check is the PerfTuning builder's, so both syntaxes give the same diagnostics;
positions point into the YAML file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from orcu.errors import SpecError, did_you_mean
from orcu.frontend.source import SourceFile
from orcu.spec.builder import ARG_SECTIONS, PARAM_SECTIONS, SECTIONS, SpecBuilder
from orcu.spec.expr import compile_expr
from orcu.spec.language import parse_decl
from orcu.spec.model import TuningSpec

_KEYS = ("let",) + tuple(SECTIONS)


def _offset(src: SourceFile, node: yaml.Node) -> int:
    mark = node.start_mark
    offset = src.offset(mark.line + 1, mark.column + 1)
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        offset += 1
    return offset


def _literal(node: yaml.Node):
    return yaml.SafeLoader("").construct_object(node, deep=True)


def _mapping(src: SourceFile, node: yaml.Node, what: str) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise src.error(_offset(src, node), f"{what} must be a mapping of names to values", SpecError)
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            raise src.error(_offset(src, key), f"keys of {what} must be names", SpecError)
    return node.value


def _expression(src: SourceFile, node: yaml.Node):
    """A YAML string scalar is an expression; anything else is a literal value."""
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str":
        return compile_expr(src, _offset(src, node), node.value)
    return None


def load_yaml(path: str | Path, predefined: Mapping[str, Any] | None = None) -> TuningSpec:
    """``predefined``: names the spec may read (the device's facts)."""
    src = SourceFile.read(path)
    try:
        root = yaml.compose(src.text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        offset = src.offset(mark.line + 1, mark.column + 1) if mark else 0
        raise src.error(offset, f"bad YAML: {getattr(e, 'problem', None) or e}", SpecError) from None
    builder = SpecBuilder(src, 0, predefined)
    if root is None:
        return builder.finish()
    for key, value in _mapping(src, root, "a tuning spec"):
        section, offset = key.value, _offset(src, key)
        if section not in _KEYS:
            raise src.error(offset, f"unknown section '{section}'{did_you_mean(section, _KEYS)}", SpecError)
        if section == "let":
            for name, v in _mapping(src, value, "'let'"):
                expr = _expression(src, v)
                if expr is not None:
                    builder.let(name.value, _offset(src, name), expr)
                else:
                    builder.let_value(name.value, _offset(src, name), _literal(v))
        elif section in PARAM_SECTIONS:
            _params(src, builder, section, value)
        elif section == "input_vars":
            if not isinstance(value, yaml.SequenceNode):
                raise src.error(_offset(src, value), "'input_vars' must be a list of declarations", SpecError)
            for item in value.value:
                if isinstance(item, yaml.MappingNode):  # an argument: {init_file: init.c}
                    for name, v in _mapping(src, item, "an input_vars argument"):
                        builder.arg(
                            "input_vars", name.value, _offset(src, name), _literal(v), src.location(_offset(src, v))
                        )
                    continue
                if not (isinstance(item, yaml.ScalarNode) and item.tag == "tag:yaml.org,2002:str"):
                    raise src.error(
                        _offset(src, item),
                        "each input_vars entry is a declaration such as 'static double x[N] = random'",
                        SpecError,
                    )
                text, at = item.value, _offset(src, item)
                if text.startswith("decl "):
                    text, at = text[5:], at + 5
                text = text.rstrip().rstrip(";")
                builder.decl(parse_decl(src, at, text), at)
        elif section == "metrics":  # {gflops: "2.0 * N**3 / time_s / 1e9", objective: gflops, direction: max}
            for name, v in _mapping(src, value, "'metrics'"):
                if name.value in ("objective", "direction"):
                    builder.arg("metrics", name.value, _offset(src, name), _literal(v), src.location(_offset(src, v)))
                    continue
                expr = _expression(src, v)
                if expr is None:
                    raise src.error(
                        _offset(src, v), f"metric '{name.value}' must be an expression (a string)", SpecError
                    )
                builder.metric(name.value, _offset(src, name), expr)
        elif section in ARG_SECTIONS:
            for name, v in _mapping(src, value, f"'{section}'"):
                builder.arg(section, name.value, _offset(src, name), _literal(v), src.location(_offset(src, v)))
        else:  # cmdline_params
            for name, v in _mapping(src, value, "'cmdline_params'"):
                literal = _literal(v)
                builder.param_values(
                    "cmdline_params", name.value, _offset(src, name), literal, isinstance(literal, list)
                )
    return builder.finish()


def _params(src: SourceFile, builder: SpecBuilder, section: str, node: yaml.Node) -> None:
    for name, value in _mapping(src, node, f"'{section}'"):
        offset = _offset(src, name)
        if name.value in ("constraint", "constraints"):
            for cname, cvalue in _mapping(src, value, f"the constraints of '{section}'"):
                expr = _expression(src, cvalue)
                if expr is None:
                    raise src.error(
                        _offset(src, cvalue), f"constraint '{cname.value}' must be an expression", SpecError
                    )
                builder.constraint(section, cname.value, _offset(src, cname), expr)
            continue
        expr = _expression(src, value)
        if expr is not None:
            value = builder.evaluate(expr, f"parameter '{name.value}'")
            builder.param_values(section, name.value, offset, value, isinstance(value, (list, tuple, range)), expr.loc)
        else:
            literal = _literal(value)
            builder.param_values(
                section, name.value, offset, literal, isinstance(literal, list), src.location(_offset(src, value))
            )
