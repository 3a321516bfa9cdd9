"""What a tune ranks variants by: the names of the metrics orcu computes (orcu/execution/metrics.py) and
an objective, one metric with a direction. Kept apart from the computing so that the spec
reads these names without the pipeline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from orcu.errors import UsageError, did_you_mean

# name -> (unit, what it is, whether more is better)
BUILTIN: dict[str, tuple[str, str, bool]] = {
    "time_ms": ("ms", "the ranked time (the measure's median)", False),
    "time_s": ("s", "the ranked time in seconds", False),
    "flops": ("", "arithmetic operations of the loop as written", True),
    "bytes": ("B", "compulsory traffic: each array read once, each written once", True),
    "gflop_s": ("GFLOP/s", "operations a second", True),
    "gb_s": ("GB/s", "compulsory bytes a second", True),
    "bound_ms": ("ms", "the roofline bound: the least time the loop's work takes on the device", False),
    "bound_fraction": ("", "the roofline bound over the time", True),
    "energy_j": ("J", "energy of one call, measured through NVML", False),
    "power_w": ("W", "mean power while the variant runs", False),
    "edp": ("J*s", "energy-delay product: energy_j * time_s", False),
}
ALIASES = {"time": "time_ms", "energy": "energy_j"}
ENERGY = ("energy_j", "power_w", "edp")  # what only an NVML measurement gives
MEASURED_ONCE = ("energy_j", "power_w")  # read once a variant: re-timing it changes nothing of these
DIRECTIONS = {"max": True, "maximize": True, "maximise": True, "min": False, "minimize": False, "minimise": False}


@dataclass(frozen=True)
class Objective:
    """What ranks variants: a metric and whether more of it is better."""

    name: str
    maximise: bool = False

    @property
    def is_time(self) -> bool:
        return self.name == "time_ms"

    def text(self) -> str:
        return f"{'max' if self.maximise else 'min'}:{self.name}"


TIME = Objective("time_ms")


def objective(text: str | None, direction: str | None = None, metrics: Mapping[str, Any] | None = None) -> Objective:
    """The objective ``[max:|min:]NAME`` (``direction`` max or min where the name has no prefix);
    ``metrics``: the spec's own metrics, name -> expression. Built-in metrics know their
    direction; a spec's metric needs one, as a wrong guess would pick the worst variant."""
    if text is None:
        return TIME
    prefix, colon, name = text.partition(":")
    if not colon:
        prefix, name = "", text
    name = ALIASES.get(name.strip(), name.strip())
    known = {**BUILTIN, **dict(metrics or {})}
    if name not in known:
        raise UsageError(
            f"unknown objective '{name}'{did_you_mean(name, list(known) + list(ALIASES))} (the metrics: "
            f"{', '.join(list(BUILTIN) + list(metrics or {}))})"
        )
    said = prefix or direction
    if said is not None and said.lower() not in DIRECTIONS:
        raise UsageError(f"the objective's direction must be max or min, got '{said}'")
    if said is None and name not in BUILTIN:
        raise UsageError(
            f"say whether more or less '{name}' is better: --objective max:{name} (or min:{name}), or "
            f"arg direction = 'max'; in the spec's metrics section"
        )
    return Objective(name, DIRECTIONS[said.lower()] if said is not None else BUILTIN[name][2])


def needs_energy(goal: Objective, metrics: Mapping[str, Any]) -> bool:
    """Whether the objective reads an NVML measurement, itself or through the spec's metrics."""
    seen, todo = set(), [goal.name]
    while todo:
        name = todo.pop()
        if name in ENERGY:
            return True
        if name in metrics and name not in seen:
            seen.add(name)
            todo.extend(metrics[name].names)
    return False
