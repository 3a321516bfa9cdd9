"""orcu from Python: the functions the command line is a thin layer over.

    import orcu
    tuning = orcu.tune("axpy.c", budget=20)          # every variant checked against the C code
    print(tuning.regions[0].best.params, tuning.written)
    tuning.plot("plots")                              # convergence, parameters, model, roofline
    frame = orcu.results("axpy.c").to_dataframe()     # every evaluation, with pandas

Each function raises ``orcu.OrcuError`` with the message the command line prints (``path:line:col:
error: ...``); notes and warnings go to stderr as the command line says them. ``apply`` raises
``NotWritten`` (exit status 1 on the command line) where results are missing or unchecked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from orcu.driver.explain import explain_variant
from orcu.driver.outcomes import (
    Check,
    Evaluation,
    RegionResult,
    Results,
    Tuning,
    evaluation_from_row,
)
from orcu.driver.session import TuneRequest, run
from orcu.driver.settings import chosen_settings, taken
from orcu.driver.target import (
    check_measure,
    check_spec_commands,
    check_writable,
    device_profile_of,
    input_lists,
    load_for_target,
    load_program,
    output_path,
    ranking_measure,
    say,
    target_of,
    unchecked_lines,
    write_tuned,
)
from orcu.errors import NotWritten, UsageError, did_you_mean
from orcu.execution.backends import EMULATE

__all__ = [
    "Check",
    "Evaluation",
    "RegionResult",
    "Results",
    "Tuning",
    "apply",
    "check",
    "emit",
    "export",
    "import_from",
    "results",
    "tune",
]


# -- check and emit ------------------------------------------------------------------------------


def check(
    path: str | os.PathLike,
    *,
    spec: str | None = None,
    inputs: dict[str, Any] | None = None,
    device_profile: str | None = None,
    trust_spec: bool = False,
) -> Check:
    """Parse an annotated file and describe its tuning problem (regions, loops, parameters, the
    space and what cannot be built); nothing is compiled or run."""
    from orcu.driver.report import summary

    device = device_profile_of(device_profile)
    program = load_program(path, spec, input_lists(inputs), device)
    check_spec_commands(program, trust_spec)
    return Check(summary(program, device))


def emit(
    path: str | os.PathLike,
    params: dict[str, Any] | None = None,
    *,
    inputs: dict[str, Any] | None = None,
    output: str | os.PathLike | None = None,
    spec: str | None = None,
    strip: bool = False,
    device_profile: str | None = None,
    explain: bool = False,
) -> str:
    """The CUDA version of the file for one configuration (``params``; unset parameters take the
    first values the constraints allow) at one input size; written to ``output`` as well when
    given (atomically, with what its build needs beside it). ``explain`` says on stderr how each
    transformation applied, the static traffic, ptxas's report and the model's prediction."""
    from orcu.driver.writeback import Choice, tuned_source
    from orcu.planning.program import load

    device = device_profile_of(device_profile)
    program = load(str(path), spec, device)
    params, inputs = params or {}, inputs or {}
    chosen = {}  # per spec: a configuration and input sizes
    for g in range(len(program.specs)):
        view = program.of_nest(program.nests_of(g)[0])
        chosen[g] = chosen_settings(view, taken(program, g, params, "--set"), taken(program, g, inputs, "--input"))
    output = None if output in (None, "-") else str(output)
    if program.fragment and output is None:
        raise UsageError(
            f"{path} is a fragment (its Loop regions stand outside functions): it becomes the tuned "
            "statements and a .cu with their GPU code; give -o FILE.cu"
        )
    choices = [Choice(*chosen[program.groups[k] if program.groups else 0]) for k in range(len(program.nests))]
    text, codes = tuned_source(program, choices, strip=strip, output=output)
    if explain:
        explain_variant(program, text, codes, [c.inputs for c in choices], device)
    if output is not None:
        check_writable(output, str(path), program)
        say(f"orcu: wrote {' and '.join(write_tuned(program, choices, output, str(path), EMULATE.name, strip, text))}")
    return text


# -- tune and apply ------------------------------------------------------------------------------


def tune(
    path: str | os.PathLike,
    *,
    budget: int | None = None,
    time_limit: float | None = None,
    backend: str = "auto",
    search: str | None = None,
    inputs: dict[str, Any] | None = None,
    device_profile: str | None = None,
    output: str | os.PathLike | None = None,
    spec: str | None = None,
    seed: int = 0,
    jobs: int | None = None,
    measure: str | None = None,
    strip: bool = False,
    unchecked: bool = False,
    trust_spec: bool = False,
    objective: str | None = None,
    gpus: str | None = None,
    cluster: str | None = None,
    progress: bool | Callable = True,
) -> Tuning:
    """Evaluate the variants of every region at every input size, each checked against the
    original C code, and write the fastest as a tuned .cu file (``output``, default FILE.tuned.cu).

    ``budget``: at most this many evaluations, shared by regions and sizes (and the spec's
    total_runs); ``time_limit``: seconds. ``backend``: "cuda" (the GPU), "emulate" (orcu's CPU
    emulation checks every variant, the performance model ranks them), "model" (compiled and
    predicted, the winners checked in the emulation), "auto" (cuda where a GPU is visible).
    ``search``: a strategy name (Portfolio, the default; Multistart, Genetic, Exhaustive, ...).
    ``inputs``: sizes in place of the spec's, a value or a list per name. ``objective``: what ranks
    the variants, ``[max:|min:]NAME`` of a metric (gflop_s, gb_s, bound_fraction, energy, edp, one
    of the spec's metrics section; default: the spec's objective, else the time). ``gpus``: "0,1",
    the GPUs that time variants side by side (default with backend "cuda": every visible GPU of
    the first one's model). ``cluster``: where builds and runs go instead of this machine, a Dask
    cluster: "local:N", "tcp://HOST:PORT", "slurm:N" (pbs, lsf...; settings from orcu.toml's
    [cluster] section). ``progress``: True shows orcu's progress on
    stderr, False nothing, a function gets (region tuning, result, origin) per evaluation.
    Results go to the results database as they come, so a tune interrupted (KeyboardInterrupt)
    resumes where it stopped."""
    request = TuneRequest(
        path,
        budget=budget,
        time_limit=time_limit,
        backend=backend,
        search=search,
        inputs=inputs,
        device_profile=device_profile,
        output=output,
        spec=spec,
        seed=seed,
        jobs=jobs,
        measure=measure,
        strip=strip,
        unchecked=unchecked,
        trust_spec=trust_spec,
        objective=objective,
        gpus=gpus,
        cluster=cluster,
        progress=progress,
    )
    return run(request)


def apply(
    path: str | os.PathLike,
    *,
    output: str | os.PathLike | None = None,
    backend: str = "auto",
    inputs: dict[str, Any] | None = None,
    measure: str | None = None,
    spec: str | None = None,
    device_profile: str | None = None,
    strip: bool = False,
    unchecked: bool = False,
) -> list[str]:
    """Write the tuned file from the results database, without tuning: the files written. Raises
    ``NotWritten`` where a region or size has no result for this code, backend, device and
    measure, or only an unchecked prediction (unless ``unchecked``)."""
    from orcu.device import orcu_home
    from orcu.driver.database import existing_database
    from orcu.driver.writeback import Choice, Provenance, tuned_source
    from orcu.execution.result import MEASURE_NAMES
    from orcu.planning.space import settings_text, sizes_of

    orcu_home(path)
    program, backend, device = load_for_target(path, spec, input_lists(inputs), backend, device_profile, runs=False)
    compiler, device_text, context = target_of(program, path, backend, device)
    measure = ranking_measure(program, measure, backend)
    output = output_path(path, output)
    check_writable(output, str(path), program)
    db = existing_database(path)
    per_region, missing, not_run, elsewhere = [], [], [], set()
    try:
        for k, nest in enumerate(program.nests):
            chosen = []
            # This machine's device and compiler first; else those the results were measured with
            # (a tune on a GPU node, imported on a build machine).
            candidates = [context(k)] + [
                replace(context(k), backend=b, device=d, compiler=c) for b, d, c in db.measured_on(f"orcu_{nest.name}")
            ]
            for sizes_k in sizes_of(program, k):
                found = next(
                    ((ctx, hit) for ctx in candidates if (hit := db.get_choice(ctx, sizes_k, measure)) is not None),
                    None,
                )
                if found is None:
                    missing.append(f"orcu_{nest.name} {sizes_k or ''}".strip())
                    continue
                if found[0] is not candidates[0]:
                    elsewhere.add((found[0].device, found[0].compiler))
                if not found[1][2]:
                    not_run.append(f"orcu_{nest.name} {settings_text(sizes_k)}".strip())
                chosen.append(Choice(found[1][0], dict(sizes_k), found[1][1], measure, found[1][3]))
            per_region.append(chosen)
    finally:
        db.close()
    if len(elsewhere) == 1:
        device_text, compiler = next(iter(elsewhere))
        say(f"orcu: note: the results were measured on {device_text} with {compiler}")
    if missing:
        raise NotWritten(
            [
                f"orcu: error: {what}: no tuning result for this code, backend, device and measure "
                f"({MEASURE_NAMES[measure]}); run orcu tune"
                for what in missing
            ]
        )
    if not_run:
        lines = unchecked_lines(not_run, unchecked)
        if not unchecked:
            raise NotWritten(lines)
        for line in lines:
            say(line)
    provenance = Provenance(device=device_text, compiler=compiler, unchecked=bool(not_run))
    text, _ = tuned_source(program, per_region, strip=strip, provenance=provenance, output=output)
    written = write_tuned(program, per_region, output, str(path), backend, strip, text, provenance)
    say(f"orcu: wrote {' and '.join(written)}")
    return written


# -- the results database -------------------------------------------------------------------------


def results(path: str | os.PathLike | None = None, *, measure: str | None = None) -> Results:
    """Every evaluation in the results database (of one annotated file, or all), oldest first.
    Each is ranked by ``measure`` where given, else by the one its tune used (model under the
    emulation, kernel time on a GPU, or the measure a choice of that region records)."""
    from orcu.driver.database import existing_database
    from orcu.driver.report import chosen, group_key

    check_measure(measure)
    db = existing_database(path)
    try:
        rows = list(db.rows(str(Path(path).resolve()) if path else None))
        by_group = chosen(db, rows)  # the measure each group's tune ranked by, first
    finally:
        db.close()
    picked = [evaluation_from_row(row, measure or by_group[group_key(row)][0]) for row in rows]
    return Results(picked, db.path)


def export(
    output: str | os.PathLike, files: Iterable[str | os.PathLike] = (), *, every: bool = False
) -> dict[str, Any]:
    """Write the tuning results of ``files`` (default: every file in the database) as JSON, for
    ``import_from`` on another machine: their choices, and with ``every`` all their evaluations.
    What was written."""
    import json

    from orcu.driver.database import existing_database, export_results
    from orcu.files import replace_atomically

    names = [str(f) for f in files]
    db = existing_database(names[0] if names else None)
    try:
        data = export_results(db, [str(Path(f).resolve()) for f in names] or None, every)
    finally:
        db.close()
    if names and not data["choices"]:
        raise UsageError(f"no tuning results for {', '.join(names)} in the results database")
    replace_atomically(Path(output), json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data


def export_t4(output: str | os.PathLike, files: Iterable[str | os.PathLike] = ()) -> list[Path]:
    """Write every evaluation of ``files`` (default: every file in the database) in the T4 format:
    a results file and its metadata (``NAME.metadata.json``) per region, input size and device;
    ``output`` itself where there is one, else ``output`` numbered. The files written."""
    import json

    from orcu.driver import t4
    from orcu.driver.database import existing_database
    from orcu.driver.report import chosen, group_key
    from orcu.files import replace_atomically

    files = [str(f) for f in files]
    names = [str(Path(f).resolve()) for f in files]
    db = existing_database(files[0] if files else None)
    try:
        rows = [r for r in db.rows() if not names or r["file"] in names]
        by_group = chosen(db, rows)
        objectives = {}  # the objective that chose each group's winner, where a tune recorded one
        for key, digest in {(group_key(r), r["context"]) for r in rows}:
            said = db.choice_objective(digest, key[1], json.loads(key[2]), by_group[key][0])
            if said:
                objectives[key] = said.partition(" = ")[0].partition(":")[2]
    finally:
        db.close()
    if not rows:
        raise UsageError(f"no evaluations {'of ' + ', '.join(names) + ' ' if names else ''}in the results database")
    docs = t4.documents(rows, by_group, objectives)
    output = Path(output)
    written = []
    for k, (_, results, described) in enumerate(docs):
        target = output if len(docs) == 1 else output.with_name(f"{output.stem}.{k + 1}{output.suffix or '.json'}")
        replace_atomically(target, json.dumps(results, indent=1) + "\n")
        replace_atomically(t4.metadata_path(target), json.dumps(described, indent=1) + "\n")
        written += [target, t4.metadata_path(target)]
    return written


def import_t4(
    path: str | os.PathLike,
    file: str | os.PathLike | None = None,
    *,
    region: str | None = None,
    inputs: dict[str, Any] | None = None,
    backend: str | None = None,
    device_profile: str | None = None,
    spec: str | None = None,
) -> tuple[int, int, Path]:
    """Put the T4 results in ``path`` (orcu's, or another tool's such as Kernel Tuner's) into the
    results database as evaluations of a region of ``file`` at one input size, so that a tune
    there evaluates none of them again: (imported, left out: outside the region's space, measured
    already, or orcu's model predictions; the database). What the metadata orcu writes names (file, region, sizes,
    backend) is the default of each argument; ``region``: its name (orcu_NAME_1) or line."""
    from orcu.driver import t4
    from orcu.driver.database import Database, database_path
    from orcu.driver.tuning import region_configs
    from orcu.driver.writeback import region_parameters
    from orcu.execution.buildflags import build_flags
    from orcu.planning.space import settings_text, sizes_of

    data, described = t4.read(path)
    origin = ((described or {}).get("metadata") or {}).get("orcu") or {}
    file = file or origin.get("file")
    if file is None:
        raise UsageError(
            f"{path}: name the annotated file the results belong to (orcu import --format t4 {path} --file FILE)"
        )
    sizes = (
        input_lists(inputs)
        if inputs
        else ({k: [v] for k, v in origin["inputs"].items()} if origin.get("inputs") else None)
    )
    program, backend, device = load_for_target(
        file, spec, sizes, backend or origin.get("backend") or "auto", device_profile, runs=False
    )
    _, _, context = target_of(program, file, backend, device)
    region = region or origin.get("region")
    k = _region_number(program, region, file)
    at = sizes_of(program, k)
    if len(at) != 1:
        raise UsageError(
            f"orcu_{program.nests[k].name} is tuned at {len(at)} input sizes "
            f"({'; '.join(settings_text(s) for s in at)}): name the one the results were measured at with --input"
        )
    inputs_k = dict(at[0])
    names = region_parameters(program.of_nest(k), program.nests[k])
    configs = region_configs(program, k, inputs_k, device)
    ctx, scale = context(k), t4.time_scale(data)
    spec_ = program.of_nest(k).spec
    kept = left = 0
    db = Database(database_path(file))
    try:
        for entry in data["results"]:
            missing = [n for n in names if n not in entry["configuration"]]
            if missing:
                raise UsageError(
                    f"{path}: a configuration has no value of {', '.join(missing)}, parameters of "
                    f"orcu_{program.nests[k].name} (it has {', '.join(entry['configuration']) or 'none'})"
                )
            config = t4.matching(entry["configuration"], names, configs)
            if config is None:
                left += 1
                continue
            key = ctx.key(config, inputs_k, build_flags(spec_.build_command, config, backend))
            if db.get(key) is not None:  # orcu's own result, or one imported before, stays
                left += 1
                continue
            result = t4.result_of(entry, dict(config), inputs_k, scale, f"t4:{Path(path).name}")
            if result is None:
                left += 1
                continue
            db.put(key, ctx, result)
            kept += 1
    finally:
        db.close()
    return kept, left, db.path


def _region_number(program, region: str | None, file) -> int:
    """The region named ``region`` (orcu_NAME, NAME or its line), or the file's only one."""
    names = [f"orcu_{n.name}" for n in program.nests]
    if region is None:
        if len(names) == 1:
            return 0
        raise UsageError(f"{file} has {len(names)} regions ({', '.join(names)}): name one with --region")
    for k, nest in enumerate(program.nests):
        if region in (names[k], nest.name, str(nest.loc.line)):
            return k
    raise UsageError(f"{file} has no region '{region}'{did_you_mean(region, names)} (its regions: {', '.join(names)})")


def import_from(path: str | os.PathLike) -> tuple[int, int, Path]:
    """Add the results ``export`` wrote to this machine's database: (choices, evaluations, the
    database)."""
    import json

    from orcu.driver.database import Database, database_path, import_results

    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {path}: {e}") from None
    db = Database(database_path())
    try:
        choices, evaluations = import_results(db, data)
    finally:
        db.close()
    return choices, evaluations, db.path
