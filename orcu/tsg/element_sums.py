"""Sums into one array element, kept in a scalar while a loop runs (scalar replacement).

PolyBench's trisolv sums ``x[i] -= L[i][j] * x[j]`` over j, cholesky ``A[i][j] -= A[i][k] *
A[j][k]`` over k: the element does not move with the loop, so the loop is a reduction, but one
into memory that other accesses of the same array sit beside. Where isl proves that no other
access of the array inside the loop touches that element (``x[j]`` with ``j < i`` never is
``x[i]``), the loop may as well sum into a scalar that is read from the element before it and
written back after it:

    T x_sum = x[i];
    for (j = 0; j < i; j++)
      x_sum -= L[i][j] * x[j];
    x[i] = x_sum;

which is the same program in every order of its statements (the element is read and written
by nothing else while the loop runs), and a scalar reduction, which the scop's schedule and the
TSG fold across threads. tsg/scop.py schedules this form where the region as written leaves
every loop on the host.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from pycparser import c_ast

from orcu.analysis.poly import array_update, same_element
from orcu.analysis.subscripts import Shaped, shapes
from orcu.frontend.ir import CType, Loop, LoopNest, Variable, c_text, loops_of, statements
from orcu.tsg.scop_code import _fresh, _statement


def element_sums(
    nest: LoopNest, items: list, variables: Mapping[str, Variable]
) -> tuple[list, dict[str, Variable], list[str]] | None:
    """The region's statements with each sum into one element over a loop kept in a scalar
    (module docstring), the variables with those scalars, and a phrase per sum saying so; None
    where there is none to keep."""
    found = _sums(nest, variables)
    if not found:
        return None
    memo: dict = {}
    out = copy.deepcopy(items, memo)
    taken = set(variables) | {lp.var for lp in loops_of(nest.body)}
    said = []
    scalars = dict(variables)
    for loop, target, ctype in found:
        name = _fresh(f"{target.split('[')[0]}_sum", taken)
        taken.add(name)
        element = _statement(f"{target};", loop.node.coord)  # no type named: a typedef'd one parses too
        kind = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(ctype.split()))
        first = c_ast.Decl(name, [], [], [], [], kind, element, None, coord=loop.node.coord)
        last = c_ast.Assignment("=", copy.deepcopy(element), c_ast.ID(name), coord=loop.node.coord)
        mine = memo[id(loop.node)]
        _replace_element(mine.stmt, target, name)
        out = [_around(item, mine, first, last) for item in out]
        scalars[name] = Variable(name, CType(ctype), "region", loop.loc)
        said.append(f"'{target}' summed in '{name}' over the loop on '{loop.var}' (line {loop.loc.line})")
    return out, scalars, said


def _sums(nest: LoopNest, variables: Mapping[str, Variable]) -> list[tuple[Loop, str, str]]:
    """(loop, element, its type) of each update of one element that can be kept in a scalar over
    ``loop``: the outermost loop that the element's subscripts do not move with."""
    arrays = shapes(nest, defined=True)
    shaped = {id(sh.access): sh for accesses in arrays.values() for sh in accesses}
    found: dict[tuple[int, str], tuple[Loop, str, str]] = {}
    for st, loops in statements(nest.body):
        update = array_update(st.node, variables)
        if update is None:
            continue
        target = next((shaped[id(a)] for a in st.accesses if a.text == update[0] and a.write), None)
        if target is None or target.dims is None or not target.exact or target.access.member is not None:
            continue
        moving = set()
        loop = None
        for k in range(len(loops) - 1, -1, -1):
            inside = loops[k]
            moving |= {inside.var} | {n for s, _ in statements(inside.body) for n in s.scalar_writes}
            if any(n in moving for p in target.dims for m, _ in p.terms for n in m):
                break
            loop = (k, inside)
        if loop is None or (id(loop[1]), update[0]) in found:
            continue
        k, inside = loop
        if _kept_apart(nest, (inside, loops[:k]), target, arrays[target.access.array], update):
            element = variables[target.access.array].ctype.base
            found[(id(inside), update[0])] = (inside, update[0], element)
    return list(found.values())


def _kept_apart(
    nest: LoopNest, where: tuple[Loop, tuple[Loop, ...]], target: Shaped, accesses: list[Shaped], update
) -> bool:
    """Whether inside the loop (``where``: it and the loops around it) the element is touched
    only by updates like ``update``, no loop's bounds read its array, and no other access of the
    array reaches the element at the same iteration of the loops around."""
    loop, outer = where
    if any(a.array == target.access.array for lp in [loop, *loops_of(loop.body)] for a in lp.bound_reads):
        return False
    owners = {id(a): st for st, _ in statements(loop.body) for a in st.accesses}
    same = tuple(lp.var for lp in outer)
    for other in accesses:
        if id(other.access) not in owners:
            continue  # outside the loop
        if other.access.text == target.access.text:
            if array_update(owners[id(other.access)].node, nest.variables) != update:
                return False
            continue
        if same_element(nest, target, other, same):
            return False
    return True


def _replace_element(node: c_ast.Node, target: str, name: str) -> None:
    """Each ``target`` access under ``node`` made the scalar ``name``, in place."""
    for attr in node.__slots__:
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.ArrayRef) and c_text(child) == target:
            setattr(node, attr, c_ast.ID(name, coord=child.coord))
        elif isinstance(child, c_ast.Node):
            _replace_element(child, target, name)
        elif isinstance(child, list):
            for k, c in enumerate(child):
                if isinstance(c, c_ast.ArrayRef) and c_text(c) == target:
                    child[k] = c_ast.ID(name, coord=c.coord)
                elif isinstance(c, c_ast.Node):
                    _replace_element(c, target, name)


def _around(node: c_ast.Node, loop: c_ast.For, first: c_ast.Node, last: c_ast.Node) -> c_ast.Node:
    """``node`` with ``loop`` (in it, or itself) between ``first`` and ``last`` in a block, in place."""
    if node is loop:
        return c_ast.Compound([first, loop, last], coord=loop.coord)
    for attr in node.__slots__:
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.Node):
            setattr(node, attr, _around(child, loop, first, last))
        elif isinstance(child, list):
            setattr(node, attr, [_around(c, loop, first, last) if isinstance(c, c_ast.Node) else c for c in child])
    return node
