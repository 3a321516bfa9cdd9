"""Generated code that once was silently wrong: each case here failed before its fix.

The variants run under orcu's CPU emulation, which checks what CUDA promises (device
pointers, the order of streams, page-locking rules) as well as the numbers.
"""

import subprocess

import pytest
from codegen_cases import CASES, REDUCTION
from conftest import evaluate, planted, write

from orcu.driver.writeback import Choice, tuned_source
from orcu.errors import OrcuError
from orcu.execution.toolchain import compile_program, nvcc
from orcu.planning.program import load


def spec(inputs: str, variables: str, params: str = "") -> str:
    performance = f" def performance_params {{ {params} }}\n" if params else ""
    return f"/*@ begin PerfTuning (\n{performance} def input_params {{ {inputs} }}\n def input_vars {{ {variables} }}\n) @*/\n"


def with_spec(source: str, inputs: str, variables: str, params: str = "") -> str:
    return spec(inputs, variables, params) + source + "/*@ end @*/\n"


def run_driver(in_tmp, source: str, driver: str, *args: str, defines=None) -> subprocess.CompletedProcess:
    """Emit ``source`` (every region with its first configuration) as case.cu, build ``driver``
    (which includes it) under the emulation, and run it."""
    write(in_tmp / "t.c", source)
    program = load("t.c")
    write(in_tmp / "case.cu", tuned_source(program, [Choice({})] * len(program.nests))[0])
    write(in_tmp / "main.cu", driver)
    built = compile_program("emulate", in_tmp / "main.cu", in_tmp / "main", defines=defines)
    assert built.ok, built.message
    return subprocess.run([str(in_tmp / "main"), *args], capture_output=True, text=True, timeout=120)


AXPY_INPUTS = (
    "param n[] = [1000];",
    "decl dynamic float x[n] = random; decl dynamic float y[n] = random; decl float a = 2.0;",
)


# -- 64-bit indices ------------------------------------------------------------------------
NEAR_INT_MAX = """void f(float *x, float *y) {
    int i;
    /*@ begin Loop(transform CUDA(threadCount=128, blockCount=8)
    for (i = N - 1000; i < N - 10; i++)
        y[i - (N - 1000)] = 2.0f * x[i - (N - 1000)];
    ) @*/
    /*@ end @*/
}
"""


@pytest.mark.parametrize("top", [2147483647, 1000000])
def test_a_loop_that_ends_next_to_int_max(in_tmp, top):
    # 8 x 128 threads: a 32-bit grid stride past N - 10 wraps around to negative iterations.
    result = evaluate(
        in_tmp,
        with_spec(
            NEAR_INT_MAX,
            f"param N[] = [{top}];",
            "decl dynamic float x[1000] = random; decl dynamic float y[1000] = 0;",
        ),
    )
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_index_arithmetic_widens_where_a_call_needs_it(in_tmp):
    write(in_tmp / "t.c", CASES["unroll_inner"])
    text = tuned_source(load("t.c"), [Choice({})])[0]
    assert "    orcu_index i, k;\n" in text  # the iterators, so i + k*n is computed in 64 bits when wide
    assert (
        "const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX"
        " || orcu_a_end > INT_MAX || orcu_X_end > INT_MAX;"
    ) in text
    # sizes are computed in 64 bits on the host too: n*nv elements may pass INT_MAX
    assert "const long long orcu_X_first = 0LL, orcu_X_end = (long long)n * nv;" in text


# -- every reduction type and operator builds and runs under both compilers -----------------
REDUCED_TYPES = ["float", "double", "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"]
OPERATORS = {
    "sum": "r += x[i]",
    "product": "r *= x[i]",
    "min": "if (x[i] < r) r = x[i]",
    "max": "r = x[i] > r ? x[i] : r",
}


def reduction_matrix() -> tuple[str, list[str]]:
    functions, names = [], []
    for t in REDUCED_TYPES:
        for op, stmt in OPERATORS.items():
            name = f"{t.replace(' ', '_')}_{op}"
            functions.append(
                REDUCTION.format(t=t, args="threadCount=64, blockCount=3", stmt=stmt).replace(f"{t} f(", f"{t} {name}(")
            )
            names.append(name)
    return "\n".join(functions), names


MATRIX_DRIVER = r"""
#include <stdio.h>
#define ORCU_ORIGINAL
{RENAME}
#include "matrix.cu"
{UNRENAME}
#undef ORCU_ORIGINAL
#include "matrix.cu"

int main(void)
{
    int failed = 0;
{CHECKS}
    printf("%d failed\n", failed);
    return failed != 0;
}
"""


@pytest.mark.slow
def test_every_reduction_type_and_operator_builds_and_runs(in_tmp):
    source, names = reduction_matrix()
    write(in_tmp / "matrix.c", source)
    write(in_tmp / "matrix.cu", tuned_source(load("matrix.c"), [Choice({})] * len(names))[0])
    checks = []
    for name in names:
        t = name.rsplit("_", 1)[0].replace("_", " ")
        checks.append(f"""    {{
        {t} x[37];
        for (int k = 0; k < 37; k++) x[k] = ({t})(k % 3 == 0 ? 2 : 1);
        const {t} want = {name}_reference(37, x, ({t})3), got = {name}(37, x, ({t})3);
        if (got != want) {{ printf("{name}: %g, expected %g\\n", (double)got, (double)want); failed++; }}
    }}""")
    driver = (
        MATRIX_DRIVER.replace("{RENAME}", "\n".join(f"#define {n} {n}_reference" for n in names))
        .replace("{UNRENAME}", "\n".join(f"#undef {n}" for n in names))
        .replace("{CHECKS}", "\n".join(checks))
    )
    write(in_tmp / "main.cu", driver)
    built = compile_program("emulate", in_tmp / "main.cu", in_tmp / "main")
    assert built.ok, built.message
    run = subprocess.run([str(in_tmp / "main")], capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (0, "0 failed\n"), run.stdout + run.stderr
    gpu = subprocess.run([nvcc(), "-c", "-arch=sm_90", "matrix.cu", "-o", "matrix.o"], capture_output=True, text=True)
    assert gpu.returncode == 0, gpu.stderr


# -- fmax and NaN -----------------------------------------------------------------------------
MAXIMUM = """double f(int n, const double *x, double m) {{
    int i;
    /*@ begin Loop(transform CUDA(threadCount=64, blockCount=4)
    for (i = 0; i < n; i++)
        {stmt};
    ) @*/
    /*@ end @*/
    return m;
}}
"""


@pytest.mark.parametrize(
    "stmt",
    [
        "m = fmax(m, x[i])",  # fmax skips the NaN the scalar starts with: m ends as the largest element
        "if (x[i] > m) m = x[i]",  # a comparison never replaces NaN: m stays NaN
    ],
)
def test_nan_start_follows_the_function_the_source_used(in_tmp, stmt):
    source = with_spec(
        MAXIMUM.format(stmt=stmt),
        "param n[] = [3000];",
        "decl dynamic double x[n] = random; decl double m = float('nan');",
    )
    result = evaluate(in_tmp, source)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


# -- aliasing --------------------------------------------------------------------------------
ALIAS_DRIVER = r"""
#include <stdio.h>
#define ORCU_ORIGINAL
#define f f_reference
#include "case.cu"
#undef f
#undef ORCU_ORIGINAL
#include "case.cu"

int main(void)
{
    float buffer[1001], expected[1001];
    for (int k = 0; k < 1001; k++)
        buffer[k] = expected[k] = (float)(k % 7);
    f_reference(1000, 2.0f, expected, expected + 1);  // y overlaps x: each y[i] reads the x[i] written before
    f(1000, 2.0f, buffer, buffer + 1);
    for (int k = 0; k < 1001; k++)
        if (buffer[k] != expected[k]) {
            printf("element %d is %g, expected %g\n", k, buffer[k], expected[k]);
            return 1;
        }
    printf("same\n");
    return 0;
}
"""


@pytest.mark.parametrize("allow", [False, True])
def test_overlapping_arrays_are_refused_or_run_on_the_host(in_tmp, allow):
    run = run_driver(
        in_tmp, CASES["grid_stride"], ALIAS_DRIVER, defines={"ORCU_ALLOW_ALIASING": "1"} if allow else None
    )
    if allow:
        assert (run.returncode, run.stdout) == (0, "same\n"), run.stdout + run.stderr
    else:
        assert run.returncode == 1 and run.stdout == ""
        assert run.stderr == (
            "orcu_f_1: the arrays it was given overlap, and its GPU kernel reads them as if they did not "
            "(the loop's result would depend on the order of its iterations); compile with "
            "-DORCU_ALLOW_ALIASING to run the loop on the host in such calls\n"
        )


# -- streams ----------------------------------------------------------------------------------
STREAMED = with_spec(
    CASES["streams"],
    "param n[] = [5000];",
    "decl dynamic double c[1] = random; decl dynamic double x[n] = random; decl dynamic double y[n] = random;",
)


def test_chunks_wait_for_the_copies_of_the_default_stream(in_tmp):
    assert evaluate(in_tmp, STREAMED).status == "ok"
    # Without the event the chunks' kernels may read c before cudaMemcpy has put it on the device.
    unordered = evaluate(
        in_tmp,
        STREAMED,
        planted("        ORCU_CHECK(cudaStreamWaitEvent(orcu_stream[orcu_s], orcu_f_1_v0_ready, 0));\n", ""),
    )
    assert unordered.status == "launch_error"
    assert (
        "orcu emulation: a copy on non-blocking stream 1 may start before earlier work of the default stream"
        in unordered.message
    )


# -- values the code after the loop reads ------------------------------------------------------
LIVE = """void f(int n, const float *x, float *y) {
    int i;
    float t;
    /*@ begin Loop(transform CUDA(threadCount=64, blockCount=3)
    for (i = 0; i < n; i++) {
        t = 2.0f * x[i];
        y[i] = t + 1.0f;
    }
    ) @*/
    /*@ end @*/
    y[0] = t + i;
}
"""


def test_the_iterator_and_private_scalars_keep_their_last_values(in_tmp):
    # The spec around the statements, as Orio files have it: the harness runs y[0] = t + i too.
    source = LIVE.replace(
        "    /*@ begin Loop",
        spec("param n[] = [999];", "decl dynamic float x[n] = random; decl dynamic float y[n] = 0;").replace(
            "\n", "\n    "
        )
        + "/*@ begin Loop",
    ).replace("    y[0] = t + i;\n", "    y[0] = t + i;\n    /*@ end @*/\n")
    result = evaluate(in_tmp, source)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


@pytest.mark.parametrize(
    "after, why",
    [
        ("y[0] = j;", "it is the iterator of an inner loop"),
        (
            "y[0] = s;",
            "it is not assigned by a statement of its own in the body of 'i' (but in an inner loop or under a condition)",
        ),
    ],
)
def test_values_orcu_cannot_leave_after_the_loop_are_refused(in_tmp, after, why):
    write(
        in_tmp / "t.c",
        f"""void f(int n, const float *x, float *y) {{
    int i, j;
    float s;
    /*@ begin Loop(transform CUDA()
    for (i = 0; i < n; i++)
        for (j = 0; j < 4; j++) {{
            s = x[j];
            y[i] += s;
        }}
    ) @*/
    /*@ end @*/
    {after}
}}
""",
    )
    program = load("t.c")
    from orcu.codegen.region import generate

    with pytest.raises(OrcuError) as info:
        generate(program, program.nests[0], {})
    col = after.index("=") + 7
    assert info.value.render().split("\n")[0] == (
        f"t.c:12:{col}: error: '{after[7]}' is read here after the Loop region, where it should hold what the loop's "
        f"last iteration left; orcu cannot give it that value: {why}. Assign it before this read"
    )


@pytest.mark.parametrize(
    "after",
    [
        "    for (i = 0; i < n; i++) y[i] += 1.0f;\n    t = 0.0f;\n",
        # assigned first inside a later loop's body, by a loop of its own
        "    for (int j = 0; j < 2; j++) { t = 0.0f; for (i = 0; i < n; i++) y[i] += t; }\n",
        # both branches assign before anything reads
        "    if (n > 2) { i = 1; t = 0.0f; } else { i = 2; t = 1.0f; }\n    y[0] = t + i;\n",
    ],
)
def test_a_later_loop_that_assigns_the_iterator_first_needs_nothing(in_tmp, after):
    write(in_tmp / "t.c", LIVE.replace("    y[0] = t + i;\n", after))
    program = load("t.c")
    assert dict(program.nests[0].read_after) == {}


@pytest.mark.parametrize(
    "after, read",
    [
        (
            "    for (int j = 0; j < 2; j++) { for (i = 0; i < n; i++) y[i] += t; }\n",
            "t",
        ),  # t read before any assignment
        ("    if (n > 2) i = 1;\n    y[0] = i;\n", "i"),  # one branch only
        ("    while (n > 2) { i = 0; n--; }\n    t = 0.0f;\n    y[0] = i;\n", "i"),  # a loop may not run
        ("    i += 1;\n    t = 0.0f;\n", "i"),
    ],
)
def test_reads_after_the_region_that_may_come_first_are_found(in_tmp, after, read):
    write(in_tmp / "t.c", LIVE.replace("    y[0] = t + i;\n", after))
    program = load("t.c")
    assert sorted(program.nests[0].read_after) == [read]


@pytest.mark.parametrize(
    "transform, params",
    [
        ("threadCount=32", {}),
        ("threadCount=32, streamCount=2", {}),
        (
            "mapping='auto', threadCount=32",
            {"mapping_1": "x=j y=i", "registers_i_1": 1, "registers_j_1": 1, "shared_b_1": False, "vectorize_1": False},
        ),
        # register tiles and a shared tile of b (read twice, at i and i + 1): a[i][j] indexing throughout
        (
            "mapping='auto', threadCount=32",
            {"mapping_1": "x=j y=i", "registers_i_1": 2, "registers_j_1": 4, "shared_b_1": True, "vectorize_1": False},
        ),
        # ... and with vectors (double2): a[i][j] read and assigned in one statement, b's rows from global memory
        (
            "mapping='auto', threadCount=32",
            {"mapping_1": "x=j y=i", "registers_i_1": 2, "registers_j_1": 4, "shared_b_1": False, "vectorize_1": True},
        ),
    ],
)
def test_arrays_declared_with_two_dimensions_are_copied_by_element(in_tmp, transform, params):
    # Pointer arithmetic on a double (*)[50] counts rows: copies and overlap checks count elements.
    source = with_spec(
        f"""void f(double a[40][50], const double b[40][50]) {{
    int i, j;
    /*@ begin Loop(transform CUDA({transform})
    for (i = 0; i < 39; i++)
        for (j = 0; j < 50; j++)
            a[i][j] = 2.0 * b[i][j] + a[i][j] + b[i + 1][j];
    ) @*/
    /*@ end @*/
}}
""",
        "param N[] = [40];",
        "decl static double a[40][50] = random; decl static double b[40][50] = random;",
    )
    result = evaluate(in_tmp, source, params=params)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_a_sum_started_anew_in_each_iteration_is_private_not_a_reduction(in_tmp):
    # Orio's mapping of gemm's outer loop: 'sum' belongs to each (i, j), not to the whole loop.
    source = with_spec(
        """void f(int n, const double *A, const double *B, double *C) {
    int i, j, k;
    double sum;
    /*@ begin Loop(transform CUDA(threadCount=32)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = sum;
        }
    ) @*/
    /*@ end @*/
}
""",
        "param n[] = [37];",
        "decl dynamic double A[n*n] = random; decl dynamic double B[n*n] = random; decl dynamic double C[n*n] = 0;",
    )
    result = evaluate(in_tmp, source)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


def test_names_of_the_c_library_and_of_harness_locals_are_users_names_too(in_tmp):
    # y1 is a function of math.h; k and r were names of the harness's own loops.
    source = with_spec(
        """void f(int k, const double *y1, double *r) {
    int i;
    /*@ begin Loop(transform CUDA(threadCount=32)
    for (i = 0; i < k; i++)
        r[i] = 2.0 * y1[i];
    ) @*/
    /*@ end @*/
}
""",
        "param k[] = [100];",
        "decl dynamic double y1[k] = random; decl dynamic double r[k] = 0;",
    )
    result = evaluate(in_tmp, source)
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message


# -- dataOnDevice ------------------------------------------------------------------------------
ON_DEVICE = with_spec(
    CASES["grid_stride"].replace("blockCount=4", "blockCount=4, dataOnDevice=D"),
    *AXPY_INPUTS,
    params="param D[] = [False, True];",
)


def test_data_on_device_is_tuned_with_device_memory(in_tmp):
    for on_device in (False, True):
        result = evaluate(in_tmp, ON_DEVICE, params={"D": on_device})
        assert (result.status, result.worst["error"]) == ("ok", 0), result.message
        assert result.measure == "kernel" and len(result.kernel_ms) == 5


def test_host_memory_given_to_a_kernel_is_a_launch_error(in_tmp):
    # The emulation checks what the GPU would fault on: a kernel argument in host memory.
    source = with_spec(CASES["grid_stride"], *AXPY_INPUTS)
    result = evaluate(in_tmp, source, planted("orcu_lo, orcu_hi, d_y, d_x, a);", "orcu_lo, orcu_hi, y, d_x, a);"))
    assert result.status == "launch_error"
    assert result.message.startswith(
        "orcu emulation: kernel argument 3 points to host memory the GPU cannot read (pass device memory)"
    )


# -- pinHostMem ----------------------------------------------------------------------------------
PIN_DRIVER = r"""
#include <stdio.h>
#include "case.cu"

int main(void)
{
    alignas(4096) static double page[16];  // x and y: two arrays on one page
    for (int k = 0; k < 16; k++)
        page[k] = k;
    for (int call = 0; call < 2; call++)
        f(8, 2.0, page, page + 8);
    printf("%g %g\n", page[8], page[15]);
    return 0;
}
"""


def test_arrays_that_share_a_page_are_pinned_once(in_tmp):
    # Pages are pinned whole: pinning y's page again, after x's, fails in CUDA (and in the emulation).
    run = run_driver(in_tmp, CASES["pin_host_mem"], PIN_DRIVER)
    assert (run.returncode, run.stdout) == (0, "8 43\n"), (
        run.stdout + run.stderr
    )  # y[k] += 2*x[k], twice: y[0] = 8, y[7] = 15 + 2*14


# -- consecutive regions share arrays on the device -------------------------------------------
CHAIN = """void chain(int n, const double *x, double *y, double *w) {{
    int i;
    /*@ begin Loop(transform CUDA(threadCount=128, blockCount=4)
    for (i = 0; i < n; i++)
        y[i] = 2.0 * x[i];
    ) @*/
    /*@ end @*/
{between}    /*@ begin Loop(transform CUDA(threadCount=128, blockCount=4{second})
    for (i = 0; i < n; i++)
        w[i] = y[i] + x[i];
    ) @*/
    /*@ end @*/
}}
"""

CHAIN_DRIVER = r"""
#include <stdio.h>
#define ORCU_ORIGINAL
#define chain chain_reference
#include "case.cu"
#undef chain
#undef ORCU_ORIGINAL
#include "case.cu"

int main(int argc, char **argv)
{
    const int n = atoi(argv[1]);
    static double x[5000], y[5000], w[5000], y_ref[5000], w_ref[5000];
    for (int k = 0; k < n; k++)
        x[k] = k % 11;
    for (int call = 0; call < 2; call++) {
        const orcu_emu::Counters before = orcu_emu::counters;
        chain_reference(n, x, y_ref, w_ref);
        chain(n, x, y, w);
        for (int k = 0; k < n; k++)
            if (y[k] != y_ref[k] || w[k] != w_ref[k]) {
                printf("element %d differs\n", k);
                return 1;
            }
        printf("%lu to the device, %lu back\n", orcu_emu::counters.copies_to_device - before.copies_to_device,
               orcu_emu::counters.copies_to_host - before.copies_to_host);
    }
    return 0;
}
"""


@pytest.mark.parametrize(
    "between, second, n, copies",
    [
        # x and y stay on the device; y comes back once, after the second region
        ("", "", 5000, "1 to the device, 2 back"),
        # the host reads y in between: y comes back after the first region; nothing goes up again
        ("    y[0] = y[0];\n", "", 5000, None),
        ("    (void)y[0];\n", "", 5000, "1 to the device, 2 back"),
        # the second region has no iteration: what the first left pending comes back all the same
        ("", "", 0, "0 to the device, 0 back"),
        # streams in the second region: chunks the device holds already are not sent again (w comes back in 2 chunks)
        ("", ", streamCount=2", 5000, "1 to the device, 3 back"),
    ],
)
def test_consecutive_regions_share_arrays_on_the_device(in_tmp, between, second, n, copies):
    run = run_driver(in_tmp, CHAIN.format(between=between, second=second), CHAIN_DRIVER, str(n))
    assert run.returncode == 0, run.stdout + run.stderr
    if copies is None:  # a write between the regions: nothing is shared
        assert load("t.c").handoffs == (None,)
        assert run.stdout == "3 to the device, 2 back\n" * 2
    else:
        assert run.stdout == f"{copies}\n" * 2


# -- vectorize -----------------------------------------------------------------------------------
VECTOR_DRIVER = r"""
#include <stdio.h>
#define ORCU_ORIGINAL
#define f f_reference
#include "case.cu"
#undef f
#undef ORCU_ORIGINAL
#include "case.cu"

int main(void)
{
    static float x[1003], y[1003], expected[1003];
    for (int k = 0; k < 1003; k++) {
        x[k] = (float)(k % 5);
        y[k] = expected[k] = (float)(k % 3);
    }
    float *dx, *dy;  // dataOnDevice: device memory, given one element past an aligned start
    cudaMalloc((void **)&dx, sizeof x);
    cudaMalloc((void **)&dy, sizeof y);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    f_reference(1000, 2.0f, x + 1, expected + 1);
    f(1000, 2.0f, dx + 1, dy + 1);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    for (int k = 0; k < 1003; k++)
        if (y[k] != expected[k]) {
            printf("element %d is %g, expected %g\n", k, y[k], expected[k]);
            return 1;
        }
    printf("same\n");
    return 0;
}
"""


def test_vectors_wait_for_aligned_arrays(in_tmp):
    # The caller's device pointers are not 16-byte aligned: every iteration goes one at a time.
    # (Without the check the emulation crashes too: g++ moves the 16-byte vector types with
    # aligned instructions, as the GPU's vector loads need.)
    run = run_driver(
        in_tmp,
        CASES["grid_stride"].replace("blockCount=4", "blockCount=4, vectorize=True, dataOnDevice=True"),
        VECTOR_DRIVER,
    )
    assert (run.returncode, run.stdout) == (0, "same\n"), run.stdout + run.stderr


def test_vectorize_says_why_it_does_not_apply(in_tmp):
    from orcu.codegen.region import generate

    write(in_tmp / "t.c", CASES["unroll_inner"].replace("unrollInner=4", "vectorize=True"))
    program = load("t.c")
    code = generate(program, program.nests[0], {})
    assert code.notes == ["vectorize: no effect: an array is indexed by more than 'i' alone"]
    assert "orcu_vlo" not in code.text
