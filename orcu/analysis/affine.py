"""Polynomials over C names with integer coefficients: affine subscripts and their ranges.

``A[i + j*nrows]`` becomes ``{(i,): 1, (j, nrows): 1}``; its range over the loop bounds
gives the extent of ``A`` (``nrows*ndiags``) without any help from the user.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pycparser import c_ast

Monomial = tuple[str, ...]  # sorted names, repeated for powers; () is the constant term


@dataclass(frozen=True)
class Poly:
    terms: tuple[tuple[Monomial, int], ...]  # sorted, no zero coefficients

    @staticmethod
    def of(mapping: Mapping[Monomial, int]) -> Poly:
        return Poly(tuple(sorted((m, c) for m, c in mapping.items() if c)))

    @staticmethod
    def const(value: int) -> Poly:
        return Poly.of({(): value})

    @staticmethod
    def var(name: str) -> Poly:
        return Poly.of({(name,): 1})

    def as_dict(self) -> dict[Monomial, int]:
        return dict(self.terms)

    def __add__(self, other: Poly) -> Poly:
        out = self.as_dict()
        for m, c in other.terms:
            out[m] = out.get(m, 0) + c
        return Poly.of(out)

    def __neg__(self) -> Poly:
        return Poly.of({m: -c for m, c in self.terms})

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        out: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = tuple(sorted(m1 + m2))
                out[m] = out.get(m, 0) + c1 * c2
        return Poly.of(out)

    @property
    def names(self) -> set[str]:
        return {n for m, _ in self.terms for n in m}

    @property
    def constant(self) -> int | None:
        """The value when the polynomial has no names, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def split(self, name: str) -> tuple[Poly, Poly] | None:
        """``(coefficient, rest)`` with ``self == coefficient*name + rest``; None if not linear in name."""
        coef: dict[Monomial, int] = {}
        rest: dict[Monomial, int] = {}
        for m, c in self.terms:
            k = m.count(name)
            if k > 1:
                return None
            if k == 1:
                reduced = list(m)
                reduced.remove(name)
                coef[tuple(reduced)] = c
            else:
                rest[m] = c
        return Poly.of(coef), Poly.of(rest)

    def substitute(self, name: str, value: Poly) -> Poly:
        out = Poly.const(0)
        for m, c in self.terms:
            term = Poly.const(c)
            for n in m:
                term = term * (value if n == name else Poly.var(n))
            out = out + term
        return out

    def sign(self) -> int | None:
        """+1 / -1 when every coefficient has that sign (names are sizes, taken >= 0), 0 for zero."""
        if not self.terms:
            return 0
        signs = {c > 0 for _, c in self.terms}
        if len(signs) == 1:
            return 1 if signs.pop() else -1
        return None

    def c_expr(self) -> str:
        """C text, terms with higher degree first: ``nrows*ndiags``, ``n - 1``."""
        if not self.terms:
            return "0"
        parts = []
        for m, c in sorted(self.terms, key=lambda t: (-len(t[0]), t[0])):
            body = "*".join(m)
            mag = abs(c)
            text = body if mag == 1 and body else (f"{mag}*{body}" if body else str(mag))
            parts.append(("-" if c < 0 else "+", text))
        first_sign, first = parts[0]
        out = ("-" if first_sign == "-" else "") + first
        for sign, text in parts[1:]:
            out += f" {sign} {text}"
        return out


def poly_of(node: c_ast.Node) -> Poly | None:
    """The polynomial of an integer C expression, or None (division, calls, array reads...)."""
    if isinstance(node, c_ast.Constant):
        if node.type != "int":
            return None
        try:
            return Poly.const(int(node.value.rstrip("uUlL"), 0))
        except ValueError:
            return None
    if isinstance(node, c_ast.ID):
        return Poly.var(node.name)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        inner = poly_of(node.expr)
        return None if inner is None else (-inner if node.op == "-" else inner)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*"):
        left, right = poly_of(node.left), poly_of(node.right)
        if left is None or right is None:
            return None
        return left + right if node.op == "+" else left - right if node.op == "-" else left * right
    if isinstance(node, c_ast.Cast):
        return poly_of(node.expr)
    return None


@dataclass(frozen=True)
class Bound:
    var: str
    lower: Poly
    last: Poly  # inclusive: upper - 1 for a unit step


def loop_bounds(loops) -> list[Bound] | None:
    """The bounds of loops (frontend.ir.Loop: ``var``, ``lower``, ``upper`` exclusive), outermost
    first; None where one is not a polynomial."""
    out = []
    for lp in loops:
        lower, upper = poly_of(lp.lower), poly_of(lp.upper)
        if lower is None or upper is None:
            return None
        out.append(Bound(lp.var, lower, upper - Poly.const(1)))
    return out


def value_range(p: Poly, bounds: Iterable[Bound]) -> tuple[Poly, Poly] | None:
    """(min, max) of ``p`` over the loop bounds, innermost loop eliminated first.

    Names other than the iterators are sizes and taken non-negative; None when a
    coefficient's sign cannot be known that way, or ``p`` is not linear in an iterator.
    """
    low, high = p, p
    for b in reversed(list(bounds)):
        new = []
        for q, want_max in ((low, False), (high, True)):
            parts = q.split(b.var)
            if parts is None:
                return None
            coef, rest = parts
            sign = coef.sign()
            if sign is None:
                return None
            if sign == 0:
                new.append(q)
                continue
            pick_last = (sign > 0) == want_max
            new.append(q.substitute(b.var, b.last if pick_last else b.lower))
        low, high = new
    return low, high
