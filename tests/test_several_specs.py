"""A file of several annotated functions, each with a PerfTuning region of its own (a solver's
matvec and its stencil side by side): each tuned at its own sizes and parameters, one tuned
file holding them all, through check, tune, report, apply, `orcu cc` and CMake."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import diagnose
from test_build import orcu as orcu_cli

import orcu

PROJECT = Path(__file__).parent / "several_specs"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(tmp_path / "home"))
    shutil.copytree(PROJECT, tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


def plain_output(project: Path) -> str:
    subprocess.run(["gcc", "-DORCU_ORIGINAL", "main.c", "kernels.c", "-o", "plain"], cwd=project, check=True)
    return subprocess.run([str(project / "plain")], capture_output=True, text=True, check=True).stdout


def test_each_function_is_tuned_by_its_own_spec(project):
    summary = orcu.check("kernels.c").summary
    assert [
        (s["line"], s["regions"], [p["name"] for p in s["performance_params"]], s["input_space"]["combinations"])
        for s in summary["specs"]
    ] == [
        (6, [0], ["TC"], [{"n": 1000}]),
        (24, [1], ["mapping_2"], [{"m": 40, "n": 33}]),
        (50, [2], ["TC"], [{"n": 30}]),
    ]
    assert "PerfTuning region at line 50 (tunes orcu_stencil_3):" in orcu.check("kernels.c").text()
    tuning = orcu.tune("kernels.c", backend="emulate", progress=False)
    assert [(r.region, r.inputs, sorted(e.params[r.parameters[0]] for e in r.evaluations)) for r in tuning.regions] == [
        ("orcu_scale_1", {"n": 1000}, [64, 128]),
        ("orcu_matvec_2", {"m": 40, "n": 33}, ["x=j(threads) y=i"]),
        ("orcu_stencil_3", {"n": 30}, [32, 256]),
    ]
    assert tuning.written == ["kernels.tuned.cu", "kernels.tuned.h"] and tuning.errors == []
    assert orcu.apply("kernels.c", backend="emulate", output="applied.cu") == ["applied.cu", "applied.h"]
    assert (project / "applied.cu").read_text() == (project / "kernels.tuned.cu").read_text()
    report = orcu_cli("report", "kernels.c", cwd=project).stdout
    assert [line for line in report.splitlines() if line.startswith("kernels.c: ")] == [
        "kernels.c: orcu_scale_1 (line 11), n=1000",
        "kernels.c: orcu_matvec_2 (line 29), m=40, n=33",
        "kernels.c: orcu_stencil_3 (line 55), n=30",
    ]


def test_an_input_size_given_changes_the_specs_that_have_it(project):
    summary = orcu.check("kernels.c", inputs={"m": 8}).summary
    assert [s["input_space"]["combinations"] for s in summary["specs"]] == [
        [{"n": 1000}],
        [{"m": 8, "n": 33}],
        [{"n": 30}],
    ]
    with pytest.raises(orcu.OrcuError, match="--input: 'q' is not an input parameter of the spec"):
        orcu.check("kernels.c", inputs={"q": 8})
    # a value goes to the specs that list it; the others take their first
    text = orcu.emit("kernels.c", {"TC": 128})
    assert " * orcu_scale_1 (line 11): TC=128" in text and " * orcu_stencil_3 (line 55): TC=32" in text
    with pytest.raises(orcu.OrcuError, match="--set: '100' is not one of the values of 'TC': 64, 128"):
        orcu.emit("kernels.c", {"TC": 100})
    with pytest.raises(orcu.OrcuError, match="--set: 'TX' is not a parameter here"):
        orcu.emit("kernels.c", {"TX": 100})


def test_the_tuned_file_builds_with_orcu_cc_and_cmake_and_runs_as_the_c_does(project):
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
        "--budget",
        "5",
        "--",
    ]
    built = subprocess.run(
        [*wrapper, "gcc", "main.c", "kernels.c", "-o", "app"], cwd=project, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(project / "app")], capture_output=True, text=True, check=True).stdout == expected
    cmake_dir = orcu_cli("--cmake-dir", cwd=project).stdout.strip()
    configure = subprocess.run(
        ["cmake", "-S", ".", "-B", "build", f"-DCMAKE_PREFIX_PATH={cmake_dir}"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run(["cmake", "--build", "build"], cwd=project, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (
        subprocess.run([str(project / "build" / "app")], capture_output=True, text=True, check=True).stdout == expected
    )


LOOP = """    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        x[i] = 2 * x[i];
    ) @*/
    /*@ end @*/
"""


def test_a_loop_region_outside_every_spec_of_several_is_refused(in_tmp):
    text = (PROJECT / "kernels.c").read_text()
    outside = text.replace("void matvec(", "void twice(int n, double *x)\n{\n    int i;\n" + LOOP + "}\n\nvoid matvec(")
    assert diagnose(in_tmp, outside).startswith(
        "t.c:24:5: error: a file with several PerfTuning regions needs each Loop region inside one: which spec tunes "
        "this one?"
    )
    empty = text.replace(
        """    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        x[i] = a * x[i];
    ) @*/
    for (i = 0; i < n; i++)
        x[i] = a * x[i];
    /*@ end @*/
""",
        "",
        1,
    )
    assert diagnose(in_tmp, empty).startswith(
        "t.c:6:5: error: this PerfTuning region holds no Loop region: it tunes nothing"
    )
