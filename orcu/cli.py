"""``orcu`` command line: check | emit | tune | apply | report | devices."""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from pathlib import Path
from typing import Any

from . import __version__
from .errors import OrcuError, UsageError, did_you_mean


def _profile_device(args):
    """The device profile check and emit read: --device-profile, else the default."""
    from .device import DEFAULT_PROFILE, profile

    return profile(args.device_profile or DEFAULT_PROFILE)


def _cmd_check(args) -> int:
    from .report import check_text, summary

    device = _profile_device(args)
    program = _load(args, device)
    _check_spec_commands(program, args.trust_spec)
    s = summary(program, device)
    if args.json:
        print(json.dumps(s, indent=2, default=str))
    else:
        print(check_text(s, explain=args.explain))
    return 0


def _assignments(pairs: list[str], params, option: str, other: tuple[str, list[str]]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs -> values, each one of its parameter's listed values."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not eq or not name:
            raise UsageError(f"{option} expects NAME=VALUE, got '{pair}'")
        if name not in by_name:
            hint = f" (it is set with {other[0]})" if name in other[1] else did_you_mean(name, by_name)
            raise UsageError(f"{option}: '{name}' is not a parameter here{hint}")
        values = by_name[name].values
        matches = [v for v in values if text in (str(v), repr(v))]
        if not matches:
            shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values[:12])
            more = ", ..." if len(values) > 12 else ""
            raise UsageError(f"{option}: {text!r} is not one of the values of '{name}': {shown}{more}")
        out[name] = matches[0]
    return out


def _chosen(program, sets: list[str], inputs: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The configuration and input sizes ``emit`` writes: unset ones take the first valid value."""
    from .space import input_space, performance_space

    spec = program.spec
    fixed_inputs = _assignments(inputs, spec.input_params, "--input", ("--set", spec.performance_names))
    fixed = _assignments(sets, spec.performance_params, "--set", ("--input", spec.input_names))
    space = input_space(program)
    chosen_inputs = space.first_matching(fixed_inputs)
    if chosen_inputs is None:
        raise UsageError(f"no input combination with {_pairs(fixed_inputs)} satisfies the input constraints")
    perf = performance_space(program, chosen_inputs)
    params = perf.first_matching(fixed)
    if params is None:
        names = ", ".join(f"{c.name} ({c.expr.text.strip()})" for c in spec.performance_constraints)
        raise UsageError(f"no configuration with {_pairs(fixed)} satisfies the constraints: {names}")
    return params, chosen_inputs


def _pairs(values: dict[str, Any]) -> str:
    from .space import settings_text

    return settings_text(values) or "these values"


def _check_spec_commands(program, trusted: bool) -> None:
    """The spec's build flags and libs pass orcu's allowlist unless the user trusts the spec;
    its prebuild and postbuild commands run only then (said once otherwise). Arguments orcu
    does not act on are said too."""
    from .flags import check_build_flags
    from .spec.unused import unused_notes

    for line in unused_notes(program.spec):
        print(line, file=sys.stderr)
    if trusted:
        return
    check_build_flags(program.spec, program.src)
    commands = [name for name in ("prebuild_command", "postbuild_command") if program.spec.arg("build", name)]
    if commands:
        print(f"orcu: warning: the spec's {' and '.join(commands)} {'was' if len(commands) == 1 else 'were'} not run: "
              "commands from a spec run only with --trust-spec", file=sys.stderr)


def _left_out(program, limits) -> None:
    """A note per region and input size whose configurations some cannot be built (preflight)."""
    from .space import input_space, settings_text

    sizes = list(input_space(program).configs()) or [{}]
    for nest, per_input in zip(program.nests, limits):
        for inputs, m in zip(sizes, per_input):
            if m.removed:
                where = f" {settings_text(inputs)}" if inputs else ""
                print(f"orcu: note: orcu_{nest.name}{where}: {m.removed} of {m.of} configurations cannot be built and are left "
                      f"out (they break: {'; '.join(m.reasons)})", file=sys.stderr)


def _run_spec_command(program, name: str, trusted: bool) -> None:
    """Orio's prebuild_command (before the builds) or postbuild_command (after them), through a
    shell in the file's directory, for a trusted spec."""
    import subprocess

    command = program.spec.arg("build", name)
    if not trusted or not command:
        return
    proc = subprocess.run(command, shell=True, cwd=Path(program.src.path).resolve().parent)
    if proc.returncode != 0:
        raise UsageError(f"the spec's {name} failed (exit code {proc.returncode}): {command}")


def _cmd_emit(args) -> int:
    from .program import load
    from .source import ENCODING
    from .space import settings_text
    from .writeback import Choice, tuned_source

    program = load(args.file, args.spec, _profile_device(args))
    params, inputs = _chosen(program, args.set, args.input)
    output = None if args.output in (None, "-") else args.output
    if program.fragment and output is None:
        raise UsageError(f"{args.file} is a fragment (its Loop regions stand outside functions): it becomes the tuned "
                         "statements and a .cu with their GPU code; give -o FILE.cu")
    choices = [Choice(params, inputs)] * len(program.nests)
    text, codes = tuned_source(program, choices, strip=args.strip, output=output)
    if args.explain:
        from .model import of_variant

        device = _profile_device(args)
        resources = _kernel_resources(program, text, device)
        for k, code in enumerate(codes):
            settings = settings_text({k: v for k, v in code.values.items() if v not in (None, {})})
            print(f"{code.host}: {settings}", file=sys.stderr)
            for note in code.notes or ["every requested transformation applies"]:
                print(f"  note: {note}", file=sys.stderr)
            traffic = code.traffic(device.multiprocessors)
            for line in traffic.lines() if traffic else []:
                print(f"  {line}", file=sys.stderr)
            kernel = resources(code)
            print(f"  {_resources_line(code, kernel, device)}", file=sys.stderr)
            prediction = of_variant(program, k, traffic, inputs, device, None if isinstance(kernel, str) else kernel)
            print(f"  {prediction.line()}" if prediction else "  model: no prediction (a loop bound or a subscript is not "
                  "a number at these sizes)", file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode(**ENCODING))  # the source's bytes, UTF-8 or not
        sys.stdout.buffer.flush()
    else:
        _check_writable(output, args.file, program)
        print(f"orcu: wrote {_write_tuned(program, choices, output, args, text)}", file=sys.stderr)
    return 0


def _kernel_resources(program, text: str, device):
    """A function of a region's code: what ptxas reports of its kernel (32-bit indices) compiled
    for ``device``, or the words that say there is no report."""
    import tempfile

    from .source import ENCODING
    from .toolchain import kernel_resources, ptxas_report

    if program.fragment:
        found = "a fragment's kernels are in a .cu of their own: compile it with -Xptxas -v"
    else:
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "tuned.cu"
            source.write_bytes(text.encode(**ENCODING))
            found = ptxas_report(source, device.arch)

    def lookup(code):
        if isinstance(found, str):
            return f"no report ({found})"
        kernel = kernel_resources(found, code.host)
        return "no report of this kernel" if kernel is None else kernel

    return lookup


def _resources_line(code, kernel, device) -> str:
    """What ptxas reports of a region's kernel, and the occupancy that allows."""
    from .device import occupancy

    if isinstance(kernel, str):
        return f"ptxas: {kernel}"
    threads = code.threads
    blocks, busy, limit = occupancy(device, threads, kernel.registers, kernel.shared_bytes)
    local = "no stack frame or spills" if not (kernel.stack_bytes or kernel.spill_bytes) else \
        f"{kernel.stack_bytes} bytes of stack frame, {kernel.spill_bytes} bytes spilled"
    return (f"ptxas ({device.arch}): {kernel.registers} registers a thread, {kernel.shared_bytes} bytes of shared memory a "
            f"block, {local}; {blocks} blocks of {threads} threads per multiprocessor ({limit} bound): occupancy "
            f"{busy:.0%}")


def _search_name(text: str) -> str:
    from .spec.model import SEARCH_ALGORITHMS

    if text.lower() not in SEARCH_ALGORITHMS:
        raise argparse.ArgumentTypeError(f"unknown strategy '{text}' (known: {', '.join(sorted(set(SEARCH_ALGORITHMS.values())))})")
    return text


def _backend(requested: str, quiet: bool = False) -> str:
    from .device import gpu_visible

    if requested != "auto":
        return requested
    if gpu_visible():
        return "cuda"
    if not quiet:
        print("orcu: warning: no GPU visible: variants run in orcu's CPU emulation, which checks them; orcu's performance "
              "model ranks them by their predicted GPU time", file=sys.stderr)
    return "emulate"


def _device(backend: str, profile_name: str | None):
    from .device import DEFAULT_PROFILE, profile, query

    if backend == "cuda":
        device = query()
        if device is None:
            raise UsageError("--backend cuda: no GPU answered the device query (is the driver loaded?)")
        return device
    return profile(profile_name or DEFAULT_PROFILE)


def _compiler(backend: str) -> str:
    import subprocess

    from .toolchain import gxx, nvcc

    if backend == "model":
        return "none (orcu's performance model)"
    tool = nvcc() if backend == "cuda" else gxx()
    if tool is None:
        return "not found"
    lines = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    version = (lines[-1] if backend == "cuda" else lines[0]) if lines else tool
    return version if backend == "cuda" else f"{version} with orcu's CUDA emulation"


def _device_text(device, backend: str) -> str:
    where = {"emulate": ", emulated on the CPU", "model": ", predicted by orcu's performance model"}.get(backend, "")
    return f"{device.name} ({device.arch}{where})"


def _check_writable(output: str, source: str, program=None) -> None:
    """Before any work: the tuned file (and a fragment's tuned statements) can be written where it goes."""
    from .writeback import fragment_path

    if program is not None and program.fragment:
        _check_writable(fragment_path(output), source)
    path = Path(output)
    if path.resolve() == Path(source).resolve():
        raise UsageError(f"refusing to overwrite the input file {source}: choose another output path with -o")
    if not path.parent.is_dir():
        raise UsageError(f"cannot write {output}: there is no directory {path.parent}")
    if path.is_dir():
        raise UsageError(f"cannot write {output}: it is a directory")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write {output}: permission denied")


def _write_tuned(program, choices, output: str, args, text: str, provenance=None) -> str:
    """Write the tuned file ``text`` (and for a fragment, its tuned statements beside it); what
    was written, for the closing message."""
    from .runners import spec_defines_and_includes
    from .toolchain import model_compiler, tuned_file_problem
    from .writeback import c_header, c_header_path, fragment_path, fragment_source, size_defines, write_atomically

    # No tuned file is written that its build would refuse: the variants were built alone, the
    # file around them (the caller's functions, their signatures) only here.
    first = next(iter(choices), None)
    first = first[0] if isinstance(first, list) and first else first
    try:
        backend = getattr(args, "backend", "emulate")
        problem = tuned_file_problem(text, Path(output).name, Path(args.file).resolve().parent,
                                     model_compiler() if backend == "model" else backend, size_defines(program),
                                     spec_defines_and_includes(program.spec.build_command, first.params if first else {}))
    except FileNotFoundError as missing:
        problem = None
        print(f"orcu: note: {output} is written without a compile of its own: {missing}", file=sys.stderr)
    if problem is not None:
        raise OrcuError(f"{output} would not compile as CUDA C++, so it was not written (C that C++ refuses outside the "
                        f"Loop regions, such as malloc's result assigned without a cast, must change; anything else is a "
                        f"defect of orcu's): the compiler said:\n{problem}")
    write_atomically(output, text, args.file)
    written = [output]
    if program.fragment:
        written.append(fragment_path(output))
        write_atomically(written[1], fragment_source(program, choices, output, args.strip, provenance), args.file)
    elif program.exported:  # C callers include it to call the tuned file's functions
        written.append(c_header_path(output))
        write_atomically(written[1], c_header(program, Path(output).name), args.file)
    return " and ".join(written)


def _output_path(args) -> str:
    """The tuned file of tune and apply: -o, else FILE with the suffix .tuned.cu."""
    return args.output or str(Path(args.file).with_suffix(".tuned.cu"))


def _load_for_target(args, runs: bool = True):
    """(program, backend, device) for tune and apply: the spec may read the device's facts.
    ``runs``: variants will run (tune), so a backend chosen for want of a GPU is said."""
    if not Path(args.file).exists():  # before anything is said of the GPU
        raise OrcuError(f"no such file: {args.file}")
    backend = _backend(args.backend, quiet=not runs)
    device = _device(backend, args.device_profile)
    return _load(args, device), backend, device


def _load(args, device):
    """The program of check, tune and apply: --input's sizes in place of the spec's, and for a
    file without a spec, the one orcu assumes (spec/assumed.py), said on stderr."""
    from .program import load
    from .spec.assumed import assumed_spec, input_values

    program = load(args.file, args.spec, device)
    inputs = input_values(args.input)
    if program.spec_kind is None:  # no spec at all: one is assumed
        assumed = assumed_spec(program, inputs, device.spec_names())
        for note in assumed.notes:
            print(f"orcu: note: {note}", file=sys.stderr)
        return load(args.file, None, device, assumed)
    return _with_inputs(program, inputs) if inputs else program


def _with_inputs(program, inputs):
    """The program with --input's values in place of the spec's for those input parameters."""
    from dataclasses import replace

    spec = program.spec
    known = {p.name: p for p in spec.input_params}
    for name in inputs:
        if name not in known:
            raise UsageError(f"--input: '{name}' is not an input parameter of the spec{did_you_mean(name, known)}")
    params = tuple(replace(p, values=tuple(inputs[p.name]), axis=True) if p.name in inputs else p for p in spec.input_params)
    return replace(program, spec=replace(spec, input_params=params))


def _target(program, args, backend, device):
    """(compiler, device text, region number -> results Context) for tune and apply: the context
    is what, besides the configuration, determines a measurement."""
    from .results import Context

    compiler = _compiler(backend)
    device_text = _device_text(device, backend)
    source = program.src.text if program.spec_region is not None else program.src.text + repr(program.spec)
    source += program.spec.init_code  # what an init_file puts in the inputs changes the measurements

    def context(k: int) -> Context:
        nest = program.nests[k]
        return Context(str(Path(args.file).resolve()), f"orcu_{nest.name}", nest.loc.line, source, backend, device_text, compiler)

    return compiler, device_text, context


def _measure(program, args, backend: str) -> str:
    """--measure, else the spec's performance_counter measure, else the model's prediction where no
    GPU runs the variants (the emulation's CPU times say nothing of the GPU), else kernel time."""
    return args.measure or program.spec.measure or ("model" if backend in ("emulate", "model") else "kernel")


def _cmd_apply(args) -> int:
    from dataclasses import replace

    from .device import orcu_home
    from .space import input_space, settings_text
    from .results import existing_database
    from .runners import MEASURE_NAMES
    from .writeback import Choice, Provenance, tuned_source

    orcu_home()
    program, backend, device = _load_for_target(args, runs=False)
    compiler, device_text, context = _target(program, args, backend, device)
    measure = _measure(program, args, backend)
    _check_writable(_output_path(args), args.file, program)
    db = existing_database()
    sizes = list(input_space(program).configs()) or [{}]
    per_region, missing, unchecked, elsewhere = [], [], [], set()
    for k, nest in enumerate(program.nests):
        chosen = []
        # This machine's device and compiler first; else those the results were measured with
        # (a tune on a GPU node, imported on a build machine).
        candidates = [context(k)] + [replace(context(k), backend=b, device=d, compiler=c)
                                     for b, d, c in db.measured_on(f"orcu_{nest.name}")]
        for inputs in sizes:
            found = next(((ctx, hit) for ctx in candidates if (hit := db.get_choice(ctx, inputs, measure)) is not None), None)
            if found is None:
                missing.append(f"orcu_{nest.name} {inputs or ''}".strip())
                continue
            if found[0] is not candidates[0]:
                elsewhere.add((found[0].device, found[0].compiler))
            if not found[1][2]:
                unchecked.append(f"orcu_{nest.name} {settings_text(inputs)}".strip())
            chosen.append(Choice(found[1][0], dict(inputs), found[1][1], measure))
        per_region.append(chosen)
    db.close()
    if len(elsewhere) == 1:
        device_text, compiler = next(iter(elsewhere))
        print(f"orcu: note: the results were measured on {device_text} with {compiler}", file=sys.stderr)
    if missing:
        for what in missing:
            print(f"orcu: error: {what}: no tuning result for this code, backend, device and measure "
                  f"({MEASURE_NAMES[measure]}); run orcu tune",
                  file=sys.stderr)
        return 1
    if unchecked and not _may_write_unchecked(unchecked, args.unchecked):
        return 1
    output = _output_path(args)
    provenance = Provenance(device=device_text, compiler=compiler, unchecked=bool(unchecked))
    text, _ = tuned_source(program, per_region, strip=args.strip, provenance=provenance, output=output)
    print(f"orcu: wrote {_write_tuned(program, per_region, output, args, text, provenance)}", file=sys.stderr)
    return 0


def _may_write_unchecked(what: list[str], allowed: bool) -> bool:
    """Results that no run checked (predictions) are written only when asked: said either way."""
    for where in what:
        if allowed:
            print(f"orcu: warning: {where}: the tuned file uses a variant orcu's performance model ranked and no run "
                  "checked against the original code (--unchecked); its header says so", file=sys.stderr)
        else:
            print(f"orcu: error: {where}: the result was predicted by orcu's performance model and never checked "
                  "against the original code; tune with --backend emulate or cuda, or pass --unchecked to use it "
                  "anyway", file=sys.stderr)
    return allowed


def _cmd_cc(args) -> int:
    from .cc import run

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    tune_options = (["--budget", str(args.budget)] if args.budget else []) if args.tune_missing else None
    return run(command, args.emulate, ["--backend", args.backend, *(["--unchecked"] if args.unchecked else [])], tune_options,
               args.arch)


def _cmd_export(args) -> int:
    from .files import replace_atomically
    from .results import existing_database, export_results

    db = existing_database()
    files = [str(Path(f).resolve()) for f in args.files] or None
    data = export_results(db, files, args.all)
    db.close()
    if files and not data["choices"]:
        raise UsageError(f"no tuning results for {', '.join(args.files)} in the results database")
    replace_atomically(Path(args.output), json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"orcu: wrote {args.output}: {len(data['choices'])} choice(s), {len(data['evaluations'])} evaluation(s) of "
          f"{len(data['regions'])} region(s)", file=sys.stderr)
    return 0


def _cmd_import(args) -> int:
    from .results import Database, database_path, import_results

    try:
        with open(args.results) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {args.results}: {e}") from None
    db = Database(database_path())
    try:
        choices, evaluations = import_results(db, data)
    finally:
        db.close()
    print(f"orcu: imported {choices} choice(s) and {evaluations} evaluation(s) into {database_path()}", file=sys.stderr)
    return 0


def _cmd_tune(args) -> int:
    from .device import orcu_home
    from .preflight import preflight
    from .progress import Progress
    from .results import Database, database_path
    from .runners import Runner, foreign_arch
    from .space import settings_text
    from .toolchain import gxx
    from .tune import check_predictions, choices, summary, together, tune
    from .writeback import Provenance, fragment_path, tuned_source

    home = orcu_home()  # before anything: a state directory that cannot be used is said at once
    program, backend, device = _load_for_target(args)
    _check_spec_commands(program, args.trust_spec)
    _left_out(program, preflight(program, device))  # what orcu check checks, before anything is built
    if backend == "cuda":
        for note in foreign_arch(program, device):
            print(note, file=sys.stderr)
    compiler, device_text, context = _target(program, args, backend, device)
    output = _output_path(args)
    _check_writable(output, args.file, program)
    spec = program.spec
    budgets = [b for b in (args.budget, spec.arg("search", "total_runs")) if b is not None]
    limits = [t for t in (args.time_limit, None if spec.arg("search", "time_limit") is None else 60.0 * spec.arg("search", "time_limit")) if t is not None]
    runner = Runner(backend, device, home / "build", args.jobs, measure=_measure(program, args, backend))
    db = Database(database_path())
    _run_spec_command(program, "prebuild_command", args.trust_spec)

    with Progress(sys.stderr) as progress:
        tunings = tune(program, runner, db, context, search=args.search, budget=min(budgets) if budgets else None,
                       time_limit=min(limits) if limits else None, seed=args.seed,
                       progress=progress.update, started=progress.start)
    if backend == "model" and gxx() is None:
        for t in tunings:
            t.checked, t.check_note = False, "no C++ compiler (g++) runs the emulation that checks the model's winners"
    elif backend == "model":  # the model's winners run in the emulation before anything is written
        checker = Runner("emulate", device, home / "build", args.jobs, measure="model")
        check_predictions(program, tunings, checker, db, context, _target(program, args, "emulate", device)[2],
                          progress=lambda line: print(line, file=sys.stderr))
    db.close()
    _run_spec_command(program, "postbuild_command", args.trust_spec)
    best = choices(program, tunings)
    problems = together(program, runner, best) if best is not None and backend != "model" else []
    if problems:
        best = None
    unchecked = [f"{t.name} {settings_text(t.inputs)}".strip() for t in tunings if t.checked is False and t.best is not None]
    if best is not None and unchecked and not _may_write_unchecked(unchecked, args.unchecked):
        best = None
    result = summary(program, tunings, output if best is not None else None, backend, device_text)
    if program.fragment and best is not None:
        result["fragment"] = fragment_path(output)
    if best is not None:
        provenance = Provenance(device=device_text, compiler=compiler, unchecked=bool(unchecked))
        text, _ = tuned_source(program, best, strip=args.strip, provenance=provenance, output=output)
        try:
            written = _write_tuned(program, best, output, args, text, provenance)
        except UsageError as e:  # the results are safe in the database all the same
            raise UsageError(f"{e.message}; the results are in the database: orcu apply {args.file} -o OTHER writes them elsewhere") from None
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        Progress.table(program, tunings)
    for t in tunings:
        where = f"{t.name} {settings_text(t.inputs)}".strip()
        if t.no_effect:
            print(f"orcu: note: {where}: {', '.join(t.no_effect)} changed nothing in the winner's build (the table leaves "
                  f"{'it' if len(t.no_effect) == 1 else 'them'} out)", file=sys.stderr)
        for note in t.notes:
            print(f"orcu: note: {where}: {note}", file=sys.stderr)
        if t.check_note:
            print(f"orcu: note: {where}: {t.check_note}", file=sys.stderr)
        if t.unsteady:
            print(f"orcu: warning: {t.name} {settings_text(t.inputs) or ''}: the winner's times still spread over "
                  f"{100 * t.spread:.0f}% of their median after {t.runs} runs (interquartile range): other work on the "
                  "machine may have disturbed them; tune again on a quiet machine before relying on the choice",
                  file=sys.stderr)
    if best is None:
        for problem in problems:
            print(f"orcu: error: {problem}; no output written", file=sys.stderr)
        if unchecked and not args.unchecked:
            print("orcu: error: no output written: the results are in the database", file=sys.stderr)
        for t in tunings:
            if t.best is None:
                counts = ", ".join(f"{n} {s}" for s, n in t.statuses.items()) or "nothing evaluated"
                print(f"orcu: error: {t.name} {t.inputs or ''}: no variant passed ({counts}); no output written", file=sys.stderr)
        return 1
    print(f"orcu: wrote {written}", file=sys.stderr)
    return 0


def _cmd_report(args) -> int:
    from .report import results_table, write_csv, write_kt_caches
    from .results import existing_database

    db = existing_database()
    rows = list(db.rows(str(Path(args.file).resolve()) if args.file else None))
    db.close()
    if args.csv:
        write_csv(rows, args.csv)
        print(f"orcu: wrote {len(rows)} evaluations to {args.csv}", file=sys.stderr)
    if args.kt_cache:
        for written in write_kt_caches(rows, args.kt_cache, args.measure):
            print(f"orcu: wrote {written}", file=sys.stderr)
    if not args.csv and not args.kt_cache:
        results_table(rows, args.measure)
    return 0


def _cmd_devices(args) -> int:
    from .device import DEFAULT_PROFILE, PROFILES, gpu_visible, orcu_home, profile, query

    if args.profile:
        print(profile(args.profile).describe())
        return 0
    orcu_home()  # where the query's answer is kept
    device = query() if gpu_visible() else None
    if device is not None:
        print(device.describe())
        return 0
    print(f"no GPU visible; tuning without one uses a device profile (default {DEFAULT_PROFILE}):")
    print(PROFILES[DEFAULT_PROFILE].describe())
    print(f"profiles: {', '.join(PROFILES)} (orcu devices --profile NAME, orcu tune --device-profile NAME)")
    return 0


def _sizes_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--input", action="append", default=[], metavar="NAME=VALUE",
                         help="an input size (repeatable; a name given twice is tuned at both): replaces the spec's "
                              "values of that input parameter; a file without a spec needs those of its loop bounds")


def _input_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", help="the annotated C file (it is never modified)")
    command.add_argument("--spec", help="YAML tuning spec (default: FILE.orcu.yaml if present)")
    command.add_argument("--device-profile", metavar="NAME",
                         help="the GPU whose facts the spec reads (device_sms, ...) and that is pruned and compiled "
                              "for when none is used (default H100)")


def _output_arguments(command: argparse.ArgumentParser, runs: bool = True) -> None:
    """Where the tuned file goes, and for which backend and device (tune, and apply, which
    runs nothing: ``runs`` False)."""
    command.add_argument("-o", "--output", help="the tuned file (default: FILE with the suffix .tuned.cu)")
    command.add_argument("--backend", choices=["auto", "cuda", "emulate", "model"], default="auto",
                         help=("cuda: run on the GPU; emulate: orcu's CPU emulation checks every variant and the "
                               "performance model ranks them; model: the model ranks variants it compiles and never runs, and "
                               "its winners are then checked in the emulation; auto: cuda when a GPU is visible")
                         if runs else ("whose results to write: those of a tune with --backend cuda (on the GPU), "
                                       "emulate or model; auto: cuda's when a GPU is visible, else emulate's"))
    command.add_argument("--strip", action="store_true", help="drop the annotations from the tuned file")
    command.add_argument("--unchecked", action="store_true",
                         help="write the tuned file even from predictions that no run checked against the original "
                              "code (--backend model); its header and stderr say so")
    _sizes_argument(command)
    command.add_argument("--measure", choices=["kernel", "total", "model"],
                         help="what ranks variants: the kernels' time, the host function's whole time (transfers "
                              "included), or the kernels' GPU time as orcu's performance model predicts it (default: "
                              "model with --backend emulate or model, else the spec's performance_counter measure, "
                              "else kernel)")


def _positive(kind):
    """An argparse type: a number above zero (a budget, a time limit, a job count of 0 or less
    means nothing; argparse says so and exits 2)."""
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0:
            raise argparse.ArgumentTypeError(f"must be a {'whole ' if kind is int else ''}number above 0, got {text!r}")
        return value
    convert.__name__ = kind.__name__
    return convert


def _trust_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--trust-spec", action="store_true",
                         help="pass every build flag of the spec to the compiler, and run its prebuild and postbuild "
                              "commands (without it, flags beyond optimisation, macros, math, registers, ptxas reports, "
                              "line info and GPU targets are refused)")


class _PrintPath(argparse.Action):
    """--cmake-dir and --make-include: print where the shipped build files are, and exit."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import resources

        where = Path(str(resources.files("orcu.templates"))) / "buildsystems"
        print(where if option_string == "--cmake-dir" else where / "orcu.mk")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="orcu", description="Annotation-based autotuner for CUDA (Orio-style).")
    parser.add_argument("--debug", action="store_true", help="show a traceback for internal errors")
    parser.add_argument("--version", action="version", version=f"orcu {__version__}")
    parser.add_argument("--cmake-dir", action=_PrintPath, help="print the directory of orcu's CMake package (orcuConfig.cmake)")
    parser.add_argument("--make-include", action=_PrintPath, help="print the path of orcu.mk, for a Makefile's include")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="parse a file and report its tuning problem; nothing is compiled or run")
    _input_arguments(check)
    _sizes_argument(check)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument("--explain", action="store_true", help="print the loop-nest IR with reads and writes, and the TSG's decisions")
    _trust_argument(check)
    check.set_defaults(run=_cmd_check)

    emit = sub.add_parser("emit", help="write the CUDA version of FILE for one configuration")
    _input_arguments(emit)
    emit.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                      help="a performance parameter's value (one of its listed values); "
                           "unset parameters take the first values that satisfy the constraints")
    emit.add_argument("--input", action="append", default=[], metavar="NAME=VALUE",
                      help="an input parameter's value (default: the first input combination)")
    emit.add_argument("-o", "--output", help="output file, written atomically (default: standard output)")
    emit.add_argument("--strip", action="store_true", help="drop the annotations (the file cannot be tuned again)")
    emit.add_argument("--explain", action="store_true", help="say on stderr how each transformation applied")
    emit.set_defaults(run=_cmd_emit)

    tune = sub.add_parser("tune", help="evaluate the variants of every region and write the fastest as a .cu file")
    _input_arguments(tune)
    _output_arguments(tune)
    tune.add_argument("--budget", type=_positive(int), metavar="N", help="at most N evaluations, shared evenly by regions and input sizes "
                      "(also the spec's total_runs; the smaller wins)")
    tune.add_argument("--time-limit", type=_positive(float), metavar="SECONDS", help="stop searching after this long (also the spec's time_limit, in minutes)")
    tune.add_argument("--search", metavar="NAME", type=_search_name,
                      help="strategy: Exhaustive, Random, Multistart, Randomlocal, Simplex, Annealing, Genetic, Mlsearch or TSG "
                           "(default: the spec's, else Exhaustive when the budget covers the space, else Multistart)")
    tune.add_argument("--seed", type=int, default=0, help="seed of the search strategy (default 0)")
    tune.add_argument("-j", "--jobs", type=_positive(int), metavar="N", help="parallel builds (default: the number of CPUs)")
    tune.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _trust_argument(tune)
    tune.set_defaults(run=_cmd_tune)

    apply = sub.add_parser("apply", help="write the tuned file from the results database, without tuning")
    _input_arguments(apply)
    _output_arguments(apply, runs=False)
    apply.set_defaults(run=_cmd_apply)

    cc = sub.add_parser("cc", help="a compiler wrapper: annotated sources in the command become their tuned versions",
                        usage="orcu cc [--emulate] [--tune-missing] [--arch SM] [orcu options] -- COMPILER ARGS...")
    cc.add_argument("--emulate", action="store_true",
                    help="compile the tuned files with the C++ compiler against orcu's CPU emulation (no GPU, no nvcc)")
    cc.add_argument("--tune-missing", action="store_true", help="tune the regions that have no results (default: an error)")
    cc.add_argument("--arch", default="sm_90", help="nvcc's -arch for the tuned files (default sm_90)")
    cc.add_argument("--backend", choices=["auto", "cuda", "emulate"], default="auto",
                    help="whose results to apply (and to tune with --tune-missing)")
    cc.add_argument("--budget", type=_positive(int), metavar="N", help="with --tune-missing: at most N evaluations")
    cc.add_argument("--unchecked", action="store_true",
                    help="use results that no run checked against the original code (--backend model predictions)")
    cc.add_argument("command", nargs=argparse.REMAINDER, help="the compiler command, after '--'")
    cc.set_defaults(run=_cmd_cc)

    export = sub.add_parser("export", help="write the tuning results of files (their choices) as JSON, for orcu import elsewhere")
    export.add_argument("files", nargs="*", metavar="FILE", help="annotated C files (default: every file in the database)")
    export.add_argument("-o", "--output", required=True, help="the JSON file to write")
    export.add_argument("--all", action="store_true", help="every evaluation of those files, not only the chosen ones")
    export.set_defaults(run=_cmd_export)

    imported = sub.add_parser("import", help="add exported tuning results to this machine's results database")
    imported.add_argument("results", help="a JSON file written by orcu export")
    imported.set_defaults(run=_cmd_import)

    report = sub.add_parser("report", help="past tunings from the results database; CSV and Kernel Tuner exports")
    report.add_argument("file", nargs="?", help="only the evaluations of this annotated C file (default: all)")
    report.add_argument("--csv", metavar="OUT", help="write every evaluation as CSV")
    report.add_argument("--kt-cache", metavar="OUT", help="write a Kernel Tuner cache (JSON) per region and input size")
    report.add_argument("--measure", choices=["kernel", "total", "model"], default="kernel",
                        help="what ranks the evaluations and is exported as Kernel Tuner's time: the kernels' time, "
                             "the host function's, or the performance model's prediction (default kernel)")
    report.set_defaults(run=_cmd_report)

    devices = sub.add_parser("devices", help="the GPU orcu tunes for, or the device profile used without one")
    devices.add_argument("--profile", help="show a device profile")
    devices.set_defaults(run=_cmd_devices)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except OrcuError as e:
        print(e.render(), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")
        return 0
    except KeyboardInterrupt:
        print("orcu: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug in orcu, not in the user's input
        if args.debug:
            traceback.print_exc()
        else:
            print(f"orcu: internal error: {type(e).__name__}: {e} (run with --debug for a traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
