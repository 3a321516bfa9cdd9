"""What a tune chose: each region's winner at each size, the regions run together as the tuned
file will run them, and the ``tune --json`` summary."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from typing import Any

from orcu.driver.tuning import RegionTuning, objective_text
from orcu.driver.writeback import Choice, composed_region
from orcu.execution.result import STATUSES, Result
from orcu.execution.runners import Runner
from orcu.planning.program import Program


def choices(program: Program, tunings: list[RegionTuning]) -> list[list[Choice]] | None:
    """The best configuration per region and input size; None if some pair has no ok variant."""
    per_region: list[list[Choice]] = [[] for _ in program.nests]
    for t in tunings:
        best = t.best
        if best is None:
            return None
        per_region[t.region].append(Choice(best.params, best.inputs, best.time_ms, best.measure, objective_text(t)))
    return per_region


def run_together(program: Program, runner: Runner, r: int, choices: Mapping[int, Choice]) -> Result:
    """Region ``r`` run as the tuned file runs it (each loop at its choice, data kept on the
    device across them), checked against the region as written."""
    program = program.of_nest(program.hosts[r].nests[0])
    first = program.hosts[r].nests[0]
    whole, codes = composed_region(program, r, choices)
    return runner.whole_region(program, r, choices[first].params, dict(choices[first].inputs), whole, codes)


def together(program: Program, runner, best: list[list[Choice]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Each loop was checked alone; a region that runs several (or one in a host loop) runs
    them together in the tuned file, its arrays kept on the device across them: run it so,
    at every tuned input size, against the region as written. (What failed, said; each such
    region's run: its line, input sizes, kernel and total ms, as ``tune --json`` reports it.)"""
    problems, measured = [], []
    for r, host in enumerate(program.hosts):
        if not host.repeated:
            continue
        line = program.src.location(program.regions[r].start).line
        for j in range(len(best[host.nests[0]])):
            result = run_together(program, runner, r, {k: best[k][j] for k in host.nests})
            if result.status != "ok":
                problems.append(
                    f"the loops of the Loop region at line {line} each passed alone, but not together as the "
                    f"tuned file runs them ({result.status}: {result.message})"
                )
                continue
            measured.append(
                {
                    "line": line,
                    "inputs": dict(best[host.nests[0]][j].inputs),
                    "kernel_ms": statistics.median(result.kernel_ms) if result.kernel_ms else None,
                    "total_ms": statistics.median(result.total_ms) if result.total_ms else None,
                }
            )
    return problems, measured


def summary(
    program: Program, tunings: list[RegionTuning], output: str | None, backend: str, device: str
) -> dict[str, Any]:
    """The ``tune --json`` object (docs/commands.md); ``per_input`` when several sizes were tuned."""
    regions = []
    for k, nest in enumerate(program.nests):
        mine = [t for t in tunings if t.region == k]
        entries = [_entry(t) for t in mine]
        statuses: Counter = Counter()
        for t in mine:
            statuses.update(t.statuses)
        region = {
            "name": f"orcu_{nest.name}",
            "line": nest.loc.line,
            "best": entries[-1]["best"],  # with several sizes: the last one's, which other sizes fall back to
            "evaluated": {
                "new": sum(t.new for t in mine),
                "cached": sum(t.cached for t in mine),
                "same_build": sum(t.same_build for t in mine),
            },
            "statuses": {s: statuses[s] for s in STATUSES if statuses[s]},
            "strategy": mine[0].strategy if mine else None,
        }
        if len(entries) > 1:
            region["per_input"] = entries
        regions.append(region)
    return {"file": program.src.path, "output": output, "backend": backend, "device": device, "regions": regions}


def _entry(t: RegionTuning) -> dict[str, Any]:
    best = t.best
    entry: dict[str, Any] = {
        "inputs": t.inputs,
        "best": None,
        "statuses": t.statuses,
        "evaluated": {"new": t.new, "cached": t.cached, "same_build": t.same_build},
        "space": t.space,
    }
    if best is not None:
        entry["best"] = {
            "params": {n: best.params[n] for n in t.parameters},
            "time_ms": best.time_ms,
            "measure": best.measure,
            "metrics": best.metrics,
            "kernel_ms": statistics.median(best.kernel_ms) if best.kernel_ms else None,
            "total_ms": statistics.median(best.total_ms) if best.total_ms else None,
            "status": best.status,
            "spread": None if t.spread is None else round(t.spread, 4),
            "no_effect": list(t.no_effect),
            "notes": list(t.notes),
        }
        if t.checked is not None:  # a prediction: whether a run checked it, and where
            entry["best"]["checked"] = t.checked
            entry["best"]["check_note"] = t.check_note
    return entry
