"""The TSG, part 1: dependences, Phase I's candidate schedules, overrides, and kernels from a schedule.

The examples' variants are all tuned under the emulation by test_tune (every variant, every
input size); here: the decisions, the diagnostics, and cases the examples do not cover.
"""

from itertools import product

import pytest
from conftest import EXAMPLES, covering_results, diagnose, evaluate, write

from orcu.analysis.poly import dependences
from orcu.analysis.subscripts import shapes
from orcu.codegen.region import generate
from orcu.driver.cli import main
from orcu.planning.program import load
from orcu.planning.space import input_space, performance_space
from orcu.spec.schedule import Schedule

TSG_EXAMPLES = [
    "2mm.c",
    "atax.c",
    "bicg.c",
    "conv2d.c",
    "dgemm.c",
    "gemv.c",
    "gemv_t.c",
    "gesummv.c",
    "jacobi2d.c",
    "mvt.c",
    "sgemm.c",
    "syr2k.c",
]


def largest_arrays(program, nest) -> set[str]:
    """The input_vars arrays with the most elements at the first input size."""
    env = dict(next(iter(input_space(program).configs())))
    sizes = {}
    for d in program.spec.input_vars:
        if d.dims and d.name in nest.variables:
            count = 1
            for e in d.dims:
                count *= e.evaluate(dict(env))
            sizes[d.name] = count
    return {name for name, count in sizes.items() if count == max(sizes.values())}


# -- Phase I on the examples ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "example, first",
    [
        ("gemv.c", "x=j(threads) y=i"),  # row-major y = Ax: j, a reduction, over a row of threads
        ("gemv_t.c", "x=j"),  # y = A^T x: each thread a column, i summed in the thread
        ("dgemm.c", "x=j y=i"),
        ("sgemm.c", "x=j y=i"),
    ],
)
def test_thread_x_walks_the_contiguous_dimension_of_the_largest_array(example, first):
    program = load(EXAMPLES / example)
    nest = program.nests[0]
    kept = nest.recipe.kept
    assert kept[0].name == first
    x = kept[0].dims[0].loop
    assert any(all(s.indexes_last(x) for s in shapes(nest)[big]) for big in largest_arrays(program, nest)), x


def test_row_major_gemv_reduces_j_across_threads():
    program = load(EXAMPLES / "gemv.c")
    nest = program.nests[0]
    facts = nest.deps.loops["j"]
    assert facts.reduces and not nest.deps.loops["i"].conflicts
    code = generate(program, nest, {"TC": 64, "mapping_1": "x=j(threads) y=i"})
    assert "orcu_row_reduce<double, orcu_sum, 32>(" in code.text
    assert "const dim3 orcu_block(32, 2);" in code.text


@pytest.mark.parametrize(
    "example, params, block",
    [
        ("dgemm.c", {"TI": 8, "TJ": 16, "mapping_1": "x=j y=i"}, "(16, 8)"),
        ("jacobi2d.c", {"TC": 128}, "(32, 4)"),
    ],
)
def test_gemm_and_jacobi_get_a_2d_grid(example, params, block):
    program = load(EXAMPLES / example)
    nest = program.nests[0]
    assert "x=j y=i" in [s.name for s in nest.recipe.kept]
    params = performance_space(program, next(iter(input_space(program).configs()))).first_matching(params)
    assert set(params.values()) >= {1, False}  # no register or shared tiles: those are test_tsg_placement's
    code = generate(program, nest, params)
    assert f"const dim3 orcu_block{block};" in code.text
    assert "threadIdx.y and blockIdx.y" in code.text and "threadIdx.x and blockIdx.x" in code.text
    assert "orcu_blocks_along(orcu_span_i" in code.text and "orcu_blocks_along(orcu_span_j" in code.text


def test_every_tsg_example_has_a_size_that_is_no_multiple_of_a_tile():
    for name in TSG_EXAMPLES:
        program = load(EXAMPLES / name)
        sizes = list(input_space(program).configs())
        assert len(sizes) >= 2, name
        assert any(all(v % 2 for v in s.values() if isinstance(v, int)) for s in sizes), name
        assert all(n.recipe is not None for n in program.nests), name


# -- dependences -----------------------------------------------------------------------------------
SHIFTED = """void f(int n, int m, double a[40][40], const double b[40][40]) {{
    int i, j;
    /*@ begin Loop(transform CUDA({transform})
    for (i = 2; i < n - 2; i++)
        for (j = 2; j < m - 2; j++)
            a[i][j] = a[i + {di}][j + {dj}] + b[i][j];
    ) @*/
    /*@ end @*/
}}
"""


def brute_force(di: int, dj: int) -> dict[str, bool]:
    """Whether some sizes make two instances with different i (or j) touch one element."""
    carried = {"i": False, "j": False}
    for n, m in product(range(5, 11), repeat=2):
        points = [(i, j) for i in range(2, n - 2) for j in range(2, m - 2)]
        inside = set(points)
        for i, j in points:  # the write a[i][j] against the read a[i2 + di][j2 + dj] of another instance
            other = (i - di, j - dj)
            if other in inside:
                carried["i"] |= other[0] != i
                carried["j"] |= other[1] != j
    return carried


@pytest.mark.parametrize("di, dj", list(product(range(-2, 3), repeat=2)))
def test_dependences_are_exact_on_shifted_stencils(in_tmp, di, dj):
    source = SHIFTED.format(transform="mapping='auto'", di=di, dj=dj)
    want = brute_force(di, dj)
    write(in_tmp / "t.c", source)
    if want["i"] and want["j"]:  # neither loop runs in parallel: a wavefront (tests/test_wavefront.py)
        program = load("t.c")
        [host] = program.hosts
        assert host.schedule is not None and host.schedule.how.startswith("a wavefront, wave = ")
        [nest] = program.nests
        [loop] = nest.loops()  # the other one each thread finds from the wavefront's
        assert nest.deps.loops[loop.var].parallel
        return
    nest = load("t.c").nests[0]
    got = {v: not nest.deps.loops[v].parallel for v in "ij"}
    assert got == want
    for schedule in nest.recipe.kept:  # a loop that carries a dependence is never on a block or thread
        assert not any(want[d.loop] for d in schedule.dims), schedule.name


def test_a_planted_dependence_is_never_mapped_and_the_rest_runs(in_tmp):
    source = SHIFTED.format(transform="mapping='auto', threadCount=64", di=-1, dj=0)
    source = source.replace(
        "void f(",
        """/*@ begin PerfTuning (
 def input_params { param n[] = [37]; param m[] = [29]; }
 def input_vars { decl static double a[40][40] = random; decl static double b[40][40] = random; }
) @*/
void f(""",
    ).replace("    /*@ end @*/\n}", "    /*@ end @*/\n}\n/*@ end @*/")
    write(in_tmp / "t.c", source)
    nest = load("t.c").nests[0]
    assert [s.name for s in nest.recipe.kept] == ["x=j"]
    result = evaluate(in_tmp, source, params={"mapping_1": "x=j", "registers_j_1": 1, "vectorize_1": False})
    assert (result.status, result.worst["error"]) == ("ok", 0), result.message
    assert diagnose(in_tmp, source.replace("mapping='auto'", "threadLoops=['j', 'i']")).split("\n")[0] == (
        "t.c:7:47: error: the mapping 'x=j y=i' cannot run this nest: a dependence between iterations of 'i': "
        "'a[i][j]' (line 10) and 'a[i + (-1)][j + 0]' (line 10)"
    )


@pytest.mark.parametrize("di, dj, permutable", [(1, 0, True), (1, 1, True), (1, -1, False)])
def test_permutability_follows_the_direction_of_dependences(in_tmp, di, dj, permutable):
    # the read a[i - di][j - dj] of an earlier instance: distance (di, dj)
    write(in_tmp / "t.c", SHIFTED.format(transform="", di=-di, dj=-dj))
    deps = dependences(load("t.c").nests[0])
    assert (deps.permutable("i", "j") is None) == permutable


def test_an_access_that_is_not_affine_is_named(in_tmp):
    text = diagnose(
        in_tmp,
        """void f(int n, int m, const int *idx, const double *v, double *y) {
    int i, j;
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[idx[i]*m + j] = v[i*m + j];
    ) @*/
    /*@ end @*/
}
""",
    )
    assert "(y[(idx[i] * m) + j] not affine: taken to touch any element)" in text.split("\n")[0]


def test_a_conditional_update_is_a_reduction_and_indirect_reads_do_not_matter(in_tmp):
    # Orio's DIA SpMV: the TSG keeps thread x on i, the contiguous index of the column-major A.
    text = (EXAMPLES / "spmv_dia.c").read_text()
    text = text.replace(
        "transform CUDA(threadCount=TC, blockCount=BC,", "transform CUDA(mapping='auto', threadCount=TC,"
    )
    write(in_tmp / "dia.c", text.replace("preferL1Size=PL, unrollInner=UIF)", "preferL1Size=PL)"))
    nest = load("dia.c").nests[0]
    assert nest.deps.loops["j"].reduces
    assert [s.name for s in nest.recipe.kept] == ["x=i", "x=i y=j(split)"]


# -- reductions --------------------------------------------------------------------------------
SUM2D = """double total(int n, int m, const double *A) {
    int i, j;
    double s = 0.0;
    /*@ begin PerfTuning (
    def input_params { param n[] = [37]; param m[] = [45]; }
    def input_vars { decl dynamic double A[n*m] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=64)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            s += A[i*m + j];
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            s += A[i*m + j];
    /*@ end @*/
    /*@ end @*/
    return s;
}
"""


@pytest.mark.parametrize("ri, rj, vectorize", [(1, 1, False), (2, 4, True), (8, 2, False)])
def test_a_scalar_reduced_over_a_2d_grid_goes_through_the_block_and_grid_stages(in_tmp, ri, rj, vectorize):
    """Register tiles included: every iteration of a tile adds to the thread's one share of s."""
    params = {"mapping_1": "x=j y=i", "registers_i_1": ri, "registers_j_1": rj, "vectorize_1": vectorize}
    result = evaluate(in_tmp, SUM2D, params=params)
    assert result.status == "ok", result.message
    code = generate(load("t.c"), load("t.c").nests[0], params)
    assert "orcu_block_reduce<double, orcu_sum, 64>(s)" in code.text and "orcu_arrived_last(" in code.text
    assert "s_0" not in code.text  # no copy of the share per iteration of the tile


def test_a_private_scalar_read_after_a_loop_on_threads_keeps_it_off_the_threads(in_tmp):
    write(
        in_tmp / "t.c",
        """void f(int n, int m, const double *A, double *y, double *z) {
    int i, j;
    double t;
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++) {
        t = 0.0;
        for (j = 0; j < m; j++) {
            t = A[i*m + j];
            y[i] += t;
        }
        z[i] = t;
    }
    ) @*/
    /*@ end @*/
}
""",
    )
    recipe = load("t.c").nests[0].recipe
    assert (
        "  pruned x=j(threads) y=i: 't' (line 11) reads what one thread's last iteration of 'j' left"
        in recipe.explain()
    )
    assert [s.name for s in recipe.kept] == ["x=i"]


# -- how a user asks ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        ("threadLoops=['jj', 'i']", "t.c:3:47: error: 'threadLoops': no loop 'jj' in this region (did you mean 'j'?)"),
        (
            "threadLoops=['j'], blockLoops=['i']",
            "t.c:3:65: error: 'blockLoops': 'i' is not among threadLoops: a loop spread over blocks is spread over their threads too",
        ),
        ("threadLoops=['j', 'j']", "t.c:3:47: error: 'threadLoops' names a loop twice"),
        (
            "threadLoops='j'",
            "t.c:3:47: error: transform argument 'threadLoops' must be a list of one or two loop names (x first), got 'j'",
        ),
        ("mapping='x=jj'", "t.c:3:43: error: 'mapping': no loop 'jj' in this region (did you mean 'j'?)"),
        (
            "mapping='x=i z=j'",
            "t.c:3:43: error: transform argument 'mapping' must be 'orio', 'auto' or a schedule such as 'x=j y=i', got 'x=i z=j'",
        ),
        ("mapping='auto', tile={'ii': 4}", "t.c:3:56: error: 'tile': no loop 'ii' in this region (did you mean 'i'?)"),
        (
            "mapping='auto', tile={'j': 0}",
            "t.c:3:56: error: transform argument 'tile' must be a dict of loop name to a positive integer, got {'j': 0}",
        ),
        (
            "mapping='x=i(threads) y=j'",
            "t.c:3:43: error: the mapping 'x=i(threads) y=j' cannot run this nest: 'i' must sit directly in the "
            "body of the innermost grid loop to run over the threads of a block",
        ),
    ],
)
def test_overrides_are_checked_where_they_are_written(in_tmp, args, message):
    source = f"""void f(int n, int m, const double *A, double *B) {{
    int i, j;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            B[i*m + j] = 2.0 * A[i*m + j];
    ) @*/
    /*@ end @*/
}}
"""
    assert diagnose(in_tmp, source).split("\n")[0] == message


def test_a_mapping_is_no_tuning_parameter(in_tmp):
    text = diagnose(
        in_tmp,
        """/*@ begin PerfTuning (
 def performance_params { param MAP[] = ['x=i', 'auto']; }
) @*/
void f(int n, double *B) {
    int i;
    /*@ begin Loop(transform CUDA(mapping=MAP)
    for (i = 0; i < n; i++)
        B[i] = 2.0 * B[i];
    ) @*/
    /*@ end @*/
}
/*@ end @*/
""",
    )
    assert text.split("\n")[0] == (
        "t.c:6:43: error: 'mapping' is decided when the file loads: give it a value, not a parameter "
        "(mapping='auto' makes the schedule a tuning parameter)"
    )


def test_check_lists_the_mapping_parameter_and_explains_the_recipe(capsys):
    assert main(["check", str(EXAMPLES / "gemv.c"), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "  mapping_1      1 value(s): 'x=j(threads) y=i'\n" in out
    assert "  TSG mapping: 1 candidate(s) kept: x=j(threads) y=i\n" in out
    assert "    loop 'j': reductions between its iterations: 'y[i]' (line 23) and 'y[i]' (line 23)\n" in out
    assert "    pruned x=i: thread x ('i') walks the last dimension of none of A ('j' does)\n" in out


def test_schedule_text_round_trips():
    for text in ("x=j y=i", "x=j(threads) y=i", "x=j y=i(split)", "x=k"):
        assert Schedule.parse(text).name == text
    for text in ("y=i", "x=i x=j", "x=i y=i", "x=i(threads)y=j", "x=i y=j(splits)", "orio"):
        assert Schedule.parse(text) is None


FLAT_ROWS = """void f(int n, int rows, double *a) {{
    int i, j;
    /*@ begin Loop(transform CUDA()
    for (i = 0; i < rows; i++)
        for (j = {lo}; j < n + {hi}; j++)
            a[i*n + j] = a[i*n + j + {dj}] + 1.0;
    ) @*/
    /*@ end @*/
}}
"""


def flat_brute_force(lo: int, hi: int, dj: int) -> dict[str, bool]:
    """Whether some sizes make two instances with different i (or j) touch one element of the
    flat array, one of them writing it."""
    carried = {"i": False, "j": False}
    for n, rows in product(range(3, 8), range(1, 5)):
        points = [(i, j) for i in range(rows) for j in range(lo, n + hi)]
        for (i, j), (i2, j2) in product(points, repeat=2):
            if i * n + j in (i2 * n + j2, i2 * n + j2 + dj):  # this write against the other's write or read
                carried["i"] |= i != i2
                carried["j"] |= j != j2
    return carried


@pytest.mark.parametrize("lo, hi, dj", list(product((0, 1), (-1, 0, 1, 2), (-1, 0, 1))))
def test_flat_subscripts_are_delinearized_exactly_where_each_row_stays_in_its_window(in_tmp, lo, hi, dj):
    # j from 1 to n (SPAPT's covariance writes data[i*m + j] so) stays in a window of n elements:
    # rows never overlap. Past it, a row's end is the next row's start and the analysis gives up.
    write(in_tmp / "t.c", FLAT_ROWS.format(lo=lo, hi=hi, dj=dj))
    deps = dependences(load("t.c").nests[0])
    got = {v: not deps.loops[v].parallel for v in "ij"}
    want = flat_brute_force(lo, hi, dj)
    assert all(got[v] for v in "ij" if want[v])  # never a dependence missed
    if hi - lo + abs(dj) <= 0:  # every access of a row in one window as wide as the row
        assert got == want


def test_a_host_loops_iterator_in_a_flat_subscript_is_a_bounded_parameter(in_tmp):
    # PolyBench's lu on a flat array: k is fixed for each launch and runs below n, so A[i*n + k]
    # stays in row i and the update's two loops are parallel.
    write(
        in_tmp / "t.c",
        """void lu(int n, double *A) {
    int i, j, k;
    /*@ begin Loop(
    for (k = 0; k < n; k++) {
        transform CUDA()
        for (i = k + 1; i < n; i++)
            for (j = k + 1; j < n; j++)
                A[i*n + j] = A[i*n + j] - A[i*n + k] * A[k*n + j];
    }
    ) @*/
    /*@ end @*/
}
""",
    )
    nest = load("t.c").nests[0]
    assert [lp.var for lp in nest.context] == ["k"]
    assert deps_parallel(nest) == {"i": True, "j": True}
    # k past the rows' ends (k <= n): A[i*n + k] may be the next row's first element
    write(in_tmp / "t.c", (in_tmp / "t.c").read_text().replace("k < n; k++", "k <= n; k++"))
    assert deps_parallel(load("t.c").nests[0]) == {"i": False, "j": False}


def deps_parallel(nest) -> dict[str, bool]:
    return {v: facts.parallel for v, facts in dependences(nest).loops.items()}


def test_a_subscript_a_conditional_chooses_is_each_choice_under_its_condition(in_tmp):
    # hotspot3D's clamp, w = (x == 0) ? c : c - 1, in a row recurrence: under x != 0, c - 1 is the
    # element before in the same row, so the rows are independent and only x runs in order
    source = (EXAMPLES.parent / "tests" / "c_as_written" / "row_recurrence.c").read_text()
    write(in_tmp / "t.c", source.replace("mapping='auto'", ""))
    deps = dependences(load("t.c").nests[0])
    assert (deps.loops["y"].parallel, deps.loops["x"].parallel) == (True, False)
    assert [s.name for s in load(write(in_tmp / "t.c", source)).nests[0].recipe.kept] == ["x=y"]
    results = covering_results(load("t.c"), 0, {"ny": 37, "nx": 29}, in_tmp / "build", every=True, measure="kernel")
    assert results and {r.status for r in results} == {"ok"}
    # the previous row instead: the rows run in order, the columns are independent
    write(in_tmp / "t.c", source.replace("mapping='auto'", "").replace("c - 1;", "c - nx;"))
    deps = dependences(load("t.c").nests[0])
    assert (deps.loops["y"].parallel, deps.loops["x"].parallel) == (False, True)
    assert "'A[c]' (line 15) and 'A[w]' (line 15)" in deps.parallel_together(["y"])
