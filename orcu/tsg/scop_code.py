"""A scop's schedule as C again (orcu/tsg/scop.py says the whole): kernels, host loops and the
statements under them, built from the region's own statements and loop headers, with the copies of
private arrays and of values read from before the region."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping

from pycparser import c_ast
from pycparser.c_parser import CParser

from orcu.analysis.affine import Poly, poly_of
from orcu.frontend.cparse import parse_expression, walk
from orcu.frontend.ir import Loop, Variable, c_text
from orcu.tsg.scop_model import Scheduled, _extent, _Model, _Unfit, _users
from orcu.tsg.scop_tree import _Band, _Leaf, _Sequence


# -- code -------------------------------------------------------------------------------------
def _emit(
    model: _Model, tree, how: str, text: str, tried: tuple[str, ...], variables: Mapping[str, Variable]
) -> Scheduled:
    emitter = _Emitter(model, variables)
    items = emitter.build(tree, {}, False)
    for names, index in model.live_ranges:
        for var in index:
            loops = {dict(emitter.chains[n]).get(var) for n in names}
            if len(loops) > 1:
                raise _Unfit(
                    f"a private scalar's statements ({', '.join(sorted(names))}) would be split over loops on '{var}'"
                )
    _check_scopes(items)
    privates = emitter.privates
    items = privates.before() + items + privates.after()
    host = emitter.host + privates.notes()
    most = max(len(s.loops) for s in model.statements)
    bulk = sum(emitter.depth.get(s.name, 0) for s in model.statements if len(s.loops) == most)
    return Scheduled(
        items,
        emitter.kernels,
        how,
        text,
        tuple(host),
        tried,
        bulk,
        sum(emitter.repeated),
        tuple(sorted(set(model.expanded) | set(model.before.values()))),
    )


def _names_in(t) -> list[str]:
    """The statements under a node of the schedule tree."""
    if isinstance(t, _Leaf):
        return list(t.names)
    if isinstance(t, _Band):
        return _names_in(t.child)
    return [n for c in t.children for n in _names_in(c)]


def _parallel_members(t) -> int:
    """The parallel loops a kernel rooted at ``t`` nests: its band's coincident members, and
    where all of them are, those of the band that is its one child, and so on (the loops as
    written are one band a loop: i, then j inside it, are two parallel loops as a band (i, j) is)."""
    count = 0
    while isinstance(t, _Band):
        leading = next((k for k, c in enumerate(t.coincident) if not c), len(t.coincident))
        count += leading
        if leading < len(t.coincident):
            break
        t = t.child
    return count


class _Emitter:
    """The region's C from a schedule tree: a band's first member a loop (a kernel's root where
    it is coincident and no kernel is around it), the statements copied under their loops."""

    def __init__(self, model: _Model, variables: Mapping[str, Variable]):
        self.model = model
        self.loops_of_var = {(s.name, lp.var): lp for s in model.statements for lp in s.loops}
        self.kernels: list[c_ast.For] = []
        self.host: list[str] = []
        self.privates = _Copies(model, variables)
        self.chains: dict[str, tuple] = {}  # statement name -> the loops emitted around it: (iterator, id of the loop)
        self.depth: dict[str, int] = {}  # statement name -> parallel loops of its kernel's outer band
        self.repeated: list[bool] = []  # per kernel: inside a host loop
        # statement name -> {iterator as written: the one its code names it with} (loops on
        # different iterators fused: ``_rename``)
        self.renames: dict[str, dict[str, str]] = {}
        # statement name -> the ranges of its own loops where a fused loop runs their hull (``_hull``)
        self.guards: dict[str, list[c_ast.Node]] = {}
        self.types = {name: v.ctype for name, v in variables.items()}

    def build(self, t, outer: dict, in_kernel: bool) -> list:
        """``outer``: statement name -> the loops emitted around it, as ``chains``."""
        if t is None:
            return []
        if isinstance(t, _Sequence):
            return [n for c in t.children for n in self.build(c, outer, in_kernel)]
        if isinstance(t, _Leaf):
            return self._leaf(t, outer, in_kernel)
        return self._band(t, outer, in_kernel)

    def _leaf(self, t, outer: dict, in_kernel: bool) -> list:
        out = []
        for name in t.names:
            s = self.model.by_name[name]
            around = {var for var, _ in outer.get(name, ())}
            missing = [lp.var for lp in s.loops if lp.var not in around]
            if missing:
                raise _Unfit(f"{name}'s loop on '{missing[0]}' is not in the schedule")
            if not in_kernel:
                why = "no loop around it runs in parallel" if s.loops else "it runs once, outside the loops"
                self.host.append(f"'{s.stmt.text}' (line {s.stmt.loc.line}): {why}")
            self.chains[name] = outer.get(name, ())
            code = _renamed(self.privates.copy_of(s), self.renames.get(name, {}))
            if name in self.guards:
                code = c_ast.If(_conjunction(self.guards[name]), code, None, coord=code.coord)
            out.append(code)
        return out

    def _name(self, statement: str, var: str) -> str:
        """The iterator the code names the statement's loop on ``var`` with."""
        return self.renames.get(statement, {}).get(var, var)

    def _rename(self, looped: list[str], member: dict, outer: dict) -> None:
        """One iterator for loops isl fuses that are written on different ones (atax's ``y[i] =
        0`` and ``y[j] += ...``: one loop, on i): each other statement's iterator renamed to the
        first's, and where that statement has a loop on the first's name too, that loop takes
        the name given up (a swap, so every name is one the code declares already)."""
        chosen = self._name(looped[0], member[looped[0]])
        for n in looped[1:]:
            mine = self._name(n, member[n])
            if mine == chosen:
                continue
            if self.model.expanded or self.model.before:
                raise _Unfit(f"isl fuses loops on different iterators ({mine}, {chosen}) of copied arrays")
            names = self.renames.setdefault(n, {})
            emitted = {v for v, _ in outer.get(n, ())}
            taken = next((lp.var for lp in self.model.by_name[n].loops if self._name(n, lp.var) == chosen), None)
            if taken is not None and taken in emitted:
                raise _Unfit(f"isl fuses loops on different iterators ({mine}, {chosen}) inside a loop on '{chosen}'")
            if self.types.get(mine) != self.types.get(chosen):
                raise _Unfit(f"isl fuses loops on iterators of different types ({mine}, {chosen})")
            names[member[n]] = chosen
            if taken is not None:
                names[taken] = mine

    def _band(self, t, outer: dict, in_kernel: bool) -> list:
        """A band: its first member a loop (a kernel's root where coincident), the rest inside."""
        model, loops_of_var = self.model, self.loops_of_var
        member, coincident = t.members[0], t.coincident[0]
        rest = _Band(t.members[1:], t.coincident[1:], t.child) if len(t.members) > 1 else t.child
        names = _names_in(t)
        looped = [n for n in names if isinstance(member[n], str)]
        if not looped:  # the member only orders statements that are in no loop of it
            if len({member[n] for n in names}) > 1:
                raise _Unfit("isl orders statements by values of a loop that they are not in")
            return self.build(rest, outer, in_kernel)
        self._rename(looped, member, outer)
        var = self._name(looped[0], member[looped[0]])
        loop, node = self._hull(looped, member, var)
        for n in looped:
            around = {v for v, _ in outer.get(n, ())}
            reads = _iterators_read(loops_of_var[(n, member[n])], model.by_name[n].loops)
            if not reads <= around:
                raise _Unfit(f"the bounds of the loop on '{var}' read '{sorted(reads - around)[0]}', not outside it")
        fixed = [n for n in names if n not in looped]
        # a statement with loops still to come has instances that a deeper member orders among
        # those of the loop's value it sits at, and a deeper member of this band orders even a
        # statement in no loop there (isl's (1, n) for `y[0] += acc` after a j loop's first row,
        # i up to n - 2): only a value off the loop's range keeps it apart
        open_ = {
            n
            for n in fixed
            if len(t.members) > 1
            or any(lp.var not in {v for v, _ in outer.get(n, ())} for lp in model.by_name[n].loops)
        }
        before, after = _outside(loop, member, fixed, looped, _names_in(t.child), open_)
        kernel = not in_kernel and coincident
        inner = {n: outer.get(n, ()) + ((member[n], id(node)),) for n in looped}
        node.stmt = c_ast.Compound(
            self.build(_only(rest, set(looped)), {**outer, **inner}, in_kernel or kernel), coord=loop.node.stmt.coord
        )
        if kernel:
            self.kernels.append(node)
            self.repeated.append(bool(outer.get(looped[0])))
            self.depth.update({n: min(3, _parallel_members(t)) for n in looped})
        return (
            self.build(_only(rest, before), outer, in_kernel)
            + [node]
            + self.build(_only(rest, after), outer, in_kernel)
        )

    def _hull(self, looped: list[str], member: dict, var: str) -> tuple[Loop, c_ast.For]:
        """The loop on ``var`` of the statements ``looped`` fuse (its header renamed as the code
        names it, and a copy of its node to emit): their one header, or where their loops step
        by 1 upwards with bounds a constant apart (scop_tree._matching_bounds), a loop over
        their hull, each statement narrower than it guarded by its own range."""
        loops = {n: self.loops_of_var[(n, member[n])] for n in looped}
        renames = {n: self.renames.get(n, {}) for n in looped}
        headers = {_header(loops[n], renames[n]) for n in looped}
        if len(headers) == 1:
            node = copy.deepcopy(loops[looped[0]].node)
            for part in ("init", "cond", "next"):
                if getattr(node, part) is not None:
                    setattr(node, part, _renamed(getattr(node, part), renames[looped[0]]))
            return loops[looped[0]], node
        bounds = {n: (_renamed(loops[n].lower, renames[n]), _renamed(loops[n].upper, renames[n])) for n in looped}
        polys = {n: (poly_of(lo), poly_of(hi)) for n, (lo, hi) in bounds.items()}
        base = polys[looped[0]]
        offsets = {}
        for n, (lo, hi) in polys.items():
            apart = [(p - b).constant if p is not None and b is not None else None for p, b in zip((lo, hi), base)]
            if loops[n].step != 1 or loops[n].descending or None in apart:
                raise _Unfit(f"isl fuses loops on '{var}' with different bounds")
            offsets[n] = apart
        low = min(looped, key=lambda n: offsets[n][0])
        high = max(looped, key=lambda n: offsets[n][1])
        node = copy.deepcopy(loops[low].node)
        node.init, node.next = (_renamed(x, renames[low]) if x is not None else None for x in (node.init, node.next))
        node.cond = c_ast.BinaryOp("<", c_ast.ID(var), copy.deepcopy(bounds[high][1]), coord=node.cond.coord)
        for n in looped:
            guard = []
            if offsets[n][0] > offsets[low][0]:
                guard.append(c_ast.BinaryOp(">=", c_ast.ID(var), copy.deepcopy(bounds[n][0])))
            if offsets[n][1] < offsets[high][1]:
                guard.append(c_ast.BinaryOp("<", c_ast.ID(var), copy.deepcopy(bounds[n][1])))
            if guard:
                self.guards.setdefault(n, []).extend(guard)
        hull = dataclasses.replace(loops[low], lower=bounds[low][0], upper=bounds[high][1], node=node)
        return hull, node


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
            base = node
            subscripts: list[c_ast.Node] = []
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
        return _statement(text, self.coord)


def _statement(text: str, coord) -> c_ast.Node:
    """One C statement orcu writes, placed at ``coord`` (the code it comes from)."""
    node = CParser().parse(f"void f(void) {{ {text} }}", filename="<orcu>").ext[0].body.block_items[0]
    _set_coord(node, coord)
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
    for n in walk(node):
        n.coord = coord


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


def _conjunction(conditions: list[c_ast.Node]) -> c_ast.Node:
    out = conditions[0]
    for c in conditions[1:]:
        out = c_ast.BinaryOp("&&", out, c)
    return out


def _header(loop: Loop, renames: Mapping[str, str]) -> str:
    n = loop.node
    return " ".join(c_text(_renamed(x, renames)) for x in (n.init, n.cond, n.next) if x is not None)


def _renamed(node: c_ast.Node, renames: Mapping[str, str]) -> c_ast.Node:
    """A copy of ``node`` with the names ``renames`` maps replaced, all at once (a swap too)."""
    return _substituted(node, {old: c_ast.ID(new) for old, new in renames.items()}) if renames else node


def _substituted(node: c_ast.Node, values: Mapping[str, c_ast.Node]) -> c_ast.Node:
    """A copy of ``node`` with each variable ``values`` names replaced by a copy of its value,
    all at once; a field (``p.i``) and a called function keep their names, and a declaration
    (``for (int j = 0; ...)``) takes the new name where the value is a name."""

    def walk(n: c_ast.Node) -> c_ast.Node:
        if isinstance(n, c_ast.ID) and n.name in values:
            out = copy.deepcopy(values[n.name])
            _set_coord(out, n.coord)
            return out
        if isinstance(n, c_ast.Decl) and n.name in values and isinstance(n.type, c_ast.TypeDecl):
            value = values[n.name]
            if isinstance(value, c_ast.ID):
                n.name = n.type.declname = value.name
        for attr in n.__slots__:
            if (attr, type(n)) in (("field", c_ast.StructRef), ("name", c_ast.FuncCall)):
                continue
            child = getattr(n, attr, None)
            if isinstance(child, c_ast.Node):
                setattr(n, attr, walk(child))
            elif isinstance(child, list):
                setattr(n, attr, [walk(c) if isinstance(c, c_ast.Node) else c for c in child])
        return n

    return walk(copy.deepcopy(node))


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
