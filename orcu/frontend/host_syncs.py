"""What a region's host statements read and write of its arrays, for the tuned file to keep the
arrays on the device around them (codegen/resident.py writes the copies).

A region whose host code touches array elements between its kernels (gramschmidt's
``R[k][k] = sqrt(nrm);``, a triangular solve's ``x[i] = w / L[i][i];``) can still keep its
arrays on the device if each such statement sees the device's values and leaves its own there:
before it, what it reads is copied back from the device; after it, what it writes is copied to
the device. A statement that is one assignment or declaration moves only the elements it names
(each access's address, taken on the host as the statement runs); anything else (a loop left
to the host, a call given an array) moves the whole arrays it names. The host code gets a
marker statement, ``orcu_sync_N();``, before and after each such statement: Host.code drops
the markers, the resident region's code puts the copies there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pycparser import c_ast

from orcu.frontend.host import MARKER, Sync, Touch, holds_placeholder, rewritten, stands_in
from orcu.frontend.ir import Variable, c_text
from orcu.frontend.types import used_names


def marked(
    items: list[c_ast.Node], variables: Mapping[str, Variable], kernel_writes: set[str]
) -> tuple[list[c_ast.Node], dict[int, Sync]] | str:
    """``items`` (host code, each transformed loop a placeholder) with a marker before and after
    each statement that touches arrays, and each marker's touches; or why the arrays cannot stay
    on the device across the host code. ``kernel_writes``: the arrays a kernel may write (a
    copy back from the device moves only those)."""
    arrays = {n for n, v in variables.items() if v.kind == "array"}
    syncs: dict[int, Sync] = {}

    def marker(touches: list[Touch], to_device: bool) -> list[c_ast.Node]:
        if not touches:
            return []
        syncs[len(syncs)] = Sync(to_device, tuple(dict.fromkeys(touches)))
        return [c_ast.FuncCall(c_ast.ID(f"orcu_sync_{len(syncs) - 1}"), None)]

    def each(node: c_ast.Node) -> list[c_ast.Node] | None:
        if stands_in(node):
            return [node]
        if holds_placeholder(node):  # its statements are marked where they stand
            if not isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If, c_ast.Compound)):
                raise _Unkept(f"the host code runs a kernel inside a '{type(node).__name__.lower()}' statement")
            header = [getattr(node, a, None) for a in ("init", "cond", "next")]
            named = sorted(set(used_names([h for h in header if h is not None])) & arrays)
            if named:
                raise _Unkept(f"the host code's loop or test around a kernel reads '{named[0]}'")
            return None
        reads, writes = _touches(node, variables, arrays)
        return marker(reads, False) + [node] + marker(writes, True)

    try:
        out = rewritten(items, each)
    except _Unkept as e:
        return str(e)
    _defer_all(out, syncs, variables, arrays, kernel_writes)
    return out, syncs


def _defer_all(block: list[c_ast.Node], syncs: dict[int, Sync], variables, arrays: set[str], kernel_writes) -> None:
    """_defer in ``block`` and in every block inside its statements."""
    _defer(block, syncs, variables, arrays, kernel_writes)
    for node in block:
        inner = [getattr(node, a, None) for a in ("stmt", "iftrue", "iffalse")]
        if isinstance(node, c_ast.Compound):
            inner = [node]
        for child in inner:
            if isinstance(child, c_ast.Compound):
                _defer_all(list(child.block_items or []), syncs, variables, arrays, kernel_writes)


def _defer(block: list[c_ast.Node], syncs: dict[int, Sync], variables, arrays: set[str], kernel_writes) -> None:
    """Drops an element's copy to the device where a later marker of the same block copies the
    same element there again with no kernel between (nothing reads the device's copy before
    then), no copy of that array back from the device (it would fetch the stale value: only
    arrays a kernel writes come back) and nothing changing the element's subscripts: a
    triangular solve's ``x[i]``, written by two host statements in a row, moves once."""
    for p, node in enumerate(block):
        k = _marker(node)
        if k is None or not syncs[k].to_device:
            continue
        followed = {t for t in syncs[k].touches if t.element is not None}
        redundant: set[Touch] = set()
        for later in block[p + 1 :]:
            if not followed:
                break
            j = _marker(later)
            if j is not None:
                if syncs[j].to_device:
                    redundant |= followed & set(syncs[j].touches)
                    followed -= set(syncs[j].touches)
                else:
                    back = {u.array for u in syncs[j].touches} & kernel_writes
                    followed = {t for t in followed if t.array not in back}
                continue
            if holds_placeholder(later) or not isinstance(later, (c_ast.Assignment, c_ast.UnaryOp, c_ast.Decl)):
                break
            walker = _Walker(variables, arrays)
            walker.visit(later)
            if walker.whole or walker.problem:
                break
            followed = {t for t in followed if not set(_IDENTIFIER.findall(t.element or "")) & walker.assigned}
        if redundant:
            syncs[k] = Sync(True, tuple(t for t in syncs[k].touches if t not in redundant))


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _marker(node: c_ast.Node) -> int | None:
    """The number of a marker statement (orcu_sync_N();), None for any other."""
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        found = MARKER.fullmatch(node.name.name + "();")
        return int(found.group(1)) if found else None
    return None


class _Unkept(Exception):
    """Why host code keeps each loop moving its own arrays."""


def _touches(node: c_ast.Node, variables, arrays: set[str]) -> tuple[list[Touch], list[Touch]]:
    """(what ``node`` reads, what it writes) of the arrays: elements where it is one assignment
    or declaration whose subscripts it does not change, else whole arrays."""
    walker = _Walker(variables, arrays)
    walker.visit(node)
    if walker.problem:
        raise _Unkept(walker.problem)
    simple = isinstance(node, (c_ast.Assignment, c_ast.UnaryOp, c_ast.Decl, c_ast.FuncCall)) and not (
        walker.assigned & walker.subscript_names
    )
    if simple and not walker.whole:
        return walker.reads, walker.writes
    names = {t.array for t in walker.reads + walker.writes} | walker.whole
    written = {t.array for t in walker.writes} | walker.whole
    return [Touch(a, None) for a in sorted(names)], [Touch(a, None) for a in sorted(written)]


class _Walker(c_ast.NodeVisitor):
    """The array elements a statement reads and writes, in the order their values are needed
    (an element in another's subscript first)."""

    def __init__(self, variables, arrays: set[str]) -> None:
        self.variables, self.arrays = variables, arrays
        self.reads: list[Touch] = []
        self.writes: list[Touch] = []
        self.whole: set[str] = set()  # arrays given whole to a call, or their address taken
        self.assigned: set[str] = set()  # scalars the statement assigns
        self.subscript_names: set[str] = set()
        self.problem = ""

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        self._target(node.lvalue, read=node.op != "=")
        self.visit(node.rvalue)

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            self._target(node.expr, read=True)
        elif node.op == "&" and _base(node.expr) in self.arrays:
            self.whole.add(_base(node.expr))  # an element's address: anything past it may be touched
        elif node.op == "sizeof":
            return
        else:
            self.visit(node.expr)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.name:
            self.assigned.add(node.name)
        if node.init is not None:
            self.visit(node.init)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        for arg in node.args.exprs if node.args is not None else []:
            if isinstance(arg, c_ast.ID) and arg.name in self.arrays:
                self.whole.add(arg.name)  # the callee may read and write any of it
            elif isinstance(arg, c_ast.ArrayRef) and not self._full(arg):
                self.whole.add(_base(arg))  # a row given as a pointer
            else:
                self.visit(arg)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> None:
        if _base(node) not in self.arrays:
            self.generic_visit(node)
            return
        self._subscripts(node)
        self.reads.append(Touch(_base(node), c_text(node) if self._full(node) else None))

    def visit_ID(self, node: c_ast.ID) -> None:
        if node.name in self.arrays:
            self.problem = self.problem or f"the host code uses the array '{node.name}' as a pointer"

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self.visit(node.name)

    def _target(self, node: c_ast.Node, read: bool) -> None:
        """An assignment's target: a scalar assigned, or an array element written (and read
        first where only a part of it is written, a member, or the update reads it)."""
        element = node.name if isinstance(node, c_ast.StructRef) and node.type == "." else node
        if isinstance(element, c_ast.ID):
            if element.name in self.arrays:
                self.problem = self.problem or f"the host code assigns the array pointer '{element.name}'"
            self.assigned.add(element.name)
            return
        if not isinstance(element, c_ast.ArrayRef) or _base(element) not in self.arrays:
            self.visit(node)
            return
        self._subscripts(element)
        touch = Touch(_base(element), c_text(element) if self._full(element) else None)
        if read or element is not node or touch.element is None:
            self.reads.append(touch)
        self.writes.append(touch)

    def _subscripts(self, node: c_ast.ArrayRef) -> None:
        while isinstance(node, c_ast.ArrayRef):
            self.subscript_names |= set(used_names([node.subscript]))
            self.visit(node.subscript)
            node = node.name

    def _full(self, node: c_ast.ArrayRef) -> bool:
        """Whether the access names one element (as many subscripts as the array has levels)."""
        count = 0
        while isinstance(node, c_ast.ArrayRef):
            count, node = count + 1, node.name
        v = self.variables.get(node.name) if isinstance(node, c_ast.ID) else None
        return v is not None and count == v.ctype.pointers + len(v.ctype.dims)


def _base(node: c_ast.Node) -> str:
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""
