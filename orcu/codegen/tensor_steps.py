"""A product on the tensor cores, for the TSG's tiled kernel body (codegen/tiled.py, whose
TiledBody takes these methods): a thread's register tile is its sums in mma.sync's layout
(tsg/tensor_cores.py's WarpLayout), and each step of four iterations of the product's loop
loads every lane's operands from the shared tiles (rounded to TF32 for floats), then runs one
``orcu_mma_f64`` (the prelude's) per 8 x 8 tile of its warp's, or one ``orcu_mma_tf32`` per
16 x 8 tile."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from orcu.codegen import printer
from orcu.codegen.tile_iterations import Iteration
from orcu.frontend.ir import Loop
from orcu.tsg.banks import bank_ways
from orcu.tsg.phase2 import Placement
from orcu.tsg.shared_tiles import SharedTile
from orcu.tsg.tensor_cores import WARP, Product, WarpLayout, warp_layout


class TensorSteps:
    """The tensor-core steps of TiledBody's product; what they read of the body is declared here."""

    grid: list[Loop]
    shape: tuple[int, int]
    depth: int
    tiles: dict[str, int]
    counts: dict[str, int]
    start: dict[str, str]
    iterations: list[Iteration]
    element_bytes: Mapping[str, int]
    fresh: Callable[[str], str]
    _name: Callable[[str, int], str]
    _refs: Callable[[Iteration, tuple], dict[str, str]]
    _printed: Callable[[str, Mapping[str, str], Mapping[str, str]], str]
    _strip_runs: Callable[..., list[str]]

    def _tensor_setup(self, placed: Placement, values: Mapping) -> None:
        """tensorCores: the products on the tensor cores, the register tile the thread's sums in
        the instruction's layout (the runner pruned the shapes it does not fit)."""
        self.tensor: Product | None = placed.tensor if values.get("tensorCores") else None
        self.layout: WarpLayout | None = None
        if self.tensor is None:
            return
        layout = warp_layout(self.shape, self.counts, self.tensor)
        assert not isinstance(layout, str), layout
        self.layout = layout
        self.tiles = {self.tensor.rows: layout.rows, self.tensor.cols: layout.cols}
        self.lane, self.warp = self.fresh("orcu_lane"), self.fresh("orcu_warp")
        # the right operand's columns a lane reads, one per 8 of the thread's columns
        self.right_cols = [self.fresh(f"{self.tensor.cols}_right_{b}") for b in range(layout.cols // 2)]

    def _fragment_ways(self, t: SharedTile) -> int:
        """The most requests of a warp in one bank over its reads of an operand's tile for one
        instruction: each of a thread's rows (left) or of its pairs of columns (right), every warp."""
        assert self.tensor is not None and self.layout is not None
        tensor, layout = self.tensor, self.layout
        left = t.array == tensor.arrays[0]
        text = tensor.left[-1] if left else tensor.right
        offsets = next(o for sh, o in zip(t.accesses, t.offsets) if sh.access.text == text)
        size = self.element_bytes[t.array]
        worst = 1
        for warp in range(self.shape[0] * self.shape[1] // WARP):
            for n in range(layout.rows if left else layout.cols // 2):
                positions = [
                    {tensor.loop: lane % 4}
                    | (
                        {tensor.rows: layout.row(lane, warp, n)}
                        if left
                        else {tensor.cols: layout.right_col(lane, warp, n)}
                    )
                    for lane in range(WARP)
                ]
                worst = max(worst, bank_ways(t.addresses(offsets, positions, self.counts, size), size))
        return worst

    def _tensor_names(self, depth: int) -> list[str]:
        """A thread's lane and warp, the grid loops' values of its sums, and the columns it reads
        of the right operand (tsg/tensor_cores.py's WarpLayout)."""
        assert self.tensor is not None and self.layout is not None
        pad, tensor, layout = printer.INDENT * depth, self.tensor, self.layout
        thread = "threadIdx.x" if self.shape[1] == 1 else f"(threadIdx.y * {self.shape[0]} + threadIdx.x)"
        warp_row = (
            []
            if layout.warps_m == 1
            else [f"{self.warp} * {layout.warp_m}"]
            if layout.warps_n == 1
            else [f"{self.warp} / {layout.warps_n} * {layout.warp_m}"]
        )
        warp_col = [f"{self.warp} % {layout.warps_n} * {layout.warp_n}"] if layout.warps_n > 1 else []

        def at(start: str, terms: list[str]) -> str:
            return f"{start} + ({' + '.join(t for t in terms if t != '0')})"

        instruction = tensor.instruction
        rows = "rows l / 4 and l / 4 + 8" if instruction.blocks == 2 else "row l / 4"
        out = [
            f"{pad}// the warps split the block's {layout.tile_m} x {layout.tile_n} tile into {layout.warps_m} x "
            f"{layout.warps_n} tiles of {layout.warp_m} x {layout.warp_n}; lane l of a warp sums {rows} and columns "
            f"2 (l % 4) and 2 (l % 4) + 1 of each {8 * instruction.blocks} x 8 tile (mma.sync's layout)",
            *(
                [
                    f"{pad}// {instruction.name} (allowReducedPrecision): each operand rounded to 10 mantissa bits, the "
                    f"sums in {instruction.element}; orcu checked every result to {instruction.rounding:g} of its size"
                ]
                if instruction.rounding
                else []
            ),
            f"{pad}const int {self.lane} = {thread} % {WARP};",
            f"{pad}const int {self.warp} = {thread} / {WARP};",
        ]
        for a in range(layout.rows):
            name = self._name(tensor.rows, a)
            declare = "" if name == tensor.rows else "const orcu_index "
            row = at(self.start[tensor.rows], [*warp_row, str(8 * a), f"{self.lane} / 4"])
            out.append(f"{pad}{declare}{name} = {row};")
        for c in range(layout.cols):
            col = at(self.start[tensor.cols], [*warp_col, str(8 * (c // 2) + c % 2), f"2 * ({self.lane} % 4)"])
            out.append(f"{pad}const orcu_index {self._name(tensor.cols, c)} = {col};")
        out += [
            f"{pad}const orcu_index {name} = {at(self.start[tensor.cols], [*warp_col, str(8 * b), f'{self.lane} / 4'])};  "
            "// the right operand's column this lane reads"
            for b, name in enumerate(self.right_cols)
        ]
        return out

    def _tensor_runs(self, loop: Loop, start: str, active: tuple, depth: int) -> list[str]:
        """The product's iterations in the strip from ``start``, four a step: the last strip, where
        shorter, reads zeros past the loop's end."""
        upper = printer.expression(loop.upper)
        whole = self._tensor_step(loop.var, active, depth + 2, None)
        last = self._tensor_step(loop.var, active, depth + 2, upper)
        return self._strip_runs(loop, start, whole, depth, last=last, step=4)

    def _tensor_step(self, v: str, active: tuple, depth: int, upper: str | None) -> list[str]:
        """Four iterations of the product from ``v``: each lane's operands (zeros where its
        iteration is at or past ``upper``), then the warp's instructions."""
        assert self.tensor is not None and self.layout is not None
        pad, tensor, layout = printer.INDENT * depth, self.tensor, self.layout
        k = f"({v} + {self.lane} % 4)"
        at = {it.index: it for it in self.iterations}
        rows_at = [lp.var for lp in self.grid].index(tensor.rows)

        def iteration(a: int, c: int) -> Iteration:
            return at[(a, c) if rows_at == 0 else (c, a)]

        instruction = tensor.instruction

        def operand(texts, it: Iteration) -> str:
            moved = replace(it, renames={**it.renames, tensor.loop: k})
            refs = self._refs(moved, active)
            value = " * ".join(self._printed(text, moved.renames, refs) for text in texts)
            if instruction.convert:
                value = f"{instruction.convert}({value})"
            return f"{k} < {upper} ? {value} : {instruction.zero}" if upper else value

        lefts = [self.fresh(f"{tensor.arrays[0]}_left_{a}") for a in range(layout.rows)]
        rights = [self.fresh(f"{tensor.arrays[1]}_right_{b}") for b in range(layout.cols // 2)]
        out = [
            f"{pad}const {instruction.element} {name} = {operand(tensor.left, iteration(a, 0))};"
            for a, name in enumerate(lefts)
        ]
        for b, name in enumerate(rights):
            it = iteration(0, 2 * b)
            it = replace(it, renames={**it.renames, tensor.cols: self.right_cols[b]})
            out.append(f"{pad}const {instruction.element} {name} = {operand((tensor.right,), it)};")
        blocks = instruction.blocks  # row blocks an instruction sums: a thread's rows (8 apart) in runs
        for a in range(0, layout.rows, blocks):
            for b, right in enumerate(rights):
                sums = [self._sum(iteration(a + r, 2 * b + e), active) for r in range(blocks) for e in (0, 1)]
                operands = [*sums, *lefts[a : a + blocks], right, self.lane]
                out.append(f"{pad}{instruction.helper}({', '.join(operands)});")
        return out

    def _sum(self, it: Iteration, active: tuple) -> str:
        """The register an iteration sums the product into."""
        assert self.tensor is not None
        target = self.tensor.target
        name = self._refs(it, active).get(target) if target not in it.renames else it.renames[target]
        assert name is not None and name.isidentifier(), f"the sum '{target}' is in no register"
        return name
