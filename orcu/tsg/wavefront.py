"""A perfect nest no loop of which runs in parallel, run as a wavefront (seidel-2d, floyd-warshall).

Where every dependence goes forward along ``w = sum(h_k * x_k)`` for small non-negative integer
weights ``h`` over the loops (after some outer loops that stay host loops as written), the
instances with one value of ``w`` touch nothing another of them writes: ``w`` becomes a host
loop, and inside it the loops but one (``e``, a loop of weight 1) run in parallel, each thread
finding its instance's ``e = w - sum(h_k * x_k)`` and running it where that lies in ``e``'s
bounds. Gauss-Seidel's ``A[i][j]`` over ``t, i, j`` is ``w = 4t + 2i + j``; Floyd-Warshall keeps
its loop on ``k`` and runs ``w = i + j`` inside it.

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

from orcu.analysis.affine import Poly, poly_of
from orcu.analysis.poly import dependences
from orcu.frontend.cparse import parse_expression
from orcu.frontend.ir import Loop, LoopNest, c_text
from orcu.tsg.scop_code import _fresh, _statement, _substituted
from orcu.tsg.scop_model import _perfect

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
    it is perfect, no loop of it runs in parallel as written and a wavefront is valid; None
    otherwise. ``taken``: names the new iterator must not shadow."""
    loops = nest.loops()
    if (
        len(nest.body) != 1
        or not _perfect(nest.body[0])
        or len(loops) < 2
        or any(lp.step != 1 or lp.descending or lp.jumps or lp.bound_reads for lp in loops)
    ):
        return None
    deps = dependences(nest)
    if any(facts.parallel for facts in deps.loops.values()):
        return None  # the TSG maps it as it is
    for outer in range(len(loops) - 1):
        rest = loops[outer:]
        if len(rest) > MAX_LOOPS or not _rectangular(rest):
            continue
        prefix = tuple(lp.var for lp in loops[:outer])
        for weights in _candidates(len(rest)):
            by_var = {lp.var: w for lp, w in zip(rest, weights)}
            eliminated = _eliminated(rest, by_var)
            if eliminated is not None and deps.ordered_along(prefix, by_var):
                return _rewritten(loops[:outer], rest, by_var, eliminated, _fresh("wave", taken))
    return None


def _rectangular(rest: list[Loop]) -> bool:
    """Bounds that read no iterator of these loops (the wavefronts' range is then a sum)."""
    names = {lp.var for lp in rest}
    for lp in rest:
        for bound in (lp.lower, lp.upper):
            p = poly_of(bound)
            if p is None or p.names & names:
                return False
    return True


def _candidates(count: int):
    """Weights for ``count`` loops, each 0..MAX_WEIGHT, one of them 1, smallest sum first (the
    innermost loops weighing least first: its loop is the one each thread finds)."""
    options = [w for w in itertools.product(range(MAX_WEIGHT + 1), repeat=count) if 1 in w]
    return sorted(options, key=lambda w: (sum(w), tuple(reversed(w))))


def _eliminated(rest: list[Loop], weights: dict[str, int]) -> Loop | None:
    """The innermost loop of weight 1: each thread computes its iterator from the wavefront's."""
    return next((lp for lp in reversed(rest) if weights[lp.var] == 1), None)


def _rewritten(host: list[Loop], rest: list[Loop], weights: dict[str, int], e: Loop, wave: str) -> Wavefront:
    coord = e.node.coord
    kept = [lp for lp in rest if lp is not e]
    value = f"({wave}" + "".join(f" - {_times(weights[lp.var], lp.var)}" for lp in kept if weights[lp.var]) + ")"
    first = _weighed(rest, weights, lambda lp: poly_of(lp.lower)).c_expr()
    last = _weighed(rest, weights, lambda lp: poly_of(lp.upper) - Poly.const(1)).c_expr()
    body = _substituted(rest[-1].node.stmt, {e.var: parse_expression(value)})
    guard = _statement(f"if ({value} >= ({c_text(e.lower)}) && {value} < ({c_text(e.upper)})) ;", coord)
    guard.iftrue = body
    node: c_ast.Node = c_ast.Compound([guard], coord=coord)
    for lp in reversed(kept):
        node = _loop(lp.node, node)
    kernel = node
    outer = _statement(f"for (int {wave} = {first}; {wave} <= {last}; {wave}++) ;", coord)
    outer.stmt = c_ast.Compound([kernel], coord=coord)
    for lp in reversed(host):
        outer = _loop(lp.node, c_ast.Compound([outer], coord=coord))
    what = " + ".join(_times(weights[lp.var], lp.var) for lp in rest if weights[lp.var])
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


def _times(weight: int, var: str) -> str:
    return var if weight == 1 else f"{weight} * {var}"


def _weighed(loops: list[Loop], weights: dict[str, int], of) -> Poly:
    """The sum of each loop's ``of(loop)`` times its weight (bounds: affine, ``_rectangular``)."""
    out = Poly.const(0)
    for lp in loops:
        out = out + Poly.const(weights[lp.var]) * of(lp)
    return out


def _loop(header: c_ast.For, body: c_ast.Node) -> c_ast.For:
    return c_ast.For(
        copy.deepcopy(header.init), copy.deepcopy(header.cond), copy.deepcopy(header.next), body, coord=header.coord
    )
