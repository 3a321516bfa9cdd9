"""A scop's polyhedral model for isl (orcu/tsg/scop.py says the whole): its statements' domains,
accesses and dependences, private scalars and arrays, and the reads of values from before the region."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import islpy as isl
from pycparser import c_ast

from orcu.analysis.affine import Poly, loop_bounds, poly_of, value_range
from orcu.analysis.poly import dependences, read_update
from orcu.analysis.scalars import assigned_before_read, match_reduction
from orcu.analysis.subscripts import is_affine, shapes
from orcu.frontend.ir import Loop, LoopNest, Stmt, Variable, c_text, statements
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
    position: dict[tuple, int] = {}
    domains, orders = _domains(stmts, names, written, position)
    params = ", ".join(sorted(names.params))
    domain = isl.UnionSet(f"[{params}] -> {{ {'; '.join(domains)} }}")
    order = isl.UnionMap(f"[{params}] -> {{ {'; '.join(orders)} }}").intersect_domain(domain)

    arrays = shapes(nest, defined=True)
    access_of = _access_shapes(arrays)
    privates = _scalar_groups(stmts, written, live_after)
    inexact: set[str] = {name for name, shaped in arrays.items() if access_of[id(shaped[0].access)][1] is None}
    atomics = {id(st): read_update(st.node, variables) for st in dependences(nest).atomics}
    sums = {k: c_text(u.target) for k, u in atomics.items() if u is not None}
    found_accesses = _access_texts(
        stmts, names, access_of, written, expanded, early, privates, variables, inexact, sums
    )
    reads, writes, reduce_self, array_reads, array_writes, read_sites = found_accesses

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
    # updates of one scalar reduction, or of a sum a kernel makes with atomicAdd: not
    # coincidence constraints (pairs through its other accesses still are, where one of the two
    # writes: two updates that read one element, ``s += W[j][k] * v[k]`` over j, share no
    # dependence through it)
    relaxed = isl.UnionMap.empty(deps.get_space())
    kept = isl.UnionMap.empty(deps.get_space())
    for targets, other_writes, other_reads in reduce_self:
        t = umap(targets)
        relaxed = relaxed.union(t.apply_range(t.reverse()))
        ow, o = umap(other_writes), umap(other_writes + other_reads)
        kept = (
            kept.union(t.apply_range(o.reverse()))
            .union(o.apply_range(t.reverse()))
            .union(ow.apply_range(o.reverse()))
            .union(o.apply_range(ow.reverse()))
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


def _domains(stmts: list[_Statement], names: _Names, written: set[str], position: dict[tuple, int]):
    """Each statement's iteration domain and its place in the program's order (isl's text), as
    written; ``position`` takes each statement's and loop's text position under its loops."""
    depth = max((len(s.loops) for s in stmts), default=0)
    domains, orders = [], []
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
    return domains, orders


def _access_shapes(arrays) -> dict[int, tuple]:
    """Each access (by id) as _access_texts models it: (its array, its dimensions, None for the
    whole array as one element, whether it names its element exactly)."""
    access_of = {}
    for name, shaped in arrays.items():
        ndims = {len(sh.dims) for sh in shaped if sh.dims is not None}
        # An access that is not affine touches any element (_access_texts), where its dimensions are
        # those of the others: each indexed as declared or a vector (no flat subscript delinearized),
        # as many subscripts. Elsewhere the whole array is one element.
        opaque = {len(sh.access.subscripts) for sh in shaped if sh.dims is None}
        direct = all(sh.strides is None or len(sh.strides) == 1 for sh in shaped)
        whole = len(ndims | opaque) > 1 or (bool(opaque) and not direct)
        for sh in shaped:
            dims = sh.dims if sh.dims is not None else (None,) * len(sh.access.subscripts)
            access_of[id(sh.access)] = (name, None if whole else dims, sh.exact and sh.dims is not None)
    return access_of


def _access_texts(
    stmts, names: _Names, access_of, written, expanded, early, privates, variables, inexact: set[str], sums
):
    """The statements' accesses as isl's text (statement -> element): (reads, writes, the
    accesses of each reduction's update (its target's, the others' writes and reads), each array's reads,
    each array's writes, each read's site). ``inexact`` takes the arrays an access of which is
    not affine; ``sums``: the target of each statement a kernel makes with atomicAdd (by the
    id of the statement), whose updates are a reduction's."""
    reads: list = []
    writes: list = []
    reduce_self: list = []
    array_reads: dict[str, list[str]] = {}
    array_writes: dict[str, list[str]] = {}
    read_sites: list[tuple] = []
    for s in stmts:
        dims = [names.iterator(lp.var) for lp in s.loops]
        vars_ = {lp.var for lp in s.loops}
        head = f"{s.name}[{', '.join(dims)}]"
        mine = []
        for site, acc in enumerate(s.stmt.accesses):
            name, subs, exact = access_of[id(acc)]
            target = names.array(name) + ("_b" if (s.name, site) in early else "")
            if subs is None:
                element = f"{target}[]"
                inexact.add(name)
            elif not exact or not all(
                is_affine(p, vars_) and not any(n in written for m, _ in p.terms for n in m if n not in vars_)
                for p in subs
            ):  # any element: one free variable a dimension
                element = f"{target}[{', '.join(f'orcu_any{k}' for k in range(len(subs)))}]"
                inexact.add(name)
            elif name in expanded:
                copies = [names.iterator(lp.var) for lp in expanded[name]]
                element = f"{target}_x[{', '.join(copies + [names.expr(p, vars_) for p in subs])}]"
            else:
                element = f"{target}[{', '.join(names.expr(p, vars_) for p in subs)}]"
            mine.append((acc.write, f"{head} -> {element}", sums.get(id(s.stmt)) == acc.text))
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
        if targets:
            reduce_self.append(
                (
                    targets,
                    [text for w, text, t in mine if w and not t],
                    [text for w, text, t in mine if not w and not t],
                )
            )

    return reads, writes, reduce_self, array_reads, array_writes, read_sites


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


def _maps(umap: isl.UnionMap) -> list[isl.Map]:
    found: list[isl.Map] = []
    umap.foreach_map(found.append)
    return found


def _sets(uset: isl.UnionSet) -> list[isl.Set]:
    found: list[isl.Set] = []
    uset.foreach_set(found.append)
    return found
