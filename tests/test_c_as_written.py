"""Ordinary C that orcu once refused or wrote broken: scalars set by chained assignments and
assignments inside expressions are private, and a tuned file that its build would refuse is
never written."""
import subprocess
import sys

import pytest

from conftest import covering_results, write
from orcu.analysis.nest import analyze
from orcu.program import load
from orcu.space import input_space

# MILC's complex matrix-vector product (one of Orio's inputs): each row starts with cr = ci = 0.0.
CHAINED = """void cmv(int n, const double *ar, const double *ai, const double *x, double *yr, double *yi)
{
    int i, j;
    double cr, ci;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; param UI[] = [1, 2]; }
    def input_params { param n[] = [45]; }
    def input_vars {
        decl dynamic double ar[n*n] = random; decl dynamic double ai[n*n] = random; decl dynamic double x[n] = random;
        decl dynamic double yr[n] = 0; decl dynamic double yi[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, unrollInner=UI)
    for (i = 0; i < n; i++) {
        cr = ci = 0.0;
        for (j = 0; j < n; j++) {
            cr += ar[i*n + j] * x[j];
            ci += ai[i*n + j] * x[j];
        }
        yr[i] = cr;
        yi[i] = ci;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""
# An assignment inside an expression: s is set before t reads it, in every iteration.
NESTED = CHAINED.replace("cr = ci = 0.0;", "cr = (ci = 0.0) + 0.0;")


@pytest.mark.parametrize("source", [CHAINED, NESTED], ids=["chained", "nested"])
def test_scalars_assigned_inside_assignments_are_private(in_tmp, source):
    write(in_tmp / "t.c", source)
    program = load("t.c")
    found = analyze(program.src, program.nests[0], program.spec)
    assert {"cr", "ci"} <= set(found.private) and not found.reductions
    results = covering_results(program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True,
                               measure="kernel")
    assert len(results) == 4 and {r.status for r in results} == {"ok"}, [(r.params, r.message[:200]) for r in results]


def test_a_tuned_file_its_build_would_refuse_is_not_written(in_tmp, monkeypatch):
    """C outside the regions that C++ refuses (malloc's void * assigned without a cast): the
    results stay in the database, nothing is written, and the compiler's words are shown."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", "#include <stdlib.h>\ndouble *scratch(int n)\n{\n    double *p = malloc(n * sizeof(double));\n"
                          "    return p;\n}\n" + CHAINED)
    proc = subprocess.run([sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "2"], cwd=in_tmp,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and not (in_tmp / "t.tuned.cu").exists() and not (in_tmp / "t.tuned.h").exists()
    assert ("orcu: error: t.tuned.cu would not compile as CUDA C++, so it was not written (C that C++ refuses outside the "
            "Loop regions, such as malloc's result assigned without a cast, must change; anything else is a defect of "
            "orcu's): the compiler said:") in proc.stderr
    said = proc.stderr.replace("\u2018", "'").replace("\u2019", "'")
    assert "t.tuned.cu: In function 'double* scratch(int)':" in said and "error: invalid conversion from 'void*' to 'double*'" in said
