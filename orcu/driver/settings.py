"""The settings a user names (``emit --set NAME=VALUE``, ``--input NAME=VALUE``): each matched to
one of its parameter's values, the rest of a configuration chosen so that the constraints hold."""

from __future__ import annotations

from typing import Any

from orcu.errors import UsageError, did_you_mean


def chosen_settings(program, sets: dict[str, Any], inputs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The configuration and input sizes ``emit`` writes: unset ones take the first valid value."""
    from orcu.planning.space import input_space, performance_space

    spec = program.spec
    fixed_inputs = assignments(inputs, spec.input_params, "--input", ("--set", spec.performance_names))
    fixed = assignments(sets, spec.performance_params, "--set", ("--input", spec.input_names))
    space = input_space(program)
    chosen_inputs = space.first_matching(fixed_inputs)
    if chosen_inputs is None:
        raise UsageError(f"no input combination with {pairs_text(fixed_inputs)} satisfies the input constraints")
    perf = performance_space(program, chosen_inputs)
    params = perf.first_matching(fixed)
    if params is None:
        names = ", ".join(f"{c.name} ({c.expr.text.strip()})" for c in spec.performance_constraints)
        raise UsageError(f"no configuration with {pairs_text(fixed)} satisfies the constraints: {names}")
    return params, chosen_inputs


def assignments(given: dict[str, Any], params, option: str, other: tuple[str, list[str]]) -> dict[str, Any]:
    """Values by name, each matched to one of its parameter's listed values (given as the value
    or as its text, as on the command line)."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for name, value in given.items():
        if name not in by_name:
            hint = f" (it is set with {other[0]})" if name in other[1] else did_you_mean(name, by_name)
            raise UsageError(f"{option}: '{name}' is not a parameter here{hint}")
        values = by_name[name].values
        text = str(value).strip()
        matches = matching(values, value)
        if not matches:
            shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values[:12])
            more = ", ..." if len(values) > 12 else ""
            raise UsageError(f"{option}: {text!r} is not one of the values of '{name}': {shown}{more}")
        out[name] = matches[0]
    return out


def matching(values: tuple, value: Any) -> list:
    """The listed values that ``value`` names: itself, or its text as on the command line."""
    text = str(value).strip()
    return [v for v in values if v == value and type(v) is type(value)] or [
        v for v in values if text in (str(v), repr(v))
    ]


def pairs_text(values: dict[str, Any]) -> str:
    from orcu.planning.space import settings_text

    return settings_text(values) or "these values"


def taken(program, g: int, given: dict[str, Any], option: str) -> dict[str, Any]:
    """What of ``given`` spec ``g`` takes (``option`` "--set": performance parameters, "--input":
    input parameters). In a file of several specs each takes the names it has with a value it
    lists; a name or value no spec takes is an error, said as the spec that has the name says it."""

    def params(spec):
        return spec.performance_params if option == "--set" else spec.input_params

    if len(program.specs) < 2:
        return given
    for name, value in given.items():
        holders = [spec for spec in program.specs if any(p.name == name for p in params(spec))]
        if not any(matching(p.values, value) for spec in holders for p in params(spec) if p.name == name):
            if not holders:
                known = {p.name for spec in program.specs for p in params(spec)}
                raise UsageError(f"{option}: '{name}' is not a parameter here{did_you_mean(name, known)}")
            assignments({name: value}, params(holders[0]), option, ("", []))  # raises: not one of its values
    mine = {p.name: p for p in params(program.specs[g])}
    return {n: v for n, v in given.items() if n in mine and matching(mine[n].values, v)}
