"""A perfect nest no loop of which runs in parallel runs as a wavefront (orcu/tsg/wavefront.py):
a host loop on ``wave = sum(h_k * x_k)``, the other loops parallel inside it. Gauss-Seidel in
time and space, Floyd-Warshall inside its loop on k, the 2-D recurrences of dynamic
programming; of several element types and sizes no block divides. Every variant is checked
in the emulation against the loops as written; a nest with no valid wavefront is refused as
before, its dependences named."""

import json

import pytest
from conftest import run_orcu

TEMPLATE = """void f(int n, int m, {t} a[n][m])
{{
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param m[] = [{m}]; }}
    def input_vars {{ decl dynamic {t} a[n][m] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
{loops}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

# (loops, the wavefront orcu must find)
NESTS = {
    # the dependences (1, 0) and (0, 1): anti-diagonals
    "recurrence": (
        "    for (int i = 1; i < n; i++)\n"
        "        for (int j = 1; j < m; j++)\n"
        "            a[i][j] = a[i - 1][j] + a[i][j - 1];",
        "a wavefront, wave = i + j",
    ),
    # (1, -1) needs the skew 2i + j
    "skewed": (
        "    for (int i = 1; i < n; i++)\n"
        "        for (int j = 1; j < m - 1; j++)\n"
        "            a[i][j] = a[i - 1][j + 1] - a[i][j - 1];",
        "a wavefront, wave = 2 * i + j",
    ),
    # 1-D Gauss-Seidel in time: row 0 of a
    "seidel-1d": (
        "    for (int t = 0; t < n; t++)\n"
        "        for (int j = 1; j <= m - 2; j++)\n"
        "            a[0][j] = a[0][j - 1] + a[0][j] + a[0][j + 1];",
        "a wavefront, wave = 2 * t + j",
    ),
    # PolyBench's seidel-2d over 3 loops: (4, 2, 1), the time loop on the grid too
    "seidel-2d": (
        "    for (int t = 0; t < 3; t++)\n"
        "        for (int i = 1; i <= n - 2; i++)\n"
        "            for (int j = 1; j <= m - 2; j++)\n"
        "                a[i][j] = a[i - 1][j - 1] + a[i - 1][j] + a[i - 1][j + 1] + a[i][j - 1]"
        " + a[i][j + 1] + a[i + 1][j - 1] + a[i + 1][j] + a[i + 1][j + 1] - a[i][j];",
        "a wavefront, wave = 4 * t + 2 * i + j",
    ),
    # two statements a step, the second reading what the first wrote in the same iteration; the
    # second's a[i - 1][j] of (i - 1, j + 1) is read by the first at (i, j): (1, -1), so 2i + j
    "two statements": (
        "    for (int i = 1; i < n; i++)\n"
        "        for (int j = 2; j < m; j++) {\n"
        "            a[i][j] = a[i - 1][j] - a[i][j - 2];\n"
        "            a[i][j - 1] = a[i][j - 1] + a[i][j];\n"
        "        }",
        "a wavefront, wave = 2 * i + j",
    ),
}

FLOYD = """void floyd(int n, int path[n][n])
{
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [%d]; }
    def input_vars { decl dynamic int path[n][n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
"""


def tuned(tmp_path, text: str) -> tuple[dict, dict]:
    (tmp_path / "w.c").write_text(text)
    check = run_orcu("check", "w.c", "--json", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    tune = run_orcu("tune", "w.c", "--backend", "emulate", "--budget", "6", "--json", cwd=tmp_path)
    assert tune.returncode == 0, tune.stderr[-3000:]
    return json.loads(check.stdout), json.loads(tune.stdout)


@pytest.mark.parametrize("t, n, m", [("double", 13, 21), ("float", 30, 7), ("int", 9, 40)])
@pytest.mark.parametrize("name", sorted(NESTS))
def test_a_nest_without_a_parallel_loop_runs_as_a_wavefront(tmp_path, name, t, n, m):
    loops, how = NESTS[name]
    summary, result = tuned(tmp_path, TEMPLATE.format(t=t, n=n, m=m, loops=loops))
    [schedule] = summary["schedules"]
    assert schedule["how"] == how
    [region] = result["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 2, region["statuses"]
    text = (tmp_path / "w.tuned.cu").read_text()
    assert "for (int wave = " in text  # the wavefronts: a host loop around the launches


# Imperfect nests: the wavefront of the outer loops, each thread running the loops inside them.
SQUARE = """#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1)+(b2)) == 3 ? 1 : 0)
void f(int n, {t} a[n][n], {t} w[n], int seq[n])
{{
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} a[n][n] = random; decl dynamic {t} w[n] = random; decl dynamic int seq[n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
{loops}
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""

IMPERFECT = {
    # PolyBench's nussinov as it ships (i counting down, j from i + 1, a max over k inside)
    "nussinov": (
        """    for (int i = n-1; i >= 0; i--) {
        for (int j=i+1; j<n; j++) {
            if (j-1>=0)
                a[i][j] = max_score(a[i][j], a[i][j-1]);
            if (i+1<n)
                a[i][j] = max_score(a[i][j], a[i+1][j]);
            if (j-1>=0 && i+1<n) {
                if (i<j-1)
                    a[i][j] = max_score(a[i][j], a[i+1][j-1]+match(seq[i], seq[j]));
                else
                    a[i][j] = max_score(a[i][j], a[i+1][j-1]);
            }
            for (int k=i+1; k<j; k++) {
                a[i][j] = max_score(a[i][j], a[i][k] + a[k+1][j]);
            }
        }
    }""",
        "a wavefront, wave = -i + j",
    ),
    # matrix-chain-like: the best split of (i, j) in a scalar each thread keeps over k
    "best split": (
        """    for (int i = n - 1; i >= 0; i--)
        for (int j = i + 1; j < n; j++) {
            {t} best = a[i][j];
            for (int k = i; k < j; k++) {
                {t} c = a[i][k] + a[k + 1][j] + w[k];
                if (c < best)
                    best = c;
            }
            a[i][j] = best;
        }""",
        "a wavefront, wave = -i + j",
    ),
    # counting up, a sum over the row above in each cell: (1, -1), (1, 0), (1, 1), (0, 1)
    "row above": (
        """    for (int i = 1; i < n; i++)
        for (int j = 1; j < n - 1; j++) {
            {t} s = a[i][j - 1];
            for (int k = -1; k <= 1; k++)
                s += a[i - 1][j + k] * w[k + 1];
            a[i][j] = s / 4;
        }""",
        "a wavefront, wave = 2 * i + j",
    ),
}


@pytest.mark.parametrize("t, n", [("double", 23), ("float", 40), ("int", 17)])
@pytest.mark.parametrize("name", sorted(IMPERFECT))
def test_an_imperfect_nest_runs_its_outer_loops_as_a_wavefront(tmp_path, name, t, n):
    loops, how = IMPERFECT[name]
    summary, result = tuned(tmp_path, SQUARE.format(t=t, n=n, loops=loops.replace("{t}", t)))
    [schedule] = summary["schedules"]
    assert schedule["how"] == how
    [region] = result["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 2, region["statuses"]
    text = (tmp_path / "w.tuned.cu").read_text()
    assert "for (int wave = " in text


@pytest.mark.parametrize("declared", ["double row[3];", "double row[3] = {0, 0, 0};"])
def test_an_array_declared_in_the_band_keeps_the_nest_refused(tmp_path, declared):
    """A local array each (i, j) fills: the TSG does not place an iteration's own array, so the
    wavefront is not taken and the nest is refused, saying so, never written to run wrong."""
    loops = f"""    for (int i = n - 2; i >= 0; i--)
        for (int j = 1; j < n; j++) {{
            {declared}
            for (int k = 0; k < 3; k++)
                row[k] = a[i + 1][j] * w[k];
            a[i][j] = row[0] + row[1] - row[2] + a[i][j - 1] / 2;
        }}"""
    (tmp_path / "w.c").write_text(SQUARE.format(t="double", n=20, loops=loops))
    proc = run_orcu("check", "w.c", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith(
        "w.c:13:20: error: the TSG does not map a loop that declares an array ('row', each iteration's own)"
    ), proc.stderr


TRIANGULAR_SOLVE = """void f(int n, {t} *L, {t} *x)
{{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {t} L[n*n] = random; decl dynamic {t} x[n] = random; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            x[i] -= L[i*n + j] * x[j] / n;
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n", [("double", 30), ("float", 19)])
def test_a_triangular_solve_runs_column_by_column(tmp_path, t, n):
    """``x[i] -= L[i][j] * x[j]`` over ``j < i``: no loop runs in parallel, but along ``wave = j``
    every ``x[j]`` is final before its column updates the rows below it in parallel (PPCG's
    schedule too)."""
    summary, result = tuned(tmp_path, TRIANGULAR_SOLVE.format(t=t, n=n))
    [schedule] = summary["schedules"]
    assert schedule["how"] == "a wavefront, wave = j"
    [region] = result["regions"]
    assert set(region["statuses"]) == {"ok"} and region["statuses"]["ok"] >= 2, region["statuses"]
    text = (tmp_path / "w.tuned.cu").read_text()
    assert "for (int wave = 0; wave <= (n - 2); wave++)" in text


@pytest.mark.parametrize("n", [30, 47])
def test_floyd_warshall_keeps_its_loop_on_k_and_runs_anti_diagonals_inside(tmp_path, n):
    summary, result = tuned(tmp_path, FLOYD % n)
    [schedule] = summary["schedules"]
    assert schedule["how"] == "a wavefront, wave = i + j inside the loops on k"
    assert schedule["tree"].splitlines() == [
        "host loop k    # line 9",
        "  host loop wave = i + j",
        "    kernel [i (parallel)]",
        "      j = wave - i, where in [0, n)",
    ]
    [region] = summary["regions"]
    assert [lp["var"] for lp in region["loops"]] == ["i"]
    assert set(result["regions"][0]["statuses"]) == {"ok"}


def test_a_nest_no_wavefront_orders_is_refused_with_its_dependences(tmp_path):
    """a[i - 1][n - j] reaches every j of the row before: no weights of i and j order it, and
    inside a host loop on i the loop on j alone is left, a chain."""
    loops = (
        "    for (int i = 1; i < n; i++)\n"
        "        for (int j = 1; j < m; j++)\n"
        "            a[i][j] = a[i - 1][m - j] + a[i][j - 1];"
    )
    (tmp_path / "w.c").write_text(TEMPLATE.format(t="double", n=9, m=9, loops=loops))
    proc = run_orcu("check", "w.c", cwd=tmp_path)
    assert proc.returncode == 2
    assert (
        "error: mapping='auto': no loop of this nest can run in parallel ('i': dependences between its iterations: "
        "'a[i][j]' (line 11) and 'a[i - 1][m - j]' (line 11)"
    ) in proc.stderr


FLAT = """void f(int n, int steps, {t} *a)
{{
    int t, i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{n}]; param steps[] = [3]; }}
    def input_vars {{ decl dynamic {t} a[n*n] = random; }}
    ) @*/
    /*@ begin Loop({transform}
    for (t = 0; t < steps; t++)
{inner}        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                a[i*n + j] = (a[(i - 1)*n + j] + a[i*n + j - 1] + a[i*n + j] + a[i*n + j + 1] + a[(i + 1)*n + j]) / 5;
    ) @*/
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n", [("double", 19), ("float", 26)])
@pytest.mark.parametrize("where", ["whole", "inside the time loop"])
def test_gauss_seidel_on_a_flat_pointer_stays_in_its_rows_by_the_guard(tmp_path, where, t, n):
    """``a[i*n + wave - 2*i]`` reaches past its row but where ``1 <= wave - 2*i <= n - 2``, the
    test around it: the analysis reads that test, so the rows stay apart and i runs in parallel."""
    transform, inner = (
        ("transform CUDA(mapping='auto')", "") if where == "whole" else ("", "        transform CUDA(mapping='auto')\n")
    )
    (tmp_path / "w.c").write_text(FLAT.format(t=t, n=n, transform=transform, inner=inner))
    tune = run_orcu("tune", "w.c", "--backend", "emulate", "--budget", "6", "--json", cwd=tmp_path)
    assert tune.returncode == 0, tune.stderr[-3000:]
    [region] = json.loads(tune.stdout)["regions"]
    assert set(region["statuses"]) == {"ok"}, region["statuses"]
    assert "for (int wave = " in (tmp_path / "w.tuned.cu").read_text()
