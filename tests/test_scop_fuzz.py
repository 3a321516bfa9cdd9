"""Random scops: the code orcu's scheduler writes computes what the code as written computes.

Each case is a sequence of loop nests (one or two loops each, some inside a time loop) whose
statements read and update arrays with affine subscripts, some through a scalar private to
the loop or into a scalar sum, some under a condition, some through a row private to the loop (one copy per iteration
when scheduled), some reading values from before the region; the arrays are unsigned, so that sums in any order agree
exactly. The region as written and as scheduled (tsg/scop.py) are
compiled side by side with gcc and run on the same data; every array must come out equal.
"""

import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orcu.errors import OrcuError
from orcu.frontend.host import statement_text
from orcu.planning.program import load

N = 9
ARRAYS2 = ["A", "B", "C"]
ARRAYS1 = ["x", "y"]
OFFSETS = ["", " - 1", " + 1"]


@st.composite
def subscript(draw, loops):
    var = draw(st.sampled_from(loops))
    return var + draw(st.sampled_from(OFFSETS))


@st.composite
def access(draw, loops):
    if len(loops) == 2 and draw(st.booleans()):
        first, second = draw(st.permutations(loops))
        return f"{draw(st.sampled_from(ARRAYS2))}[{first}{draw(st.sampled_from(OFFSETS))}][{second}{draw(st.sampled_from(OFFSETS))}]"
    return f"{draw(st.sampled_from(ARRAYS1))}[{draw(subscript(loops))}]"


@st.composite
def statement(draw, loops):
    target = draw(access(loops))
    reads = [draw(access(loops)) for _ in range(draw(st.integers(1, 2)))]
    op = draw(st.sampled_from(["=", "+="]))
    guard = draw(st.sampled_from(["", "", "", "if (i > 2) "]))
    return f"{guard}{target} {op} {' + '.join(reads)} * 3u + 1u;"


@st.composite
def scalar_use(draw, loops):
    """A scalar private to the loop (set, then read) or a sum over it (updated only)."""
    if draw(st.booleans()):
        return [f"s = {draw(access(loops))} + 2u;", f"{draw(access(loops))} = s * s;"]
    return [f"acc += {draw(access(loops))};"]


@st.composite
def nest(draw, pad):
    loops = ["i", "j"][: draw(st.integers(1, 2))]
    body = [draw(statement(loops)) for _ in range(draw(st.integers(1, 2)))]
    if draw(st.integers(0, 3)) == 0:
        body[draw(st.integers(0, len(body))) : 0] = draw(scalar_use(loops))
    lines = [f"{pad}for (i = 1; i < n - 1; i++)"]
    inner = pad + "  "
    if len(loops) == 2:
        lines.append(f"{inner}for (j = 1; j < n - 1; j++) {{")
        inner += "  "
    else:
        lines[-1] += " {"
    lines += [inner + s for s in body]
    lines.append(pad + ("  }" if len(loops) == 2 else "}"))
    return lines


@st.composite
def private_rows(draw, pad):
    """A row of a 1-D array filled, then read, in each iteration of the loop on i (doitgen's
    sum[p]): private to that loop."""
    row = draw(st.sampled_from(ARRAYS1))
    out = draw(st.sampled_from(ARRAYS2))
    fill = draw(access(["i", "j"]))
    use = draw(st.sampled_from(["j", "j - 1", "j + 1"]))
    guard = draw(st.sampled_from(["", "", "if (i > 2) "]))
    return [
        f"{pad}for (i = 1; i < n - 1; i++) {{",
        f"{pad}  for (j = 1; j < n - 1; j++)",
        f"{pad}    {guard}{row}[j] = {fill} * 5u;",
        f"{pad}  for (j = 2; j < n - 2; j++)",
        f"{pad}    {out}[i][j] += {row}[{use}] + {row}[j];",
        f"{pad}}}",
    ]


@st.composite
def scop(draw):
    timed = draw(st.booleans())
    pad = "      " if timed else "    "
    lines = [
        line
        for _ in range(draw(st.integers(2, 3)))
        for line in draw(st.one_of(nest(pad), nest(pad), private_rows(pad)))
    ]
    if any("acc" in line for line in lines):  # the sum starts at 0 and lands in y[0]
        lines = [pad + "acc = 0u;", *lines, pad + "y[0] += acc;"]
    if timed:
        lines = ["    for (t = 0; t < 2; t++) {", *lines, "    }"]
    return "\n".join(lines)


SPEC = f"""    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [{N}]; }}
    def input_vars {{ decl dynamic unsigned A[n][n] = random; decl dynamic unsigned B[n][n] = random;
      decl dynamic unsigned C[n][n] = random; decl dynamic unsigned x[n] = random; decl dynamic unsigned y[n] = random; }}
    ) @*/
"""
SIGNATURE = "(int n, unsigned A[n][n], unsigned B[n][n], unsigned C[n][n], unsigned x[n], unsigned y[n])"


def run_both(original: str, scheduled: str) -> str:
    program = f"""#include <stdio.h>
#include <string.h>
static void original{SIGNATURE} {{ int t, i, j; unsigned s, acc; (void)t; (void)j; (void)s; (void)acc;
{original}
}}
static void scheduled{SIGNATURE} {{ int t, i, j; unsigned s, acc; (void)t; (void)j; (void)s; (void)acc;
{scheduled}
}}
int main(void) {{
    enum {{ n = {N} }};
    static unsigned a[2][3][n][n], v[2][2][n];
    for (int c = 0; c < 2; c++) {{
        unsigned s = 12345u;
        for (int k = 0; k < 3 * n * n; k++) ((unsigned *)a[c])[k] = s = s * 1103515245u + 12345u;
        for (int k = 0; k < 2 * n; k++) ((unsigned *)v[c])[k] = s = s * 1103515245u + 12345u;
    }}
    original(n, a[0][0], a[0][1], a[0][2], v[0][0], v[0][1]);
    scheduled(n, a[1][0], a[1][1], a[1][2], v[1][0], v[1][1]);
    printf("%d\\n", memcmp(a[0], a[1], sizeof a[0]) == 0 && memcmp(v[0], v[1], sizeof v[0]) == 0);
    return 0;
}}
"""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "t.c").write_text(program)
        subprocess.run(
            ["gcc", "-std=c99", "-O0", "-o", str(Path(tmp) / "t"), str(Path(tmp) / "t.c")],
            check=True,
            capture_output=True,
        )
        return subprocess.run([str(Path(tmp) / "t")], capture_output=True, text=True, check=True).stdout.strip()


def check(code: str) -> None:
    source = f"void k{SIGNATURE}\n{{\n    int t, i, j;\n    unsigned s, acc;\n{SPEC}    /*@ begin Loop(transform CUDA(mapping='auto')\n{code}\n    ) @*/\n    /*@ end @*/\n    /*@ end @*/\n}}\n"
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "k.c").write_text(source)
        try:
            program = load(Path(tmp) / "k.c")
        except OrcuError as e:  # a scop with no parallel loop: refused, which is right too
            assert "no loop of this nest can run in parallel" in str(e) or "cannot" in str(e), (code, e)
            return
    [host] = program.hosts
    if host.schedule is None:
        return
    scheduled = "\n".join(statement_text(item) for item in host.schedule.items)
    assert run_both(code, scheduled) == "1", (code, scheduled)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scop())
def test_a_scheduled_scop_computes_what_it_computed(code):
    check(code)


def test_a_statement_isl_places_at_a_loops_first_value_with_loops_of_its_own_to_come():
    """isl may order S0 (in t and i) and S1 (in t, i, j) as (i, 0, t) and (i, t, 0): S0's
    instances at S1's first t interleave with S1's by t, so S0 cannot go before that loop (a
    case the random search found)."""
    code = """    for (t = 0; t < 2; t++) {
      for (i = 1; i < n - 1; i++) {
        x[i + 1] = x[i + 1] * 3u + 1u;
      }
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++) {
          x[i + 1] += A[i][j] * 3u + 1u;
        }
    }"""
    check(code)


@pytest.mark.parametrize(
    "last",
    ["y[0] += acc;", "y[1] = acc;", "y[0] = y[0] * 3u + acc;"],
)
def test_a_statement_after_a_nest_that_reads_it_is_not_hoisted_out_of_the_band_isl_places_it_in(last):
    """isl put `y[0] += acc` in the band of the j and i loops at (j, i) = (1, n): after row
    j = 1 of the nest that reads y[j - 1]; taken as before the j loop (its first value), it ran
    before its element's read (a case the random search found)."""
    code = f"""    acc = 0u;
    for (i = 1; i < n - 1; i++) {{
      acc += x[i];
      x[i] = x[i - 1] * 3u + 1u;
    }}
    for (i = 1; i < n - 1; i++) {{
      for (j = 1; j < n - 1; j++)
        x[j] = y[j - 1] * 5u;
      for (j = 2; j < n - 2; j++)
        A[i][j] += x[j] + x[j];
    }}
    {last}"""
    check(code)


def test_a_row_written_under_a_condition_keeps_its_one_copy():
    """x[j] is written only where i > 2: in the other iterations the reads see an earlier
    iteration's row, so x is not private to the loop on i."""
    code = """    for (i = 1; i < n - 1; i++) {
      for (j = 1; j < n - 1; j++)
        if (i > 2) x[j] = A[i][j] * 5u;
      for (j = 2; j < n - 2; j++)
        B[i][j] += x[j - 1] + x[j];
    }
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        C[i][j] = B[i][j] * 3u;"""
    check(code)
