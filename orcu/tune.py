"""``orcu tune``: evaluate each region's configurations for each input size, keep the fastest.

A region is tuned over the performance parameters it uses (those in its transform and
the build command); each input-size combination is tuned separately and the tuned file
dispatches on size. The search here is exhaustive, in space order, within a budget.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from .program import Program
from .report import input_space, performance_space
from .runners import STATUSES, Result, Runner
from .writeback import Choice, region_parameters


@dataclass
class RegionTuning:
    region: int
    name: str
    line: int
    inputs: dict[str, Any]
    results: list[Result] = field(default_factory=list)

    @property
    def best(self) -> Result | None:
        ok = [r for r in self.results if r.status == "ok"]
        return min(ok, key=lambda r: r.time_ms) if ok else None

    @property
    def statuses(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {s: counts[s] for s in STATUSES if counts[s]}


def region_configs(program: Program, region: int, inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """The distinct settings of the region's parameters over the valid configurations, each
    completed by the first valid configuration that has it."""
    names = region_parameters(program, program.nests[region])
    seen: set[tuple] = set()
    out = []
    for config in performance_space(program, inputs).configs():
        key = tuple(repr(config[n]) for n in names)
        if key not in seen:
            seen.add(key)
            out.append(config)
    return out


def tune(program: Program, runner: Runner, budget: int | None = None,
         progress: Callable[[RegionTuning, Result], None] | None = None) -> list[RegionTuning]:
    """Every (region, input size) pair gets an equal share of ``budget`` evaluations (at least one)."""
    sizes = list(input_space(program).configs()) or [{}]
    pairs = [(k, inputs) for k in range(len(program.nests)) for inputs in sizes]
    share = None if budget is None else max(1, math.ceil(budget / len(pairs)))
    out = []
    for k, inputs in pairs:
        nest = program.nests[k]
        tuning = RegionTuning(k, f"orcu_{nest.name}", nest.loc.line, dict(inputs))
        configs = region_configs(program, k, inputs)[:share]
        for result in runner.evaluate(program, k, [(c, dict(inputs)) for c in configs]):
            tuning.results.append(result)
            if progress is not None:
                progress(tuning, result)
        out.append(tuning)
    return out


def choices(program: Program, tunings: list[RegionTuning]) -> list[list[Choice]] | None:
    """The best configuration per region and input size; None if some pair has no ok variant."""
    per_region: list[list[Choice]] = [[] for _ in program.nests]
    for t in tunings:
        best = t.best
        if best is None:
            return None
        per_region[t.region].append(Choice(best.params, best.inputs, best.time_ms))
    return per_region


def summary(program: Program, tunings: list[RegionTuning], output: str | None, backend: str, device: str) -> dict[str, Any]:
    """The ``tune --json`` object of DESIGN.md §5; ``per_input`` when several sizes were tuned."""
    regions = []
    for k, nest in enumerate(program.nests):
        mine = [t for t in tunings if t.region == k]
        entries = [_entry(program, t) for t in mine]
        statuses: Counter = Counter()
        for t in mine:
            statuses.update(t.statuses)
        region = {
            "name": f"orcu_{nest.name}",
            "line": nest.loc.line,
            "best": entries[0]["best"] if len(entries) == 1 else _overall(entries),
            "evaluated": {"new": sum(len(t.results) for t in mine), "cached": 0},
            "statuses": {s: statuses[s] for s in STATUSES if statuses[s]},
        }
        if len(entries) > 1:
            region["per_input"] = entries
        regions.append(region)
    return {"file": program.src.path, "output": output, "backend": backend, "device": device, "regions": regions}


def _entry(program: Program, t: RegionTuning) -> dict[str, Any]:
    best = t.best
    names = region_parameters(program, program.nests[t.region])
    if best is None:
        return {"inputs": t.inputs, "best": None, "statuses": t.statuses}
    return {
        "inputs": t.inputs,
        "best": {"params": {n: best.params[n] for n in names}, "time_ms": best.time_ms, "status": best.status},
        "statuses": t.statuses,
    }


def _overall(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """With several input sizes: the best of the last size (what other sizes fall back to)."""
    return entries[-1]["best"]
