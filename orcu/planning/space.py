"""Parameter spaces: the Cartesian product of parameter values under constraints.

Constraints are compiled once. Parameters are split into independent groups (two
parameters share a group when some constraint reads both); each group's valid value
combinations are found by evaluating its constraints over that group's sub-product
only, with NumPy arrays in blocks where the expression allows it. The constrained
space is then a mixed-radix number over the groups' valid rows, so its size, the
mapping between an index and a configuration, and random sampling never enumerate
the whole space.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from orcu.errors import SpecError
from orcu.spec.expr import NotVectorizable
from orcu.spec.model import Constraint, Param

if TYPE_CHECKING:
    from orcu.planning.program import Program

BLOCK = 1 << 18  # points per vectorised constraint evaluation


def settings_text(values: Mapping[str, Any]) -> str:
    """``NAME=VALUE, ...``: how orcu shows a configuration or input size everywhere (``--set`` reads it back)."""
    return ", ".join(f"{k}={v!r}" for k, v in values.items())


def _as_array(values: Sequence[Any]) -> np.ndarray:
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        arr = np.asarray(values)
        if arr.dtype != object:
            return arr
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


@dataclass(frozen=True)
class _Group:
    params: tuple[int, ...]  # positions in the space's parameter list
    rows: np.ndarray | None  # (count, len(params)) value indices; None = all combinations
    radices: tuple[int, ...]

    @property
    def size(self) -> int:
        return math.prod(self.radices) if self.rows is None else len(self.rows)

    def row(self, k: int) -> tuple[int, ...]:
        if self.rows is not None:
            return tuple(int(x) for x in self.rows[k])
        out = []
        for radix in reversed(self.radices):
            k, r = divmod(k, radix)
            out.append(r)
        return tuple(reversed(out))


class Space:
    """A constrained product of parameter values, with a stable order and indices."""

    def __init__(
        self, params: Sequence[Param], constraints: Sequence[Constraint], env: Mapping[str, Any] | None = None
    ):
        self.params = tuple(params)
        self.names = tuple(p.name for p in self.params)
        self.constraints = tuple(constraints)
        self.env = dict(env or {})
        self.raw_size = math.prod(len(p.values) for p in self.params)
        self._position = {n: i for i, n in enumerate(self.names)}
        self._groups, self._empty = self._build_groups()
        self.size = 0 if self._empty else math.prod(g.size for g in self._groups)
        self._row_lookup: dict[int, dict[tuple, int]] = {}

    @cached_property
    def _value_index(self) -> list[dict]:
        """Each parameter's value -> its position (built when first asked: ranges can be long)."""
        return [{_key(v): k for k, v in enumerate(p.values)} for p in self.params]

    # -- construction ---------------------------------------------------------
    def _build_groups(self) -> tuple[tuple[_Group, ...], bool]:
        parent = list(range(len(self.params)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        by_root: dict[int, list[Constraint]] = {}
        constant: list[Constraint] = []
        for c in self.constraints:
            used = sorted(self._position[n] for n in c.expr.names if n in self._position)
            if not used:
                constant.append(c)
                continue
            for other in used[1:]:
                parent[find(other)] = find(used[0])
            by_root.setdefault(used[0], []).append(c)
        for c in constant:
            if not c.expr.evaluate(dict(self.env)):
                return (), True
        members: dict[int, list[int]] = {}
        for i in range(len(self.params)):
            members.setdefault(find(i), []).append(i)
        group_constraints: dict[int, list[Constraint]] = {}
        for first, cs in by_root.items():
            group_constraints.setdefault(find(first), []).extend(cs)
        groups = []
        for root, idx in sorted(members.items(), key=lambda kv: kv[1][0]):
            radices = tuple(len(self.params[i].values) for i in idx)
            cs = group_constraints.get(root)
            rows = self._valid_rows(tuple(idx), radices, cs) if cs else None
            group = _Group(tuple(idx), rows, radices)
            if group.size == 0:
                return (), True
            groups.append(group)
        return tuple(groups), False

    def _valid_rows(self, idx: tuple[int, ...], radices: tuple[int, ...], constraints: list[Constraint]) -> np.ndarray:
        total = math.prod(radices)
        columns = [_as_array(self.params[i].values) for i in idx]
        found = []
        for begin in range(0, total, BLOCK):
            flat = np.arange(begin, min(begin + BLOCK, total), dtype=np.int64)
            digits = np.unravel_index(flat, radices)
            env = dict(self.env)
            for i, col, d in zip(idx, columns, digits):
                env[self.names[i]] = col[d]
            mask = self._block_mask(env, constraints, len(flat), idx, digits)
            found.append(np.stack([d[mask] for d in digits], axis=1))
        return np.concatenate(found) if found else np.empty((0, len(idx)), dtype=np.int64)

    def _block_mask(self, env, constraints, n, idx, digits) -> np.ndarray:
        mask = np.ones(n, dtype=bool)
        for c in constraints:
            try:
                with np.errstate(all="raise"):
                    result = c.expr.evaluate(env)
                mask &= np.broadcast_to(np.asarray(result, dtype=bool), (n,))
            except (NotVectorizable, FloatingPointError, SpecError, TypeError, ValueError, OverflowError):
                mask &= self._scalar_mask(c, n, idx, digits)
        return mask

    def _scalar_mask(self, c: Constraint, n: int, idx, digits) -> np.ndarray:
        """One point at a time, with Python semantics (and Python's error messages): once per
        distinct setting of the parameters the constraint reads. A group joins the parameters of
        every constraint that shares one (two regions' placements by a common thread count), and
        each region's placements, checked over the product of both, took minutes (2mm.c)."""
        own = [j for j, i in enumerate(idx) if self.names[i] in c.expr.names]
        values = [self.params[idx[j]].values for j in own]
        names = [self.names[idx[j]] for j in own]
        code = np.zeros(n, dtype=np.int64)  # the own parameters' digits as one number
        for j, vals in zip(own, values):
            code = code * len(vals) + digits[j]
        distinct, inverse = np.unique(code, return_inverse=True)
        env = dict(self.env)
        out = np.zeros(len(distinct), dtype=bool)
        for k, number in enumerate(distinct.tolist()):
            for name, vals in zip(reversed(names), reversed(values)):
                number, d = divmod(number, len(vals))
                env[name] = vals[d]
            out[k] = bool(c.expr.evaluate(env))
        return out[inverse.reshape(-1)]

    # -- queries --------------------------------------------------------------
    def __len__(self) -> int:
        return self.size

    def _rows(self, index: int) -> list[tuple[int, ...]]:
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} outside a space of {self.size} points")
        rows = []
        for g in reversed(self._groups):
            index, k = divmod(index, g.size)
            rows.append(g.row(k))
        return rows[::-1]

    def point(self, index: int) -> tuple:
        """The parameter values (in declaration order) of the ``index``-th valid point."""
        return self._point_of(self._rows(index))

    def _point_of(self, rows) -> tuple:
        """The parameter values (in declaration order) of one row of each group."""
        values: list[Any] = [None] * len(self.params)
        for g, row in zip(self._groups, rows):
            for i, r in zip(g.params, row):
                values[i] = self.params[i].values[r]
        return tuple(values)

    def config(self, index: int) -> dict[str, Any]:
        return dict(zip(self.names, self.point(index)))

    def index(self, config: Mapping[str, Any]) -> int:
        """Inverse of :meth:`config`; KeyError for a configuration outside the space."""
        index = 0
        for gi, g in enumerate(self._groups):
            row = tuple(self._value_index[i][_key(config[self.names[i]])] for i in g.params)
            if g.rows is None:
                k = 0
                for r, radix in zip(row, g.radices):
                    k = k * radix + r
            else:
                lookup = self._row_lookup.get(gi)
                if lookup is None:
                    lookup = {tuple(int(x) for x in r): k for k, r in enumerate(g.rows)}
                    self._row_lookup[gi] = lookup
                k = lookup[row]
            index = index * g.size + k
        return index

    def points(self) -> Iterator[tuple]:
        """Every valid point in index order."""
        if self.size == 0:
            return
        per_group = []
        for g in self._groups:
            value_lists = [self.params[i].values for i in g.params]
            if g.rows is None:
                per_group.append(list(itertools.product(*value_lists)))
            else:
                per_group.append([tuple(v[r] for v, r in zip(value_lists, row)) for row in g.rows.tolist()])
        order = [i for g in self._groups for i in g.params]
        if order == list(range(len(order))):
            for combo in itertools.product(*per_group):
                yield tuple(itertools.chain.from_iterable(combo))
            return
        place = [order.index(i) for i in range(len(order))]
        for combo in itertools.product(*per_group):
            flat = tuple(itertools.chain.from_iterable(combo))
            yield tuple(flat[p] for p in place)

    def configs(self) -> Iterator[dict[str, Any]]:
        for p in self.points():
            yield dict(zip(self.names, p))

    def distinct(self, names: Sequence[str]) -> list[dict[str, Any]]:
        """The distinct settings of ``names`` over the valid configurations, in the order they
        first appear, each completed by the first configuration that has it: what iterating
        configs() would keep, without going through the groups that hold none of ``names``
        (the other regions' parameters)."""
        if self.size == 0:
            return []
        wanted = {self._position[n] for n in names}
        per_group = []
        for g in self._groups:
            rows = itertools.product(*(range(r) for r in g.radices)) if g.rows is None else map(tuple, g.rows.tolist())
            seen, firsts = set(), []
            for row in rows:
                key = tuple(repr(self.params[i].values[r]) for i, r in zip(g.params, row) if i in wanted)
                if key not in seen:
                    seen.add(key)
                    firsts.append(row)
                    if not key:
                        break  # a group without any of the names: its first row
            per_group.append(firsts)
        return [dict(zip(self.names, self._point_of(combo))) for combo in itertools.product(*per_group)]

    def first_matching(self, fixed: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first valid configuration (in this space's order) with the ``fixed`` values."""
        keys = {name: _key(value) for name, value in fixed.items()}
        for config in self.configs():
            if all(_key(config[name]) == key for name, key in keys.items()):
                return config
        return None

    def emptied_by(self) -> tuple[Constraint, int] | None:
        """When no point is left: the first constraint, in order, after which none is, with
        the number of points there were before it."""
        if self.size:
            return None
        before = self.raw_size
        for k, c in enumerate(self.constraints):
            size = Space(self.params, self.constraints[: k + 1], self.env).size
            if size == 0:
                return c, before
            before = size
        return None

    def sample(self, k: int, rng: random.Random) -> list[int]:
        """``k`` distinct indices drawn uniformly (all of them if ``k >= size``)."""
        return rng.sample(range(self.size), min(k, self.size))


def _key(value: Any) -> Any:
    """A hashable stand-in for a parameter value (lists become tuples)."""
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    return value


# -- the spaces of a program -------------------------------------------------------------------
def input_space(program: Program) -> Space:
    spec = program.spec
    return _not_empty(Space(spec.input_params, spec.input_constraints, spec.lets), "input size")


def sizes_of(program: Program, k: int) -> list[dict[str, Any]]:
    """The input sizes nest k is tuned at: those of its spec ([{}] where it has none)."""
    return list(input_space(program.of_nest(k)).configs()) or [{}]


def performance_space(program: Program, inputs: dict[str, Any], limits: tuple[Constraint, ...] = ()) -> Space:
    """The configurations for these input sizes; ``limits``: what a region cannot build
    (preflight.region_limits). Made once for a program, sizes and limits: a tune asks for
    each a few dozen times, and placement constraints are checked point by point."""
    # The limits are kept with the space, so no other object takes their ids while it is.
    key = (
        "performance_space",
        id(program.spec),
        repr(sorted(inputs.items())),
        tuple(map(id, limits)),
    )  # views share memo
    if key not in program.memo:
        program.memo[key] = (limits, _performance_space(program, inputs, limits))
    return program.memo[key][1]


def _performance_space(program: Program, inputs: dict[str, Any], limits: tuple[Constraint, ...]) -> Space:
    spec = program.spec
    where = f" for {settings_text(inputs)}" if inputs else ""
    env = {**spec.lets, **inputs}
    limited = Space(spec.performance_params, spec.performance_constraints + limits, env)
    if limited.size or not limits:
        return _not_empty(limited, "configuration", where)
    _not_empty(Space(spec.performance_params, spec.performance_constraints, env), "configuration", where)
    c, before = limited.emptied_by()
    raise SpecError(
        f"no configuration{where} can be built: '{c.name}' holds for none of the {before} there were",
        c.expr.loc,
        c.expr.source_line,
    )


def _not_empty(space: Space, what: str, where: str = "") -> Space:
    """The space, or a diagnostic at the constraint that leaves nothing in it."""
    emptied = space.emptied_by()
    if emptied is not None:
        c, before = emptied
        raise SpecError(
            f"constraint '{c.name}' leaves no {what}{where}: there {'was' if before == 1 else 'were'} "
            f"{before} before it",
            c.expr.loc,
            c.expr.source_line,
        )
    return space
