"""Rodinia's shapes as other people write them (tests/c_as_written holds one spelling of each):
pathfinder's row pointers set where they are declared and swapped at the top or the bottom of
the step, at sizes where the columns are no multiple of a block; kmeans' helpers taking the
point and the centres through pointers that they do not declare const; in float and double."""

import pytest
from conftest import evaluate, planted, write

from orcu.driver import api
from orcu.planning.program import load

PATHFINDER = """#define MIN(a, b) ((a) <= (b) ? (a) : (b))
void pathfinder(int rows, int cols, const {t} *wall, {t} *buffer, {t} *result)
{{
    {t} *src = buffer, *dst = result;
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param rows[] = [{rows}]; param cols[] = [{cols}]; }}
    def input_vars {{ decl dynamic {t} wall[rows*cols] = random; decl dynamic {t} buffer[cols] = random;
                     decl dynamic {t} result[cols] = 0; }}
    ) @*/
    /*@ begin Loop(
    for (int t = 0; t < rows - 1; t++) {{
{top}        transform CUDA({transform})
        for (int n = 0; n < cols; n++) {{
            {t} m = src[n];
            if (n > 0)
                m = MIN(m, src[n - 1]);
            if (n < cols - 1)
                m = MIN(m, src[n + 1]);
            dst[n] = wall[(t + 1) * cols + n] + m;
        }}
{bottom}    }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

SWAP = "        {t} *temp = src;\n        src = dst;\n        dst = temp;\n"

MAPPINGS = {"orio": ("param TC[] = [64, 256];", "threadCount=TC"), "auto": ("", "mapping='auto'")}


@pytest.mark.parametrize("t", ["int", "double"])
@pytest.mark.parametrize("where", ["top", "bottom"])
@pytest.mark.parametrize("mapping", sorted(MAPPINGS))
def test_pathfinder_with_pointers_set_where_declared(in_tmp, t, where, mapping):
    """Every variant crashed: the harness left src and dst null (their initialisers stand
    before the PerfTuning region, which alone it ran)."""
    params, transform = MAPPINGS[mapping]
    swap = SWAP.format(t=t)
    write(
        in_tmp / "pf.c",
        PATHFINDER.format(
            t=t,
            params=params,
            transform=transform,
            rows=20,
            cols=1000,
            top=swap if where == "top" else "",
            bottom=swap if where == "bottom" else "",
        ),
    )
    result = api.tune("pf.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses
    assert (in_tmp / "pf.tuned.cu").exists()


SMOOTH = """void smooth(int n, double scale, const double *x, double *y)
{
    const double w = 0.25 * scale;
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32]; }
    def input_params { param n[] = [100]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = 0; decl double scale = 4; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 1; i < n - 1; i++) y[i] = w * (x[i - 1] + 2 * x[i] + x[i + 1]);
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_scalar_set_where_declared_before_the_region_is_set_in_the_harness(in_tmp):
    """``const double w = 0.25 * scale;`` above the spec: the harness runs it first. It ran the
    loops with w = 0, where a kernel that weighs the centre wrongly passed too."""
    assert evaluate(in_tmp, SMOOTH, params={"TC": 32}).status == "ok"
    assert load("t.c").prologue == "w = 0.25 * scale;  // as declared at line 3\n"
    wrong = evaluate(in_tmp, SMOOTH, edit=planted("2 * x[i]", "3 * x[i]"), params={"TC": 32})
    assert wrong.status == "wrong_result", wrong.message


KMEANS = """#include <float.h>

static {t} dist2({q}{t} *a, {q}{t} *b, int d)
{{
    {t} s = 0;
    for (int f = 0; f < d; f++)
        s += (a[f] - b[f]) * (a[f] - b[f]);
    return s;
}}

static int nearest({q}{t} *pt, int d, {q}{t} *centres, int k)
{{
    int best = 0;
    {t} least = {big};
    for (int c = 0; c < k; c++) {{
        {t} e = dist2(pt, centres + c * d, d);
        if (e < least) {{
            least = e;
            best = c;
        }}
    }}
    return best;
}}

void assign(int npoints, int nfeatures, int nclusters, {t} *feature, {t} *clusters, int *membership)
{{
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param npoints[] = [{points}]; param nfeatures[] = [{features}]; param nclusters[] = [5]; }}
    def input_vars {{
        decl dynamic {t} feature[npoints*nfeatures] = random; decl dynamic {t} clusters[nclusters*nfeatures] = random;
        decl dynamic int membership[npoints] = 0;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (int i = 0; i < npoints; i++)
        membership[i] = nearest(feature + i * nfeatures, nfeatures, clusters, nclusters);
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

KM_MAPPINGS = {
    "orio": ("param TC[] = [32, 128]; param UIF[] = [1, 3];", "threadCount=TC, unrollInner=UIF"),
    "auto": ("", "mapping='auto'"),
}


@pytest.mark.parametrize("t, big", [("float", "FLT_MAX"), ("double", "DBL_MAX")])
@pytest.mark.parametrize("q", ["", "const "])
@pytest.mark.parametrize("mapping", sorted(KM_MAPPINGS))
def test_kmeans_helpers_that_take_two_arrays_through_plain_pointers(in_tmp, t, big, q, mapping):
    """With `float *pt` (no const), every variant was a compile_error: the kernel passed its
    const array to the helper."""
    params, transform = KM_MAPPINGS[mapping]
    write(
        in_tmp / "km.c", KMEANS.format(t=t, big=big, q=q, params=params, transform=transform, points=1000, features=34)
    )
    result = api.tune("km.c", backend="emulate", progress=False)
    statuses = [r.statuses for r in result.regions]
    assert all(set(s) == {"ok"} for s in statuses), statuses
    assert (in_tmp / "km.tuned.cu").exists()
