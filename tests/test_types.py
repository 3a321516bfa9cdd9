"""Every C arithmetic type, as an array's elements, through the placements that move elements
as vectors: where CUDA has no vector of the type at a width (short8, char2 in a tile of
shorts...), elements move one by one, and shared tiles declare the bank conflicts of that. The quick tests take three pairs of types;
the slow one every type beside a float and a short result (each space's covering array)."""

import pytest
from conftest import H100, write

from orcu.driver.tuning import region_space
from orcu.execution.runners import Runner
from orcu.planning.program import load

TYPES = [
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "double",
]


def product(tx: str, ty: str) -> str:
    """y += a x over a small 3-deep nest: register tiles, shared tiles and vectors all apply."""
    loop = (
        "for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)\n            for (k = 0; k < p; k++)\n"
        "                y[i*m + j] += a[i*p + k] * x[k*m + j];"
    )
    return f"""void f(int n, int m, int p, const {tx} *a, const {tx} *x, {ty} *y) {{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [64]; }}
    def input_params {{ param n[] = [9]; param m[] = [37]; param p[] = [5]; }}
    def input_vars {{ decl dynamic {tx} a[n*p] = random; decl dynamic {tx} x[p*m] = random; decl dynamic {ty} y[n*m] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


def evaluated(in_tmp, tx: str, ty: str):
    program = load(write(in_tmp / "t.c", product(tx, ty)))
    sizes = {"n": 9, "m": 37, "p": 5}
    space = region_space(program, 0, sizes, H100)
    configs = [space.config(p) for p in space.covering()]  # vectorize on and off, where the space offers it
    return list(Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, [(c, sizes) for c in configs]))


@pytest.mark.parametrize("tx, ty", [("short", "float"), ("unsigned char", "short"), ("long", "double")])
def test_the_small_and_long_types_through_the_placements_of_the_covering_array(in_tmp, tx, ty):
    results = evaluated(in_tmp, tx, ty)
    assert {r.status for r in results} == {"ok"}, [
        (r.params, r.status, r.message[:300]) for r in results if r.status != "ok"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("ty", ["float", "short"])
@pytest.mark.parametrize("tx", TYPES)
def test_every_type_through_the_placements_of_its_covering_array(in_tmp, tx, ty):
    results = evaluated(in_tmp, tx, ty)
    assert {r.status for r in results} == {"ok"}, [
        (r.params, r.status, r.message[:300]) for r in results if r.status != "ok"
    ]


def scaled(t: str, mapping: str) -> str:
    """A 1-D update of every type, in Orio's mapping (unrolled, streams) or the TSG's (vectors)."""
    loop = "for (i = 0; i < n; i++)\n        y[i] = (" + t + ")(y[i] + 3 * x[i]);"
    if mapping == "orio":
        params, transform = (
            "param TC[] = [32, 64]; param UIF[] = [1, 2]; param SC[] = [1, 2];",
            "threadCount=TC, unrollInner=UIF, streamCount=SC",
        )
    else:
        params, transform = "", "mapping='auto'"
    return f"""void f(int n, const {t} *x, {t} *y) {{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ {params} }}
    def input_params {{ param n[] = [203]; }}
    def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} y[n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.slow
@pytest.mark.parametrize("mapping", ["orio", "auto"])
@pytest.mark.parametrize("t", TYPES + ["_Bool"])
def test_every_type_in_one_dimension_through_every_configuration(in_tmp, t, mapping):
    """Every arithmetic type x vectorize on and off (the TSG's space) or unrolling and streams
    (Orio's), every configuration of the space, in a 1-D loop (the 2-D ones are above)."""
    program = load(write(in_tmp / "t.c", scaled(t, mapping)))
    sizes = {"n": 203}
    space = region_space(program, 0, sizes, H100)
    configs = [space.config(p) for p in space.points]
    if mapping == "auto" and t in ("int", "float", "double", "long long"):
        assert {c.get("vectorize_1") for c in configs} == {False, True}
    results = list(
        Runner("emulate", H100, in_tmp / "build", jobs=2).evaluate(program, 0, [(c, sizes) for c in configs])
    )
    assert {r.status for r in results} == {"ok"}, [
        (r.params, r.status, r.message[:300]) for r in results if r.status != "ok"
    ]
