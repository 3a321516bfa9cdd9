"""Phase II's tensor-core placement: a multiply-add nest on the tensor cores.

A GEMM-like nest (two grid loops, in their body one sequential loop ``k`` whose body is one statement
``acc += f * X * Y``: ``X`` moving with the rows' grid loop and ``k``, ``Y`` with ``k`` and
the columns' grid loop, ``f`` factors that no loop moves) runs its products as warp-wide
``mma.sync`` (sm_80 and later): each warp computes 8 x 8 (doubles) or 16 x 8 (floats) tiles
of the block's tile, four iterations of ``k`` an instruction, its operands read from the
shared tiles of ``X`` and ``Y``.

- Doubles (``mma.m8n8k4.f64``): each product is an IEEE double multiply-add, as the C code's;
  only the order of the sums over ``k`` differs, which the validation's bound allows.
- Floats (``mma.m16n8k4.f32.tf32``), only where the transform opts in
  (``allowReducedPrecision=True``): each operand is rounded to TF32 (10 mantissa bits, to
  nearest) and the sums are floats. A product keeps about three decimal digits, so the
  validation allows ``TF32.rounding`` of each result's magnitude on top of float's bound.

The layout is the instructions' (PTX ISA, ``mma.m8n8k4`` with ``.f64``; ``mma.m16n8k4``
with ``.tf32``, two such row blocks 8 apart): lane ``l`` of a warp holds ``X[l / 4][l % 4]``
(and, with TF32, ``X[l / 4 + 8][l % 4]``) and ``Y[l % 4][l / 4]`` of the operands, and the
sums of row ``l / 4`` (and ``l / 4 + 8``), columns ``2 (l % 4)`` and ``2 (l % 4) + 1``. A
block's tile (its threads times the register tile along each grid loop) is split among its
warps, ``WM`` along the rows and ``WN`` along the columns; a thread's register tile is then its
sums there: ``rows`` rows 8 apart and ``cols`` columns in pairs 8 apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycparser import c_ast

from orcu.analysis.subscripts import Shaped
from orcu.frontend.ir import Loop, Stmt, c_text, loops_of
from orcu.tsg.phase1 import bound_names

WARP = 32
M, N, K = 8, 8, 4  # a row block's shape: rows, columns, iterations of k
TENSOR_ROWS = 4  # an operand tile's rows, modulo 16 elements: its 8 x 4 or 4 x 8 reads free of bank conflicts


@dataclass(frozen=True)
class Instruction:
    """One kind of tensor-core product."""

    name: str
    element: str  # the C type of its operands and sums
    blocks: int  # row blocks of M rows an instruction sums (its rows: M * blocks)
    helper: str  # the prelude's function that runs it
    ptx: str  # the instruction, as nvcc's PTX spells it
    # the relative error its operands' rounding may add to a result, of the result's magnitude
    # (the harness's check widens by it): 0 where every product rounds as the C code's
    rounding: float
    zero: str  # the C literal of its element's zero
    convert: str = ""  # the prelude's function that rounds an operand to the instruction's format


FP64 = Instruction("FP64", "double", 1, "orcu_mma_f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 0.0, "0.0")
# A product of two operands each rounded to 10 mantissa bits (to nearest, 2^-11 of itself at
# most) is off by 2^-10 of itself at most, and so a sum of same-signed products (the harness's
# first input set; its second one is exact in TF32) by 2^-10 of the sum
TF32 = Instruction(
    "TF32",
    "float",
    2,
    "orcu_mma_tf32",
    "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
    2.0**-10,
    "0.0f",
    "orcu_tf32",
)


@dataclass(frozen=True)
class Product:
    """A nest's multiply-add the tensor cores can run."""

    loop: str  # the sequential loop summed over (k)
    rows: str  # the grid loop that moves the left operand (i)
    cols: str  # the grid loop that moves the right operand (j)
    target: str  # the sum: a private scalar's name, or the text of the element kept in a register
    left: tuple[str, ...]  # the texts of the factors multiplied into the left operand, in order
    right: str  # the text of the right operand (the array read moving with k and cols)
    arrays: tuple[str, str]  # the arrays of the left and right operand reads (their shared tiles)
    instruction: Instruction = FP64


@dataclass(frozen=True)
class WarpLayout:
    """How a block's tile splits among its warps, and each thread's sums there."""

    warps_m: int  # warps along the rows
    warps_n: int  # ... and along the columns
    rows: int  # a thread's rows (8 apart)
    cols: int  # a thread's columns (in pairs, the pairs 8 apart)
    tile_m: int  # the block tile's rows
    tile_n: int  # ... and columns

    @property
    def warp_m(self) -> int:
        return self.tile_m // self.warps_m

    @property
    def warp_n(self) -> int:
        return self.tile_n // self.warps_n

    def row(self, lane: int, warp: int, a: int) -> int:
        """The block tile's row of a thread's ``a``-th row."""
        return warp // self.warps_n * self.warp_m + M * a + lane // 4

    def right_col(self, lane: int, warp: int, b: int) -> int:
        """The block tile's column a lane reads of the right operand for its ``b``-th 8 columns."""
        return warp % self.warps_n * self.warp_n + N * b + lane // 4


def product(
    grid: list[Loop],
    body: tuple,
    shaped: Mapping[str, Shaped],
    types: Mapping[str, str],
    accumulators: set[str],
    reduced: bool = False,
) -> Product | str:
    """The nest's tensor-core product, or why it has none. ``shaped``: the accesses by text;
    ``types``: each variable's element type; ``accumulators``: the private scalars; ``reduced``:
    the transform lets float products round their operands (allowReducedPrecision)."""
    if len(grid) != 2 or any(lp.step != 1 for lp in grid):
        return "the tensor cores take two grid loops of step 1 (a block's 2-D tile)"
    if any(bound_names(lp) & {g.var for g in grid} for lp in grid):
        return "the bounds of a grid loop follow another (a triangle): the tensor cores take whole 8 x 8 tiles"
    inner = loops_of(body)
    if len(inner) != 1 or not any(node is inner[0] for node in body):
        return "the tensor cores take one sequential loop in the grid loops' body"
    loop = inner[0]
    if (
        loop.step != 1
        or loop.descending
        or loop.jumps
        or bound_names(loop) & ({g.var for g in grid} | set(accumulators))
    ):
        return f"the loop on '{loop.var}' does not run alike in every thread, one step at a time upwards"
    if len(loop.body) != 1 or not isinstance(loop.body[0], Stmt):
        return f"the loop on '{loop.var}' holds more than one statement"
    st = loop.body[0]
    node = st.node
    if not (isinstance(node, c_ast.Assignment) and node.op == "+="):
        return f"'{st.text}' is not a sum 'target += product'"
    target = c_text(node.lvalue)
    instruction = _instruction(types.get(_name(node.lvalue)), reduced)
    if isinstance(instruction, str):
        return f"'{target}' {instruction}"
    element = instruction.element
    loop_vars = {lp.var for lp in grid} | {loop.var}
    moves = _moves(node.lvalue, shaped, loop_vars)
    if moves is None or loop.var in moves or (isinstance(node.lvalue, c_ast.ID) and target not in accumulators):
        return f"'{target}' is not one sum per iteration of the grid loops, kept over the loop on '{loop.var}'"
    factors = _factors(node.rvalue)
    grid_vars = [lp.var for lp in grid]
    left, arrays = [], []
    for f in factors:
        if isinstance(f, c_ast.Constant):
            left.append(f)
            continue
        if isinstance(f, c_ast.ID) and f.name not in accumulators | st.scalar_writes | loop_vars:
            if types.get(f.name) != element:
                return f"'{f.name}' is not a {element}"
            left.append(f)
            continue
        if not isinstance(f, c_ast.ArrayRef) or c_text(f) not in shaped or types.get(_name(f)) != element:
            return f"'{c_text(f)}' is neither a {element} array read nor a factor every iteration shares"
        used = _moves(f, shaped, loop_vars)
        if used is None or loop.var not in used or len(used) != 2:
            return f"'{c_text(f)}' does not move with '{loop.var}' and one grid loop"
        arrays.append((f, sorted(used - {loop.var})[0]))
    if len(arrays) != 2 or arrays[0][1] == arrays[1][1]:
        return f"'{st.text}' is not a product of two arrays, one along each grid loop"
    (first, first_var), (second, second_var) = arrays
    if not isinstance(node.lvalue, c_ast.ID) and moves != set(grid_vars):
        return f"'{target}' does not move with both grid loops"
    # the right operand is the last array factor, so that the left operand is the C code's product
    # of the factors before it (multiplication is left-associative): the same roundings
    if factors[-1] is not second:
        return f"'{st.text}': the right operand is not the last factor"
    left.append(first)
    return Product(
        loop.var,
        first_var,
        second_var,
        target,
        tuple(c_text(f) for f in left),
        c_text(second),
        (_name(first), _name(second)),
        instruction,
    )


def _instruction(element: str | None, reduced: bool) -> Instruction | str:
    """The instruction that sums ``element``s, or why none does (after the sum's text)."""
    if element == FP64.element:
        return FP64
    if element == TF32.element:
        if reduced:
            return TF32
        return (
            "is a float: the tensor cores would round its products' operands to TF32 (10 mantissa bits); "
            "allowReducedPrecision=True lets them"
        )
    return "is neither a double nor a float"


def warp_layout(shape: tuple[int, int], counts: Mapping[str, int], found: Product) -> WarpLayout | str:
    """The split of the block's tile among its warps with the fewest operand loads a step (each
    of a thread's rows loads one left element, each pair of columns one right element), or why
    there is none."""
    threads = shape[0] * shape[1]
    if threads % WARP:
        return f"a block of {threads} threads is not whole warps"
    warps = threads // WARP
    tile_m, tile_n = counts[found.rows], counts[found.cols]
    best = None
    for wm in range(1, warps + 1):
        wn = warps // wm
        if wm * wn != warps or tile_m % (M * found.instruction.blocks * wm) or tile_n % (N * wn):
            continue
        rows, cols = tile_m // (M * wm), tile_n // (WARP // M * wn)
        loads = rows + cols // 2
        if best is None or loads < best[0]:
            best = (loads, WarpLayout(wm, wn, rows, cols, tile_m, tile_n))
    if best is None:
        return (
            f"the block's tile of {tile_m} x {tile_n} iterations of '{found.rows}' and '{found.cols}' does not split "
            f"into {M * found.instruction.blocks} x 8 tiles among its {warps} warps"
        )
    return best[1]


def _name(node: c_ast.Node) -> str:
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""


def _moves(node: c_ast.Node, shaped: Mapping[str, Shaped], loops: set[str]) -> set[str] | None:
    """The ``loops`` an access's subscripts read (a scalar: none); None where they are not affine."""
    if isinstance(node, c_ast.ID):
        return set()
    sh = shaped.get(c_text(node))
    if sh is None or sh.dims is None or not sh.exact:
        return None
    return set().union(*(d.names for d in sh.dims)) & loops


def _factors(node: c_ast.Node) -> list[c_ast.Node]:
    """The factors of a product, in the order C multiplies them."""
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        return _factors(node.left) + _factors(node.right)
    return [node]
