"""Reductions written as ordinary C: a row's accumulator declared in the nest (`double s = 0;`
inside the loop on rows), folded across the threads the TSG spreads the row over. Every
candidate the TSG keeps, every configuration of it, is built and checked in emulation, at a
size the blocks divide and at one they do not."""

import pytest
from conftest import covering_results, evaluate, planted, write

from orcu.planning.program import load

# (element type, the row's accumulator, its update, what the row writes)
SHAPES = {
    "sum_double": ("double", "double s = 0;", "s += A[i*n + j] * x[j];", "y[i] = s;"),
    "sum_float": ("float", "float s = 0;", "s += A[i*n + j] * x[j];", "y[i] = s;"),
    "max_fmaxf": ("float", "float best = A[i*n];", "best = fmaxf(best, A[i*n + j]);", "y[i] = best;"),
    "count_if": ("double", "int c = 0;", "if (A[i*n + j] > 0.9) c++;", "y[i] = c;"),
    "product": ("double", "double p = 1;", "p *= 0.5 + 0.5 * A[i*n + j];", "y[i] = p;"),
    "float_dot_in_double": ("float", "double s = 0;", "s += (double)A[i*n + j] * x[j];", "y[i] = (float)s;"),
    "argmax": ("double", "int best = 0;", "if (A[i*n + j] > A[i*n + best]) best = j;", "y[i] = best;"),
    "argmin": ("float", "int best = 0;", "if (A[i*n + j] < A[i*n + best]) best = j;", "y[i] = best;"),
}
# (the scalar's type, its first value, its update over the whole 2-D nest)
WHOLE = {
    "sum": ("double", "0.0", "t += A[i*n + j];"),
    "fmin": ("double", "A[0]", "t = fmin(t, A[i*n + j]);"),
    "count": ("int", "0", "if (A[i*n + j] > 0.5) t++;"),  # integers, many elements a thread
    "float_max": ("float", "-1.0f", "if (A[i*n + j] > t) t = A[i*n + j];"),
    "fmax_if": ("double", "-1.0", "if (A[i*n + j] < 0.7) t = fmax(t, A[i*n + j]);"),
    "product_if": ("double", "1.0", "if (A[i*n + j] > 0.3) t *= 0.5 + A[i*n + j];"),
}


def row_reduction(ctype: str, declaration: str, update: str, result: str) -> str:
    loop = f"""    for (i = 0; i < n; i++) {{
        {declaration}
        for (j = 0; j < n; j++)
            {update}
        {result}
    }}"""
    return f"""#include <math.h>
void rows(int n, const {ctype} *A, const {ctype} *x, {ctype} *y) {{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64, 256]; }}
    def input_params {{ param n[] = [77, 256]; }}
    def input_vars {{
        decl static {ctype} A[n*n] = random;
        decl static {ctype} x[n] = random;
        decl static {ctype} y[n] = 0;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
{loop}
    ) @*/
{loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_row_accumulator_declared_in_the_nest_is_folded_in_every_variant(in_tmp, shape):
    program = load(write(in_tmp / "t.c", row_reduction(*SHAPES[shape])))
    for n in (77, 256):
        results = covering_results(program, 0, {"n": n}, in_tmp / "build", every=True)
        assert {r.status for r in results} == {"ok"}, [
            (r.params, r.status, r.message) for r in results if r.status != "ok"
        ]


def whole_nest(ctype: str, first: str, update: str) -> str:
    loop = f"""    t = {first};
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            {update}"""
    return f"""#include <math.h>
{ctype} total(int n, const double *A) {{
    int i, j;
    {ctype} t;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64, 256]; }}
    def input_params {{ param n[] = [77, 256]; }}
    def input_vars {{ decl static double A[n*n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
{loop}
    ) @*/
{loop}
    /*@ end @*/
    /*@ end @*/
    return t;
}}
"""


@pytest.mark.parametrize("shape", sorted(WHOLE))
def test_a_scalar_reduced_over_a_whole_2d_nest_is_folded_across_every_block(in_tmp, shape):
    program = load(write(in_tmp / "t.c", whole_nest(*WHOLE[shape])))
    for n in (77, 256):
        results = covering_results(program, 0, {"n": n}, in_tmp / "build", every=True)
        assert any("y=" in str(r.params) for r in results)  # the 2-D mapping is among them
        assert {r.status for r in results} == {"ok"}, [
            (r.params, r.status, r.message) for r in results if r.status != "ok"
        ]


@pytest.mark.parametrize("ctype", ["int", "long"])
def test_an_integer_sum_adds_many_elements_in_each_thread_exactly(in_tmp, ctype):
    """10^6 integers over 132 blocks of 256 threads: about 30 a thread, then the block and grid folds;
    integers are compared exactly."""
    from test_mutations import SUM

    result = evaluate(in_tmp, SUM.format(t=ctype, n=10**6), params={"TC": 256, "BC": 132})
    assert result.status == "ok" and result.worst["error"] == 0.0, (result.message, result.worst)


# (element type, the total's type, the row's accumulator, its update, what the row adds to the total)
ROW_THEN_TOTAL = {
    "max_then_sum": ("int", "long", "int best = A[i*n];", "if (A[i*n + j] > best) best = A[i*n + j];", "t += best;"),
    "sum_then_offset": ("double", "double", "double s = 0;", "s += A[i*n + j];", "t += s + 1.0;"),
    "min_then_count": ("float", "int", "float lo = A[i*n];", "lo = fminf(lo, A[i*n + j]);", "if (lo < 0.5f) t++;"),
}


def row_then_total(ctype: str, ttype: str, declaration: str, update: str, added: str) -> str:
    loop = f"""    t = 0;
    for (i = 0; i < n; i++) {{
        {declaration}
        for (j = 1; j < n; j++)
            {update}
        {added}
        y[i] = ({ctype})1;
    }}
    r[0] = t;"""
    return f"""#include <math.h>
void rows(int n, const {ctype} *A, {ctype} *y, {ttype} *r) {{
    int i, j;
    {ttype} t;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64, 256]; }}
    def input_params {{ param n[] = [77]; }}
    def input_vars {{ decl static {ctype} A[n*n] = random; decl static {ctype} y[n] = 0; decl static {ttype} r[1] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
{loop}
    ) @*/
{loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("shape", sorted(ROW_THEN_TOTAL))
def test_a_rows_result_added_to_a_total_is_added_once_per_row(in_tmp, shape):
    """The row's fold leaves its result in the row's first thread: an update of the kernel's own
    reduction after it runs there alone (every thread of the row added its own share before)."""
    program = load(write(in_tmp / "t.c", row_then_total(*ROW_THEN_TOTAL[shape])))
    results = covering_results(program, 0, {"n": 77}, in_tmp / "build", every=True)
    assert any("(threads)" in str(r.params) for r in results)  # the row spread over a block's threads
    assert {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message) for r in results if r.status != "ok"]
    row = next(r.params for r in results if "(threads)" in str(r.params))
    guard = "if (threadIdx.x == 0) {  // once per row of threads"  # the total's: the first of the row's
    dropped = evaluate(in_tmp, row_then_total(*ROW_THEN_TOTAL[shape]), planted(guard, "{"), params=row)
    assert dropped.status == "wrong_result", dropped.message
