"""The file's functions that the PerfTuning region's code calls on the host, between or around
its Loop regions: the harness runs that code, so it has them (as written: only the host runs
them), and every variant is checked with them."""

import pytest
from conftest import write

from orcu.driver import api

HELPERS = """static {t} half({t} v) {{ return v / 2; }}
{storage}void clamp_all(int n, {t} *y, {t} hi)
{{
    for (int i = 0; i < n; i++) if (y[i] > hi) y[i] = {through};
}}
"""
TWO = """{helpers}
void two(int n, const {t} *x, {t} *y)
{{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [1000, 77]; }}
    def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} y[n] = 0; }}
    ) @*/
    {first}
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) y[i] = 2 * x[i];
    ) @*/
    for (i = 0; i < n; i++) y[i] = 2 * x[i];
    /*@ end @*/
    clamp_all(n, y, 2);
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) y[i] = y[i] + x[i];
    ) @*/
    for (i = 0; i < n; i++) y[i] = y[i] + x[i];
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t", ["double", "float", "int"])
@pytest.mark.parametrize(
    "storage, through, first",
    [
        ("static ", "hi", ""),
        ("", "half(hi)", ""),  # a helper that calls another
        ("static ", "hi", "clamp_all(n, (void *)0 == (void *)0 ? y : y, 3);"),  # before the first region too
    ],
)
def test_a_helper_called_between_two_regions_runs_in_the_harness(in_tmp, t, storage, through, first):
    helpers = HELPERS.format(storage=storage, t=t, through=through)
    write(in_tmp / "t.c", TWO.format(helpers=helpers, t=t, first=first))
    result = api.tune("t.c", backend="emulate", progress=False)
    assert [r.statuses for r in result.regions] == [{"ok": 2}] * 4
    assert (in_tmp / "t.tuned.cu").exists()
