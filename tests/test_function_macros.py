"""Macros with parameters in a region's code (``v[IDX(i, j, k)]``, ``MIN(a, b)``), as stencil
and Rodinia codes write them: expanded as the preprocessor does where their body is one
expression, so that the accesses are affine and the TSG maps the nest (before, ``IDX(...)``
was a call: "not affine", and mapping='auto' found no parallel loop)."""

import pytest
from conftest import covering_results, write

from orcu.analysis.nest import analyze
from orcu.frontend.cparse import parse_statements
from orcu.frontend.ir import c_text, statements
from orcu.frontend.source import SourceFile
from orcu.planning.program import load
from orcu.planning.space import input_space

MACROS = """#define IDX(i, j) ((i) * m + (j))
#define AT(a, i, j) a[IDX(i, j)]
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
#define GETX(x) ((x).x + 1)
#define ZERO() 0
#define SELF(x) SELF(x)
#define SWAP(a, b) do { double t = a; a = b; b = t; } while (0)
#define STR(x) #x
#define LOG(...) printf(__VA_ARGS__)
"""


@pytest.mark.parametrize(
    "written, expanded",
    [
        ("y = v[IDX(i + 1, j)];", "y = v[((i + 1) * m) + j]"),
        ("y = AT(v, i, j - 1);", "y = v[(i * m) + (j - 1)]"),
        (
            "y = MIN(AT(v, i, j), w[IDX(j, i)]);",
            "y = (v[(i * m) + j] <= w[(j * m) + i]) ? (v[(i * m) + j]) : (w[(j * m) + i])",
        ),
        ("y = GETX(p[i]);", "y = p[i].x + 1"),
        ("y = ZERO();", "y = 0"),
        ("y = SELF(i);", "y = SELF(i)"),  # the preprocessor does not expand a macro inside itself
        ("SWAP(a, b);", "SWAP(a, b)"),  # no expression: left to the compiler
        ("y = STR(i);", "y = STR(i)"),
        ("LOG(i);", "LOG(i)"),
        ("y = IDX(i);", "y = IDX(i)"),  # the wrong number of arguments: the compiler says so
    ],
)
def test_a_macro_whose_body_is_an_expression_is_expanded(written, expanded):
    text = MACROS + "void f(void) {\n" + written + "\n}\n"
    src = SourceFile("t.c", text)
    start = text.index(written)
    (item,) = parse_statements(src, start, written)
    assert c_text(item) == expanded
    assert {n.coord.line for n in _nodes(item) if n.coord is not None} == {11}  # all where the call is


def _nodes(node):
    yield node
    for _, child in node.children():
        yield from _nodes(child)


LAPLACE = """{header}void lap(int nx, int ny, int nz, const {t} *u, {t} *v)
{{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param nx[] = [{nx}]; param ny[] = [{ny}]; param nz[] = [{nz}]; }}
    def input_vars {{ decl dynamic {t} u[nx*ny*nz] = random; decl dynamic {t} v[nx*ny*nz] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (i = 1; i < nx - 1; i++)
        for (j = 1; j < ny - 1; j++)
            for (k = 1; k < nz - 1; k++)
                v[IDX(i, j, k)] = U(i - 1, j, k) + U(i + 1, j, k) + U(i, j - 1, k) + U(i, j + 1, k)
                    + U(i, j, k - 1) + U(i, j, k + 1) - ({t})6 * U(i, j, k);
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""
DEFINES = "#define IDX(i, j, k) ((i) * ny * nz + (j) * nz + (k))\n#define U(i, j, k) u[IDX(i, j, k)]\n"


@pytest.mark.parametrize("in_header", [False, True])
@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
@pytest.mark.parametrize("t, nx, ny, nz", [("double", 7, 9, 20), ("float", 5, 12, 9)])
def test_a_stencil_indexed_through_macros_maps_and_is_right(in_tmp, t, nx, ny, nz, transform, in_header):
    if in_header:
        write(in_tmp / "grid.h", DEFINES)
    header = '#include "grid.h"\n' if in_header else DEFINES
    program = load(write(in_tmp / "t.c", LAPLACE.format(header=header, t=t, nx=nx, ny=ny, nz=nz, transform=transform)))
    nest = program.nests[0]
    written = [a.text for st, _ in statements(nest.body) for a in st.accesses if a.write]
    assert written == ["v[(((i * ny) * nz) + (j * nz)) + k]"]
    if transform == "mapping='auto'":
        assert nest.recipe is not None and {p.schedule for p in nest.recipe.placements} >= {"x=k y=i", "x=k y=j"}
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]


EXTREMES = """#define min(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) >= (b) ? (a) : (b))
void extremes(int n, const {t} *x, {t} *r)
{{
    int i;
    {t} lo, hi, lo2, hi2;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 128]; }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} r[4] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    lo = x[0]; hi = x[0]; lo2 = x[0]; hi2 = x[0];
    for (i = 0; i < n; i++) {{
        lo = min(lo, x[i]);
        hi = MAX(hi, x[i] * 2);
        lo2 = lo2 > x[i] ? x[i] : lo2;
        hi2 = hi2 <= x[i] - 1 ? x[i] - 1 : hi2;
    }}
    r[0] = lo; r[1] = hi; r[2] = lo2; r[3] = hi2;
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n", [("double", 1000), ("float", 77), ("int", 513)])
def test_a_min_or_max_macro_of_the_scalar_first_is_a_reduction(in_tmp, t, n):
    """min(lo, x[i]) expanded is `lo < x[i] ? lo : x[i]`: the scalar first, as it is written
    directly too (before, only `x[i] < lo ? ...` and the call min(...) were reductions)."""
    program = load(write(in_tmp / "t.c", EXTREMES.format(t=t, n=n)))
    found = analyze(program.src, program.nests[0], program.spec)
    assert {(r.var, r.op) for r in found.reductions} == {("lo", "min"), ("hi", "max"), ("lo2", "min"), ("hi2", "max")}
    inputs = next(iter(input_space(program).configs()))
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]
