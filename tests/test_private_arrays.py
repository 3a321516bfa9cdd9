"""Arrays a region's loop declares (``const float w[3] = {...};``, ``double tmp[4];``): each
iteration's own, declared in the kernel as the C does, never a kernel argument or a transfer
(before, the harness passed an array it did not have: every variant a compile_error). The TSG
does not place them yet: mapping='auto' says so where the array is declared."""

import pytest
from conftest import covering_results, diagnose, write

from orcu.codegen.region import generate
from orcu.planning.program import load
from orcu.planning.space import input_space

FILTER = """    for (i = 0; i < n; i++) {{
        const {t} w[3] = {{({t})1, ({t})2, ({t})1}};
        {t} acc = 0;
        for (k = -1; k <= 1; k++)
            acc += w[k + 1] * x[(i + k + n) % n];
        y[i] = acc;
    }}"""
SCRATCH = """    for (i = 0; i < n; i++) {{
        {t} tmp[4];
        for (k = 0; k < 4; k++)
            tmp[k] = x[(4 * i + k) % n] * ({t})2;
        for (k = 1; k < 4; k++)
            tmp[k] += tmp[k - 1];
        y[i] = tmp[3] - tmp[0];
    }}"""
MATRIX = """    for (i = 0; i < n; i++) {{
        {t} m[2][2];
        m[0][0] = x[i]; m[0][1] = x[(i + 1) % n]; m[1][0] = -x[i]; m[1][1] = ({t})3;
        y[i] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    }}"""
SHAPES = {"filter": FILTER, "scratch": SCRATCH, "matrix": MATRIX}

SOURCE = """void f(int n, const {t} *x, {t} *y)
{{
    int i, k;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; param U[] = [1, 2]; }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} y[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA({transform})
{loop}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n", [("double", 300), ("float", 77), ("int", 129)])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_an_array_the_loop_declares_is_each_iterations_own(in_tmp, shape, t, n):
    loop = SHAPES[shape].format(t=t)
    program = load(write(in_tmp / "t.c", SOURCE.format(t=t, n=n, transform="threadCount=TC, unrollInner=U", loop=loop)))
    nest = program.nests[0]
    (private,) = [name for name, v in nest.variables.items() if v.kind == "private"]
    inputs = next(iter(input_space(program).configs()))
    code = generate(program, nest, {"TC": 32, "U": 1}, inputs)
    kernel = code.text[code.text.index("__global__") :]
    kernel = kernel[: kernel.index("\n}\n")]
    header, body = kernel.split("{", 1)
    assert private not in header.replace("(", " ").replace(",", " ").split()  # no argument
    assert loop.splitlines()[1].strip().split("=")[0].rstrip() in body  # declared where the C does
    results = covering_results(program, 0, inputs, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message[:300]) for r in results]


def test_the_tsg_says_it_does_not_place_an_array_the_loop_declares(in_tmp):
    text = SOURCE.format(t="double", n=30, transform="mapping='auto'", loop=SCRATCH.format(t="double"))
    assert diagnose(in_tmp, text).splitlines()[0] == (
        "t.c:11:16: error: the TSG does not map a loop that declares an array ('tmp', each iteration's own): "
        "map it with Orio's mapping (threadCount=..., no mapping='auto')"
    )
