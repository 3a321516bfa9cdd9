"""The space a strategy moves in: valid points of a grid of parameter values.

A point is a tuple of value indices, one per parameter, so neighbours and distances mean
something to local and model-based strategies; only points of the valid set are ever
proposed. Invalid coordinates are snapped to the nearest valid point.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

Point = tuple[int, ...]


@dataclass
class SearchSpace:
    names: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]  # each parameter's values, in spec order
    points: list[Point]  # the valid points, in the space's own order
    configs: list[dict[str, Any]] = field(default_factory=list)  # the configuration of each point

    def __post_init__(self) -> None:
        self.index = {p: k for k, p in enumerate(self.points)}
        self.array = np.array(self.points, dtype=np.int64).reshape(len(self.points), len(self.names))
        self.radix = np.array([len(v) for v in self.values], dtype=np.int64)

    @classmethod
    def from_configs(cls, names: Sequence[str], values: Sequence[Sequence[Any]], configs: Iterable[Mapping[str, Any]]) -> "SearchSpace":
        """The points of ``configs`` (dicts with at least ``names``), first occurrence kept."""
        lookup = [{repr(v): k for k, v in enumerate(vals)} for vals in values]
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

    def neighbours(self, p: Point) -> list[Point]:
        """Valid points one value step away in one parameter."""
        out = []
        for d in range(len(p)):
            for step in (-1, 1):
                q = p[:d] + (p[d] + step,) + p[d + 1 :]
                if q in self.index:
                    out.append(q)
        return out
