"""C99 array parameters as PolyBench and most numerical C write them (`double A[n][m]`, `const`,
`restrict`, 3-D, a pointer to rows `double (*A)[n]`, a 1-D `double x[n]`, a time loop around
four nests that keep them on the device): every variant of each
kernel is right in emulation, each tuned file compiles with nvcc warning-free, and a C program
calling the kernels on its own variable-length arrays gives, built through `orcu cc`, exactly
what its plain C build gives (tests/c99_project)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EVERY, covering_results

from orcu.codegen.region import generate
from orcu.execution.toolchain import nvcc
from orcu.planning.program import load
from orcu.planning.space import input_space

PROJECT = Path(__file__).parent / "c99_project"
KERNELS = ["scale2d.c", "gemm.c", "sum3d.c", "rowscale.c", "fdtd2d.c"]


WHOLE = ["kernel_gemm.c", "correlation.c"]  # spaces bench/validate_all.py checks whole


@pytest.mark.parametrize(
    "kernel", KERNELS + [pytest.param(k, marks=[pytest.mark.slow, pytest.mark.whole_space]) for k in WHOLE]
)
def test_every_variant_of_a_c99_kernel_is_right(in_tmp, kernel):
    """The covering array of each space; under bench/validate_all.py the whole space of
    PolyBench's imperfect gemm, whose
    shared strips of B once went to the first j loop too and read B at an unset k (SIGSEGV),
    and of correlation's last nest, whose register tiles once loaded and stored the sum of row
    i in every copy of the body (i_0 and i_1 alike), a wrong result."""
    shutil.copy(PROJECT / kernel, in_tmp / kernel)
    program = load(kernel)
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=EVERY and kernel in WHOLE, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message[:300]) for r in results]
    if kernel == "kernel_gemm.c":
        shared = [r.params for r in results if r.params.get("shared_B_1")]
        assert len(shared) >= 4
        # the strips of B go around the j loop that reads B, not the other one (a read of B at an
        # unset k there is undefined behaviour, which a run need not show)
        kernel_text = generate(program, program.nests[0], shared[0], inputs).text
        # one strip loop in each instance of the kernel (32-bit indices: two buffers; 64-bit: one)
        assert kernel_text.count("B copied to shared memory per strip") == 2


def test_the_tuned_files_keep_the_c_signature_and_compile_with_nvcc(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    shutil.copy(PROJECT / "scale2d.c", in_tmp)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "scale2d.c", "--backend", "emulate", "--budget", "2"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    tuned = (in_tmp / "scale2d.tuned.cu").read_text()
    # the same pointer for the caller (C ignores the first extent), the C99 type back in the body
    assert (
        "void scale2d(int n, int m, void *orcu_A_flat, double alpha)\n{\n    double (*A)[m] = (double (*)[m])orcu_A_flat;"
        in tuned
    )
    header = (in_tmp / "scale2d.tuned.h").read_text()
    assert (
        "#ifdef __cplusplus\nvoid scale2d(int n, int m, void *A, double alpha);  /* C++ has no C99 array parameters: "
        "the same pointers */\n#else\nvoid scale2d(int n, int m, double A[n][m], double alpha);\n#endif\n"
    ) in header
    built = subprocess.run(
        [nvcc(), "-arch=sm_90", "-Xcompiler", "-Wall", "-c", "scale2d.tuned.cu", "-o", "scale2d.o"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0 and "warning" not in built.stderr, built.stderr
    # gemm's arrays may overlap: -DORCU_ALLOW_ALIASING builds its loop as written, on the host
    shutil.copy(PROJECT / "gemm.c", in_tmp)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "gemm.c", "--backend", "emulate", "--budget", "1"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and "gemm_1_on_host" in (in_tmp / "gemm.tuned.cu").read_text(), proc.stderr
    built = subprocess.run(
        [nvcc(), "-arch=sm_90", "-DORCU_ALLOW_ALIASING", "-Xcompiler", "-Wall", "-c", "gemm.tuned.cu", "-o", "gemm.o"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0 and "warning" not in built.stderr, built.stderr
    # C and C++ callers both take the header
    (in_tmp / "caller.c").write_text(
        '#include "scale2d.tuned.h"\nvoid f(int n, int m, double A[n][m]) { scale2d(n, m, A, 2.0); }\n'
    )
    for compiler in (["gcc", "-std=c99"], ["g++", "-x", "c++"]):
        if compiler[0] == "g++":
            (in_tmp / "caller.c").write_text(
                '#include "scale2d.tuned.h"\nvoid f(double *A) { scale2d(2, 3, A, 2.0); }\n'
            )
        checked = subprocess.run(
            [*compiler, "-Wall", "-Werror", "-fsyntax-only", "caller.c"], cwd=in_tmp, capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr


@pytest.mark.slow
def test_a_c99_program_through_orcu_cc_gives_what_its_plain_build_gives(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    sources = ["main.c", *KERNELS]
    subprocess.run(
        ["gcc", "-std=c99", "-Wall", "-Werror", "-DORCU_ORIGINAL", *sources, "-o", "plain"], cwd=project, check=True
    )
    expected = subprocess.run([str(project / "plain")], capture_output=True, text=True, check=True).stdout
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "cc",
            "--emulate",
            "--tune-missing",
            "--backend",
            "emulate",
            "--budget",
            "3",
            "--",
            "gcc",
            "-std=c99",
            *sources,
            "-o",
            "app",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    got = subprocess.run([str(project / "app")], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0 and got.stdout == expected
