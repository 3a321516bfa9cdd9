"""Reductions only where C's conversions let their steps be reordered, loops with a `break`
never spread over threads, and the second input set that catches both where the analysis
would not (analysis/conversions.py, analysis/poly.py's stops, harness.cu.j2's second set)."""

import pytest
from conftest import covering_results, write
from pycparser import c_parser

import orcu.analysis.poly as poly
import orcu.analysis.scalars as scalars
from orcu.analysis.conversions import arithmetic, expression_type, reorder_problem
from orcu.driver.report import summary
from orcu.errors import AnalysisError, OrcuError
from orcu.frontend.ir import CType, Loop, Variable
from orcu.planning.program import load

VARIABLES = {
    name: Variable(name, CType(base, pointers), "parameter", None)
    for name, base, pointers in [
        ("w", "float", 1),
        ("d", "double", 1),
        ("k", "int", 1),
        ("s", "short", 0),
        ("u", "unsigned int", 0),
        ("l", "long", 0),
        ("c", "unsigned char", 1),
        ("f", "float", 0),
    ]
}


def expr(text: str):
    ast = c_parser.CParser().parse(f"void g(void) {{ x = {text}; }}")
    return ast.ext[0].body.block_items[0].rvalue


@pytest.mark.parametrize(
    "text, ctype",
    [
        ("w[i] * 2.5f", "float"),
        ("w[i] * 2.5", "double"),
        ("k[i] + 1", "int"),
        ("s + s", "int"),
        ("u + k[i]", "unsigned int"),
        ("l * u", "long"),
        ("c[i] + c[i]", "int"),
        ("(short)k[i]", "short"),
        ("k[i] > 0", "int"),
        ("sqrtf(f)", "float"),
        ("sqrt(f)", "double"),
        ("f + 1", "float"),
        ("k[i] ? w[i] : d[i]", "double"),
        ("-c[i]", "int"),
        ("'a'", "int"),
        ("3UL + k[i]", "unsigned long"),
        ("unknown(k[i])", None),
        ("w", None),
    ],
)
def test_the_type_of_an_expression_follows_c(text, ctype):
    assert expression_type(expr(text), VARIABLES) == ctype


def test_the_usual_arithmetic_conversions():
    assert arithmetic("unsigned int", "long") == "long"
    assert arithmetic("unsigned long", "long long") == "unsigned long long"
    assert arithmetic("char", "unsigned short") == "int"
    assert arithmetic("float", "long long") == "float"


@pytest.mark.parametrize(
    "acc, op, term, refused",
    [
        ("int", "+", "w[i] * 2.5f", True),  # the issue's program: a truncation per step
        ("long", "+", "d[i]", True),
        ("int", "*", "w[i]", True),
        ("int", "+", "(int)(w[i] * 2.5f)", False),  # integer terms: modular, exact in any order
        ("short", "+", "k[i]", False),
        ("unsigned char", "+", "k[i] * 3", False),
        ("float", "+", "d[i]", False),  # rounding only: the tolerance's business
        ("double", "*", "k[i]", False),
        ("bool", "+", "k[i]", True),
        ("int", "+", "unknown(k[i])", True),
        ("short", "max", "k[i]", True),  # (short)70000 breaks the order
        ("int", "max", "s", False),
        ("unsigned int", "min", "k[i]", True),
        ("long", "min", "u", False),
        ("int", "max", "w[i]", True),
        ("float", "max", "d[i]", False),
    ],
)
def test_which_updates_may_be_reordered(acc, op, term, refused):
    assert (reorder_problem(acc, op, expr(term), VARIABLES) is not None) == refused


def accumulate(acc: str, term_type: str, update: str, values: str, mapping: str) -> str:
    """``acc`` summed over n terms of type ``term_type`` (the spec's ``values``), written to out[0]."""
    loop = f"for (i = 0; i < n; i++) {update}"
    return f"""#include <math.h>
void f(int n, const {term_type} *w, {acc} *out) {{
    int i;
    {acc} acc;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [1000]; }}
    def input_vars {{ decl dynamic {term_type} w[n] = {values}; decl dynamic {acc} out[1] = 0; }}
    ) @*/
    acc = 0;
    /*@ begin Loop(transform CUDA({mapping})
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
    out[0] = acc;
    /*@ end @*/
}}
"""


REFUSED = {  # (accumulator, term type, update): C converts at every step
    "int_of_floats": ("int", "float", "acc += w[i] * 2.5f;"),
    "long_of_doubles": ("long", "double", "acc += w[i];"),
    "int_of_doubles_written_out": ("int", "double", "acc = acc + w[i] * 0.5;"),
    "short_max_of_ints": ("short", "int", "if (w[i] > acc) acc = w[i];"),
}
TAKEN = {  # ... or converts in a way that commutes with the reordering
    "float_of_doubles": ("float", "double", "acc += w[i] * 0.5;"),
    "short_of_ints": ("short", "int", "acc += w[i] * 1000;"),
    "int_of_truncated_floats": ("int", "float", "acc += (int)(w[i] * 2.5f);"),
    "unsigned_char_of_ints": ("unsigned char", "int", "acc += w[i];"),
}
MAPPINGS = ["threadCount=TC", "mapping='auto'"]


@pytest.mark.parametrize("mapping", MAPPINGS)
@pytest.mark.parametrize("shape", sorted(REFUSED))
def test_an_update_that_converts_at_every_step_is_refused_with_the_reason(in_tmp, shape, mapping):
    acc, term, update = REFUSED[shape]
    write(in_tmp / "t.c", accumulate(acc, term, update, "random", mapping))
    with pytest.raises(OrcuError) as info:
        summary(load("t.c"))  # what orcu check and tune analyse first
    text = info.value.render()
    assert "'acc' is updated in a reduction's form, but" in text, text
    assert f"back to {acc}, which does not reassociate" in text or f"converted to {acc} at every step" in text, text


@pytest.mark.parametrize("mapping", MAPPINGS)
@pytest.mark.parametrize("shape", sorted(TAKEN))
def test_an_update_whose_conversions_commute_stays_a_reduction_and_is_right(in_tmp, shape, mapping):
    acc, term, update = TAKEN[shape]
    program = load(write(in_tmp / "t.c", accumulate(acc, term, update, "random", mapping)))
    results = covering_results(program, 0, {"n": 1000}, in_tmp / "build", every=True)
    assert {r.status for r in results} == {"ok"}, [(r.params, r.message) for r in results]


def test_the_issues_values_fold_as_c_does(in_tmp):
    """w = {-1, .6, .6, .6}: gcc's program prints 2; an int accumulator with a float term is no
    reduction, so each variant runs the sum in order (as one thread) and prints 2 too."""
    source = accumulate("int", "float", "acc += w[i] * 2.5f;", "[-1, 0.6, 0.6, 0.6]", "threadCount=TC")
    write(in_tmp / "t.c", source.replace("param n[] = [1000]", "param n[] = [4]"))
    with pytest.raises(AnalysisError, match="does not reassociate"):
        summary(load("t.c"))


def lengths(body: str, ctype: str = "int", helper: str = "") -> str:
    """Each row's length up to a stop its data decide (``body``: the loop on j, setting len)."""
    loop = f"""for (i = 0; i < n; i++) {{
        int len = 0;
        {body}
        lens[i] = len;
    }}"""
    return f"""{helper}
void lengths(int n, int m, const {ctype} *s, int *lens) {{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {{ }}
    def input_params {{ param n[] = [17]; param m[] = [33]; }}
    def input_vars {{ decl dynamic {ctype} s[n*m] = random; decl dynamic int lens[n] = 0; }}
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    {loop}
    ) @*/
    {loop}
    /*@ end @*/
    /*@ end @*/
}}
"""


STOPS = {
    "first_zero": ("for (j = 0; j < m; j++) { if (s[i*m + j] == 0) break; len++; }", "int", ""),
    "first_negative": ("for (j = 0; j < m; j++) { if (s[i*m + j] < 0) break; len += 1; }", "double", ""),
    "count_then_break": ("for (j = 0; j < m; j++) { len++; if (s[i*m + j] == 1) break; }", "short", ""),
    "helper_returns": (
        "len = prefix(s + i*m, m);",
        "float",
        "static int prefix(const float *r, int m) { for (int j = 0; j < m; j++) if (r[j] <= 0) return j; return m; }",
    ),
}


@pytest.mark.parametrize("shape", sorted(STOPS))
def test_a_loop_that_stops_on_its_data_runs_in_order_in_every_variant(in_tmp, shape):
    body, ctype, helper = STOPS[shape]
    program = load(write(in_tmp / "t.c", lengths(body, ctype, helper)))
    results = covering_results(program, 0, {"n": 17, "m": 33}, in_tmp / "build", every=True)
    assert results and {r.status for r in results} == {"ok"}, [(r.params, r.message) for r in results]
    assert not any("x=j" in str(r.params) for r in results)


def test_the_second_input_set_catches_a_sum_that_truncates_even_if_the_matcher_did_not(in_tmp, monkeypatch):
    monkeypatch.setattr(scalars, "reorder_problem", lambda *a: None)  # the old matcher
    monkeypatch.setattr(poly, "reorder_problem", lambda *a: None)
    program = load(write(in_tmp / "t.c", accumulate("int", "float", "acc += w[i] * 2.5f;", "random", "threadCount=TC")))
    results = covering_results(program, 0, {"n": 1000}, in_tmp / "build", every=True)
    assert results and all(r.status == "wrong_result" and "on the second input set" in r.message for r in results), [
        (r.params, r.status, r.message) for r in results
    ]


def test_the_second_input_set_catches_a_break_spread_over_threads_even_if_the_analysis_did_not(in_tmp, monkeypatch):
    jumps_of = Loop.jumps_of  # the analysis blind to breaks, as it was
    monkeypatch.setattr(Loop, "jumps_of", lambda self, kind: () if kind == "break" else jumps_of(self, kind))
    program = load(write(in_tmp / "t.c", lengths(STOPS["first_zero"][0])))
    results = covering_results(program, 0, {"n": 17, "m": 33}, in_tmp / "build", every=True)
    spread = [r for r in results if "x=j" in str(r.params)]
    assert spread and all(r.status == "wrong_result" and "on the second input set" in r.message for r in spread), [
        (r.params, r.status, r.message) for r in results
    ]
