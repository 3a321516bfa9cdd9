"""One liveness for the harness and the code generator: a scalar a region reduces is compared
only where the code after the region (or the caller) can see it, and `orcu check` says when a
loop computes nothing anyone observes."""

import pytest
from conftest import covering_results, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orcu.execution.harness import observable, unobserved
from orcu.planning.program import load

# (name, its type, its first value, its update) of scalars one region reduces over a 2-D nest
SCALARS = [
    ("total", "double", "0.0", "total += A[i*m + j];"),
    ("big", "double", "-1.0", "if (A[i*m + j] > big) big = A[i*m + j];"),
    ("count", "int", "0", "if (A[i*m + j] > 1.0) count++;"),
    ("prod", "float", "1.0f", "prod *= 0.9f + 0.2f * (float)A[i*m + j];"),
]


def region(updates: list[tuple], reads: list[str], mapping: str = "mapping='auto'") -> str:
    """The scalars ``updates`` reduced over a 2-D nest, then those named in ``reads`` written to out."""
    decls = "\n".join(f"    {t} {name} = {first};" for name, t, first, _ in updates)
    body = "\n".join(f"            {u}" for *_, u in updates)
    loop = f"""for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {{
{body}
        }}"""
    after = "\n".join(f"    out[{k}] = {name};" for k, name in enumerate(reads))
    return f"""void f(int n, int m, const double *A, double *out) {{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64, 128]; }}
    def input_params {{ param n[] = [13]; param m[] = [37]; }}
    def input_vars {{ decl dynamic double A[n*m] = random; decl dynamic double out[4] = 0; }}
    ) @*/
{decls}
    /*@ begin Loop(transform CUDA(threadCount=TC, {mapping})
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
{after}
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("mapping", ["mapping='auto'", "blockCount=2"])
def test_a_sum_nothing_reads_is_named_and_not_compared_and_every_variant_passes(in_tmp, mapping):
    program = load(write(in_tmp / "t.c", region([SCALARS[0]], [], mapping)))
    (warning,) = unobserved(program)
    assert "warning: the loop computes nothing observable" in warning and "'total'" in warning
    assert not observable(program.nests[0], "total")
    results = covering_results(program, 0, {"n": 13, "m": 37}, in_tmp / "build", every=True)
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message) for r in results]


def test_a_sum_read_after_the_region_is_compared_and_no_warning(in_tmp):
    program = load(write(in_tmp / "t.c", region([SCALARS[0]], ["total"])))
    assert unobserved(program) == [] and observable(program.nests[0], "total")


@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(range(len(SCALARS))), min_size=1, max_size=3, unique=True), st.data())
def test_harness_and_code_agree_on_what_is_live(in_tmp, chosen, data):
    """A random region of reductions, then random reads of some of them: what is read is
    observable, what is not is not, and every variant passes (register tiles included)."""
    updates = [SCALARS[k] for k in chosen]
    names = [u[0] for u in updates]
    reads = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    program = load(write(in_tmp / "t.c", region(updates, reads)))
    assert {s for s in names if observable(program.nests[0], s)} == set(reads)
    assert bool(unobserved(program)) == (not reads)
    results = covering_results(program, 0, {"n": 13, "m": 37}, in_tmp / "build")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message) for r in results]
