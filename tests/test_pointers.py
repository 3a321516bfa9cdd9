"""Arrays read and written through pointer dereferences, as C code often spells them
(``*(a + i*m + j)``, ``*alpha``, ``*(A[i] + j)``): the region's statements take them as the
subscripts they are (orcu/frontend/pointers.py), every variant right; a dereference of anything
else is refused where it is written (before, the kernel lacked the array: a compile_error)."""

import pytest
from conftest import covering_results, diagnose, write

from orcu.frontend.cparse import parse_statements
from orcu.frontend.ir import c_text, statements
from orcu.frontend.pointers import subscripted
from orcu.frontend.source import SourceFile
from orcu.planning.program import load
from orcu.planning.space import input_space


@pytest.mark.parametrize(
    "written, subscript",
    [
        ("*(a + i*m + j)", "a[(i * m) + j]"),
        ("*(i*m + a + j)", "a[(i * m) + j]"),
        ("*(j + a)", "a[j]"),
        ("*(a + i - 1)", "a[i - 1]"),
        ("*(a - 1 + i)", "a[(-1) + i]"),
        ("*alpha", "alpha[0]"),
        ("*(A[i] + j)", "A[i][j]"),
        ("*A[i]", "A[i][0]"),
        ("*(*(A + i) + j)", "A[i][j]"),
        ("*(m + i)", "*(m + i)"),  # no array in it: left as written
        ("*a++", "*(a++)"),
    ],
)
def test_a_dereference_of_an_array_plus_an_offset_is_its_subscript(written, subscript):
    src = SourceFile("t.c", f"x = {written};")
    items = parse_statements(src, 0, src.text)
    subscripted(items, {"a": 1, "alpha": 1, "A": 2})
    assert c_text(items[0]) == f"x = {subscript}"


SOURCE = """void f(int n, int m, const {t} *a, {t} *A, {t} *y, const {t} *alpha)
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{
        decl dynamic {t} a[n*m] = random; decl dynamic {t} A[n*m] = random;
        decl dynamic {t} y[n] = random; decl dynamic {t} alpha[1] = 3;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    for (i = 0; i < n; i++) {{
        {t} s = *(y + i);
        for (j = 0; j < m; j++) {{
            s += *(a + i*m + j) * *alpha;
            *(j + A + i*m) = *(a + i*m + j) - *(y + i);
        }}
        *(y + i) = s;
    }}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("transform", ["threadCount=TC", "mapping='auto'"])
@pytest.mark.parametrize("t, n, m", [("double", 37, 20), ("float", 9, 70), ("int", 50, 13)])
def test_arrays_read_and_written_through_dereferences_in_every_variant(in_tmp, t, n, m, transform):
    program = load(write(in_tmp / "t.c", SOURCE.format(t=t, n=n, m=m, transform=transform)))
    arrays = {a.array for nest in program.nests for st, _ in statements(nest.body) for a in st.accesses}
    assert {"a", "A", "y", "alpha"} <= arrays  # (and the scop's copy of y where isl splits the nest)
    results = covering_results(
        program, 0, next(iter(input_space(program).configs())), in_tmp / "build", every=True, measure="kernel"
    )
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]


def test_a_dereference_of_anything_else_is_refused_where_it_is_written(in_tmp):
    text = SOURCE.format(t="double", n=10, m=10, transform="threadCount=TC").replace("*(y + i) = s;", "*y++ = s;")
    assert diagnose(in_tmp, text).splitlines()[0] == (
        "t.c:19:10: error: only an array plus or minus an offset can be dereferenced in a Loop region (*(a + i), *p)"
    )
