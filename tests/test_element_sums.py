"""Sums into one array element over a loop (PolyBench's trisolv ``x[i] -= L[i][j] * x[j]``,
cholesky ``A[i][j] -= A[i][k] * A[j][k]``), where every loop of the region is otherwise left on
the host: the element is kept in a scalar over the loop (orcu/tsg/element_sums.py), which makes
the loop a reduction a kernel folds across threads, the loops around it host loops. Only where
isl proves the loop's other accesses of the array never reach the element, and C's conversions
let the sum be reordered; every variant is checked in the emulation against the region as
written."""

import json

import pytest
from conftest import run_orcu

from orcu.errors import OrcuError
from orcu.planning.program import load

TRISOLV = """void f(int n, {t} L[n][n], {t} x[n], {t} b[n])
{{
  int i, j;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; }}
  def input_vars {{ decl dynamic {t} L[n][n] = random; decl dynamic {t} x[n] = 0; decl dynamic {t} b[n] = random; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  {outer}
    {{
      x[i] = b[i];
      for (j = {lower}; j < {upper}; j++)
        {update};
      x[i] = x[i] / (L[i][i] + n);
    }}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""

CHOLESKY = """#include <math.h>
void f(int n, {t} A[n][n])
{{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; }}
  def input_vars {{ decl dynamic {t} A[n][n] = random; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++) {{
     for (j = 0; j < i; j++) {{
        for (k = 0; k < j; k++) {{
           A[i][j] -= A[i][k] * A[j][k];
        }}
        A[i][j] /= A[j][j] + n;
     }}
     for (k = 0; k < i; k++) {{
        A[i][i] -= A[i][k] * A[i][k];
     }}
     A[i][i] = sqrt(fabs(A[i][i]) + n);
  }}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""

# A sum over two loops: the element stays put over both, the scalar spans the outer one; the
# updates share their reads of v[k] across j, which ties no two of them together.
TWO_LOOPS = """void f(int n, int m, {t} x[n], {t} W[n][n][m], {t} v[m])
{{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; param m[] = [5]; }}
  def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} W[n][n][m] = random; decl dynamic {t} v[m] = random; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 1; i < n; i++)
    {{
      for (j = 0; j < i; j++)
        for (k = 0; k < m; k++)
          x[i] = x[i] + W[i][j][k] * v[k] * x[j];
      x[i] = x[i] / (1 + i);
    }}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""


def tuned(tmp_path, text: str) -> str:
    """The tuned file's region, after every variant tuned was right in the emulation."""
    (tmp_path / "f.c").write_text(text)
    proc = run_orcu("tune", "f.c", "--backend", "emulate", "--budget", "6", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for region in json.loads(proc.stdout)["regions"]:
        assert set(region["statuses"]) == {"ok"}, (region["name"], region["statuses"])
    out = (tmp_path / "f.tuned.cu").read_text()
    region = out[out.rindex("#ifdef ORCU_ORIGINAL") :]
    return region[region.index("#else") : region.index("#endif")]


FORWARD, BACKWARD = "for (i = 0; i < n; i++)", "for (i = n - 1; i >= 0; i--)"


@pytest.mark.parametrize(
    "t, n, outer, lower, upper, update",
    [
        ("double", 40, FORWARD, "0", "i", "x[i] -= L[i][j] * x[j]"),  # trisolv as PolyBench writes it
        ("float", 45, BACKWARD, "i + 1", "n", "x[i] = x[i] + L[i][j] * x[j]"),  # back substitution (ludcmp's)
        ("double", 23, FORWARD, "1", "i - 1", "x[i] = L[j][i] * x[j] + x[i]"),  # the sum written second, a column
    ],
)
def test_a_sum_into_x_i_runs_as_a_reduction_in_a_host_loop(tmp_path, t, n, outer, lower, upper, update):
    text = TRISOLV.format(t=t, n=n, outer=outer, lower=lower, upper=upper, update=update)
    code = tuned(tmp_path, text)
    host = code[code.index(outer) :]
    assert f"{t} x_sum = x[i];" in host and "x[i] = x_sum;" in host
    assert host.index(f"{t} x_sum = x[i];") < host.index("orcu_f_1(") < host.index("x[i] = x_sum;")
    # x stays on the device; the host's writes of x[i] go there, element by element
    assert "orcu_resident_sync(orcu_on_device_x, x, &(x[i]), sizeof(x[i]), orcu_x_bytes, true)" in host


def test_the_schedule_says_which_element_is_summed_in_a_scalar(tmp_path):
    (tmp_path / "f.c").write_text(
        TRISOLV.format(t="double", n=40, outer=FORWARD, lower="0", upper="i", update="x[i] -= L[i][j] * x[j]")
    )
    host = load(tmp_path / "f.c").hosts[0]
    assert host.schedule.how.endswith("; 'x[i]' summed in 'x_sum' over the loop on 'j' (line 13)")
    assert [line.strip() for line in host.code({0: "kernel();"}).splitlines()] == [
        "for (i = 0; i < n; i++)",
        "{",
        "x[i] = b[i];",
        "double x_sum = x[i];",
        "kernel();",
        "x[i] = x_sum;",
        "x[i] = x[i] / (L[i][i] + n);",
        "}",
    ]


@pytest.mark.parametrize("t, n", [("double", 40), ("float", 31)])
def test_cholesky_sums_both_its_elements_in_scalars(tmp_path, t, n):
    code = tuned(tmp_path, CHOLESKY.format(t=t, n=n))
    assert f"{t} A_sum = A[i][j];" in code and "A[i][j] = A_sum;" in code
    assert f"{t} A_sum2 = A[i][i];" in code and "A[i][i] = A_sum2;" in code
    assert code.count("orcu_f_1(") == code.count("orcu_f_2(") == 1


@pytest.mark.parametrize("t, n", [("double", 17), ("float", 12)])
def test_a_sum_over_two_loops_keeps_its_scalar_over_both(tmp_path, t, n):
    (tmp_path / "f.c").write_text(TWO_LOOPS.format(t=t, n=n))
    assert "over the loop on 'j'" in load(tmp_path / "f.c").hosts[0].schedule.how
    code = tuned(tmp_path, TWO_LOOPS.format(t=t, n=n))
    assert f"{t} x_sum = x[i];" in code


@pytest.mark.parametrize(
    "t, lower, upper, update, why",
    [
        # x[j] reaches x[i] at j = i: the sum reads its own running value
        ("double", "0", "i + 1", "x[i] -= L[i][j] * x[j]", "'j': dependences between its iterations"),
        # the loop's bound reads the element it sums into
        ("double", "0", "x[i]", "x[i] -= L[i][j] * b[j]", "'j': "),
        # an int sum of float products: C converts at each step, no other order gives its result
        ("int", "0", "i", "x[i] += x[j] * 0.5f", "'j': "),
    ],
)
def test_a_sum_whose_element_the_loop_may_reach_otherwise_is_not_kept_in_a_scalar(
    tmp_path, t, lower, upper, update, why
):
    (tmp_path / "f.c").write_text(TRISOLV.format(t=t, n=20, outer=FORWARD, lower=lower, upper=upper, update=update))
    with pytest.raises(OrcuError, match="no loop of this nest can run in parallel") as e:
        load(tmp_path / "f.c")
    assert why in str(e.value)


GEMV = """void f(int n, int m, {t} A[n][m], {t} x[m], {t} y[n])
{{
  int i, j;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; param m[] = [9]; }}
  def input_vars {{ decl dynamic {t} A[n][m] = random; decl dynamic {t} x[m] = random; decl dynamic {t} y[n] = 0; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++) {{
    {first}
    for (j = 0; j < m; j++)
      y[i] += A[i][j] * x[j];
  }}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""


@pytest.mark.parametrize("t, n, first", [("double", 20, "y[i] = 0;"), ("float", 13, "y[i] = y[i] * 2;")])
def test_a_sum_under_a_parallel_loop_stays_as_written(tmp_path, t, n, first):
    """atax's and gemv's rows: the loop on i runs in parallel, the TSG maps the sums as they are."""
    (tmp_path / "f.c").write_text(GEMV.format(t=t, n=n, first=first))
    program = load(tmp_path / "f.c")
    assert program.hosts[0].schedule is None
    assert "y_sum" not in program.nests[0].code and "y[i] += A[i][j] * x[j];" in program.nests[0].code


REGION = """void f(int n, {t} *x, {t} *y, {t} *r, {t} L[n][n])
{{
  int i, j;
  {t} s;
  /*@ begin PerfTuning (
  def performance_params {{ }}
  def input_params {{ param n[] = [{n}]; }}
  def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} y[n] = random; decl dynamic {t} r[2] = 0;
                   decl dynamic {t} L[n][n] = random; }}
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
{code}
  ) @*/
  /*@ end @*/
  /*@ end @*/
}}
"""

REGIONS = {
    # a dot product between two statements: the loop is a reduction the TSG maps
    "dot": ("  s = 0;\n  for (i = 0; i < n; i++)\n    s += x[i] * y[i];\n  r[0] = s;", None),
    # a statement, then a triangular solve: its sum kept in a scalar
    "solve after a statement": (
        "  r[1] = y[0];\n  for (i = 0; i < n; i++)\n    for (j = 0; j < i; j++)\n      y[i] -= L[i][j] * y[j] / n;",
        "'y[i]' summed in 'y_sum' over the loop on 'j' (line 14)",
    ),
}


@pytest.mark.parametrize("t, n", [("double", 40), ("float", 27)])
@pytest.mark.parametrize("name", sorted(REGIONS))
def test_a_region_of_statements_and_loops_asks_each_loop_nest(tmp_path, name, t, n):
    """Whether the TSG would map the region is asked of each of its loop nests (phase I takes
    one nest at a time; a region starting with a statement was an internal error)."""
    code, how = REGIONS[name]
    text = REGION.format(t=t, n=n, code=code)
    (tmp_path / "f.c").write_text(text)
    schedule = load(tmp_path / "f.c").hosts[0].schedule
    assert schedule.how.endswith(how) if how else schedule is None, schedule
    tuned(tmp_path, text)
