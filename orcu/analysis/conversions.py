"""C's arithmetic types of expressions, and whether an update of a scalar may be reordered.

A reduction runs its updates in another order (each thread sums its share, then the shares
are folded). That is only the same computation where C's conversions at each step commute
with the reordering: ``acc += w[i] * 2.5f`` with an ``int acc`` is
``acc = (int)((float)acc + w[i] * 2.5f)``, a truncation at every step, and a sum of shares
truncates elsewhere. The rules here, per operator:

- ``+`` and ``*``: a floating-point accumulator takes any term (the order changes the rounding
  only, which the validation's tolerance bounds); an integer accumulator takes integer terms
  (C's conversions to a narrower integer type are modular, which commutes with adding and
  multiplying) and no floating-point term; ``bool`` is no accumulator (its conversion is a
  test against zero).
- ``min`` and ``max``: the term converts to the accumulator's type without changing its value
  or its order (the same type, a narrower one of the same kind, or floating-point to
  floating-point, where rounding keeps the order).

A term whose type orcu cannot tell (a call of an unknown function, a struct's field) is taken as
floating-point for an integer accumulator: refused rather than guessed. A floating-point
accumulator takes any term.
"""

from __future__ import annotations

from collections.abc import Mapping

from pycparser import c_ast

from orcu.frontend.ir import Variable
from orcu.frontend.types import canonical_type

# Integer types by conversion rank, each with its bits and signedness (LP64, as nvcc and gcc use).
_INTEGERS = {
    "bool": (0, 1, False),
    "char": (1, 8, True),
    "signed char": (1, 8, True),
    "unsigned char": (1, 8, False),
    "short": (2, 16, True),
    "unsigned short": (2, 16, False),
    "int": (3, 32, True),
    "unsigned int": (3, 32, False),
    "long": (4, 64, True),
    "unsigned long": (4, 64, False),
    "size_t": (4, 64, False),
    "long long": (5, 64, True),
    "unsigned long long": (5, 64, False),
}
_FLOATING = {"float": 0, "double": 1, "long double": 2}

# The C library's functions a loop calls, by the type they return.
_RETURNS = {
    **{
        f: "double"
        for f in (
            "sqrt",
            "exp",
            "log",
            "log2",
            "log10",
            "pow",
            "sin",
            "cos",
            "tan",
            "atan",
            "atan2",
            "fabs",
            "floor",
            "ceil",
            "fmax",
            "fmin",
            "fmod",
            "tanh",
            "exp2",
            "cbrt",
            "round",
            "trunc",
            "hypot",
            "erf",
            "asin",
            "acos",
            "sinh",
            "cosh",
            "rint",
            "copysign",
            "fma",
        )
    },
    **{
        f + "f": "float"
        for f in (
            "sqrt",
            "exp",
            "log",
            "log2",
            "log10",
            "pow",
            "sin",
            "cos",
            "tan",
            "atan",
            "atan2",
            "fabs",
            "floor",
            "ceil",
            "fmax",
            "fmin",
            "fmod",
            "tanh",
            "exp2",
            "cbrt",
            "round",
            "trunc",
            "hypot",
            "erf",
            "asin",
            "acos",
            "sinh",
            "cosh",
            "rint",
            "copysign",
            "fma",
        )
    },
    "abs": "int",
    "labs": "long",
    "llabs": "long long",
}


def is_integer(ctype: str | None) -> bool:
    return ctype in _INTEGERS


def is_floating(ctype: str | None) -> bool:
    return ctype in _FLOATING


def _promoted(ctype: str) -> str:
    """C's integer promotion: types below int become int."""
    return "int" if ctype in _INTEGERS and _INTEGERS[ctype][0] < 3 else ctype


def arithmetic(a: str | None, b: str | None) -> str | None:
    """The usual arithmetic conversions of two operand types."""
    if a is None or b is None:
        return None
    if is_floating(a) or is_floating(b):
        floats = [t for t in (a, b) if is_floating(t)]
        return max(floats, key=_FLOATING.__getitem__)
    a, b = _promoted(a), _promoted(b)
    if a not in _INTEGERS or b not in _INTEGERS:
        return None
    (ra, _bits_a, signed_a), (rb, _bits_b, signed_b) = _INTEGERS[a], _INTEGERS[b]
    if signed_a == signed_b:
        return a if ra >= rb else b
    unsigned, signed = (a, b) if not signed_a else (b, a)
    if _INTEGERS[unsigned][0] >= _INTEGERS[signed][0]:
        return unsigned
    if _INTEGERS[signed][1] > _INTEGERS[unsigned][1]:
        return signed
    return "unsigned " + signed


def expression_type(node: c_ast.Node, variables: Mapping[str, Variable]) -> str | None:
    """The C type of an arithmetic expression (canonical names), None where orcu cannot tell."""
    if isinstance(node, c_ast.Constant):
        if node.type == "string":
            return None
        return "int" if node.type == "char" else canonical_type(node.type)  # 'a' is an int in C
    if isinstance(node, c_ast.ID):
        v = variables.get(node.name)
        if v is None:
            return None
        return canonical_type(v.ctype.base) if not v.ctype.is_array else None
    if isinstance(node, c_ast.ArrayRef):
        base, depth = node, 0
        while isinstance(base, c_ast.ArrayRef):
            base, depth = base.name, depth + 1
        v = variables.get(base.name) if isinstance(base, c_ast.ID) else None
        if v is None or v.ctype.pointers + len(v.ctype.dims) != depth:
            return None
        return canonical_type(v.ctype.base)
    if isinstance(node, c_ast.Cast):
        names = node.to_type.type
        if isinstance(names, c_ast.TypeDecl) and isinstance(names.type, c_ast.IdentifierType):
            return canonical_type(" ".join(names.type.names))
        return None
    if isinstance(node, c_ast.UnaryOp):
        if node.op in ("!",):
            return "int"
        if node.op == "sizeof":
            return "unsigned long"
        inner = expression_type(node.expr, variables)
        if node.op in ("-", "+", "~"):
            return _promoted(inner) if inner is not None else None
        return inner  # ++ and --: the operand's type
    if isinstance(node, c_ast.BinaryOp):
        if node.op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
            return "int"
        left, right = expression_type(node.left, variables), expression_type(node.right, variables)
        if node.op in ("<<", ">>"):
            return _promoted(left) if left is not None else None
        return arithmetic(left, right)
    if isinstance(node, c_ast.TernaryOp):
        return arithmetic(expression_type(node.iftrue, variables), expression_type(node.iffalse, variables))
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        return _RETURNS.get(node.name.name)
    if isinstance(node, c_ast.Assignment):
        return expression_type(node.lvalue, variables)
    return None


def accumulator_type(ctype: str) -> str:
    """The type a reduction keeps its partial results in: C's integer promotion of the types
    below int (bool, char, short: no warp shuffle or atomic takes them). Exact: the final
    conversion back is modular, as C's at every step is, and a min or max keeps its values."""
    ctype = canonical_type(ctype)
    return _promoted(ctype) if ctype in _INTEGERS else ctype


def _value_preserving(term: str, acc: str) -> bool:
    """Whether every value of ``term`` converts to ``acc`` keeping its value and its order."""
    if term == acc or is_floating(acc):
        return True  # rounding to a floating-point type keeps the order
    if is_integer(term) and is_integer(acc):
        (_, bits_t, signed_t), (_, bits_a, signed_a) = _INTEGERS[term], _INTEGERS[acc]
        if signed_t == signed_a:
            return bits_t <= bits_a
        return not signed_t and bits_t < bits_a
    return False


def reorder_problem(acc: str, op: str, term: c_ast.Node, variables: Mapping[str, Variable]) -> str | None:
    """Why updates ``acc = acc op term`` (acc the accumulator's C type) may not be reordered as a
    reduction; None when they may."""
    acc = canonical_type(acc)
    if is_floating(acc):
        return None
    kind = expression_type(term, variables)
    if op in ("+", "*"):
        if acc == "bool":
            return "a bool is set to 0 or 1 at every step, which no reordering keeps"
        if not is_integer(acc):
            return f"its type '{acc}' is no arithmetic type orcu reduces"
        if is_integer(kind):
            return None
        what = f"each step's {kind} result" if kind is not None else "each step's result (of a type orcu cannot tell)"
        return f"C converts {what} back to {acc}, which does not reassociate"
    if kind is None:
        return f"the type of a term orcu cannot tell: a {acc} may not keep its value or its order"
    if _value_preserving(kind, acc):
        return None
    return f"a {kind} term converted to {acc} at every step may change its value or its order"
