"""An input parameter the code assigns before its loops (`if (n > cap) n = cap;`): the harness
keeps it a variable, set again before each run, and every variant is checked at the value the
code leaves."""

import pytest
from conftest import evaluate, write

from orcu.driver import api
from orcu.driver.writeback import size_defines
from orcu.planning.program import load

SCALE = """void scale({t} n, {t} cap, const double *x, double *y)
{{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [1000]; param cap[] = [701]; }}
    def input_vars {{ decl dynamic double x[n] = random; decl dynamic double y[n] = 0; }}
    ) @*/
    {assign}
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) y[i] = 2.0 * x[i];
    ) @*/
    for (i = 0; i < n; i++) y[i] = 2.0 * x[i];
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t", ["int", "long"])
@pytest.mark.parametrize(
    "assign", ["if (n > cap) n = cap;", "n = n / 2 + 1;", "n -= cap / 7;", "cap = n; n = cap - 3;"]
)
def test_a_parameter_assigned_before_the_loop_is_a_variable_of_the_harness(in_tmp, t, assign):
    result = evaluate(in_tmp, SCALE.format(t=t, assign=assign), params={"TC": 64})
    assert result.status == "ok", result.message


def test_an_input_parameter_the_code_declares_is_no_size_macro_of_the_tuned_file(in_tmp):
    """n and cap are the function's parameters: the tuned file's build gets no -Dn=..."""
    write(in_tmp / "t.c", SCALE.format(t="int", assign="if (n > cap) n = cap;"))
    assert size_defines(load("t.c")) == [{}]
    api.tune("t.c", backend="emulate", progress=False)
    assert (in_tmp / "t.tuned.cu").exists()
