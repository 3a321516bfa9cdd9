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

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

import islpy as isl
from pycparser import c_ast
from pycparser.c_parser import CParser

from orcu.analysis.affine import Poly, loop_bounds, poly_of, value_range
from orcu.analysis.poly import dependences
from orcu.analysis.scalars import assigned_before_read, match_reduction
from orcu.analysis.subscripts import is_affine, shapes
from orcu.errors import AnalysisError
from orcu.frontend.cparse import parse_expression
from orcu.frontend.ir import Loop, LoopNest, Stmt, Variable, c_text, statements
from orcu.frontend.lower import Lowering, loc_of
from orcu.frontend.source import SourceFile
from orcu.frontend.types import used_names

# isl's Pluto-like scheduler takes minutes on a 3-D stencil with a time loop (PPCG: 11 min on
# heat-3d); past this many of isl's operations a schedule is given up for the next option.
MAX_OPERATIONS = 2_000_000


@dataclass(frozen=True)
class Scheduled:
    """The region's code as scheduled."""

    items: list  # its statements (pycparser), each kernel one of the loops among them
    kernels: list  # the loops that become kernels, in program order
    how: str  # which schedule: see OPTIONS
    tree: str  # the schedule tree (isl's, or the loops as written), one node a line
    host: tuple[str, ...]  # each statement left to the host, with why
    tried: tuple[str, ...] = ()  # the options given up before, with why
    # Of each of the statements in the most loops (the bulk of the work), the parallel loops of
    # its kernel's outer band (0 on the host), summed: the schedule kept is the one with the most,
    # then the one with the fewest kernels in host loops, then the one with the fewest kernels
    # (isl's fusion can leave a product one parallel loop where distributed it has two: 2mm;
    # elsewhere fused kernels pass over the data fewer times).
    parallel: int = 0
    repeated: int = 0  # kernels inside host loops (launched once an iteration of them)
    # arrays given one copy per iteration of the loops they are private to, or read from a copy
    expanded: tuple[str, ...] = ()


# Why a region's code stays as written where that is the schedule (not a failure to report).
PERFECT = "one perfect nest: the TSG orders and maps its loops itself"
THROUGHOUT = "one nest with a loop around all of its statements that runs in parallel: the TSG maps it"
SERIAL = "no loop runs in parallel"
AS_WRITTEN = "the loops as written are the schedule"
SCHEDULE_KEPT = (PERFECT, THROUGHOUT, SERIAL, AS_WRITTEN)

# Schedules tried in order: (name, isl options); None: the loops as written.
OPTIONS = (
    ("isl, fused (outer coincidence)", {"outer_coincidence": 1, "serialize_sccs": 0}),
    ("isl, one band per strongly connected component", {"outer_coincidence": 1, "serialize_sccs": 1}),
    ("the loops as written", None),
)


class _Unfit(Exception):
    """A schedule that the loops as written cannot express."""


@dataclass
class _Statement:
    name: str  # S0, S1, ... in program order
    stmt: Stmt
    loops: tuple[Loop, ...]


@dataclass
class _Model:
    statements: list[_Statement]
    domain: isl.UnionSet
    order: isl.UnionMap  # the program order: statement instance -> 2d+1 schedule
    deps: isl.UnionMap  # validity (and proximity)
    coincidence: isl.UnionMap
    by_name: dict = field(default_factory=dict)
    position: dict = field(default_factory=dict)  # block (ids of its loops) -> statement or loop id -> place
    # each private scalar's copies: (the statements of one copy, the iterators indexing it)
    live_ranges: list = field(default_factory=list)
    reads: dict = field(default_factory=dict)  # array -> its reads (statement instance -> element)
    writes: dict = field(default_factory=dict)  # ... and writes
    exact: set = field(default_factory=set)  # the arrays whose every access is affine and exact
    expanded: dict = field(default_factory=dict)  # array -> the loops it has one copy per iteration of
    before: dict = field(default_factory=dict)  # (statement, access) -> array: reads of values from before the region
    read_sites: list = field(default_factory=list)  # (statement, access, array, its map as isl text)


def schedule_scop(
    src: SourceFile, items: list, variables: Mapping[str, Variable], functions: set[str], live_after: set[str]
) -> tuple[Scheduled | None, str]:
    """The region's statements scheduled (None where nothing changes, or the region is no scop:
    then the transform applies to its first loop, as Orio's does), and why not where None.
    ``live_after``: the names the code after the region may read."""
    arrays = {n: v for n, v in variables.items() if v.kind == "array"}
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
    if len(body) == 1 and _perfect(body[0]):
        return None, PERFECT
    if any(lp.jumps for lp in nest.loops()):
        return None, "not a scop: a loop holds 'break' or 'continue'"
    iterators = {lp.var for lp in nest.loops()}
    pointers = sorted({n for st, _ in statements(body) for n in st.scalar_writes if n in arrays})
    if pointers:  # after 'a = b;' the accesses a[...] name other data: the model's arrays would not be the program's
        return None, f"not a scop: the region assigns the pointer '{pointers[0]}'"
    if iterators & live_after:
        return None, f"'{sorted(iterators & live_after)[0]}' is read after the region: its loops keep their order"
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
                found.append(_emit(m, tree, label, _describe(m, tree), tuple(tried), variables))
            except _Unfit as e:
                tried.append(f"{label}: {e}")
    if not found:
        return None, "; ".join(tried)
    scheduled = max(found, key=lambda s: (s.parallel, -s.repeated, -len(s.expanded), -len(s.kernels)))
    if scheduled.how == OPTIONS[-1][0] and len(body) == 1 and _parallel_throughout(nest):
        return None, THROUGHOUT
    if not scheduled.kernels:
        return None, SERIAL
    if _unchanged(scheduled, items):
        return None, AS_WRITTEN
    return scheduled, ""


# -- the polyhedral model ---------------------------------------------------------------------
def _model(
    nest: LoopNest,
    variables: Mapping[str, Variable],
    live_after: set[str],
    expanded: Mapping[str, tuple[Loop, ...]] | None = None,
    early: Mapping[tuple, str] | None = None,
) -> _Model:
    """``expanded``: arrays with one copy per iteration of the loops given (``_private_arrays``);
    ``early``: the reads that read a copy of their array taken before the region (``_reads_before``)."""
    expanded, early = dict(expanded or {}), dict(early or {})
    found = [(st, loops) for st, loops in statements(nest.body)]
    stmts = [_Statement(f"S{k}", st, loops) for k, (st, loops) in enumerate(found)]
    by_stmt = {id(s.stmt): s for s in stmts}
    iterators = {lp.var for lp in nest.loops()}
    written = {n for s in stmts for n in s.stmt.scalar_writes} - iterators
    names = _Names()
    depth = max((len(s.loops) for s in stmts), default=0)
    domains, orders = [], []
    position: dict[tuple, int] = {}
    for s in stmts:
        dims = [names.iterator(lp.var) for lp in s.loops]
        cons = []
        for k, lp in enumerate(s.loops):
            outer = {o.var for o in s.loops[:k]}
            lo, hi = poly_of(lp.lower), poly_of(lp.upper)
            for p in (lo, hi):
                if p is None or not is_affine(p, outer) or any(n in written for m, _ in p.terms for n in m):
                    raise _Unfit(
                        f"the bounds of the loop on '{lp.var}' (line {lp.loc.line}) are not affine in the sizes "
                        f"and outer iterators"
                    )
            v = names.iterator(lp.var)
            cons += [f"{v} >= {names.expr(lo, outer)}", f"{v} < {names.expr(hi, outer)}"]
            if lp.step != 1:
                cons.append(f"exists (e : {v} = {names.expr(lo, outer)} + {lp.step}*e)")
        domains.append(f"{s.name}[{', '.join(dims)}] : {' and '.join(cons) or '0 = 0'}")
        # the program order: 2d+1 (text position, iterator, text position, ...); counting down, -iterator
        sched = []
        for k in range(depth + 1):
            key = tuple(id(lp) for lp in s.loops[:k])
            if k < len(s.loops):
                lp = s.loops[k]
                sched += [
                    str(_position(position, key, id(lp))),
                    ("-" if lp.descending else "") + names.iterator(lp.var),
                ]
            else:
                sched += [str(_position(position, key, id(s.stmt)))] + ["0"] * (2 * (depth - k))
                break
        orders.append(f"{s.name}[{', '.join(dims)}] -> [{', '.join(sched)}]")
    params = ", ".join(sorted(names.params))
    domain = isl.UnionSet(f"[{params}] -> {{ {'; '.join(domains)} }}")
    order = isl.UnionMap(f"[{params}] -> {{ {'; '.join(orders)} }}").intersect_domain(domain)

    reads: list = []
    writes: list = []
    reduce_self: list = []
    arrays = shapes(nest, defined=True)
    access_of = {}
    for name, shaped in arrays.items():
        ndims = {len(sh.dims) for sh in shaped if sh.dims is not None}
        whole = any(sh.dims is None or not sh.exact for sh in shaped) or len(ndims) > 1
        for sh in shaped:
            access_of[id(sh.access)] = (name, None if whole else sh.dims)
    privates = _scalar_groups(stmts, written, live_after)
    inexact: set[str] = {name for name, shaped in arrays.items() if access_of[id(shaped[0].access)][1] is None}
    array_reads: dict[str, list[str]] = {}
    array_writes: dict[str, list[str]] = {}
    read_sites: list[tuple] = []
    for s in stmts:
        dims = [names.iterator(lp.var) for lp in s.loops]
        vars_ = {lp.var for lp in s.loops}
        head = f"{s.name}[{', '.join(dims)}]"
        mine = []
        for site, acc in enumerate(s.stmt.accesses):
            name, subs = access_of[id(acc)]
            target = names.array(name) + ("_b" if (s.name, site) in early else "")
            if subs is None or not all(
                is_affine(p, vars_) and not any(n in written for m, _ in p.terms for n in m if n not in vars_)
                for p in subs
            ):
                element = f"{target}[]"
                inexact.add(name)
            elif name in expanded:
                copies = [names.iterator(lp.var) for lp in expanded[name]]
                element = f"{target}_x[{', '.join(copies + [names.expr(p, vars_) for p in subs])}]"
            else:
                element = f"{target}[{', '.join(names.expr(p, vars_) for p in subs)}]"
            mine.append((acc.write, f"{head} -> {element}", False))
            (array_writes if acc.write else array_reads).setdefault(name, []).append(f"{head} -> {element}")
            if not acc.write:
                read_sites.append((s.name, site, name, f"{head} -> {element}"))
        update = match_reduction(s.stmt.node, variables)
        for scalar in sorted((s.stmt.scalar_reads | s.stmt.scalar_writes) & written):
            index = privates.get((scalar, id(s.stmt)))
            group, loops = index if index is not None else ("", ())
            element = f"{names.array(scalar + group)}[{', '.join(names.iterator(v) for v in loops)}]"
            is_target = update is not None and update[0] == scalar
            if scalar in s.stmt.scalar_reads:
                mine.append((False, f"{head} -> {element}", is_target))
            if scalar in s.stmt.scalar_writes:
                mine.append((True, f"{head} -> {element}", is_target))
        for write, text, _ in mine:
            (writes if write else reads).append(text)
        targets = [text for _, text, t in mine if t]
        others = [text for _, text, t in mine if not t]
        if targets:
            reduce_self.append((targets, others))

    def umap(texts):
        return (
            isl.UnionMap(f"[{params}] -> {{ {'; '.join(texts)} }}").intersect_domain(domain)
            if texts
            else isl.UnionMap.empty(domain.get_space())
        )

    w, r = umap(writes), umap(reads)
    before = order.lex_lt_union_map(order)
    touch = w.apply_range(w.reverse()).union(w.apply_range(r.reverse())).union(r.apply_range(w.reverse()))
    deps = touch.intersect(before)
    # updates of one scalar reduction: not coincidence constraints (pairs through its other
    # accesses still are)
    relaxed = isl.UnionMap.empty(deps.get_space())
    kept = isl.UnionMap.empty(deps.get_space())
    for targets, others in reduce_self:
        t = umap(targets)
        relaxed = relaxed.union(t.apply_range(t.reverse()))
        if others:
            o = umap(others)
            kept = (
                kept.union(t.apply_range(o.reverse()))
                .union(o.apply_range(t.reverse()))
                .union(o.apply_range(o.reverse()))
            )
    coincidence = deps.subtract(relaxed.intersect(before)).union(kept.intersect(before).intersect(deps))
    ranges: dict = {}
    for (held, stmt_id), (group, where) in privates.items():
        ranges.setdefault((held, group), (set(), where))[0].add(by_stmt[stmt_id].name)
    return _Model(
        stmts,
        domain,
        order,
        deps.coalesce(),
        coincidence.coalesce(),
        {s.name: s for s in stmts},
        position,
        list(ranges.values()),
        {a: umap(t) for a, t in array_reads.items()},
        {a: umap(t) for a, t in array_writes.items()},
        set(arrays) - inexact,
        expanded,
        early,
        [(st, site, a, umap([t])) for st, site, a, t in read_sites],
    )


def _perfect(node) -> bool:
    """A loop whose body is one loop, down to a body of statements only."""
    while isinstance(node, Loop):
        if len(node.body) == 1 and isinstance(node.body[0], Loop):
            node = node.body[0]
        else:
            return not any(isinstance(n, Loop) for n in node.body)
    return True


def _parallel_throughout(nest: LoopNest) -> bool:
    """Whether a loop around every statement of the nest has no dependence between its
    iterations (the TSG can map the nest as it is, moving that loop out where it must)."""
    around = [loops for _, loops in statements(nest.body)]
    deps = dependences(nest)
    return any(
        all(any(lp is other for other in loops) for loops in around) and deps.loops[lp.var].parallel
        for lp in nest.loops()
    )


def _private_arrays(model: _Model, nest: LoopNest, variables: Mapping[str, Variable]) -> dict[str, tuple[Loop, ...]]:
    """Arrays private to loops around all of their accesses (doitgen's ``sum[p]`` in the loops on
    r and q): each iteration of those loops writes every element it reads before reading it, and
    the same elements whatever the iteration (their subscripts and loop bounds read none of those
    loops' iterators). One copy of each per iteration of them ties nothing together; the last
    iteration's copy is the array's value after the loops. Declared arrays of a built-in type
    only (the copies are allocated by their element type and declared sizes); the loops' bounds
    read only sizes."""
    out = {}
    for name, writes in model.writes.items():
        v = variables.get(name)
        if v is None or v.ctype.base not in _BUILTIN or name not in model.exact or name not in model.reads:
            continue
        users = _users(model, name)
        if not v.ctype.dims and _extent(name, users) is None:
            continue
        if any(a.write and not isinstance(u.stmt.node, c_ast.Assignment) for u in users for a in u.stmt.accesses):
            continue  # a write under an 'if' may not happen: the reads after it may see an earlier iteration's value
        around = []
        for lp in _common(users):
            bounds = [poly_of(lp.lower), poly_of(lp.upper)]
            if lp.step != 1 or any(
                b is None or any(n in {o.var for o in nest.loops()} for m, _ in b.terms for n in m) for b in bounds
            ):
                break
            around.append(lp)
        mine = {lp.var for lp in around}
        for u in users:  # the elements touched may not depend on the iteration of those loops
            read = [b for lp in u.loops if lp not in around for b in (lp.lower, lp.upper)]
            read += [sub for a in u.stmt.accesses if a.array == name for sub in a.subscripts]
            if mine & set(used_names(read)):
                around = []
        if not around:
            continue
        flow = (
            isl.UnionAccessInfo.from_sink(model.reads[name])
            .set_must_source(writes)
            .set_schedule_map(model.order)
            .compute_flow()
        )
        if not flow.get_may_no_source().is_empty():
            continue  # a read of a value from before the loops
        same = True
        for m in _maps(flow.get_must_dependence()):
            src_loops = model.by_name[m.get_tuple_name(isl.dim_type.in_)].loops
            dst_loops = model.by_name[m.get_tuple_name(isl.dim_type.out)].loops
            equal = m
            for lp in around:
                equal = equal.equate(isl.dim_type.in_, src_loops.index(lp), isl.dim_type.out, dst_loops.index(lp))
            same &= m.is_subset(equal)
        if same:
            out[name] = tuple(around)
    return out


def _reads_before(model: _Model, variables: Mapping[str, Variable]) -> dict[tuple, str]:
    """The reads of arrays the region writes that always read a value from before the region
    (trmm's ``B[k][j]``, k > i: row k is overwritten later): (statement, access) -> array. Read
    from a copy of the array taken before the region, they leave the writes free to run first."""
    out = {}
    sized = {
        name: bool(v.ctype.dims) or _extent(name, _users(model, name)) is not None
        for name, v in variables.items()
        if name in model.writes and name in model.exact and v.ctype.base in _BUILTIN
    }
    for st, site, name, sink in model.read_sites:
        if not sized.get(name):
            continue  # not an array written here of a built-in type whose elements orcu can count
        accesses = model.by_name[st].stmt.accesses
        if any(a.write and a.subscripts and a.subscripts[-1] is accesses[site].subscripts[-1] for a in accesses):
            continue  # the target of an update (y[0] += ...): one element, read and written
        flow = (
            isl.UnionAccessInfo.from_sink(sink)
            .set_may_source(model.writes[name])
            .set_schedule_map(model.order)
            .compute_flow()
        )
        if flow.get_may_dependence().is_empty():
            out[(st, site)] = name
    return out


def _extent(name: str, users: list) -> str | None:
    """The elements a pointer indexed with one subscript is accessed at: one past the largest
    subscript, where all of its accesses agree on it; None elsewhere."""
    ends = set()
    for u in users:
        bounds = loop_bounds(u.loops)
        for a in u.stmt.accesses:
            if a.array != name:
                continue
            p = poly_of(a.subscripts[0]) if len(a.subscripts) == 1 else None
            span = value_range(p, bounds) if p is not None and bounds is not None else None
            if span is None:
                return None
            ends.add(span[1] + Poly.const(1))
    return next(iter(ends)).c_expr() if len(ends) == 1 else None


def _users(model: _Model, name: str) -> list[_Statement]:
    """The statements that access the array ``name``."""
    return [s for s in model.statements if any(a.array == name for a in s.stmt.accesses)]


def _common(statements_: list[_Statement]) -> tuple[Loop, ...]:
    """The loops around all of the statements, outermost first."""
    common = statements_[0].loops
    for s in statements_[1:]:
        common = tuple(a for a, b in zip(common, s.loops) if a is b)
    return common


_BUILTIN = {
    "double",
    "float",
    "int",
    "long",
    "long long",
    "unsigned",
    "unsigned int",
    "short",
    "char",
    "unsigned long",
    "unsigned long long",
    "signed char",
    "unsigned char",
    "unsigned short",
}


def _position(position: dict, key, child) -> int:
    """The place of ``child`` among the statements and loops of one block (the 2d+1 schedule's constants)."""
    slot = position.setdefault(key, {})
    return slot.setdefault(child, len(slot))


def _scalar_groups(
    stmts: list[_Statement], written: set[str], live_after: set[str]
) -> dict[tuple[str, int], tuple[str, tuple[str, ...]]]:
    """Per (scalar, statement): the name of its copy and the iterators that index it, for
    scalars private to loops (each outermost such loop a copy of its own, indexed by the
    iterators of the loops around and of those inside that hold every access and assign it
    first); scalars left out are one element."""
    out = {}
    for scalar in sorted(written - live_after):
        users = [s for s in stmts if scalar in s.stmt.scalar_reads | s.stmt.scalar_writes]
        groups: dict[int, list[_Statement]] = {}
        for s in users:
            outer = next((lp for lp in s.loops if assigned_before_read(lp, scalar)), None)
            if outer is None:
                break
            groups.setdefault(id(outer), []).append(s)
        else:
            for g, (_, members) in enumerate(groups.items()):
                common = _common(members)
                # every loop around the group (outer ones: its copy per iteration of them) and
                # those of its own where the scalar is assigned first
                first = next(k for k, lp in enumerate(common) if assigned_before_read(lp, scalar))
                index = tuple(lp.var for lp in common[:first]) + tuple(
                    lp.var for lp in common[first:] if assigned_before_read(lp, scalar)
                )
                for s in members:
                    out[(scalar, id(s.stmt))] = (f"_{g}", index)
    return out


class _Names:
    """isl names: iterators and sizes prefixed (a C name may be an isl keyword), a product of
    sizes one parameter of its own."""

    def __init__(self) -> None:
        self.params: set[str] = set()

    @staticmethod
    def iterator(var: str) -> str:
        return f"i_{var}"

    @staticmethod
    def array(name: str) -> str:
        return f"a_{name}"

    def expr(self, p: Poly, iterators: set[str]) -> str:
        terms = []
        for monomial, coef in p.terms:
            if not monomial:
                terms.append(str(coef))
            elif monomial[0] in iterators:
                terms.append(f"{coef}*{self.iterator(monomial[0])}")
            else:
                name = "p_" + "__".join(monomial)
                self.params.add(name)
                terms.append(f"{coef}*{name}")
        return " + ".join(terms) or "0"


# -- schedules as trees -----------------------------------------------------------------------
@dataclass
class _Band:
    members: list  # per member: {statement name: its iterator}
    coincident: list
    child: object


@dataclass
class _Sequence:
    children: list


@dataclass
class _Leaf:
    names: list  # statement names, in program order


def _isl_tree(model: _Model, options: Mapping[str, int]):
    ctx = model.domain.get_ctx()
    saved = {k: getattr(ctx, f"get_schedule_{k}")() for k in options}
    ops = ctx.get_max_operations()
    try:
        for k, v in options.items():
            getattr(ctx, f"set_schedule_{k}")(v)
        ctx.set_max_operations(MAX_OPERATIONS)
        ctx.reset_operations()
        sc = (
            isl.ScheduleConstraints.on_domain(model.domain)
            .set_validity(model.deps)
            .set_proximity(model.deps)
            .set_coincidence(model.coincidence)
        )
        try:
            schedule = sc.compute_schedule()
        except isl.Error as e:
            raise _Unfit(
                f"isl gave no schedule within {MAX_OPERATIONS} operations"
                if "quota" in str(e).lower() or "operations" in str(e).lower()
                else f"isl: {e}"
            ) from e
    finally:
        for k, v in saved.items():
            getattr(ctx, f"set_schedule_{k}")(v)
        ctx.set_max_operations(ops)
        ctx.reset_operations()
    return _from_isl(model, schedule.get_root().child(0))


def _from_isl(model: _Model, node: isl.ScheduleNode):
    kind = node.get_type()
    if kind == isl.schedule_node_type.leaf:
        names = _statement_names(node.get_domain())
        return _Leaf(sorted(names, key=lambda n: int(n[1:])))
    if kind in (isl.schedule_node_type.sequence, isl.schedule_node_type.set):
        children = [node.child(k) for k in range(node.n_children())]
        if kind == isl.schedule_node_type.set:  # unordered: program order
            children.sort(key=lambda c: min(int(n[1:]) for n in _statement_names(c.get_domain())))
        return _Sequence([_from_isl(model, c.child(0)) for c in children])
    if kind == isl.schedule_node_type.filter:
        return _from_isl(model, node.child(0))
    if kind == isl.schedule_node_type.band:
        partial = node.band_get_partial_schedule_union_map().intersect_domain(node.get_domain())
        members: list[dict] = [{} for _ in range(node.band_n_member())]
        for m in _maps(partial):
            name = m.get_tuple_name(isl.dim_type.in_)
            loops = model.by_name[name].loops
            pma = m.as_pw_multi_aff()
            if pma.n_piece() != 1:
                raise _Unfit(f"isl's schedule of {name} has several pieces")
            pieces = []
            pma.foreach_piece(lambda _set, ma: pieces.append(ma))  # noqa: B023 (called here, at once)
            for k in range(node.band_n_member()):
                members[k][name] = _member_of(pieces[0].get_at(k), loops, name)
        coincident = [bool(node.band_member_get_coincident(k)) for k in range(node.band_n_member())]
        return _Band(members, coincident, _from_isl(model, node.child(0)))
    raise _Unfit(f"isl's schedule holds a {kind} node")


def _statement_names(domain: isl.UnionSet) -> set[str]:
    return {s.get_tuple_name() for s in _sets(domain)}


def _member_of(aff: isl.Aff, loops: tuple[Loop, ...], name: str):
    """What one member of a band is for a statement: one of its iterators (its loop), or a
    value (a Poly in the sizes) where the statement is not inside that loop."""
    if not aff.get_denominator_val().is_one():
        raise _Unfit(f"isl scales {name}'s loops")
    used = [
        (k, aff.get_coefficient_val(isl.dim_type.in_, k))
        for k in range(aff.dim(isl.dim_type.in_))
        if not aff.get_coefficient_val(isl.dim_type.in_, k).is_zero()
    ]
    params = {
        aff.get_dim_name(isl.dim_type.param, k): aff.get_coefficient_val(isl.dim_type.param, k).to_python()
        for k in range(aff.dim(isl.dim_type.param))
        if not aff.get_coefficient_val(isl.dim_type.param, k).is_zero()
    }
    if not used:
        value: dict[tuple[str, ...], int] = {(): aff.get_constant_val().to_python()}
        for param, coef in params.items():
            value[tuple(param[2:].split("__"))] = coef
        return Poly.of(value)
    if params or not aff.get_constant_val().is_zero():
        raise _Unfit(f"isl shifts {name}'s loops")
    if len(used) != 1 or not used[0][1].is_one():
        raise _Unfit(f"isl skews or reverses {name}'s loops")
    loop = loops[used[0][0]]
    if loop.descending:
        raise _Unfit(f"isl reverses the loop on '{loop.var}' of {name}")
    return loop.var


def _as_written(model: _Model, body) -> object:
    """The loops as written, each a band of one member, coincident where no dependence joins
    two of its iterations."""
    by_stmt = {id(s.stmt): s for s in model.statements}
    dist = model.coincidence.apply_domain(model.order).apply_range(model.order)
    pairs = None if dist.is_empty() else isl.Map.from_union_map(dist)

    def carried(path: list[int]) -> bool:
        """Whether two instances inside one iteration of the loops around the loop at ``path``
        (its place and those of the loops around it) differ in its iterator."""
        if pairs is None:
            return False
        level = len(path) - 1
        m = pairs
        for d, place in enumerate(path):
            m = m.fix_val(isl.dim_type.in_, 2 * d, place).fix_val(isl.dim_type.out, 2 * d, place)
        for d in range(level):
            m = m.equate(isl.dim_type.in_, 2 * d + 1, isl.dim_type.out, 2 * d + 1)
        return not m.subtract(m.equate(isl.dim_type.in_, 2 * level + 1, isl.dim_type.out, 2 * level + 1)).is_empty()

    def walk(nodes, around: tuple, path: list[int]):
        out: list = []
        for n in nodes:
            if isinstance(n, Loop):
                inside = [by_stmt[id(st)] for st, _ in statements(n.body)]
                if not inside:
                    continue  # an empty loop does nothing (its iterator is not read after the region)
                here = path + [model.position[around][id(n)]]
                out.append(
                    _Band([{s.name: n.var for s in inside}], [not carried(here)], walk(n.body, around + (id(n),), here))
                )
            else:
                out.append(_Leaf([by_stmt[id(n)].name]))
        return out[0] if len(out) == 1 else _Sequence(out)

    return walk(body, (), [])


def _describe(model: _Model, tree) -> str:
    lines: list[str] = []

    def walk(t, pad: str) -> None:
        if isinstance(t, _Leaf):
            for name in t.names:
                st = model.by_name[name].stmt
                lines.append(f"{pad}{name}: {st.text}    # line {st.loc.line}")
        elif isinstance(t, _Sequence):
            lines.append(f"{pad}sequence")
            for c in t.children:
                walk(c, pad + "  ")
        else:
            members = []
            for member, coincident in zip(t.members, t.coincident):
                loops = sorted({v for v in member.values() if isinstance(v, str)})
                members.append(f"{'/'.join(loops) or '-'}{' (parallel)' if coincident else ''}")
            lines.append(f"{pad}band [{', '.join(members)}]")
            walk(t.child, pad + "  ")

    walk(tree, "")
    return "\n".join(lines)


# -- code -------------------------------------------------------------------------------------
def _emit(
    model: _Model, tree, how: str, text: str, tried: tuple[str, ...], variables: Mapping[str, Variable]
) -> Scheduled:
    loops_of_var = {}  # (statement name, iterator) -> its Loop
    for s in model.statements:
        for lp in s.loops:
            loops_of_var[(s.name, lp.var)] = lp
    kernels: list[c_ast.For] = []
    host: list[str] = []
    privates = _Copies(model, variables)

    def names_in(t) -> list[str]:
        if isinstance(t, _Leaf):
            return list(t.names)
        if isinstance(t, _Band):
            return names_in(t.child)
        return [n for c in t.children for n in names_in(c)]

    chains: dict[str, tuple] = {}  # statement name -> the loops emitted around it: (iterator, id of the loop)

    depth: dict[str, int] = {}  # statement name -> parallel loops of its kernel's outer band
    repeated: list[bool] = []  # per kernel: inside a host loop

    def parallel_members(t) -> int:
        return next((k for k, c in enumerate(t.coincident) if not c), len(t.coincident)) if isinstance(t, _Band) else 0

    def build(t, outer: dict, in_kernel: bool) -> list:
        """``outer``: statement name -> the loops emitted around it, as ``chains``."""
        if t is None:
            return []
        if isinstance(t, _Sequence):
            return [n for c in t.children for n in build(c, outer, in_kernel)]
        if isinstance(t, _Leaf):
            out = []
            for name in t.names:
                s = model.by_name[name]
                around = {var for var, _ in outer.get(name, ())}
                missing = [lp.var for lp in s.loops if lp.var not in around]
                if missing:
                    raise _Unfit(f"{name}'s loop on '{missing[0]}' is not in the schedule")
                if not in_kernel:
                    why = "no loop around it runs in parallel" if s.loops else "it runs once, outside the loops"
                    host.append(f"'{s.stmt.text}' (line {s.stmt.loc.line}): {why}")
                chains[name] = outer.get(name, ())
                out.append(privates.copy_of(s))
            return out
        # a band: its first member a loop (a kernel's root where coincident), the rest inside
        member, coincident = t.members[0], t.coincident[0]
        rest = _Band(t.members[1:], t.coincident[1:], t.child) if len(t.members) > 1 else t.child
        names = names_in(t)
        looped = [n for n in names if isinstance(member[n], str)]
        if not looped:  # the member only orders statements that are in no loop of it
            if len({member[n] for n in names}) > 1:
                raise _Unfit("isl orders statements by values of a loop that they are not in")
            return build(rest, outer, in_kernel)
        vars_ = {member[n] for n in looped}
        if len(vars_) != 1:
            raise _Unfit(f"isl fuses loops on different iterators ({', '.join(sorted(vars_))})")
        var = vars_.pop()
        headers = {_header(loops_of_var[(n, var)]) for n in looped}
        if len(headers) != 1:
            raise _Unfit(f"isl fuses loops on '{var}' with different bounds")
        loop = loops_of_var[(looped[0], var)]
        for n in looped:
            around = {v for v, _ in outer.get(n, ())}
            reads = _iterators_read(loops_of_var[(n, var)], model.by_name[n].loops)
            if not reads <= around:
                raise _Unfit(f"the bounds of the loop on '{var}' read '{sorted(reads - around)[0]}', not outside it")
        fixed = [n for n in names if n not in looped]
        # a statement with loops still to come has instances that a deeper member orders among
        # those of the loop's value it sits at: only a value off the loop's range keeps it apart
        open_ = {
            n for n in fixed if any(lp.var not in {v for v, _ in outer.get(n, ())} for lp in model.by_name[n].loops)
        }
        before, after = _outside(loop, member, fixed, looped, names_in(t.child), open_)
        kernel = not in_kernel and coincident
        node = copy.deepcopy(loop.node)
        inner = {n: outer.get(n, ()) + ((var, id(node)),) for n in looped}
        node.stmt = c_ast.Compound(
            build(_only(rest, set(looped)), {**outer, **inner}, in_kernel or kernel), coord=loop.node.stmt.coord
        )
        if kernel:
            kernels.append(node)
            repeated.append(bool(outer.get(looped[0])))
            depth.update({n: min(3, parallel_members(t)) for n in looped})
        return build(_only(rest, before), outer, in_kernel) + [node] + build(_only(rest, after), outer, in_kernel)

    items = build(tree, {}, False)
    for names, index in model.live_ranges:
        for var in index:
            loops = {dict(chains[n]).get(var) for n in names}
            if len(loops) > 1:
                raise _Unfit(
                    f"a private scalar's statements ({', '.join(sorted(names))}) would be split over loops on '{var}'"
                )
    _check_scopes(items)
    items = privates.before() + items + privates.after()
    host += privates.notes()
    most = max(len(s.loops) for s in model.statements)
    bulk = sum(depth.get(s.name, 0) for s in model.statements if len(s.loops) == most)
    return Scheduled(
        items,
        kernels,
        how,
        text,
        tuple(host),
        tried,
        bulk,
        sum(repeated),
        tuple(sorted(set(model.expanded) | set(model.before.values()))),
    )


class _Copies:
    """The copies of the arrays private to loops (``_private_arrays``): ``sum[p]`` private to the
    loops on r and q becomes ``sum_private[(r * nq + q) * np + p]`` in an array allocated before
    the region's code, filled from ``sum`` at the last iteration's place (elements no iteration
    writes keep their values) and copied back from there after it, then freed."""

    def __init__(self, model: _Model, variables: Mapping[str, Variable]):
        self.arrays = {}
        taken = set(variables)
        for name, loops in sorted(model.expanded.items()):
            copy_name = _fresh(f"{name}_private", taken)
            taken.add(copy_name)
            self.arrays[name] = (copy_name, loops, self._ctype(model, name, variables[name].ctype))
        self.coord = next((s.stmt.node.coord for s in model.statements), None)
        self.model = model
        self.early = {}  # array -> (its copy from before the region, ctype)
        for name in sorted(set(model.before.values())):
            copy_name = _fresh(f"{name}_before", taken)
            taken.add(copy_name)
            self.early[name] = (copy_name, self._ctype(model, name, variables[name].ctype))

    def copy_of(self, statement) -> c_ast.Node:
        """The statement's node, its accesses rewritten to the copies."""
        memo: dict = {}
        node = copy.deepcopy(statement.stmt.node, memo)
        # the reads from before: their subscripts in the copy (ids of nodes alive while it is rewritten)
        sites = {
            id(memo[id(acc.subscripts[-1])])
            for site, acc in enumerate(statement.stmt.accesses)
            if (statement.name, site) in self.model.before and id(acc.subscripts[-1]) in memo
        }
        return self.rewrite(node, sites)

    @staticmethod
    def _ctype(model, name, ctype):
        """The array's type, a pointer's with the extent its accesses reach as its one dimension."""
        return ctype if ctype.dims else dataclasses.replace(ctype, dims=(_extent(name, _users(model, name)),))

    def rewrite(self, node: c_ast.Node, sites: set[int]) -> c_ast.Node:
        if not self.arrays and not self.early:
            return node
        if isinstance(node, c_ast.ArrayRef):
            base, subscripts = node, list[object]()
            while isinstance(base, c_ast.ArrayRef):
                subscripts.insert(0, base.subscript)
                base = base.name
            if isinstance(base, c_ast.ID) and base.name in self.early and id(node.subscript) in sites:
                copy_name, ctype = self.early[base.name]
                return self._parsed(
                    f"{copy_name}[{_row_major([f'({c_text(sub)})' for sub in subscripts], ctype.dims)}]"
                )
            if isinstance(base, c_ast.ID) and base.name in self.arrays:
                copy_name, loops, ctype = self.arrays[base.name]
                flat = _row_major([f"({c_text(self.rewrite(sub, sites))})" for sub in subscripts], ctype.dims)
                index = f"({_row_major([_from_lower(lp) for lp in loops], [_trips(lp) for lp in loops])}) * {_elements(ctype)} + {flat}"
                return self._parsed(f"{copy_name}[{index}]")
        for attr in node.__slots__:
            value = getattr(node, attr, None)
            if isinstance(value, c_ast.Node):
                setattr(node, attr, self.rewrite(value, sites))
            elif isinstance(value, list):
                setattr(node, attr, [self.rewrite(v, sites) if isinstance(v, c_ast.Node) else v for v in value])
        return node

    def before(self) -> list:
        out = []
        for name, (copy_name, ctype) in self.early.items():
            out.append(
                self._statement(
                    f"{ctype.base} *{copy_name} = ({ctype.base} *)malloc(sizeof({ctype.base}) * "
                    f"(unsigned long)({self._count(ctype)}));"
                )
            )
            out.append(
                self._statement(
                    f"for (long long {copy_name}_k = 0; {copy_name}_k < {self._count(ctype)}; "
                    f"{copy_name}_k++) {copy_name}[{copy_name}_k] = (({ctype.base} *){name})[{copy_name}_k];"
                )
            )
        for name, (copy_name, loops, ctype) in self.arrays.items():
            copies = " * ".join(f"({_trips(lp)} > 0 ? {_trips(lp)} : 0)" for lp in loops)
            out.append(
                self._statement(
                    f"{ctype.base} *{copy_name} = ({ctype.base} *)malloc(sizeof({ctype.base}) * "
                    f"(unsigned long)({copies}) * (unsigned long)({self._count(ctype)}));"
                )
            )
            out.append(self._statement(self._copy(name, copy_name, loops, ctype, into_copy=True)))
        return out

    def after(self) -> list:
        out = []
        for name, (copy_name, loops, ctype) in self.arrays.items():
            out.append(self._statement(self._copy(name, copy_name, loops, ctype, into_copy=False)))
            out.append(self._statement(f"free({copy_name});"))
        out += [self._statement(f"free({copy_name});") for copy_name, _ in self.early.values()]
        return out

    def notes(self) -> list[str]:
        return [
            f"'{name}' is read from '{copy_name}', a copy taken before the region, where no statement of the region "
            "has written the element yet"
            for name, (copy_name, _) in self.early.items()
        ] + [
            f"'{name}' is private to the loops on {', '.join(repr(lp.var) for lp in loops)}: one copy per iteration "
            f"of them in '{copy_name}' (the last iteration's is '{name}' after them)"
            for name, (copy_name, loops, _) in self.arrays.items()
        ]

    @staticmethod
    def _count(ctype) -> str:
        """The array's elements, as a 64-bit count (host code)."""
        return f"(long long){_elements(ctype)}"

    def _copy(self, name: str, copy_name: str, loops, ctype, into_copy: bool) -> str:
        """Between the array and the last iteration's copy, where the loops run at all."""
        last = _row_major([f"({_trips(lp)} - 1)" for lp in loops], [_trips(lp) for lp in loops])
        element, there = (
            f"(({ctype.base} *){name})[{copy_name}_k]",
            f"{copy_name}[({last}) * ({self._count(ctype)}) + {copy_name}_k]",
        )
        target, source = (there, element) if into_copy else (element, there)
        runs = " && ".join(f"{_trips(lp)} > 0" for lp in loops)
        return (
            f"if ({runs}) for (long long {copy_name}_k = 0; {copy_name}_k < {self._count(ctype)}; {copy_name}_k++) "
            f"{target} = {source};"
        )

    def _parsed(self, text: str) -> c_ast.Node:
        node = copy.deepcopy(parse_expression(text))
        _set_coord(node, self.coord)
        return node

    def _statement(self, text: str) -> c_ast.Node:
        node = CParser().parse(f"void f(void) {{ {text} }}", filename="<orcu>").ext[0].body.block_items[0]
        _set_coord(node, self.coord)
        return node


def _elements(ctype) -> str:
    return "(" + " * ".join(f"({d})" for d in ctype.dims) + ")"


def _row_major(indexes: list[str], dims) -> str:
    out = indexes[0]
    for index, dim in zip(indexes[1:], list(dims)[1:]):
        out = f"({out}) * ({dim}) + {index}"
    return out


def _from_lower(loop: Loop) -> str:
    lower = c_text(loop.lower)
    return loop.var if lower == "0" else f"({loop.var} - ({lower}))"


def _trips(loop: Loop) -> str:
    lower = c_text(loop.lower)
    return f"({c_text(loop.upper)})" if lower == "0" else f"(({c_text(loop.upper)}) - ({lower}))"


def _fresh(name: str, taken: set[str]) -> str:
    out, k = name, 1
    while out in taken:
        k += 1
        out = f"{name}{k}"
    return out


def _set_coord(node: c_ast.Node, coord) -> None:
    for n in _walk(node):
        n.coord = coord


def _walk(node: c_ast.Node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


def _outside(
    loop: Loop, member: dict, fixed: list[str], looped: list[str], order: list[str], open_: set[str]
) -> tuple[set, set]:
    """The statements of a band that are not in its loop: those isl places before its first
    iteration and those after its last (the others cannot be written without guards). At the
    first or the last value itself, only a statement whose loops are all outside (``open_``:
    the others) runs wholly before or after the loop's instances there."""
    before, after = set(), set()
    lower, upper = poly_of(loop.lower), poly_of(loop.upper)
    first = min(order.index(n) for n in looped)
    last = max(order.index(n) for n in looped)
    for n in fixed:
        below = (member[n] - lower).constant if lower is not None else None
        above = (member[n] - upper + Poly.const(1)).constant if upper is not None else None
        if below is not None and (below < 0 or below == 0 and order.index(n) < first and n not in open_):
            before.add(n)
        elif above is not None and (above > 0 or above == 0 and order.index(n) > last and n not in open_):
            after.add(n)
        else:
            raise _Unfit(f"isl runs {n} inside the loop on '{loop.var}' that it is not in")
    return before, after


def _only(t, keep: set):
    """The tree with only the statements ``keep`` (None where none is left)."""
    if t is None:
        return None
    if isinstance(t, _Leaf):
        names = [n for n in t.names if n in keep]
        return _Leaf(names) if names else None
    if isinstance(t, _Band):
        child = _only(t.child, keep)
        if child is None:
            return None
        return _Band([{n: v for n, v in m.items() if n in keep} for m in t.members], t.coincident, child)
    children = [c for c in (_only(c, keep) for c in t.children) if c is not None]
    return None if not children else children[0] if len(children) == 1 else _Sequence(children)


def _header(loop: Loop) -> str:
    n = loop.node
    return " ".join(c_text(x) for x in (n.init, n.cond, n.next) if x is not None)


def _iterators_read(loop: Loop, loops: tuple[Loop, ...]) -> set[str]:
    others = {lp.var for lp in loops} - {loop.var}
    found = set()
    for bound in (loop.lower, loop.upper):
        p = poly_of(bound)
        found |= {n for m, _ in (p.terms if p is not None else ()) for n in m if n in others}
    return found


def _check_scopes(items: list) -> None:
    """A declaration stays in the block of every statement that names it (a loop's own
    ``int i = 0`` goes with its header; a name declared in a block and also outside it is
    taken for the block's, which can only refuse a schedule)."""

    def walk(block, visible: set[str]):
        declared = set(visible)
        for node in block:
            if isinstance(node, c_ast.Decl):
                declared.add(node.name)
            if isinstance(node, c_ast.For):
                walk(node.stmt.block_items or [], declared)
            for name in _names(node):
                if name in local and name not in declared:
                    raise _Unfit(f"'{name}' would be used outside the block that declares it")

    local = {d.name for node in items for d in _decls(node)}
    walk(items, set())


def _decls(node) -> list:
    """The declarations among a region's statements (not those of a loop's header)."""
    found = []

    class V(c_ast.NodeVisitor):
        def visit_Decl(self, n):
            found.append(n)
            self.generic_visit(n)

        def visit_For(self, n):
            if n.stmt is not None:
                self.visit(n.stmt)

    V().visit(node)
    return found


def _names(node) -> set[str]:
    found = set()

    class V(c_ast.NodeVisitor):
        def visit_ID(self, n):
            found.add(n.name)

        def visit_For(self, n):  # a loop's body is its own block
            for part in (n.init, n.cond, n.next):
                if part is not None:
                    self.visit(part)

    V().visit(node)
    return found


def _unchanged(scheduled: Scheduled, items: list) -> bool:
    """The schedule is the code as written (braces aside) with its first loop the one kernel."""
    first = next((n for n in items if isinstance(n, c_ast.For)), None)
    return (
        len(scheduled.kernels) == 1
        and first is not None
        and [_canonical(n) for n in scheduled.items] == [_canonical(n) for n in items]
        and _canonical(scheduled.kernels[0]) == _canonical(first)
    )


def _canonical(node: c_ast.Node) -> str:
    """C text with every loop's body in braces."""
    node = copy.deepcopy(node)

    class V(c_ast.NodeVisitor):
        def visit_For(self, n):
            if not isinstance(n.stmt, c_ast.Compound):
                n.stmt = c_ast.Compound([n.stmt])
            self.generic_visit(n)

    V().visit(node)
    return c_text(node)


def _maps(umap: isl.UnionMap) -> list[isl.Map]:
    found: list[isl.Map] = []
    umap.foreach_map(found.append)
    return found


def _sets(uset: isl.UnionSet) -> list[isl.Set]:
    found: list[isl.Set] = []
    uset.foreach_set(found.append)
    return found
