"""Ordinary C that orcu once refused or wrote broken: scalars set by chained assignments and
assignments inside expressions are private, the file's own functions run in the kernels (or are
refused where called, saying why), and a tuned file that its build would refuse is never written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EVERY, H100, builds_as_cuda_and_as_c, covering_results, diagnose, evaluate, planted, write

from orcu.analysis.nest import analyze
from orcu.codegen.region import generate
from orcu.driver.writeback import Choice, tuned_source
from orcu.errors import OrcuError
from orcu.execution.runners import Runner
from orcu.execution.toolchain import nvcc
from orcu.frontend.ir import statements
from orcu.planning.program import load
from orcu.planning.space import input_space
from orcu.tsg.phase2 import placement
from orcu.tsg.plan import REGISTER_TILES

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
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert len(results) == 4 and {r.status for r in results} == {"ok"}, [(r.params, r.message[:200]) for r in results]


def test_a_tuned_file_its_build_would_refuse_is_not_written(in_tmp, monkeypatch):
    """C outside the regions that C++ refuses (malloc's void * assigned without a cast): the
    results stay in the database, nothing is written, and the compiler's words are shown."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(
        in_tmp / "t.c",
        "#include <stdlib.h>\ndouble *scratch(int n)\n{\n    double *p = malloc(n * sizeof(double));\n"
        "    return p;\n}\n" + CHAINED,
    )
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "2"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and not (in_tmp / "t.tuned.cu").exists() and not (in_tmp / "t.tuned.h").exists()
    assert (
        "orcu: error: t.tuned.cu would not compile as CUDA C++, so it was not written (C that C++ refuses outside the "
        "Loop regions, such as malloc's result assigned without a cast, must change; anything else is a defect of "
        "orcu's): the compiler said:"
    ) in proc.stderr
    said = proc.stderr.replace("\u2018", "'").replace("\u2019", "'")
    assert (
        "t.tuned.cu: In function 'double* scratch(int)':" in said
        and "error: invalid conversion from 'void*' to 'double*'" in said
    )


# Rodinia's shapes: a layer's activation through two helpers of the file (one calling the
# other, one with exp), and kmeans' nearest centre, an argmin over a helper's result.
HELPERS = """#include <math.h>
#define SCALE 2.0

static double squash(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

double activate(double x, double bias) { return SCALE * squash(x + bias); }

static double distance(double a, double b) { double d = a - b; return d * d; }

void layer(int n, int k, const double *in, const double *centres, double *out, int *nearest)
{
    int i, j, best;
    double closest, d;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; param BC[] = [4, 8]; }
    def input_params { param n[] = [997]; param k[] = [7]; }
    def input_vars {
        decl dynamic double in[n] = random; decl dynamic double centres[k] = random;
        decl dynamic double out[n] = 0; decl dynamic int nearest[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++) {
        out[i] = activate(in[i], 0.5);
        best = 0;
        closest = distance(in[i], centres[0]);
        for (j = 1; j < k; j++) {
            d = distance(in[i], centres[j]);
            if (d < closest) {
                closest = d;
                best = j;
            }
        }
        nearest[i] = best;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


ACTIVATE = "double activate(double x, double bias) { return SCALE * squash(x + bias); }\n"
# activate declared first and defined after the loop, as C files often have it
LATER = HELPERS.replace(ACTIVATE, "double activate(double x, double bias);\n") + "\n" + ACTIVATE


@pytest.mark.parametrize("source", [HELPERS, LATER], ids=["defined-before", "defined-after"])
def test_the_files_own_functions_run_in_the_kernels(in_tmp, monkeypatch, source):
    write(in_tmp / "t.c", source)
    program = load("t.c")
    assert [h.name for h in program.helpers] == ["squash", "activate", "distance"]
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert len(results) == 4 and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate", "--budget", "1"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    tuned = (in_tmp / "t.tuned.cu").read_text()
    assert (
        "ORCU_HD static double squash(double x)\n{" in tuned
        and "ORCU_HD double activate(double x, double bias) {" in tuned
    )
    assert 'extern "C" ORCU_HD double activate(double x, double bias);  // C linkage: C code calls it' in tuned
    # the GPU's build (host warnings too), and the original C build with no CUDA at all
    for command in (
        [nvcc(), "-arch=sm_90", "-Xcompiler", "-Wall", "-c", "t.tuned.cu", "-o", "t.o"],
        ["gcc", "-x", "c", "-std=c99", "-Wall", "-DORCU_ORIGINAL", "-c", "t.tuned.cu", "-o", "t-original.o"],
    ):
        built = subprocess.run(command, cwd=in_tmp, capture_output=True, text=True)
        assert built.returncode == 0 and "warning" not in built.stderr, built.stderr


@pytest.mark.parametrize(
    "helper, why",
    [
        (
            "static double first(double *v) { v[0] += 1.0; return v[0]; }",
            "writes through a pointer (a kernel's function may only read its arrays)",
        ),
        (
            "static double first(const double **v) { return v[0][0]; }",
            "takes 'v', which is neither a scalar nor a pointer to scalars",
        ),
        (
            "static double scale = 2.0;\nstatic double first(double v) { return scale * v; }",
            "uses the global variable 'scale'",
        ),
        (
            "static double first(double v) { static double calls; calls += 1; return v; }",
            "keeps a static variable 'calls'",
        ),
    ],
)
def test_a_helper_the_gpu_cannot_run_is_refused_where_it_is_called(in_tmp, helper, why):
    call = "first(x)" if "*v" in helper else "first(x[j])"
    source = helper + "\n" + CHAINED.replace("cr += ar[i*n + j] * x[j];", f"cr += ar[i*n + j] * {call};")
    message = diagnose(in_tmp, source)
    line = next(k for k, text in enumerate(source.splitlines(), 1) if "first(" in text and "return" not in text)
    assert (
        message.startswith(f"t.c:{line}:")
        and (
            f"error: 'first', a function of this file, {why}: orcu runs on the GPU only "
            "functions of scalar result and arguments (or pointers they only read) "
            "that use no global variable; write its work into the loop"
        )
        in message
    )


# Loops counting down: the rows in reverse (any order is right), and in each row the
# differences of neighbours from the right, which only the order as written gets right
# (counting up, each element would take the one before it already changed).
DOWN = """void diffs(int n, int m, double A[n][m])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [37]; param m[] = [29]; }
    def input_vars { decl dynamic double A[n][m] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(TRANSFORM)
    for (i = n - 1; i >= 0; i--)
        for (j = m - 1; j > 0; j--)
            A[i][j] = A[i][j] - A[i][j - 1];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


# By a constant step: every other element from the right, each from the one two to its left as
# it was (only the order as written gets it right), the rows downwards by three from wherever
# n - 1 falls.
STEPS = {
    "by one": ([], "for (j = m - 1; j >= 1; j--) {"),
    "by a constant step": (
        [
            ("for (i = n - 1; i >= 0; i--)", "for (i = n - 1; i >= 0; i -= 3)"),
            (
                "for (j = m - 1; j > 0; j--)\n            A[i][j] = A[i][j] - A[i][j - 1];",
                "for (j = m - 1; j > 1; j -= 2)\n            A[i][j] = A[i][j] - A[i][j - 2];",
            ),
        ],
        "for (j = m - 1; j >= 2 + ((m - 1 - 2) % 2 + 2) % 2; j -= 2) {",
    ),
}


@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
@pytest.mark.parametrize("step", sorted(STEPS))
def test_loops_counting_down_keep_their_order_where_it_matters(in_tmp, transform, step):
    source = DOWN.replace("TRANSFORM", transform)
    for old, new in STEPS[step][0]:
        source = source.replace(old, new)
    write(in_tmp / "t.c", source)
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    kernel = generate(program, program.nests[0], results[0].params, inputs).text
    assert STEPS[step][1] in kernel


def test_other_loop_forms_count_as_written(in_tmp):
    """``n > i``, ``i != n`` and a step of two."""
    source = CHAINED.replace("for (i = 0; i < n; i++) {", "for (i = 0; n > i; i += 2) {").replace(
        "for (j = 0; j < n; j++) {", "for (j = 0; j != n; j++) {"
    )
    write(in_tmp / "t.c", source)
    program = load("t.c")
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert len(results) == 4 and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]


def test_what_a_loop_counting_down_cannot_give_is_refused(in_tmp):
    live = (
        DOWN.replace("TRANSFORM", "threadCount=TC")
        .replace("void diffs(", "double diffs(")
        .replace("    /*@ end @*/\n}", "    /*@ end @*/\n    return i;\n}")
    )
    write(in_tmp / "t.c", live)
    program = load("t.c")
    with pytest.raises(OrcuError) as refused:
        analyze(program.src, program.nests[0], program.spec)
    assert refused.value.render().startswith(
        "t.c:16:12: error: 'i' is read here after the loop on 'i', which counts down: orcu runs its iterations in any "
        "order and keeps what the highest one left, not the last one; count up or assign it after the loop"
    )


# Sweeps counting down whose rows depend on the rows after them: the loops under the sweep run on
# the grid (no two of their iterations touch one element, whichever way the sweep runs), the
# sweep in each thread in its own order. (loop headers, body, the serial loop as the kernel
# prints it, the same range counting up)
SWEEPS = {
    "rows from the bottom": (
        "for (i = n - 2; i >= 0; i--)\n        for (j = 0; j < m; j++)",
        "A[i][j] = A[i][j] * 0.5 + A[i + 1][j];",
        "for (i = n - 2; i >= 0; i--) {",
        "for (i = 0; i <= n - 2; i++) {",
    ),
    "two rows below, columns from the right": (
        "for (i = n - 3; i > 0; i -= 1)\n        for (j = m - 1; j >= 0; j--)",
        "A[i][j] = A[i + 2][j] - A[i + 1][j] * 0.25;",
        "for (i = n - 3; i >= 1; i--) {",
        "for (i = 1; i <= n - 3; i++) {",
    ),
    "planes from the bottom, each row in order": (
        "for (i = n - 2; i >= 0; i--)\n        for (j = 0; j < m; j++)\n            for (k = 1; k < m; k++)",
        "B[i][j][k] = B[i + 1][j][k] + B[i][j][k - 1] * 0.125;",
        "for (i = n - 2; i >= 0; i--) {",
        "for (i = 0; i <= n - 2; i++) {",
    ),
}
SWEEP = """void sweep(int n, int m, T A[n][m], T B[n][m][m])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [N]; param m[] = [M]; }
    def input_vars { decl dynamic T A[n][m] = random; decl dynamic T B[n][m][m] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    HEADER
            BODY
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize("ctype, n, m", [("double", 23, 17), ("float", 9, 40)])
@pytest.mark.parametrize("shape", sorted(SWEEPS))
def test_a_sweep_counting_down_runs_in_each_thread_in_its_order(in_tmp, shape, ctype, n, m):
    header, body, serial, upwards = SWEEPS[shape]
    source = SWEEP.replace("HEADER", header).replace("BODY", body).replace("T ", f"{ctype} ")
    write(in_tmp / "t.c", source.replace("[N]", f"[{n}]").replace("[M]", f"[{m}]"))
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    assert {r.params["mapping_1"] for r in results} == {"x=j"}
    assert serial in generate(program, program.nests[0], results[0].params, inputs).text

    def counting_up(code):  # the sweep in the other order: the check must see it
        assert serial in code.text
        code.text = code.text.replace(serial, upwards)
        return code

    runner = Runner("emulate", H100, in_tmp / "up", jobs=2, measure="kernel")
    wrong = next(iter(runner.evaluate(program, 0, [(results[0].params, inputs)], edit=counting_up)))
    assert wrong.status == "wrong_result", wrong.message


# A loop guarded by an `if` alone: the guard goes into the loop's body where nothing the loop
# writes changes it, so the loop stays one of the nest's (the TSG maps it); elsewhere the `if`
# runs with its loop inside one iteration. (the loops, the mappings offered, what the kernel holds)
GUARDED = {
    "rows past the second, a recurrence down the rows": (
        """for (i = 1; i < n; i++)
        if (i > 2)
            for (j = 0; j < m; j++)
                A[i][j] = A[i - 1][j] * 0.5 + x[i];""",
        {"x=j"},
        "if (i > 2)\n                A[i][j] = A[i - 1][j] * 0.5 + x[i];",
    ),
    "masked rows summed, braces around the loop": (
        """for (i = 0; i < n; i++) {
        if (mask[i] != 0 && x[i] > 0.75) {
            for (j = 0; j < m; j++)
                y[i] += A[i][j] * x[j];
        }
    }""",
        None,
        "if (mask[i] != 0 && x[i] > 0.75)",
    ),
    "a guard two loops deep": (
        """for (i = 0; i < n; i++)
        if (i % 3 != 1)
            for (j = 0; j < m; j++)
                if (j < i + 4)
                    for (k = 0; k < 3; k++)
                        B[i][j][k] = A[i][j] * k + x[i];""",
        None,
        "if (j < i + 4)",
    ),
    # a loop the IR cannot keep (a test beside its bound) stays inside the if, as written
    "a guard around a loop with two tests": (
        """for (i = 0; i < n; i++)
        if (x[i] > 0.5)
            for (j = 0; j < m && A[i][j] > 0.25; j++)
                y[i] = y[i] + A[i][j];""",
        {"x=i"},
        "if (x[i] > 0.5)\n            for (j = 0; j < m && A[i][j] > 0.25; j++)\n                y[i] = y[i] + A[i][j];",
    ),
    # the guard protects the loop's bounds (mask, from 1 to 9, is 5 in some rows): it stays
    "a guard protecting its loop's bounds stays around it": (
        """for (i = 0; i < n; i++)
        if (mask[i] > 5)
            for (j = 0; j < m / (mask[i] - 5); j++)
                y[i] = y[i] + A[i][j];""",
        {"x=i"},
        "if (mask[i] > 5)\n            for (j = 0; j < m / (mask[i] - 5); j++)",
    ),
    # the iterator is read after the loop: where the guard is false it keeps its value
    "a guard whose loop's iterator is read after it stays around it": (
        """for (i = 0; i < n; i++) {
        j = 0;
        if (x[i] > 0.75)
            for (j = 0; j < m; j++)
                A[i][j] = A[i][j] * 0.5;
        y[i] = y[i] + j;
    }""",
        {"x=i"},
        "if (x[i] > 0.75)\n            for (j = 0; j < m; j++)\n                A[i][j] = A[i][j] * 0.5;",
    ),
    "a guard the loop changes stays around it": (
        """for (i = 0; i < n; i++)
        if (y[i] < 2.0)
            for (j = 0; j < m; j++)
                y[i] = y[i] + A[i][j];""",
        {"x=i"},
        "if (y[i] < 2.0)\n            for (j = 0; j < m; j++)\n                y[i] = y[i] + A[i][j];",
    ),
}
GUARDED_SOURCE = """void guarded(int n, int m, T A[n][m], T B[n][m][3], T x[n], T y[n], const int mask[n])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [N]; param m[] = [M]; }
    def input_vars {
        decl dynamic T A[n][m] = random; decl dynamic T B[n][m][3] = random; decl dynamic T x[n] = random;
        decl dynamic T y[n] = random; decl dynamic int mask[n] = random;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    LOOPS
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize("ctype, n, m", [("double", 21, 13), ("float", 40, 7)])
@pytest.mark.parametrize("shape", sorted(GUARDED))
def test_a_loop_guarded_by_an_if_stays_a_loop_of_the_nest(in_tmp, shape, ctype, n, m):
    loops, mappings, kernel_holds = GUARDED[shape]
    source = GUARDED_SOURCE.replace("LOOPS", loops).replace("T ", f"{ctype} ")
    write(in_tmp / "t.c", source.replace("[N]", f"[{n}]").replace("[M]", f"[{m}]"))
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    offered = {r.params["mapping_1"] for r in results}
    # the guard sunk: a 2-D grid where the loops under it are parallel
    assert offered == mappings if mappings else any(len(m.split()) == 2 for m in offered), offered
    assert kernel_holds in generate(program, program.nests[0], results[0].params, inputs).text


@pytest.mark.parametrize(
    "ctype", ["_Bool", "signed char", "unsigned short", "long long", "unsigned long", "int8_t", "uint64_t"]
)
def test_every_c_arithmetic_type_as_arrays(in_tmp, ctype):
    source = f"""#include <stdint.h>
void f(int n, {ctype} *a, const {ctype} *b)
{{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; param V[] = [False, True]; }}
    def input_params {{ param n[] = [1001]; }}
    def input_vars {{ decl dynamic {ctype} a[n] = random; decl dynamic {ctype} b[n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, vectorize=V)
    for (i = 0; i < n; i++)
        a[i] = a[i] + b[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""
    write(in_tmp / "t.c", source)
    program = load("t.c")
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    tuned, _ = tuned_source(program, [Choice(results[0].params, results[0].inputs)])
    builds_as_cuda_and_as_c(in_tmp, tuned)


KR = """void scale(n, a, x)
int n;
double a;
double *x;
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic double x[n] = random; decl double a = 2.0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        x[i] = a * x[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_k_and_r_function_gets_a_prototype(in_tmp, monkeypatch):
    """C89's old-style definition: its parameters are the function's (not the spec's sizes as
    macros), and the tuned file, which C++ compiles, declares them in the list."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(in_tmp / "t.c", KR)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    tuned = (in_tmp / "t.tuned.cu").read_text()
    assert "\nvoid scale(int n, double a, double *x)\n{\n    int i;" in tuned
    assert "\nvoid scale(int n, double a, double *x);\n" in (in_tmp / "t.tuned.h").read_text()
    for command in (
        [nvcc(), "-arch=sm_90", "-Xcompiler", "-Wall", "-c", "t.tuned.cu", "-o", "t.o"],
        ["gcc", "-x", "c", "-std=c99", "-Wall", "-DORCU_ORIGINAL", "-c", "t.tuned.cu", "-o", "t-original.o"],
    ):
        built = subprocess.run(command, cwd=in_tmp, capture_output=True, text=True)
        assert built.returncode == 0 and "warning" not in built.stderr, built.stderr


def test_a_name_of_the_function_and_of_a_c99_loop_in_another_nest(in_tmp):
    """srad's shape: `int i, j;` at the top of the function for one nest, `for (int i ...)` in
    the next; the reference and the variants of both nests compile and agree."""
    write(
        in_tmp / "t.c",
        """void srad(int rows, int cols, const double *J, double *dN, double *out)
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param rows[] = [20]; param cols[] = [30]; }
    def input_vars {
        decl dynamic double J[rows*cols] = random; decl dynamic double dN[rows*cols] = 0;
        decl dynamic double out[rows*cols] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 1; i < rows; i++)
        for (j = 0; j < cols; j++)
            dN[i*cols + j] = J[(i - 1)*cols + j] - J[i*cols + j];
    ) @*/
    /*@ end @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            out[i*cols + j] = 2.0 * dN[i*cols + j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
""",
    )
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    for region in range(2):
        results = covering_results(program, region, inputs, in_tmp / f"build{region}", every=True, measure="kernel")
        assert len(results) == 2 and {r.status for r in results} == {"ok"}, [
            (r.params, r.message[:300]) for r in results
        ]


# Rodinia's srad: the element's index computed once in the body, k = i * cols + j, and the
# neighbours reached through index arrays.
SRAD = (Path(__file__).parent / "c_as_written" / "srad_derivatives.c").read_text()


@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
def test_a_scalar_subscript_computed_from_the_iterators(in_tmp, transform):
    write(in_tmp / "t.c", SRAD.replace("threadCount=TC", transform))
    program = load("t.c")
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(
        program, 0, inputs, in_tmp / "build", every=transform != "mapping='auto'", measure="kernel"
    )
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    # the code keeps the subscript as written
    assert "dN[k] = J[iN[i] * cols + j] - Jc;" in generate(program, program.nests[0], results[0].params, inputs).text


def test_a_scalar_subscript_still_shows_a_dependence(in_tmp):
    source = SRAD.replace("c[k] = 1.0 / (1.0 + G2);", "c[k + cols] = c[k] + 1.0 / (1.0 + G2);")
    write(in_tmp / "t.c", source)
    program = load("t.c")
    with pytest.raises(OrcuError) as refused:
        analyze(program.src, program.nests[0], program.spec)
    assert "loop-carried dependence on 'c'" in refused.value.render()


def test_the_tuned_files_compile_takes_the_specs_include_folders(in_tmp, monkeypatch):
    """The file includes a header of a folder its spec's build command names (-I inc, relative
    to the file): the compile before writing finds it, run from another directory."""
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    (in_tmp / "project" / "inc").mkdir(parents=True)
    write(in_tmp / "project" / "inc" / "util.h", "#define TWICE(x) (2.0 * (x))\n")
    write(
        in_tmp / "project" / "t.c",
        '#include "util.h"\ndouble twice(double v) { return TWICE(v); }\n'
        + CHAINED.replace(
            "    def performance_params { param TC[] = [32, 64]; param UI[] = [1, 2]; }",
            "    def performance_params { param TC[] = [32, 64]; param UI[] = [1, 2]; }\n"
            "    def build { arg build_command = 'nvcc -O3 -I inc'; }",
        ),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "project/t.c", "--backend", "emulate", "--budget", "1"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert (in_tmp / "project" / "t.tuned.cu").is_file()


def test_a_k_and_r_helper_is_declared_with_its_types_for_the_kernels(in_tmp, monkeypatch):
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    write(
        in_tmp / "t.c",
        "static double half(v)\ndouble v;\n{\n    return 0.5 * v;\n}\n"
        + KR.replace("x[i] = a * x[i];", "x[i] = a * half(x[i]);"),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert (
        "[[maybe_unused]] ORCU_HD static double half(double v);  // called by the kernels"
        in (in_tmp / "t.tuned.cu").read_text()
    )


WRITTEN = Path(__file__).parent / "c_as_written"


def right_and_tuned(in_tmp, monkeypatch, name: str) -> str:
    """Every variant of the first loop of ``name`` (in in_tmp) right in the emulation, then the
    file tuned: the tuned file's text."""
    program = load(name)
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", name, "--backend", "emulate", "--budget", "2"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return (in_tmp / name.replace(".c", ".tuned.cu")).read_text()


@pytest.mark.slow
@pytest.mark.whole_space
# stencil_const.c: vectors with A's tile shared are left out (their reads conflict in banks; without vectors, none)
@pytest.mark.parametrize("kernel, size", [("gemm_local.c", 196), ("stencil_const.c", 41), ("scale3d.c", 58)])
def test_every_variant_of_the_whole_space_is_right(in_tmp, kernel, size):
    """A gemm with its sum in a local declared in the nest (`float s = 0;`: each register-tiled
    copy gets its own), a stencil with `const double c = 0.2;` in the nest and a 3-D array kernel:
    each pair of values of their spaces (every configuration under bench/validate_all.py, ``size``
    builds), register tiles included, right in the emulation."""
    (in_tmp / kernel).write_text((WRITTEN / kernel).read_text())
    program = load(kernel)
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=EVERY, measure="kernel")
    assert len(results) == size if EVERY else 0 < len(results) < size
    assert {r.status for r in results} == {"ok"}, [
        (r.params, r.status, r.message[:300]) for r in results if r.status != "ok"
    ]
    assert any(r.params.get(name, 1) > 1 for r in results for name in r.params if name.startswith("registers_"))


@pytest.mark.parametrize("kernel", ["lu_rows.c", "hotspot_swap.c"])
def test_host_code_between_the_kernels_runs_as_written(in_tmp, monkeypatch, kernel):
    """A loop left to the host between a row's kernels (PolyBench's lu as it ships) and a time loop
    that computes a weight and swaps its buffers through a pointer declared in the region
    (hotspot3D's): every variant right, and the tuned file written."""
    for path in WRITTEN.glob(kernel.replace(".c", "*")):
        (in_tmp / path.name).write_text(path.read_text())
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", kernel, "--backend", "emulate", "--search", "Exhaustive", "--json"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (region,) = json.loads(proc.stdout)["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 6, region["statuses"]
    tuned = (in_tmp / kernel.replace(".c", ".tuned.cu")).read_text()
    generated = tuned[tuned.index("#else\n") :]  # the host code around the kernels' calls
    if kernel == "lu_rows.c":  # the host's loop reads and writes A: all of it comes back before, goes after
        assert generated.startswith("#else\n    {   // A stay on the device while the region's loops run")
        syncs = [line.strip() for line in generated.splitlines() if "orcu_resident_sync(" in line]
        assert syncs == [
            "orcu_resident_sync(orcu_on_device_A, A, A, orcu_A_bytes, orcu_A_bytes, false);  "
            "// all of 'A' back: a kernel may have written it",
            "orcu_resident_sync(orcu_on_device_A, A, A, orcu_A_bytes, orcu_A_bytes, true);  "
            "// all of 'A' to the device: later kernels read it there",
        ]
        assert "for (j = 0; j < i; j++)\n" in generated
        assert "orcu_kernel_lu_1(i, n, (double *)orcu_on_device_A);" in generated
    else:  # the buffers stay on the device, their device copies swapped with them
        assert "tOut, tIn stay on the device while the region's loops run" in generated
        assert [line.strip() for line in generated.splitlines() if "temp" in line] == [
            "void *orcu_on_device_temp = nullptr;",
            "float *temp = tIn;",
            "orcu_on_device_temp = orcu_on_device_tIn;",
            "tOut = temp;",
            "orcu_on_device_tOut = orcu_on_device_temp;",
        ]


@pytest.mark.slow
def test_srads_time_loop_with_index_arrays_and_a_scalar_subscript(in_tmp, monkeypatch):
    """Rodinia's srad: three nests in a time loop, a two-scalar reduction, host statements between
    them, neighbours through index arrays and `k = i*cols + j` as the subscript. The covering array
    of each nest is right; `J[k] = J[k] + ...` with k from j is no reduction along j (a row of
    threads once folded the row's updates into one element)."""
    for path in (WRITTEN / "srad.c", WRITTEN / "srad_init.inc"):
        (in_tmp / path.name).write_text(path.read_text())
    program = load("srad.c")
    inputs = next(iter(input_space(program).configs()))
    for region in range(3):
        results = covering_results(program, region, inputs, in_tmp / f"build{region}", measure="kernel")
        assert results and {r.status for r in results} == {"ok"}, [
            (r.params, r.message[:300]) for r in results if r.status != "ok"
        ]
    threads = next(r.params for r in results if r.params["mapping_3"] == "x=j(threads) y=i")  # the last nest's
    kernel = generate(program, program.nests[2], threads, inputs).text
    assert "orcu_row_reduce" not in kernel and "J[k] = J[k] + 0.25f * lambda * D;" in kernel
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "srad.c", "--backend", "emulate", "--budget", "6"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and (in_tmp / "srad.tuned.cu").is_file(), proc.stderr[-3000:]


@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
def test_a_point_passed_as_a_pointer_to_the_files_function_that_reads_it(in_tmp, monkeypatch, transform):
    """Rodinia's kmeans: find_nearest_point(feature + i*nfeatures, ...) through two helpers that
    read the arrays they are given (an argmin over one's result): every variant right, and the
    helpers are in the tuned file for the GPU."""
    source = (WRITTEN / "kmeans.c").read_text().replace("threadCount=TC", transform)
    write(in_tmp / "kmeans.c", source)
    program = load("kmeans.c")
    assert [h.name for h in program.helpers] == ["euclid_dist_2", "find_nearest_point"]
    reads = {a.array: a.text for st, _ in statements(program.nests[0].body) for a in st.accesses if not a.write}
    assert reads == {"feature": "feature", "clusters": "clusters"}  # read whole, through the call
    tuned = right_and_tuned(in_tmp, monkeypatch, "kmeans.c")
    assert "ORCU_HD int find_nearest_point(const float *pt, int nfeatures, const float *pts, int npts)" in tuned


@pytest.mark.parametrize(
    "call, message",
    [
        (
            "memcmp(x, ar, 8)",
            "the array 'x' is passed to 'memcmp': a kernel passes arrays only to functions of this file, "
            "whose reads orcu can check",
        ),
        (
            "first(A)",
            "the array 'A' of 2 dimensions is passed to 'first': pass a flat array (one dimension) to a function "
            "in a kernel",
        ),
    ],
)
def test_an_array_passed_where_orcu_cannot_follow_it_is_refused(in_tmp, call, message):
    source = "static double first(const double *v) { return v[0]; }\n" + CHAINED.replace(
        "cr += ar[i*n + j] * x[j];", f"cr += ar[i*n + j] * {call};"
    ).replace("const double *x,", "const double *x, const double A[n][n],").replace(
        "decl dynamic double x[n] = random;", "decl dynamic double x[n] = random; decl dynamic double A[n][n] = random;"
    )
    assert f"error: {message}" in diagnose(in_tmp, source).split("\n")[0]


def test_a_row_update_through_pointers_to_the_inputs_swapped_each_step(in_tmp, monkeypatch):
    """Rodinia's pathfinder: src and dst are set to the inputs before the region and swapped
    through a third pointer each step; the kernel reads src's neighbours through MIN, a macro
    with parameters. The pointers move as far as the arrays they point at; every variant right."""
    write(in_tmp / "pathfinder.c", (WRITTEN / "pathfinder.c").read_text())
    program = load("pathfinder.c")
    assert program.nests[0].aliases == {name: ("buffer", "result") for name in ("dst", "src", "temp")}
    analysis = analyze(program.src, program.nests[0], program.spec, mapped=True)
    assert {a.name: a.extent for a in analysis.arrays if a.name in ("src", "dst")} == {"src": "cols", "dst": "cols"}
    tuned = right_and_tuned(in_tmp, monkeypatch, "pathfinder.c")
    # the rows stay on the device across the steps, the swaps followed; wall as far as the last step reads
    assert "src, dst, wall stay on the device while the region's loops run" in tuned
    assert "const long long orcu_wall_count = (long long)(cols*rows);" in tuned
    assert "orcu_on_device_src = orcu_on_device_dst;" in tuned


def test_a_local_pointer_set_to_anything_but_the_inputs_is_no_alias(in_tmp):
    source = (WRITTEN / "pathfinder.c").read_text().replace("src = buffer;", "src = buffer + 1;")
    write(in_tmp / "pathfinder.c", source)
    assert load("pathfinder.c").nests[0].aliases == {}
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "check", "pathfinder.c"], cwd=in_tmp, capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.startswith(
        "pathfinder.c:21:19: error: cannot tell how many elements of 'src'"
    )


def test_an_array_of_row_pointers_is_refused_saying_how_to_pass_a_flat_one(in_tmp):
    write(
        in_tmp / "rows.c",
        """void scale(int n, int m, double **A, double s)
{
    int i, j;
    /*@ begin PerfTuning (
    def input_params { param n[] = [9]; param m[] = [11]; }
    def input_vars { decl dynamic double A[n][m] = random; decl double s = 2.0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            A[i][j] *= s;
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
""",
    )
    proc = subprocess.run([sys.executable, "-m", "orcu", "check", "rows.c"], cwd=in_tmp, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.splitlines()[0] == (
        "rows.c:11:13: error: 'A' is an array of row pointers (double**); orcu moves flat arrays only: pass the rows as "
        "one block, a C99 array (double A[rows][cols]) or a flat pointer (double *A, indexed A[i*cols + j])"
    )


def test_an_array_of_structs_particle_update(in_tmp, monkeypatch):
    """Particles as arrays of structs (typedef'd and tagged): every field filled and compared,
    fields analysed apart (pos[i].w reads the x and y it just wrote), no tile or vector of structs,
    every variant right; a variant that writes the wrong field is a wrong result."""
    write(in_tmp / "particles.c", (WRITTEN / "particles.c").read_text())
    program = load("particles.c")
    assert {name: s.fields for name, s in program.structs.items()} == {
        "float4_t": (("x", "float"), ("y", "float"), ("z", "float"), ("w", "float")),
        "struct body": (("m", "double"), ("vx", "float"), ("vy", "float")),
    }
    assert program.nests[0].recipe.kept[0].name == "x=i"
    inputs = next(iter(input_space(program).configs()))
    assert "float4_t *pos" in right_and_tuned(in_tmp, monkeypatch, "particles.c")
    # an iterator named as a field: register tiles rename the iterator, not the field
    named_x = (
        (WRITTEN / "particles.c")
        .read_text()
        .replace("int i;", "int x;")
        .replace("for (i = 0; i < n; i++)", "for (x = 0; x < n; x++)")
        .replace("[i]", "[x]")
    )
    write(in_tmp / "px.c", named_x)
    results_x = covering_results(load("px.c"), 0, inputs, in_tmp / "build_x", every=True, measure="kernel")
    assert len(results_x) == len(REGISTER_TILES) and {r.status for r in results_x} == {"ok"}, [
        r.message[:300] for r in results_x
    ]
    wrong = evaluate(
        in_tmp,
        (WRITTEN / "particles.c").read_text(),
        edit=planted("pos[i].y += vel[i].y", "pos[i].y += vel[i].z"),
        params={"mapping_1": "x=i", "registers_i_1": 1},
        inputs=inputs,
    )
    assert wrong.status == "wrong_result" and wrong.message.startswith("pos.y["), wrong.message


def test_a_struct_array_filled_with_values_is_refused(in_tmp):
    source = (
        (WRITTEN / "particles.c")
        .read_text()
        .replace("decl dynamic float4_t vel[n] = random;", "decl dynamic float4_t vel[n] = 1.5;")
    )
    write(in_tmp / "particles.c", source)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "check", "particles.c"], cwd=in_tmp, capture_output=True, text=True
    )
    assert (
        proc.returncode == 2
        and (
            "error: 'vel' of the struct type 'float4_t': orcu takes arrays of structs of scalar "
            "fields, filled at random or with zeros"
        )
        in proc.stderr.splitlines()[0]
    )


def test_a_struct_and_a_macro_from_a_header_the_file_includes(in_tmp, monkeypatch):
    """float4_t and SOFTENING in particles.h, which the file includes with quotes: the spec
    declares arrays of the header's struct, the kernels use its macro, every variant right."""
    (in_tmp / "particles.h").write_text((WRITTEN / "particles.h").read_text())
    write(
        in_tmp / "particles.c",
        (WRITTEN / "particles.c")
        .read_text()
        .replace("typedef struct { float x, y, z, w; } float4_t;", '#include "particles.h"')
        .replace("pos[i].y * pos[i].y;", "pos[i].y * pos[i].y + SOFTENING;"),
    )
    program = load("particles.c")
    assert program.structs["float4_t"].fields == (("x", "float"), ("y", "float"), ("z", "float"), ("w", "float"))
    tuned = right_and_tuned(in_tmp, monkeypatch, "particles.c")
    assert '#include "particles.h"' in tuned and "SOFTENING;" in tuned


def test_a_swap_under_a_test_without_braces_keeps_each_loop_moving_its_arrays(in_tmp, monkeypatch):
    # the device copies' swap would land after the if, not under it: each kernel moves its own arrays
    write(
        in_tmp / "swap.c",
        (WRITTEN / "hotspot_swap.c")
        .read_text()
        .replace("        tIn = tOut;\n", "        if (steps > 0)\n            tIn = tOut;\n"),
    )
    assert load("swap.c").hosts[0].swaps is None
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "swap.c", "--backend", "emulate", "--budget", "1"],
        cwd=in_tmp,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (
        "// Each loop moves its arrays to the device and back: the host code uses the array 'tIn' as a pointer."
        in (in_tmp / "swap.tuned.cu").read_text()
    )


@pytest.mark.parametrize("declared", ["in the nest", "in the function"])
def test_struct_variables_in_the_nest(in_tmp, monkeypatch, declared):
    """`float4_t p = pos[i]; p.x += ...; pos[i] = p;`: the file's typedef parses in the region,
    p and v are private to an iteration (one per register-tiled copy, fields kept), every variant
    right; declared in the function, the harness declares p too (its fields zero)."""
    source = (WRITTEN / "particles_local.c").read_text()
    if declared == "in the function":
        source = source.replace("    int i;\n", "    int i;\n    float4_t p;\n").replace(
            "float4_t p = pos[i];", "p = pos[i];"
        )
    write(in_tmp / "local.c", source)
    program = load("local.c")
    assert {n: str(v.ctype) for n, v in program.nests[0].variables.items() if n in "pv"} == {
        "p": "float4_t",
        "v": "const float4_t",
    }
    tuned = right_and_tuned(in_tmp, monkeypatch, "local.c")
    assert "p.x += v.x * dt;" in tuned
    kernel = generate(program, program.nests[0], {"mapping_1": "x=i", "registers_i_1": 2}, {"n": 301}).text
    assert "p_1.w = p_1.x * p_1.x + p_1.y * p_1.y;" in kernel


def test_only_the_files_structs_are_struct_elements(in_tmp):
    """A placement leaves out arrays of the file's structs, and only those: an int8_t array (a
    type that has no size in orcu's table of element types) keeps its shared tile."""
    write(in_tmp / "particles.c", (WRITTEN / "particles.c").read_text())
    nest = load("particles.c").nests[0]
    rejected = dict(placement(nest, nest.recipe.kept[0], nest.deps).rejected)
    assert rejected["pos"] == rejected["vel"] == "its elements are structs, each thread reading the fields it uses"
    write(
        in_tmp / "t.c",
        """#include <stdint.h>
void f(int n, int m, const int8_t *a, int8_t *b)
{
    /*@ begin PerfTuning (
    def input_params { param n[] = [33]; param m[] = [35]; }
    def input_vars { decl dynamic int8_t a[n*m] = random; decl dynamic int8_t b[n*m] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            b[i*m + j] = a[(i - 1)*m + j] + a[(i + 1)*m + j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
""",
    )
    nest = load("t.c").nests[0]
    found = placement(nest, nest.recipe.kept[0], nest.deps)
    assert [t.array for t in found.shared] == ["a"] and "structs" not in dict(found.rejected)["b"]


NAMED = """void f(int n, int m, const {t} *{a}, {t} *{b}, {t} *{c})
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{ decl dynamic {t} {a}[n*m] = random; decl dynamic {t} {b}[n*m] = 0; decl dynamic {t} {c}[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            {b}[j*n + i] = {a}[i*m + j] + ({t})1;
    for (i = 0; i < n; i++)
        {c}[i] = {b}[i] - {a}[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize(
    "t, a, b, c, n, m", [("unsigned int", "in", "out", "sync", 45, 64), ("double", "buffer", "in", "out", 20, 7)]
)
def test_arrays_named_as_orcus_own_helpers_stay_on_the_device(in_tmp, t, a, b, c, n, m):
    """`in` and `out`, common names, were also orcu's: the device copy `orcu_resident_out` of
    the array `out` hid the function orcu_resident_out (every variant a compile_error)."""
    program = load(write(in_tmp / "t.c", NAMED.format(t=t, a=a, b=b, c=c, n=n, m=m)))
    assert len(program.nests) == 2
    inputs = next(iter(input_space(program).configs()))
    chosen = []
    for region in (0, 1):
        results = covering_results(program, region, inputs, in_tmp / "build", every=True, measure="kernel")
        assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
        chosen.append(Choice(results[-1].params, inputs))
    tuned, _ = tuned_source(program, chosen)
    builds_as_cuda_and_as_c(in_tmp, tuned)
    assert f"orcu_resident_out((void *){b}, orcu_on_device_{b}," in tuned
