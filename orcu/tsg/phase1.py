"""Phase I of the TSG: computation partitioning (Khan's thesis, docs/design.md: Sources; section 5.3).

From the nest's dependences and subscripts, the candidate schedules: up to two loops that
no dependence ties together become grid dimensions (two only when the data has two
dimensions; one per data dimension is the surface-to-volume rule), thread x goes to a loop
that walks the last, contiguous dimension of the arrays that matter most (the ones with
the most dimensions), so that a warp's accesses coalesce; and a loop that only reduces,
where it cannot be a grid dimension, goes to the threads of each block with a reduction
across them. Every candidate is kept or pruned with its reason: the master recipe that
``orcu check --explain`` prints. The kept ones are the values of the region's mapping
parameter, among which the search chooses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from orcu.analysis.affine import poly_of
from orcu.analysis.poly import Dependences, array_update, dependences
from orcu.analysis.scalars import match_reduction
from orcu.analysis.subscripts import shapes, varies_along
from orcu.frontend.ir import Loop, LoopNest, loops_of, statements
from orcu.frontend.types import ATOMIC_SUMS, canonical_type
from orcu.spec.schedule import Dim, Schedule


@dataclass(frozen=True)
class Candidate:
    schedule: Schedule
    pruned: str | None  # why it is not kept; None when kept


@dataclass(frozen=True)
class Recipe:
    """Phase I's decisions for a nest."""

    candidates: tuple[Candidate, ...]
    loops: tuple[str, ...]
    conflicts: tuple[tuple[str, str | None], ...]  # every loop, with why it cannot run in parallel (None when it can)
    permutable: tuple[tuple[str, str, str | None], ...]  # pairs of the perfect nest, with why they cannot be swapped
    placements: tuple = ()  # Phase II's, one per schedule kept (tsg/phase2.py)
    # The setting that gives a variant's kernel a minBlocks where the transform sets none: the
    # runner sets it when ptxas spilled the variant's register tile (runners.py), and the tuned
    # file, built from the result's settings, keeps it. None where the transform sets minBlocks.
    min_blocks: str | None = None

    @property
    def kept(self) -> tuple[Schedule, ...]:
        return tuple(c.schedule for c in self.candidates if c.pruned is None)

    def explain(self) -> list[str]:
        lines = ["TSG phase I (computation partitioning):"]
        for var, why in self.conflicts:
            lines.append(f"  loop '{var}': " + ("no dependence between its iterations" if why is None else why))
        for outer, inner, why in self.permutable:
            lines.append(
                f"  loops '{outer}' and '{inner}': " + ("permutable" if why is None else f"not permutable: {why}")
            )
        for c in self.candidates:
            lines.append(
                f"  {'kept  ' if c.pruned is None else 'pruned'} {c.schedule.name}"
                + (f": {c.pruned}" if c.pruned else "")
            )
        for p in self.placements:
            lines += p.explain()
        return lines


def chain(nest: LoopNest) -> list[Loop]:
    """The perfectly nested loops from the outermost down (each one's body is the next one)."""
    loop = nest.body[0]
    assert isinstance(loop, Loop)  # a nest's body starts with its outermost loop
    out = [loop]
    while len(loop.body) == 1 and isinstance(inner := loop.body[0], Loop):
        loop = inner
        out.append(loop)
    return out


def kernel_body(nest: LoopNest, schedule: Schedule) -> tuple[list[Loop], tuple]:
    """(the grid loops in source order, the body they wrap: the perfect nest's sequential loops
    around the innermost grid loop's body)."""
    perfect = chain(nest)
    mapped = {d.loop for d in schedule.grid}
    grid = [lp for lp in perfect if lp.var in mapped]
    deepest = max(perfect.index(lp) for lp in grid)
    body = perfect[deepest].body
    for lp in reversed([lp for lp in perfect[: deepest + 1] if lp not in grid]):
        body = (replace(lp, body=body),)
    return grid, body


def check(nest: LoopNest, deps: Dependences, schedule: Schedule) -> str | None:
    """Why ``schedule`` cannot run the nest (None when it can): loops it names, where they
    are, the dependences between their iterations, what a reduction across threads needs."""
    loops = {lp.var: lp for lp in nest.loops()}
    perfect = chain(nest)
    for d in schedule.dims:
        if d.loop not in loops:
            return f"there is no loop '{d.loop}'"
    grid = [d.loop for d in schedule.grid]
    on_chain = [lp.var for lp in perfect]
    for var in grid:
        if var not in on_chain:
            return (
                f"'{var}' is not in the perfect nest of the outer loops ({', '.join(on_chain)}): statements around it "
                "would run once per thread"
            )
    for var in grid + ([schedule.split.loop] if schedule.split else []):
        if loops[var].bound_reads:
            return (
                f"the bounds of '{var}' are read from arrays ({loops[var].header}): the launch's grid is sized on the "
                "host before they are known"
            )
    if grid:
        last = max(on_chain.index(v) for v in grid)
        for var in grid:  # a grid loop's bounds may use only grid loops outside it
            moved = {lp.var for lp in perfect[: on_chain.index(var)]} - set(grid)
            used = bound_names(loops[var]) & moved
            if used:
                return f"the bounds of '{var}' depend on '{sorted(used)[0]}', which would run inside it"
    split = schedule.split
    if split is not None:
        problem = _split_loop(nest, deps, schedule, split)
        if problem:
            return problem
    threads = schedule.threads_only
    if len(threads) > 1 or (threads and threads[0].axis != "x"):
        return "only thread x can take a loop without blocks"
    for d in threads:
        home = perfect[last] if grid else None
        lp = loops[d.loop]
        if home is None or not any(n is lp for n in home.body):
            return f"'{d.loop}' must sit directly in the body of the innermost grid loop to run over the threads of a block"
        problem = _reduction_loop(nest, deps, home.body, lp)
        if problem:
            return problem
    return deps.parallel_together(grid, [d.loop for d in threads] + ([split.loop] if split else []))


def _split_loop(nest: LoopNest, deps: Dependences, schedule: Schedule, split: Dim) -> str | None:
    """What a loop split over the threads and blocks along y needs: one grid loop along x, the
    split loop alone in the thread's program around the grid loop's body, and in it only sums
    into array elements it does not move, of types atomicAdd adds (blocks add their shares)."""
    if split.axis != "y" or len(schedule.dims) != 2 or schedule.threads_only:
        return "a loop split over threads and blocks goes along y, beside one grid loop along x"
    _, body = kernel_body(nest, schedule)
    loop = body[0] if len(body) == 1 else None
    if not isinstance(loop, Loop) or loop.var != split.loop:
        return f"'{split.loop}' must be all the thread runs around the body of the grid loop to be split over blocks"
    problem = _reduction_loop(nest, deps, body, loop)
    if problem:
        return problem
    if not deps.loops[loop.var].conflicts:
        return f"'{loop.var}' reduces nothing: its iterations are a grid loop's"
    if deps.scalar_reductions(loop.var):
        scalar = sorted(deps.scalar_reductions(loop.var))[0]
        return f"'{scalar}' is a scalar reduced along '{loop.var}': its total is no one block's to use"
    for st, _ in statements(loop.body):
        update = array_update(st.node, nest.variables)
        if update is None:
            continue
        ctype = canonical_type(nest.variables[next(a.array for a in st.accesses if a.write)].ctype.base)
        if update[1] != "+" or ctype not in ATOMIC_SUMS:
            return (
                f"'{update[0]}' (line {st.loc.line}) is a '{update[1]}=' reduction of {ctype}: blocks add their shares "
                f"with atomicAdd, a sum of {', '.join(ATOMIC_SUMS)}"
            )
    return None


def bound_names(loop: Loop) -> set[str]:
    """The names its bounds read ("?" where one is not affine)."""
    names: set[str] = set()
    for bound in (loop.lower, loop.upper):
        p = poly_of(bound)
        names |= p.names if p is not None else {"?"}
    return names


def _reduction_loop(nest: LoopNest, deps: Dependences, home: tuple, loop: Loop) -> str | None:
    """What a loop spread over one block's threads needs: inside it, its reductions update
    targets that stay the same along it, and it reads nothing written beside it (in ``home``,
    the body it sits in)."""
    inner = {lp.var for lp in loops_of([loop])}
    inside = list(statements(loop.body))
    beside_writes = {
        a.array for node in home if node is not loop for st, _ in statements((node,)) for a in st.accesses if a.write
    }
    for st, _ in inside:
        update = array_update(st.node, nest.variables)  # its target is read as a private sum: not the array
        for a in st.accesses:
            if not a.write and a.array in beside_writes and not (update and a.text == update[0]):
                return f"'{a.array}' is written beside the loop on '{loop.var}' and read in it"
    private = deps.private(loop.var)
    after = list(home)[next(k for k, n in enumerate(home) if n is loop) + 1 :]
    for st, _ in statements(tuple(after)):
        read = sorted(st.scalar_reads & private)
        if read:
            return f"'{read[0]}' (line {st.loc.line}) reads what one thread's last iteration of '{loop.var}' left"
    if not deps.loops[loop.var].conflicts:
        return None  # parallel: nothing to combine
    scalars = deps.scalar_reductions(loop.var)
    for st, _ in inside:
        update = array_update(st.node, nest.variables)
        if update is not None:
            if varies_along(nest, next(a for a in st.accesses if a.write), inner):
                return f"'{update[0]}' (line {st.loc.line}) changes along '{loop.var}': a reduction across threads needs one target"
            continue
        m = match_reduction(st.node, nest.variables)
        if m is not None and m[0] in scalars:
            continue
        if any(a.write for a in st.accesses) or st.scalar_writes - set(scalars) - private:
            return f"line {st.loc.line} is not a reduction: every thread of the block would run it for its share of '{loop.var}'"
    return None


def _important_arrays(nest: LoopNest) -> set[str]:
    """The arrays with the most dimensions: the bulk of the data."""
    dims = {name: max((len(s.dims) for s in accesses if s.dims), default=1) for name, accesses in shapes(nest).items()}
    most = max(dims.values(), default=1)
    return {name for name, d in dims.items() if d == most}


def recipe(nest: LoopNest, deps: Dependences | None = None) -> Recipe:
    """Phase I's candidate schedules for a nest, kept or pruned."""
    deps = deps or dependences(nest)
    perfect = chain(nest)
    arrays = shapes(nest)
    important = _important_arrays(nest)
    walks = {
        lp.var: {name for name in important for s in arrays.get(name, []) if s.indexes_last(lp.var)}
        for lp in nest.loops()
    }
    multi = any(s.dims and len(s.dims) > 1 for accesses in arrays.values() for s in accesses)
    schedules: list[Schedule] = []
    for size in (2, 1):
        for grid in combinations([lp.var for lp in perfect], size):
            if size == 2:
                schedules += [
                    Schedule((Dim("x", grid[1]), Dim("y", grid[0]))),
                    Schedule((Dim("x", grid[0]), Dim("y", grid[1]))),
                ]
            else:
                schedules.append(Schedule((Dim("x", grid[0]),)))
                innermost = next(lp for lp in perfect if lp.var == grid[0])
                schedules += [
                    Schedule((Dim("x", n.var, True), Dim("y", grid[0]))) for n in innermost.body if isinstance(n, Loop)
                ]
                _, body = kernel_body(nest, Schedule((Dim("x", grid[0]),)))
                if len(body) == 1 and isinstance(body[0], Loop):  # the thread's one loop, a sum split over blocks
                    schedules.append(Schedule((Dim("x", grid[0]), Dim("y", body[0].var, split=True))))
    checked = [(s, check(nest, deps, s)) for s in schedules]
    legal = [s for s, why in checked if why is None]
    widest = max((len(s.grid) for s in legal), default=0)
    # The rules prune in turn, each among what the ones before it kept, so that a legal schedule
    # always remains: the grid's width first, then coalescing among the widest (a reduction's
    # loop may walk the arrays' last dimension on a narrower grid, and no widest one may).
    wide = [s for s in legal if not (multi and len(s.grid) < widest)]
    coalescing = any(walks[s.dims[0].loop] for s in wide)
    candidates = []
    for s, why in checked:
        x = s.dims[0].loop
        if why is None and multi and len(s.grid) < widest:
            why = f"the data has 2 dimensions and a {widest}-D grid is legal: one grid dimension per data dimension"
        if why is None and coalescing and not walks[x]:
            others = [f"'{v}'" for v in walks if walks[v] and any(w.dims[0].loop == v for w in wide)]
            walkers = f"{others[0]} does" if len(others) == 1 else f"{', '.join(others[:-1])} and {others[-1]} do"
            why = f"thread x ('{x}') walks the last dimension of none of {', '.join(sorted(important))} ({walkers})"
        candidates.append(Candidate(s, why))
    kept = [c for c in candidates if c.pruned is None]
    # coalesced first; a split reduction after the grids that need no atomics
    kept.sort(key=lambda c: (-len(walks[c.schedule.dims[0].loop]), c.schedule.split is not None, -len(c.schedule.dims)))
    conflicts = tuple((lp.var, _why(deps, lp.var)) for lp in nest.loops())
    permutable = tuple((a.var, b.var, deps.permutable(a.var, b.var)) for a, b in combinations(perfect, 2))
    return Recipe(
        tuple(kept + [c for c in candidates if c.pruned is not None]),
        tuple(lp.var for lp in nest.loops()),
        conflicts,
        permutable,
    )


def _why(deps: Dependences, var: str) -> str | None:
    facts = deps.loops[var]
    if not facts.conflicts:
        return None
    text = "; ".join(c.text for c in facts.conflicts[:2])
    if all(c.atomic for c in facts.conflicts):
        return f"sums through subscripts that are not affine between its iterations (each update an atomicAdd): {text}"
    kind = "reductions" if facts.parallel else "dependences"
    note = f" ({', '.join(facts.opaque)} not affine: taken to touch any element)" if facts.opaque else ""
    return f"{kind} between its iterations: {text}{note}"
