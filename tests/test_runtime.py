"""The emitted code computes what the original loop computes.

Each case's tuned file is built into one program twice over: once with -DORCU_ORIGINAL
(the C loop, the reference) and once as generated; the program runs both on the same
seeded data and compares. Under orcu's CPU emulation everywhere; on a GPU where one is
visible (tests marked ``gpu``).
"""

import os
import subprocess
import tempfile

import pytest
from codegen_cases import CASES

from orcu.driver.writeback import Choice, tuned_source
from orcu.execution import toolchain
from orcu.execution.toolchain import build_command, compile_program, emulation_runtime
from orcu.planning.program import load

# Sizes that are not multiples of any block x grid used, and the edge cases 0 and 1.
SIZES = [0, 1, 1000, 12347]

# How each case's function is called: its shape in codegen_cases, its element type.
SHAPES = {
    "grid_stride": ("axpy", "float"),
    "default_blocks": ("axpy", "float"),
    "prefer_l1": ("axpy", "double"),
    "pin_host_mem": ("axpy", "double"),
    "step_and_offset": ("stencil", "double"),
    "unroll_inner": ("multi", "double"),
    "cache_blocks": ("multi", "double"),
    "streams": ("streamed", "double"),
    "sum_float": ("reduction", "float"),
    "product_int": ("reduction", "int"),
    "min_double_if": ("reduction", "double"),
    "max_long_ternary": ("reduction", "long"),
    "sum_and_max_streams": ("sum_and_max", "float"),
    "vector_axpy": ("axpy", "float"),
    "vector_sum": ("reduction", "double"),
}

DRIVER = r"""
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#define ORCU_ORIGINAL
#define f f_reference
#include "case.cu"
#undef f
#undef ORCU_ORIGINAL
#include "case.cu"

typedef {T} T;
static double worst = 0.0;

// Deterministic values in [-1, 1) (integers: small, so products stay exact).
static T value(long k)
{
    unsigned long h = (unsigned long)k * 2654435761ul % 1000003ul;
    return {INT} ? (T)(h % 3 == 0 ? -1 : (h % 3 == 1 ? 1 : 2)) : (T)((double)h / 500001.5 - 1.0);
}

static void compare(const T *got, const T *want, long count, double scale)
{
    for (long k = 0; k < count; k++) {
        const double err = fabs((double)got[k] - (double)want[k]) / (scale * (1.0 + fabs((double)want[k])));
        if (err > worst || got[k] != got[k])
            worst = got[k] != got[k] ? 1e300 : err;
    }
}

// A sum or min/max of n of the terms: within the probabilistic bound of a float or double sum's
// rounding errors in any order, 8 sqrt(n) u sum|terms|; integers exactly.
static void compare_reduction(T got, T want, long n, const T *terms)
{
    double magnitude = 1.0;  // the initial value 1
    for (long k = 0; k < n; k++)
        magnitude += fabs((double)terms[k]);
    const double u = sizeof(T) == 4 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    const double err = {INT} ? (got == want ? 0.0 : 1e300)
                             : fabs((double)got - (double)want) / (8.0 * sqrt((double)n + 1.0) * u * magnitude);
    if (err > worst || got != got)
        worst = got != got ? 1e300 : err;
}

int main(int argc, char **argv)
{
    const int n = atoi(argv[1]);
    const long m = n + 3;
    std::vector<T> x(m), y(m), y_ref(m), X(4 * m), a(4);
    for (long k = 0; k < m; k++) { x[k] = value(k); y[k] = y_ref[k] = value(k + m); }
    for (long k = 0; k < 4 * m; k++) X[k] = value(k + 7);
    for (long k = 0; k < 4; k++) a[k] = value(k + 3);
    const double eps = sizeof(T) == 4 && !{INT} ? 1e-5 : 1e-12;
    {
{CALL}
    }
#ifdef ORCU_EMULATION
    // A second call allocates nothing: device buffers, pinned buffers and streams are kept.
    const orcu_emu::Counters first = orcu_emu::counters;
#endif
    {
{CALL}
    }
#ifdef ORCU_EMULATION
    const orcu_emu::Counters second = orcu_emu::counters;
    if (second.device_allocations != first.device_allocations || second.pinned_allocations != first.pinned_allocations
        || second.streams_created != first.streams_created || second.events_created != first.events_created) {
        printf("the second call allocated: %lu device, %lu pinned, %lu streams, %lu events\n",
               second.device_allocations - first.device_allocations, second.pinned_allocations - first.pinned_allocations,
               second.streams_created - first.streams_created, second.events_created - first.events_created);
        return 1;
    }
#endif
    printf("{\"worst\": %g}\n", worst);
    return worst <= 1.0 ? 0 : 1;
}
"""

CALLS = {
    "axpy": "    f_reference(n, (T)2.5, x.data(), y_ref.data());\n    f(n, (T)2.5, x.data(), y.data());\n    compare(y.data(), y_ref.data(), m, eps);",
    "stencil": "    f_reference(n, x.data(), y_ref.data());\n    f(n, x.data(), y.data());\n    compare(y.data(), y_ref.data(), m, eps);",
    "multi": "    f_reference(n, 4, a.data(), X.data(), y_ref.data());\n    f(n, 4, a.data(), X.data(), y.data());\n    compare(y.data(), y_ref.data(), m, eps);",
    "streamed": "    f_reference(n, a.data(), x.data(), y_ref.data());\n    f(n, a.data(), x.data(), y.data());\n    compare(y.data(), y_ref.data(), m, eps);",
    # the initial value 1 is kept, whatever the operator
    "reduction": "    const long terms = n > 40 && {INT} ? 40 : n;  // integer products stay exact\n"
    "    T want = f_reference(terms, x.data(), (T)1);\n    T got = f(terms, x.data(), (T)1);\n"
    "    compare_reduction(got, want, terms, x.data());",
    "sum_and_max": "    T s = 0.5f, mx = -3.0f, s_ref = 0.5f, mx_ref = -3.0f;\n    f_reference(n, x.data(), &s_ref, &mx_ref);\n"
    "    f(n, x.data(), &s, &mx);\n    compare_reduction(s, s_ref, n, x.data());\n    compare(&mx, &mx_ref, 1, eps);",
}


def driver(name: str) -> str:
    shape, ctype = SHAPES[name]
    is_int = "1" if ctype in ("int", "long") else "0"
    call = CALLS[shape].replace("{INT}", is_int)
    return DRIVER.replace("{T}", ctype).replace("{INT}", is_int).replace("{CALL}", call)


def build(backend, name, directory, edit=lambda text: text):
    (directory / "t.c").write_text(CASES[name])
    program = load(directory / "t.c")
    (directory / "case.cu").write_text(edit(tuned_source(program, [Choice({})])[0]))
    (directory / "main.cu").write_text(driver(name))
    exe = directory / "main"
    return exe, compile_program(backend, directory / "main.cu", exe, flags=("-O2",))


@pytest.fixture(scope="session", params=["emulate", pytest.param("cuda", marks=pytest.mark.gpu)])
def executables(request, tmp_path_factory):
    """Each shape's program, built when a test first asks for it: the tests of one shape share
    it, whichever of pytest-xdist's workers runs them."""
    backend, built = request.param, {}

    def executable(name):
        if name not in built:
            built[name] = build(backend, name, tmp_path_factory.mktemp(f"{backend}-{name}"))
        return built[name]

    return executable


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_variant_matches_the_original_loop(executables, name, n):
    exe, built = executables(name)
    assert built.ok, built.message
    run = subprocess.run([str(exe), str(n)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_sum_that_drops_5_percent_of_its_terms_fails_the_comparison(tmp_path):
    """The driver's own check: a float sum of 12347 terms of both signs missing its last 5%."""
    loop = "i < (orcu_index)orcu_hi;"

    def dropped(text):
        assert text.count(loop) == 1
        return text.replace(loop, "i < (orcu_index)(orcu_hi - (orcu_hi - orcu_lo) / 20);")

    exe, built = build("emulate", "sum_float", tmp_path, dropped)
    assert built.ok, built.message
    run = subprocess.run([str(exe), "12347"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stdout.startswith('{"worst": '), run.stdout + run.stderr


@pytest.mark.parametrize("name", ["sum_and_max_streams", "cache_blocks"])
def test_portable_context_switch(tmp_path, name):
    """The emulation's ucontext fallback (used off x86-64) runs the same code to the same results."""
    (tmp_path / "t.c").write_text(CASES[name])
    program = load(tmp_path / "t.c")
    (tmp_path / "case.cu").write_text(tuned_source(program, [Choice({})])[0])
    (tmp_path / "main.cu").write_text(driver(name))
    built = compile_program(
        "emulate", tmp_path / "main.cu", tmp_path / "main", defines={"ORCU_EMULATION_UCONTEXT": "1"}
    )
    assert built.ok, built.message
    for n in SIZES:
        run = subprocess.run([str(tmp_path / "main"), str(n)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr


def test_the_emulation_runtime_is_compiled_once_per_option_set_and_the_cache_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(toolchain, "KEPT_RUNTIMES", 1)
    cache = tmp_path / f"orcu-emulation-{os.getuid()}"

    def made(sms: str, *flags: str):
        return emulation_runtime(
            build_command(
                "emulate", tmp_path / "main.cu", tmp_path / "main", flags=(f"-DORCU_EMULATION_SMS={sms}", *flags)
            )
        )

    first = made("1")
    files = {f.name: f.stat().st_mtime_ns for f in first.iterdir()}
    assert set(files) == {"cuda_runtime.h.gch", "runtime.o"}
    assert made("1") == first and {f.name: f.stat().st_mtime_ns for f in first.iterdir()} == files
    second = made("2")  # another option set: beyond the one kept, but the first was used within the hour
    assert second != first and set(cache.iterdir()) == {first, second}
    os.utime(first, (1, 1))
    third = made("3")  # the first, unused for an hour, goes
    assert set(cache.iterdir()) == {second, third}
    assert made("2", "-DN=4", "-D", "M=5") == second  # macros the runtime does not name: the same runtime
    assert made("(") is None  # options the header does not compile with leave nothing behind
    assert set(cache.iterdir()) == {second, third}
    # a program built with it: the header's declarations and templates, the runtime's object
    (tmp_path / "main.cu").write_text(  # the kernel's argument is device memory only if the two share the allocations
        "#include <cuda_runtime.h>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
        "int main() { int *p, h[N]; cudaMalloc(&p, sizeof h); ORCU_LAUNCH(k, 1, N, 0, 0, p);\n"
        "  cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost); return h[N - 1] == 1 && cudaGetLastError() == cudaSuccess ? 0 : 1; }\n"
    )
    built = compile_program(
        "emulate", tmp_path / "main.cu", tmp_path / "main", flags=("-DORCU_EMULATION_SMS=2", "-DN=4")
    )
    assert built.ok, built.message
    assert subprocess.run([str(tmp_path / "main")]).returncode == 0
