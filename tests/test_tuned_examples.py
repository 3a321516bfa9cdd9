"""The tuned file of every example, through the whole pipeline (parse, plan, generate, search,
check, write back), compared with the one in tests/golden/tuned/: a refactoring that changes what
orcu writes for an example shows here. The emulated tune ranks with the model after checking
every variant; the model tune checks its winners. After an intended change:
python3 tests/regenerate_golden.py and review the diff."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

GOLDEN = Path(__file__).parent / "golden" / "tuned"
BACKENDS = ("emulate", "model")
# The examples that tune without a GPU and without a cluster (every one, today); Orio's files too.
FILES = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.c"))


def golden_name(example: str, backend: str) -> str:
    return f"{example.replace('/', '_')[:-2]}.{backend}.cu"


def tuned_example(tmp: Path, example: str, backend: str) -> str:
    """The tuned file `orcu tune --budget 8 --seed 0` writes for the example, its date left out;
    for a tune that fails, its exit status and errors."""
    work = tmp / "ex"
    if not work.exists():
        subprocess.run(["cp", "-r", str(EXAMPLES), str(work)], check=True)
    out = tmp / golden_name(example, backend)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orcu",
            "tune",
            f"ex/{example}",
            "--backend",
            backend,
            "--budget",
            "8",
            "--seed",
            "0",
            "-o",
            str(out),
        ],
        cwd=tmp,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    if proc.returncode:
        errors = [line for line in proc.stderr.splitlines() if "error:" in line]
        return "\n".join([f"exit {proc.returncode}", *errors, ""])
    return re.sub(r"(Written by orcu \S+) on \d{4}-\d\d-\d\d", r"\1", out.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("example", FILES)
def test_the_tuned_file_of_each_example_is_unchanged(tmp_path, example, backend):
    text = tuned_example(tmp_path, example, backend)
    assert text == (GOLDEN / golden_name(example, backend)).read_text(), (
        "after an intended change: python3 tests/regenerate_golden.py"
    )
