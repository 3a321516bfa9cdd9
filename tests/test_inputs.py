"""The values the harness fills the inputs with: a list shorter than its array repeated, the
second input set, and the original code's own failures said once, as the inputs' problem."""

import subprocess
import sys

import pytest
from conftest import evaluate, write

from orcu.driver import api
from orcu.errors import ReferenceFailed


def ratio(b: str, ctype: str = "int", n: int = 8) -> str:
    """q[i] = a[i] / b[i] over n elements, b filled with ``b``."""
    loop = "for (i = 0; i < n; i++) q[i] = a[i] / b[i];"
    return f"""void ratio(int n, const {ctype} *a, const {ctype} *b, {ctype} *q) {{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [{n}]; }}
    def input_vars {{ decl dynamic {ctype} a[n] = random; decl dynamic {ctype} b[n] = {b}; decl dynamic {ctype} q[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("n", [3, 8, 1000])
def test_a_list_shorter_than_its_array_repeats(in_tmp, n):
    """[5, -5, 3] over n ints: no element is left 0 (a division by it would kill the reference)."""
    result = evaluate(in_tmp, ratio("[5, -5, 3]", n=n), params={"TC": 32}, inputs={"n": n})
    assert result.status == "ok", result.message


@pytest.mark.parametrize("values, signal", [("[5, -5, 0]", "SIGFPE"), ("0", "SIGFPE")])
def test_a_reference_that_crashes_on_the_inputs_stops_the_tune_once_naming_them(in_tmp, values, signal):
    write(in_tmp / "t.c", ratio(values))
    with pytest.raises(
        ReferenceFailed, match=f"the C code as written was killed by {signal} at n=8, before any variant ran"
    ):
        api.tune("t.c", backend="emulate", progress=False)
    proc = subprocess.run(
        [sys.executable, "-m", "orcu", "tune", "t.c", "--backend", "emulate"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("the C code as written was killed") == 1, proc.stderr


@pytest.mark.parametrize("ctype", ["int", "short", "long"])
def test_a_reference_that_fails_on_the_second_set_leaves_it_unchecked_and_says_so(in_tmp, ctype):
    """b random: the second set holds zeros, an integer division by them kills the reference in
    its child process; the variant is judged on the first set, and its result says why."""
    result = evaluate(in_tmp, ratio("random", ctype), params={"TC": 64})
    assert result.status == "ok"
    assert (
        "killed by signal" in result.message and "on the second input set: that set was not checked" in result.message
    )


def test_a_float_division_by_the_second_sets_zeros_is_checked_without_a_crash(in_tmp):
    """Floating-point division by zero gives infinities and NaNs, in the reference and the
    variant alike: the second set is checked (no crash) and the variant passes."""
    result = evaluate(in_tmp, ratio("random", "double"), params={"TC": 32})
    assert result.status == "ok" and result.message == "", result.message
