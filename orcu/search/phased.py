"""CUDA-CHiLL's phased search (TSG): recipes first, then the sizes of the best ones."""

from __future__ import annotations

import math

from orcu.search.space import Point
from orcu.search.strategy import Search, Strategy


class TSG(Strategy):
    """CUDA-CHiLL's phased search (Khan's thesis, docs/design.md: Sources; sections 5.5 and 5.6). Phase III evaluates every
    recipe, a combination of the decisions (the parameters with the role "decision": the
    mapping, register tiles, shared copies, unrolling), each at default sizes (the middle
    value of every other parameter, the nearest valid point); Phase IV tunes the sizes of
    the best recipe, those that fill the device's last wave of blocks best first (the
    space's ``waves``), and stops there, unless a budget is given: then it goes on to the
    next best recipe's sizes while the budget lasts; a budget short of the recipes measures
    those the space's ``predicted`` (orcu's model) says are fastest. A space without roles is
    one recipe: Phase IV alone."""

    name = "TSG"
    options_doc = {"batch": "8 (Phase IV's points evaluated at once)"}

    def search(self) -> Search:
        space = self.space
        decisions = [d for d, n in enumerate(space.names) if space.roles.get(n) == "decision"]
        sizes = [d for d in range(len(space.names)) if d not in decisions]
        default = {d: (len(space.values[d]) - 1) / 2 for d in sizes}

        def off(p: Point) -> float:  # how far a point's sizes are from the defaults
            return sum(abs(p[d] - default[d]) for d in sizes)

        recipes: dict[tuple[int, ...], list[Point]] = {}
        for p in space.points:
            recipes.setdefault(tuple(p[d] for d in decisions), []).append(p)
        firsts = [min(points, key=off) for points in recipes.values()]
        if space.predicted is not None and self.budget is not None and self.budget < len(firsts):
            # a budget short of the recipes: those the model predicts fastest are measured (the
            # recipes in the space's order put 1 x 1 tiles first: gemm's 6 of 127 on the H200 were
            # its shared tiles without register tiles or tensor cores)
            firsts.sort(key=lambda p: _or_inf(space.predicted(space.config(p))))
        costs = yield firsts
        ranked = sorted(zip(costs, range(len(firsts))), key=lambda t: t[0])
        batch = self.option("batch", 8)
        for _, k in ranked:
            recipe = tuple(firsts[k][d] for d in decisions)
            rest = [p for p in recipes[recipe] if p not in self.costs]
            rest.sort(key=lambda p: (-space.waves(space.config(p)) if space.waves else 0.0, off(p)))
            for start in range(0, len(rest), batch):
                yield rest[start : start + batch]
            if self.budget is None:
                return


def _or_inf(ms: float | None) -> float:
    return math.inf if ms is None else ms
