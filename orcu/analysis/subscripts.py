"""Array accesses as multi-dimensional affine subscripts.

C code indexes multi-dimensional data two ways: ``A[i][j]`` (declared dimensions) and
``A[i*n + j]`` (row-major by hand). Both become the subscripts ``(i, j)`` here, the second
by delinearizing: the terms of a flat subscript are grouped by the size factors they carry
(``i*n`` in the row of length ``n``, ``j`` in the last dimension), when every access of the
array agrees on those factors. The last dimension is the one consecutive elements lie
along, which is what coalescing is about; the dependence analysis (analysis/poly.py) works
on these subscripts too. An access that fits no such form is opaque: it may touch any
element.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Any

from pycparser import c_ast

from orcu.analysis.affine import Bound, Poly, loop_bounds, poly_of, value_range
from orcu.frontend.cparse import replaced
from orcu.frontend.ir import Access, Loop, LoopNest, Stmt, loops_of, statements
from orcu.frontend.types import used_names


@dataclass(frozen=True)
class Shaped:
    """One access: its subscripts, outermost dimension first; None when opaque."""

    access: Access
    loops: tuple[Loop, ...]  # the loops around it, outermost first
    dims: tuple[Poly, ...] | None
    exact: bool  # the subscripts name each element once (a delinearized inner index stays in its row)
    # Elements between consecutive indexes of each dimension, where one flat subscript was
    # delinearized (``A[i*n + k]``: n and 1); None where the array is indexed ``A[i][k]``.
    strides: tuple[Poly, ...] | None = None
    # Where a conditional chose this subscript (w = (x == 0) ? c : c - 1): what holds of the
    # iterators then, each (iterator, operator, value) for ``iterator operator value``.
    guards: tuple[tuple[str, str, Poly], ...] = ()

    def indexes_last(self, var: str) -> bool:
        """Whether ``var`` moves the access along its last (contiguous) dimension, one element a step."""
        if not self.dims:
            return False
        parts = self.dims[-1].split(var)
        return parts is not None and parts[0].constant in (1, -1)


def is_affine(p: Poly, iterators: set[str]) -> bool:
    """Each term holds at most one iterator, and a term with an iterator holds nothing else."""
    return all(sum(n in iterators for n in m) <= 1 and (len(m) == 1 or not (set(m) & iterators)) for m, _ in p.terms)


def shapes(nest: LoopNest, defined: bool = False) -> dict[str, list[Shaped]]:
    """Every access of every array, by array, with its subscripts. ``defined``: a scalar the
    iteration set from the iterators and sizes alone before the access (``k = i*cols + j;
    ... dN[k]``) stands for its value, as the dependence analysis may take it; code and
    placements keep the access as written (``dN[k]``: opaque to them)."""
    iterators = {lp.var for lp in nest.loops()}
    by_array: dict[str, list[tuple[Access, tuple[Loop, ...]]]] = {}
    changing = set(iterators)  # what a subscript may not read to be affine: iterators and scalars the nest writes
    for st, loops in statements(nest.body):
        changing |= st.scalar_writes
        for acc in st.accesses:
            by_array.setdefault(acc.array, []).append((acc, loops))
    values = _set_values(nest.body, {}, {}) if defined else None
    conditions: dict[int, tuple] = {}
    for st, _ in statements(nest.body):
        _conditions(st.node, (), iterators, changing - iterators, conditions)
    out = {}
    for name, accesses in by_array.items():
        declared = nest.variables[name].ctype.dims if name in nest.variables else ()
        out[name] = _shape_array(
            accesses, iterators, changing - iterators, len(declared) > 1, values, nest.context, conditions
        )
    return out


def _conditions(
    node: c_ast.Node, holding: tuple, iterators: set[str], written: set[str], out: dict[int, tuple]
) -> None:
    """What holds of the iterators where each element of ``node`` is evaluated: the tests of the
    ``if`` statements around it, by id of the node: each (iterator, operator, value) of a
    comparison in which one iterator alone has the coefficient 1 or -1 (``wave - i >= 0``: i <=
    wave), else ("", operator, difference) for ``difference operator 0`` (``wave - 4*t - 2*i >=
    1``). Other tests (and an ``else``'s) say nothing: that only keeps more pairs of accesses."""
    if holding:
        out[id(node)] = holding
    if isinstance(node, c_ast.If):
        _conditions(node.cond, holding, iterators, written, out)
        tests = tuple(t for c in _conjuncts(node.cond) for t in [_comparison(c, iterators, written)] if t is not None)
        _conditions(node.iftrue, holding + tests, iterators, written, out)
        if node.iffalse is not None:
            _conditions(node.iffalse, holding, iterators, written, out)
        return
    for _, child in node.children():
        _conditions(child, holding, iterators, written, out)


def bounds_iterators(cond: c_ast.Node, iterators: set[str], written: set[str]) -> bool:
    """Whether an ``if``'s test only narrows iterators' ranges: a conjunction of comparisons
    (``<``, ``<=``, ``>``, ``>=``, ``==``), each of one iterator, coefficient 1 or -1, against
    what no iteration changes (``i >= 1 && j < n - 1``). The accesses under it then read inside
    the box those ranges give (Shaped.guards hold the tests)."""
    tests = [_comparison(c, iterators, written) for c in _conjuncts(cond)]
    return all(t is not None and t[0] and t[1] != "!=" for t in tests)


def _conjuncts(cond: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _comparison(cond: c_ast.Node, iterators: set[str], written: set[str]) -> tuple[str, str, Poly] | None:
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in _FLIPPED):
        return None
    left, right = poly_of(cond.left), poly_of(cond.right)
    if left is None or right is None:
        return None
    diff = left - right  # diff op 0
    if diff.names & written:
        return None
    found = [v for v in diff.names & iterators]
    if not found or not is_affine(diff, iterators):
        return None
    var = found[0]
    parts = diff.split(var)
    if len(found) > 1 or parts is None or parts[0].constant not in (1, -1):
        return "", cond.op, diff  # of several iterators: ``diff op 0`` (_guarded_range reads it)
    coef, rest = parts[0].constant, parts[1]
    # coef*var + rest op 0: var op -rest (coef 1), or var flipped-op rest (coef -1)
    return (var, cond.op, -rest) if coef == 1 else (var, _FLIPPED[cond.op], rest)


def varies_along(nest: LoopNest, access: Access, iterators: set[str]) -> bool:
    """Whether the element ``access`` touches may change with the ``iterators`` (a scalar the
    iteration set from them before, ``k = i*cols + j; J[k]``, counts as its value): an update
    of it along those loops is no reduction to one target."""
    key = ("shapes", "defined")
    if key not in nest.memo:
        nest.memo[key] = shapes(nest, defined=True)
    shaped = [s for s in nest.memo[key].get(access.array, []) if s.access is access]  # each choice of a conditional
    return not shaped or any(s.dims is None or any(p.names & iterators for p in s.dims) for s in shaped)


def _names(node: c_ast.Node) -> set[str]:
    return set(used_names([node]))


def _plain(node: c_ast.Node) -> bool:
    """An expression of names and numbers alone: no element, call, assignment or pointer."""
    if isinstance(node, (c_ast.ArrayRef, c_ast.FuncCall, c_ast.Assignment, c_ast.StructRef)):
        return False
    if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--", "&", "*"):
        return False
    return all(_plain(child) for _, child in node.children())


def _with_values(node: c_ast.Node, values: dict[str, c_ast.Node]) -> c_ast.Node:
    """A copy of ``node`` with each name of ``values`` replaced by its value."""
    return replaced(
        node, lambda n: copy.deepcopy(values[n.name]) if isinstance(n, c_ast.ID) and n.name in values else None
    )


def _set_values(body, values: dict[str, c_ast.Node], out: dict[int, tuple]) -> dict[int, tuple]:
    """The subscripts, by access, that read scalars set earlier in the same iteration to plain
    expressions (``values``, at the start of ``body``), with those values written out."""
    for n in body:
        if isinstance(n, Loop):
            changed = (
                {n.var}
                | {w for st, _ in statements(n.body) for w in st.scalar_writes}
                | {lp.var for lp in loops_of(n.body)}
            )
            values = {k: v for k, v in values.items() if k not in changed and not _names(v) & changed}
            _set_values(n.body, values, out)  # what the loop leaves unchanged holds inside it and after it
            continue
        for acc in n.accesses:
            if any(_names(s) & set(values) for s in acc.subscripts):
                out[id(acc)] = tuple(_with_values(s, values) for s in acc.subscripts)
        values = {k: v for k, v in values.items() if k not in n.scalar_writes and not _names(v) & n.scalar_writes}
        target, value = _definition(n)
        if target is not None and target not in _names(value):
            values[target] = _with_values(value, values)
    return out


MAX_CHOICES = 8  # subscripts a conditional may stand for before the access counts as opaque


def _choices(subscripts: tuple, iterators: set[str]) -> list[tuple[tuple, tuple]]:
    """(the subscripts with each conditional ``c ? a : b`` replaced by either side, what holds of
    the iterators then) for every combination; the subscripts as they are past MAX_CHOICES
    (poly_of then finds them opaque)."""
    out: list[tuple[tuple, tuple]] = [((), ())]
    for sub in subscripts:
        out = [(done + (alt,), guards + more) for done, guards in out for alt, more in _sides(sub, iterators)]
        if len(out) > MAX_CHOICES:
            return [(tuple(subscripts), ())]
    return out


def _sides(node: c_ast.Node, iterators: set[str]) -> list[tuple[c_ast.Node, tuple]]:
    if isinstance(node, c_ast.TernaryOp):
        test = _guard(node.cond, iterators)
        yes, no = ((test,), (_negated(test),)) if test is not None else ((), ())
        return [(n, yes + g) for n, g in _sides(node.iftrue, iterators)] + [
            (n, no + g) for n, g in _sides(node.iffalse, iterators)
        ]
    out = [(node, ())]
    for attr in node.__slots__:
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.Node) and attr != "cond":
            alts = _sides(child, iterators)
            if len(alts) > 1:
                out = [(_replaced(n, attr, a), g + more) for n, g in out for a, more in alts]
    return out[: MAX_CHOICES + 1]


_FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _guard(cond: c_ast.Node, iterators: set[str]) -> tuple[str, str, Poly] | None:
    """``x == 0``, ``nx - 1 > x``...: (iterator, operator, value), the iterator on the left."""
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in _FLIPPED):
        return None
    for this, other, op in ((cond.left, cond.right, cond.op), (cond.right, cond.left, _FLIPPED[cond.op])):
        value = poly_of(other)
        if isinstance(this, c_ast.ID) and this.name in iterators and value is not None and not value.names & iterators:
            return this.name, op, value
    return None


def _negated(test: tuple[str, str, Poly]) -> tuple[str, str, Poly]:
    var, op, value = test
    return var, _NEGATED[op], value


def _replaced(node: c_ast.Node, attr: str, value: c_ast.Node) -> c_ast.Node:
    new = copy.copy(node)
    setattr(new, attr, value)
    return new


def _definition(st: Stmt) -> tuple[str | None, c_ast.Node | None]:
    """``k = e;`` or ``int k = e;`` with ``e`` plain: (k, e)."""
    node = st.node
    if (
        isinstance(node, c_ast.Assignment)
        and node.op == "="
        and isinstance(node.lvalue, c_ast.ID)
        and _plain(node.rvalue)
    ):
        return node.lvalue.name, node.rvalue
    if (
        isinstance(node, c_ast.Decl)
        and isinstance(node.type, c_ast.TypeDecl)
        and node.init is not None
        and _plain(node.init)
    ):
        return node.name, node.init
    return None, None


def _shape_array(
    accesses,
    iterators: set[str],
    written: set[str],
    declared_multi: bool,
    values: dict[int, tuple] | None = None,
    context: tuple[Loop, ...] = (),
    conditions: dict[int, tuple] | None = None,
) -> list[Shaped]:
    """``context``: the host loops around the nest, whose iterators are fixed for a launch and
    bounded by them (``A[i*n + k]`` stays in its row because ``k`` runs below ``n``).
    ``conditions``: what the ``if`` statements around an access say of the iterators, by id of
    its first subscript (``_conditions``)."""
    # For the dependences (``values`` given), a subscript that a conditional chooses (w = (x == 0)
    # ? c : c - 1) is each of its choices: one entry per choice, the access touching their union.
    # Code and placements keep one entry per access, such a subscript opaque.
    options: list[tuple[Any, list[tuple[tuple, tuple]]]] = [
        (entry, [(subs, ())]) if values is None else (entry, _choices(values.get(id(entry[0]), subs), iterators))
        for entry in accesses
        for subs in [entry[0].subscripts]
    ]
    conditions = conditions or {}
    chosen = [
        (entry, subs, conditions.get(id(entry[0].subscripts[0]), ()) + guards if entry[0].subscripts else guards)
        for entry, choices in options
        for subs, guards in choices
    ]
    accesses = [entry for entry, _, _ in chosen]
    guards = [g for _, _, g in chosen]
    polys = [[_poly(s, written) for s in subs] for _, subs, _ in chosen]
    return [
        dataclasses.replace(sh, guards=g) if g else sh
        for sh, g in zip(_shaped(accesses, polys, guards, iterators, declared_multi, context), guards)
    ]


def _shaped(
    accesses, polys, guards, iterators: set[str], declared_multi: bool, context: tuple[Loop, ...]
) -> list[Shaped]:
    if all(ps and all(p is not None and is_affine(p, iterators) for p in ps) for ps in polys) and (
        declared_multi or all(len(ps) > 1 for ps in polys)
    ):
        return [Shaped(acc, loops, tuple(ps), True) for (acc, loops), ps in zip(accesses, polys)]
    if not declared_multi and all(len(ps) == 1 and ps[0] is not None and is_affine(ps[0], iterators) for ps in polys):
        # One affine index each (``y[i - n + 1000]``): already exact, whatever sizes it names.
        return [Shaped(acc, loops, tuple(ps), True, (Poly.const(1),)) for (acc, loops), ps in zip(accesses, polys)]
    vector = not declared_multi and all(len(ps) == 1 for ps in polys)
    if declared_multi or (vector and any(ps[0] is None for ps in polys)):
        # Some subscripts are not affine (x[idx[i]]): those accesses may touch any element, while
        # one whose subscripts are, the array indexed as declared (or a vector), names its own.
        dims = [_affine_dims(ps, iterators) for ps in polys]
        flat = (Poly.const(1),) if vector else None
        return [
            Shaped(acc, loops, d, d is not None, flat if d is not None else None)
            for (acc, loops), d in zip(accesses, dims)
        ]
    if not all(len(ps) == 1 and ps[0] is not None for ps in polys):
        return [Shaped(acc, loops, _affine_dims(ps, iterators), False) for (acc, loops), ps in zip(accesses, polys)]
    # One flat subscript each: group the terms by the size factors they carry.
    strides = {tuple(n for n in m if n not in iterators) for ps in polys for m, _ in ps[0].terms if set(m) & iterators}
    groups = [_by_factor(ps[0], iterators, strides | {()}) for ps in polys]
    chain = None if any(g is None for g in groups) else _chain({key for g in groups for key in g})
    if chain is None:
        return _by_stride(accesses, [ps[0] for ps in polys], iterators, context, guards) or [
            Shaped(acc, loops, _affine_dims(ps, iterators), False) for (acc, loops), ps in zip(accesses, polys)
        ]
    dims = [tuple(group.get(key, Poly.const(0)) for key in chain) for group in groups]
    exact = [_in_rows(d, chain, context + loops, g) for d, (_, loops), g in zip(dims, accesses, guards)]
    if not all(exact) and _in_window(dims, chain, [context + loops for _, loops in accesses], guards):
        exact = [True] * len(dims)
    if not all(exact):  # rows of a size expression read as one (backprop's k*(ndelta + 1) + j) may tell them apart
        rows = _by_stride(accesses, [ps[0] for ps in polys], iterators, context, guards)
        if rows is not None and all(sh.exact for sh in rows):
            return rows
    return [
        Shaped(acc, loops, d, e, tuple(_product(key) for key in chain))
        for (acc, loops), d, e in zip(accesses, dims, exact)
    ]


def _by_stride(
    accesses, polys: list[Poly], iterators: set[str], context: tuple[Loop, ...], guards
) -> list[Shaped] | None:
    """Rows of one size expression: ``(i + p)*(m + k - 1) + j + q`` -> (i + p, j + q) with rows of
    ``m + k - 1`` elements, when every iterator's coefficient is that expression or a
    constant, the same expression in every access. None when the subscripts are not so."""
    stride = None
    for p in polys:
        for v in sorted(p.names & iterators):
            parts = p.split(v)
            if parts is None or parts[0].names & iterators:
                return None
            coef = parts[0]
            if coef.constant is None:
                if stride is not None and coef != stride:
                    return None
                stride = coef
    if stride is None:
        return None
    lead, lead_coef = max(((m, c) for m, c in stride.terms if m), key=lambda t: len(t[0]))
    out = []
    for (acc, loops), p, g in zip(accesses, polys, guards):
        row, col = Poly.const(0), Poly.const(0)
        for v in sorted(p.names & iterators):
            coef = p.split(v)[0]
            if coef == stride:
                row = row + Poly.var(v)
            else:
                col = col + coef * Poly.var(v)
        rest = p - stride * row - col
        whole, part = divmod(rest.as_dict().get(lead, 0), lead_coef)
        if part:
            return None
        row, col = row + Poly.const(whole), col + rest - stride * Poly.const(whole)
        bounds = _bounds(context + loops, g)
        span = _guarded_range(col, bounds, g) if bounds is not None else None
        exact = span is not None and span[0].sign() in (0, 1) and (stride - Poly.const(1) - span[1]).sign() in (0, 1)
        out.append(Shaped(acc, loops, (row, col), exact, (stride, Poly.const(1))))
    return out


def _product(names: tuple[str, ...]) -> Poly:
    out = Poly.const(1)
    for n in names:
        out = out * Poly.var(n)
    return out


def _poly(subscript, written: set[str]) -> Poly | None:
    p = poly_of(subscript)
    return None if p is None or p.names & written else p


def _affine_dims(ps, iterators) -> tuple[Poly, ...] | None:
    return tuple(ps) if ps and all(p is not None and is_affine(p, iterators) for p in ps) else None


def _by_factor(p: Poly, iterators: set[str], strides: set[tuple[str, ...]]) -> dict[tuple[str, ...], Poly] | None:
    """``i*n - n + j + k*n + 1`` -> {(n,): i - 1 + k, (): j + 1}: each term under the sizes it
    carries, ``strides`` being the sizes iterators are multiplied by in the array's subscripts."""
    out: dict[tuple[str, ...], Poly] = {}
    for monomial, coef in p.terms:
        its = [n for n in monomial if n in iterators]
        if len(its) > 1:
            return None
        sizes = tuple(n for n in monomial if n not in iterators)
        if its:
            key, term = sizes, Poly.of({(its[0],): coef})
        else:
            # A value of some dimension: -n in (i - 1)*n, k*n with k fixed for the launch (a host
            # loop's iterator, a parameter), or a plain offset: under the largest stride it carries.
            key = max((s for s in strides if _without(sizes, s) is not None), key=len)
            term = Poly.of({_without(sizes, key): coef})
        out[key] = out.get(key, Poly.const(0)) + term
    return out


def _without(monomial: tuple[str, ...], factors: tuple[str, ...]) -> tuple[str, ...] | None:
    """The names of ``monomial`` left once ``factors`` are taken out (a product divided by
    another), None where it does not hold them all."""
    rest = list(monomial)
    for n in factors:
        if n not in rest:
            return None
        rest.remove(n)
    return tuple(rest)


def _chain(keys: set[tuple[str, ...]]) -> list[tuple[str, ...]] | None:
    """The size factors as dimensions, outermost first: () < (n,) < (m, n)... each one more size."""
    ordered = sorted(keys | {()}, key=len)
    for inner, outer in zip(ordered, ordered[1:]):
        rest = _without(outer, inner)
        if rest is None or len(rest) != 1:
            return None
    return ordered[::-1]


def _in_rows(dims: tuple[Poly, ...], chain: list[tuple[str, ...]], loops: tuple[Loop, ...], guards=()) -> bool:
    """Whether each delinearized index stays within its dimension's extent (the size the next
    outer factor adds), so that different subscripts are different elements."""
    bounds = _bounds(loops, guards)
    if bounds is None:
        return False
    for k in range(1, len(chain)):
        extra = _without(chain[k - 1], chain[k])  # the size dimension k spans
        rng = _guarded_range(dims[k], bounds, guards)  # dimension k must stay in [0, the size the outer one adds)
        if (
            rng is None
            or rng[0].sign() not in (0, 1)
            or (Poly.var(extra[0]) - rng[1] - Poly.const(1)).sign() not in (0, 1)
        ):
            return False
    return True


def _in_window(
    dims: list[tuple[Poly, ...]], chain: list[tuple[str, ...]], loops: list[tuple[Loop, ...]], guards
) -> bool:
    """Whether each delinearized index of every access stays in one window as wide as its
    dimension (``j`` from 1 to ``m`` in rows of ``m``): then, as digits of a mixed radix, different
    subscripts are different elements, though not within [0, extent)."""
    for k in range(1, len(chain)):
        extra = _without(chain[k - 1], chain[k])  # the size dimension k spans
        ranges = []
        for d, lps, g in zip(dims, loops, guards):
            bounds = _bounds(lps, g)
            rng = _guarded_range(d[k], bounds, g) if bounds is not None else None
            if rng is None:
                return False
            ranges.append(rng)
        low = next((lo for lo, _ in ranges if all((other - lo).sign() in (0, 1) for other, _ in ranges)), None)
        high = next((hi for _, hi in ranges if all((hi - other).sign() in (0, 1) for _, other in ranges)), None)
        if low is None or high is None or (Poly.var(extra[0]) - Poly.const(1) - (high - low)).sign() not in (0, 1):
            return False
    return True


def _guarded_range(p: Poly, bounds: list[Bound], guards) -> tuple[Poly, Poly] | None:
    """(min, max) of ``p``: where tests of several iterators bound the very combination of
    iterators ``p`` holds (``1 <= wave - 4*t - 2*i <= n - 2`` for ``wave - 4*t - 2*i + 1``), from
    them; else over the loops' bounds (``value_range``)."""
    moving = {b.var for b in bounds}
    mine = _moving_part(p, moving)
    low = high = None
    for var, op, diff in guards:
        if var or op not in ("<", "<=", ">", ">="):
            continue
        theirs = _moving_part(diff, moving)
        for sign in (1, -1):
            if not mine.terms or mine != Poly.const(sign) * theirs:
                continue
            # p = sign*diff + rest, with diff op 0
            rest = p - Poly.const(sign) * diff
            if (op in (">", ">=")) == (sign > 0):  # a lower bound of p
                low = rest + Poly.const(int(op in (">", "<")))
            else:
                high = rest - Poly.const(int(op in (">", "<")))
    if low is not None and high is not None:
        return low, high
    return value_range(p, bounds)


def _moving_part(p: Poly, moving: set[str]) -> Poly:
    return Poly.of({m: c for m, c in p.terms if set(m) & moving})


def _bounds(loops: tuple[Loop, ...], guards=()) -> list[Bound] | None:
    """The loops' bounds, narrowed by ``guards`` where they say more (x != 0 with x from 0: x
    from 1)."""
    bounds = loop_bounds(loops)
    for k, b in enumerate(bounds or ()):
        lower, last = b.lower, b.last
        for var, op, value in guards:
            if var != b.var:
                continue
            if op == "==":  # narrowed where the value is known to lie inside
                lower = value if (value - lower).sign() in (0, 1) else lower
                last = value if (last - value).sign() in (0, 1) else last
            elif op == "!=" and value == lower:
                lower = lower + Poly.const(1)
            elif op == "!=" and value == last:
                last = last - Poly.const(1)
            elif op in ("<", "<="):  # the test's bound where the loop's is not known to be tighter
                bound = value - Poly.const(1) if op == "<" else value
                last = last if (bound - last).sign() in (0, 1) else bound
            elif op in (">", ">="):
                bound = value + Poly.const(1) if op == ">" else value
                lower = lower if (lower - bound).sign() in (0, 1) else bound
        bounds[k] = Bound(b.var, lower, last)
    return bounds
