"""Sums through subscripts that are not affine (``hist[key[i]]++``, ``y[idx[i]] += x[i]``) as a
kernel runs them: atomicAdd of the value each update adds, in the element's own type, so that
threads adding to one element at once lose none of the updates (analysis/poly.py finds them,
Dependences.atomics); a 64-bit integer's as unsigned long long, whose sum has the same bits.
The order of the additions is the threads', as every parallel sum's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycparser import c_ast

from orcu.analysis.conversions import expression_type
from orcu.analysis.poly import read_update
from orcu.frontend.cparse import copied, parse_expression
from orcu.frontend.ir import Stmt, Variable, c_text
from orcu.frontend.types import ATOMIC_AS_UNSIGNED


def atomic_forms(updates: Iterable[Stmt], variables: Mapping[str, Variable]) -> dict[Stmt, c_ast.Node]:
    """Each update's statement as a kernel prints it (codegen/printer.nodes' ``atomics``)."""
    return {st: _atomic(st, variables) for st in updates}


def _atomic(st: Stmt, variables: Mapping[str, Variable]) -> c_ast.Node:
    update = read_update(st.node, variables)
    assert update is not None, st.text  # Dependences.atomics holds only such updates
    ctype = expression_type(update.target, variables)
    target = f"&{c_text(update.target)}"
    if ctype in ATOMIC_AS_UNSIGNED:
        ctype, target = "unsigned long long", f"(unsigned long long *){target}"
    # the value converted as C converts each step's sum into the element: `hist[k] += c` with a
    # char c adds an int; `u[k] -= 1` on unsigned wraps as its negation does
    value = c_text(update.value)
    if expression_type(update.value, variables) != ctype:
        value = f"({ctype})({value})"
    call = parse_expression(f"atomicAdd({target}, {f'-({value})' if update.negated else value})")
    assert call is not None, st.text
    if update.test is None:
        return call
    return c_ast.If(copied(update.test), call, None, st.node.coord)
