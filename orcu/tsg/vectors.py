"""Which accesses move as vectors (8 or 16 bytes a thread): contiguous along the block's x, aligned
where they start, and stored whole."""

from __future__ import annotations

from collections.abc import Mapping

from pycparser import c_ast

from orcu.analysis.affine import Poly
from orcu.analysis.subscripts import Shaped, shapes
from orcu.frontend.ir import LoopNest, c_text
from orcu.frontend.types import VECTORS, canonical_type

VECTOR_BYTES = 16  # the widest load a thread issues


def moves_with(sh: Shaped, loops: set[str]) -> bool:
    """Whether every one of ``loops`` moves the access: no two iterations of a register tile over
    them meet at one element (a group of them can store it as a vector)."""
    return loops <= set().union(*(d.names for d in sh.dims))


def stored_as_vector(node: c_ast.Node, sh: Shaped, tiled: set[str]) -> bool:
    """Whether a written element moves as vectors (with the reads of it in the statement): the
    statement is its assignment, so every iteration of a group assigns it, and it moves with
    each tiled grid loop."""
    return isinstance(node, c_ast.Assignment) and c_text(node.lvalue) == sh.access.text and moves_with(sh, tiled)


def moves_as_vector(
    sh: Shaped, tiled: set[str], *, kept: bool = False, node: c_ast.Node | None = None, written: bool = False
) -> bool:
    """Whether a global access that moves one element a step along x with the vector layout
    (Placement.vectors) moves a group at a time: ``kept`` in a register over a loop, it must
    move with each tiled grid loop (loaded before the loop, stored after); otherwise it is
    read only in the statement ``node``, or, ``written``, the statement assigns it
    (stored_as_vector). The one decision codegen/tiled.py emits and tsg/traffic.py counts."""
    if kept:
        return moves_with(sh, tiled)
    return not written or stored_as_vector(node, sh, tiled)


def by_text(nest: LoopNest) -> Mapping[str, Shaped]:
    """Every access of the nest by its text (one text, one set of subscripts); kept with the
    nest, as the space asks for every configuration."""
    key = ("by_text", id(nest.body))
    if key not in nest.memo:
        nest.memo[key] = {sh.access.text: sh for accesses in shapes(nest).values() for sh in accesses}
    return nest.memo[key]


def _has_vectors(nest: LoopNest, name: str) -> bool:
    """Whether CUDA has vector types of the array's elements (float2/float4, double2, ...)."""
    return (canonical_type(nest.variables[name].ctype.base), 2) in VECTORS


def contiguous(sh: Shaped, x: str) -> bool:
    """Whether consecutive iterations of the loop on ``x`` move the access to consecutive
    elements: ``x`` in its last dimension alone, one element a step, and that dimension's
    elements adjacent."""
    if not sh.dims or not sh.exact or any(x in d.names for d in sh.dims[:-1]):
        return False
    parts = sh.dims[-1].split(x)
    if parts is None or parts[0].constant != 1:
        return False
    return sh.strides is None or sh.strides[-1].constant == 1


def vector_width(tile: int, sizes) -> int:
    """Iterations of x a thread moves as one vector: its register tile along x, at most
    VECTOR_BYTES of the widest element among ``sizes`` (bytes of the arrays read as vectors)."""
    return max(1, min(tile, VECTOR_BYTES // max(sizes, default=VECTOR_BYTES)))


def starts_aligned(sh: Shaped, x: str, lower: Poly, width: int) -> bool:
    """Whether a group's first element can start a vector: the access's last subscript at the
    loop's first iteration has a constant part that is a multiple of ``width`` (the rest, sizes
    and the array's start, is checked when the kernel runs). ``A[i][j - 1]`` with ``j`` from 1
    is; ``A[i][j]`` is not."""
    _, rest = sh.dims[-1].split(x)
    return (rest + lower).as_dict().get((), 0) % width == 0
