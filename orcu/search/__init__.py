"""Search: strategies over a space of valid points, and the loop that drives them."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from orcu.search.registry import DEFAULT, STRATEGIES
from orcu.search.space import Point, SearchSpace
from orcu.search.strategy import Strategy

__all__ = ["DEFAULT", "Point", "SearchSpace", "STRATEGIES", "Strategy", "drive", "make"]

STALE_BATCHES = 1000  # batches of known points in a row before a strategy is taken as converged


def make(
    name: str, space: SearchSpace, seed: int = 0, options: dict | None = None, budget: int | None = None
) -> Strategy:
    return STRATEGIES[name](space, seed, options, budget)


def drive(
    strategy: Strategy,
    evaluate: Callable[[list[Point]], list[float]],
    budget: int | None = None,
    deadline: float | None = None,
    recall: Callable[[list[Point]], dict[Point, float]] | None = None,
    alias: Callable[[list[Point]], dict[Point, float]] | None = None,
    prepare: Callable[[list[list[Point]]], None] | None = None,
) -> int:
    """Run ``strategy`` until it finishes, ``budget`` points are spent, or the
    ``time.monotonic()`` ``deadline`` passes; returns the number of points spent.

    ``evaluate`` gets points the strategy has not seen and returns their costs (math.inf for
    a failure). ``recall`` answers the points it already knows (e.g. from the results
    database) without evaluating them: they count against the budget all the same, so a
    repeated search retraces its steps for free and a resumed one goes on where it stopped.
    ``alias`` answers points that are another point already known under another name (the
    same build): they cost nothing, and spend no budget. ``prepare`` is told, just before
    each ``evaluate``, the batches the strategy expects to ask for next (Strategy.ahead,
    within the budget left), to build them while this one runs."""
    known = strategy.costs
    if strategy.budget is None:
        strategy.budget = budget  # what it may spend, whoever made it
    spent = stale = 0
    search = strategy.search()
    try:
        batch = next(search)
        while True:
            fresh = [p for p in dict.fromkeys(batch) if p not in known]
            aliased = alias(fresh) if alias is not None and fresh else {}
            known.update(aliased)
            fresh = [p for p in fresh if p not in aliased]
            if budget is not None:
                fresh = fresh[: max(0, budget - spent)]
            if fresh:
                recalled = recall(fresh) if recall is not None else {}
                known.update(recalled)
                missing = [p for p in fresh if p not in recalled]
                if missing:
                    if prepare is not None:
                        prepare(_ahead(strategy, budget, spent + len(fresh)))
                    known.update(zip(missing, evaluate(missing)))
                spent += len(fresh)
                stale = 0
            elif aliased:
                stale = 0
            else:
                stale += 1
            if any(p not in known for p in batch) or stale > STALE_BATCHES:
                break  # out of budget
            if deadline is not None and time.monotonic() >= deadline:
                break
            batch = search.send([known[p] for p in batch])
    except StopIteration:
        pass
    return spent


def _ahead(strategy: Strategy, budget: int | None, spent: int) -> list[list[Point]]:
    """The strategy's next batches, without points known already, up to the budget left."""
    left = math.inf if budget is None else budget - spent
    out = []
    for batch in strategy.ahead():
        batch = [p for p in batch if p not in strategy.costs][: max(0, int(min(left, len(batch))))]
        if batch:
            out.append(batch)
            left -= len(batch)
    return out
