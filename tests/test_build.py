"""orcu in a build (issue 12): a C program with two annotated C files (one Orio-style, its size
a macro) built with CMake, with Make and with `orcu cc` in place of the compiler, against
orcu's CPU emulation, gives what its plain C build gives; a C caller links against the
nvcc-compiled tuned file; results travel between databases through export and import."""

import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import has_gpu, write

from orcu.execution.toolchain import nvcc

PROJECT = Path(__file__).parent / "build_project"
BUDGET = "--budget 2"


def orcu(*args, cwd, check=True):
    proc = subprocess.run([sys.executable, "-m", "orcu", *args], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0 or not check, proc.stderr
    return proc


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(tmp_path / "home"))
    shutil.copytree(PROJECT, tmp_path / "project")
    return tmp_path / "project"


def plain_output(project: Path) -> str:
    """The program built from the C files alone, their original loops (-DORCU_ORIGINAL)."""
    subprocess.run(
        ["gcc", "-DORCU_ORIGINAL", "-DN=1000", "main.c", "axpy.c", "scale.c", "-o", "plain"], cwd=project, check=True
    )
    return subprocess.run([str(project / "plain")], capture_output=True, text=True, check=True).stdout


def run(program: Path) -> str:
    proc = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def touched_rebuilds_only_its_own(project: Path, build: list[str], tuned: Path) -> None:
    """Touching scale.c makes scale's tuned file again, and not axpy's."""
    before = {name: (tuned / name).stat().st_mtime_ns for name in ("axpy.tuned.cu", "scale.tuned.cu")}
    time.sleep(1.1)  # a coarse file system clock
    (project / "scale.c").touch()
    subprocess.run(build, cwd=project, check=True, capture_output=True)
    after = {name: (tuned / name).stat().st_mtime_ns for name in before}
    assert after["axpy.tuned.cu"] == before["axpy.tuned.cu"] and after["scale.tuned.cu"] > before["scale.tuned.cu"]


@pytest.mark.slow
def test_cmake_project(project):
    cmake_dir = orcu("--cmake-dir", cwd=project).stdout.strip()
    assert (Path(cmake_dir) / "orcuConfig.cmake").is_file()
    configure = subprocess.run(
        [
            "cmake",
            "-S",
            ".",
            "-B",
            "build",
            f"-DCMAKE_PREFIX_PATH={cmake_dir}",
            f"-DORCU_OPTIONS={BUDGET.replace(' ', ';')}",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    build = ["cmake", "--build", "build"]
    built = subprocess.run(build, cwd=project, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert run(project / "build" / "app") == plain_output(project)
    touched_rebuilds_only_its_own(project, build, project / "build" / "orcu")


@pytest.mark.slow
def test_cmake_project_of_c_and_cuda_alone(project):
    """project(... LANGUAGES C CUDA), the usual project of orcu's users: the emulation's C++
    build of the tuned files gets C++ enabled by orcu's package."""
    lists = project / "CMakeLists.txt"
    lists.write_text(lists.read_text().replace("LANGUAGES C CXX", "LANGUAGES C CUDA"))
    cmake_dir = orcu("--cmake-dir", cwd=project).stdout.strip()
    configure = subprocess.run(
        [
            "cmake",
            "-S",
            ".",
            "-B",
            "build",
            f"-DCMAKE_PREFIX_PATH={cmake_dir}",
            f"-DORCU_OPTIONS={BUDGET.replace(' ', ';')}",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run(["cmake", "--build", "build"], cwd=project, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert run(project / "build" / "app") == plain_output(project)


@pytest.mark.slow
def test_makefile_with_orcu_mk(project):
    make = ["make", f"ORCU_OPTIONS={BUDGET}"]
    built = subprocess.run(make, cwd=project, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert run(project / "app") == plain_output(project)
    touched_rebuilds_only_its_own(project, make, project)


@pytest.mark.slow
def test_orcu_cc_in_place_of_the_compiler(project):
    expected = plain_output(project)
    wrapper = [
        sys.executable,
        "-m",
        "orcu",
        "cc",
        "--emulate",
        "--tune-missing",
        "--backend",
        "emulate",
        *BUDGET.split(),
        "--",
    ]
    # Compile and link at once; then compile one annotated file alone and link its object.
    linked = subprocess.run(
        [*wrapper, "gcc", "-DN=1000", "main.c", "axpy.c", "scale.c", "-o", "app"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert linked.returncode == 0, linked.stderr
    assert run(project / "app") == expected
    compiled = subprocess.run(
        [*wrapper, "gcc", "-DN=1000", "-c", "scale.c", "-o", "scale.o"], cwd=project, capture_output=True, text=True
    )
    assert compiled.returncode == 0 and (project / "scale.o").is_file(), compiled.stderr
    subprocess.run([*wrapper, "gcc", "-DN=1000", "main.c", "axpy.c", "scale.o", "-o", "app2"], cwd=project, check=True)
    assert run(project / "app2") == expected
    # The compiler's diagnostics and exit code are the wrapper's.
    broken = subprocess.run(
        [*wrapper, "gcc", "-DN=1000", "main.c", "axpy.c", "scale.c", "missing.c", "-o", "app3"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert broken.returncode == 1 and "missing.c: No such file or directory" in broken.stderr


def test_orcu_cc_says_what_has_no_results(project):
    orcu("tune", "axpy.c", "--backend", "emulate", *BUDGET.split(), cwd=project)  # a database without scale.c's results
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "cc",
            "--emulate",
            "--backend",
            "emulate",
            "--",
            "gcc",
            "-DN=1000",
            "-c",
            "scale.c",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == (
        "orcu cc: scale.c has no tuning results: run orcu tune scale.c, or orcu cc --tune-missing"
    )


@pytest.mark.slow
def test_a_c_caller_links_against_the_nvcc_compiled_tuned_file(project):
    orcu("tune", "axpy.c", "--backend", "emulate", *BUDGET.split(), cwd=project)
    header = (project / "axpy.tuned.h").read_text()
    assert 'extern "C" {\n#endif\nvoid axpy(int n, double a, const double *x, double *y);\n' in header
    assert (
        '#ifdef __cplusplus\nextern "C" void axpy(int n, double a, const double *x, double *y);  // C linkage: C code '
        "calls it\n#endif\n"
    ) in (project / "axpy.tuned.cu").read_text()
    write(
        project / "caller.c",
        '#include <stdio.h>\n#include "axpy.tuned.h"\nint main(void)\n{\n'
        "    double x[3] = {1, 2, 3}, y[3] = {1, 1, 1};\n    axpy(3, 2.0, x, y);\n"
        '    printf("%g %g %g\\n", y[0], y[1], y[2]);\n    return 0;\n}\n',
    )
    subprocess.run(
        [nvcc(), "-arch=sm_90", "-c", "axpy.tuned.cu", "-o", "axpy.o"], cwd=project, check=True, capture_output=True
    )
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror", "-c", "caller.c", "-o", "caller.o"], cwd=project, check=True)
    from orcu.driver.cc import _runtime_libraries

    linked = subprocess.run(
        ["gcc", "caller.o", "axpy.o", "-o", "caller", *_runtime_libraries(False)],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert linked.returncode == 0, linked.stderr
    if has_gpu():
        assert run(project / "caller") == "3 5 7\n"


@pytest.mark.gpu
def test_the_linked_c_caller_runs_on_the_gpu(project):
    assert has_gpu()
    test_a_c_caller_links_against_the_nvcc_compiled_tuned_file(project)
    assert run(project / "caller") == "3 5 7\n"


def test_a_macro_size_the_build_does_not_define_stops_the_compile(project):
    orcu("tune", "scale.c", "--backend", "emulate", *BUDGET.split(), cwd=project)
    proc = subprocess.run(
        [
            "g++",
            "-x",
            "c++",
            "-fsyntax-only",
            "-I",
            str(Path(orcu("--cmake-dir", cwd=project).stdout.strip()).parent / "emulation"),
            "scale.tuned.cu",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0
    assert '#error "N is not defined: orcu tuned this file for N = 1000 (build with -DN=...)"' in proc.stderr


def test_results_travel_through_export_and_import(project, tmp_path, monkeypatch):
    """Both of the project's files, scale.c's size a macro of the build (its tuned file was not
    written at all once the tuned file's compile check ignored the sizes' macros)."""
    first = {}
    for name in ("axpy", "scale"):
        orcu("tune", f"{name}.c", "--backend", "emulate", *BUDGET.split(), cwd=project)
        first[name] = (project / f"{name}.tuned.cu").read_bytes()
    exported = orcu("export", "axpy.c", "scale.c", "-o", "results.json", cwd=project)
    assert exported.stderr == "orcu: wrote results.json: 2 choice(s), 2 evaluation(s) of 2 region(s)\n"
    monkeypatch.setenv("ORCU_HOME", str(tmp_path / "elsewhere"))
    for name in first:
        (project / f"{name}.tuned.cu").unlink()
    assert orcu("apply", "axpy.c", "--backend", "emulate", cwd=project, check=False).returncode == 2  # no database yet
    orcu("import", "results.json", cwd=project)
    for name in first:
        orcu("apply", f"{name}.c", "--backend", "emulate", cwd=project)
        assert (project / f"{name}.tuned.cu").read_bytes() == first[name]


@pytest.mark.slow
def test_imports_that_would_mislead_are_refused(project, tmp_path, monkeypatch):
    orcu("tune", "axpy.c", "--backend", "emulate", *BUDGET.split(), cwd=project)
    orcu("export", "axpy.c", "-o", "results.json", cwd=project)
    data = json.loads((project / "results.json").read_text())
    monkeypatch.setenv("ORCU_HOME", str(tmp_path / "elsewhere"))
    write(project / "other.json", json.dumps({**data, "schema": data["schema"] + 1}))
    assert orcu("import", "other.json", cwd=project, check=False).stderr == (
        f"orcu: error: the results were exported with results schema {data['schema'] + 1}; this orcu reads schema "
        f"{data['schema']}: export them again with this orcu\n"
    )
    (project / "axpy.c").write_text((project / "axpy.c").read_text().replace("2.0", "3.0"))
    refused = orcu("import", "results.json", cwd=project, check=False)
    assert refused.returncode == 2 and refused.stderr == (
        f"orcu: error: {project / 'axpy.c'}:8: orcu_axpy_1 changed since its results were exported: tune it again\n"
    )
    assert (
        not (tmp_path / "elsewhere" / "results.sqlite").exists()
        or not sqlite3.connect(tmp_path / "elsewhere" / "results.sqlite")
        .execute("SELECT COUNT(*) FROM choices")
        .fetchone()[0]
    )
