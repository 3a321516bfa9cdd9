"""pycparser statements of a Loop region -> the loop-nest IR."""

from __future__ import annotations

from collections.abc import Mapping, Set

from pycparser import c_ast

from orcu.errors import AnalysisError, Location
from orcu.frontend.ir import Access, Jump, Loop, Node, Stmt, Variable, statements
from orcu.frontend.source import SourceFile

_UNSUPPORTED = {
    "Goto": "'goto' is",
    "Label": "labels are",
    "Switch": "'switch' is",
    "Return": "'return' is",
}


def loc_of(node: c_ast.Node) -> Location:
    c = node.coord
    return Location(c.file, c.line, c.column or 1)


class Lowering:
    def __init__(
        self, src: SourceFile, arrays: Mapping[str, Variable] | None = None, functions: Set[str] = frozenset()
    ):
        """``arrays``: the region's arrays, by name; ``functions``: the file's own functions, the
        ones a loop may pass an array to (frontend/helpers.py checks that they only read it)."""
        self.src = src
        self.arrays = arrays or {}
        self.functions = functions
        self.jumps: list[list[Jump]] = []  # per enclosing loop, innermost last: its breaks and continues
        self.private: set[str] = set()  # arrays the lowered code declares: each iteration's own

    def error(self, node: c_ast.Node, message: str) -> AnalysisError:
        return self.src.error_at(loc_of(node), message, AnalysisError)

    def block(self, items) -> tuple[Node, ...]:
        out: list[Node] = []
        items = list(items or ())
        for k, item in enumerate(items):
            if isinstance(item, c_ast.Compound):
                out.extend(self.block(item.block_items))
            elif isinstance(item, c_ast.For):
                out.append(self.loop(item))
            elif (
                isinstance(item, c_ast.If)
                and (sunk := _guard_sunk(item)) is not None
                and self._sinks(sunk, items[k + 1 :])
            ):
                out.append(self.loop(sunk))
            elif isinstance(item, c_ast.EmptyStatement):
                continue
            else:
                out.append(self.statement(item))
        return tuple(out)

    # -- loops ----------------------------------------------------------------
    def loop(self, node: c_ast.For) -> Loop:
        var, lower, upper, step, descending = self._header(node)
        body = node.stmt.block_items if isinstance(node.stmt, c_ast.Compound) else [node.stmt]
        self.jumps.append([])
        lowered = self.block(body)
        assigned = next((st for st, _ in statements(lowered) if var in st.scalar_writes), None)
        if assigned is not None:
            raise self.error(
                assigned.node,
                f"the body assigns '{var}', the iterator of the loop at line {loc_of(node).line}: its iterations "
                "would then not be the header's, which orcu maps to threads; count them in the loop's header",
            )
        finder = _AccessFinder(self)
        for bound in (lower, upper):
            finder.visit(bound)
        return Loop(
            var,
            lower,
            upper,
            step,
            lowered,
            loc_of(node),
            node,
            tuple(self.jumps.pop()),
            descending,
            tuple(finder.accesses),
        )

    def _header(self, node: c_ast.For) -> tuple[str, c_ast.Node, c_ast.Node, int, bool]:
        """The loop's iterator, bounds (upper exclusive), step and whether it counts down; a
        header the IR cannot keep is refused."""
        var, start = self._init(node)
        down = self._counts_down(node, var)
        if down is not None:  # the same values as counting up from the lowest one to the start
            return var, _aligned(self._floor(node, var), start, down), _plus_one(start), down, True
        upper, step = self._cond(node, var), self._next(node, var)
        if step != 1 and node.cond.op == "!=":
            raise self.error(
                node.cond, f"unsupported loop: '{var} != upper' with a step of {step} may step over the bound"
            )
        return var, start, upper, step, False

    def _sinks(self, node: c_ast.For, after: list[c_ast.Node]) -> bool:
        """Whether a loop a guard would sink into has a header the IR keeps and an iterator the
        statements ``after`` it do not read (sunk, the loop runs its header where the guard is
        false, which leaves the iterator at its end); elsewhere the ``if`` stays a statement,
        its loop inside one iteration as written."""
        try:
            var = self._header(node)[0]
        except AnalysisError:
            return False
        later = _Names()
        for item in after:
            later.visit(item)
        return var not in later.names

    def _counts_down(self, node: c_ast.For, var: str) -> int | None:
        """The step of ``i--``, ``--i``, ``i -= c`` or ``i = i - c`` (c a positive constant); None
        for a loop counting up. A step down by anything else is refused."""
        step = _step(node.next, var, up=False)
        if step is None:
            return None
        if (_number(step) or 0) > 0:
            return _number(step)
        raise self.error(
            node.next,
            f"unsupported loop: a loop counting down must step by a positive constant ('{var}--', '{var} -= 2')",
        )

    def _floor(self, node: c_ast.For, var: str) -> c_ast.Node:
        """The lowest value of a loop counting down: ``i >= lower``, or ``lower + 1`` of ``i > lower``."""
        cond = node.cond
        if isinstance(cond, c_ast.BinaryOp):
            left, right, op = cond.left, cond.right, cond.op
            if _is(right, var) and op in ("<", "<="):
                left, right, op = right, left, {"<": ">", "<=": ">="}[op]
            if _is(left, var) and op in (">", ">="):
                return right if op == ">=" else _plus_one(right)
        raise self.error(
            cond if cond is not None else node,
            f"unsupported loop: counting down, the condition must be '{var} >= lower' or '{var} > lower'",
        )

    def _init(self, node: c_ast.For) -> tuple[str, c_ast.Node]:
        init = node.init
        if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
            return init.lvalue.name, init.rvalue
        if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
            return init.decls[0].name, init.decls[0].init
        raise self.error(node, "unsupported loop: the initialisation must be 'i = lower' or 'int i = lower'")

    def _cond(self, node: c_ast.For, var: str) -> c_ast.Node:
        cond = node.cond
        if isinstance(cond, c_ast.BinaryOp):
            left, right, op = cond.left, cond.right, cond.op
            if isinstance(right, c_ast.ID) and right.name == var and op in (">", ">="):
                left, right, op = right, left, {">": "<", ">=": "<="}[op]
            if isinstance(right, c_ast.ID) and right.name == var and op == "!=":
                left, right = right, left
            if isinstance(left, c_ast.ID) and left.name == var and op in ("<", "<=", "!="):
                if op in ("<", "!="):  # counting up by one, i != n stops where i < n does
                    return right
                return _plus_one(right)
        where = cond if cond is not None else node
        raise self.error(
            where,
            f"unsupported loop: the condition must be '{var} < upper', '{var} <= upper' or '{var} != upper' "
            f"(or, counting down, '{var} >= lower' or '{var} > lower')",
        )

    def _next(self, node: c_ast.For, var: str) -> int:
        nxt = node.next
        step = _step(nxt, var, up=True)
        if step is not None and (_number(step) or 0) > 0:
            return _number(step)
        where = nxt if nxt is not None else node
        raise self.error(
            where, f"unsupported loop: the increment must be '{var}++' or '{var} += c' with a positive constant c"
        )

    # -- statements -------------------------------------------------------------
    def statement(self, node: c_ast.Node) -> Stmt:
        self._control(node, in_loop=False)
        finder = _AccessFinder(self)
        finder.visit(node)
        return Stmt(node, loc_of(node), tuple(finder.accesses), frozenset(finder.reads), frozenset(finder.writes))

    def _control(self, node: c_ast.Node, in_loop: bool) -> None:
        """Refuses control flow the IR cannot keep; records each break and continue with the
        region's loop it leaves or restarts (``in_loop``: inside a for loop of this statement)."""
        kind = type(node).__name__
        if kind in _UNSUPPORTED:
            raise self.error(node, f"{_UNSUPPORTED[kind]} not supported in a Loop region")
        if isinstance(node, c_ast.Decl) and "static" in node.storage and "const" not in node.quals:
            raise self.error(
                node,
                f"the static variable '{node.name}' keeps its value from one iteration to the next, which "
                "iterations run at once on threads cannot do: declare it outside the Loop region",
            )
        if kind in ("Break", "Continue") and not in_loop:
            if not self.jumps:
                raise self.error(node, f"'{kind.lower()}' outside the region's loops")
            self.jumps[-1].append(Jump(kind.lower(), loc_of(node)))
        for _, child in node.children():  # a loop inside a statement runs in one iteration, as written
            self._control(child, in_loop or kind in ("For", "While", "DoWhile"))


def _guard_sunk(node: c_ast.If) -> c_ast.For | None:
    """``if (c) for (...) S`` as ``for (...) if (c) S``, so that the loop stays a loop of the
    nest (a grid loop, a strip) and the guard becomes its body's: where the ``if`` has no
    ``else`` and guards the loop alone (or an ``if`` that does), ``c`` has no side effect and
    reads nothing the loop writes (evaluated before each iteration, it is what it was before the
    loop), and the loop's header is safe to run where ``c`` is false (_safe). None elsewhere."""
    if node.iffalse is not None:
        return None
    inner = node.iftrue
    if isinstance(inner, c_ast.Compound):
        items = [n for n in inner.block_items or () if not isinstance(n, c_ast.EmptyStatement)]
        inner = items[0] if len(items) == 1 else None
    if isinstance(inner, c_ast.If):  # if (c) if (d) for ...: both guards sink
        inner = _guard_sunk(inner)
    if not isinstance(inner, c_ast.For):
        return None
    reads = _Names()
    reads.visit(node.cond)
    writes = _Names()
    writes.visit(inner)
    if (
        reads.effects
        or reads.names & writes.written
        or not all(_safe(part) for part in (inner.init, inner.cond, inner.next))
    ):
        return None
    return c_ast.For(inner.init, inner.cond, inner.next, c_ast.If(node.cond, inner.stmt, None, node.coord), inner.coord)


def _safe(node: c_ast.Node | None) -> bool:
    """Whether a loop header's part can run where the guard is false: it reads no memory and
    divides by constants alone (a guard may protect ``rowptr[i + 1]`` or ``m / d``)."""
    for _, child in node.children() if node is not None else ():
        if not _safe(child):
            return False
    if isinstance(node, (c_ast.ArrayRef, c_ast.FuncCall, c_ast.StructRef)):
        return False
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        return False
    return not (
        isinstance(node, c_ast.BinaryOp) and node.op in ("/", "%") and not isinstance(node.right, c_ast.Constant)
    )


class _Names(c_ast.NodeVisitor):
    """The names an expression or statement reads, the variables and arrays it writes (or
    declares, or takes the address of), and whether it assigns or calls anything."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.written: set[str] = set()
        self.effects = False

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.add(node.name)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.effects = True
        if node.args is not None:
            self.visit(node.args)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        self.written.add(node.name)
        self.generic_visit(node)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self.effects = True
        self.written.add(_base_name(node.lvalue))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--", "&"):
            self.effects = True
            self.written.add(_base_name(node.expr))
        self.generic_visit(node)


def _base_name(node: c_ast.Node) -> str:
    """The variable an lvalue is part of (``A`` of ``A[i][j]``, ``p`` of ``p.x`` and ``*p``)."""
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef, c_ast.UnaryOp, c_ast.Cast)):
        node = node.name if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)) else node.expr
    return node.name if isinstance(node, c_ast.ID) else "?"


def _aligned(floor: c_ast.Node, start: c_ast.Node, step: int) -> c_ast.Node:
    """The lowest value of a loop counting down from ``start`` by ``step`` to ``floor``:
    ``floor`` itself for a step of one, else ``floor + ((start - floor) % step + step) % step``
    (above the start where the loop runs not at all, so that it stays empty)."""
    if step == 1:
        return floor
    numbers = [_number(start), _number(floor)]
    if None not in numbers:  # known: a number
        return c_ast.Constant("int", str(numbers[1] + (numbers[0] - numbers[1]) % step))
    c = c_ast.Constant("int", str(step))
    mod = c_ast.BinaryOp("%", c_ast.BinaryOp("-", start, floor), c)
    return c_ast.BinaryOp("+", floor, c_ast.BinaryOp("%", c_ast.BinaryOp("+", mod, c), c))


def _step(nxt: c_ast.Node | None, var: str, up: bool) -> c_ast.Node | None:
    """The step of a loop's increment in one direction (``up``: ``i++``, ``i += c``, ``i = i + c``
    or ``c + i``; else ``i--``, ``i -= c``, ``i = i - c``); None where it is none of those."""
    sign = "+" if up else "-"
    if isinstance(nxt, c_ast.UnaryOp) and nxt.op in (f"p{sign * 2}", sign * 2) and _is(nxt.expr, var):
        return c_ast.Constant("int", "1")
    if not (isinstance(nxt, c_ast.Assignment) and _is(nxt.lvalue, var)):
        return None
    if nxt.op == sign + "=":
        return nxt.rvalue
    rhs = nxt.rvalue
    if nxt.op == "=" and isinstance(rhs, c_ast.BinaryOp) and rhs.op == sign:
        if _is(rhs.left, var):
            return rhs.right
        if up and _is(rhs.right, var):
            return rhs.left
    return None


def _number(node: c_ast.Node) -> int | None:
    if isinstance(node, c_ast.Constant) and node.type == "int":
        return int(node.value.rstrip("uUlL"), 0)
    if isinstance(node, c_ast.UnaryOp) and node.op == "-" and _number(node.expr) is not None:
        return -_number(node.expr)
    return None


def _is(node: c_ast.Node, var: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == var


def _plus_one(expr: c_ast.Node) -> c_ast.Node:
    """``e + 1``, folding ``n - 1 + 1`` back to ``n``."""
    if (
        isinstance(expr, c_ast.BinaryOp)
        and expr.op == "-"
        and isinstance(expr.right, c_ast.Constant)
        and expr.right.value == "1"
    ):
        return expr.left
    if isinstance(expr, c_ast.Constant) and expr.type == "int":
        return c_ast.Constant("int", str(int(expr.value.rstrip("uUlL"), 0) + 1), expr.coord)
    return c_ast.BinaryOp("+", expr, c_ast.Constant("int", "1"), expr.coord)


def array_base(node: c_ast.ArrayRef) -> tuple[c_ast.Node, list[c_ast.Node]]:
    """``A[i][j]`` -> (``A``, [i, j])."""
    subs = []
    while isinstance(node, c_ast.ArrayRef):
        subs.append(node.subscript)
        node = node.name
    return node, subs[::-1]


_DEREFERENCE = "only an array plus or minus an offset can be dereferenced in a Loop region (*(a + i), *p)"


class _AccessFinder(c_ast.NodeVisitor):
    """Array accesses and scalar reads/writes of one statement."""

    def __init__(self, lowering: Lowering):
        self.lowering = lowering
        self.accesses: list[Access] = []
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        self.calls: list[str] = []  # the functions whose arguments are being visited, innermost last
        self.private = lowering.private

    def _target(self, node: c_ast.Node, also_read: bool) -> None:
        if isinstance(node, c_ast.StructRef):
            self._member(node, write=True)
            if also_read:
                self._member(node, write=False, subscripts=False)
        elif isinstance(node, c_ast.ArrayRef):
            self._array(node, write=True)
            if also_read:
                self._array(node, write=False, subscripts=False)
        elif isinstance(node, c_ast.ID):
            self.writes.add(node.name)
            if also_read:
                self.reads.add(node.name)
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            raise self.lowering.error(node, _DEREFERENCE)
        else:
            raise self.lowering.error(node, "unsupported assignment target in a Loop region")

    def _array(
        self, node: c_ast.ArrayRef, write: bool, subscripts: bool = True, member: c_ast.StructRef | None = None
    ) -> None:
        """``a[i]``, or with ``member`` its field ``a[i].x`` (located at the field's access)."""
        base, subs = array_base(node)
        at = member if member is not None else node
        if not isinstance(base, c_ast.ID):
            raise self.lowering.error(at, "only named arrays can be indexed in a Loop region")
        if base.name in self.private:  # each iteration's own array, declared in the loop: no memory of the nest's
            (self.writes if write else self.reads).add(base.name)
            if subscripts:
                for s in subs:
                    self.visit(s)
            return
        self.accesses.append(
            Access(base.name, tuple(subs), write, loc_of(at), member.field.name if member is not None else None)
        )
        if subscripts:
            for s in subs:
                self.visit(s)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self._target(node.lvalue, also_read=node.op != "=")
        self.visit(node.rvalue)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            self._target(node.expr, also_read=True)
        elif node.op == "&":
            raise self.lowering.error(node, "taking addresses ('&') is not supported in a Loop region")
        elif node.op == "*":  # frontend/pointers.py made each array's plus an offset a subscript
            raise self.lowering.error(node, _DEREFERENCE)
        else:
            self.visit(node.expr)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        self._array(node, write=False)

    def visit_ID(self, node: c_ast.ID) -> None:
        array = self.lowering.arrays.get(node.name)
        if array is None or not self.calls:
            self.reads.add(node.name)
            return
        # An array passed to a function (find_nearest_point(feature + i*n, ...)): a read of any of
        # its elements, by a function of the file that only reads them.
        callee = self.calls[-1]
        if callee not in self.lowering.functions:
            raise self.lowering.error(
                node,
                f"the array '{node.name}' is passed to '{callee}': a kernel passes arrays only "
                "to functions of this file, whose reads orcu can check",
            )
        if len(array.ctype.dims) > 1:
            raise self.lowering.error(
                node,
                f"the array '{node.name}' of {len(array.ctype.dims)} dimensions is passed to "
                f"'{callee}': pass a flat array (one dimension) to a function in a kernel",
            )
        self.accesses.append(Access(node.name, (), False, loc_of(node)))

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        if node.args is not None:
            self.calls.append(node.name.name if isinstance(node.name, c_ast.ID) else "?")
            self.visit(node.args)
            self.calls.pop()

    def visit_Decl(self, node: c_ast.Decl) -> None:
        self.writes.add(node.name)
        if isinstance(node.type, c_ast.ArrayDecl):
            self.private.add(node.name)
        if node.init is not None:
            self.visit(node.init)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self._member(node, write=False)

    def _member(self, node: c_ast.StructRef, write: bool, subscripts: bool = True) -> None:
        """``pos[i].x``: an access of the element pos[i], field x. ``p.x`` of a struct variable
        is the variable (a field written is the variable updated: read and written)."""
        if node.type == "." and isinstance(node.name, c_ast.ID):
            self.reads.add(node.name.name)
            if write:
                self.writes.add(node.name.name)
            return
        if node.type != "." or not isinstance(node.name, c_ast.ArrayRef):
            raise self.lowering.error(
                node,
                "only a field of an array's element (a[i].x) or of a struct variable (p.x) is "
                "supported in a Loop region",
            )
        self._array(node.name, write, subscripts, member=node)
