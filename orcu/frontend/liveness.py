"""Which scalars a Loop region leaves for the code after it to read.

The generated code runs the region's loop on the GPU, where its iterators and private
scalars are the threads' own: their values after the loop must be computed on purpose, or
the region refused. This module finds the names the enclosing function reads after the
region before assigning them. It is conservative: the code after the region is scanned in
program order (the rest of each enclosing block, and for an enclosing loop its next
iteration too), and a name counts as read unless the first statement that mentions it
assigns it outright.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pycparser import c_ast

from orcu.errors import Location
from orcu.frontend.ctext import blank_comments, brace_depth
from orcu.frontend.lower import loc_of
from orcu.frontend.source import SourceFile

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def read_after(
    src: SourceFile,
    function: c_ast.FuncDef | None,
    start: int,
    end: int,
    names: Iterable[str],
    first: Iterable[c_ast.Node] = (),
) -> dict[str, Location]:
    """``names`` that the code after the region [start, end) of ``function`` may read before
    assigning them, each with the place of that read; ``first``: statements that run before
    that code (the region's own, on the host after its loop)."""
    wanted = set(names)
    found: dict[str, Location] = {}
    following = _following(src, function.body, start, end) if function is not None and function.body is not None else ()
    for stmt in [*first, *following]:
        for name in sorted(wanted - set(found)):
            effect = _effect(stmt, name)
            if effect is _KILL:
                wanted.discard(name)
            elif effect is not None:
                found[name] = loc_of(effect)
    return found


def offset_of(src: SourceFile, node: c_ast.Node) -> int | None:
    """Where ``node`` starts in ``src``; None for code from elsewhere (a header)."""
    c = node.coord
    if c is None or c.file != src.path:
        return None
    return src.offset(c.line, c.column or 1)


def block_items(node: c_ast.Node | None) -> list[c_ast.Node]:
    """The statements of a block, or the one statement a loop or branch holds."""
    if node is None:
        return []
    if isinstance(node, c_ast.Compound):
        return list(node.block_items or [])
    return [node]


def _following(src: SourceFile, body: c_ast.Compound, start: int, end: int) -> Iterator[c_ast.Node]:
    """The statements (and loop headers) that may run after the region, in program order."""
    path = _path_to_region(src, blank_comments(src.text), block_items(body), start, end)
    # Innermost block first: the rest of it, then what follows its statement, and so on out.
    for items, index, owner, holds in reversed(path):
        yield from items[index + 1 :]
        if isinstance(owner, _LOOPS):  # the next iteration: the loop's step, its test, its body up to the region
            if isinstance(owner, c_ast.For):
                yield from (n for n in (owner.next, owner.cond) if n is not None)
            elif owner.cond is not None:
                yield owner.cond
            yield from items[:index]
            if index >= 0 and not start <= (offset_of(src, items[index]) or 0) and not holds:
                yield items[index]  # the last statement before a region that has no code of its own


def _path_to_region(src, blanked, items, start, end, owner=None):
    """[(block items, index of the last statement before the region's end, the statement
    owning the block, whether that statement holds the region)], outermost block first, down
    to the block that holds the region."""
    before = [k for k, item in enumerate(items) if (offset_of(src, item) or 0) < end]
    for k in before:
        item_at = offset_of(src, items[k])
        if (
            item_at is not None and item_at < start and brace_depth(blanked, item_at, start) > 0
        ):  # the region is inside it
            for child in _children_blocks(items[k]):
                child_at = offset_of(src, child)
                if child_at is not None and child_at < start and brace_depth(blanked, child_at, start) > 0:
                    return [(items, k, owner, True)] + _path_to_region(
                        src, blanked, block_items(child), start, end, items[k]
                    )
    return [(items, before[-1] if before else -1, owner, False)]


def _children_blocks(node: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(node, c_ast.If):
        return [n for n in (node.iftrue, node.iffalse) if n is not None]
    if isinstance(node, _LOOPS):
        return [node.stmt]
    if isinstance(node, c_ast.Compound):
        return [node]
    if isinstance(node, (c_ast.Switch, c_ast.Label, c_ast.Case, c_ast.Default)):
        return [n for n in (getattr(node, "stmt", None),) if n is not None] + list(getattr(node, "stmts", None) or [])
    return []


def _first_use(node: c_ast.Node | None, name: str) -> c_ast.ID | None:
    if node is None:
        return None

    class Finder(c_ast.NodeVisitor):
        found: c_ast.ID | None = None

        def visit_ID(self, n: c_ast.ID) -> None:
            if self.found is None and n.name == name:
                self.found = n

        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            if n.args is not None:  # a function's name is not a variable
                self.visit(n.args)

    finder = Finder()
    finder.visit(node)
    return finder.found


_KILL = object()  # the statement assigns the name before any read of it


def _effect(node: c_ast.Node | None, name: str):
    """What running ``node`` does to ``name`` first: the ID of a read that may come before any
    assignment, _KILL when an assignment surely comes first, None when it may leave it alone.
    Loop bodies may run zero times and branches may not be taken, so assignments there are not
    sure; any read anywhere in them counts."""
    if node is None:
        return None
    if isinstance(node, c_ast.Compound):
        for item in node.block_items or []:
            effect = _effect(item, name)
            if effect is not None:
                return effect
        return None
    if isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID) and node.lvalue.name == name:
        read = _first_use(node.rvalue, name)
        if node.op != "=":
            return node.lvalue
        return read if read is not None else _KILL
    if isinstance(node, c_ast.Assignment):  # another target: its subscripts, then the value (a = b = 0 assigns b)
        read = _first_use(node.lvalue, name)
        return read if read is not None else _effect(node.rvalue, name)
    if isinstance(node, c_ast.BinaryOp) and node.op not in ("&&", "||"):  # both operands run: a = (b = x) + 1
        effects = [_effect(node.left, name), _effect(node.right, name)]
        read = next((e for e in effects if e is not None and e is not _KILL), None)
        return read if read is not None else (_KILL if _KILL in effects else None)
    if isinstance(node, c_ast.Decl):  # a new variable of that name hides the old one from here on
        read = _first_use(node.init, name)
        return read if read is not None else (_KILL if node.name == name else None)
    if isinstance(node, c_ast.DeclList):
        for decl in node.decls:
            effect = _effect(decl, name)
            if effect is not None:
                return effect
        return None
    if isinstance(node, c_ast.For):
        own = isinstance(node.init, c_ast.DeclList) and any(d.name == name for d in node.init.decls)
        effect = _effect(node.init, name)
        if effect is not _KILL and effect is not None:
            return effect
        if own:
            return None  # the loop's own variable of that name: the outer one is not touched
        if effect is _KILL:
            return _KILL  # assigned before the test: the loop runs at least its init
        return _maybe(name, node.cond, node.stmt, node.next)
    if isinstance(node, c_ast.If):
        read = _first_use(node.cond, name)
        if read is not None:
            return read
        branches = [_effect(b, name) for b in (node.iftrue, node.iffalse)]
        for effect in branches:
            if effect is not None and effect is not _KILL:
                return effect
        return _KILL if all(e is _KILL for e in branches) else None
    if isinstance(node, (c_ast.While, c_ast.DoWhile)):
        return _maybe(name, node.cond, node.stmt)
    return _first_use(node, name)


def upward_exposed(node: c_ast.Node | None, name: str) -> bool:
    """Whether running ``node`` may read ``name`` before assigning it (its value from before)."""
    effect = _effect(node, name)
    return effect is not None and effect is not _KILL


def _maybe(name: str, *parts: c_ast.Node | None):
    """The first read in any of ``parts``, code that may run or not (a loop's test and body)."""
    for part in parts:
        effect = _effect(part, name)
        if effect is not None and effect is not _KILL:
            return effect
    return None


def between(
    src: SourceFile, function: c_ast.FuncDef | None, first: tuple[int, int], second: tuple[int, int]
) -> list[c_ast.Node] | None:
    """The statements between two regions ([start, end) spans, the first before the second) when
    both lie in the same block of ``function``, so that the second runs right after them; None
    otherwise."""
    if function is None or function.body is None:
        return None
    blanked = blank_comments(src.text)
    a = _path_to_region(src, blanked, block_items(function.body), *first)
    b = _path_to_region(src, blanked, block_items(function.body), *second)
    if len(a) != len(b) or a[-1][2] is not b[-1][2]:
        return None
    return [item for item in a[-1][0] if first[1] <= (offset_of(src, item) or -1) < second[0]]


class Effects(c_ast.NodeVisitor):
    """What straight-line host code may do to arrays: the names it mentions, whether it reads
    or writes any array element (through any pointer: pointers may alias), and whether it
    branches or calls functions (then anything may happen)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.assigned: set[str] = set()  # variables assigned whole (a pointer set anew)
        self.addressed: set[str] = set()  # variables whose address is taken (&k)
        self.reads_memory = self.writes_memory = self.opaque = False

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.add(node.name)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.opaque = True

    def generic_visit(self, node: c_ast.Node) -> None:
        if isinstance(
            node,
            (
                c_ast.If,
                c_ast.For,
                c_ast.While,
                c_ast.DoWhile,
                c_ast.Switch,
                c_ast.Goto,
                c_ast.Return,
                c_ast.Break,
                c_ast.Continue,
                c_ast.Label,
                c_ast.StructRef,
            ),
        ):
            self.opaque = True
        if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            self.reads_memory = True
        super().generic_visit(node)

    def _target(self, node: c_ast.Node) -> None:
        if isinstance(node, c_ast.ID):
            self.assigned.add(node.name)
        elif isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            self.writes_memory = True
        else:
            self.opaque = True

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self._target(node.lvalue)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            self._target(node.expr)
        elif node.op == "&":
            self.opaque = True  # an address taken: anything may be written through it later
            if isinstance(node.expr, c_ast.ID):
                self.addressed.add(node.expr.name)
        self.generic_visit(node)


def effects(items: Iterable[c_ast.Node]) -> Effects:
    found = Effects()
    for item in items:
        found.visit(item)
    return found


def pointer_copies(nodes: Iterable[c_ast.Node | None]) -> list[tuple[str, str | None]]:
    """Every assignment of a whole variable in ``nodes`` (``p = q;``, ``T *p = q;``, ``p += 1``):
    (p, q) where it copies the name q, (p, None) otherwise. Which of them are pointers is the
    caller's to say."""
    found: list[tuple[str, str | None]] = []

    class Finder(c_ast.NodeVisitor):
        def visit_Assignment(self, node: c_ast.Assignment) -> None:
            if isinstance(node.lvalue, c_ast.ID):
                copied = node.op == "=" and isinstance(node.rvalue, c_ast.ID)
                found.append((node.lvalue.name, node.rvalue.name if copied else None))
            self.generic_visit(node)

        def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
            if node.op in ("++", "--", "p++", "p--") and isinstance(node.expr, c_ast.ID):
                found.append((node.expr.name, None))
            self.generic_visit(node)

        def visit_Decl(self, node: c_ast.Decl) -> None:
            if node.name and node.init is not None:
                found.append((node.name, node.init.name if isinstance(node.init, c_ast.ID) else None))
            self.generic_visit(node)

    for node in nodes:
        if node is not None:
            Finder().visit(node)
    return found


def copy_groups(pairs: Iterable[tuple[str, str | None]], names: Iterable[str]) -> dict[str, set[str]]:
    """Each of ``names`` with the names that copies join it to (``p = q`` joins p and q, and
    whatever either is joined to), one set shared by a group; pairs naming other names join
    nothing."""
    group = {name: {name} for name in names}
    for p, q in pairs:
        if p in group and q in group and group[p] is not group[q]:
            merged = group[p] | group[q]
            for name in merged:
                group[name] = merged
    return group


def named_elsewhere(nodes: Iterable[c_ast.Node], names: set[str]) -> set[str]:
    """The ``names`` that ``nodes`` mention outside whole copies of one name into another
    (``p = q;``, ``T *p = q;``)."""
    found: set[str] = set()

    class Finder(c_ast.NodeVisitor):
        def visit_Assignment(self, node: c_ast.Assignment) -> None:
            if not (node.op == "=" and isinstance(node.lvalue, c_ast.ID) and isinstance(node.rvalue, c_ast.ID)):
                self.generic_visit(node)

        def visit_Decl(self, node: c_ast.Decl) -> None:
            if not isinstance(node.init, c_ast.ID):
                self.generic_visit(node)

        def visit_ID(self, node: c_ast.ID) -> None:
            if node.name in names:
                found.add(node.name)

    for node in nodes:
        Finder().visit(node)
    return found
