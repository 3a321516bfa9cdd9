import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from orcu.errors import SpecError
from orcu.frontend.source import SourceFile
from orcu.spec.expr import compile_expr


def ev(text, **env):
    return compile_expr(SourceFile("t.c", text), 0, text).evaluate(env)


def error(text, **env):
    with pytest.raises(SpecError) as info:
        ev(text, **env)
    return info.value.render()


def test_orio_idioms():
    assert ev("map(join, product(['', '-use_fast_math'], ['', '-O3']))") == [
        " ",
        " -O3",
        "-use_fast_math ",
        "-use_fast_math -O3",
    ]
    assert list(ev("range(32, 1025, 32)"))[-1] == 1024
    assert ev("[sms * f for f in [1, 2, 4]]", sms=132) == [132, 264, 528]
    assert ev("{k: v for k, v in zip('ab', [1, 2])}") == {"a": 1, "b": 2}
    assert ev("sorted({3, 1, 2}, reverse=True)") == [3, 2, 1]
    assert ev("[x for x in range(10) if x % 3 == 0 if x]") == [3, 6, 9]
    assert ev("2 ** 10 // 3 % 7 << 2 | 1 ^ 3 & 6") == (2**10 // 3 % 7 << 2 | 1 ^ 3 & 6)
    assert ev("'a' if n > 1 else 'b'", n=2) == "a"
    assert ev("1 < n <= 3 and not n == 2", n=3) is True
    assert ev("[(i, j) for i in range(2) for j in range(i)]") == [(1, 0)]
    assert ev("len(enumerate(reversed([1, 2])))") == 2
    assert ev("any([0, 1]) and all([1]) and bool(1) and int('4') + float(1) == 5.0")
    assert ev("n in [1, 2] and n not in (3,)", n=2)
    assert ev("x[1:3]", x=[1, 2, 3, 4]) == [2, 3]


def test_multiline_expression_outside_brackets():
    assert ev("1 +\n 2") == 3


def test_vectorised_evaluation_matches_scalar():
    tc = np.array([32, 64, 96, 1000])
    bc = np.array([1, 20, 1, 3])
    text = "TC * BC <= 1024 and (TC % 64 == 0 or BC in [3, 5]) and max(TC, BC) > 32"
    vec = ev(text, TC=tc, BC=bc)
    assert list(vec) == [ev(text, TC=int(t), BC=int(b)) for t, b in zip(tc, bc)]


def test_attribute_access_rejected():
    assert error("x.__class__", x=1) == (
        "t.c:1:3: error: attribute access is not allowed in a tuning expression\nx.__class__\n  ^"
    )


def test_imports_and_dunders_rejected():
    assert error("__import__('os').system('true')") == (
        "t.c:1:18: error: attribute access ('.system') is not allowed in a tuning expression\n"
        "__import__('os').system('true')\n                 ^"
    )
    assert error("__import__('os')") == (
        "t.c:1:1: error: name '__import__' is not allowed: names starting with '__' are reserved\n__import__('os')\n^"
    )


def test_unknown_function_rejected():
    assert error("open('/etc/passwd')").startswith(
        "t.c:1:1: error: function 'open' is not available in tuning expressions (allowed: abs, all,"
    )


def test_lambda_rejected():
    assert error("map(lambda x: x, [1])") == (
        "t.c:1:5: error: a lambda is not allowed in a tuning expression\nmap(lambda x: x, [1])\n    ^"
    )


def test_walrus_and_fstring_rejected():
    assert error("[y := 1]").startswith("t.c:1:2: error: ':=' assignment is not allowed")
    assert error("f'{1}'").startswith("t.c:1:1: error: an f-string is not allowed")


def test_resource_guards():
    assert error("2 ** 10 ** 10").startswith("t.c:1:1: error: cannot evaluate '2 ** 10 ** 10': number too large")
    assert "items" in error("'ab' * 10 ** 8")
    assert "items" in error("range(10 ** 9)")
    assert "items" in error("product(range(10000), range(10000))")
    # an integer orcu could not print (Python refuses past 4300 digits), by a shift or by products
    assert error("1 << 21000").splitlines()[0].endswith("shift count too large")
    assert error("(1 << 9000) * (1 << 9000)").splitlines()[0].endswith("number too large")
    assert ev("(1 << 4000) * (1 << 4000)") == 1 << 8000


def test_runtime_error_is_a_diagnostic():
    assert (
        error("1 // n", n=0)
        == "t.c:1:1: error: cannot evaluate '1 // n': integer division or modulo by zero\n1 // n\n^"
    )


def test_syntax_error_position():
    assert error("[1, 2") == "t.c:1:1: error: bad expression: '[' was never closed\n[1, 2\n^"
    assert error("a +* 2") == "t.c:1:4: error: bad expression: invalid syntax\na +* 2\n   ^"


def test_free_names_and_positions():
    src = SourceFile("t.c", "   TC * [x for x in range(BC)]")
    e = compile_expr(src, 3, src.text[3:])
    assert e.names == {"TC", "BC"}  # called functions are not free names
    assert dict(e.name_offsets) == {"TC": 3, "BC": 26}


@given(st.integers(-50, 50), st.integers(1, 9), st.integers(-5, 5))
def test_arithmetic_agrees_with_python(a, b, c):
    text = "(a * c + b) // b - a % b + abs(c) ** 2 - (a << 2) + (a >> 1)"
    expected = (a * c + b) // b - a % b + abs(c) ** 2 - (a << 2) + (a >> 1)
    assert ev(text, a=a, b=b, c=c) == expected
