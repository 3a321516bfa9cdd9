"""The corpus gate: every file orcu's documentation says it takes is tuned (emulation, a budget
of one variant a region and size) and its tuned file WRITTEN, then compiled as its build would
compile it (nvcc for sm_90 where nvcc is found, else g++ against the emulation header; once per
tuned size with that size's -D macros where the file uses sizes as macros). A file orcu refuses
on purpose is listed in REFUSED with the tutorial's reason, and must be refused with a located
error, exit 2. Regressions of a file of this corpus have each stopped a user cold (issue 60):
a tuned file not written, a compile error in every variant, an internal error."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orcu.driver.writeback import size_defines
from orcu.execution.toolchain import nvcc as find_nvcc
from orcu.planning.program import load

TESTS = Path(__file__).parent
ROOT = TESTS.parent
CORPORA = [
    ROOT / "annotated_examples",
    ROOT / "annotated_examples" / "orio",
    TESTS / "c_as_written",
    TESTS / "c99_project",
    TESTS / "build_project",
    TESTS / "polybench_scops",
    TESTS / "polybench_shapes",
    TESTS / "polybench_shapes" / "flat",
]
FILES = sorted((p for d in CORPORA for p in d.glob("*.c") if "begin Loop" in p.read_text()), key=lambda p: str(p))

# Files the tutorial says orcu refuses (docs/tutorial.md, its list of what orcu refuses), with the start of the error.
REFUSED: dict[str, str] = {}
# Orio's spec-less form: the sizes come from the command line.
INPUTS = {"no_spec.c": ["--input", "n=1000"]}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _tune(path: Path, tmp: Path) -> subprocess.CompletedProcess:
    for sibling in path.parent.iterdir():  # includes, init files, YAML specs beside it
        if sibling.is_file():
            shutil.copy(sibling, tmp / sibling.name)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            path.name,
            "--backend",
            "emulate",
            "--budget",
            "1",
            *INPUTS.get(path.name, []),
        ],
        cwd=tmp,
        capture_output=True,
        text=True,
    )


def _compile(tuned: Path, defines: dict) -> subprocess.CompletedProcess:
    flags = [f"-D{k}={v}" for k, v in defines.items()]
    nvcc = find_nvcc()
    if nvcc is not None:
        command = [str(nvcc), "-arch=sm_90", "-std=c++17", "-c", tuned.name, "-o", "/dev/null", *flags]
    else:
        emulation = ROOT / "templates" / "emulation"
        command = ["g++", "-std=c++17", "-x", "c++", "-fsyntax-only", "-I", str(emulation), tuned.name, *flags]
    return subprocess.run(command, cwd=tuned.parent, capture_output=True, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_corpus_file_gets_a_tuned_file_that_builds(in_tmp, monkeypatch, path):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = _tune(path, in_tmp)
    assert proc.returncode != 3, proc.stderr[-2000:]  # never an internal error
    refused = REFUSED.get(_id(path))
    if refused is not None:
        assert proc.returncode == 2 and f"{path.name}:" in proc.stderr and refused in proc.stderr, proc.stderr[-2000:]
        return
    assert proc.returncode == 0, proc.stderr[-3000:]
    tuned = in_tmp / path.name.replace(".c", ".tuned.cu")
    assert tuned.is_file(), proc.stderr[-2000:]
    for defines in [{}] if path.name in INPUTS else size_defines(load(path.name)):
        built = _compile(tuned, defines)
        assert built.returncode == 0, (defines, built.stderr[-2000:])
