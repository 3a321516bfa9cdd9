"""Pointer dereferences written as the subscripts they are: ``*(a + i*m + j)`` is ``a[i*m + j]``,
``*alpha`` is ``alpha[0]``, ``*(A[i] + j)`` is ``A[i][j]``.

C code reads arrays through either spelling; everything after the front end (the accesses'
analysis, the TSG's tiles, code generation) knows the subscript alone, so a region's statements
are rewritten once, after their names have types. A dereference of anything else (``*p++``, a
cast) stays as written and is refused where the region is lowered.
"""

from __future__ import annotations

from collections.abc import Mapping

from pycparser import c_ast


def subscripted(items: list[c_ast.Node], ranks: Mapping[str, int]) -> None:
    """Rewrite, in place, each ``*e`` in ``items`` where ``e`` is an array (``ranks``: the
    dimensions and pointer levels of each) plus or minus an offset."""
    for item in items:
        _rewrite(item, ranks)


def _rewrite(node: c_ast.Node, ranks: Mapping[str, int]) -> None:
    for name, child in node.children():
        _rewrite(child, ranks)  # the inner first: *(*(A + i) + j) is *(A[i] + j), then A[i][j]
        found = _subscript(child, ranks)
        if found is not None:
            field, _, index = name.partition("[")
            if index:  # block_items[2], exprs[0], args... as pycparser names them
                getattr(node, field)[int(index.rstrip("]"))] = found
            else:
                setattr(node, field, found)


def _subscript(node: c_ast.Node, ranks: Mapping[str, int]) -> c_ast.ArrayRef | None:
    if not (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
        return None
    found = _pointer(node.expr, ranks)
    if found is None:
        return None
    base, offset = found
    return c_ast.ArrayRef(base, offset if offset is not None else c_ast.Constant("int", "0"), node.coord)


def _pointer(node: c_ast.Node, ranks: Mapping[str, int]) -> tuple[c_ast.Node, c_ast.Node | None] | None:
    """(array, offset) of a pointer expression: an array's name, a row of one (``A[i]`` of a
    2-D array), or either plus or minus an offset (None: no offset); None for anything else."""
    if isinstance(node, c_ast.ID):
        return (node, None) if ranks.get(node.name, 0) > 0 else None
    if isinstance(node, c_ast.ArrayRef):
        subscripts, base = 0, node
        while isinstance(base, c_ast.ArrayRef):
            subscripts, base = subscripts + 1, base.name
        return (node, None) if isinstance(base, c_ast.ID) and ranks.get(base.name, 0) > subscripts else None
    if not (isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-")):
        return None
    left = _pointer(node.left, ranks)
    if left is not None:
        base, offset = left
        step = node.right if node.op == "+" else c_ast.UnaryOp("-", node.right, node.coord)
        return base, step if offset is None else c_ast.BinaryOp(node.op, offset, node.right, node.coord)
    right = _pointer(node.right, ranks) if node.op == "+" else None
    if right is None:
        return None
    base, offset = right
    return base, node.left if offset is None else c_ast.BinaryOp("+", node.left, offset, node.coord)
