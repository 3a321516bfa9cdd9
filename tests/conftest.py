import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import settings

from orcu.device import profile
from orcu.driver.tuning import region_space
from orcu.errors import OrcuError
from orcu.execution.runners import Runner, build_identity
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import input_space
from orcu.search.space import SearchSpace

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "annotated_examples"
H100 = profile("H100")

# Hypothesis's default 200 ms deadline per example is a timing assertion: on CI's 2 shared cores
# a pure arithmetic check once took 262 ms (a pause elsewhere) and failed the run. What the
# tests assert is results; time belongs to bench/.
settings.register_profile("orcu", deadline=None)
settings.load_profile("orcu")

# The tests run the `orcu` command (in subprocesses, and CMake's find_package looks for it on
# PATH): the one installed with the interpreter running them, also where its virtual
# environment is not activated (`.venv/bin/python -m pytest`), as a user may run them.
_SCRIPTS = [sysconfig.get_path("scripts"), sysconfig.get_path("scripts", f"{os.name}_user")]
os.environ["PATH"] = os.pathsep.join([d for d in _SCRIPTS if os.path.isdir(d)] + [os.environ.get("PATH", "")])


def has_gpu() -> bool:
    return shutil.which("nvidia-smi") is not None and os.path.exists("/dev/nvidiactl")


def pytest_collection_modifyitems(config, items):
    if has_gpu():
        return
    skip = pytest.mark.skip(reason="no NVIDIA GPU visible")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in a temporary directory so diagnostics name files by short relative paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_orcu(*args, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m orcu ARGS`` in ``cwd``, its results database under cwd/home."""
    return subprocess.run(
        [sys.executable, "-m", "orcu", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "ORCU_HOME": str(cwd / "home")},
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def scale_kernel(block_counts: list[int], n: str) -> str:
    """x[i] = a * x[i] + 1.0 over n doubles, tuned over 4 thread counts and ``block_counts``."""
    return f"""void scale(int n, double a, double *x) {{
    /*@ begin PerfTuning (
    def performance_params {{
        param TC[] = [32, 64, 128, 256];
        param BC[] = {block_counts};
    }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{
        decl dynamic double x[n] = random;
        decl double a = 1.5;
    }}
    ) @*/
    int i;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++)
        x[i] = a * x[i] + 1.0;
    ) @*/
    for (i = 0; i < n; i++)
        x[i] = a * x[i] + 1.0;
    /*@ end @*/
    /*@ end @*/
}}
"""


def diagnose(in_tmp, text: str, name: str = "t.c", **files) -> str:
    """The rendered diagnostic of loading ``text`` (the test fails if it loads)."""
    for fname, content in files.items():
        write(in_tmp / fname.replace("__", "."), content)
    write(in_tmp / name, text)
    with pytest.raises(OrcuError) as info:
        load(name)
    return info.value.render()


def evaluate(
    in_tmp, source, edit=None, backend="emulate", params=None, inputs=None, timeout_floor=60.0, reference_limit=3600.0
):
    write(in_tmp / "t.c", source)
    program = load("t.c")
    runner = Runner(
        backend, H100, in_tmp / "build", jobs=2, timeout_floor=timeout_floor, reference_limit=reference_limit
    )
    inputs = inputs or next(iter(input_space(program).configs()))
    return next(runner.evaluate(program, 0, [(params or {}, inputs)], edit))


# The tests marked whole_space check a covering array of a space (every pair of values of any two
# parameters), and every configuration of it under bench/validate_all.py, which sets this: the
# whole products take hours on two cores, and code generation's changes run them before landing.
EVERY = os.environ.get("ORCU_VALIDATE_ALL") == "1"


def covering_configs(program, region, inputs, keep=lambda config: True, every=EVERY):
    """The covering array (every pair of values of any two parameters, SearchSpace.covering)
    of the region's valid configurations at ``inputs`` that ``keep`` accepts; with ``every``,
    all of them."""
    space = region_space(program, region, inputs, H100)
    kept = [p for p in space.points if keep(space.config(p))]
    chosen = kept if every else SearchSpace(space.names, space.values, kept).covering()
    return [space.config(p) for p in chosen]


def covering_results(program, region, inputs, workdir, every=False, measure="model"):
    """Each build of the region's covering array (SearchSpace.covering; with ``every``, of its
    whole space) at ``inputs``, built, checked and counted in emulation as a tune ranked by the
    model evaluates it (``measure``: "kernel" checks without counting the traffic the model
    needs); one configuration of each build, as a tune evaluates them (configurations that
    generate the same code with the same flags, nvcc's flags under the emulation, are one)."""
    builds = {}
    for config in covering_configs(program, region, inputs, every=every):
        identity = build_identity(program, region, config, inputs, "emulate", H100.arch)
        builds.setdefault(identity[0] if identity else repr(sorted(config.items())), config)
    runner = Runner("emulate", H100, workdir, jobs=2, measure=measure)
    return list(runner.evaluate(program, region, [(config, inputs) for config in builds.values()]))


def builds_as_cuda_and_as_c(folder: Path, tuned: str) -> None:
    """A tuned file compiles with nvcc for the GPU and, with -DORCU_ORIGINAL, with gcc as C99,
    both without a warning."""
    (folder / "t.tuned.cu").write_text(tuned)
    for command in (
        [nvcc(), "-arch=sm_90", "-Xcompiler", "-Wall", "-c", "t.tuned.cu", "-o", "t.o"],
        ["gcc", "-x", "c", "-std=c99", "-Wall", "-DORCU_ORIGINAL", "-c", "t.tuned.cu", "-o", "t-original.o"],
    ):
        built = subprocess.run(command, cwd=folder, capture_output=True, text=True)
        assert built.returncode == 0 and "warning" not in built.stderr, built.stderr


def planted(old, new):
    """An edit of the generated kernel text that plants a bug (it must apply)."""

    def edit(code):
        at = code.text.find(old)
        while at >= 0 and "//" in code.text[code.text.rfind("\n", 0, at) + 1 : at]:  # not in a comment
            at = code.text.find(old, at + 1)
        assert at >= 0, f"nothing to plant at: {old!r}"
        code.text = code.text[:at] + new + code.text[at + len(old) :]
        return code

    return edit


def build_harness_files(folder: Path, source, compiler: str, arch: str | None = None) -> Path:
    """A harness (harness.HarnessSource) built as a tune builds it: its C reference by the C
    compiler, linked into its CUDA C++ program. The executable's path."""
    from orcu.execution.toolchain import compile_c, compile_program

    write(folder / "h.cu", source.text)
    write(folder / "h.c", source.reference)
    reference = compile_c(folder / "h.c", folder / "h.reference.o")
    assert reference.ok, reference.message
    build = compile_program(compiler, folder / "h.cu", folder / "h", arch, libs=(str(folder / "h.reference.o"),))
    assert build.ok, build.message
    return folder / "h"
