"""The front end's lowering as a unit (orcu/frontend/lower.py): C statements as pycparser parses
them -> the loop-nest IR. Loops are normalised to lower <= var < upper with a positive step,
statements keep the accesses found in them, and what the IR cannot say is a located error."""

import pytest

from orcu.errors import AnalysisError
from orcu.frontend.cparse import parse_statements
from orcu.frontend.ir import Loop, Stmt, c_text
from orcu.frontend.lower import Lowering
from orcu.frontend.source import SourceFile


def lowered(code: str):
    src = SourceFile("t.c", code)
    return Lowering(src).block(parse_statements(src, 0, code))


@pytest.mark.parametrize(
    "header, lower, upper, step, descending",
    [
        ("for (i = 0; i < n; i++)", "0", "n", 1, False),
        ("for (i = 0; i <= n - 1; i++)", "0", "n", 1, False),  # i <= n - 1: the + 1 folds
        ("for (i = 0; i <= n; i++)", "0", "n + 1", 1, False),
        ("for (i = 2; i < n; i += 3)", "2", "n", 3, False),
        ("for (i = 1; n > i; ++i)", "1", "n", 1, False),
        ("for (i = n - 1; i >= 0; i--)", "0", "n", 1, True),
    ],
)
def test_a_loop_is_normalised(header, lower, upper, step, descending):
    (loop,) = lowered(f"{header} y[i] = 2 * x[i];")
    assert isinstance(loop, Loop)
    assert (loop.var, c_text(loop.lower), c_text(loop.upper), loop.step, loop.descending) == (
        "i",
        lower,
        upper,
        step,
        descending,
    )
    assert loop.loc.line == 1


def test_a_statement_keeps_its_accesses_and_scalars():
    (loop,) = lowered("for (i = 0; i < n; i++) {\n  s += a[i] * b[2*i + 1];\n  c[i] = s;\n}")
    first, second = loop.body
    assert isinstance(first, Stmt) and isinstance(second, Stmt)
    assert [(a.text, a.write) for a in first.accesses] == [("a[i]", False), ("b[(2 * i) + 1]", False)]
    assert "s" in first.scalar_writes and "s" in first.scalar_reads
    assert [(a.text, a.write) for a in second.accesses] == [("c[i]", True)]
    assert second.loc.line == 3


def test_nests_and_blocks_keep_their_order():
    body = lowered("for (i = 0; i < n; i++) { for (j = 0; j < m; j++) A[i][j] = 0; t[i] = 1; }")
    (outer,) = body
    inner, after = outer.body
    assert isinstance(inner, Loop) and inner.var == "j" and [a.text for a in inner.body[0].accesses] == ["A[i][j]"]
    assert isinstance(after, Stmt) and after.text == "t[i] = 1"


def test_a_break_is_a_jump_of_its_loop():
    (loop,) = lowered("for (i = 0; i < n; i++) { if (x[i] < 0) break; y[i] = x[i]; }")
    assert [j.kind for j in loop.jumps] == ["break"]
    assert loop.jumps[0].loc.line == 1


@pytest.mark.parametrize(
    "statement, words",
    [
        ("goto out;", "'goto' is"),
        ("switch (i) { default: y[i] = 0; }", "'switch' is"),
        ("return;", "'return' is"),
    ],
)
def test_what_the_ir_cannot_say_is_a_located_error(statement, words):
    with pytest.raises(AnalysisError) as e:
        lowered(f"for (i = 0; i < n; i++) {{\n  {statement}\n}}")
    assert words in e.value.message and e.value.loc.line == 2
