"""Every emitted file compiles with nvcc for sm_80 and sm_90, and with -DORCU_ORIGINAL as plain C++."""
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from codegen_cases import CASES
from conftest import EXAMPLES
from orcu.program import load
from orcu.space import input_space, performance_space
from orcu.writeback import Choice, tuned_source

ARCHS = ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90"]
SAMPLES = 1  # random configurations per example, besides the first one (the examples tune and nvcc-compile their best in test_tune too)
# nvcc for two GPUs, every case: minutes; in one xdist worker, so the builds run once
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("nvcc")]


def example_configs():
    """(test id, file, configuration, inputs): a seeded sample of each example's space."""
    out = []
    for path in sorted(EXAMPLES.glob("*.c")):
        program = load(path)
        inputs = next(iter(input_space(program).configs()))
        space = performance_space(program, inputs)
        rng = random.Random(path.name)
        picks = [0] + space.sample(min(SAMPLES, space.size - 1), rng)
        for k in picks:
            out.append((f"{path.stem}-{k}", path, space.config(k), inputs))
    return out


EXAMPLE_CONFIGS = example_configs()


def compile_one(job):
    name, command = job
    proc = subprocess.run(command, capture_output=True, text=True)
    return name, proc.returncode, proc.stderr


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    """Compile every case and sampled example configuration once, in parallel."""
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc is not on PATH (this project's machines all have it)"
    out = tmp_path_factory.mktemp("nvcc")
    jobs = []
    for name, text in CASES.items():
        (out / f"{name}.c").write_text(text)
        program = load(out / f"{name}.c")
        tuned, _ = tuned_source(program, [Choice({})] * len(program.nests))
        (out / f"{name}.cu").write_text(tuned)
        jobs.append((name, [nvcc, "-c", *ARCHS, str(out / f"{name}.cu"), "-o", str(out / f"{name}.o")]))
    for name, path, config, inputs in EXAMPLE_CONFIGS:
        program = load(path)
        tuned, _ = tuned_source(program, [Choice(config, inputs)] * len(program.nests))
        (out / f"{name}.cu").write_text(tuned)
        jobs.append((name, [nvcc, "-c", *ARCHS, str(out / f"{name}.cu"), "-o", str(out / f"{name}.o")]))
        jobs.append((name + "-original", ["g++", "-x", "c++", "-DORCU_ORIGINAL", "-c", str(out / f"{name}.cu"), "-o", str(out / f"{name}-original.o")]))
    with ThreadPoolExecutor(max_workers=4) as pool:
        return {name: (rc, err) for name, rc, err in pool.map(compile_one, jobs)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_transformation_compiles(builds, name):
    rc, err = builds[name]
    assert rc == 0, err


@pytest.mark.parametrize("name", [c[0] for c in EXAMPLE_CONFIGS])
def test_example_configuration_compiles(builds, name):
    rc, err = builds[name]
    assert rc == 0, err


@pytest.mark.parametrize("name", [c[0] for c in EXAMPLE_CONFIGS])
def test_original_build_needs_no_cuda(builds, name):
    rc, err = builds[name + "-original"]
    assert rc == 0, err
