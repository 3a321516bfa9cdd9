"""Kernels in the shapes of PolyBench/C 4.2.1's (tests/polybench_shapes/, written for orcu from
its loop structures, with C99 array parameters as PolyBench declares them and one
`transform CUDA(mapping='auto')` per top-level nest; tests/polybench_shapes/flat/, the same
kernels on flat pointers indexed row-major by hand, `A[i*n + j]`): each tunes in emulation with
every evaluated variant right, and the tuned file compiles (orcu compiles it before writing it);
none is refused."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SHAPES = Path(__file__).parent / "polybench_shapes"
# No loop runs in parallel as written in Floyd-Warshall and Gauss-Seidel: they run as wavefronts
# (tests/test_wavefront.py), on flat pointers too (A[i*n + wave - 4*t - 2*i] stays in its row
# by the test that guards it). doitgen's rows share the temporary array sum: its loops on r and q
# stay on the host, those on p are kernels.
# fdtd-2d lives with the C99 program of tests/c99_project, which calls it too
SOURCES = {str(p.relative_to(SHAPES)): p for p in [*SHAPES.glob("*.c"), *SHAPES.glob("flat/*.c")]}
SOURCES["fdtd2d.c"] = SHAPES.parent / "c99_project" / "fdtd2d.c"
TUNED = sorted(SOURCES)


def orcu(*args, cwd, home):
    return subprocess.run(
        [sys.executable, "-m", "orcu", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "ORCU_HOME": str(home)},
    )


def test_the_corpus_holds_twenty_kernels_in_both_forms():
    c99 = {name for name in SOURCES if not name.startswith("flat/")}
    assert len(c99) >= 20 and {f"flat/{name}" for name in c99} <= set(SOURCES)


@pytest.mark.parametrize("name", TUNED)
def test_each_kernel_tunes_with_every_variant_right(tmp_path, name):
    file = Path(name).name
    (tmp_path / file).write_text(SOURCES[name].read_text())
    proc = orcu("tune", file, "--backend", "emulate", "--budget", "3", "--json", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr[-3000:]
    for region in json.loads(proc.stdout)["regions"]:
        statuses = region["statuses"]
        assert statuses.get("ok", 0) >= 1 and set(statuses) <= {"ok", "invalid"}, (region["name"], statuses)
    assert (tmp_path / file.replace(".c", ".tuned.cu")).is_file()
