"""Orio's size macros: an input parameter the C code names as a macro (`int n_ = N;`, compiled
with -DN=... for each size). The tuned file is written, compiles at every tuned size with that
size's -D, and its guard stops a build without them."""

from pathlib import Path

import pytest
from conftest import covering_results, write

from orcu.driver import api
from orcu.driver.writeback import size_defines
from orcu.execution.toolchain import tuned_file_problem
from orcu.planning.program import load
from orcu.planning.space import input_space

DAXPY = """void daxpy(double a, const double *x, double *y)
{{
    int i;
    {before}
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; param PL[] = [16, 48]; }}
    def input_params {{ param N[] = {ns}; {more} }}
    def input_vars {{ decl static double x[N] = random; decl static double y[N] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, preferL1Size=PL)
    for (i = 0; i <= n_ - 1; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i <= n_ - 1; i++)
        y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}}
"""
SHAPES = {
    "before_the_spec": dict(before="int n_ = N;", ns="[1000, 5003]", more=""),
    "an_expression_of_two": dict(before="int n_ = N + M - M;", ns="[1000, 77, 5003]", more="param M[] = [3];"),
    "one_size": dict(before="const int n_ = (N);", ns="[640]", more=""),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_size_macro_in_the_code_gets_its_tuned_file_compiled_at_every_size(in_tmp, shape):
    write(in_tmp / "d.c", DAXPY.format(**SHAPES[shape]))
    api.tune("d.c", backend="emulate", progress=False)
    text = (in_tmp / "d.tuned.cu").read_text()
    defines = size_defines(load("d.c"))
    assert [d["N"] for d in defines] == SHAPES[shape]["ns"].strip("[]").split(", ")
    for d in defines:
        assert tuned_file_problem(text, "d.tuned.cu", Path(in_tmp), "emulate", d) is None
    unguarded = tuned_file_problem(text, "d.tuned.cu", Path(in_tmp), "emulate", {})
    assert unguarded is not None and "N is not defined: orcu tuned this file for N = " in unguarded


FIXED = """#define N {n}
#define M ({m}u)
void mat(float (*A)[M], {t} *B)
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ }}
    def input_vars {{ decl dynamic float A[N][M] = random; decl dynamic {t} B[M*N] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            B[j*N + i] = ({t})(2.0f * A[i][j]);
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
@pytest.mark.parametrize("t, n, m", [("float", 64, 48), ("double", "0x21", 7)])
def test_the_files_number_macros_size_the_specs_arrays(in_tmp, t, n, m, transform):
    """`#define N 64` and `decl ... A[N][M]`: the spec reads the file's integer macros (before:
    "undefined name 'N' in the size of 'A'")."""
    program = load(write(in_tmp / "t.c", FIXED.format(t=t, n=n, m=m, transform=transform)))
    assert (program.spec.lets["N"], program.spec.lets["M"]) == (int(str(n), 0), m)
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
