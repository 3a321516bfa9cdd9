"""The space a strategy moves in: valid points of a grid of parameter values.

A point is a tuple of value indices, one per parameter, so neighbours and distances mean
something to local and model-based strategies; only points of the valid set are ever
proposed. Invalid coordinates are snapped to the nearest valid point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Point = tuple[int, ...]


def _value_indices(values: Sequence[Sequence[Any]]) -> list[dict[str, int]]:
    """Per parameter, each value's index, by its repr (values may be unhashable lists)."""
    return [{repr(v): k for k, v in enumerate(vals)} for vals in values]


@dataclass
class SearchSpace:
    names: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]  # each parameter's values, in spec order
    points: list[Point]  # the valid points, in the space's own order
    configs: list[dict[str, Any]] = field(default_factory=list)  # the configuration of each point
    # What each parameter decides, where the TSG knows: "decision" (a recipe's choice: mapping,
    # placements, unrolling) or "size" (threads, tiles); the TSG strategy's phases follow it.
    roles: dict[str, str] = field(default_factory=dict)
    # The fraction of the last wave of blocks a configuration fills on the device (1: full),
    # where the region's loop bounds are known at the input size; None elsewhere.
    waves: Callable[[Mapping[str, Any]], float] | None = None
    # The time orcu's performance model predicts for a configuration (ms; None where it cannot
    # tell), where the region is the TSG's: what the TSG strategy measures first when its budget
    # does not cover every recipe.
    predicted: Callable[[Mapping[str, Any]], float | None] | None = None

    def __post_init__(self) -> None:
        self.index = {p: k for k, p in enumerate(self.points)}
        self.array = np.array(self.points, dtype=np.int64).reshape(len(self.points), len(self.names))
        self.radix = np.array([len(v) for v in self.values], dtype=np.int64)
        self._by_value: dict[tuple[int, int], np.ndarray] = {}
        self._lookup = _value_indices(self.values)

    @classmethod
    def from_configs(
        cls, names: Sequence[str], values: Sequence[Sequence[Any]], configs: Iterable[Mapping[str, Any]]
    ) -> SearchSpace:
        """The points of ``configs`` (dicts with at least ``names``), first occurrence kept."""
        lookup = _value_indices(values)
        points, kept, seen = [], [], set()
        for c in configs:
            p = tuple(lookup[d][repr(c[n])] for d, n in enumerate(names))
            if p not in seen:
                seen.add(p)
                points.append(p)
                kept.append(dict(c))
        return cls(tuple(names), tuple(tuple(v) for v in values), points, kept)

    def __len__(self) -> int:
        return len(self.points)

    def valid(self, p: Point) -> bool:
        return p in self.index

    def holds(self, config: Mapping[str, Any]) -> bool:
        """Whether the configuration is one of the space's points (its constraints hold)."""
        point = tuple(self._lookup[d].get(repr(config[n])) for d, n in enumerate(self.names))
        return point in self.index

    def config(self, p: Point) -> dict[str, Any]:
        if self.configs:
            return self.configs[self.index[p]]
        return {n: self.values[d][i] for d, (n, i) in enumerate(zip(self.names, p))}

    def nearest(self, x: Sequence[float], exclude: Iterable[Point] = ()) -> Point | None:
        """The valid point closest to ``x`` (coordinates in index units, L1), skipping ``exclude``."""
        distance = np.abs(self.array - np.asarray(x, dtype=float)).sum(axis=1)
        for k in np.argsort(distance, kind="stable"):
            p = self.points[int(k)]
            if p not in exclude:
                return p
        return None

    def design(self, count: int, rng, exclude: Iterable[Point] = ()) -> list[Point]:
        """Up to ``count`` valid points spread over the space: a Latin hypercube over the value
        indices (each axis cut into ``count`` strata, one point per stratum, so every part of
        every axis, its extremes included, is sampled), each snapped to the nearest valid point
        not taken yet."""
        dims = len(self.names)
        columns = []
        for d in range(dims):
            r = int(self.radix[d])
            column = [min(r - 1, int((k + rng.random()) * r / count)) for k in range(count)]
            rng.shuffle(column)
            columns.append(column)
        taken, out = set(exclude), []
        for k in range(count):
            p = self.nearest([columns[d][k] for d in range(dims)], exclude=taken)
            if p is None:
                break
            out.append(p)
            taken.add(p)
        return out

    def moves(self, p: Point, d: int) -> list[Point]:
        """``p`` with parameter ``d`` set to each of its other values, nearest values first.
        Where that value breaks a constraint, the other parameters are repaired: the valid
        point with that value nearest to ``p`` stands for it (e.g. a larger block_x with a
        smaller block_y when their product is bounded), so moves reach points on the
        constraint's boundary that no one-parameter step can."""
        out = []
        for v in sorted(range(int(self.radix[d])), key=lambda v: (abs(v - p[d]), v)):
            if v == p[d]:
                continue
            q = p[:d] + (v,) + p[d + 1 :]
            if q not in self.index:
                rows = self._rows(d, v)
                if not len(rows):
                    continue
                q = self.points[int(rows[np.argmin(np.abs(self.array[rows] - np.asarray(p)).sum(axis=1))])]
            out.append(q)
        return out

    def _rows(self, d: int, v: int) -> np.ndarray:
        """Indices of the valid points whose parameter ``d`` has value index ``v``."""
        if (d, v) not in self._by_value:
            self._by_value[d, v] = np.nonzero(self.array[:, d] == v)[0]
        return self._by_value[d, v]

    def coarse(self) -> tuple[SearchSpace, Callable[[Point], Point]] | None:
        """The space on a coarser grid, and the map from its points to this space's: each
        size (a parameter of four or more positive numbers) keeps only its values at octaves,
        those nearest to its smallest value times 1, 2, 4, ..., and its largest (block widths
        16, 32, ..., 256 keep 16, 32, 64, 128 and 256); other parameters keep every value.
        None where no parameter has values to drop or no valid point is left."""
        keep = [_octaves(values) for values in self.values]
        if all(len(k) == len(v) for k, v in zip(keep, self.values)):
            return None
        rank = [{v: k for k, v in enumerate(kept)} for kept in keep]
        points = [tuple(r[i] for r, i in zip(rank, p)) for p in self.points if all(i in r for r, i in zip(rank, p))]
        if not points:
            return None
        values = tuple(tuple(vals[i] for i in kept) for vals, kept in zip(self.values, keep))
        return SearchSpace(self.names, values, points), lambda q: tuple(kept[i] for kept, i in zip(keep, q))

    def covering(self) -> list[Point]:
        """Valid points that together hold every pair of values of any two parameters that some
        valid point holds (a covering array of strength two, over the valid set: a pair that
        the constraints rule out is not asked for), so every value of every parameter too.
        Greedy: each next point is the valid one that holds the most pairs not held yet, the
        first in the space's order among equals; far fewer points than the space where it has
        several parameters of a few values each (the validation of code generation checks
        every placement decision against every other this way)."""
        dims = len(self.names)
        pairs = [(a, b) for a in range(dims) for b in range(a + 1, dims)]
        if not pairs:  # one parameter: each of its values
            return list(
                dict.fromkeys(self.points[int(np.argmax(self.array[:, 0] == v))] for v in np.unique(self.array[:, 0]))
            )
        # each point's pairs as numbers: pair k of values (i, j) -> offset[k] + i * radix[b] + j
        sizes = [int(self.radix[a] * self.radix[b]) for a, b in pairs]
        offsets = np.cumsum([0] + sizes[:-1])
        codes = np.stack(
            [offsets[k] + self.array[:, a] * self.radix[b] + self.array[:, b] for k, (a, b) in enumerate(pairs)], axis=1
        )
        wanted = np.zeros(int(sum(sizes)), dtype=bool)
        wanted[np.unique(codes)] = True
        chosen: list[Point] = []
        while wanted.any():
            k = int(np.argmax(wanted[codes].sum(axis=1)))
            chosen.append(self.points[k])
            wanted[codes[k]] = False
        return chosen

    def neighbours(self, p: Point) -> list[Point]:
        """Valid points one value step away in one parameter."""
        out = []
        for d in range(len(p)):
            for step in (-1, 1):
                q = p[:d] + (p[d] + step,) + p[d + 1 :]
                if q in self.index:
                    out.append(q)
        return out


def _octaves(values: Sequence[Any]) -> list[int]:
    """Indices of the values a coarse grid keeps (SearchSpace.coarse), in index order."""
    if len(values) < 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in values):
        return list(range(len(values)))
    low, high = min(values), max(values)
    keep = {values.index(high)}
    target = low
    while target <= high:
        keep.add(min(range(len(values)), key=lambda k: (abs(math.log(values[k] / target)), k)))
        target *= 2
    return sorted(keep)
