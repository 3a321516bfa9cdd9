"""What a region's transform asks of the TSG, checked against its nest when the file loads.

``mapping='auto'`` runs Phase I and turns its kept candidates into a tuning parameter of
the region (``mapping_<k>``: its values are the schedules, so every search strategy can
choose among them); ``mapping='x=j y=i'``, or ``threadLoops``/``blockLoops``, fix the
schedule by hand. Phase II's placements on those schedules become parameters too, unless
the transform sets them: ``registers_<loop>_<k>`` (a register tile's extent along each
grid loop), ``shared_<array>_<k>`` (the array copied to shared memory or not),
``sharedDepth_<k>`` (a shared tile's depth along its sequential loop),
``constant_<array>_<k>`` (an array every thread reads alike in constant memory or not) and
``vectorize_<k>`` (a register tile along x moved in vectors) and ``tensorCores_<k>`` (a double
multiply-add on the FP64 tensor cores, or with ``allowReducedPrecision=True`` a float one on
the TF32 tensor cores). A loop name the nest does not
have, or a schedule that would break a dependence, is a diagnostic at the argument: never a
wrong kernel.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from orcu.analysis.poly import dependences
from orcu.errors import SpecError, did_you_mean
from orcu.frontend.ir import Loop, LoopNest, statements
from orcu.frontend.source import SourceFile
from orcu.spec.expr import Expr
from orcu.spec.model import Param, TuningSpec
from orcu.spec.schedule import Dim, Schedule
from orcu.spec.transform import ARGUMENTS
from orcu.tsg.phase1 import check, recipe
from orcu.tsg.phase2 import placement

TSG_ARGUMENTS = ("mapping", "blockLoops", "threadLoops", "tile")
PLACEMENT_ARGUMENTS = ("registerTile", "shared", "sharedDepth", "constant")
REGISTER_TILES = (
    1,
    2,
    4,
    8,
)  # iterations per thread along a grid loop: up to 64 accumulators in 2-D (8 x 8 reads 16 FMAs a shared load)
SHARED_DEPTHS = (16, 32)


def plan(
    src: SourceFile, spec: TuningSpec, nests: tuple[LoopNest, ...], first: int = 0
) -> tuple[TuningSpec, tuple[LoopNest, ...]]:
    """The spec with the mapping parameters of 'auto' regions, and the nests with their
    dependences and Phase I recipe where the TSG maps them; ``first``: the file's number of
    the first nest (parameters are named by it: mapping_2 for the file's second nest)."""
    taken = set(spec.lets) | set(spec.performance_names) | set(spec.input_names)
    params = list(spec.performance_params)
    out = []
    for k, nest in enumerate(nests, first):
        args = nest.transform.args
        overrides = [a for a in TSG_ARGUMENTS[1:] if a in args]
        mapping = _literal(src, args, "mapping", "auto" if overrides else "orio")
        if mapping == "orio":
            _refuse_overrides(src, args)
            out.append(nest)
            continue
        if len(nest.body) != 1 or not isinstance(nest.body[0], Loop):
            raise src.error_at(nest.loc, "a Loop region the TSG maps must hold exactly one outer loop", SpecError)
        _refuse_private_arrays(src, nest)
        deps = dependences(nest)
        phase1 = recipe(nest, deps)
        fixed = _overrides(src, nest, args)
        if fixed is None and mapping != "auto":
            fixed = (Schedule.parse(mapping), args["mapping"])
        if fixed is not None:
            schedule, expr = fixed
            _known_loops(
                src,
                nest,
                expr,
                [d.loop for d in schedule.dims],
                "mapping" if "mapping" in args and not overrides else None,
            )
            problem = check(nest, deps, schedule)
            if problem is not None:
                raise src.error_at(
                    expr.loc, f"the mapping '{schedule.name}' cannot run this nest: {problem}", SpecError
                )
            transform = replace(nest.transform, args={**args, "mapping": _constant(expr, schedule.name)})
            schedules: tuple[Schedule, ...] = (schedule,)
        else:
            kept = phase1.kept
            if not kept:
                reasons = "; ".join(f"'{var}': {why}" for var, why in phase1.conflicts if why)
                where = args["mapping"].loc if "mapping" in args else nest.loc
                raise src.error_at(
                    where, f"mapping='auto': no loop of this nest can run in parallel ({reasons})", SpecError
                )
            name = _fresh(f"mapping_{k + 1}", taken)
            taken.add(name)
            at = args["mapping"].loc if "mapping" in args else nest.loc
            params.append(Param(name, tuple(s.name for s in kept), True, at))
            transform = replace(nest.transform, args={**args, "mapping": _reference(name, args.get("mapping"), at)})
            schedules = kept
        _check_tiles(src, nest, args)
        reduced = _literal(src, args, "allowReducedPrecision", False)
        phase1 = replace(phase1, placements=tuple(placement(nest, s, deps, reduced) for s in schedules))
        transform = replace(
            transform, args=_placement_args(src, nest, k, phase1.placements, transform.args, params, taken)
        )
        if "minBlocks" not in args:  # not a parameter of the space: set only where ptxas spilled a variant
            phase1 = replace(phase1, min_blocks=_fresh(f"minBlocks_{k + 1}", taken))
            taken.add(phase1.min_blocks)
        out.append(replace(nest, transform=transform, deps=deps, recipe=phase1))
    return replace(spec, performance_params=tuple(params)), tuple(out)


def _literal(src: SourceFile, args, name: str, default):
    expr = args.get(name)
    if expr is None:
        return default
    if expr.names:
        raise src.error_at(
            expr.loc,
            f"'{name}' is decided when the file loads: give it a value, not a parameter"
            + (" (mapping='auto' makes the schedule a tuning parameter)" if name == "mapping" else ""),
            SpecError,
        )
    value = expr.evaluate({})
    if not ARGUMENTS[name].check(value):
        raise src.error_at(
            expr.loc, f"transform argument '{name}' must be {ARGUMENTS[name].expects}, got {value!r}", SpecError
        )
    return value


def _placement_args(src: SourceFile, nest: LoopNest, k: int, placements, args, params: list[Param], taken: set[str]):
    """The transform's arguments with Phase II's decisions: those it sets, checked; the others
    read from new parameters of the region, one per decision the placements offer."""
    given = [a for a in PLACEMENT_ARGUMENTS if a in args]
    if "registerTile" in args:
        _check_tiles(src, nest, args, "registerTile")
    arrays = sorted({a.array for st, _ in statements(nest.body) for a in st.accesses})
    for argument in ("shared", "constant"):
        if argument in args and not args[argument].names:
            for name in _literal(src, args, argument, []):
                if name not in arrays:
                    raise src.error_at(
                        args[argument].loc,
                        f"'{argument}': no array '{name}' in this region{did_you_mean(name, arrays)}",
                        SpecError,
                    )
    if given:
        return args
    at = args["mapping"].loc if "mapping" in args else nest.loc
    open_ = [p for p in placements if p.blocked is None]
    loops = list(dict.fromkeys(v for p in open_ for v in p.grid))
    copied = list(dict.fromkeys(t.array for p in open_ for t in p.shared))
    constants = list(dict.fromkeys(a for p in open_ for a in p.constant))

    def new(base: str, values: tuple) -> str:
        name = _fresh(f"{base}_{k + 1}", taken)
        taken.add(name)
        params.append(Param(name, values, True, at))
        return name

    tiles = {v: new(f"registers_{v}", REGISTER_TILES) for v in loops}
    copies = {a: new(f"shared_{a}", (False, True)) for a in copied}
    in_constant = {a: new(f"constant_{a}", (False, True)) for a in constants}
    depth = new("sharedDepth", SHARED_DEPTHS) if any(t.loop for p in open_ for t in p.shared) else None
    vectors = new("vectorize", (False, True)) if "vectorize" not in args and any(p.along_x for p in open_) else None
    tensor = new("tensorCores", (False, True)) if "tensorCores" not in args and any(p.tensor for p in open_) else None
    out = dict(args)
    if tiles:
        out["registerTile"] = _computed(
            "{" + ", ".join(f"{v!r}: {n}" for v, n in tiles.items()) + "}",
            at,
            tiles.values(),
            lambda env: {v: env[n] for v, n in tiles.items()},
        )
    if copies:
        pairs = ", ".join(f"({a!r}, {n})" for a, n in copies.items()) + ("," if len(copies) == 1 else "")
        out["shared"] = _computed(
            f"[a for a, on in ({pairs}) if on]",
            at,
            copies.values(),
            lambda env: [a for a, n in copies.items() if env[n]],
        )
    if depth:
        out["sharedDepth"] = _reference(depth, None, at)
    if vectors:
        out["vectorize"] = _reference(vectors, None, at)
    if tensor:
        out["tensorCores"] = _reference(tensor, None, at)
    if in_constant:
        pairs = ", ".join(f"({a!r}, {n})" for a, n in in_constant.items()) + ("," if len(in_constant) == 1 else "")
        out["constant"] = _computed(
            f"[a for a, on in ({pairs}) if on]",
            at,
            in_constant.values(),
            lambda env: [a for a, n in in_constant.items() if env[n]],
        )
    return out


def _refuse_overrides(src: SourceFile, args) -> None:
    for name in ("blockLoops", "threadLoops", "tile", *PLACEMENT_ARGUMENTS, "allowReducedPrecision"):
        if name in args:
            raise src.error_at(
                args[name].loc,
                f"'{name}' needs the TSG: add mapping='auto' (Orio's mapping has no such choice)",
                SpecError,
            )


def _overrides(src: SourceFile, nest: LoopNest, args) -> tuple[Schedule, Expr] | None:
    """The schedule threadLoops (and blockLoops) ask for."""
    threads = _literal(src, args, "threadLoops", None)
    blocks = _literal(src, args, "blockLoops", None)
    if threads is None and blocks is None:
        return None
    threads = list(threads if threads is not None else blocks)
    blocks = list(blocks if blocks is not None else threads)
    for name, values in (("threadLoops", threads), ("blockLoops", blocks)):
        if len(set(values)) != len(values):
            raise src.error_at(args[name].loc, f"'{name}' names a loop twice", SpecError)
        if name in args:
            _known_loops(src, nest, args[name], values, name)
    extra = [v for v in blocks if v not in threads]
    if extra:
        raise src.error_at(
            args["blockLoops"].loc,
            f"'blockLoops': '{extra[0]}' is not among threadLoops: a loop spread "
            "over blocks is spread over their threads too",
            SpecError,
        )
    dims = tuple(Dim(axis, var, var not in blocks) for axis, var in zip(("x", "y"), threads))
    return Schedule(dims), args.get("threadLoops") or args["blockLoops"]


def _known_loops(src: SourceFile, nest: LoopNest, expr: Expr, names, argument: str | None) -> None:
    """A diagnostic at ``expr`` for the first of ``names`` that is no loop of the nest."""
    loops = [lp.var for lp in nest.loops()]
    for var in names:
        if var not in loops:
            where = f"'{argument}': " if argument else ""
            raise src.error_at(expr.loc, f"{where}no loop '{var}' in this region{did_you_mean(var, loops)}", SpecError)


def _check_tiles(src: SourceFile, nest: LoopNest, args, argument: str = "tile") -> None:
    """The loops a tile names (its keys are fixed when the file loads; its sizes may be parameters)."""
    expr = args.get(argument)
    if expr is None:
        return
    keys = _dict_keys(expr)
    if keys is None:
        raise src.error_at(
            expr.loc, f"transform argument '{argument}' must be {ARGUMENTS[argument].expects}", SpecError
        )
    _known_loops(src, nest, expr, keys, argument)
    if not expr.names:
        _literal(src, args, argument, {})  # constant sizes are checked now


def _dict_keys(expr: Expr) -> list[str] | None:
    """The keys of a dict display (``{'i': TI, 'j': 16}``), known without its values; None when
    the expression is not a dict with string keys."""
    try:
        tree = ast.parse(expr.text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(tree, ast.Dict) or not all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in tree.keys
    ):
        return None
    return [k.value for k in tree.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def _fresh(name: str, taken: set[str]) -> str:
    return name if name not in taken else _fresh("orcu_" + name, taken)


def _constant(expr: Expr, value: str) -> Expr:
    return replace(expr, text=repr(value), names=frozenset(), _fn=lambda env: value, name_offsets=())


def _computed(text: str, at, names, fn) -> Expr:
    """An expression of parameters that orcu writes (``text`` is what it computes)."""
    return Expr(text=text, loc=at, names=frozenset(names), source_line="", _fn=fn)


def _reference(name: str, expr: Expr | None, at) -> Expr:
    """An expression that reads the mapping parameter."""
    return Expr(
        text=name,
        loc=at,
        names=frozenset({name}),
        source_line=expr.source_line if expr else "",
        _fn=lambda env: env[name],
    )


def _refuse_private_arrays(src: SourceFile, nest: LoopNest) -> None:
    """An array the nest's loop declares (each iteration's own: ``double tmp[4];``) has no place
    in the TSG's model of the data yet (its tiles, traffic and reductions are of the nest's
    arrays); Orio's mapping runs such a loop, each thread its iterations' arrays."""
    private = sorted(n for n, v in nest.variables.items() if v.kind == "private")
    if private:
        var = nest.variables[private[0]]
        raise src.error_at(
            var.loc or nest.loc,
            f"the TSG does not map a loop that declares an array ('{private[0]}', each iteration's own): "
            "map it with Orio's mapping (threadCount=..., no mapping='auto')",
            SpecError,
        )
