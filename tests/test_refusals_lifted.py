"""Right code that orcu refused (issue 60's list): a while loop in a parallel body, an array
local to the function (durbin's `double z[n];`). Each now tunes with every variant right, in
Orio's mapping and the TSG's."""

import pytest
from conftest import write

from orcu.driver import api

MAPPINGS = {"orio": ("param TC[] = [32, 64];", "threadCount=TC"), "auto": ("", "mapping='auto'")}

COLLATZ = """void steps(int n, const {t} *r, int *y)
{{
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} r[n] = random; decl dynamic int y[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (int i = 0; i < n; i++) {{
        {t} v = r[i] * 7;
        int c = 0;
{loop}
        y[i] = c;
    }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

LOOPS = {
    "while": "        while (v > 1) {{ v = ((long)v % 2) ? 3 * v + 1 : v / 2; c++; if (c > 500) break; }}",
    "do": "        do {{ v = v / 2; c++; }} while (v >= 1);",
}


@pytest.mark.parametrize("t", ["int", "double"])
@pytest.mark.parametrize("kind", sorted(LOOPS))
@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_a_while_loop_in_a_parallel_body_runs_in_its_iteration(in_tmp, t, kind, mapping):
    """It was "'while' loops are not supported in a Loop region"; its break leaves the while."""
    params, transform = MAPPINGS[mapping]
    write(in_tmp / "w.c", COLLATZ.format(t=t, params=params, transform=transform, n=77, loop=LOOPS[kind].format()))
    result = api.tune("w.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses


LOCAL = """void f(int n, const double *r, double *y)
{{
    double z[{dims}];
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param n[] = [40, 9]; }}
    def input_vars {{ decl dynamic double r[n] = random; decl dynamic double y[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (int i = 0; i < n; i++) {{
        z[{at}] = r[i] * 2;
        y[i] = z[{at}] + 1;
    }}
    ) @*/
    /*@ end @*/
    y[0] += z[{last}];
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("dims, at, last", [("n", "i", "n - 1"), ("n + 2", "i + 2", "2"), ("2 * n", "2 * i + 1", "1")])
@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_an_array_local_to_the_function_is_made_by_the_harness(in_tmp, dims, at, last, mapping):
    """It was "'z' is an array the tuned code uses: declare it in input_vars"; what the code
    after the region reads of it reaches y, which is compared."""
    params, transform = MAPPINGS[mapping]
    write(in_tmp / "z.c", LOCAL.format(dims=dims, at=at, last=last, params=params, transform=transform))
    result = api.tune("z.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses
    assert (in_tmp / "z.tuned.cu").exists()


BACKPROP = """void adjust(int nh, int ndelta, const {t} *delta, {t} *w)
{{
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param nh[] = [17]; param ndelta[] = [16]; }}
    def input_vars {{ decl dynamic {t} delta[ndelta+1] = random; decl dynamic {t} w[(nh+1)*(ndelta+1)] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (int k = 0; k <= nh; k++)
        for (int j = 1; j <= ndelta; j++)
            w[{subscript}] += 0.3 * delta[j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("subscript", ["k*(ndelta + 1) + j", "k * ndelta + k + j", "(ndelta + 1) * k + j - 1"])
@pytest.mark.parametrize("t", ["float", "double"])
@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_rows_of_a_size_expression_are_told_apart(in_tmp, subscript, t, mapping):
    """Backprop's weights: "'w[(k * (ndelta + 1)) + j]' is not affine" (the terms were grouped
    under ndelta alone, leaving k + j a column that crosses rows)."""
    params, transform = MAPPINGS[mapping]
    write(in_tmp / "b.c", BACKPROP.format(subscript=subscript, t=t, params=params, transform=transform))
    result = api.tune("b.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses
