"""A nest no outer loop of which runs in parallel, run as a wavefront (seidel-2d, floyd-warshall,
nussinov).

Where every dependence goes forward along ``w = sum(h_k * x_k)`` for small integer weights
``h`` over the nest's band (its outer loops, each holding one loop and nothing else, after some
that stay host loops as written; a loop counting down weighs negatively), the instances with one
value of ``w`` touch nothing another of them writes: ``w`` becomes a host loop, and inside it
the band's loops but one (``e``, a loop of weight 1) run in parallel, each thread finding its
instance's ``e = w - sum(h_k * x_k)`` and running it, the loops inside the band included, where
that lies in ``e``'s bounds. Gauss-Seidel's ``A[i][j]`` over ``t, i, j`` is ``w = 4t + 2i + j``;
Floyd-Warshall keeps its loop on ``k`` and runs ``w = i + j`` inside it; nussinov's ``i``
counts down, ``w = -i + j``, its loop on ``k`` in each thread.

The weights are the cheapest that isl finds valid (analysis/poly.py's ``ordered_along``: no
two instances that touch one element, one writing it, with the later one not on a later
wavefront): fewest host loops first, then the smallest sum of weights (the number of wavefronts
grows with it). The region as written stays the reference every variant is checked against.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

from pycparser import c_ast

from orcu.analysis.affine import Poly, loop_bounds, value_range
from orcu.analysis.poly import dependences
from orcu.frontend.cparse import parse_expression, walk
from orcu.frontend.ir import Loop, LoopNest, c_text
from orcu.tsg.scop_code import _fresh, _statement, _substituted

MAX_WEIGHT = 4  # Gauss-Seidel's 9-point stencil needs (4, 2, 1)
MAX_LOOPS = 4  # weights tried for at most this many loops (5**4 combinations)


@dataclass(frozen=True)
class Wavefront:
    """The nest rewritten: ``loop`` takes its place (the host loops and the loop on the
    wavefronts), ``kernel`` the loop inside it that becomes the kernel."""

    loop: c_ast.For
    kernel: c_ast.For
    how: str  # "a wavefront, wave = 4 * t + 2 * i + j"
    tree: str  # host loops, kernel and the loop each thread finds, a line each
    parallel: int  # the kernel's loops


def wavefront(nest: LoopNest, loop: c_ast.For, taken: set[str]) -> Wavefront | None:
    """The nest ``nest`` (of the loop ``loop``) as host loops around a kernel of wavefronts, where
    no loop of it runs in parallel as written and a wavefront of its band (the loops from the
    outermost down while each holds one loop and nothing else) is valid, the loops inside the
    band running in each thread; None otherwise. ``taken``: names the new iterator must not
    shadow."""
    band = _band(nest)
    if len(band) < 2 or any(lp.step != 1 or lp.jumps or lp.bound_reads for lp in nest.loops()):
        return None
    deps = dependences(nest)
    if any(deps.loops[lp.var].parallel for lp in band):
        return None  # the TSG maps it as it is
    for outer in range(len(band) - 1):
        rest = band[outer:]
        if len(rest) > MAX_LOOPS:
            continue
        prefix = tuple(lp.var for lp in band[:outer])
        for weights in _candidates(len(rest)):
            # a loop that counts down weighs its iterator negatively: its first values come first
            by_var = {lp.var: -w if lp.descending else w for lp, w in zip(rest, weights)}
            eliminated = _eliminated(rest, by_var)
            span = _span(rest, by_var) if eliminated is not None else None
            if span is not None and deps.ordered_along(prefix, by_var):
                return _rewritten(band[:outer], rest, by_var, eliminated, (_fresh("wave", taken), *span))
    return None


def _band(nest: LoopNest) -> list[Loop]:
    """The loops from the nest's outermost down while each one's body is one loop."""
    out: list[Loop] = []
    body = nest.body
    while len(body) == 1 and isinstance(body[0], Loop):
        out.append(body[0])
        body = body[0].body
    return out


def _span(rest: list[Loop], weights: dict[str, int]) -> tuple[str, str] | None:
    """The first and last wavefront (C), the extremes of ``sum(weights[v] * v)`` over the loops'
    bounds (a triangle's too); None where they are not affine in the sizes."""
    bounds = loop_bounds(rest)
    wave = Poly.const(0)
    for lp in rest:
        wave = wave + Poly.const(weights[lp.var]) * Poly.var(lp.var)
    extremes = value_range(wave, bounds) if bounds is not None else None
    if extremes is None or any(p.names & {lp.var for lp in rest} for p in extremes):
        return None
    return extremes[0].c_expr(), extremes[1].c_expr()


def _candidates(count: int):
    """Weights for ``count`` loops, each 0..MAX_WEIGHT, one of them 1, smallest sum first (the
    innermost loops weighing least first: its loop is the one each thread finds)."""
    options = [w for w in itertools.product(range(MAX_WEIGHT + 1), repeat=count) if 1 in w]
    return sorted(options, key=lambda w: (sum(w), tuple(reversed(w))))


def _eliminated(rest: list[Loop], weights: dict[str, int]) -> Loop | None:
    """The innermost loop of weight 1 that counts up: each thread computes its iterator from the
    wavefront's."""
    return next((lp for lp in reversed(rest) if weights[lp.var] == 1 and not lp.descending), None)


def _rewritten(
    host: list[Loop], rest: list[Loop], weights: dict[str, int], e: Loop, span: tuple[str, str, str]
) -> Wavefront:
    wave, first, last = span
    coord = e.node.coord
    kept = [lp for lp in rest if lp is not e]
    value = f"({wave}" + "".join(_minus(weights[lp.var], lp.var) for lp in kept if weights[lp.var]) + ")"
    body = _substituted(rest[-1].node.stmt, {e.var: parse_expression(value)})
    test = f"{value} >= ({c_text(e.lower)}) && {value} < ({c_text(e.upper)})"
    node: c_ast.Node = c_ast.Compound([_guarded(body, test, coord)], coord=coord)
    for lp in reversed(kept):
        node = _loop(lp.node, node)
    kernel = node
    outer = _statement(f"for (int {wave} = {first}; {wave} <= {last}; {wave}++) ;", coord)
    outer.stmt = c_ast.Compound([kernel], coord=coord)
    for lp in reversed(host):
        outer = _loop(lp.node, c_ast.Compound([outer], coord=coord))
    what = "".join(_minus(-weights[lp.var], lp.var) for lp in rest if weights[lp.var])
    what = what[3:] if what.startswith(" + ") else "-" + what[3:]
    tree = "\n".join(
        [f"{'  ' * k}host loop {lp.var}    # line {lp.loc.line}" for k, lp in enumerate(host)]
        + [
            f"{'  ' * len(host)}host loop {wave} = {what}",
            f"{'  ' * (len(host) + 1)}kernel [{', '.join(lp.var + ' (parallel)' for lp in kept)}]",
            f"{'  ' * (len(host) + 2)}{e.var} = {value[1:-1]}, where in [{c_text(e.lower)}, {c_text(e.upper)})",
        ]
    )
    how = f"a wavefront, {wave} = {what}" + (f" inside the loops on {', '.join(lp.var for lp in host)}" if host else "")
    return Wavefront(outer, kernel, how, tree, len(kept))


def _guarded(body: c_ast.Node, test: str, coord) -> c_ast.Node:
    """``body`` run where ``test`` holds: under one ``if``, or, where it holds loops (an ``if``
    hides a loop from the analysis), each statement under its own, down through the loops."""
    if isinstance(body, c_ast.For):
        return _loop(body, _guarded(body.stmt, test, coord))
    if (
        isinstance(body, c_ast.Compound)
        and any(isinstance(n, c_ast.For) for n in walk(body))
        # a declaration stays where its uses see it: an array's only without an initializer
        and all(n.init is None or _scalar(n) for n in body.block_items or [] if isinstance(n, c_ast.Decl))
    ):
        items = []
        for n in body.block_items or []:
            if isinstance(n, c_ast.Decl):  # declared unguarded, set under the test
                declared = copy.deepcopy(n)
                declared.init, declared.quals = None, []
                if isinstance(declared.type, c_ast.TypeDecl):
                    declared.type.quals = []
                items.append(declared)
                if n.init is not None:
                    items.append(_guarded(c_ast.Assignment("=", c_ast.ID(n.name), n.init, coord=n.coord), test, coord))
            else:
                items.append(_guarded(n, test, coord))
        return c_ast.Compound(items, coord=body.coord)
    guard = _statement(f"if ({test}) ;", coord)
    guard.iftrue = body if isinstance(body, c_ast.Compound) else c_ast.Compound([body], coord=coord)
    return guard


def _scalar(decl: c_ast.Decl) -> bool:
    """A declaration of one scalar (``double s = a[i][j];``), its initializer any expression."""
    return isinstance(decl.type, c_ast.TypeDecl) and not isinstance(decl.init, c_ast.InitList)


def _minus(weight: int, var: str) -> str:
    """`` - weight * var`` as C, its sign folded (`` + i`` for a weight of -1)."""
    times = var if abs(weight) == 1 else f"{abs(weight)} * {var}"
    return f" - {times}" if weight > 0 else f" + {times}"


def _loop(header: c_ast.For, body: c_ast.Node) -> c_ast.For:
    return c_ast.For(
        copy.deepcopy(header.init), copy.deepcopy(header.cond), copy.deepcopy(header.next), body, coord=header.coord
    )
