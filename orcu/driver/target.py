"""What a call of the API works on and where: the program loaded at the sizes asked for, the
backend, device, compiler and executor, the measure and objective, the tuned file's path and
its writing, and the checks before anything is built."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from orcu.errors import OrcuError, UsageError, did_you_mean
from orcu.execution.backends import AUTO, CUDA, EMULATE
from orcu.execution.backends import backend as backend_of


def say(line: str) -> None:
    print(line, file=sys.stderr)


def device_profile_of(name: str | None):
    from orcu.device import DEFAULT_PROFILE, profile

    return profile(name or DEFAULT_PROFILE)


def load_program(path, spec, inputs: dict[str, list] | None, device):
    """The program of check, tune and apply: ``inputs``' sizes in place of the spec's, and for a
    file without a spec, the one orcu assumes (spec/assumed.py), said on stderr."""
    from orcu.planning.assumed import assumed_spec
    from orcu.planning.program import load

    program = load(str(path), spec, device)
    if program.spec_kind is None:  # no spec at all: one is assumed
        assumed = assumed_spec(program, inputs or {}, device.spec_names())
        for note in assumed.notes:
            say(f"orcu: note: {note}")
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


def input_lists(inputs: dict[str, Any] | Iterable[str] | None) -> dict[str, list] | None:
    """Input sizes as the functions take them (a dict of a value or a list of values per name)
    or as the command line gives them (NAME=VALUE strings)."""
    from orcu.planning.assumed import input_values

    if inputs is None:
        return None
    if isinstance(inputs, dict):
        return {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in inputs.items()}
    return input_values(list(inputs))


def check_spec_commands(program, trusted: bool) -> None:
    """The spec's build flags and libs pass orcu's allowlist unless the user trusts the spec;
    its prebuild and postbuild commands run only then (said once otherwise). Arguments orcu
    does not act on are said too."""
    from orcu.execution.flags import check_build_flags
    from orcu.execution.harness import unobserved
    from orcu.spec.unused import unused_decls, unused_notes

    text = program.src.text
    for line in unobserved(program):
        say(line)
    for g, spec in enumerate(program.specs):
        region = program.spec_regions[g] if program.spec_regions else None
        code = (text[region.code_start : region.code_end] if region is not None else text) + spec.init_code
        code += program.prologues[g] if program.prologues else ""
        for line in unused_notes(spec) + unused_decls(spec, code):
            say(line)
    if trusted:
        return
    for spec in program.specs:
        check_build_flags(spec, program.src)
    commands = [
        name for name in ("prebuild_command", "postbuild_command") if any(s.arg("build", name) for s in program.specs)
    ]
    if commands:
        say(
            f"orcu: warning: the spec's {' and '.join(commands)} {'was' if len(commands) == 1 else 'were'} not run: "
            "commands from a spec run only with --trust-spec"
        )


def run_spec_command(program, name: str, trusted: bool) -> None:
    """Orio's prebuild_command (before the builds) or postbuild_command (after them), through a
    shell in the file's directory, for a trusted spec."""
    for command in dict.fromkeys(spec.arg("build", name) for spec in program.specs):
        if not trusted or not command:
            continue
        proc = subprocess.run(command, shell=True, cwd=Path(program.src.path).resolve().parent)
        if proc.returncode != 0:
            raise UsageError(f"the spec's {name} failed (exit code {proc.returncode}): {command}")


def _backend(requested: str, quiet: bool = False) -> str:
    from orcu.device import gpu_visible

    if requested != AUTO:
        return backend_of(requested).name
    if gpu_visible():
        return CUDA.name
    if not quiet:
        say(
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
    return device_profile_of(profile_name)


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


def check_writable(output: str, source: str, program=None) -> None:
    """Before any work: the tuned file (and a fragment's tuned statements) can be written where it goes."""
    from orcu.driver.writeback import fragment_path

    if program is not None and program.fragment:
        check_writable(fragment_path(output), source)
    path = Path(output)
    if path.resolve() == Path(source).resolve():
        raise UsageError(f"refusing to overwrite the input file {source}: choose another output path with -o")
    if not path.parent.is_dir():
        raise UsageError(f"cannot write {output}: there is no directory {path.parent}")
    if path.is_dir():
        raise UsageError(f"cannot write {output}: it is a directory")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write {output}: permission denied")


def write_tuned(
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
    from orcu.execution.buildflags import spec_defines_and_includes
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
        say(f"orcu: note: {output} is written without a compile of its own: {missing}")
    if problem is not None:
        raise OrcuError(
            f"{output} would not compile as CUDA C++, so it was not written (C that C++ refuses outside the "
            f"Loop regions, such as malloc's result assigned without a cast, must change; anything else is a "
            f"defect of orcu's): the compiler said:\n{problem}"
        )
    if provenance is not None and provenance.unchecked and _checked_file(output):
        say(
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


def output_path(path, output) -> str:
    """The tuned file of tune and apply: ``output``, else the file with the suffix .tuned.cu."""
    return str(output) if output else str(Path(path).with_suffix(".tuned.cu"))


def load_for_target(path, spec, inputs, backend: str, device_profile: str | None, runs: bool = True):
    """(program, backend, device) for tune and apply: the spec may read the device's facts.
    ``runs``: variants will run (tune), so a backend chosen for want of a GPU is said."""
    if not Path(path).exists():  # before anything is said of the GPU
        raise OrcuError(f"no such file: {path}")
    backend = _backend(backend, quiet=not runs)
    device = _device(backend, device_profile)
    return load_program(path, spec, inputs, device), backend, device


def target_of(program, path, backend, device):
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


def check_measure(measure: str | None) -> None:
    from orcu.execution.result import MEASURES

    if measure is not None and measure not in MEASURES:
        raise UsageError(f"unknown measure '{measure}' (known: {', '.join(MEASURES)})")


def ranking_measure(program, measure: str | None, backend: str) -> str:
    """``measure``, else the spec's performance_counter measure, else the model's prediction where
    no GPU runs the variants (the emulation's CPU times say nothing of the GPU), else kernel time."""
    check_measure(measure)
    return measure or program.spec.measure or backend_of(backend).default_measure


def ranking_objective(program, requested: str | None, backend: str):
    """The objective of every region (each spec's metrics may define its name); energy is
    measured on a GPU only."""
    from orcu.spec.objectives import ENERGY

    goals = {program.of_nest(k).spec.ranking_objective(requested) for k in range(len(program.nests))}
    goal = goals.pop() if len(goals) == 1 else None
    if goal is None:
        raise UsageError("the regions' specs name different objectives: give one with --objective")
    if not backend_of(backend).on_gpu and measures_energy(program, goal):
        raise UsageError(
            f"the objective {goal.text()} needs energy ({', '.join(ENERGY)}), which orcu measures through NVML on "
            f"a GPU: tune with --backend cuda (this tune runs --backend {backend})"
        )
    return goal


def executor_for(path, home: Path, backend: str, gpus: str | None, cluster: str | None):
    """Where the tune's builds and runs happen (orcu/execution/executors.py): a Dask cluster, this
    machine's GPUs side by side, or this machine one run at a time."""
    from orcu.execution.executors import BATCH_SCHEDULERS, Cluster, Local, chosen_gpus, cluster_settings

    if cluster is not None:
        if gpus is not None:
            raise UsageError("--gpus and --cluster: a cluster's workers each time on the GPU they were given")
        # orcu.toml's [cluster] section sets up a batch scheduler's workers
        found = Cluster(
            cluster, cluster_settings(Path(path)) if cluster.partition(":")[0] in BATCH_SCHEDULERS else None
        )
        say(f"orcu: builds and runs go to {found.describe()}")
        return found
    chosen = chosen_gpus(gpus, backend)
    if chosen is not None and len(chosen) > 1:
        say(f"orcu: variants are timed on {len(chosen)} GPUs side by side ({', '.join(chosen)})")
    return Local(home / "build", chosen)


def measures_energy(program, goal) -> bool:
    """Whether the objective reads NVML's energy, itself or through a region's spec metrics."""
    from orcu.spec.objectives import needs_energy

    return any(needs_energy(goal, program.of_nest(k).spec.metric_exprs) for k in range(len(program.nests)))


def unchecked_lines(what: list[str], allowed: bool) -> list[str]:
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


def say_left_out(program, limits) -> None:
    """A note per region and input size whose configurations some cannot be built (preflight)."""
    from orcu.planning.space import settings_text, sizes_of

    for k, (nest, per_input) in enumerate(zip(program.nests, limits)):
        for inputs, m in zip(sizes_of(program, k), per_input):
            if m.removed:
                where = f" {settings_text(inputs)}" if inputs else ""
                say(
                    f"orcu: note: orcu_{nest.name}{where}: {m.removed} of {m.of} configurations cannot be built and are "
                    f"left out (they break: {'; '.join(m.reasons)})"
                )
