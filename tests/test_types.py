"""Every C arithmetic type, as an array's elements, through the placements that move elements
as vectors: where CUDA has no vector of the type at a width (short8, char2 in a tile of
shorts...), elements move one by one, and shared tiles declare the bank conflicts of that. The quick tests take three pairs of types;
the slow one every type beside a float and a short result (each space's covering array)."""
import pytest

from conftest import H100, write
from orcu.program import load
from orcu.runners import Runner
from orcu.tuning import region_space

TYPES = ["char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int", "long",
         "unsigned long", "long long", "unsigned long long", "float", "double"]


def product(tx: str, ty: str) -> str:
    """y += a x over a small 3-deep nest: register tiles, shared tiles and vectors all apply."""
    loop = ("for (i = 0; i < n; i++)\n        for (j = 0; j < m; j++)\n            for (k = 0; k < p; k++)\n"
            "                y[i*m + j] += a[i*p + k] * x[k*m + j];")
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
    assert {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message[:300]) for r in results if r.status != "ok"]


@pytest.mark.slow
@pytest.mark.parametrize("ty", ["float", "short"])
@pytest.mark.parametrize("tx", TYPES)
def test_every_type_through_the_placements_of_its_covering_array(in_tmp, tx, ty):
    results = evaluated(in_tmp, tx, ty)
    assert {r.status for r in results} == {"ok"}, [(r.params, r.status, r.message[:300]) for r in results if r.status != "ok"]
