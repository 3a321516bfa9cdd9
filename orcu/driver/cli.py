"""``orcu`` command line: check | emit | tune | apply | report | devices."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import traceback
from pathlib import Path

from orcu.driver import api
from orcu.errors import NotWritten, OrcuError, UsageError
from orcu.execution.backends import AUTO, CHOICES
from orcu.execution.backends import backend as backend_of
from orcu.search.registry import DEFAULT, STRATEGIES, canonical, known
from orcu.version import __version__


def _cmd_check(args) -> int:
    result = api.check(
        args.file, spec=args.spec, inputs=args.input, device_profile=args.device_profile, trust_spec=args.trust_spec
    )
    print(json.dumps(result.summary, indent=2, default=str) if args.json else result.text(explain=args.explain))
    return 0


def _settings(pairs: list[str], option: str) -> dict[str, str]:
    """``NAME=VALUE`` pairs -> {name: value text}; the API matches each to its parameter's values."""
    out = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"{option} expects NAME=VALUE, got '{pair}'")
        out[name.strip()] = text.strip()
    return out


def _cmd_emit(args) -> int:
    from orcu.frontend.source import ENCODING

    to_stdout = args.output in (None, "-")
    text = api.emit(
        args.file,
        _settings(args.set, "--set"),
        inputs=_settings(args.input, "--input"),
        output=None if to_stdout else args.output,
        spec=args.spec,
        strip=args.strip,
        device_profile=args.device_profile,
        explain=args.explain,
    )
    if to_stdout:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode(**ENCODING))  # the source's bytes, UTF-8 or not
        sys.stdout.buffer.flush()
    return 0


def _search_name(text: str) -> str:
    if canonical(text) is None:
        raise argparse.ArgumentTypeError(f"unknown strategy '{text}' (known: {known()})")
    return text


def _cmd_apply(args) -> int:
    api.apply(
        args.file,
        output=args.output,
        backend=args.backend,
        inputs=args.input,
        measure=args.measure,
        spec=args.spec,
        device_profile=args.device_profile,
        strip=args.strip,
        unchecked=args.unchecked,
    )
    return 0


def _cmd_cc(args) -> int:
    from orcu.driver.cc import run

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    tune_options = (["--budget", str(args.budget)] if args.budget else []) if args.tune_missing else None
    return run(
        command,
        args.emulate,
        ["--backend", args.backend, *(["--unchecked"] if args.unchecked else [])],
        tune_options,
        args.arch,
    )


def _cmd_export(args) -> int:
    if args.format == "t4":
        for written in api.export_t4(args.output, args.files):
            print(f"orcu: wrote {written}", file=sys.stderr)
        return 0
    data = api.export(args.output, args.files, every=args.all)
    print(
        f"orcu: wrote {args.output}: {len(data['choices'])} choice(s), {len(data['evaluations'])} evaluation(s) of "
        f"{len(data['regions'])} region(s)",
        file=sys.stderr,
    )
    return 0


def _cmd_import(args) -> int:
    if args.format == "t4":
        kept, left, database = api.import_t4(
            args.results,
            args.file,
            region=args.region,
            inputs=args.input or None,
            backend=args.backend,
            device_profile=args.device_profile,
            spec=args.spec,
        )
        print(
            f"orcu: imported {kept} evaluation(s) into {database}"
            + (f"; left out {left} (outside the region's space, or measured already)" if left else ""),
            file=sys.stderr,
        )
        return 0
    if args.file or args.region or args.input or args.backend or args.device_profile or args.spec:
        raise UsageError(
            "--file, --region, --input, --backend, --device-profile and --spec are for --format t4: an "
            "orcu export names its regions itself"
        )
    choices, evaluations, database = api.import_from(args.results)
    print(f"orcu: imported {choices} choice(s) and {evaluations} evaluation(s) into {database}", file=sys.stderr)
    return 0


def _cmd_tune(args) -> int:
    from orcu.driver.progress import Progress

    tuning = api.tune(
        args.file,
        budget=args.budget,
        time_limit=args.time_limit,
        backend=args.backend,
        search=args.search,
        inputs=args.input,
        device_profile=args.device_profile,
        output=args.output,
        spec=args.spec,
        seed=args.seed,
        jobs=args.jobs,
        measure=args.measure,
        strip=args.strip,
        unchecked=args.unchecked,
        trust_spec=args.trust_spec,
        objective=args.objective,
        gpus=args.gpus,
        cluster=args.cluster,
    )
    if args.json:
        print(json.dumps(tuning.summary, indent=2, default=str))
    else:
        Progress.table(tuning)
    for line in tuning.notes + tuning.errors:
        print(line, file=sys.stderr)
    if not tuning.written:
        return 1
    print(f"orcu: wrote {' and '.join(tuning.written)}", file=sys.stderr)
    return 0


def _cmd_report(args) -> int:
    from orcu.driver.database import existing_database
    from orcu.driver.report import chosen, results_table, results_text, write_csv, write_kt_caches

    db = existing_database(args.file)
    try:
        rows = list(db.rows(str(Path(args.file).resolve()) if args.file else None))
        by_group = chosen(db, rows)
    finally:
        db.close()
    if args.csv:
        write_csv(rows, args.csv)
        print(f"orcu: wrote {len(rows)} evaluations to {args.csv}", file=sys.stderr)
    if args.kt_cache:
        for written in write_kt_caches(rows, args.kt_cache, args.measure or "kernel"):
            print(f"orcu: wrote {written}", file=sys.stderr)
    if args.plot:
        skipped: list[str] = []
        for plotted in api.results(args.file, measure=args.measure).plot(args.plot, skipped=skipped):
            print(f"orcu: wrote {plotted}", file=sys.stderr)
        for why in skipped:
            print(f"orcu: note: {why}", file=sys.stderr)
    if not (args.csv or args.kt_cache or args.plot):
        if args.wide:
            results_table(rows, by_group, args.measure)
        else:
            print(results_text(rows, by_group, args.measure))
    return 0


def _cmd_devices(args) -> int:
    from orcu.device import DEFAULT_PROFILE, PROFILES, gpu_visible, orcu_home, profile
    from orcu.execution.query import query

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
    command.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an input size (repeatable; a name given twice is tuned at both): replaces the spec's "
        "values of that input parameter; a file without a spec needs those of its loop bounds",
    )


def _input_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", help="the annotated C file (it is never modified)")
    command.add_argument("--spec", help="YAML tuning spec (default: FILE.orcu.yaml if present)")
    command.add_argument(
        "--device-profile",
        metavar="NAME",
        help="the GPU whose facts the spec reads (device_sms, ...) and that is pruned and compiled "
        "for when none is used (default H100)",
    )


def _output_arguments(command: argparse.ArgumentParser, runs: bool = True) -> None:
    """Where the tuned file goes, and for which backend and device (tune, and apply, which
    runs nothing: ``runs`` False)."""
    command.add_argument("-o", "--output", help="the tuned file (default: FILE with the suffix .tuned.cu)")
    command.add_argument(
        "--backend",
        choices=CHOICES,
        default=AUTO,
        help=(
            "cuda: run on the GPU; emulate: orcu's CPU emulation checks every variant and the "
            "performance model ranks them; model: the model ranks variants it compiles and never runs, and "
            "its winners are then checked in the emulation; auto: cuda when a GPU is visible"
        )
        if runs
        else (
            "whose results to write: those of a tune with --backend cuda (on the GPU), "
            "emulate or model; auto: cuda's when a GPU is visible, else emulate's"
        ),
    )
    command.add_argument("--strip", action="store_true", help="drop the annotations from the tuned file")
    command.add_argument(
        "--unchecked",
        action="store_true",
        help="write the tuned file even from predictions that no run checked against the original "
        "code (--backend model); its header and stderr say so",
    )
    _sizes_argument(command)
    command.add_argument(
        "--measure",
        choices=["kernel", "total", "model"],
        help="what ranks variants: the kernels' time, the host function's whole time (transfers "
        "included), or the kernels' GPU time as orcu's performance model predicts it (default: "
        "model with --backend emulate or model, else the spec's performance_counter measure, "
        "else kernel)",
    )


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
    command.add_argument(
        "--trust-spec",
        action="store_true",
        help="pass every build flag of the spec to the compiler, and run its prebuild and postbuild "
        "commands (without it, flags beyond optimisation, macros, math, registers, ptxas reports, "
        "line info and GPU targets are refused)",
    )


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
    parser.add_argument(
        "--cmake-dir", action=_PrintPath, help="print the directory of orcu's CMake package (orcuConfig.cmake)"
    )
    parser.add_argument("--make-include", action=_PrintPath, help="print the path of orcu.mk, for a Makefile's include")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="parse a file and report its tuning problem; nothing is compiled or run")
    _input_arguments(check)
    _sizes_argument(check)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--explain", action="store_true", help="print the loop-nest IR with reads and writes, and the TSG's decisions"
    )
    _trust_argument(check)
    check.set_defaults(run=_cmd_check)

    emit = sub.add_parser("emit", help="write the CUDA version of FILE for one configuration")
    _input_arguments(emit)
    emit.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a performance parameter's value (one of its listed values); "
        "unset parameters take the first values that satisfy the constraints",
    )
    emit.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an input parameter's value (default: the first input combination)",
    )
    emit.add_argument("-o", "--output", help="output file, written atomically (default: standard output)")
    emit.add_argument("--strip", action="store_true", help="drop the annotations (the file cannot be tuned again)")
    emit.add_argument("--explain", action="store_true", help="say on stderr how each transformation applied")
    emit.set_defaults(run=_cmd_emit)

    tune = sub.add_parser("tune", help="evaluate the variants of every region and write the fastest as a .cu file")
    _input_arguments(tune)
    _output_arguments(tune)
    tune.add_argument(
        "--budget",
        type=_positive(int),
        metavar="N",
        help="at most N evaluations, shared evenly by regions and input sizes "
        "(also the spec's total_runs; the smaller wins)",
    )
    tune.add_argument(
        "--time-limit",
        type=_positive(float),
        metavar="SECONDS",
        help="stop searching after this long (also the spec's time_limit, in minutes)",
    )
    tune.add_argument(
        "--search",
        metavar="NAME",
        type=_search_name,
        help=f"strategy: {', '.join(STRATEGIES)} (default: the spec's, else Exhaustive when the budget "
        f"covers the space, else {DEFAULT})",
    )
    tune.add_argument("--seed", type=int, default=0, help="seed of the search strategy (default 0)")
    tune.add_argument(
        "--gpus",
        metavar="0,1,...",
        help="the GPUs that time variants side by side, one variant each, pinned with "
        "CUDA_VISIBLE_DEVICES (default with --backend cuda: every visible GPU of the first one's model)",
    )
    tune.add_argument(
        "--cluster",
        metavar="SPEC",
        help="builds and runs go to a Dask cluster (pip install 'orcu[cluster]'): local:N worker processes, "
        "tcp://HOST:PORT of a running scheduler, or slurm:N (pbs:N, lsf:N...) workers started through "
        "dask-jobqueue with orcu.toml's [cluster] settings; the results database stays here",
    )
    tune.add_argument(
        "--objective",
        metavar="[max:|min:]NAME",
        help="what ranks the variants: a metric, gflop_s, gb_s, bound_fraction, energy or edp (energy "
        "with --backend cuda, measured through NVML), or one of the spec's metrics section with its "
        "direction (max:gflops); default: the spec's objective, else the time (--measure)",
    )
    tune.add_argument(
        "-j", "--jobs", type=_positive(int), metavar="N", help="parallel builds (default: the number of CPUs)"
    )
    tune.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _trust_argument(tune)
    tune.set_defaults(run=_cmd_tune)

    apply = sub.add_parser("apply", help="write the tuned file from the results database, without tuning")
    _input_arguments(apply)
    _output_arguments(apply, runs=False)
    apply.set_defaults(run=_cmd_apply)

    cc = sub.add_parser(
        "cc",
        help="a compiler wrapper: annotated sources in the command become their tuned versions",
        usage="orcu cc [--emulate] [--tune-missing] [--arch SM] [orcu options] -- COMPILER ARGS...",
    )
    cc.add_argument(
        "--emulate",
        action="store_true",
        help="compile the tuned files with the C++ compiler against orcu's CPU emulation (no GPU, no nvcc)",
    )
    cc.add_argument(
        "--tune-missing", action="store_true", help="tune the regions that have no results (default: an error)"
    )
    cc.add_argument("--arch", default="sm_90", help="nvcc's -arch for the tuned files (default sm_90)")
    cc.add_argument(
        "--backend",
        choices=[c for c in CHOICES if c == AUTO or backend_of(c).runs],
        default=AUTO,
        help="whose results to apply (and to tune with --tune-missing)",
    )
    cc.add_argument("--budget", type=_positive(int), metavar="N", help="with --tune-missing: at most N evaluations")
    cc.add_argument(
        "--unchecked",
        action="store_true",
        help="use results that no run checked against the original code (--backend model predictions)",
    )
    cc.add_argument("command", nargs=argparse.REMAINDER, help="the compiler command, after '--'")
    cc.set_defaults(run=_cmd_cc)

    export = sub.add_parser(
        "export", help="write the tuning results of files (their choices) as JSON, for orcu import elsewhere"
    )
    export.add_argument(
        "files", nargs="*", metavar="FILE", help="annotated C files (default: every file in the database)"
    )
    export.add_argument("-o", "--output", required=True, help="the JSON file to write")
    export.add_argument("--all", action="store_true", help="every evaluation of those files, not only the chosen ones")
    export.add_argument(
        "--format",
        choices=["orcu", "t4"],
        default="orcu",
        help="orcu: for orcu import elsewhere (default); t4: every evaluation in the Open Autotuning "
        "Results Schema (T4) that Kernel Tuner writes, a results file and NAME.metadata.json per "
        "region, input size and device",
    )
    export.set_defaults(run=_cmd_export)

    imported = sub.add_parser(
        "import",
        help="add exported tuning results (orcu's, or T4 results such as Kernel Tuner's) "
        "to this machine's results database",
    )
    imported.add_argument("results", help="a JSON file written by orcu export, or T4 results (--format t4)")
    imported.add_argument(
        "--format",
        choices=["orcu", "t4"],
        default="orcu",
        help="t4: results in the Open Autotuning Results Schema, by orcu or another tool (Kernel "
        "Tuner's store_output_file); a later tune reuses them, and runs any that could win first",
    )
    imported.add_argument(
        "--file", help="t4: the annotated C file the results belong to (default: the one orcu's metadata names)"
    )
    imported.add_argument("--region", help="t4: the region (orcu_NAME_1, or its line) where the file has several")
    imported.add_argument(
        "--backend", choices=CHOICES, help="t4: the backend whose tunes reuse them (default: the metadata's, else auto)"
    )
    imported.add_argument(
        "--device-profile", metavar="NAME", help="t4: the device profile of an emulate or model backend"
    )
    imported.add_argument("--spec", help="t4: the file's YAML tuning spec, where it has one beside it")
    _sizes_argument(imported)
    imported.set_defaults(run=_cmd_import)

    report = sub.add_parser("report", help="past tunings from the results database; CSV and Kernel Tuner exports")
    report.add_argument("file", nargs="?", help="only the evaluations of this annotated C file (default: all)")
    report.add_argument("--csv", metavar="OUT", help="write every evaluation as CSV")
    report.add_argument("--kt-cache", metavar="OUT", help="write a Kernel Tuner cache (JSON) per region and input size")
    report.add_argument(
        "--measure",
        choices=["kernel", "total", "model"],
        help="what ranks the evaluations and is exported as Kernel Tuner's time: the kernels' time, "
        "the host function's, or the performance model's prediction (default: the measure the "
        "tune used, so that the winner shown is the tuned file's; kernel for --kt-cache)",
    )
    report.add_argument("--wide", action="store_true", help="every figure of each winner in one wide table")
    report.add_argument(
        "--plot",
        metavar="DIR",
        help="write PNG plots per region and size to DIR: the search's convergence, each parameter's "
        "effect, the model against measured time, and the variants on a roofline",
    )
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
    except NotWritten as e:
        print(e.render(), file=sys.stderr)
        return 1
    except OrcuError as e:
        print(e.render(), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (open until the process ends: nothing more is printed)
        return 0
    except KeyboardInterrupt:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while this is said changes nothing
        print("orcu: interrupted", file=sys.stderr)
        signal.signal(signal.SIGINT, previous)
        return 130
    except Exception as e:  # a bug in orcu, not in the user's input
        if args.debug:
            traceback.print_exc()
        else:
            print(f"orcu: internal error: {type(e).__name__}: {e} (run with --debug for a traceback)", file=sys.stderr)
        return 3


def entry() -> None:
    """The ``orcu`` command: main's exit status. After an interrupt it leaves at once: the builds
    still running are not waited for (their results would not be kept), and nothing is left for a
    second Ctrl-C to interrupt."""
    code = main()
    if code == 130:
        from orcu.execution.toolchain import stop_compiles

        stop_compiles()  # no compiler left running, no partial file left in the build cache
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
