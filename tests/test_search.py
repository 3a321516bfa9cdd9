"""Search strategies on synthetic spaces: quality against random, constraints, small spaces, budgets."""
import itertools
import math
import time

import pytest

from orcu.search import STRATEGIES, SearchSpace, drive, make

# A 16 x 12 x 6 grid with a forbidden corner and a failing band; a smooth bowl with one optimum.
VALUES = (tuple(range(16)), tuple(range(12)), tuple(range(6)))
ALLOWED = [p for p in itertools.product(*(range(len(v)) for v in VALUES)) if p[0] + p[1] <= 20]
OPTIMUM = (11, 3, 4)


def cost(p):
    if p[1] == 9:
        return math.inf  # these variants fail: a penalty, not an error
    return 1.0 + sum((a - b) ** 2 * w for a, b, w in zip(p, OPTIMUM, (0.3, 0.5, 0.8)))


def space():
    return SearchSpace.from_configs(["x", "y", "z"], VALUES, [{"x": a, "y": b, "z": c} for a, b, c in ALLOWED])


def found_optimum(name, seed, budget):
    strategy = make(name, space(), seed)
    asked = []

    def evaluate(points):
        asked.extend(points)
        assert all(strategy.space.valid(p) for p in points), "a strategy proposed a point outside the constraints"
        return [cost(p) for p in points]

    spent = drive(strategy, evaluate, budget)
    assert spent == len(asked) == len(set(asked)) <= budget
    return min(strategy.costs.values()) == cost(OPTIMUM)


@pytest.mark.parametrize("name", [n for n in STRATEGIES if n not in ("Exhaustive", "Random")])
def test_finds_the_optimum_more_often_than_random(name):
    budget = len(ALLOWED) // 10
    seeds = range(12)
    mine = sum(found_optimum(name, s, budget) for s in seeds)
    random_hits = sum(found_optimum("Random", s, budget) for s in seeds)
    assert mine > random_hits, (mine, random_hits)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_space_smaller_than_a_population(name):
    tiny = SearchSpace.from_configs(["x"], [(1, 2, 3, 4, 5)], [{"x": v} for v in (5, 3, 1)])
    strategy = make(name, tiny, seed=3)
    seen = []
    drive(strategy, lambda pts: seen.extend(pts) or [float(tiny.config(p)["x"]) for p in pts], budget=100)
    assert len(seen) == len(set(seen)) <= 3
    if name in ("Exhaustive", "Random", "Genetic", "Mlsearch", "Randomlocal"):
        assert min(strategy.costs.values()) == 1.0


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_budget_and_reproducibility(name):
    runs = []
    for _ in range(2):
        strategy = make(name, space(), seed=7)
        spent = drive(strategy, lambda pts: [cost(p) for p in pts], budget=25)
        runs.append(list(strategy.costs))
        assert spent == len(strategy.costs) <= 25
    assert runs[0] == runs[1]  # same seed, same points in the same order


def test_known_results_are_free():
    strategy = make("Exhaustive", space(), seed=0)
    first = ALLOWED[:10]
    strategy.costs.update({p: cost(p) for p in first})  # e.g. from the results database
    asked = []
    drive(strategy, lambda pts: asked.extend(pts) or [cost(p) for p in pts], budget=5)
    assert asked == ALLOWED[10:15]


def test_deadline_stops_the_search():
    strategy = make("Random", space(), seed=0)

    def slow(points):
        time.sleep(0.05)
        return [cost(p) for p in points]

    spent = drive(strategy, slow, deadline=time.monotonic() + 0.12)
    assert 16 <= spent <= 48  # batches of 16: the one in flight finishes, no new one starts
