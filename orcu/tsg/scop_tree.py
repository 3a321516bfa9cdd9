"""isl's schedule of a scop as a tree of bands, sequences and leaves (orcu/tsg/scop.py says the
whole): read back from isl, or the loops as written, and described in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import islpy as isl

from orcu.analysis.affine import Poly, poly_of
from orcu.frontend.ir import Loop, statements
from orcu.tsg.scop_model import MAX_OPERATIONS, _maps, _Model, _sets, _Unfit


# -- schedules as trees -----------------------------------------------------------------------
@dataclass
class _Band:
    members: list  # per member: {statement name: its iterator}
    coincident: list
    child: object


@dataclass
class _Sequence:
    children: list


@dataclass
class _Leaf:
    names: list  # statement names, in program order


def _isl_tree(model: _Model, options: Mapping[str, int]):
    ctx = model.domain.get_ctx()
    saved = {k: getattr(ctx, f"get_schedule_{k}")() for k in options}
    ops = ctx.get_max_operations()
    try:
        for k, v in options.items():
            getattr(ctx, f"set_schedule_{k}")(v)
        ctx.set_max_operations(MAX_OPERATIONS)
        ctx.reset_operations()
        sc = (
            isl.ScheduleConstraints.on_domain(model.domain)
            .set_validity(model.deps)
            .set_proximity(model.deps)
            .set_coincidence(model.coincidence)
        )
        try:
            schedule = sc.compute_schedule()
        except isl.Error as e:
            raise _Unfit(
                f"isl gave no schedule within {MAX_OPERATIONS} operations"
                if "quota" in str(e).lower() or "operations" in str(e).lower()
                else f"isl: {e}"
            ) from e
    finally:
        for k, v in saved.items():
            getattr(ctx, f"set_schedule_{k}")(v)
        ctx.set_max_operations(ops)
        ctx.reset_operations()
    return _from_isl(model, schedule.get_root().child(0))


def _from_isl(model: _Model, node: isl.ScheduleNode):
    kind = node.get_type()
    if kind == isl.schedule_node_type.leaf:
        names = _statement_names(node.get_domain())
        return _Leaf(sorted(names, key=lambda n: int(n[1:])))
    if kind in (isl.schedule_node_type.sequence, isl.schedule_node_type.set):
        children = [node.child(k) for k in range(node.n_children())]
        if kind == isl.schedule_node_type.set:  # unordered: program order
            children.sort(key=lambda c: min(int(n[1:]) for n in _statement_names(c.get_domain())))
        return _Sequence([_from_isl(model, c.child(0)) for c in children])
    if kind == isl.schedule_node_type.filter:
        return _from_isl(model, node.child(0))
    if kind == isl.schedule_node_type.band:
        partial = node.band_get_partial_schedule_union_map().intersect_domain(node.get_domain())
        members: list[dict] = [{} for _ in range(node.band_n_member())]
        for m in _maps(partial):
            name = m.get_tuple_name(isl.dim_type.in_)
            loops = model.by_name[name].loops
            pma = m.as_pw_multi_aff()
            if pma.n_piece() != 1:
                raise _Unfit(f"isl's schedule of {name} has several pieces")
            pieces = []
            pma.foreach_piece(lambda _set, ma: pieces.append(ma))  # noqa: B023 (called here, at once)
            for k in range(node.band_n_member()):
                members[k][name] = _member_of(pieces[0].get_at(k), loops, name)
        coincident = [bool(node.band_member_get_coincident(k)) for k in range(node.band_n_member())]
        return _Band(members, coincident, _from_isl(model, node.child(0)))
    raise _Unfit(f"isl's schedule holds a {kind} node")


def _statement_names(domain: isl.UnionSet) -> set[str]:
    return {s.get_tuple_name() for s in _sets(domain)}


def _member_of(aff: isl.Aff, loops: tuple[Loop, ...], name: str):
    """What one member of a band is for a statement: one of its iterators (its loop), or a
    value (a Poly in the sizes) where the statement is not inside that loop."""
    if not aff.get_denominator_val().is_one():
        raise _Unfit(f"isl scales {name}'s loops")
    used = [
        (k, aff.get_coefficient_val(isl.dim_type.in_, k))
        for k in range(aff.dim(isl.dim_type.in_))
        if not aff.get_coefficient_val(isl.dim_type.in_, k).is_zero()
    ]
    params = {
        aff.get_dim_name(isl.dim_type.param, k): aff.get_coefficient_val(isl.dim_type.param, k).to_python()
        for k in range(aff.dim(isl.dim_type.param))
        if not aff.get_coefficient_val(isl.dim_type.param, k).is_zero()
    }
    if not used:
        value: dict[tuple[str, ...], int] = {(): aff.get_constant_val().to_python()}
        for param, coef in params.items():
            value[tuple(param[2:].split("__"))] = coef
        return Poly.of(value)
    if params or not aff.get_constant_val().is_zero():
        raise _Unfit(f"isl shifts {name}'s loops")
    if len(used) != 1 or not used[0][1].is_one():
        raise _Unfit(f"isl skews or reverses {name}'s loops")
    loop = loops[used[0][0]]
    if loop.descending:
        raise _Unfit(f"isl reverses the loop on '{loop.var}' of {name}")
    return loop.var


def _fused_kernels(model: _Model, tree):
    """The tree with adjacent kernels fused where their parallel loops match (PPCG's fusion of
    gemver's ``x[i] += A[j][i] * y[j]`` and ``x[i] += z[i]``): two bands in a sequence outside
    any kernel, each a kernel's root, whose leading parallel members have the same bounds
    (the iterators' names aside) or bounds a constant apart (fdtd-2d's ``ey`` rows from 1 and
    ``ex`` columns from 1: the fused loop runs their hull, each statement under its own range,
    scop_code.py), one of them with no loop beyond those members (mvt's two
    products keep their kernels: fused, one would read A across its rows), and no dependence
    between their statements joins different values of those members. The fused band keeps
    the members fused; each kernel's rest runs in its turn under it. The tree itself where
    nothing fuses."""

    def walk(t, in_kernel: bool):
        if isinstance(t, _Band):
            return _Band(t.members, t.coincident, walk(t.child, in_kernel or t.coincident[0]))
        if not isinstance(t, _Sequence):
            return t
        out: list = []
        for child in (walk(c, in_kernel) for c in t.children):
            fused = _fuse(model, out[-1], child) if out and not in_kernel else None
            if fused is not None:
                out[-1] = fused
            else:
                out.append(child)
        return out[0] if len(out) == 1 else _Sequence(out)

    return walk(tree, False)


def _fuse(model: _Model, a, b) -> _Band | None:
    """One band for the kernels ``a`` and ``b`` (``_fused_kernels``), None where they do not fuse."""
    if not (isinstance(a, _Band) and isinstance(b, _Band)):
        return None
    depth = 0
    while (
        depth < min(len(a.members), len(b.members))
        and a.coincident[depth]
        and b.coincident[depth]
        and all(isinstance(v, str) for m in (a.members[depth], b.members[depth]) for v in m.values())
        and _matching_bounds(model, a.members[: depth + 1], b.members[: depth + 1])
    ):
        depth += 1
    while depth and _joined(model, a.members[:depth], b.members[:depth]):
        depth -= 1
    if not depth:
        return None

    def rest(t: _Band):
        return _Band(t.members[depth:], t.coincident[depth:], t.child) if len(t.members) > depth else t.child

    rests = [rest(a), rest(b)]
    if not any(_loopless(r) for r in rests):
        return None  # both keep loops of their own: fused, one's accesses could no longer be mapped as they were
    children = [c for r in rests for c in (r.children if isinstance(r, _Sequence) else [r])]
    members = [{**ma, **mb} for ma, mb in zip(a.members[:depth], b.members[:depth])]
    return _Band(members, [True] * depth, _Sequence(children))


def _loopless(t) -> bool:
    """No band below: statements only."""
    return isinstance(t, _Leaf) or isinstance(t, _Sequence) and all(_loopless(c) for c in t.children)


def _matching_bounds(model: _Model, first: list, second: list) -> bool:
    """Whether the loops of the last of the members have one set of bounds for every statement
    of both bands, or ascending loops of step 1 whose bounds are a constant apart (their hull is
    a few iterations more than each), each outer member's iterator read as its place (i in one,
    j in the other)."""
    found = set()
    for members in (first, second):
        for name in members[-1]:
            loops = {lp.var: lp for lp in model.by_name[name].loops}
            places = {m[name]: Poly.var(f"_{k}") for k, m in enumerate(members[:-1])}
            loop = loops[members[-1][name]]
            bounds = []
            for bound in (poly_of(loop.lower), poly_of(loop.upper)):
                if bound is None:
                    return False
                for var, place in places.items():
                    bound = bound.substitute(var, place)
                if bound.names & set(loops):
                    return False  # reads an iterator inside the fused loops
                bounds.append(bound)
            found.add((tuple(bounds), loop.step, loop.descending))
    if len(found) == 1:
        return True
    (lower, upper), _, _ = next(iter(found))
    return all(
        step == 1 and not descending and (low - lower).constant is not None and (high - upper).constant is not None
        for (low, high), step, descending in found
    )


def _joined(model: _Model, first: list, second: list) -> bool:
    """Whether a dependence joins a statement of one band and one of the other at different
    values of the members (fused, those loops would no longer run in parallel)."""
    deps = model.deps
    space = deps.get_space()
    params = ", ".join(space.get_dim_name(isl.dim_type.param, k) for k in range(space.dim(isl.dim_type.param)))
    merged = [{**ma, **mb} for ma, mb in zip(first, second)]
    for x, y in [(n, m) for n in first[0] for m in second[0]] + [(m, n) for n in first[0] for m in second[0]]:
        lx, ly = model.by_name[x].loops, model.by_name[y].loops
        ins = [f"x{k}" for k in range(len(lx))]
        outs = [f"y{k}" for k in range(len(ly))]
        at_x = {lp.var: k for k, lp in enumerate(lx)}
        at_y = {lp.var: k for k, lp in enumerate(ly)}
        differ = " or ".join(f"x{at_x[m[x]]} < y{at_y[m[y]]} or x{at_x[m[x]]} > y{at_y[m[y]]}" for m in merged)
        pairs = isl.UnionMap(f"[{params}] -> {{ {x}[{', '.join(ins)}] -> {y}[{', '.join(outs)}] : {differ} }}")
        if not deps.intersect(pairs).is_empty():
            return True
    return False


def _as_written(model: _Model, body) -> object:
    """The loops as written, each a band of one member, coincident where no dependence joins
    two of its iterations."""
    by_stmt = {id(s.stmt): s for s in model.statements}
    dist = model.coincidence.apply_domain(model.order).apply_range(model.order)
    pairs = None if dist.is_empty() else isl.Map.from_union_map(dist)

    def carried(path: list[int]) -> bool:
        """Whether two instances inside one iteration of the loops around the loop at ``path``
        (its place and those of the loops around it) differ in its iterator."""
        if pairs is None:
            return False
        level = len(path) - 1
        m = pairs
        for d, place in enumerate(path):
            m = m.fix_val(isl.dim_type.in_, 2 * d, place).fix_val(isl.dim_type.out, 2 * d, place)
        for d in range(level):
            m = m.equate(isl.dim_type.in_, 2 * d + 1, isl.dim_type.out, 2 * d + 1)
        return not m.subtract(m.equate(isl.dim_type.in_, 2 * level + 1, isl.dim_type.out, 2 * level + 1)).is_empty()

    def walk(nodes, around: tuple, path: list[int]):
        out: list = []
        for n in nodes:
            if isinstance(n, Loop):
                inside = [by_stmt[id(st)] for st, _ in statements(n.body)]
                if not inside:
                    continue  # an empty loop does nothing (its iterator is not read after the region)
                here = path + [model.position[around][id(n)]]
                out.append(
                    _Band([{s.name: n.var for s in inside}], [not carried(here)], walk(n.body, around + (id(n),), here))
                )
            else:
                out.append(_Leaf([by_stmt[id(n)].name]))
        return out[0] if len(out) == 1 else _Sequence(out)

    return walk(body, (), [])


def _describe(model: _Model, tree) -> str:
    lines: list[str] = []

    def walk(t, pad: str) -> None:
        if isinstance(t, _Leaf):
            for name in t.names:
                st = model.by_name[name].stmt
                lines.append(f"{pad}{name}: {st.text}    # line {st.loc.line}")
        elif isinstance(t, _Sequence):
            lines.append(f"{pad}sequence")
            for c in t.children:
                walk(c, pad + "  ")
        else:
            members = []
            for member, coincident in zip(t.members, t.coincident):
                loops = sorted({v for v in member.values() if isinstance(v, str)})
                members.append(f"{'/'.join(loops) or '-'}{' (parallel)' if coincident else ''}")
            lines.append(f"{pad}band [{', '.join(members)}]")
            walk(t.child, pad + "  ")

    walk(tree, "")
    return "\n".join(lines)
