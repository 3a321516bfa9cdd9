"""A whole scop under one ``transform CUDA(mapping='auto')``: which loops become kernels.

PPCG's way, with the TSG behind it: the region's statements are modelled as isl sets (each
statement's iteration domain), their array accesses as affine maps, and every pair of
instances that touch one element, one writing it, in program order, is a dependence. isl's
scheduler, asked as PPCG asks it (validity and proximity = the dependences, coincidence =
the dependences too, outer coincidence on), distributes, fuses and interchanges the loops.
Each outer band whose first member is coincident (no dependence between its iterations)
becomes one kernel, its members and everything under it the kernel's loop nest, which the
TSG then maps (phase I) and places (phase II) like any nest; a band member that carries a
dependence (a time loop) stays a host loop around the kernels inside it, and a statement
under no parallel band runs on the host, between the kernels, as written.

The result is C code again, built from the region's own statements and loop headers, so
that every later stage (host code around kernels, arrays resident across kernels, the
reference to validate against: the region as written) is the one that Orio's
several-transform regions already use. A schedule is used only where it is a permutation
of the loops as written (no skew, shift or reversal: those would need new iterators), fused
loops have the same bounds, and a loop's bounds only read iterators outside it. Where isl's
fused schedule is not such a schedule, one band per strongly connected component is tried,
then the loops as written, each parallel one a kernel.

Scalars are given to isl too, each a zero-dimensional array, except where a scalar is
private to loops (assigned before it is read in each of their iterations and dead after
them): then it is one element per iteration of those loops (scalar expansion), so that it
ties nothing together. Updates of one scalar reduction (``s += ...``) are not coincidence
constraints: along a parallel loop the TSG folds them across threads.

Two rewrites free loops that only the reuse of memory ties together, each tried beside the
model without it: an array private to loops (doitgen's ``sum``) gets one copy per iteration
of them, and reads that always see a value from before the region (trmm's rows below the
current one) read a copy taken then (``_Copies`` writes both into the region's code).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import islpy as isl
from pycparser import c_ast

from orcu.analysis.poly import dependences
from orcu.errors import AnalysisError
from orcu.frontend.ir import Loop, LoopNest, Variable, statements
from orcu.frontend.lower import Lowering, loc_of
from orcu.frontend.source import SourceFile
from orcu.tsg.element_sums import element_sums
from orcu.tsg.phase1 import recipe
from orcu.tsg.scop_code import _emit, _unchanged
from orcu.tsg.scop_model import (
    Scheduled,
    _model,
    _parallel_throughout,
    _perfect,
    _private_arrays,
    _reads_before,
    _Unfit,
)
from orcu.tsg.scop_tree import _as_written, _describe, _fused_kernels, _isl_tree
from orcu.tsg.wavefront import wavefront

# Why a region's code stays as written where that is the schedule (not a failure to report).
PERFECT = "one perfect nest: the TSG orders and maps its loops itself"
THROUGHOUT = "one nest with a loop around all of its statements that runs in parallel: the TSG maps it"
SERIAL = "no loop runs in parallel"
AS_WRITTEN = "the loops as written are the schedule"
SCHEDULE_KEPT = (PERFECT, THROUGHOUT, SERIAL, AS_WRITTEN)
FUSED = ", kernels fused"  # a schedule's name, its adjacent kernels fused (scop_tree._fused_kernels)

# Schedules tried in order: (name, isl options); None: the loops as written.
OPTIONS = (
    ("isl, fused (outer coincidence)", {"outer_coincidence": 1, "serialize_sccs": 0}),
    ("isl, one band per strongly connected component", {"outer_coincidence": 1, "serialize_sccs": 1}),
    ("the loops as written", None),
)


def schedule_scop(
    src: SourceFile, items: list, variables: Mapping[str, Variable], functions: set[str], live_after: set[str]
) -> tuple[Scheduled | None, str]:
    """The region's statements scheduled (None where nothing changes, or the region is no scop:
    then the transform applies to its first loop, as Orio's does), and why not where None.
    ``live_after``: the names the code after the region may read."""
    arrays = {n: v for n, v in variables.items() if v.kind == "array"}
    private = sorted(n for n, v in variables.items() if v.kind == "private")
    if private:  # isl's model would share it between the iterations its schedule moves apart
        return None, f"not a scop: a loop declares the array '{private[0]}'"
    try:
        body = Lowering(src, arrays, functions).block(items)
    except AnalysisError as e:
        return None, f"not a scop: {e.message}"
    nest = LoopNest(
        index=0,
        loc=loc_of(items[0]),
        body=body,
        variables=variables,
        function=None,
        transform=None,
        reference="",
        code="",
    )
    iterators = {lp.var for lp in nest.loops()}
    if len(body) == 1 and _perfect(body[0]):
        waves = _as_wavefront(nest, items, live_after)
        if waves is None:
            summed = _summed_in_scalars(src, nest, items, functions, live_after) if _serial(nest) else None
            return (summed, "") if summed is not None else (None, PERFECT)
        return waves, ""
    if any(lp.jumps for lp in nest.loops()):
        return None, "not a scop: a loop holds 'break' or 'continue'"
    pointers = sorted({n for st, _ in statements(body) for n in st.scalar_writes if n in arrays})
    if pointers:  # after 'a = b;' the accesses a[...] name other data: the model's arrays would not be the program's
        return None, f"not a scop: the region assigns the pointer '{pointers[0]}'"
    if iterators & live_after:
        return None, f"'{sorted(iterators & live_after)[0]}' is read after the region: its loops keep their order"
    scheduled, why = _scheduled(nest, body, items, variables, live_after)
    if why.startswith("not a scop"):
        return scheduled, why
    # A wavefront of the outer loops (nussinov's i and j, its loop on k in each thread) where it
    # launches kernels in fewer host loops than the schedule (whose kernel may be the loop on k,
    # a reduction launched for each (i, j)).
    waves = _as_wavefront(nest, items, live_after)
    if waves is not None and (scheduled is None or _host_loops(waves) < _host_loops(scheduled)):
        return waves, ""
    if scheduled is None and _serial(nest):
        summed = _summed_in_scalars(src, nest, items, functions, live_after)
        if summed is not None:
            return summed, ""
    return scheduled, why


def _host_loops(scheduled: Scheduled) -> int:
    """The most host loops around one of the schedule's kernels (launches grow with each)."""
    kernels = {id(k) for k in scheduled.kernels}

    def walk(node: c_ast.Node, depth: int) -> int:
        if id(node) in kernels:
            return depth
        depth += isinstance(node, c_ast.For)
        return max((walk(child, depth) for _, child in node.children()), default=0)

    return max(walk(item, 0) for item in scheduled.items)


def _as_wavefront(nest: LoopNest, items: list, live_after: set[str]) -> Scheduled | None:
    """The region's one loop nest run as a wavefront (tsg/wavefront.py), where one is valid."""
    iterators = {lp.var for lp in nest.loops()}
    loop = next((n for n in items if isinstance(n, c_ast.For)), None)
    if loop is None or len(nest.body) != 1 or iterators & live_after:
        return None
    waves = wavefront(nest, loop, set(nest.variables) | iterators)
    if waves is None:
        return None
    others = [n for n in items if n is not loop]
    return Scheduled(others + [waves.loop], [waves.kernel], waves.how, waves.tree, (), (), waves.parallel, 1)


def _serial(nest: LoopNest) -> bool:
    """The TSG keeps no mapping of any of the region's loop nests: no loop runs in parallel with
    everything inside it, sums into array elements apart (a thread's share of one cannot be
    folded)."""
    # a region of one loop is its own nest, its dependences already found (memo)
    nests = [nest if nest.body == (n,) else replace(nest, body=(n,), memo={}) for n in nest.body if isinstance(n, Loop)]
    return not any(recipe(one, dependences(one)).kept for one in nests)


def _summed_in_scalars(
    src: SourceFile, nest: LoopNest, items: list, functions: set[str], live_after: set[str]
) -> Scheduled | None:
    """Where the TSG keeps no mapping of the region: its schedule with each sum into
    one array element kept in a scalar over its loop (tsg/element_sums.py), which may free
    the loop as a reduction; None where there is no such sum or it frees nothing."""
    rewritten = element_sums(nest, items, nest.variables)
    if rewritten is None:
        return None
    again, _ = schedule_scop(src, rewritten[0], rewritten[1], functions, live_after)
    return None if again is None else replace(again, how=f"{again.how}; {', '.join(rewritten[2])}")


def _scheduled(
    nest: LoopNest, body, items: list, variables: Mapping[str, Variable], live_after: set[str]
) -> tuple[Scheduled | None, str]:
    """The best of the region's schedules (None where the region's code stays as written), and
    why there is none."""
    try:
        model = _model(nest, variables, live_after)
        # One copy of each private array per iteration of its loops, and reads of values from
        # before the region from a copy taken then: either can make loops parallel that were not.
        private, early = _private_arrays(model, nest, variables), _reads_before(model, variables)
        models = [model] + [
            _model(nest, variables, live_after, e, b)
            for e, b in ([(private, None)] if private else [])
            + ([(None, early)] if early else [])
            + ([(private, {k: a for k, a in early.items() if a not in private})] if private and early else [])
        ]
    except _Unfit as e:
        return None, f"not a scop: {e}"
    except isl.Error as e:  # a model isl cannot read: the region stays as written
        return None, f"not a scop: isl: {e}"
    found, tried = _schedules(models, body, variables)
    if not found:
        return None, "; ".join(tried)
    # on a tie, a schedule whose kernels were fused after isl's is the worse (gesummv's: as written
    # one loop on j, fused two)
    scheduled = max(
        found,
        key=lambda s: (s.parallel, -s.repeated, -len(s.expanded), -len(s.kernels), not s.how.endswith(FUSED)),
    )
    if scheduled.how == OPTIONS[-1][0] and len(body) == 1 and _parallel_throughout(nest):
        return None, THROUGHOUT
    if not scheduled.kernels:
        return None, SERIAL
    if _unchanged(scheduled, items):
        return None, AS_WRITTEN
    return scheduled, ""


def _schedules(models: list, body, variables: Mapping[str, Variable]) -> tuple[list[Scheduled], list[str]]:
    """Each model's schedule under each of OPTIONS, and with its adjacent kernels fused where
    that changes it; and the ones given up, with why."""
    tried: list[str] = []
    found: list[Scheduled] = []
    for m in models:
        for how, options in OPTIONS:
            if options is None and m.expanded:
                continue  # as written, a copy per iteration changes nothing
            label = (
                how
                + (f", {', '.join(sorted(m.expanded))} one copy per iteration" if m.expanded else "")
                + (f", {', '.join(sorted(set(m.before.values())))} read from before the region" if m.before else "")
            )
            try:
                tree = _as_written(m, body) if options is None else _isl_tree(m, options)
            except _Unfit as e:
                tried.append(f"{label}: {e}")
                continue
            fused = _fused_kernels(m, tree)
            for t, name in [(tree, label)] + ([(fused, label + FUSED)] if fused != tree else []):
                try:
                    found.append(_emit(m, t, name, _describe(m, t), tuple(tried), variables))
                except _Unfit as e:
                    tried.append(f"{name}: {e}")
    return found, tried
