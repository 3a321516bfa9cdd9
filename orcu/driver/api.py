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
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from orcu.errors import NotWritten, OrcuError, UsageError, did_you_mean
from orcu.execution.backends import AUTO, CUDA, EMULATE
from orcu.execution.backends import backend as backend_of

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


def _say(line: str) -> None:
    print(line, file=sys.stderr)


# -- what the functions return -------------------------------------------------------------------


@dataclass
class Evaluation:
    """One variant evaluated: its configuration at one input size, its status and times. Times
    are milliseconds; ``time_ms`` is the median of the samples of ``measure`` (kernel: the
    kernels' CUDA-event time on a GPU; total: the host function's; model: orcu's performance
    model's prediction of the GPU time). Under the emulation, kernel and total samples are CPU
    times of the emulated code and say nothing of a GPU (``emulated``)."""

    file: str
    region: str
    inputs: dict[str, Any]
    params: dict[str, Any]
    status: str
    measure: str
    time_ms: float | None
    kernel_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    predicted_ms: float | None = None
    message: str = ""
    backend: str = ""
    device: str = ""
    created: str = ""
    figures: dict[str, Any] | None = None  # static traffic figures and the model's prediction
    line: int | None = None  # the region's line in the file
    compiler: str = ""
    metrics: dict[str, float] | None = None  # what it achieved at time_ms (orcu/metrics.py): gflop_s, gb_s, ...

    @property
    def emulated(self) -> bool:
        return backend_of(self.backend).emulated

    @property
    def gflop_s(self) -> float | None:
        return (self.metrics or {}).get("gflop_s")

    @property
    def gb_s(self) -> float | None:
        return (self.metrics or {}).get("gb_s")

    @property
    def bound_fraction(self) -> float | None:
        """The roofline bound over the time: 1.0 at the roofline."""
        return (self.metrics or {}).get("bound_fraction")

    def record(self) -> dict[str, Any]:
        """A flat row (the columns of ``orcu report --csv`` and the model's prediction)."""
        from orcu.driver.report import csv_row

        out = csv_row({f.name: getattr(self, f.name) for f in fields(self)})
        out.update(measure=self.measure, predicted_ms=self.predicted_ms)
        return out


def _median(samples: list[float]) -> float | None:
    return statistics.median(samples) if samples else None


def _evaluation(file: str, t, result, backend: str, device: str, compiler: str) -> Evaluation:
    """A result of the tune of ``t`` (a region at one size) as the API gives it."""
    from orcu.execution.model import predicted_ms

    return Evaluation(
        file,
        t.name,
        dict(result.inputs),
        dict(result.params),
        result.status,
        result.measure,
        result.time_ms,
        list(result.kernel_ms),
        list(result.total_ms),
        predicted_ms(result.figures),
        result.message,
        backend,
        device,
        "",
        result.figures,
        t.line,
        compiler,
        result.metrics,
    )


def _from_row(row: dict[str, Any], measure: str) -> Evaluation:
    from orcu.driver.report import rates
    from orcu.execution.runners import RANKED

    samples = row[f"{measure}_ms"]
    time = _median(samples) if row["status"] in RANKED else None
    metrics = (
        None if row["metrics"] is None else {**row["metrics"], **rates(row, measure)}
    )  # the rates at this measure's time
    return Evaluation(
        row["file"],
        row["region"],
        row["inputs"],
        row["params"],
        row["status"],
        measure,
        time,
        row["kernel_ms"],
        row["total_ms"],
        _median(row["model_ms"]),
        row["message"],
        row["backend"],
        row["device"],
        row["created"],
        row["figures"],
        row["line"],
        row["compiler"],
        metrics,
    )


class _Table:
    """Evaluations as a table: ``records()`` (a list of dicts), ``to_dataframe()`` with pandas, and
    ``plot(directory)``, the figures of ``orcu report --plot``."""

    evaluations: list[Evaluation]

    def records(self) -> list[dict[str, Any]]:
        return [e.record() for e in self.evaluations]

    def to_dataframe(self):
        """A pandas DataFrame of ``records()`` (pip install 'orcu[pandas]')."""
        try:
            import pandas
        except ImportError:
            raise UsageError(
                "to_dataframe() needs pandas (pip install 'orcu[pandas]'); records() gives the same rows "
                "as a list of dicts"
            ) from None
        return pandas.DataFrame.from_records(self.records())

    def plot(self, directory: str | os.PathLike, device=None, skipped: list[str] | None = None) -> list[Path]:
        """The plots of these evaluations as PNG files in ``directory``: what was written. Each
        plot the evaluations do not allow is said in ``skipped``, with why."""
        from orcu.driver.plots import plot_all

        return plot_all(self.evaluations, Path(directory), device, skipped)


@dataclass
class RegionResult:
    """The tuning of one region at one input size."""

    region: str
    line: int
    inputs: dict[str, Any]
    strategy: str
    space: int  # configurations in its search space
    best: Evaluation | None
    statuses: dict[str, int]
    evaluations: list[Evaluation]
    parameters: tuple[str, ...] = ()  # the performance parameters this region uses
    new: int = 0
    cached: int = 0
    same_build: int = 0
    spread: float | None = None  # the winner's re-timed samples: interquartile range / median
    no_effect: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    checked: bool | None = None  # --backend model: whether a run checked its winner


@dataclass
class Tuning(_Table):
    """What ``tune`` did: each region and input size, every evaluation, the files written (none
    where ``errors`` says why), the notes the command line prints after its table, and
    ``summary``, the object of ``orcu tune --json``."""

    file: str
    backend: str
    device: str
    measure: str
    regions: list[RegionResult]
    written: list[str]
    errors: list[str]
    notes: list[str]
    summary: dict[str, Any]
    target: Any = None  # the Device measured or modelled (for the roofline)
    objective: Any = None  # the orcu.spec.objectives.Objective that ranked the variants

    @property  # a Tuning's evaluations are its regions', read only
    def evaluations(self) -> list[Evaluation]:  # type: ignore[override]
        return [e for r in self.regions for e in r.evaluations]

    def plot(self, directory: str | os.PathLike, device=None, skipped: list[str] | None = None) -> list[Path]:
        return super().plot(directory, device or self.target, skipped)


@dataclass
class Results(_Table):
    """Evaluations from the results database, in the order they were made; each ranked by
    ``measure`` (the one the tune that made them used, unless asked otherwise)."""

    evaluations: list[Evaluation]
    database: Path


@dataclass
class Check:
    """What ``orcu check`` reports: ``summary`` is its ``--json`` object."""

    summary: dict[str, Any]

    def text(self, explain: bool = False) -> str:
        from orcu.driver.report import check_text

        return check_text(self.summary, explain=explain)


# -- loading -------------------------------------------------------------------------------------


def _profile(name: str | None):
    from orcu.device import DEFAULT_PROFILE, profile

    return profile(name or DEFAULT_PROFILE)


def _load(path, spec, inputs: dict[str, list] | None, device):
    """The program of check, tune and apply: ``inputs``' sizes in place of the spec's, and for a
    file without a spec, the one orcu assumes (spec/assumed.py), said on stderr."""
    from orcu.planning.assumed import assumed_spec
    from orcu.planning.program import load

    program = load(str(path), spec, device)
    if program.spec_kind is None:  # no spec at all: one is assumed
        assumed = assumed_spec(program, inputs or {}, device.spec_names())
        for note in assumed.notes:
            _say(f"orcu: note: {note}")
        return load(str(path), None, device, assumed)
    return _with_inputs(program, inputs) if inputs else program


def _with_inputs(program, inputs):
    """The program with ``inputs``' values in place of the spec's for those input parameters (in
    each spec that has them, where a file has several)."""
    known = {p.name: p for spec in program.specs for p in spec.input_params}
    for name in inputs:
        if name not in known:
            raise UsageError(f"--input: '{name}' is not an input parameter of the spec{did_you_mean(name, known)}")

    def sized(spec):
        params = tuple(
            replace(p, values=tuple(inputs[p.name]), axis=True) if p.name in inputs else p for p in spec.input_params
        )
        return replace(spec, input_params=params)

    specs = tuple(map(sized, program.specs))
    return replace(program, spec=specs[0], specs=specs, memo={})


def _input_lists(inputs: dict[str, Any] | Iterable[str] | None) -> dict[str, list] | None:
    """Input sizes as the functions take them (a dict of a value or a list of values per name)
    or as the command line gives them (NAME=VALUE strings)."""
    from orcu.planning.assumed import input_values

    if inputs is None:
        return None
    if isinstance(inputs, dict):
        return {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in inputs.items()}
    return input_values(list(inputs))


def _check_spec_commands(program, trusted: bool) -> None:
    """The spec's build flags and libs pass orcu's allowlist unless the user trusts the spec;
    its prebuild and postbuild commands run only then (said once otherwise). Arguments orcu
    does not act on are said too."""
    from orcu.execution.flags import check_build_flags
    from orcu.execution.harness import unobserved
    from orcu.spec.unused import unused_decls, unused_notes

    text = program.src.text
    for line in unobserved(program):
        _say(line)
    for g, spec in enumerate(program.specs):
        region = program.spec_regions[g] if program.spec_regions else None
        code = (text[region.code_start : region.code_end] if region is not None else text) + spec.init_code
        code += program.prologues[g] if program.prologues else ""
        for line in unused_notes(spec) + unused_decls(spec, code):
            _say(line)
    if trusted:
        return
    for spec in program.specs:
        check_build_flags(spec, program.src)
    commands = [
        name for name in ("prebuild_command", "postbuild_command") if any(s.arg("build", name) for s in program.specs)
    ]
    if commands:
        _say(
            f"orcu: warning: the spec's {' and '.join(commands)} {'was' if len(commands) == 1 else 'were'} not run: "
            "commands from a spec run only with --trust-spec"
        )


def _run_spec_command(program, name: str, trusted: bool) -> None:
    """Orio's prebuild_command (before the builds) or postbuild_command (after them), through a
    shell in the file's directory, for a trusted spec."""
    for command in dict.fromkeys(spec.arg("build", name) for spec in program.specs):
        if not trusted or not command:
            continue
        proc = subprocess.run(command, shell=True, cwd=Path(program.src.path).resolve().parent)
        if proc.returncode != 0:
            raise UsageError(f"the spec's {name} failed (exit code {proc.returncode}): {command}")


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

    device = _profile(device_profile)
    program = _load(path, spec, _input_lists(inputs), device)
    _check_spec_commands(program, trust_spec)
    return Check(summary(program, device))


def _chosen(program, sets: dict[str, Any], inputs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The configuration and input sizes ``emit`` writes: unset ones take the first valid value."""
    from orcu.planning.space import input_space, performance_space

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


def _assignments(given: dict[str, Any], params, option: str, other: tuple[str, list[str]]) -> dict[str, Any]:
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
        matches = _matches(values, value)
        if not matches:
            shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values[:12])
            more = ", ..." if len(values) > 12 else ""
            raise UsageError(f"{option}: {text!r} is not one of the values of '{name}': {shown}{more}")
        out[name] = matches[0]
    return out


def _matches(values: tuple, value: Any) -> list:
    """The listed values that ``value`` names: itself, or its text as on the command line."""
    text = str(value).strip()
    return [v for v in values if v == value and type(v) is type(value)] or [
        v for v in values if text in (str(v), repr(v))
    ]


def _pairs(values: dict[str, Any]) -> str:
    from orcu.planning.space import settings_text

    return settings_text(values) or "these values"


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

    device = _profile(device_profile)
    program = load(str(path), spec, device)
    params, inputs = params or {}, inputs or {}
    chosen = {}  # per spec: a configuration and input sizes
    for g in range(len(program.specs)):
        view = program.of_nest(program.nests_of(g)[0])
        chosen[g] = _chosen(view, _taken(program, g, params, "--set"), _taken(program, g, inputs, "--input"))
    output = None if output in (None, "-") else str(output)
    if program.fragment and output is None:
        raise UsageError(
            f"{path} is a fragment (its Loop regions stand outside functions): it becomes the tuned "
            "statements and a .cu with their GPU code; give -o FILE.cu"
        )
    choices = [Choice(*chosen[program.groups[k] if program.groups else 0]) for k in range(len(program.nests))]
    text, codes = tuned_source(program, choices, strip=strip, output=output)
    if explain:
        _explain(program, text, codes, [c.inputs for c in choices], device)
    if output is not None:
        _check_writable(output, str(path), program)
        _say(
            f"orcu: wrote {' and '.join(_write_tuned(program, choices, output, str(path), EMULATE.name, strip, text))}"
        )
    return text


def _taken(program, g: int, given: dict[str, Any], option: str) -> dict[str, Any]:
    """What of ``given`` spec ``g`` takes (``option`` "--set": performance parameters, "--input":
    input parameters). In a file of several specs each takes the names it has with a value it
    lists; a name or value no spec takes is an error, said as the spec that has the name says it."""

    def params(spec):
        return spec.performance_params if option == "--set" else spec.input_params

    if len(program.specs) < 2:
        return given
    for name, value in given.items():
        holders = [spec for spec in program.specs if any(p.name == name for p in params(spec))]
        if not any(_matches(p.values, value) for spec in holders for p in params(spec) if p.name == name):
            if not holders:
                known = {p.name for spec in program.specs for p in params(spec)}
                raise UsageError(f"{option}: '{name}' is not a parameter here{did_you_mean(name, known)}")
            _assignments({name: value}, params(holders[0]), option, ("", []))  # raises: not one of its values
    mine = {p.name: p for p in params(program.specs[g])}
    return {n: v for n, v in given.items() if n in mine and _matches(mine[n].values, v)}


def _explain(program, text: str, codes, inputs: list[Mapping[str, Any]], device) -> None:
    from orcu.execution.model import of_variant
    from orcu.planning.space import settings_text

    resources = _kernel_resources(program, text, device)
    for k, code in enumerate(codes):
        settings = settings_text({k: v for k, v in code.values.items() if v not in (None, {})})
        _say(f"{code.host}: {settings}")
        for note in code.notes or ["every requested transformation applies"]:
            _say(f"  note: {note}")
        traffic = code.traffic(device.multiprocessors)
        for line in traffic.lines() if traffic else []:
            _say(f"  {line}")
        kernel = resources(code)
        _say(f"  {_resources_line(code, kernel, device)}")
        prediction = of_variant(program, k, traffic, inputs[k], device, None if isinstance(kernel, str) else kernel)
        _say(
            f"  {prediction.line()}"
            if prediction
            else "  model: no prediction (a loop bound or a subscript is not a number at these sizes)"
        )


def _kernel_resources(program, text: str, device):
    """A function of a region's code: what ptxas reports of its kernel (32-bit indices) compiled
    for ``device``, or the words that say there is no report."""
    from orcu.execution.toolchain import kernel_resources, ptxas_report
    from orcu.frontend.source import ENCODING

    found: dict | str  # each kernel's resources, or why there is no report
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
    from orcu.device import occupancy

    if isinstance(kernel, str):
        return f"ptxas: {kernel}"
    threads = code.threads
    blocks, busy, limit = occupancy(device, threads, kernel.registers, kernel.shared_bytes)
    local = (
        "no stack frame or spills"
        if not (kernel.stack_bytes or kernel.spill_bytes)
        else f"{kernel.stack_bytes} bytes of stack frame, {kernel.spill_bytes} bytes spilled"
    )
    return (
        f"ptxas ({device.arch}): {kernel.registers} registers a thread, {kernel.shared_bytes} bytes of shared memory a "
        f"block, {local}; {blocks} blocks of {threads} threads per multiprocessor ({limit} bound): occupancy "
        f"{busy:.0%}"
    )


# -- where variants run, and writing ------------------------------------------------------------


def _backend(requested: str, quiet: bool = False) -> str:
    from orcu.device import gpu_visible

    if requested != AUTO:
        return backend_of(requested).name
    if gpu_visible():
        return CUDA.name
    if not quiet:
        _say(
            "orcu: warning: no GPU visible: variants run in orcu's CPU emulation, which checks them; orcu's performance "
            "model ranks them by their predicted GPU time"
        )
    return EMULATE.name


def _device(backend: str, profile_name: str | None):
    from orcu.execution.query import query

    if backend_of(backend).on_gpu:
        device = query()
        if device is None:
            raise UsageError("--backend cuda: no GPU answered the device query (is the driver loaded?)")
        return device
    return _profile(profile_name)


def _compiler(backend: str) -> str:
    from orcu.execution.toolchain import gxx, nvcc

    on_gpu = backend_of(backend).on_gpu
    if not backend_of(backend).runs:
        return "none (orcu's performance model)"
    tool = nvcc() if on_gpu else gxx()
    if tool is None:
        return "not found"
    lines = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    version = (lines[-1] if on_gpu else lines[0]) if lines else tool
    return version if on_gpu else f"{version} with orcu's CUDA emulation"


def _device_text(device, backend: str) -> str:
    return f"{device.name} ({device.arch}{backend_of(backend).where})"


def _check_writable(output: str, source: str, program=None) -> None:
    """Before any work: the tuned file (and a fragment's tuned statements) can be written where it goes."""
    from orcu.driver.writeback import fragment_path

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


def _write_tuned(
    program, choices, output: str, source: str, backend: str, strip: bool, text: str, provenance=None
) -> list[str]:
    """Write the tuned file ``text`` (and for a fragment, its tuned statements beside it, else
    its C header where it has one): the paths written."""
    from orcu.driver.writeback import (
        c_header,
        c_header_path,
        fragment_path,
        fragment_source,
        size_defines,
        write_atomically,
    )
    from orcu.execution.runners import spec_defines_and_includes
    from orcu.execution.toolchain import tuned_file_problem

    # No tuned file is written that its build would refuse: the variants were built alone, the
    # file around them (the caller's functions, their signatures) only here.
    first = next(iter(choices), None)
    first = first[0] if isinstance(first, list) and first else first
    # once per tuned size where the code uses sizes as macros (Orio's -DN=...), as its builds compile it
    try:
        problem = next(
            filter(
                None,
                (
                    tuned_file_problem(
                        text,
                        Path(output).name,
                        Path(source).resolve().parent,
                        backend_of(backend).compiler(),
                        defines,
                        spec_defines_and_includes(program.spec.build_command, first.params if first else {}),
                    )
                    for defines in size_defines(program)
                ),
            ),
            None,
        )
    except FileNotFoundError as missing:
        problem = None
        _say(f"orcu: note: {output} is written without a compile of its own: {missing}")
    if problem is not None:
        raise OrcuError(
            f"{output} would not compile as CUDA C++, so it was not written (C that C++ refuses outside the "
            f"Loop regions, such as malloc's result assigned without a cast, must change; anything else is a "
            f"defect of orcu's): the compiler said:\n{problem}"
        )
    if provenance is not None and provenance.unchecked and _checked_file(output):
        _say(
            f"orcu: warning: {output} held variants checked against the original code; it now holds predictions that no "
            "run checked (--unchecked)"
        )
    write_atomically(output, text, source)
    written = [output]
    if program.fragment:
        written.append(fragment_path(output))
        write_atomically(written[1], fragment_source(program, choices, output, strip, provenance), source)
    elif program.exported:  # C callers include it to call the tuned file's functions
        written.append(c_header_path(output))
        write_atomically(written[1], c_header(program, Path(output).name), source)
    return written


def _checked_file(path: str) -> bool:
    """Whether ``path`` is a tuned file whose every variant a run checked against the C code."""
    from orcu.frontend import generated

    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return False
    return generated.BEGIN in text and "UNCHECKED (--unchecked)" not in text


def _output_path(path, output) -> str:
    """The tuned file of tune and apply: ``output``, else the file with the suffix .tuned.cu."""
    return str(output) if output else str(Path(path).with_suffix(".tuned.cu"))


def _load_for_target(path, spec, inputs, backend: str, device_profile: str | None, runs: bool = True):
    """(program, backend, device) for tune and apply: the spec may read the device's facts.
    ``runs``: variants will run (tune), so a backend chosen for want of a GPU is said."""
    if not Path(path).exists():  # before anything is said of the GPU
        raise OrcuError(f"no such file: {path}")
    backend = _backend(backend, quiet=not runs)
    device = _device(backend, device_profile)
    return _load(path, spec, inputs, device), backend, device


def _target(program, path, backend, device):
    """(compiler, device text, region number -> results Context) for tune and apply: the context
    is what, besides the configuration, determines a measurement."""
    from orcu.driver.database import Context

    compiler = _compiler(backend)
    device_text = _device_text(device, backend)
    source = program.src.text if program.spec_region is not None else program.src.text + repr(program.spec)
    source += program.spec.init_code  # what an init_file puts in the inputs changes the measurements

    def context(k: int) -> Context:
        nest = program.nests[k]
        return Context(
            str(Path(path).resolve()), f"orcu_{nest.name}", nest.loc.line, source, backend, device_text, compiler
        )

    return compiler, device_text, context


def _known_measure(measure: str | None) -> None:
    from orcu.execution.runners import MEASURES

    if measure is not None and measure not in MEASURES:
        raise UsageError(f"unknown measure '{measure}' (known: {', '.join(MEASURES)})")


def _measure(program, measure: str | None, backend: str) -> str:
    """``measure``, else the spec's performance_counter measure, else the model's prediction where
    no GPU runs the variants (the emulation's CPU times say nothing of the GPU), else kernel time."""
    _known_measure(measure)
    return measure or program.spec.measure or backend_of(backend).default_measure


def _objective(program, requested: str | None, backend: str):
    """The objective of every region (each spec's metrics may define its name); energy is
    measured on a GPU only."""
    from orcu.spec.objectives import ENERGY

    goals = {program.of_nest(k).spec.ranking_objective(requested) for k in range(len(program.nests))}
    goal = goals.pop() if len(goals) == 1 else None
    if goal is None:
        raise UsageError("the regions' specs name different objectives: give one with --objective")
    if not backend_of(backend).on_gpu and _energy(program, goal):
        raise UsageError(
            f"the objective {goal.text()} needs energy ({', '.join(ENERGY)}), which orcu measures through NVML on "
            f"a GPU: tune with --backend cuda (this tune runs --backend {backend})"
        )
    return goal


def _executor(path, home: Path, backend: str, gpus: str | None, cluster: str | None):
    """Where the tune's builds and runs happen (orcu/executors.py): a Dask cluster, this
    machine's GPUs side by side, or this machine one run at a time."""
    from orcu.execution.executors import BATCH_SCHEDULERS, Cluster, Local, chosen_gpus, cluster_settings

    if cluster is not None:
        if gpus is not None:
            raise UsageError("--gpus and --cluster: a cluster's workers each time on the GPU they were given")
        # orcu.toml's [cluster] section sets up a batch scheduler's workers
        found = Cluster(
            cluster, cluster_settings(Path(path)) if cluster.partition(":")[0] in BATCH_SCHEDULERS else None
        )
        _say(f"orcu: builds and runs go to {found.describe()}")
        return found
    chosen = chosen_gpus(gpus, backend)
    if chosen is not None and len(chosen) > 1:
        _say(f"orcu: variants are timed on {len(chosen)} GPUs side by side ({', '.join(chosen)})")
    return Local(home / "build", chosen)


def _energy(program, goal) -> bool:
    """Whether the objective reads NVML's energy, itself or through a region's spec metrics."""
    from orcu.spec.objectives import needs_energy

    return any(needs_energy(goal, program.of_nest(k).spec.metric_exprs) for k in range(len(program.nests)))


def _unchecked_lines(what: list[str], allowed: bool) -> list[str]:
    """Results that no run checked (predictions) are written only when asked: the words either way."""
    if allowed:
        return [
            f"orcu: warning: {where}: the tuned file uses a variant orcu's performance model ranked and no run "
            "checked against the original code (--unchecked); its header says so"
            for where in what
        ]
    return [
        f"orcu: error: {where}: the result was predicted by orcu's performance model and never checked against the "
        "original code; tune with --backend emulate or cuda, or pass --unchecked to use it anyway"
        for where in what
    ]


def _left_out(program, limits) -> None:
    """A note per region and input size whose configurations some cannot be built (preflight)."""
    from orcu.planning.space import settings_text, sizes_of

    for k, (nest, per_input) in enumerate(zip(program.nests, limits)):
        for inputs, m in zip(sizes_of(program, k), per_input):
            if m.removed:
                where = f" {settings_text(inputs)}" if inputs else ""
                _say(
                    f"orcu: note: orcu_{nest.name}{where}: {m.removed} of {m.of} configurations cannot be built and are "
                    f"left out (they break: {'; '.join(m.reasons)})"
                )


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
    from orcu.device import orcu_home
    from orcu.driver.database import Database
    from orcu.driver.preflight import preflight
    from orcu.driver.progress import Progress
    from orcu.driver.tuning import check_predictions, choices, summary, together
    from orcu.driver.tuning import tune as search_space
    from orcu.driver.writeback import Provenance, fragment_path, tuned_source
    from orcu.execution.runners import Runner, foreign_arch
    from orcu.execution.toolchain import gxx
    from orcu.planning.space import settings_text

    if (
        budget is not None
        and budget <= 0
        or time_limit is not None
        and time_limit <= 0
        or jobs is not None
        and jobs <= 0
    ):
        raise UsageError("budget, time_limit and jobs must be above 0")
    home = orcu_home(path)  # before anything: a state directory that cannot be used is said at once
    program, backend, device = _load_for_target(path, spec, _input_lists(inputs), backend, device_profile)
    _check_spec_commands(program, trust_spec)
    _left_out(program, preflight(program, device))  # what orcu check checks, before anything is built
    if backend_of(backend).on_gpu:
        for note in foreign_arch(program, device):
            _say(note)
    compiler, device_text, context = _target(program, path, backend, device)
    output = _output_path(path, output)
    _check_writable(output, str(path), program)
    spec_ = program.spec
    budgets = [b for b in (budget, spec_.arg("search", "total_runs")) if b is not None]
    limits = [
        t
        for t in (
            time_limit,
            None if spec_.arg("search", "time_limit") is None else 60.0 * spec_.arg("search", "time_limit"),
        )
        if t is not None
    ]
    measure = _measure(program, measure, backend)
    goal = _objective(program, objective, backend)
    executor = _executor(path, home, backend, gpus, cluster)
    runner = Runner(
        backend,
        device,
        home / "build",
        jobs or max(os.cpu_count() or 1, executor.slots),
        measure=measure,
        energy=_energy(program, goal),
        executor=executor,
    )
    runners = [runner]
    db = Database(home / "results.sqlite")
    try:
        _run_spec_command(program, "prebuild_command", trust_spec)
        display = Progress(sys.stderr, executor if executor.slots > 1 else None) if progress is True else None
        with display or nullcontext():
            update = display.update if display else (progress if callable(progress) else None)
            tunings = search_space(
                program,
                runner,
                db,
                context,
                objective=goal,
                search=search,
                budget=min(budgets) if budgets else None,
                time_limit=min(limits) if limits else None,
                seed=seed,
                progress=update,
                started=display.start if display else None,
                say=_say,
            )
        if backend_of(backend).winners_need_a_check and gxx() is None:
            for t in tunings:
                t.checked, t.check_note = (
                    False,
                    "no C++ compiler (g++) runs the emulation that checks the model's winners",
                )
        elif backend_of(backend).winners_need_a_check:  # they run in the emulation before anything is written
            runners.append(Runner(EMULATE.name, device, home / "build", jobs, measure="model"))
            check_predictions(
                program,
                tunings,
                runners[-1],
                db,
                context,
                _target(program, path, EMULATE.name, device)[2],
                progress=_say,
            )
        _run_spec_command(program, "postbuild_command", trust_spec)
        best = choices(program, tunings)
        problems = together(program, runner, best) if best is not None and backend_of(backend).runs else []
    finally:  # interrupted too: each finished evaluation is in the database already
        db.close()
        for r in runners:
            r.close()
    errors = [f"orcu: error: {problem}; no output written" for problem in problems]
    if problems:
        best = None
    not_run = [
        f"{t.name} {settings_text(t.inputs)}".strip() for t in tunings if t.checked is False and t.best is not None
    ]
    if best is not None and not_run:
        for line in _unchecked_lines(not_run, unchecked):
            (_say if unchecked else errors.append)(line)
        if not unchecked:
            best = None
            errors.append("orcu: error: no output written: the results are in the database")
    result = summary(program, tunings, output if best is not None else None, backend, device_text)
    if program.fragment and best is not None:
        result["fragment"] = fragment_path(output)
    written: list[str] = []
    if best is not None:
        provenance = Provenance(device=device_text, compiler=compiler, unchecked=bool(not_run))
        text, _ = tuned_source(program, best, strip=strip, provenance=provenance, output=output)
        try:
            written = _write_tuned(program, best, output, str(path), backend, strip, text, provenance)
        except UsageError as e:  # the results are safe in the database all the same
            raise UsageError(
                f"{e.message}; the results are in the database: orcu apply {path} -o OTHER writes them elsewhere"
            ) from None
    else:
        for t in tunings:
            if t.best is None:
                counts = ", ".join(f"{n} {s}" for s, n in t.statuses.items()) or "nothing evaluated"
                errors.append(
                    f"orcu: error: {t.name} {t.inputs or ''}: no variant passed ({counts}); no output written"
                )
    file = str(Path(path).resolve())
    regions = [_region_result(file, t, backend, device_text, compiler) for t in tunings]
    result["objective"] = goal.text()
    return Tuning(
        str(path),
        backend,
        device_text,
        measure,
        regions,
        written,
        errors,
        _after_notes(tunings, backend),
        result,
        device,
        goal,
    )


def _region_result(file: str, t, backend: str, device_text: str, compiler: str) -> RegionResult:
    evaluations = [_evaluation(file, t, r, backend, device_text, compiler) for r in t.results]
    best = _evaluation(file, t, t.best, backend, device_text, compiler) if t.best is not None else None
    return RegionResult(
        t.name,
        t.line,
        dict(t.inputs),
        t.strategy,
        t.space,
        best,
        t.statuses,
        evaluations,
        tuple(t.parameters),
        t.new,
        t.cached,
        t.same_build,
        t.spread,
        tuple(t.no_effect),
        tuple(t.notes),
        t.checked,
    )


# A GPU time under which launches, clocks and the timer's resolution are as large as what tells
# variants apart (a kernel launch alone costs 2 to 5 microseconds).
SMALL_KERNEL_MS = 0.02


def _after_notes(tunings, backend: str) -> list[str]:
    """What the command line says after its table: parameters that changed nothing, codegen's
    notes, where predictions were checked, unsteady winners, winners too fast to tell apart."""
    from orcu.planning.space import settings_text

    out = []
    if any(t.best is not None and t.best.measure == "model" for t in tunings):
        out.append(
            "orcu: note: the ranking above is orcu's performance model's, not a GPU's: no GPU ran these variants"
            + backend_of(backend).check
        )
    for t in tunings:
        where = f"{t.name} {settings_text(t.inputs)}".strip()
        best = t.best
        if best is not None and best.measure == "model" and best.time_ms is not None and best.time_ms < SMALL_KERNEL_MS:
            out.append(
                f"orcu: warning: {where}: the model predicts the winner's kernels at {1000 * best.time_ms:.1f} us, "
                "a few launches' cost: at this size its predictions differ by less than their own error, so its "
                "ranking says little; tune at the sizes production runs (input_params), or on a GPU"
            )
        if (
            backend_of(backend).on_gpu
            and best is not None
            and best.measure == "kernel"
            and best.time_ms is not None
            and best.time_ms < SMALL_KERNEL_MS
        ):
            out.append(
                f"orcu: warning: {where}: the winner's kernels run in {1000 * best.time_ms:.1f} us: at this size "
                "a launch's cost and the timer's noise are as large as the differences between variants, and "
                "the choice may not hold at the sizes production runs; tune at those sizes (input_params)"
            )
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
    from orcu.execution.runners import MEASURE_NAMES
    from orcu.planning.space import settings_text, sizes_of

    orcu_home(path)
    program, backend, device = _load_for_target(path, spec, _input_lists(inputs), backend, device_profile, runs=False)
    compiler, device_text, context = _target(program, path, backend, device)
    measure = _measure(program, measure, backend)
    output = _output_path(path, output)
    _check_writable(output, str(path), program)
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
        _say(f"orcu: note: the results were measured on {device_text} with {compiler}")
    if missing:
        raise NotWritten(
            [
                f"orcu: error: {what}: no tuning result for this code, backend, device and measure "
                f"({MEASURE_NAMES[measure]}); run orcu tune"
                for what in missing
            ]
        )
    if not_run:
        lines = _unchecked_lines(not_run, unchecked)
        if not unchecked:
            raise NotWritten(lines)
        for line in lines:
            _say(line)
    provenance = Provenance(device=device_text, compiler=compiler, unchecked=bool(not_run))
    text, _ = tuned_source(program, per_region, strip=strip, provenance=provenance, output=output)
    written = _write_tuned(program, per_region, output, str(path), backend, strip, text, provenance)
    _say(f"orcu: wrote {' and '.join(written)}")
    return written


# -- the results database -------------------------------------------------------------------------


def results(path: str | os.PathLike | None = None, *, measure: str | None = None) -> Results:
    """Every evaluation in the results database (of one annotated file, or all), oldest first.
    Each is ranked by ``measure`` where given, else by the one its tune used (model under the
    emulation, kernel time on a GPU, or the measure a choice of that region records)."""
    from orcu.driver.database import existing_database
    from orcu.driver.report import chosen, group_key

    _known_measure(measure)
    db = existing_database(path)
    try:
        rows = list(db.rows(str(Path(path).resolve()) if path else None))
        by_group = chosen(db, rows)  # the measure each group's tune ranked by, first
    finally:
        db.close()
    picked = [_from_row(row, measure or by_group[group_key(row)][0]) for row in rows]
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
    from orcu.execution.runners import build_flags
    from orcu.planning.space import settings_text, sizes_of

    data, described = t4.read(path)
    origin = ((described or {}).get("metadata") or {}).get("orcu") or {}
    file = file or origin.get("file")
    if file is None:
        raise UsageError(
            f"{path}: name the annotated file the results belong to (orcu import --format t4 {path} --file FILE)"
        )
    sizes = (
        _input_lists(inputs)
        if inputs
        else ({k: [v] for k, v in origin["inputs"].items()} if origin.get("inputs") else None)
    )
    program, backend, device = _load_for_target(
        file, spec, sizes, backend or origin.get("backend") or "auto", device_profile, runs=False
    )
    _, _, context = _target(program, file, backend, device)
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
