"""How a statement uses a scalar: as a reduction (``s += e``, ``s = fmax(s, e)``, ``if (e > s)
s = e``) or as a value each iteration assigns before reading it (private). The analyses of
nests (analysis/nest.py), of dependences (analysis/poly.py) and the code generators ask."""

from __future__ import annotations

from collections.abc import Mapping

from pycparser import c_ast

from orcu.analysis.conversions import reorder_problem
from orcu.frontend.ir import Loop, Variable, c_text
from orcu.frontend.liveness import upward_exposed
from orcu.frontend.types import used_names

_MINMAX_CALLS = {"fmax": "max", "fmaxf": "max", "max": "max", "fmin": "min", "fminf": "min", "min": "min"}


def is_name(node, name: str) -> bool:
    """Whether ``node`` is the variable ``name``."""
    return isinstance(node, c_ast.ID) and node.name == name


def mentions(node: c_ast.Node, name: str) -> bool:
    """Whether ``node`` reads or writes the variable ``name``."""
    return name in used_names([node])


def calls_c_minmax(node: c_ast.Node) -> bool:
    """``s = fmax(s, e)`` and the like (also under an ``if``): C's functions, which skip NaN operands."""
    if isinstance(node, c_ast.If):
        body = node.iftrue
        return calls_c_minmax(body.block_items[0] if isinstance(body, c_ast.Compound) and body.block_items else body)
    rhs = node.rvalue if isinstance(node, c_ast.Assignment) else None
    return (
        isinstance(rhs, c_ast.FuncCall)
        and isinstance(rhs.name, c_ast.ID)
        and rhs.name.name in ("fmax", "fmaxf", "fmin", "fminf")
    )


def match_reduction(node: c_ast.Node, variables: Mapping[str, Variable]) -> tuple[str, str] | None:
    """(scalar, operator) if ``node`` is a reduction update of a scalar whose steps may be
    reordered (analysis/conversions.py: C's conversions at each step allow it), else None.
    ``variables``: the types of the names it uses (a nest's)."""
    checked = _checked(node, variables)
    if checked is None or checked[1] is not None:
        return None
    return checked[0][0], checked[0][1]


def why_carried(nodes, scalar: str, variables: Mapping[str, Variable]) -> str:
    """What to add to "``scalar`` carries a value": the conversions that keep its updates from
    being a reduction (": 'acc' is updated ..."), else nothing."""
    for node in nodes:
        checked = _checked(node, variables)
        if checked is not None and checked[0][0] == scalar and checked[1] is not None:
            return f": '{scalar}' is updated in a reduction's form, but {checked[1]}"
    return ""


def _checked(
    node: c_ast.Node, variables: Mapping[str, Variable]
) -> tuple[tuple[str, str, c_ast.Node], str | None] | None:
    """(the update, why its steps may not be reordered or None) for an update of a scalar in a
    reduction's form; None for any other statement."""
    found = _update(node)
    v = variables.get(found[0]) if found is not None else None
    if found is None or v is None or v.ctype.is_array:
        return None
    return found, reorder_problem(v.ctype.base, found[1], found[2], variables)


_ONE = c_ast.Constant("int", "1")


def _update(node: c_ast.Node) -> tuple[str, str, c_ast.Node] | None:
    """(scalar, operator, the term it combines) if ``node`` has the form of a reduction update."""
    if isinstance(node, c_ast.If) and node.iffalse is None:
        body = node.iftrue
        if isinstance(body, c_ast.Compound) and body.block_items and len(body.block_items) == 1:
            body = body.block_items[0]
        cond = node.cond
        if (
            isinstance(body, c_ast.Assignment)
            and body.op == "="
            and isinstance(body.lvalue, c_ast.ID)
            and isinstance(cond, c_ast.BinaryOp)
            and cond.op in ("<", "<=", ">", ">=")
        ):
            s, e = body.lvalue.name, body.rvalue
            if c_text(e) == c_text(cond.left) and is_name(cond.right, s):  # if (e > s) s = e;
                return (s, "max" if cond.op in (">", ">=") else "min", e) if not mentions(e, s) else None
            if c_text(e) == c_text(cond.right) and is_name(cond.left, s):  # if (s < e) s = e;
                return (s, "max" if cond.op in ("<", "<=") else "min", e) if not mentions(e, s) else None
        # an update under a test that does not read the scalar (`if (a > 0.5) c++;`): a skipped
        # update leaves the scalar as it was, as the operator's identity would
        update = _update(body) if not isinstance(body, c_ast.If) else None
        return update if update is not None and not mentions(cond, update[0]) else None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("p++", "++", "p--", "--") and isinstance(node.expr, c_ast.ID):
        return node.expr.name, "+", _ONE  # s++ adds one, s-- adds minus one
    if not (isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID)):
        return None
    s, rhs = node.lvalue.name, node.rvalue
    if node.op in ("+=", "-=", "*="):
        return (s, "*" if node.op == "*=" else "+", rhs) if not mentions(rhs, s) else None
    if node.op != "=":
        return None
    if isinstance(rhs, c_ast.BinaryOp) and rhs.op in ("+", "*", "-"):
        if is_name(rhs.left, s) and not mentions(rhs.right, s):
            return s, "*" if rhs.op == "*" else "+", rhs.right
        if rhs.op != "-" and is_name(rhs.right, s) and not mentions(rhs.left, s):
            return s, rhs.op, rhs.left
        return None
    if isinstance(rhs, c_ast.FuncCall) and isinstance(rhs.name, c_ast.ID) and rhs.name.name in _MINMAX_CALLS:
        args = rhs.args.exprs if rhs.args is not None else []
        if len(args) == 2:
            for a, b in (args, args[::-1]):
                if is_name(a, s) and not mentions(b, s):
                    return s, _MINMAX_CALLS[rhs.name.name], b
        return None
    if (
        isinstance(rhs, c_ast.TernaryOp)
        and isinstance(rhs.cond, c_ast.BinaryOp)
        and rhs.cond.op in ("<", "<=", ">", ">=")
    ):
        cond, t, f = rhs.cond, rhs.iftrue, rhs.iffalse
        if is_name(f, s) and c_text(t) == c_text(cond.left) and is_name(cond.right, s) and not mentions(t, s):
            return s, "max" if cond.op in (">", ">=") else "min", t  # (e > s) ? e : s
        if is_name(t, s) and c_text(f) == c_text(cond.left) and is_name(cond.right, s) and not mentions(f, s):
            return s, "min" if cond.op in (">", ">=") else "max", f  # (e > s) ? s : e
        if is_name(t, s) and c_text(f) == c_text(cond.right) and is_name(cond.left, s) and not mentions(f, s):
            return s, "max" if cond.op in (">", ">=") else "min", f  # (s < e) ? s : e, MIN(s, e) expanded
        if is_name(f, s) and c_text(t) == c_text(cond.right) and is_name(cond.left, s) and not mentions(t, s):
            return s, "min" if cond.op in (">", ">=") else "max", t  # (s < e) ? e : s
    return None


def assigned_before_read(loop: Loop, s: str) -> bool:
    """Whether no iteration of ``loop`` may read ``s`` before assigning it (on any path), so
    that its iterations share nothing in ``s``."""
    return not upward_exposed(loop.node.stmt, s)
