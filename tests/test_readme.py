"""The README and the build guide stand alone: every shell command they show runs, as written,
in a fresh directory holding what they name (the annotated examples, and the project of
docs/guides/build.md with the CMakeLists.txt and Makefile it shows). The install commands are
CI's own: .ci/run installs with the README's test command, as written, and runs this suite with it."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

README = (ROOT / "README.md").read_text()
BUILD_GUIDE = (ROOT / "docs" / "guides" / "build.md").read_text()
INSTALL = re.compile(r"^python3 -m pip install [^&]*&& ")


def fenced(language: str) -> list[str]:
    return [
        block
        for text in (README, BUILD_GUIDE)
        for block in re.findall(rf"^```{language}\n(.*?)^```\n", text, re.S | re.M)
    ]


@pytest.mark.slow  # a tune, a CMake build, a Make build and orcu cc: a minute
def test_every_shell_command_of_the_readme_runs_in_a_fresh_directory(tmp_path):
    shutil.copytree(ROOT / "annotated_examples", tmp_path / "annotated_examples")
    for name in ("main.c", "axpy.c", "scale.c"):
        shutil.copy(ROOT / "tests" / "build_project" / name, tmp_path)
    (cmake,) = fenced("cmake")
    (make,) = fenced("make")
    (tmp_path / "CMakeLists.txt").write_text(cmake)
    (tmp_path / "Makefile").write_text(make)
    env = {k: v for k, v in os.environ.items() if k != "ORCU_HOME"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # orcu, as the install puts it
    ran = []
    for line in (line for block in fenced("sh") for line in block.splitlines() if line.strip()):
        command = INSTALL.sub("", line)
        if command.startswith("python3 -m pytest"):
            continue  # this suite
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
        ran.append(command)
    assert ran == [
        "orcu tune annotated_examples/spmv_dia.c --budget 10",
        'cmake -S . -B build -DCMAKE_PREFIX_PATH="$(orcu --cmake-dir)" && cmake --build build',
        "make",
        "orcu cc --emulate -- gcc -DN=1000 main.c axpy.c scale.c -o app",
    ]
    assert (tmp_path / "annotated_examples" / "spmv_dia.tuned.cu").is_file()
    outputs = {
        subprocess.run([str(tmp_path / exe)], capture_output=True, text=True, check=True).stdout
        for exe in ("build/app", "app")
    }
    assert len(outputs) == 1 and outputs.pop()  # CMake's build and orcu cc's give the same answers
