"""Loops under ``mapping='auto'`` inside a region's host code, rewritten before they are lowered:
a nest whose outer loops do not run in parallel as a wavefront (orcu/tsg/wavefront.py); and the host loops
around a transformed loop whose bounds hold at every launch of its kernel."""

from __future__ import annotations

import copy

from pycparser import c_ast

from orcu.errors import AnalysisError
from orcu.frontend.host import enclosing_loops, following
from orcu.frontend.ir import Loop, LoopNest, loops_of
from orcu.frontend.liveness import effects, read_after
from orcu.frontend.lower import Lowering, loc_of
from orcu.frontend.source import SourceFile
from orcu.tsg.wavefront import wavefront


def wavefronts(
    src: SourceFile, items: list, loops: list, auto: list[bool], variables, functions: set[str], where
) -> tuple[list, list] | None:
    """Each transformed loop under ``mapping='auto'`` (``auto``) that is a nest no outer loop of
    which runs in parallel, as a wavefront inside the host code around it
    (tsg/wavefront.py): Gauss-Seidel's nest on i and j inside a host loop on t. The region's
    statements and its transformed loops so rewritten; None where no loop is. ``where``: the
    enclosing function and the region (what the code after it reads)."""
    function, region = where
    arrays = {n: v for n, v in variables.items() if v.kind == "array"}
    found = {}  # position among the loops -> the nest's wavefront
    for k, (maps_auto, loop) in enumerate(zip(auto, loops)):
        if not maps_auto:
            continue
        try:
            body = Lowering(src, arrays, functions).block([loop])
        except AnalysisError:
            continue  # the nest's own analysis says why
        iterators = {lp.var for lp in loops_of(body)}
        after = read_after(src, function, region.start, region.end, sorted(iterators), following(items, loop))
        if after:
            continue  # its iterators' last values are read: the loops keep their order
        nest = LoopNest(
            index=0,
            loc=loc_of(loop),
            body=body,
            variables=variables,
            function=None,
            transform=None,
            reference="",
            code="",
            context=host_context(src, items, loop),
        )
        waves = wavefront(nest, loop, set(variables) | iterators)
        if waves is not None:
            found[k] = waves
    if not found:
        return None
    memo: dict = {}  # the region's statements copied (the parsed ones stay as written), each loop's copy
    items = copy.deepcopy(items, memo)
    loops = [memo[id(lp)] for lp in loops]
    for k, waves in found.items():
        _replace(items, loops[k], waves.loop)
        loops[k] = waves.kernel
    return items, loops


def _replace(items: list, old: c_ast.Node, new: c_ast.Node) -> None:
    """``old`` replaced by ``new`` where it stands among ``items`` or inside one of them."""
    for k, item in enumerate(items):
        if item is old:
            items[k] = new
            return
    stack = list(items)
    while stack:
        node = stack.pop()
        for attr in node.__slots__:
            value = getattr(node, attr, None)
            if value is old:
                setattr(node, attr, new)
                return
            if isinstance(value, list):
                for k, child in enumerate(value):
                    if child is old:
                        value[k] = new
                        return
                stack += [c for c in value if isinstance(c, c_ast.Node)]
            elif isinstance(value, c_ast.Node):
                stack.append(value)


def host_context(src: SourceFile, items, loop: c_ast.For) -> tuple[Loop, ...]:
    """The host loops around a transformed loop that only their headers step: their bounds hold
    at every launch of its kernel. A loop orcu cannot read the bounds of adds nothing."""
    out = []
    for owner in enclosing_loops(items, loop):
        try:
            header = Lowering(src).loop(c_ast.For(owner.init, owner.cond, owner.next, c_ast.Compound([]), owner.coord))
        except AnalysisError:
            continue
        done = effects([owner.stmt])
        if header.var not in done.assigned | done.addressed:
            out.append(header)
    return tuple(out)
