"""One tune, from a typed request to what it did: the program loaded for its backend and
device, its regions searched (tuning.py), the model's winners checked where nothing ran them,
the regions run together, and the tuned file written. ``orcu.tune`` (api.py) makes the
request from its arguments; the command line calls that."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orcu.device import orcu_home
from orcu.driver.chosen import choices, summary, together
from orcu.driver.database import Database
from orcu.driver.outcomes import Tuning, region_result
from orcu.driver.predictions import check_predictions
from orcu.driver.preflight import preflight
from orcu.driver.progress import Progress
from orcu.driver.target import (
    check_spec_commands,
    check_writable,
    executor_for,
    input_lists,
    load_for_target,
    measures_energy,
    output_path,
    ranking_measure,
    ranking_objective,
    run_spec_command,
    say,
    say_left_out,
    target_of,
    unchecked_lines,
    write_tuned,
)
from orcu.driver.tuning import tune as search_regions
from orcu.driver.writeback import Provenance, fragment_path, tuned_source
from orcu.errors import UsageError
from orcu.execution.backends import AUTO, EMULATE
from orcu.execution.backends import backend as backend_of
from orcu.execution.buildflags import foreign_arch
from orcu.execution.runners import Runner
from orcu.execution.toolchain import gxx
from orcu.planning.space import settings_text


@dataclass(frozen=True)
class TuneRequest:
    """What ``orcu.tune`` was asked (its docstring says what each means), checked."""

    path: str | os.PathLike
    budget: int | None = None
    time_limit: float | None = None
    backend: str = AUTO
    search: str | None = None
    inputs: dict[str, Any] | None = None
    device_profile: str | None = None
    output: str | os.PathLike | None = None
    spec: str | None = None
    seed: int = 0
    jobs: int | None = None
    measure: str | None = None
    strip: bool = False
    unchecked: bool = False
    trust_spec: bool = False
    objective: str | None = None
    gpus: str | None = None
    cluster: str | None = None
    progress: bool | Callable = True

    def __post_init__(self) -> None:
        if any(v is not None and v <= 0 for v in (self.budget, self.time_limit, self.jobs)):
            raise UsageError("budget, time_limit and jobs must be above 0")


@dataclass
class _Setting:
    """The tune's program and where it runs, as loaded and chosen before anything is built."""

    program: Any
    backend: str
    device: Any
    compiler: str
    device_text: str
    context: Any
    output: str
    home: Path


def run(request: TuneRequest) -> Tuning:
    """Tune every region at every input size and write the tuned file: what was done."""
    home = orcu_home(request.path)  # before anything: a state directory that cannot be used is said at once
    setting = _prepare(request, home)
    program = setting.program
    measure = ranking_measure(program, request.measure, setting.backend)
    goal = ranking_objective(program, request.objective, setting.backend)
    tunings, best, errors, together_runs = _search(request, setting, measure, goal)
    not_run = [
        f"{t.name} {settings_text(t.inputs)}".strip() for t in tunings if t.checked is False and t.best is not None
    ]
    if best is not None and not_run:
        for line in unchecked_lines(not_run, request.unchecked):
            (say if request.unchecked else errors.append)(line)
        if not request.unchecked:
            best = None
            errors.append("orcu: error: no output written: the results are in the database")
    result = summary(
        program, tunings, setting.output if best is not None else None, setting.backend, setting.device_text
    )
    if together_runs:
        result["together"] = together_runs
    if program.fragment and best is not None:
        result["fragment"] = fragment_path(setting.output)
    written = _write(request, setting, best, bool(not_run)) if best is not None else []
    if best is None:
        errors += _nothing_passed(tunings)
    file = str(Path(request.path).resolve())
    regions = [region_result(file, t, setting.backend, setting.device_text, setting.compiler) for t in tunings]
    result["objective"] = goal.text()
    return Tuning(
        str(request.path),
        setting.backend,
        setting.device_text,
        measure,
        regions,
        written,
        errors,
        after_notes(tunings, setting.backend),
        result,
        setting.device,
        goal,
    )


def _prepare(request: TuneRequest, home: Path) -> _Setting:
    """Load the program for its backend and device, and check what orcu check checks."""
    program, backend, device = load_for_target(
        request.path, request.spec, input_lists(request.inputs), request.backend, request.device_profile
    )
    check_spec_commands(program, request.trust_spec)
    say_left_out(program, preflight(program, device))  # what orcu check checks, before anything is built
    if backend_of(backend).on_gpu:
        for note in foreign_arch(program, device):
            say(note)
    compiler, device_text, context = target_of(program, request.path, backend, device)
    output = output_path(request.path, request.output)
    check_writable(output, str(request.path), program)
    return _Setting(program, backend, device, compiler, device_text, context, output, home)


def _limits(request: TuneRequest, spec) -> tuple[int | None, float | None]:
    """The budget and the time limit: the request's or the spec's, the smaller of the two."""
    budgets = [b for b in (request.budget, spec.arg("search", "total_runs")) if b is not None]
    minutes = spec.arg("search", "time_limit")
    limits = [t for t in (request.time_limit, None if minutes is None else 60.0 * minutes) if t is not None]
    return (min(budgets) if budgets else None), (min(limits) if limits else None)


def _search(request: TuneRequest, setting: _Setting, measure: str, goal) -> tuple[list, Any, list[str], list[dict]]:
    """Search every region, check the model's winners where nothing ran them, and run the regions
    together: (the region tunings, the choices to write or None, the errors, the runs together)."""
    program, backend, home = setting.program, setting.backend, setting.home
    budget, time_limit = _limits(request, program.spec)
    executor = executor_for(request.path, home, backend, request.gpus, request.cluster)
    runner = Runner(
        backend,
        setting.device,
        home / "build",
        request.jobs or max(os.cpu_count() or 1, executor.slots),
        measure=measure,
        energy=measures_energy(program, goal),
        executor=executor,
    )
    runners = [runner]
    db = Database(home / "results.sqlite")
    try:
        run_spec_command(program, "prebuild_command", request.trust_spec)
        display = Progress(sys.stderr, executor if executor.slots > 1 else None) if request.progress is True else None
        with display or nullcontext():
            progress = request.progress
            update = display.update if display else (progress if callable(progress) else None)
            tunings = search_regions(
                program,
                runner,
                db,
                setting.context,
                objective=goal,
                search=request.search,
                budget=budget,
                time_limit=time_limit,
                seed=request.seed,
                progress=update,
                started=display.start if display else None,
                say=say,
            )
        if backend_of(backend).winners_need_a_check and gxx() is None:
            for t in tunings:
                t.checked = False
                t.check_note = "no C++ compiler (g++) runs the emulation that checks the model's winners"
        elif backend_of(backend).winners_need_a_check:  # they run in the emulation before anything is written
            runners.append(Runner(EMULATE.name, setting.device, home / "build", request.jobs, measure="model"))
            emulated = target_of(program, request.path, EMULATE.name, setting.device)[2]
            check_predictions(program, tunings, runners[-1], db, setting.context, emulated, progress=say)
        run_spec_command(program, "postbuild_command", request.trust_spec)
        best = choices(program, tunings)
        problems, measured = (
            together(program, runner, best) if best is not None and backend_of(backend).runs else ([], [])
        )
    finally:  # interrupted too: each finished evaluation is in the database already
        db.close()
        for r in runners:
            r.close()
    errors = [f"orcu: error: {problem}; no output written" for problem in problems]
    return tunings, (None if problems else best), errors, measured


def _write(request: TuneRequest, setting: _Setting, best, unchecked: bool) -> list[str]:
    """Write the tuned file (and its header): the paths written."""
    provenance = Provenance(device=setting.device_text, compiler=setting.compiler, unchecked=unchecked)
    text, _ = tuned_source(setting.program, best, strip=request.strip, provenance=provenance, output=setting.output)
    try:
        return write_tuned(
            setting.program, best, setting.output, str(request.path), setting.backend, request.strip, text, provenance
        )
    except UsageError as e:  # the results are safe in the database all the same
        raise UsageError(
            f"{e.message}; the results are in the database: orcu apply {request.path} -o OTHER writes them elsewhere"
        ) from None


def _nothing_passed(tunings) -> list[str]:
    out = []
    for t in tunings:
        if t.best is None:
            counts = ", ".join(f"{n} {s}" for s, n in t.statuses.items()) or "nothing evaluated"
            out.append(f"orcu: error: {t.name} {t.inputs or ''}: no variant passed ({counts}); no output written")
    return out


# A GPU time under which launches, clocks and the timer's resolution are as large as what tells
# variants apart (a kernel launch alone costs 2 to 5 microseconds).
SMALL_KERNEL_MS = 0.02


def _small_winners(tunings, backend: str) -> list[str]:
    """One warning a region whose winners are too fast to tell variants apart, naming its sizes:
    predicted by the model, or timed on a GPU (kernels alone); a launch's time where the region
    launches its kernel several times a call."""
    from orcu.planning.space import settings_text

    model: dict[str, list] = {}
    timed: dict[str, list] = {}
    repeated = set()  # regions whose kernel runs several times a call (a time loop): its launches are judged
    for t in tunings:
        best = t.best
        if best is None or best.time_ms is None:
            continue
        launches = _launches(best)
        if best.time_ms / launches >= SMALL_KERNEL_MS:
            continue
        if launches > 1:
            repeated.add(t.name)
        if best.measure == "model":
            model.setdefault(t.name, []).append((settings_text(t.inputs), best.time_ms / launches))
        elif best.measure == "kernel" and backend_of(backend).on_gpu:
            timed.setdefault(t.name, []).append((settings_text(t.inputs), best.time_ms / launches))
    out = []
    for name, found in model.items():
        out.append(
            f"orcu: warning: {_at_sizes(name, found)}: the model predicts the winner's kernels at {_micro(found)}"
            + (" a launch" if name in repeated else "")
            + ", "
            f"a few launches' cost: {_these(found)} its predictions differ by less than their own error, so its "
            "ranking says little; tune at the sizes production runs (input_params), or on a GPU"
        )
    for name, found in timed.items():
        out.append(
            f"orcu: warning: {_at_sizes(name, found)}: the winner's kernels run in {_micro(found)}"
            + (" a launch" if name in repeated else "")
            + f": {_these(found)} "
            "a launch's cost and the timer's noise are as large as the differences between variants, and "
            "the choice may not hold at the sizes production runs; tune at those sizes (input_params)"
        )
    return out


def _launches(result) -> int:
    """The kernel launches of one call of the region: as the GPU's harness counted them, else as
    the model predicted them (the host loops around the kernel)."""
    counted = (result.measured or {}).get("launches_a_call")
    predicted = ((result.figures or {}).get("model") or {}).get("launches", 1)
    return max(1, counted or predicted)


def _at_sizes(name: str, found: list[tuple[str, float]]) -> str:
    return f"{name} {'; '.join(size for size, _ in found)}".strip()


def _these(found: list[tuple[str, float]]) -> str:
    return "at this size" if len(found) == 1 else "at these sizes"


def _micro(found: list[tuple[str, float]]) -> str:
    low, high = min(ms for _, ms in found), max(ms for _, ms in found)
    return f"{1000 * low:.1f} us" if len(found) == 1 else f"{1000 * low:.1f} to {1000 * high:.1f} us"


def after_notes(tunings, backend: str) -> list[str]:
    """What the command line says after its table: parameters that changed nothing, codegen's
    notes, where predictions were checked, unsteady winners, winners too fast to tell apart."""
    from orcu.planning.space import settings_text

    out = []
    if any(t.best is not None and t.best.measure == "model" for t in tunings):
        out.append(
            "orcu: note: the ranking above is orcu's performance model's, not a GPU's: no GPU ran these variants"
            + backend_of(backend).check
        )
    out += _small_winners(tunings, backend)
    for t in tunings:
        where = f"{t.name} {settings_text(t.inputs)}".strip()
        if t.no_effect:
            out.append(
                f"orcu: note: {where}: {', '.join(t.no_effect)} changed nothing in the winner's build (the table "
                f"leaves {'it' if len(t.no_effect) == 1 else 'them'} out)"
            )
        out += [f"orcu: note: {where}: {note}" for note in t.notes]
        if t.check_note:
            out.append(f"orcu: note: {where}: {t.check_note}")
        if t.unsteady:
            out.append(
                f"orcu: warning: {t.name} {settings_text(t.inputs) or ''}: the winner's times still spread over "
                f"{100 * t.spread:.0f}% of their median after {t.runs} runs (interquartile range): other work on "
                "the machine may have disturbed them; tune again on a quiet machine before relying on the choice"
            )
    return out
