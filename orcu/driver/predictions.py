"""The model's winners checked: where --backend model ranked variants that nothing ran, each
region's best predictions run in the emulation, one after another, until one passes."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from orcu.driver.database import Context, Database
from orcu.driver.tuning import RegionTuning, objective_text
from orcu.execution.buildflags import build_flags
from orcu.execution.result import WRONG, Result
from orcu.execution.runners import Runner, searched
from orcu.planning.program import Program
from orcu.planning.space import settings_text, sizes_of

CHECKED_PREDICTIONS = 8  # the model's best variants run in emulation, one after another, before giving up


EMULATION_WORK = 2e9  # thread operations and accesses past which the emulation checks a smaller size (minutes here)


def check_predictions(
    program: Program,
    tunings: list[RegionTuning],
    checker: Runner,
    db: Database,
    context: Callable[[int], Context],
    check_context: Callable[[int], Context],
    progress: Callable[[str], None] = lambda line: None,
) -> None:
    """--backend model ranks variants it compiled and never ran: before anything is written, each region and
    input size's winner runs in orcu's CPU emulation (``checker``) against the original code. A
    winner that fails gives way to the next best prediction; one that the emulation cannot run at
    its size in time (or memory) is checked at the smallest input size instead, and says so. What
    the checks find goes to the database under the checker's context, as its own tune would put it,
    and the choices orcu apply reads are marked checked. ``context``: the tune's contexts;
    ``check_context``: the checker's."""
    for t in tunings:
        sizes = sorted(sizes_of(program, t.region), key=_work)
        ctx = check_context(t.region)
        t.checked = False
        for candidate in _predictions(t)[:CHECKED_PREDICTIONS]:
            work = _emulation_work(candidate.figures)
            if work > EMULATION_WORK:  # hours in the emulation: not tried at this size
                result = Result(
                    "timeout",
                    candidate.params,
                    t.inputs,
                    message=f"about {work:.2g} thread operations and accesses; the emulation takes minutes past {EMULATION_WORK:.0e}",
                )
            else:
                result = _checked(program, t.region, candidate.params, t.inputs, checker, db, ctx)
            where = t.inputs
            if result.status in ("timeout", "invalid"):  # too slow or too big for the emulation at this size
                too_big = f"{result.status}: {result.message.splitlines()[0] if result.message else ''}"
                smaller = [s for s in sizes if _work(s) < _work(t.inputs)]
                if not smaller:
                    t.check_note = (
                        f"the emulation could not check it at {settings_text(t.inputs)} ({too_big}) and no "
                        "smaller size is tuned"
                    )
                    break
                where = smaller[0]
                result = _checked(program, t.region, candidate.params, where, checker, db, ctx)
            progress(
                f"orcu: checking the prediction for {t.name} {settings_text(t.inputs)} [{settings_text(candidate.params)}]"
                f"{'' if where is t.inputs else f' at {settings_text(where)}'}: {result.status}"
            )
            if result.status == "ok":
                t.final, t.checked = candidate, True
                if where is not t.inputs:
                    t.check_note = (
                        f"checked at {settings_text(where)} in the emulation: it cannot run "
                        f"{settings_text(t.inputs)} here ({too_big})"
                    )
                break
            if result.status in WRONG:  # the prediction was of a wrong variant: it ranks no more
                t.results = [
                    dataclasses.replace(r, status=result.status, message=result.message)
                    if r.params == candidate.params
                    else r
                    for r in t.results
                ]
        measure = t.best.measure if t.best is not None else checker.measure
        tuned = context(t.region)
        if t.checked:
            db.put_choice(
                tuned, t.inputs, t.final.params, t.final.time_ms, measure, checked=True, objective=objective_text(t)
            )
        elif t.best is not None:
            db.put_choice(
                tuned, t.inputs, t.best.params, t.best.time_ms, measure, checked=False, objective=objective_text(t)
            )
        else:
            db.drop_choice(tuned, t.inputs, measure)


def _predictions(t: RegionTuning) -> list[Result]:
    """The region's predicted variants, best first, each configuration once (one met twice, cached
    and evaluated now, is checked once)."""
    ranked = sorted(
        (r for r in t.results if r.status == "predicted" and t.ranking.value(r) is not None), key=t.ranking.cost
    )
    unique, seen = [], set()
    for r in ranked:
        if (key := repr(sorted(r.params.items()))) not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def _emulation_work(figures: dict[str, Any] | None) -> float:
    """What a variant costs the emulation, from its static figures: its threads' operations and
    global accesses (a warp request is 32 threads' accesses). 0 where there are no figures."""
    if not figures:
        return 0.0
    requests = sum(f["requests"] for f in figures.get("global", []) + figures.get("fills", []))
    return figures.get("operations", 0) + 32 * requests


def _work(inputs: dict[str, Any]) -> float:
    """How big an input size is, to find a smaller one: the product of its numbers."""
    return math.prod(float(v) for v in inputs.values() if isinstance(v, (int, float)) and not isinstance(v, bool))


def _checked(
    program: Program, region: int, params: dict, inputs: dict, checker: Runner, db: Database, ctx: Context
) -> Result:
    """The checker's result for one variant, from the database when it has one."""
    program = program.of_nest(region)
    key = ctx.key(
        searched(program, region, params), inputs, build_flags(program.spec.build_command, params, checker.backend)
    )
    known = db.get(key, checker.measure)
    if known is not None and known.status != "timeout":
        return known
    result = next(checker.evaluate(program, region, [(params, dict(inputs))]))
    db.put(key, ctx, result)
    return result
