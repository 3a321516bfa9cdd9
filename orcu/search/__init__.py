"""Search: strategies over a space of valid points, and the loop that drives them."""
from __future__ import annotations

import time
from typing import Callable

from .space import Point, SearchSpace
from .strategies import STRATEGIES, Strategy

__all__ = ["Point", "SearchSpace", "STRATEGIES", "Strategy", "drive", "make"]

STALE_BATCHES = 1000  # batches of known points in a row before a strategy is taken as converged


def make(name: str, space: SearchSpace, seed: int = 0, options: dict | None = None) -> Strategy:
    return STRATEGIES[name](space, seed, options)


def drive(strategy: Strategy, evaluate: Callable[[list[Point]], list[float]], budget: int | None = None,
          deadline: float | None = None, recall: Callable[[list[Point]], dict[Point, float]] | None = None,
          alias: Callable[[list[Point]], dict[Point, float]] | None = None) -> int:
    """Run ``strategy`` until it finishes, ``budget`` points are spent, or the
    ``time.monotonic()`` ``deadline`` passes; returns the number of points spent.

    ``evaluate`` gets points the strategy has not seen and returns their costs (math.inf for
    a failure). ``recall`` answers the points it already knows (e.g. from the results
    database) without evaluating them: they count against the budget all the same, so a
    repeated search retraces its steps for free and a resumed one goes on where it stopped.
    ``alias`` answers points that are another point already known under another name (the
    same build): they cost nothing, and spend no budget."""
    known = strategy.costs
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
