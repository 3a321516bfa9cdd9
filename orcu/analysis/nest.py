"""Analysis of one Loop region's nest: the facts code generation needs, or a diagnostic.

- arrays read and written, their element types and extents (affine range of the
  subscripts over the loop bounds, else declared dimensions, else ``input_vars``);
- reductions into scalars (``+ * min max``) in the forms C programmers write them;
- scalars private to an outer iteration (assigned before any read);
- whether the outer loop may run in parallel: a loop-carried dependence that is not
  a recognised reduction is an error naming the array or scalar and its line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycparser import c_ast

from orcu.analysis.affine import Poly, loop_bounds, poly_of, value_range
from orcu.analysis.poly import array_update, dependences
from orcu.analysis.scalars import assigned_before_read, calls_c_minmax, is_name, match_reduction, mentions, why_carried
from orcu.errors import AnalysisError, Location
from orcu.frontend.ir import Access, Loop, LoopNest, Stmt, bound_reads, c_text
from orcu.frontend.ir import statements as ir_statements
from orcu.frontend.source import SourceFile
from orcu.frontend.types import used_names
from orcu.spec.model import TuningSpec


@dataclass(frozen=True)
class ArrayInfo:
    name: str
    element: str
    read: bool
    written: bool
    extent: str | None  # C expression: one past the highest element touched, None if unknown
    extent_source: str | None  # "affine", "declared", "runtime" (scanned on the host), "arraySizes" or "input_vars"
    chunkable: bool  # every access is A[i] for the outer iterator i (streams may split it)
    first: str = "0"  # C expression of the lowest element touched (transfers start there)
    dense_write: bool = False  # every element from first to extent is assigned, none read first


@dataclass(frozen=True)
class Reduction:
    var: str
    op: str  # "+", "*", "min" or "max"
    ctype: str
    loc: Location
    # Written with C's fmax/fmin (not a comparison): NaN operands are skipped, so a NaN the
    # scalar starts with gives way to the first number.
    skips_nan: bool = False


@dataclass(frozen=True)
class NestAnalysis:
    outer: Loop
    arrays: tuple[ArrayInfo, ...]
    reductions: tuple[Reduction, ...]
    private: tuple[str, ...]  # inner iterators and scalars assigned before use
    scalars_in: tuple[str, ...]  # scalars (and constants) the nest only reads
    # What the code after the region reads of the loop's values: its iterator (after the
    # last iteration), and private scalars (as the last iteration left them).
    iterator_live: bool = False
    live_private: tuple[str, ...] = ()

    def array(self, name: str) -> ArrayInfo:
        return next(a for a in self.arrays if a.name == name)


def analyze(
    src: SourceFile,
    nest: LoopNest,
    spec: TuningSpec | None = None,
    sizes: Mapping[str, str] | None = None,
    mapped: bool = False,
) -> NestAnalysis:
    """``sizes``: explicit element counts (the ``arraySizes`` transform argument). ``mapped``:
    the TSG maps the nest (its dependences are checked there, exactly, for the loops it maps):
    here only the facts code generation needs, and no value may be read after the region."""
    loops = [n for n in nest.body if isinstance(n, Loop)]
    others = [n for n in nest.body if not isinstance(n, Loop)]
    if len(loops) != 1 or others:
        where = (others or loops[1:] or [nest])[0].loc
        raise src.error_at(where, "a Loop region must hold exactly one outer loop to parallelise", AnalysisError)
    outer = loops[0]
    for jump in outer.jumps_of("break"):
        raise src.error_at(
            jump.loc,
            f"'break' out of the parallel loop '{outer.var}': its iterations run at once on many threads, so none can stop the others",
            AnalysisError,
        )
    statements = list(ir_statements(outer.body, (outer,)))
    inner_vars = {lp.var for lp in nest.loops()} - {outer.var}
    written = {n for st, _ in statements for n in st.scalar_writes}

    if mapped:
        return _mapped(src, nest, spec, sizes, outer, statements, inner_vars, written)
    reductions = _reductions(src, nest, outer, statements)
    reduced = {r.var for r in reductions}
    private = _private_scalars(src, nest, statements, reduced | inner_vars | {outer.var}, outer)
    scalars_in = _scalars_in(nest, reduced | written | inner_vars | {outer.var})
    # Names an affine subscript may use: iterators and what the nest never changes.
    affine_names = set(scalars_in) | inner_vars | {outer.var}
    _check_arrays(src, nest, outer, statements, affine_names)
    arrays = _arrays(nest, spec, sizes, statements, affine_names, outer)
    live_private = _live_private(src, nest, outer, inner_vars, set(private))
    left = ([outer.var] if outer.var in nest.read_after else []) + list(live_private)
    if outer.descending and left:
        names = ", ".join(f"'{n}'" for n in left)
        raise src.error_at(
            nest.read_after.get(left[0], outer.loc),
            f"{names} is read here after the loop on '{outer.var}', which counts down: orcu runs its "
            "iterations in any order and keeps what the highest one left, not the last one; count up "
            "or assign it after the loop",
            AnalysisError,
        )
    return NestAnalysis(
        outer,
        arrays,
        tuple(reductions),
        tuple(sorted(inner_vars | set(private))),
        scalars_in,
        outer.var in nest.read_after,
        live_private,
    )


def _mapped(src, nest, spec, sizes, outer, statements, inner_vars, written) -> NestAnalysis:
    """The facts of a nest the TSG maps: global reductions (scalars only ever updated with one
    operator), every other written scalar a local of each thread, arrays copied in whole."""
    reductions = {}
    for st, _ in statements:
        m = match_reduction(st.node, nest.variables)
        if m is not None and m[0] not in reductions and nest.deps is not None:
            role = nest.deps.global_reduction(m[0])
            if role is not None:
                v = nest.variables[m[0]]
                reductions[m[0]] = Reduction(m[0], role, v.ctype.base, st.loc, calls_c_minmax(st.node))
    for name, loc in nest.read_after.items():
        if name not in reductions:  # a reduction's final value is kept
            raise src.error_at(
                loc,
                f"'{name}' is read here after a Loop region the TSG maps: its value after the loop is "
                "not kept there; assign it before this read",
                AnalysisError,
            )
    private = (
        {n for n in written if nest.variables[n].origin not in ("region", "private")}
        - set(reductions)
        - inner_vars
        - {outer.var}
    )
    scalars_in = _scalars_in(nest, set(reductions) | written | inner_vars | {outer.var})
    arrays = _arrays(nest, spec, sizes, statements, set(scalars_in) | inner_vars | {outer.var}, None)
    return NestAnalysis(outer, arrays, tuple(reductions.values()), tuple(sorted(inner_vars | private)), scalars_in)


def _scalars_in(nest: LoopNest, excluded: set[str]) -> tuple[str, ...]:
    """The scalars the nest reads and never changes (not those only its host statements use)."""
    used = used_names([n.node for n in nest.body])
    return tuple(n for n, v in nest.variables.items() if v.kind != "array" and n not in excluded and n in used)


def _arrays(nest, spec, sizes, statements, affine_names: set[str], outer: Loop | None) -> tuple[ArrayInfo, ...]:
    """Each array's facts; ``outer``: the loop Orio's mapping spreads (chunks and whole
    overwrites are its notions; None for the TSG's)."""
    arrays = []
    bounds = list(bound_reads([lp for lp in nest.body if isinstance(lp, Loop)]))
    for name, var in nest.variables.items():
        if var.kind != "array":
            continue
        accesses = [(a, lps) for st, lps in statements for a in st.accesses if a.array == name]
        accesses += [(a, lps) for a, lps in bounds if a.array == name]
        extent, source, first = _extent(nest, spec, name, accesses, affine_names, sizes)
        arrays.append(
            ArrayInfo(
                name,
                var.ctype.base,
                read=any(not a.write for a, _ in accesses),
                written=any(a.write for a, _ in accesses),
                extent=extent,
                extent_source=source,
                chunkable=outer is not None
                and bool(accesses)
                and all(_is_outer_index(a, outer.var) for a, _ in accesses),
                first=first,
                dense_write=outer is not None and source == "affine" and _dense_write(outer, name, accesses),
            )
        )
    return tuple(arrays)


def _live_private(
    src: SourceFile, nest: LoopNest, outer: Loop, inner_vars: set[str], private: set[str]
) -> tuple[str, ...]:
    """Private scalars the code after the region reads: those the last iteration leaves for
    certain, or a diagnostic at the read."""
    live = []
    for name, loc in nest.read_after.items():
        if name == outer.var:
            continue
        if name in inner_vars:
            why = "it is the iterator of an inner loop"
        elif name not in private:
            continue  # a reduction: its final value is kept
        elif outer.jumps_of("continue"):
            why = f"a 'continue' may skip the rest of an iteration of '{outer.var}'"
        elif not any(isinstance(n, Stmt) and _assigns_first(n.node, name) for n in outer.body):
            why = f"it is not assigned by a statement of its own in the body of '{outer.var}' (but in an inner loop or under a condition)"
        else:
            live.append(name)
            continue
        raise src.error_at(
            loc,
            f"'{name}' is read here after the Loop region, where it should hold what the loop's last iteration left; "
            f"orcu cannot give it that value: {why}. Assign it before this read",
            AnalysisError,
        )
    return tuple(sorted(live))


def _assigns_first(node: c_ast.Node, name: str) -> bool:
    """``name = e;`` with ``name`` not in ``e``; or an ``if`` whose test does not read ``name``
    and whose branches both do so before anything else touches it (every path assigns it)."""
    if isinstance(node, c_ast.Compound):
        first = next((item for item in node.block_items or () if mentions(item, name)), None)
        return first is not None and _assigns_first(first, name)
    if isinstance(node, c_ast.If):
        return (
            node.iffalse is not None
            and not mentions(node.cond, name)
            and _assigns_first(node.iftrue, name)
            and _assigns_first(node.iffalse, name)
        )
    return (
        isinstance(node, c_ast.Assignment)
        and node.op == "="
        and is_name(node.lvalue, name)
        and not mentions(node.rvalue, name)
    )


def _reductions(src, nest, outer, statements) -> list[Reduction]:
    found: dict[str, Reduction] = {}
    for st, _ in statements:
        m = match_reduction(st.node, nest.variables)
        if m is None:
            continue
        var, op = m
        v = nest.variables.get(var)
        if v is None or v.kind == "array" or v.origin == "region" or assigned_before_read(outer, var):
            continue  # a private scalar (a sum over an inner loop, started anew in each iteration) is no reduction
        if var in found and found[var].op != op:
            raise src.error_at(st.loc, f"'{var}' is reduced with both '{found[var].op}' and '{op}'", AnalysisError)
        found.setdefault(var, Reduction(var, op, v.ctype.base, st.loc, calls_c_minmax(st.node)))
    for st, _ in statements:  # a reduced scalar may appear in nothing but its updates
        for var in found:
            if (var in st.scalar_reads or var in st.scalar_writes) and match_reduction(st.node, nest.variables) is None:
                raise src.error_at(
                    st.loc,
                    f"'{var}' is used here outside its reduction, so iterations of the outer loop depend on each other",
                    AnalysisError,
                )
    return list(found.values())


def _private_scalars(src, nest, statements, excluded, outer: Loop) -> list[str]:
    """Scalars no iteration of the outer loop reads before assigning them (on any path: an
    inner loop's iterator under an ``if``, a sum reset at the top); others written are carried."""
    first: dict[str, Stmt] = {}
    for st, _ in statements:
        for name in sorted(st.scalar_reads | st.scalar_writes):
            first.setdefault(name, st)
    private = []
    for name, st in first.items():
        if name in excluded:
            continue
        written = any(name in s.scalar_writes for s, _ in statements)
        if not written:
            continue
        if not assigned_before_read(outer, name):
            raise src.error_at(
                st.loc,
                f"'{name}' carries a value from one iteration of the outer loop to the next (loop-carried dependence)"
                + why_carried([s.node for s, _ in statements], name, nest.variables),
                AnalysisError,
            )
        if nest.variables[name].origin not in ("region", "private"):  # those the code declares itself
            private.append(name)
    return private


def _affine(node: c_ast.Node, names: set[str]) -> Poly | None:
    p = poly_of(node)
    return p if p is not None and p.names <= names else None


def _check_arrays(src: SourceFile, nest: LoopNest, outer: Loop, statements, names: set[str]) -> None:
    """Orio's mapping runs each iteration of the outer loop on a thread of its own: they may
    touch no element in common that one of them writes, but for sums a kernel makes with
    atomicAdd (Dependences.kernel_atomics). Decided exactly where the subscripts are affine
    (analysis/poly.py, over the loops' bounds), conservatively elsewhere."""
    i = outer.var
    for st, _ in statements:
        if array_update(st.node, nest.variables) is not None:
            continue  # an update of one element by every iteration is a reduction: said below
        for w in (a for a in st.accesses if a.write):
            wp = [_affine(s, names) for s in w.subscripts]
            if all(p is not None for p in wp) and not any(i in p.names for p in wp):
                raise src.error_at(
                    w.loc,
                    f"every iteration of '{i}' writes the same elements of '{w.array}' (the subscript "
                    f"does not depend on '{i}')",
                    AnalysisError,
                )
    deps = nest.deps or dependences(nest)
    for loc, why in deps.bounds_written.get(i, ()):
        raise src.error_at(loc, f"loop-carried dependence: {why}, in different iterations of '{i}'", AnalysisError)
    found = deps.array_conflict(i, summed=True)
    if found is None:
        return
    write, other, reduction, opaque = found
    if opaque is not None:
        raise src.error_at(
            write.loc,
            f"cannot prove that iterations of '{i}' touch different elements of '{write.array}': "
            f"'{opaque}' is not affine",
            AnalysisError,
        )
    if reduction:
        parallel = [
            lp.var
            for lp in nest.loops()
            if lp is not outer and deps.loops[lp.var].parallel and not deps.loops[lp.var].conflicts
        ]
        hint = (
            (
                f"; '{parallel[0]}' has no dependence between its iterations: mapping='auto' lets the TSG spread it over "
                "threads instead"
            )
            if parallel
            else ""
        )
        raise src.error_at(
            write.loc,
            f"'{write.text}' (line {write.loc.line}) is a sum over iterations of '{i}', which "
            f"Orio's mapping spreads over threads{hint}",
            AnalysisError,
        )
    raise src.error_at(
        other.loc if not other.write else write.loc,
        f"loop-carried dependence on '{write.array}': '{write.text}' (line {write.loc.line}) and '{other.text}' (line "
        f"{other.loc.line}) touch the same elements in different iterations of '{i}'",
        AnalysisError,
    )


def _is_outer_index(a: Access, var: str) -> bool:
    return len(a.subscripts) == 1 and poly_of(a.subscripts[0]) == Poly.var(var)


def _product(dims) -> str:
    """C text for the product of dimensions, each compound one parenthesised."""
    return "*".join(d if d.isidentifier() or d.isdigit() else f"({d})" for d in dims)


def _dense_write(outer: Loop, name: str, accesses) -> bool:
    """Whether the loop assigns every element in the array's range without reading any.

    True for ``y[i] = ...`` directly in a unit-step outer loop with no other access to
    ``y``; then the array need not be copied to the device first. A ``continue`` may skip
    the write, so then it is not.
    """
    if outer.step != 1 or outer.jumps_of("continue") or len(accesses) != 1:
        return False
    a, loops = accesses[0]
    if not a.write or len(loops) != 1 or len(a.subscripts) != 1:
        return False
    direct = any(
        isinstance(st, Stmt) and isinstance(st.node, c_ast.Assignment) and st.node.op == "=" and a in st.accesses
        for st in outer.body
    )
    p = poly_of(a.subscripts[0])
    parts = p.split(outer.var) if p is not None else None
    return direct and parts is not None and parts[0] == Poly.const(1) and outer.var not in parts[1].names


def _extent(nest: LoopNest, spec, name: str, accesses, names: set[str], sizes) -> tuple[str | None, str | None, str]:
    """(one past the highest element, where that came from, lowest element)."""
    var = nest.variables[name]
    if var.ctype.dims and all(var.ctype.dims):
        return _product(var.ctype.dims), "declared", "0"
    lows: list[Poly] = []
    highs: list[Poly] = []
    affine = bool(accesses)
    runtime, read_bounds = bool(accesses), False
    reaches = []  # (subscript, the loops it depends on) of each access
    for a, loops in accesses:
        p = _affine(a.subscripts[0], names) if len(a.subscripts) == 1 else None
        kept = _loops_reached(p, loops) if p is not None else None
        runtime = runtime and kept is not None and (not kept or _linear_in(p, kept[-1].var))
        if runtime:
            reaches.append((p, kept))
        bounds = loop_bounds(kept) if kept is not None else None
        read_bounds |= kept is not None and bounds is None
        rng = value_range(p, bounds) if p is not None and bounds is not None else None
        if rng is None or (rng[0].sign() or 0) < 0:
            affine = False
            continue
        lows.append(rng[0])
        highs.append(rng[1] + Poly.const(1))
    if affine:
        high, low = _extreme(highs, 1), _extreme(lows, -1)
        if high is not None:
            return high.c_expr(), "affine", low.c_expr() if low is not None else "0"
    # Only where bounds read from arrays are what stops the affine reach: a scan costs host time.
    if runtime and read_bounds and not (sizes and name in sizes) and _bounds_on_host(nest, reaches):
        return _scan(reaches, "end"), "runtime", _scan(reaches, "first")
    if sizes and name in sizes:
        return sizes[name], "arraySizes", "0"
    decl = spec.decl(name) if spec is not None else None
    if decl is not None and decl.dims:
        return _product(d.text.strip() for d in decl.dims), "input_vars", "0"
    # A local pointer set to inputs (pathfinder's src = buffer;): their extent, when they agree.
    targets = [spec.decl(a) if spec is not None else None for a in nest.aliases.get(name, ())]
    ends = {_product(d.text.strip() for d in t.dims) if t is not None and t.dims else None for t in targets}
    if len(ends) == 1 and None not in ends:
        return ends.pop(), "input_vars", "0"
    return None, None, "0"


def _loops_reached(p: Poly, loops: tuple[Loop, ...]) -> tuple[Loop, ...] | None:
    """The loops, outermost first, whose values ``p`` can take: those it names and those their
    bounds name (an inner loop it does not name may leave some of them out, as the body's
    conditions may). None when a loop of ``p`` has a bound that is neither affine nor read
    from arrays whose subscripts are (CSR's ``rowptr[i + 1]``)."""
    needed = set(p.names)
    kept: list[Loop] = []
    for lp in reversed(loops):
        if lp.var not in needed:
            continue
        if lp.jumps_of("break"):
            return None  # the loop may stop anywhere: its bounds say nothing of the values taken
        for bound in (lp.lower, lp.upper):
            q = poly_of(bound)
            if q is not None:
                needed |= q.names
                continue
            subscripts = [poly_of(s) for a in lp.bound_reads for s in a.subscripts]
            if not lp.bound_reads or None in subscripts:
                return None
            needed |= {n for q in subscripts for n in q.names}
        kept.append(lp)
    return tuple(reversed(kept))


def _linear_in(p: Poly, var: str) -> bool:
    parts = p.split(var)
    return parts is not None and not parts[0].names


def _bounds_on_host(nest: LoopNest, reaches) -> bool:
    """Whether the host can evaluate the loop bounds of ``reaches``: the arrays they read are
    flat ones (the host function has them under their names) that the nest never writes."""
    written = {a.array for st, _ in ir_statements(nest.body) for a in st.accesses if a.write}
    read = {a.array for _, kept in reaches for lp in kept for a in lp.bound_reads}
    return not read & written and all(len(nest.variables[n].ctype.dims) <= 1 for n in read)


def _scan(reaches, which: str) -> str:
    """C++ text that finds, on the host, one past the highest element (``which`` "end") or the
    lowest ("first") that accesses reach where their loops' bounds are read from arrays: it
    steps the loops around the innermost one named and takes that one's first and last value."""
    end = which == "end"
    lines = [f"long long orcu_{which} = {'0' if end else 'LLONG_MAX'};"]
    for p, kept in reaches:
        if not kept:
            lines.append(_keep(p + Poly.const(1) if end else p, end))
            continue
        *around, inner = kept
        coef, _ = p.split(inner.var)
        last = Poly.var("orcu_hi") - Poly.const(1) if inner.step == 1 else Poly.var("orcu_last")
        values = [p.substitute(inner.var, v) for v in (Poly.var("orcu_lo"), last)]
        rising = (coef.sign() or 0) > 0
        value = values[rising] + Poly.const(1) if end else values[not rising]
        step = (
            ""
            if inner.step == 1 or value.names.isdisjoint({"orcu_last"})
            else (f"const long long orcu_last = orcu_lo + (orcu_hi - 1 - orcu_lo) / {inner.step} * {inner.step}; ")
        )
        text = (
            f"const long long orcu_lo = {c_text(inner.lower)}, orcu_hi = {c_text(inner.upper)}; "
            f"if (orcu_lo < orcu_hi) {{ {step}{_keep(value, end)} }}"
        )
        for lp in reversed(around):
            text = f"for (long long {lp.var} = {c_text(lp.lower)}; {lp.var} < {c_text(lp.upper)}; {lp.var} += {lp.step}) {{ {text} }}"
        lines.append(text)
    lines.append("return orcu_end;" if end else "return orcu_first == LLONG_MAX ? 0 : orcu_first;")
    return "[&] { " + " ".join(lines) + " }()"


def _keep(value: Poly, end: bool) -> str:
    text = value.c_expr()
    if end:
        return f"if ({text} > orcu_end) orcu_end = {text};"
    return f"if ({text} < orcu_first) orcu_first = {text};"


def _extreme(polys: list[Poly], direction: int) -> Poly | None:
    """The largest (direction 1) or smallest (-1) of ``polys``, None if not comparable."""
    best = polys[0]
    for p in polys[1:]:
        diff = (p - best).sign()
        if diff is None:
            return None
        if diff * direction > 0:
            best = p
    return best
