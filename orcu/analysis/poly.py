"""Exact dependences of an affine loop nest (islpy; tsg/scop.py asks isl for whole scops' schedules).

Each statement instance is a point of its loops' iteration domain (affine bounds in the
sizes and the outer iterators, steps included); two instances depend on each other when
they touch the same element of an array and one of them writes it. The question asked of
isl is always whether such a pair exists with the iterators of given loops different: a
loop whose iterations touch disjoint elements can run in parallel, and a set of loops can
become parallel dimensions of a GPU launch together when no dependence joins different
iterations of any of them. Pairs that are both updates of one reduction (``y[i] += ...``,
the same target and operator) are reductions, not dependences: along a loop that maps to
threads they become a reduction across those threads.

Scalars are not given to isl: a scalar each iteration of a loop assigns before it reads it
is private to that loop; one that is only ever updated with one operator is a reduction;
anything else written in a loop ties that loop's iterations together.

Accesses that are not affine (``x[col]``, ``a[idx[i]]``) are taken to touch any element of
their array, and say so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

import islpy as isl
from pycparser import c_ast

from orcu.analysis.affine import Poly, poly_of
from orcu.analysis.conversions import expression_type, reorder_problem
from orcu.analysis.scalars import assigned_before_read, match_reduction, why_carried
from orcu.analysis.subscripts import Shaped, is_affine, shapes
from orcu.errors import Location
from orcu.frontend.ir import Access, Loop, LoopNest, Stmt, Variable, c_text, statements
from orcu.frontend.types import ATOMIC_AS_UNSIGNED, ATOMIC_SUMS


@dataclass(frozen=True)
class Conflict:
    """Why a loop's iterations are not independent."""

    text: str  # e.g. "'a[i][j]' (line 7) and 'a[i - 1][j]' (line 7)"
    reduction: bool = False  # updates of one reduction: parallel through a reduction across threads
    atomic: bool = False  # ... of a sum a kernel makes with atomicAdd (Dependences.atomics)


@dataclass(frozen=True)
class LoopFacts:
    var: str
    conflicts: tuple[Conflict, ...]  # pairs that join different iterations of the loop
    opaque: tuple[str, ...] = ()  # accesses analysed conservatively, that forced a conflict

    @property
    def parallel(self) -> bool:
        """No dependence joins two iterations (reductions aside)."""
        return not any(not c.reduction for c in self.conflicts)

    @property
    def reduces(self) -> bool:
        """Parallel, with reductions along it."""
        return self.parallel and bool(self.conflicts)


@dataclass
class _Pair:
    first: tuple[Shaped, int]  # the access and its statement's position in program order
    second: tuple[Shaped, int]
    reduction: bool
    opaque: str | None  # the access that made it conservative
    # updates of one sum of a type atomicAdd adds (y[j] += ...), which a kernel may make with it;
    # atomic: those whose element is not affine (a[idx[i]] += ...), where atomicAdd is the only
    # placement that runs them in parallel (Dependences.atomics)
    summed: bool = False
    atomic: bool = False

    def text(self) -> str:
        (a, _), (b, _) = self.first, self.second
        return f"'{a.access.text}' (line {a.access.loc.line}) and '{b.access.text}' (line {b.access.loc.line})"


@dataclass
class Dependences:
    nest: LoopNest
    loops: dict[str, LoopFacts] = field(default_factory=dict)
    # Loops a `break` leaves, with why: the iterations after the one that stops never run, so
    # none may run beside another (not even as a reduction's share) nor move past another loop.
    stops: dict[str, str] = field(default_factory=dict)
    # Loops whose iterations write what the bounds of a loop in them read: (where, why) by iterator.
    bounds_written: dict[str, list[tuple[Location, str]]] = field(default_factory=dict)
    # The statements a kernel runs as atomicAdd: updates of a sum through subscripts that are not
    # affine (a histogram's bins, a scatter), the reduction pairs between them atomic.
    atomics: frozenset[Stmt] = frozenset()
    _pairs: list[_Pair] = field(default_factory=list, repr=False)
    _scalars: dict[str, dict[str, str]] = field(
        default_factory=dict, repr=False
    )  # loop -> scalar -> "private"/op/"carried"
    _differs: dict[tuple[int, str], bool] = field(default_factory=dict, repr=False)

    def parallel_together(self, grid: Iterable[str], reduced: Iterable[str] = ()) -> str | None:
        """None when the loops ``grid`` (iterations on different threads) and ``reduced``
        (iterations spread over threads whose results a reduction combines) can all run in
        parallel; else why not."""
        grid, reduced = set(grid), set(reduced)
        for var in sorted(grid | reduced):
            stop = self._sequential(var)
            if stop is not None:
                return stop
        for k, pair in enumerate(self._pairs):
            for var in sorted(grid | reduced):
                if pair.reduction and (var in reduced or pair.atomic):
                    continue
                if self._pair_differs(k, var):
                    kind = "a reduction across" if pair.reduction else "a dependence between"
                    return f"{kind} iterations of '{var}': {pair.text()}" + (
                        f" ({pair.opaque} is not affine)" if pair.opaque else ""
                    )
        for var in sorted(grid | reduced):
            for scalar, how in self._scalars.get(var, {}).items():
                if how == "carried":
                    return f"'{scalar}' carries a value from one iteration of '{var}' to the next" + self._why(scalar)
                if how.startswith("reduce:") and var in grid:
                    return f"'{scalar}' is a reduction along '{var}' that only threads of one block can combine"
        return None

    def permutable(self, outer: str, inner: str) -> str | None:
        """None when the loops ``outer`` and ``inner`` (``inner`` inside ``outer``) may be
        swapped: no two instances that touch one element, one writing it, run in the other
        order afterwards (updates of one reduction aside); else why not."""
        for pair in self._pairs:
            if not pair.reduction and _reversed(self.nest, pair, outer, inner):
                return f"{pair.text()} would run in the other order" + (
                    f" ({pair.opaque} is not affine)" if pair.opaque else ""
                )
        for var in (outer, inner):
            stop = self._sequential(var)
            if stop is not None:
                return stop
            for scalar, how in self._scalars.get(var, {}).items():
                if how == "carried":
                    return f"'{scalar}' carries a value from one iteration of '{var}' to the next" + self._why(scalar)
        return None

    def ordered_along(self, prefix: tuple[str, ...], weights: Mapping[str, int]) -> bool:
        """Whether the nest's iterations can run in order of ``sum(weights[v] * v)`` (a wavefront)
        within each iteration of the host loops ``prefix``: every two instances that touch one
        element, one writing it, with the same ``prefix`` iterators and different iterators of the
        weighed loops, have the later one (in the order as written: a loop that counts down runs
        its greater values first) on a later wavefront. Instances on one wavefront then share
        nothing; those of one iteration of the weighed loops (the loops inside them) run in one
        thread, in order. Pairs isl cannot read, scalars other than private ones, breaks and
        bounds read from written arrays: False."""
        if self.stops or self.bounds_written or any(p.opaque for p in self._pairs):
            return False
        rest = [lp.var for lp in self.nest.loops() if lp.var in weights and lp.var not in prefix]
        # a scalar private to each iteration of the weighed loops is each thread's own, whatever
        # it does in the loops inside them
        if any(how != "private" for v in (*prefix, *rest) for how in self._scalars.get(v, {}).values()):
            return False
        down = {lp.var for lp in self.nest.loops() if lp.descending}

        def later_not_after(a: dict[str, str], b: dict[str, str]) -> list[str]:
            earlier = " or ".join(
                "("
                + " and ".join(
                    [f"{a[v]} = {b[v]}" for v in rest[:k]]
                    + [f"{a[rest[k]]} {'>' if rest[k] in down else '<'} {b[rest[k]]}"]
                )
                + ")"
                for k in range(len(rest))
            )
            wave = " + ".join(
                f"{w}*{b[v]} - {w}*{a[v]}" if w >= 0 else f"{-w}*{a[v]} - {-w}*{b[v]}"
                for v in rest
                for w in [weights.get(v, 0)]
            )
            return [f"{a[v]} = {b[v]}" for v in prefix] + [f"({earlier})", f"{wave} <= 0"]

        loops = (*prefix, *rest)
        return not any(
            _meet(self.nest, p, loops, later_not_after)
            for pair in self._pairs
            for p in (pair, _Pair(pair.second, pair.first, pair.reduction, pair.opaque))
        )

    def _sequential(self, var: str) -> str | None:
        """Why the loop's iterations must run in order whatever its accesses (a ``break``, a
        write to what a loop's bounds read); None where nothing does."""
        written = self.bounds_written.get(var)
        return self.stops.get(var) or (written[0][1] if written else None)

    def array_conflict(self, var: str, summed: bool = False) -> tuple[Access, Access, bool, str | None] | None:
        """The first pair of array accesses that touch one element in different iterations of
        ``var``: (a write, the other access, whether both are updates of one reduction, the
        access that is not affine); None when the loop's iterations touch disjoint elements
        (atomic updates aside, and with ``summed`` every sum atomicAdd makes: summed_along)."""
        for k, pair in enumerate(self._pairs):
            if not (pair.atomic or (summed and pair.summed)) and self._pair_differs(k, var):
                (a, _), (b, _) = pair.first, pair.second
                write, other = (a.access, b.access) if a.access.write else (b.access, a.access)
                return write, other, pair.reduction, pair.opaque
        return None

    def summed_along(self, var: str) -> frozenset[Stmt]:
        """The statements whose updates of one sum touch one element in different iterations of
        ``var``, of types atomicAdd adds: a kernel that runs those iterations at once makes them
        with it."""
        owner = {id(a): st for st, _ in statements(self.nest.body) for a in st.accesses}
        return frozenset(
            owner[id(s.access)]
            for k, pair in enumerate(self._pairs)
            if pair.summed and self._pair_differs(k, var)
            for s, _ in (pair.first, pair.second)
        )

    def kernel_atomics(self, outer: str | None) -> frozenset[Stmt]:
        """The statements a kernel makes with atomicAdd: every sum through a subscript that is not
        affine, and under Orio's mapping (``outer``: its loop on the threads) the sums along it."""
        return self.atomics | (self.summed_along(outer) if outer is not None else frozenset())

    def global_reduction(self, scalar: str) -> str | None:
        """The operator of a scalar only ever updated with it in the nest (a reduction across all
        threads); None for any other scalar."""
        for roles in self._scalars.values():
            how = roles.get(scalar)
            if how is not None:
                return how.split(":")[1] if how.startswith("reduce-global:") else None
        return None

    def private(self, var: str) -> set[str]:
        """Scalars each iteration of ``var`` assigns before reading them."""
        return {s for s, how in self._scalars.get(var, {}).items() if how == "private"}

    def scalar_reductions(self, var: str) -> dict[str, str]:
        """Scalars reduced along ``var`` that a reduction across its threads must combine: name -> operator."""
        return {s: how.split(":")[1] for s, how in self._scalars.get(var, {}).items() if how.startswith("reduce:")}

    def _why(self, scalar: str) -> str:
        return why_carried([st.node for st, _ in statements(self.nest.body)], scalar, self.nest.variables)

    def _pair_differs(self, k: int, var: str) -> bool:
        if (k, var) not in self._differs:
            self._differs[(k, var)] = _differs(self.nest, self._pairs[k], var)
        return self._differs[(k, var)]


def dependences(nest: LoopNest) -> Dependences:
    """The dependences of a nest, per loop (found once a nest: a pair of accesses costs isl a
    third of a millisecond, and every variant's code generation asks)."""
    key = ("dependences", id(nest.body))
    if key not in nest.memo:
        nest.memo[key] = _dependences(nest)
    return nest.memo[key]


def _dependences(nest: LoopNest) -> Dependences:
    deps = Dependences(nest)
    arrays = shapes(nest, defined=True)  # k = i*cols + j; ... dN[k]: dN[i*cols + j] for the analysis
    order = {id(st): k for k, (st, _) in enumerate(statements(nest.body))}
    owner = {id(acc): st for st, _ in statements(nest.body) for acc in st.accesses}
    reductions = _array_reductions(nest)
    summed = {id(st): st for st, _ in statements(nest.body) if _atomic_sum(st, nest.variables)}
    atomics: set[Stmt] = set()
    for _name, accesses in arrays.items():
        located = [(sh, order[id(owner[id(sh.access)])]) for sh in accesses]
        for a, b in combinations_with_replacement(located, 2):
            if not (a[0].access.write or b[0].access.write):
                continue
            if None not in (a[0].access.member, b[0].access.member) and a[0].access.member != b[0].access.member:
                continue  # pos[i].x and pos[j].y: other fields of the elements never overlap
            unexact = next((s.access.text for s, _ in (a, b) if not s.exact), None)
            same_update = {reductions.get(id(owner[id(s.access)])) for s, _ in (a, b)}
            reduction = (
                len(same_update) == 1
                and None not in same_update
                and all(s.access.text == next(iter(same_update))[0] for s, _ in (a, b))
            )
            sums = [summed.get(id(owner[id(s.access)])) for s, _ in (a, b)]
            added = reduction and None not in sums
            if added and unexact is not None:
                atomics.update(st for st in sums if st is not None)
            deps._pairs.append(_Pair(a, b, reduction, unexact, added, added and unexact is not None))
    deps.atomics = frozenset(atomics)
    deps._scalars = _scalar_roles(nest)
    deps.bounds_written = _bounds_written(nest)
    for loop in nest.loops():
        conflicts: list[Conflict] = []
        opaque: list[str] = []
        for jump in loop.jumps_of("break"):
            deps.stops[loop.var] = (
                f"the 'break' on line {jump.loc.line} stops the loop on '{loop.var}' where its data say: "
                "its iterations run in order, one after the other"
            )
            conflicts.append(Conflict(f"the 'break' on line {jump.loc.line} ends its iterations early"))
        for k, pair in enumerate(deps._pairs):
            if _carried(nest, pair, loop) and deps._pair_differs(k, loop.var):
                conflicts.append(Conflict(pair.text(), pair.reduction, pair.atomic))
                if pair.opaque:
                    opaque.append(pair.opaque)
        conflicts += [Conflict(why) for _, why in deps.bounds_written.get(loop.var, ())]
        for scalar, how in deps._scalars.get(loop.var, {}).items():
            if how == "carried":
                conflicts.append(
                    Conflict(f"'{scalar}' carries a value from one iteration to the next" + deps._why(scalar))
                )
            elif how.startswith("reduce"):
                conflicts.append(Conflict(f"'{scalar}' is reduced with '{how.split(':')[1]}'", reduction=True))
        deps.loops[loop.var] = LoopFacts(loop.var, tuple(dict.fromkeys(conflicts)), tuple(dict.fromkeys(opaque)))
    return deps


def _bounds_written(nest: LoopNest) -> dict[str, list[tuple[Location, str]]]:
    """By loop iterator: why its iterations are tied by a loop whose bounds read an array that a
    statement of both writes (an iteration may move where a later one's loop stops)."""
    placed: list[tuple[Loop, tuple[Loop, ...]]] = []  # each loop with those around it, itself last

    def walk(nodes, around: tuple[Loop, ...]) -> None:
        for n in nodes:
            if isinstance(n, Loop):
                placed.append((n, around + (n,)))
                walk(n.body, around + (n,))

    walk(nest.body, ())
    out: dict[str, list[tuple[Location, str]]] = {}
    for st, loops in statements(nest.body):
        written = {a.array: a for a in st.accesses if a.write}
        for bounded, chain in placed:
            read = next((a for a in bounded.bound_reads if a.array in written), None)
            if read is None:
                continue
            why = (
                f"'{written[read.array].text}' (line {st.loc.line}) writes what the bounds of the loop on "
                f"'{bounded.var}' read ('{read.text}')"
            )
            for lp in chain:
                if any(lp is other for other in loops):
                    out.setdefault(lp.var, []).append((written[read.array].loc, why))
    return out


def _carried(nest: LoopNest, pair: _Pair, loop: Loop) -> bool:
    """Whether both accesses are inside ``loop`` (only then can it join their iterations)."""
    return all(any(lp is loop for lp in s.loops) for s, _ in (pair.first, pair.second))


# -- reductions and scalars ------------------------------------------------------------------
def _array_reductions(nest: LoopNest) -> dict[int, tuple[str, str]]:
    """Statements that update an array element with one operator: id -> (target text, operator)."""
    out = {}
    for st, _ in statements(nest.body):
        target = array_update(st.node, nest.variables)
        if target is not None:
            out[id(st)] = target
    return out


@dataclass(frozen=True)
class Update:
    """An update of one array element with one operator, as array_update reads it."""

    target: c_ast.ArrayRef
    op: str  # "+" (also of -=, ++ and --) or "*"
    value: c_ast.Node  # what each update adds or multiplies by
    negated: bool  # -= and --: the value is subtracted
    test: c_ast.Node | None  # the test of the ``if`` around it


def array_update(node: c_ast.Node, variables: Mapping[str, Variable]) -> tuple[str, str] | None:
    """``A[...] op= e``, ``A[...] = A[...] op e`` with e free of the target, or ``A[...]++``
    (``--``), alone or under an ``if`` whose test does not read the target (skipped, it adds
    nothing), where C's conversions at each step let the updates be reordered
    (analysis/conversions.py): (target text, operator)."""
    update = read_update(node, variables)
    return None if update is None else (c_text(update.target), update.op)


def read_update(node: c_ast.Node, variables: Mapping[str, Variable]) -> Update | None:
    """The parts of an update array_update accepts; None for any other statement."""
    if isinstance(node, c_ast.If) and node.iffalse is None:
        inner = node.iftrue
        if isinstance(inner, c_ast.Compound) and len(inner.block_items or []) == 1:
            inner = inner.block_items[0]
        update = read_update(inner, variables)
        if update is None or _mentions(node.cond, c_text(update.target)):
            return None
        test = node.cond if update.test is None else c_ast.BinaryOp("&&", node.cond, update.test)
        return Update(update.target, update.op, update.value, update.negated, test)
    found = None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "p++", "--", "p--"):
        if isinstance(node.expr, c_ast.ArrayRef):
            found = Update(node.expr, "+", c_ast.Constant("int", "1"), "--" in node.op, None)
    elif isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ArrayRef):
        target, rhs = c_text(node.lvalue), node.rvalue
        if node.op in ("+=", "-=", "*=") and not _mentions(rhs, target):
            found = Update(node.lvalue, "*" if node.op == "*=" else "+", rhs, node.op == "-=", None)
        elif node.op == "=" and isinstance(rhs, c_ast.BinaryOp) and rhs.op in ("+", "*"):
            for this, other in ((rhs.left, rhs.right), (rhs.right, rhs.left)):
                if c_text(this) == target and not _mentions(other, target):
                    found = Update(node.lvalue, rhs.op, other, False, None)
                    break
    if found is None:
        return None
    element = expression_type(found.target, variables)
    if element is None or reorder_problem(element, found.op, found.value, variables) is not None:
        return None
    return found


def _atomic_sum(st: Stmt, variables: Mapping[str, Variable]) -> bool:
    """Whether the statement is a sum into an array element of a type atomicAdd adds."""
    update = read_update(st.node, variables)
    atomic = ATOMIC_SUMS + ATOMIC_AS_UNSIGNED
    return update is not None and update.op == "+" and expression_type(update.target, variables) in atomic


def _mentions(node: c_ast.Node, target: str) -> bool:
    class Finder(c_ast.NodeVisitor):
        found = False

        def visit_ArrayRef(self, n: c_ast.ArrayRef) -> None:
            if c_text(n) == target:
                self.found = True
            self.generic_visit(n)

    finder = Finder()
    finder.visit(node)
    return finder.found


def _scalar_roles(nest: LoopNest) -> dict[str, dict[str, str]]:
    """For each loop, the written scalars it touches: "private" (assigned first in every
    iteration), "reduce:op" (only updated with op inside it), "reduce-global:op"... or "carried"."""
    # Scalars declared in the nest too: `double s = 0;` in the loop on rows is private to that
    # loop and reduced by the loop inside it (a row of threads must fold it).
    written = {n for st, _ in statements(nest.body) for n in st.scalar_writes}
    written = {n for n in written if n in nest.variables}
    iterators = {lp.var for lp in nest.loops()}
    written -= iterators
    global_ops = {}
    for s in written:
        ops = {
            match_reduction(st.node, nest.variables)
            for st, _ in statements(nest.body)
            if s in st.scalar_reads | st.scalar_writes
        }
        if len(ops) == 1 and None not in ops and next(iter(ops))[0] == s:
            global_ops[s] = next(iter(ops))[1]
    out: dict[str, dict[str, str]] = {}
    for loop in nest.loops():
        roles = {}
        for s in sorted(written):
            inside = [st for st, _ in statements(loop.body) if s in st.scalar_reads | st.scalar_writes]
            if not inside or not any(s in st.scalar_writes for st in inside):
                continue
            if s in global_ops:
                roles[s] = f"reduce-global:{global_ops[s]}"
            elif assigned_before_read(loop, s):
                roles[s] = "private"
            else:
                ops = {match_reduction(st.node, nest.variables) for st in inside}
                if len(ops) == 1 and None not in ops and next(iter(ops))[0] == s:
                    roles[s] = f"reduce:{next(iter(ops))[1]}"
                else:
                    roles[s] = "carried"
        out[loop.var] = roles
    return out


# -- isl ---------------------------------------------------------------------------------------
def _differs(nest: LoopNest, pair: _Pair, var: str) -> bool:
    """Whether two instances of the pair's accesses touch one element with different values
    of the iterator ``var`` (an ordered pair either way: the same question)."""
    return _meet(nest, pair, (var,), lambda a, b: [f"{a[var]} != {b[var]}"])


def same_element(nest: LoopNest, a: Shaped, b: Shaped, same: tuple[str, ...]) -> bool:
    """Whether the two accesses can touch one element with equal values of the iterators
    ``same`` (of loops around both): an access that is not affine or not exact touches any."""
    opaque = next((s.access.text for s in (a, b) if not s.exact), None)
    return _meet(nest, _Pair((a, 0), (b, 0), False, opaque), same, lambda x, y: [f"{x[v]} = {y[v]}" for v in same])


def _reversed(nest: LoopNest, pair: _Pair, outer: str, inner: str) -> bool:
    """Whether two instances of the pair's accesses touch one element with ``outer`` earlier
    and ``inner`` later in one of them: swapping the loops would swap the two."""
    return any(
        _meet(nest, p, (outer, inner), lambda a, b: [f"{a[outer]} < {b[outer]}", f"{a[inner]} > {b[inner]}"])
        for p in (pair, _Pair(pair.second, pair.first, pair.reduction, pair.opaque))
    )


def _meet(nest: LoopNest, pair: _Pair, loops: tuple[str, ...], relation) -> bool:
    """Whether two instances of the pair's accesses, both inside ``loops``, touch one element
    with their iterators in ``relation`` (a function of both sides' isl names giving
    constraints). Non-affine accesses meet whenever both sit in the loops."""
    (a, _), (b, _) = pair.first, pair.second
    if not all(any(lp.var == var for lp in s.loops) for s in (a, b) for var in loops):
        return False  # one of them is outside a loop: its iterations do not meet there
    if pair.opaque or a.dims is None or b.dims is None or len(a.dims) != len(b.dims):
        return True
    space = _Space()
    left = space.instance(a.loops, "a")
    right = space.instance(b.loops, "b")
    constraints = left + right + space.instance(nest.context, "", fixed=True)
    names_a, names_b = _names(a.loops, "a"), _names(b.loops, "b")
    constraints += space.guards(a.guards, names_a) + space.guards(b.guards, names_b)
    for da, db in zip(a.dims, b.dims):
        ea, eb = space.expr(da, names_a), space.expr(db, names_b)
        if ea is None or eb is None:
            return True
        constraints.append(f"{ea} = {eb}")
    dims = list(names_a.values()) + list(names_b.values())
    text = f"[{', '.join(sorted(space.params))}] -> {{ [{', '.join(dims)}] : {' and '.join(constraints + relation(names_a, names_b))} }}"
    return not isl.Set(text).is_empty()


def _names(loops: tuple[Loop, ...], side: str) -> dict[str, str]:
    return {lp.var: f"{side}{k}" for k, lp in enumerate(loops)}


class _Space:
    """isl text for polynomials: iterators renamed, sizes as parameters (a product of sizes as
    one parameter of its own)."""

    def __init__(self) -> None:
        self.params: set[str] = set()
        self.steps = 0

    def expr(self, p: Poly, iterators: dict[str, str]) -> str | None:
        if not is_affine(p, set(iterators)):
            return None
        terms = []
        for monomial, coef in p.terms:
            if not monomial:
                terms.append(str(coef))
                continue
            if monomial[0] in iterators:
                name = iterators[monomial[0]]
            else:
                name = "_".join(monomial) if len(monomial) > 1 else monomial[0]
                name = f"orcu_{name}" if len(monomial) > 1 else name
                self.params.add(name)
            terms.append(f"{coef}*{name}")
        return " + ".join(terms) or "0"

    def guards(self, guards, names: dict[str, str]) -> list[str]:
        """The constraints of the conditions that chose an access's subscript (x != 0)."""
        out = []
        for var, op, value in guards:
            rhs = self.expr(value, names)
            if not var and rhs is not None:  # of several iterators: value op 0
                out.append(f"{rhs} {'=' if op == '==' else op} 0" if op != "!=" else f"({rhs} < 0 or {rhs} > 0)")
            elif var in names and rhs is not None:
                x = names[var]
                out.append(f"({x} < {rhs} or {x} > {rhs})" if op == "!=" else f"{x} {'=' if op == '==' else op} {rhs}")
        return out

    def instance(self, loops: tuple[Loop, ...], side: str, fixed: bool = False) -> list[str]:
        """The constraints of the iteration domain of these loops (affine bounds only: the
        others are left out, which can only add pairs). ``fixed``: loops around the kernel, whose
        iterators are parameters (one value for both instances of a pair)."""
        names = {lp.var: lp.var for lp in loops} if fixed else _names(loops, side)
        if fixed:
            self.params.update(names.values())
        outer: dict[str, str] = {}
        out = []
        for lp in loops:
            me = names[lp.var]
            lower, upper = poly_of(lp.lower), poly_of(lp.upper)
            lo = self.expr(lower, outer) if lower is not None else None
            hi = self.expr(upper, outer) if upper is not None else None
            if lo is not None:
                out.append(f"{me} >= {lo}")
                if lp.step != 1:
                    self.steps += 1
                    out.append(f"exists (e{self.steps} : {me} = {lo} + {lp.step}*e{self.steps})")
            if hi is not None:
                out.append(f"{me} < {hi}")
            outer[lp.var] = me
        return out
