"""Every emitted file compiles with nvcc for sm_80 and sm_90, and with -DORCU_ORIGINAL as plain C++
(the C99 array parameters of tests/c99_project included)."""

import functools
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from codegen_cases import CASES
from conftest import EXAMPLES, H100, ROOT

from orcu.codegen.region import transform_values
from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.runners import invalid_reason
from orcu.execution.toolchain import build_command
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space

ARCHS = ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90"]
WALL = ["-Xcompiler", "-Wall"]  # the host compiler's warnings too: generated code compiles without one
SAMPLES = 2  # random configurations per example, besides the first one
pytestmark = pytest.mark.slow  # nvcc for two GPUs, every case and example: minutes


# The annotated examples, and the kernels written with C99 array parameters (test_c99_arrays).
SOURCES = sorted(EXAMPLES.glob("*.c")) + [
    p for p in sorted((ROOT / "tests" / "c99_project").glob("*.c")) if p.name != "main.c"
]


@functools.cache
def example_configs(path: Path) -> list:
    """(name, configuration, inputs): a seeded sample of the example's space. Made when a test
    asks for it, not when the tests are collected: -m "not slow" loads no example."""
    out = []
    program = load(path)
    inputs = next(iter(input_space(program).configs()))
    space = performance_space(program, inputs)
    rng = random.Random(path.name)
    # what a tune offers: configurations the device can run (the shared tiles of a tile of 8
    # along x can pass the 48 KB a block declares, which orcu prunes before building)
    drawn = space.sample(min(4 * SAMPLES, space.size - 1), rng)
    picks = [0] + [k for k in drawn if runnable(program, space.config(k), inputs)][:SAMPLES]
    for k in picks:
        out.append((f"{path.stem}-{k}", space.config(k), inputs))
    return out


def runnable(program, config, inputs) -> bool:
    return all(
        invalid_reason(transform_values(program, nest, config, inputs), H100, nest) is None for nest in program.nests
    )


# One test an example: its first configuration and up to SAMPLES more, drawn when the test runs.
EXAMPLES_COMPILED = [pytest.param(path, id=path.stem) for path in SOURCES]


def compiles(command: list[str]) -> None:
    """Compiles, and without a warning: nvcc's own (such as #177, declared and never used) and,
    given -Xcompiler -Wall, the host compiler's."""
    proc = subprocess.run(command, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr, proc.stderr


def tuned(directory, path, choice: Choice) -> str:
    """The tuned file of ``path`` with every region at ``choice``, written to ``directory``."""
    program = load(path)
    text, _ = tuned_source(program, [choice] * len(program.nests))
    out = directory / (path.stem + ".cu")
    out.write_text(text)
    return str(out)


def nvcc():
    found = shutil.which("nvcc")
    assert found, "nvcc is not on PATH (this project's machines all have it)"
    return found


# Each test compiles its own file: pytest-xdist spreads them over the workers.
@pytest.mark.parametrize("name", sorted(CASES))
def test_transformation_compiles(tmp_path, name):
    (tmp_path / f"{name}.c").write_text(CASES[name])
    compiles(
        [
            nvcc(),
            "-c",
            *ARCHS,
            *WALL,
            tuned(tmp_path, tmp_path / f"{name}.c", Choice({})),
            "-o",
            str(tmp_path / f"{name}.o"),
        ]
    )


@pytest.mark.parametrize("path", EXAMPLES_COMPILED)
def test_example_configuration_compiles(tmp_path, path):
    for name, config, inputs in example_configs(path):
        source = tuned(tmp_path, path, Choice(config, inputs))
        compiles([nvcc(), "-c", *ARCHS, *WALL, source, "-o", str(tmp_path / f"{name}.o")])


@pytest.mark.parametrize("path", EXAMPLES_COMPILED)
def test_original_build_needs_no_cuda(tmp_path, path):
    for name, config, inputs in example_configs(path):
        source = tuned(tmp_path, path, Choice(config, inputs))
        compiles(
            ["g++", "-x", "c++", "-Wall", "-DORCU_ORIGINAL", "-c", source, "-o", str(tmp_path / f"{name}-original.o")]
        )


@pytest.mark.parametrize("path", EXAMPLES_COMPILED)
def test_the_emulated_build_has_no_warning_under_wall(tmp_path, path):
    """As orcu cc --emulate and the build systems' emulated builds compile a tuned file: g++ over the
    kernels too, which nvcc's host pass never shows it (an iterator a register tile replaced,
    still declared, was the one warning)."""
    for name, config, inputs in example_configs(path):
        source = Path(tuned(tmp_path, path, Choice(config, inputs)))
        flags = ("-c", "-Wall", "-Wextra", "-I", str(path.parent))
        compiles(build_command("emulate", source, tmp_path / f"{name}.o", None, flags))


def test_the_golden_tuned_file_compiles_for_the_gpu_and_as_the_original(tmp_path):
    """tests/golden/two_regions_file.cu, a whole tuned file (the region goldens are the code the
    tests above compile from the same cases)."""
    golden = str(ROOT / "tests" / "golden" / "two_regions_file.cu")
    compiles([nvcc(), "-c", *ARCHS, *WALL, golden, "-o", str(tmp_path / "golden.o")])
    compiles(["g++", "-x", "c++", "-DORCU_ORIGINAL", "-c", golden, "-o", str(tmp_path / "golden-original.o")])
