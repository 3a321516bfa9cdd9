"""What a variant achieved besides its time, and what a tune ranks variants by.

Every ranked evaluation gets its metrics, from its time and from the work of the loop as
written at its input size (the same for every variant, so that its rates compare variants):

- ``flops``: the arithmetic operations of the loop's statements (+ - * / and the compound
  assignments, a multiply-add two, subscripts' integer arithmetic apart) times their iterations;
- ``bytes``: the compulsory traffic, each array the loop reads once and each it writes once,
  whole (as the harness declares it);
- ``gflop_s``, ``gb_s``: those over the time; ``bound_ms``: the roofline bound, the slower of
  the bytes at the device's peak bandwidth and the operations at its peak arithmetic rate
  (orcu/execution/model.py's peak_rates); ``bound_fraction``: that bound over the time, 1.0 at the roofline;
- ``energy_j``, ``power_w`` (with ``--backend cuda`` and an energy objective): the joules of one
  call of the variant and the mean watts, measured through NVML; ``edp``: energy times time.

A spec's ``def metrics { let gflops = 2.0 * N**3 / time_s / 1e9; }`` adds its own, in order,
each reading those names, the input and performance parameters, the spec's ``let`` names and
the metrics above it. The objective is one of them with a direction: the search, the winner and
the tuned file follow it; kernel time stays the default.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from orcu.errors import SpecError
from orcu.execution.harness import memory_needs
from orcu.execution.model import peak_rates
from orcu.execution.result import RANKED, Result
from orcu.frontend.ir import statements
from orcu.frontend.types import ELEMENT_BYTES, canonical_type
from orcu.spec.objectives import ENERGY, TIME, Objective
from orcu.tsg.sizes import iterations
from orcu.tsg.traffic import statement_operations

ENUMERATED = 1_000_000  # outer iterations counted one by one, past which a triangle's work is not counted


@dataclass(frozen=True)
class Work:
    """The loop's work at one input size, the same for every variant; None where a bound is not a number."""

    flops: int | None
    bytes: int | None
    element_bytes: int  # the widest floating-point element: the arithmetic rate it runs at


def work(program, region: int, inputs: Mapping[str, Any]) -> Work:
    program = program.of_nest(region)
    nest = program.nests[region]
    env = {k: v for k, v in {**program.spec.lets, **inputs}.items() if isinstance(v, int) and not isinstance(v, bool)}
    flops: int | None = 0
    reads, writes = set(), set()
    for st, loops in statements(nest.body):
        reads |= {a.array for a in st.accesses if not a.write}
        writes |= {a.array for a in st.accesses if a.write}
        count = None if flops is None else iterations(loops, env, [ENUMERATED])
        flops = None if count is None else flops + statement_operations(st.node) * count
    sizes = dict(memory_needs(program, region, inputs)[2])
    moved = sum(sizes[a] for a in reads if a in sizes) + sum(sizes[a] for a in writes if a in sizes)
    widest = max(
        (
            ELEMENT_BYTES.get(canonical_type(v.ctype.base), 4)
            for v in nest.variables.values()
            if canonical_type(v.ctype.base) in ("float", "double")
        ),
        default=4,
    )
    return Work(flops, moved, widest)


def roofline_ms(w: Work, device) -> float | None:
    """The least time the loop's work takes on ``device``: its bytes at peak bandwidth or its
    operations at the peak arithmetic rate, whichever is slower."""
    if w.bytes is None or w.flops is None or device is None:
        return None
    bandwidth, arithmetic = peak_rates(device, w.element_bytes)
    return 1e3 * max(w.bytes / bandwidth, w.flops / arithmetic)


def rates(figures: Mapping[str, float], time_ms: float) -> dict[str, float]:
    """GFLOP/s, GB/s and the fraction of the roofline bound at ``time_ms``, from the ``flops``,
    ``bytes`` and ``bound_ms`` of ``figures`` that are known (none at a time of 0)."""
    if time_ms <= 0:
        return {}
    seconds = time_ms * 1e-3
    out = {}
    if "flops" in figures:
        out["gflop_s"] = figures["flops"] / seconds / 1e9
    if "bytes" in figures:
        out["gb_s"] = figures["bytes"] / seconds / 1e9
    if "bound_ms" in figures:
        out["bound_fraction"] = figures["bound_ms"] / time_ms
    return out


class Ranking:
    """Metrics and the objective of one region at one input size: ``assess`` gives a result its
    metrics (a spec metric that cannot be computed makes the result invalid, with the reason),
    ``cost`` is what a search minimises."""

    def __init__(self, goal: Objective = TIME, spec=None, w: Work | None = None, device=None):
        """Without ``spec`` and ``w``: the time alone, no metrics."""
        self.goal, self.work, self.device = goal, w or Work(None, None, 4), device
        self.spec_metrics = tuple(spec.metrics) if spec is not None else ()
        self.lets = dict(spec.lets) if spec is not None else {}
        self.bound = roofline_ms(self.work, device)

    def assess(self, result: Result) -> Result:
        if result.status not in RANKED or result.time_ms is None:
            result.metrics = None
            return result
        found = self.builtin(result.time_ms, result.measured)
        env = {**self.lets, **result.inputs, **result.params, **found}
        for metric in self.spec_metrics:
            missing = sorted(n for n in metric.expr.names if n not in env)
            try:
                if missing:
                    raise SpecError(f"{', '.join(missing)} not known for this variant")
                got = metric.expr.evaluate(dict(env))
                if isinstance(got, bool) or not isinstance(got, (int, float)) or not math.isfinite(got):
                    raise SpecError(f"its value is {got!r}, not a finite number")
            except SpecError as e:
                result.status = "invalid"
                result.message = f"metric '{metric.name}' (line {metric.expr.loc.line}): {e.message}"
                result.metrics = found
                return result
            found[metric.name] = env[metric.name] = float(got)
        result.metrics = found
        if self.value(result) is None:
            result.status = "invalid"
            error = (result.measured or {}).get("energy_error")
            result.message = f"the objective {self.goal.name} is not known for this variant: " + (
                f"no energy measurement ({error or 'NVML was not asked'})"
                if self.goal.name in ENERGY
                else "the loop's work is not a number at these sizes"
            )
        return result

    def builtin(self, time_ms: float, measured: Mapping[str, Any] | None) -> dict[str, float]:
        seconds = time_ms * 1e-3
        out = {"time_ms": time_ms, "time_s": seconds}
        for name, figure in (("flops", self.work.flops), ("bytes", self.work.bytes), ("bound_ms", self.bound)):
            if figure is not None:
                out[name] = float(figure)
        out.update(rates(out, time_ms))
        for name in ("energy_j", "power_w"):
            if measured and measured.get(name) is not None:
                out[name] = float(measured[name])
        if "energy_j" in out:
            out["edp"] = out["energy_j"] * seconds
        return out

    def value(self, result: Result) -> float | None:
        if result.status not in RANKED or result.time_ms is None:
            return None
        if self.goal.is_time:
            return result.time_ms
        return (result.metrics or {}).get(self.goal.name)

    def cost(self, result: Result) -> float:
        """What the search minimises: the objective's value, negated where more is better; inf
        where it has none."""
        v = self.value(result)
        return math.inf if v is None else (-v if self.goal.maximise else v)

    def close(self, result: Result, best: Result, band: float) -> bool:
        """Whether ``result`` is within ``band`` (a ratio) of ``best`` by the objective."""
        v, b = self.value(result), self.value(best)
        if v is None or b is None:
            return False
        if self.goal.maximise:
            return v * band >= b
        return v <= band * b

    def with_samples(self, result: Result, samples: list[float]) -> Result:
        """``result`` with other samples of its measure, its metrics computed anew."""
        return self.assess(dataclasses.replace(result.with_samples(samples)))
