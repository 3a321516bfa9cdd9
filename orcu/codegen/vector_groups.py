"""A thread's iterations along x as vectors, for the TSG's tiled kernel body (codegen/tiled.py,
whose TiledBody takes these methods): with ``vectorize``, the register tile's iterations along
x come in groups of up to 16 bytes of consecutive elements; an access that moves one element a
step moves a group as one vector where the group is whole and its first element aligned as
the kernel runs, element by element otherwise."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from orcu.analysis.subscripts import Shaped
from orcu.codegen import printer
from orcu.codegen.tile_iterations import Iteration
from orcu.frontend.ir import Loop, Stmt
from orcu.tsg.shared_tiles import SharedTile
from orcu.tsg.vectors import moves_as_vector

LANES = "xyzw"


class VectorGroups:
    """The vector loads and stores of TiledBody's iterations; what they read of the body is declared here."""

    grid: list[Loop]
    x: str
    width: int  # iterations of x a thread moves as one vector (1: none)
    vector_texts: frozenset[str]  # the accesses that x moves one element a step (Placement.vectors)
    tiled: set[str]
    tile_reads: dict[str, SharedTile]  # the accesses read from a shared tile, by text: their tile
    counts: dict[str, int]
    shaped: Mapping[str, Shaped]
    iterations: list[Iteration]
    element_types: Mapping[str, str]
    element_bytes: Mapping[str, int]
    fresh: Callable[[str], str]
    _constant_refs: dict[str, str]
    _named: int
    _at: Callable[[str, Iteration], str]

    def _vector_register(self, r) -> bool:
        """Whether an element kept in a register over a loop is loaded and stored as vectors:
        it moves so, and with each tiled grid loop (no two iterations hold one element)."""
        return (
            self.width > 1 and r.ref in self.vector_texts and moves_as_vector(self.shaped[r.ref], self.tiled, kept=True)
        )

    def _groups(self) -> list[list[Iteration]]:
        """The register tile's iterations by vector: those one group of x apart and alike along
        the other grid loops, in order along x."""
        at = [lp.var for lp in self.grid].index(self.x)
        groups: dict[tuple, list[Iteration]] = {}
        for it in self.iterations:
            key = it.index[:at] + (it.index[at] // self.width,) + it.index[at + 1 :]
            groups.setdefault(key, []).append(it)
        return list(groups.values())

    def _vector_accesses(self, node: Stmt, active: tuple) -> dict[str, tuple[str, str | None]]:
        """The accesses of a statement that move as vectors, by text: (array, None for a read,
        "read" for an element read and written, "write" for one only assigned)."""
        if self.width == 1:
            return {}
        held = {r.ref for r in active} | set(self._constant_refs)
        out: dict[str, tuple[str, str | None]] = {}
        for a in node.accesses:
            if a.text in held or a.text in out:
                continue
            tile = self.tile_reads.get(a.text)
            if tile is not None:
                k = next(k for k, sh in enumerate(tile.accesses) if sh.access.text == a.text)
                if tile.vector_read(k, self.x, self.width, self.counts):
                    out[a.text] = (a.array, None)
                continue
            if a.text not in self.vector_texts:
                continue
            written = any(b.text == a.text and b.write for b in node.accesses)
            if not moves_as_vector(self.shaped[a.text], self.tiled, node=node.node, written=written):
                continue
            if not written:
                out[a.text] = (a.array, None)
            else:
                reads = node.node.op != "=" or sum(b.text == a.text for b in node.accesses) > 1
                out[a.text] = (a.array, "read" if reads else "write")
        return out

    def _vector_load(
        self,
        name: str,
        text: str,
        array: str,
        vector: str,
        group: list[Iteration],
        depth: int,
        whole: str | None = None,
    ) -> list[str]:
        """A group's elements of a global access into the vector register ``name``: one load
        where the group is whole and aligned, else element by element (zeros past the loop's
        end). Only the grid loops it moves with are checked: groups that differ in the others
        read the same elements, with one load."""
        pad, element = printer.INDENT * depth, self.element_types[array]
        each = " ".join(
            f"{name}.{LANES[lane]} = {self._moving_inside(text, it)} ? {self._at(text, it)} : ({element})0;"
            for lane, it in enumerate(group)
        )
        return [
            f"{pad}{vector} {name};",
            f"{pad}if ({whole or self._whole(text, array, group, self._moving_inside(text, group[-1]))}) "
            f"{name} = *(const {vector} *)&{self._at(text, group[0])};",
            f"{pad}else {{ {each} }}",
        ]

    def _moving_inside(self, text: str, it: Iteration) -> str:
        """C condition: the iteration is inside the grid loops the access moves with."""
        used = set().union(*(d.names for d in self.shaped[text].dims))
        return " && ".join(b for lp, b in zip(self.grid, it.bounds) if lp.var in used) or "true"

    def _vector_store(
        self,
        text: str,
        array: str,
        vector: str,
        group: list[Iteration],
        name: str,
        depth: int,
        whole: str | None = None,
    ) -> list[str]:
        pad = printer.INDENT * depth
        each = " ".join(
            f"if ({it.guard}) {self._at(text, it)} = {name}.{LANES[lane]};" for lane, it in enumerate(group)
        )
        return [
            f"{pad}if ({whole or self._whole(text, array, group)}) *({vector} *)&{self._at(text, group[0])} = {name};",
            f"{pad}else {{ {each} }}  // the loop's end, or a row that does not start on a whole vector",
        ]

    def _whole(self, text: str, array: str, group: list[Iteration], inside: str | None = None) -> str:
        """C condition: every iteration of the group runs (``inside``: its last one is inside the
        loops that matter) and its first element starts a vector."""
        return f"{inside or group[-1].guard} && (size_t)&{self._at(text, group[0])} % {self.width * self.element_bytes[array]} == 0"

    def _vector_name(self, base: str) -> str:
        self._named += 1
        return self.fresh(f"{base}_v{self._named}")
