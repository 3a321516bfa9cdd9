"""A block's shared tiles filled from global memory, for the TSG's tiled kernel body
(codegen/tiled.py, whose TiledBody takes these methods): the box each tile covers, the
addresses it reads, and the fill loops (coalesced, 16-byte vectors where the rows allow,
asynchronous copies for two buffers a strip)."""

from __future__ import annotations

from collections.abc import Mapping
from math import prod

from orcu.analysis.affine import Poly, poly_of
from orcu.codegen import printer
from orcu.frontend.ir import Loop, loops_of, statements
from orcu.frontend.types import VECTORS
from orcu.tsg.shared_tiles import SharedTile


class SharedFills:
    """The fills of TiledBody's shared tiles; what they read of the body's state is declared here."""

    grid: list[Loop]
    body: tuple
    shared: list[SharedTile]
    shape: tuple[int, int]
    axes: Mapping[str, str]
    x: str
    width: int
    tiles: dict[str, int]
    counts: dict[str, int]
    start: dict[str, str]  # each tiled loop's first iteration in the block or strip (a fill's origin)
    tile_names: dict[str, str]  # each tile's C name, by its key (SharedTile.key)
    element_types: Mapping[str, str]
    element_bytes: Mapping[str, int]
    _ways: dict[str, int]

    def _fill(self, tiles: list[SharedTile], depth: int, asynchronous: bool = False, barrier: bool = True) -> list[str]:
        """The block copies ``tiles`` from global memory, then (``barrier``) waits for all of it.
        Consecutive threads take consecutive elements of the tile as declared, padding included
        (the padding's threads idle); 16 bytes each where the tile's rows are a whole number of
        vectors and the array's rows are aligned to 16 bytes. The stores go to the tile's storage
        (ORCU_TILE_DATA): its declared bank conflicts are those of its reads.
        ``asynchronous``: the copies run while the thread goes on (orcu_copy_async), each thread
        waits for its own before the barrier."""
        pad = printer.INDENT * depth
        out = []
        for t in tiles:
            kept = [k for k, d in enumerate(t.dims) if d.coefs or d.high > d.low]
            element = self.element_types[t.array]
            lanes = t.vector_lanes(self.counts, self.element_bytes[t.array])
            vector = VECTORS.get((element, lanes)) if lanes > 1 else None
            values = [
                f"({self._base(d)} + orcu_a{k})" if k in kept else f"({self._base(d)})" for k, d in enumerate(t.dims)
            ]
            out.append(
                f"{pad}// {t.array}{''.join(f'[{v}]' for v in values)}: the block's tile, read once from global "
                "memory, consecutive threads on consecutive "
                + (f"{vector}s where its rows allow" if vector else "elements")
            )
            if vector is None:
                out += self._fill_loop(t, kept, 1, None, asynchronous, depth)
                continue
            origin = [f"({self._base(d)})" for d in t.dims]
            rows = [f"({st.c_expr()}) % {lanes} == 0" for k, st in enumerate(t.accesses[0].strides) if k in kept[:-1]]
            aligned = " && ".join(rows + [f"(size_t)&{self._address(t, origin)} % 16 == 0"])
            out.append(f"{pad}if ({aligned}) {{  // every row of the tile starts on 16 bytes")
            out += self._fill_loop(t, kept, lanes, vector, asynchronous, depth + 1)
            out.append(f"{pad}}} else {{")
            out += self._fill_loop(t, kept, 1, None, asynchronous, depth + 1)
            out.append(f"{pad}}}")
        if asynchronous and barrier:
            out.append(f"{pad}orcu_copies_wait();")
        if barrier:
            out.append(f"{pad}__syncthreads();  // the tiles are whole before any thread reads them")
        return out

    def _fill_loop(
        self, t: SharedTile, kept: list[int], lanes: int, vector: str | None, asynchronous: bool, depth: int
    ) -> list[str]:
        """One fill of ``t``, ``lanes`` consecutive elements a thread (a ``vector``) at a time;
        elements outside the arrays' boxes are zeros, not read."""
        pad = printer.INDENT * depth
        tx, ty = self.shape
        declared = list(t.shape(self.counts))
        steps = declared[:-1] + [declared[-1] // lanes]  # what e counts
        element = self.element_types[t.array]
        names = {k: f"orcu_a{k}" for k in kept}

        def at(offset: str = "") -> list[str]:  # the element's indexes along the array's dimensions
            return [
                f"({self._base(d)} + {names[k]}{offset if k == kept[-1] else ''})"
                if k in kept
                else f"({self._base(d)})"
                for k, d in enumerate(t.dims)
            ]

        raw = f"ORCU_TILE_DATA({self.tile_names[t.key]})"

        def copy(target: str, source: str) -> str:
            return f"orcu_copy_async({target}, {source});" if asynchronous else f"{target} = {source};"

        out = [
            f"{pad}for (orcu_index e = (orcu_index)threadIdx.y * {tx} + threadIdx.x; e < {prod(steps)}; e += {tx * ty}) {{"
        ]
        for n, k in enumerate(kept):
            inner = prod(steps[n + 1 :])
            cell = ("e" if inner == 1 else f"e / {inner}") + (f" % {steps[n]}" if n else "")
            out.append(
                f"{pad}    const orcu_index {names[k]} = {f'({cell}) * {lanes}' if vector and k == kept[-1] else cell};"
            )
        target = raw + ("".join(f"[{names[k]}]" for k in kept) if kept else "[0]")

        def checked_copy(target: str, values: list[str], inner: str) -> list[str]:
            if not asynchronous:
                return [f"{inner}{target} = {self._inside(t, values)} ? {self._address(t, values)} : ({element})0;"]
            return [
                f"{inner}if {self._inside(t, values)}",
                f"{inner}    {copy(target, self._address(t, values))}",
                f"{inner}else",
                f"{inner}    {target} = ({element})0;",
            ]

        if vector:
            each = raw + "".join(f"[{names[k]}{' + orcu_l' if k == kept[-1] else ''}]" for k in kept)
            out += [
                f"{pad}    if ({self._inside(t, at(), at(f' + {lanes - 1}'))})",
                f"{pad}        {copy(f'*({vector} *)&{target}', f'*(const {vector} *)&{self._address(t, at())}')}",
                f"{pad}    else  // the tile's edge",
                f"{pad}        for (int orcu_l = 0; orcu_l < {lanes}; orcu_l++) {{",
                *checked_copy(each, at(" + orcu_l"), pad + "            "),
                f"{pad}        }}",
            ]
        elif t.padded:
            width = t.dims[kept[-1]].extent(self.counts)
            out += [
                f"{pad}    if ({names[kept[-1]]} < {width}) {{  // not the padding",
                *checked_copy(target, at(), pad + "        "),
                f"{pad}    }}",
            ]
        else:
            out += checked_copy(target, at(), pad + "    ")
        out.append(f"{pad}}}")
        return out

    def ways(self, t: SharedTile) -> int:
        """The most requests of one warp that fall in one bank over the tile's reads (SharedTile.ways)."""
        if t.key not in self._ways:
            tiles = {lp.var: self.tiles[lp.var] for lp in self.grid}
            self._ways[t.key] = t.ways(
                self.shape, self.counts, tiles, self.axes, self.x, self.width, self.element_bytes[t.array]
            )
        return self._ways[t.key]

    def _base(self, dim) -> str:
        p = dim.rest
        for v, c in dim.coefs:
            p = p + Poly.of({(self.start[v],): c})
        return p.c_expr()

    def _address(self, t: SharedTile, values: list[str]) -> str:
        strides = t.accesses[0].strides
        if strides is None:
            return t.array + "".join(f"[{v}]" for v in values)
        terms = [v if s.constant == 1 else f"{v} * ({s.c_expr()})" for v, s in zip(values, strides)]
        return f"{t.array}[{' + '.join(terms)}]"

    def _inside(self, t: SharedTile, values: list[str], also: list[str] | None = None) -> str:
        """C condition: the element is in the box some access of the tile reads over the loops'
        whole ranges, narrowed by the ``if`` tests around it (Shaped.guards: ``if (i >= 1)``
        around ``hz[i - 1][j]`` keeps row -1 out), and so is the element at ``also``, in the same
        box: the elements between them are then inside too."""
        loops = {lp.var: lp for lp in self.grid} | {lp.var: lp for lp in self._strip_loops()}
        ranges = {v: (poly_of(lp.lower), poly_of(lp.upper) - Poly.const(1)) for v, lp in loops.items()}
        boxes = []
        for sh in t.accesses:
            conds = []
            for k, (d, p) in enumerate(zip(t.dims, sh.dims)):
                if not d.coefs and d.high == d.low:
                    continue  # one element along it, the one every access reads
                # each loop's range, and each test's narrower one (the coefficients are positive:
                # a lower end of the loop gives one of the subscript)
                lows, highs = [_end(p, ranges, 0)], [_end(p, ranges, 1)]
                for var, op, bound in sh.guards:
                    if var in ranges and var in p.names:
                        narrowed = ranges | {var: _narrowed(op, bound, ranges[var])}
                        lows = _tightest(lows, _end(p, narrowed, 0), 1)
                        highs = _tightest(highs, _end(p, narrowed, 1), -1)
                for value in dict.fromkeys([values[k]] + ([also[k]] if also else [])):
                    conds += [f"{value} >= {low.c_expr()}" for low in lows]
                    conds += [f"{value} <= {high.c_expr()}" for high in highs]
            box = " && ".join(conds) or "true"
            if box not in boxes:
                boxes.append(box)
        return "(" + " || ".join(f"({b})" for b in boxes) + ")" if len(boxes) > 1 else f"({boxes[0]})"

    def _strip_loops(self) -> list[Loop]:
        return [lp for lp in loops_of(self.body) if any(lp.var in t.strips and self._holds(lp, t) for t in self.shared)]

    @staticmethod
    def _holds(loop: Loop, t: SharedTile) -> bool:
        """Whether the tile's accesses are inside this loop: an imperfect nest may have another
        loop on the same name (PolyBench's gemm: C[i][j] *= beta, then the k loop around its own j)."""
        held = {id(sh.access) for sh in t.accesses}
        return any(id(a) in held for st, _ in statements(loop.body) for a in st.accesses)


def _end(p: Poly, ranges: Mapping[str, tuple[Poly, Poly]], end: int) -> Poly:
    """The least (``end`` 0) or greatest (1) value of ``p`` over the iterators' ``ranges``,
    free of them: a range that names another iterator (a triangle's ``j <= i``) takes that
    one's end in turn, so that the box is the same for every thread of the block (the thread's
    own ``i`` in a fill's bounds would leave out rows its neighbours read). An iterator with a
    negative coefficient takes its other end."""
    for _ in range(len(ranges)):
        found = [v for v in ranges if v in p.names]
        if not found:
            break
        for v in found:
            coef, rest = p.split(v) or (Poly.const(1), p)
            side = end if (coef.sign() or 1) > 0 else 1 - end
            p = rest + coef * ranges[v][side]
    return p


def _tightest(ends: list[Poly], new: Poly, sign: int) -> list[Poly]:
    """Lower (``sign`` 1) or upper (-1) ends that all hold, with ``new``: of two a constant apart,
    the tighter alone."""
    for k, end in enumerate(ends):
        apart = (new - end).constant
        if apart is not None:
            return ends if apart * sign <= 0 else ends[:k] + [new] + ends[k + 1 :]
    return ends + [new]


def _narrowed(op: str, value: Poly, loop: tuple[Poly, Poly]) -> tuple[Poly, Poly]:
    """An iterator's range under the test ``iterator op value``, one end narrowed (both: ``==``)."""
    low, high = loop
    if op in (">=", ">", "=="):
        low = value + Poly.const(int(op == ">"))
    if op in ("<=", "<", "=="):
        high = value - Poly.const(int(op == "<"))
    return low, high
