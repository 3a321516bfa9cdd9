"""One ``transform CUDA(mapping='auto')`` before a whole scop (tests/polybench_scops/: the kernels
of tests/polybench_shapes/ as PolyBench writes them, one Loop region each, time loops and
imperfect nests included): isl's scheduler distributes, fuses and interchanges the loops, each
outer parallel band becomes a kernel the TSG maps, and the rest runs on the host between them
(orcu/tsg/scop.py). Every variant tuned in emulation is right; the products get 2-D grids;
a perfect nest with no parallel loop (seidel-2d, floyd-warshall) runs as a wavefront."""

import json
from pathlib import Path

import pytest
from conftest import run_orcu
from pycparser import c_generator

from orcu.frontend.ir import statements
from orcu.planning.program import load

SCOPS = Path(__file__).parent / "polybench_scops"
# tests/polybench_shapes/ writes these with one transform before the whole scop already
SOURCES = {
    **{p.name: p for p in SCOPS.glob("*.c")},
    **{name: SCOPS.parent / "polybench_shapes" / name for name in ("doitgen.c", "floyd.c")},
}
TUNED = sorted(SOURCES)  # all 23, seidel-2d and floyd-warshall as wavefronts (tests/test_wavefront.py)
# Kernels whose bulk (their statements in three loops) becomes 2-D-mapped products.
PRODUCTS = ["2mm.c", "3mm.c", "gemm.c", "syrk.c", "syr2k.c", "trmm.c", "doitgen.c"]


def check(name: str, tmp_path: Path) -> dict:
    (tmp_path / name).write_text(SOURCES[name].read_text())
    proc = run_orcu("check", name, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_kernel_holds_one_transform_before_its_whole_scop():
    assert len(TUNED) == 23
    for name in TUNED:
        text = SOURCES[name].read_text()
        assert text.count("transform CUDA(") == 1 and text.count("begin Loop(transform CUDA(mapping='auto')") == 1, name


@pytest.mark.parametrize("name", TUNED)
def test_each_scop_tunes_with_every_variant_right(tmp_path, name):
    (tmp_path / name).write_text(SOURCES[name].read_text())
    proc = run_orcu("tune", name, "--backend", "emulate", "--budget", "3", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    regions = json.loads(proc.stdout)["regions"]
    for region in regions:
        assert region["statuses"].get("ok", 0) >= 1 and set(region["statuses"]) <= {"ok", "invalid"}, (
            region["name"],
            region["statuses"],
        )
    assert (tmp_path / name.replace(".c", ".tuned.cu")).is_file()


@pytest.mark.parametrize("name", PRODUCTS)
def test_the_products_run_on_a_2d_grid(tmp_path, name):
    summary = check(name, tmp_path)
    products = [r for r in summary["regions"] if max(lp["depth"] for lp in r["loops"]) >= 2]
    assert products
    for r in products:
        assert r["mapping"] and all(" y=" in m for m in r["mapping"]), (r["name"], r["mapping"])


@pytest.mark.parametrize("name, products", [("2mm.c", 2), ("3mm.c", 3)])
def test_each_product_is_one_kernel_with_its_outputs_reset(name, products):
    """As PPCG: a kernel per product, ``tmp[i][j] = 0`` and the loop on k in one kernel on (i, j).
    The loops as written (a band a loop) were ranked below isl's fused band, which put each reset
    in a kernel of its own: 4 and 6 kernels."""
    program = load(SOURCES[name])
    assert len(program.nests) == products
    for nest in program.nests:
        depths = sorted(len(loops) for _, loops in statements(nest.body))
        assert depths == [2, 3], (nest.name, depths)  # the reset in two loops, the update in three


def test_gemm_as_polybench_writes_it_is_one_kernel_on_i_and_j(tmp_path):
    """PolyBench's gemm: ``for i { for j C *= beta; for k for j C += ... }``: fused into one band
    (i, j), the update of C in the loop on k inside it."""
    summary = check("gemm.c", tmp_path)
    [schedule] = summary["schedules"]
    assert schedule["how"] == "isl, fused (outer coincidence)"
    # C *= beta is in no loop on k: isl runs it at k = 0, before the loop
    assert schedule["tree"].splitlines() == [
        "band [i (parallel), j (parallel), k]",
        "  sequence",
        "    S0: C[i][j] *= beta    # line 12",
        "    S1: C[i][j] += (alpha * A[i][k]) * B[k][j]    # line 15",
    ]
    [kernel] = summary["regions"]
    assert [lp["var"] for lp in kernel["loops"]] == ["i", "j", "k"] and kernel["mapping"] == ["x=j y=i"]


def test_atax_is_two_kernels_its_second_product_interchanged_and_fused_with_its_reset(tmp_path):
    """As PPCG: ``tmp[i] = 0`` with the product into tmp, ``y[i] = 0`` with the interchanged
    product into y, isl's fusion of loops written on i and on j (the second loop named i, its
    loop on i named j). Were 4 kernels: the fused schedule was refused for the names."""
    summary = check("atax.c", tmp_path)
    [schedule] = summary["schedules"]
    assert schedule["how"] == "isl, fused (outer coincidence)"
    assert schedule["tree"].splitlines()[5:9] == [
        "  band [i/j (parallel), i]",
        "    sequence",
        "      S0: y[i] = 0    # line 11",
        "      S3: y[j] = y[j] + (A[i][j] * tmp[i])    # line 18",
    ]
    loops = [[lp["var"] for lp in r["loops"]] for r in summary["regions"]]
    assert loops == [["i", "j"], ["i", "j"]]
    # the row sums over a row of threads; the interchanged one a thread a column of A
    assert [r["mapping"] for r in summary["regions"]] == [["x=j(threads) y=i"], ["x=i"]]
    (tmp_path / "atax.c").write_text(SOURCES["atax.c"].read_text())
    proc = run_orcu("tune", "atax.c", "--backend", "emulate", "--budget", "4", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(set(r["statuses"]) == {"ok"} for r in json.loads(proc.stdout)["regions"])
    tuned = (tmp_path / "atax.tuned.cu").read_text()
    assert "//         y[i] = y[i] + (A[j][i] * tmp[j]);" in tuned  # S3 renamed: its j is the fused loop's i


@pytest.mark.parametrize("name, kernels", [("bicg.c", 2), ("gemver.c", 3), ("mvt.c", 2), ("fdtd2d.c", 3)])
def test_kernels_no_more_than_ppcgs_where_fusion_keeps_each_mapping(tmp_path, name, kernels):
    """bicg as atax; gemver's ``x[i] += z[i]`` joins the kernel of ``x[i] += A[j][i] * y[j]``
    (a band of its own in isl's schedule: fused after it); mvt's two products keep a kernel each
    (fused, one of them would read A across its rows); fdtd-2d's updates of ey (rows from 1) and
    ex (columns from 1) run in one kernel over their hull, each under its own range (PPCG: 3)."""
    summary = check(name, tmp_path)
    assert len(summary["regions"]) == kernels


def test_a_time_loop_stays_on_the_host_around_its_kernels(tmp_path):
    summary = check("jacobi2d.c", tmp_path)
    assert [r["mapping"] for r in summary["regions"]] == [["x=j y=i"], ["x=j y=i"]]
    assert summary["schedules"][0]["tree"].splitlines()[0] == "band [t]"


def test_explain_names_the_schedule_and_what_stays_on_the_host(tmp_path):
    (tmp_path / "gramschmidt.c").write_text(SOURCES["gramschmidt.c"].read_text())
    proc = run_orcu("check", "gramschmidt.c", "--explain", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # isl distributes the statements of the private scalar nrm over different loops on k: refused
    assert (
        "not isl, one band per strongly connected component: a private scalar's statements (S0, S1, S2) would be "
        "split over loops on 'k'"
    ) in out
    assert (
        "schedule: the loops as written; kernels: orcu_kernel_gramschmidt_1 (line 15), orcu_kernel_gramschmidt_2 "
        "(line 18), orcu_kernel_gramschmidt_3 (line 20)" in out
    )
    assert "  on the host: 'R[k][k] = sqrt(nrm)' (line 17): no loop around it runs in parallel" in out
    assert "        band [i (parallel)]\n          S1: nrm += A[i][k] * A[i][k]    # line 16" in out


def test_a_perfect_nest_and_orios_transforms_are_left_as_written():
    """One perfect nest is the TSG's to order; several transforms, or mapping='orio', are Orio's
    regions: no schedule is computed for them."""
    for path in [
        Path(__file__).parent.parent / "annotated_examples" / "gemv_t.c",
        SCOPS.parent / "polybench_shapes" / "jacobi2d.c",
    ]:
        program = load(path)
        assert all(host.schedule is None for host in program.hosts), path


SCALAR = """void f(int n, double *a, double *b, double *c)
{
    int i, j;
    double s;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [33]; }
    def input_vars { decl dynamic double a[n] = random; decl dynamic double b[n] = 0; decl dynamic double c[n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++) {
        s = a[i] * 2.0;
        b[i] = s + 1.0;
    }
    for (j = 0; j < n; j++) {
        s = b[j] * a[j];
        c[j] = s;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_scalar_private_to_each_loop_ties_nothing_together(tmp_path):
    """``s`` is assigned first in every iteration of both loops: one copy per iteration, so both
    loops run in parallel, and, the element of b the second reads the one the first wrote in
    the same iteration, in one kernel (the loop on j named i)."""
    (tmp_path / "s.c").write_text(SCALAR)
    program = load(tmp_path / "s.c")
    [host] = program.hosts
    assert host.schedule is not None and len(host.schedule.kernels) == 1
    assert host.schedule.how == "isl, fused (outer coincidence)"
    assert [n.recipe.candidates[0].schedule.name for n in program.nests] == ["x=i"]
    proc = run_orcu("tune", "s.c", "--backend", "emulate", "--budget", "2", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(set(r["statuses"]) == {"ok"} for r in json.loads(proc.stdout)["regions"])


HULL = """void f(int n, int m, {t} a[n + 2][m + 2], {t} b[n + 2][m + 2], {t} c[n + 2][m + 2])
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{
        decl dynamic {t} a[n + 2][m + 2] = random; decl dynamic {t} b[n + 2][m + 2] = random;
        decl dynamic {t} c[n + 2][m + 2] = random;
    }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    {first}
    {second}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""
WRITES_A = "for (i = {i}; i < n{di}; i++) for (j = {j}; j < m{dj}; j++) a[i][j] = a[i][j] + c[i][j{read}] * 2;"
WRITES_B = "for (i = {i}; i < n{di}; i++) for (j = {j}; j < m{dj}; j++) b[i][j] = b[i][j] - c[i + 1][j] + a[i][j];"


@pytest.mark.parametrize(
    "t, n, m, a_loops, b_loops, a_first, guards",
    [
        # ranges a constant apart at either end, either order: one kernel over their hull
        (
            "double",
            13,
            21,
            ("1", "", "0", ""),
            ("0", " + 1", "2", " - 1"),
            True,
            [
                "for (i = 0; i < (n + 1); i++)",
                "for (j = 0; j < m; j++)",
                "if ((i >= 1) && (i < n))",
                "if ((j >= 2) && (j < (m - 1)))",
            ],
        ),
        (
            "float",
            8,
            40,
            ("2", " - 1", "1", " + 2"),
            ("0", "", "0", ""),
            False,
            [
                "for (i = 0; i < n; i++)",
                "for (j = 0; j < (m + 2); j++)",
                "if (j < m)",
                "if (((i >= 2) && (i < (n - 1))) && (j >= 1))",
            ],
        ),
        (
            "int",
            17,
            5,
            ("0", " + 2", "0", ""),
            ("1", " - 1", "1", " - 1"),
            True,
            [
                "for (i = 0; i < (n + 2); i++)",
                "for (j = 0; j < m; j++)",
                "if ((((i >= 1) && (i < (n - 1))) && (j >= 1)) && (j < (m - 1)))",
            ],
        ),
        # upper bounds on different sizes (m and n): two kernels
        ("double", 11, 11, ("0", "", "0", ""), ("0", "", "0", ""), True, None),
    ],
)
def test_loops_a_constant_apart_fuse_over_their_hull(tmp_path, t, n, m, a_loops, b_loops, a_first, guards):
    """Two independent nests whose loops' ranges are a constant apart fuse into one kernel over
    the hull of the ranges, each statement guarded by its own (b's reads of a are of the same
    element, written first where a's nest comes first: no dependence joins different
    iterations); where an upper bound is another size, nothing fuses. Every variant is right."""
    first = WRITES_A.format(**dict(zip(("i", "di", "j", "dj"), a_loops)), read=" + 1")
    second = WRITES_B.format(**dict(zip(("i", "di", "j", "dj"), b_loops)))
    if guards is None:  # b's columns to n, not m (n == m at the inputs, a different bound to isl)
        second = second.replace("j < m", "j < n")
    if not a_first:
        first, second = second, first
    (tmp_path / "h.c").write_text(HULL.format(t=t, n=n, m=m, first=first, second=second))
    program = load(tmp_path / "h.c")
    [host] = program.hosts
    assert host.schedule is not None
    assert len(host.schedule.kernels) == (2 if guards is None else 1), host.schedule.how
    if guards is not None:
        text = c_generator.CGenerator().visit(host.schedule.kernels[0])
        assert [line.strip() for line in text.splitlines() if line.strip().startswith(("for", "if"))] == guards
    proc = run_orcu("tune", "h.c", "--backend", "emulate", "--budget", "12", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(set(r["statuses"]) == {"ok"} for r in json.loads(proc.stdout)["regions"])


SWAP = """void f(int n, int steps, double *a, double *b)
{
    int t, i;
    double *tmp;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [40]; param steps[] = [3]; }
    def input_vars { decl dynamic double a[n] = random; decl dynamic double b[n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (t = 0; t < steps; t++) {
        for (i = 1; i < n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
        tmp = a; a = b; b = tmp;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_a_region_that_swaps_pointers_is_no_scop(tmp_path):
    """After ``a = b`` the accesses a[i] are other data than before: the model's arrays would not
    be the program's, so the transform applies to the loop after it, as Orio's does."""
    (tmp_path / "swap.c").write_text(SWAP)
    proc = run_orcu("check", "swap.c", cwd=tmp_path)
    assert proc.returncode == 2
    assert "error: mapping='auto': no loop of this nest can run in parallel ('t':" in proc.stderr


SHADOW = """void f(int n, int m, double A[n][m], double B[n][m], double *s)
{
    int i;
    double total;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [17]; param m[] = [23]; }
    def input_vars { decl dynamic double A[n][m] = random; decl dynamic double B[n][m] = 0; decl dynamic double s[1] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    total = 0;
    for (i = 0; i < n; i++)
        total += A[i][0];
    s[0] = total;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double v = A[i][j] * 2.0;
            B[i][j] = v + total;
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def test_loop_declared_iterators_and_block_declarations_keep_their_scopes(tmp_path):
    """``for (int i ...)`` beside the function's ``i``, a declaration in a loop's block: the
    schedule keeps each with the statements that name it; the sum stays a reduction kernel."""
    (tmp_path / "shadow.c").write_text(SHADOW)
    program = load(tmp_path / "shadow.c")
    [host] = program.hosts
    assert host.schedule is not None and len(host.schedule.kernels) == 2
    assert "'s[0] = total' (line 14): it runs once, outside the loops" in host.schedule.host[-1]
    proc = run_orcu("tune", "shadow.c", "--backend", "emulate", "--budget", "2", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(set(r["statuses"]) == {"ok"} for r in json.loads(proc.stdout)["regions"])


def test_doitgen_gets_a_copy_of_sum_per_row_and_column(tmp_path):
    """doitgen's sum[p] is written before it is read in every iteration of the loops on r and q,
    always the same elements: one copy per (r, q) frees them to run in parallel, and the last
    copy is sum after the region."""
    summary = check("doitgen.c", tmp_path)
    [schedule] = summary["schedules"]
    assert schedule["how"] == "isl, fused (outer coincidence), sum one copy per iteration"
    assert (
        "'sum' is private to the loops on 'r', 'q': one copy per iteration of them in 'sum_private' (the last "
        "iteration's is 'sum' after them)"
    ) in schedule["host"]
    assert [[lp["var"] for lp in r["loops"]] for r in summary["regions"]] == [["r", "q", "p", "s"], ["r", "q", "p"]]
    assert all(r["mapping"] == ["x=p y=r", "x=p y=q"] for r in summary["regions"])


def test_trmm_reads_the_rows_below_from_a_copy_taken_before(tmp_path):
    """trmm's B[k][j] (k > i) is row k before iteration k overwrites it: read from a copy taken
    before the region, the loop on i no longer waits for the rows below."""
    summary = check("trmm.c", tmp_path)
    [schedule] = summary["schedules"]
    assert schedule["how"] == "isl, fused (outer coincidence), B read from before the region"
    assert (
        "'B' is read from 'B_before', a copy taken before the region, where no statement of the region has "
        "written the element yet"
    ) in schedule["host"]
    [kernel] = summary["regions"]
    assert kernel["mapping"] == ["x=j y=i", "x=i y=j"]
