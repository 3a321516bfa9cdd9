"""The validator against planted defects: each defect is written into correct generated code, and
the check that must catch it does. What each one exercises:

| defect                                   | where                      | caught by                              |
| ---------------------------------------- | -------------------------- | -------------------------------------- |
| 1% of a float sum's terms dropped        | 10^3 and 10^6 terms        | the tolerance (8 sqrt(n) u): wrong_result |
| 1% of a double sum's terms dropped       | 10^7 terms                 | the tolerance: wrong_result            |
| 1% of a float sum's terms dropped, the C code's own sum stuck (2^25 + 4*10^6 ones: it stays 2^25) | 4*10^6 terms | the accurate (double) reference: wrong_result |
| the last block's share of a sum skipped  | 10^6 float terms, 132 blocks | the tolerance: wrong_result          |
| a loop bound one short                   | a sum of 10^3, an axpy     | the tolerance / the exact element: wrong_result |
| a barrier missing around a shared tile   | the TSG's gemm             | the comparison: wrong_result           |
| a shared-memory race (a tile written while read) | the TSG's gemm     | the comparison: wrong_result           |
| a wrong entry of the per-size dispatch   | a tuned file of two sizes  | the launches each size makes: wrong    |
| one update of an LU 10^-6 off, or a bound one short | LU without pivoting, n=40 | the tolerance, widened to the reference's own spread: wrong_result |

The same code unplanted passes every one of these checks (the first assertion of each case), and
so does an LU whose updates are fused multiply-adds, as nvcc makes them on a GPU.
"""

import subprocess

import pytest
from conftest import EXAMPLES, evaluate, planted, write
from test_tsg_placement import GEMM, SHARED

from orcu.driver.writeback import Choice, tuned_source
from orcu.execution.toolchain import compile_program
from orcu.planning.program import load

SUM = """{t} total(int n, const {t} *x) {{
    int i;
    {t} r;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [256]; param BC[] = [132]; }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl static {t} x[n] = random; }}
    ) @*/
    r = 0;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++)
        r += x[i];
    ) @*/
    for (i = 0; i < n; i++)
        r += x[i];
    /*@ end @*/
    /*@ end @*/
    return r;
}}
"""
AXPY = (
    SUM.replace("{t} total(int n, const {t} *x)", "void axpy(int n, {t} a, const {t} *x, {t} *y)")
    .replace(
        "decl static {t} x[n] = random;",
        "decl static {t} x[n] = random; decl static {t} y[n] = random; decl {t} a = 2;",
    )
    .replace("r += x[i];", "y[i] = a * x[i] + y[i];")
    .replace("    {t} r;\n", "")
    .replace("    r = 0;\n", "")
    .replace("    return r;\n", "")
)
# A float sum that starts at 2^25: the C code adds each term (< 2) to it and rounds back to 2^25,
# while the variants sum the terms apart first and land within a few units of the true value.
STUCK = SUM.replace("    r = 0;\n", "    r = 33554432;\n")
# PolyBench's LU without pivoting: random inputs in [0.5, 1.5) grow to thousands, and a rounding
# difference in one update moves the factors by far more than a sum's bound allows.
LU = """void lu(int n, double A[n][n])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [64]; }
    def input_params { param n[] = [%d]; }
    def input_vars { decl dynamic double A[n][n] = random; }
    ) @*/
    /*@ begin Loop(
    for (k = 0; k < n; k++) {
        for (j = k + 1; j < n; j++)
            A[k][j] = A[k][j] / A[k][k];
        transform CUDA(threadCount=TC)
        for (i = k + 1; i < n; i++)
            for (j = k + 1; j < n; j++)
                A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""
UPDATE = "A[i][j] = A[i][j] - A[i][k] * A[k][j];"
LOOP = "i < (orcu_index)orcu_hi;"
GEMM_SOURCE = GEMM.format(transform="mapping='auto'", b="k*n + j")
FILLED = "__syncthreads();  // the tiles are whole before any thread reads them"

# name: (source, params, the planted edit, the status that catches it, what the message starts with)
DEFECTS = {
    "float_1e3_loses_1_percent": (
        SUM.format(t="float", n=1000),
        {},
        planted(LOOP, "i < (orcu_index)(orcu_hi - (orcu_hi - orcu_lo) / 100);"),
        "wrong_result",
        "r is ",
    ),
    "float_1e6_loses_1_percent": (
        SUM.format(t="float", n=10**6),
        {},
        planted(LOOP, "i < (orcu_index)(orcu_hi - (orcu_hi - orcu_lo) / 100);"),
        "wrong_result",
        "r is ",
    ),
    "double_1e7_loses_1_percent": (
        SUM.format(t="double", n=10**7),
        {},
        planted(LOOP, "i < (orcu_index)(orcu_hi - (orcu_hi - orcu_lo) / 100);"),
        "wrong_result",
        "r is ",
    ),
    "float_stuck_sum_loses_1_percent": (
        STUCK.format(t="float", n=4 * 10**6),
        {},
        planted(LOOP, "i < (orcu_index)(orcu_hi - (orcu_hi - orcu_lo) / 100);"),
        "wrong_result",
        "r is ",
    ),
    "last_block_skipped": (
        SUM.format(t="float", n=10**6),
        {},
        planted("        r += x[i];", "        if (blockIdx.x != gridDim.x - 1) r += x[i];"),
        "wrong_result",
        "r is ",
    ),
    "sum_bound_off_by_one": (
        SUM.format(t="float", n=1000),
        {},
        planted(LOOP, "i < (orcu_index)orcu_hi - 1;"),
        "wrong_result",
        "r is ",
    ),
    "axpy_bound_off_by_one": (
        AXPY.format(t="double", n=1000),
        {},
        planted(LOOP, "i < (orcu_index)orcu_hi - 1;"),
        "wrong_result",
        "y[999] is ",
    ),
    "missing_barrier": (GEMM_SOURCE, SHARED, planted(FILLED, ";"), "wrong_result", "C["),
    "shared_tile_race": (
        GEMM_SOURCE,
        SHARED,
        planted(FILLED, FILLED + "\n if (threadIdx.x == 1 && threadIdx.y == 0) ORCU_TILE_DATA(A_shared)[0][0] = 0.0f;"),
        "wrong_result",
        "C[",
    ),
    "lu_update_1e-6_off": (
        LU % 40,
        {"TC": 64},
        planted(
            UPDATE, "A[i][j] = (A[i][j] - A[i][k] * A[k][j]) * (i == n - 1 && j == n - 1 && k == 0 ? 1 + 1e-6 : 1);"
        ),
        "wrong_result",
        "A[1599] is ",
    ),
    "lu_bound_one_short": (LU % 40, {"TC": 64}, planted(LOOP, "i < (orcu_index)orcu_hi - 1;"), "wrong_result", "A["),
}


def test_an_lu_whose_updates_are_fused_multiply_adds_is_right(in_tmp):
    # nvcc fuses a - b * c into one rounding; at n = 20 this LU's factors then stood 20.9 times
    # the sum's tolerance from the C code's on the first H100 run (tests/polybench_shapes/lu.c)
    found = evaluate(in_tmp, LU % 20, planted(UPDATE, "A[i][j] = fma(-A[i][k], A[k][j], A[i][j]);"), params={"TC": 64})
    assert found.status == "ok", found.message


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_each_planted_defect_is_caught(in_tmp, name):
    source, params, edit, status, message = DEFECTS[name]
    params = params or {"TC": 256, "BC": 132}
    correct = evaluate(in_tmp, source, params=params)
    assert correct.status == "ok", correct.message
    found = evaluate(in_tmp, source, edit, params=params)
    assert found.status == status and found.message.startswith(message), (found.status, found.message)


DRIVER = r"""
#include <math.h>
#include <stdio.h>
#define ORCU_ORIGINAL
#define daxpy daxpy_reference
#include "tuned.cu"
#undef daxpy
#undef ORCU_ORIGINAL
#include "tuned.cu"

int main(void)
{
    static double x[200000], y[200000], y_ref[200000];
    const int sizes[] = {1000, 100000, 1, 1500, 60000, 200000};
    for (int s = 0; s < 6; s++) {
        const int n = sizes[s];
        for (int k = 0; k < n; k++) { x[k] = 0.5 + k % 7; y[k] = y_ref[k] = 1.5 - k % 5; }
        daxpy_reference(n, 2.5, x, y_ref);
        const unsigned long before = orcu_emu::counters.launches;
        daxpy(n, 2.5, x, y);
        int same = 1;
        for (int k = 0; k < n; k++) same &= y[k] == y_ref[k];
        printf("%d %lu %d\n", n, orcu_emu::counters.launches - before, same);
    }
    return 0;
}
"""
# the variant tuned for n = 1000 launches once (one stream), the one for 100000 three times (three streams)
TWO_SIZES = [
    Choice({"TC": 64, "BC": 66, "SC": 1, "PL": 16}, {"n": 1000}),
    Choice({"TC": 256, "BC": 132, "SC": 3, "PL": 48}, {"n": 100000}),
]


def dispatch(in_tmp, edit=lambda text: text) -> list[str]:
    """The tuned file of two sizes run at each tuned size and between them: per size, the kernel
    launches of one call and whether its results equal the original code's."""
    write(in_tmp / "axpy.c", (EXAMPLES / "axpy.c").read_text())  # daxpy over threads, blocks and streams
    program = load(in_tmp / "axpy.c")
    (in_tmp / "tuned.cu").write_text(edit(tuned_source(program, [TWO_SIZES])[0]))
    (in_tmp / "main.cu").write_text(DRIVER)
    built = compile_program("emulate", in_tmp / "main.cu", in_tmp / "main", flags=("-O1",))
    assert built.ok, built.message
    return subprocess.run(
        [str(in_tmp / "main")], capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()


# 1500 and 1 are nearest 1000, 60000 and 200000 nearest 100000 (relative to each tuned size)
EXPECTED = ["1000 1 1", "100000 3 1", "1 1 1", "1500 1 1", "60000 3 1", "200000 3 1"]


def test_the_dispatch_runs_each_sizes_variant_and_the_nearest_between_sizes(in_tmp):
    assert dispatch(in_tmp) == EXPECTED


def test_a_wrong_dispatch_entry_is_caught(in_tmp):
    def swapped(text):
        right = "    if (n == 1000) {\n        orcu_daxpy_1_v1(n, y, a, x);"
        assert right in text
        return text.replace(right, "    if (n == 1000) {\n        orcu_daxpy_1_v2(n, y, a, x);")

    found = dispatch(in_tmp, swapped)
    assert found != EXPECTED and found[0] == "1000 3 1"  # the right results, from the other size's variant
