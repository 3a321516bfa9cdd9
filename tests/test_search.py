"""Search strategies on synthetic spaces: quality against random, constraints, small spaces, budgets."""

import itertools
import math
import random

import pytest

from orcu.driver.tuning import strategy_name
from orcu.search import DEFAULT, STRATEGIES, SearchSpace, drive, make

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


# TSG is a plan for the TSG's regions (recipes, then sizes), not an optimizer of any space: tested below.
@pytest.mark.parametrize("name", [n for n in STRATEGIES if n not in ("Exhaustive", "Random", "TSG")])
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
    if name in (
        "Exhaustive",
        "Random",
        "Genetic",
        "Generational",
        "Mlsearch",
        "Randomlocal",
        "Multistart",
        "Portfolio",
    ):
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


def test_deadline_stops_the_search(monkeypatch):
    """A clock of the test's own: each batch of 16 takes 0.05 s of it."""
    now = [100.0]
    monkeypatch.setattr("orcu.search.time.monotonic", lambda: now[0])
    strategy = make("Random", space(), seed=0)

    def slow(points):
        now[0] += 0.05
        return [cost(p) for p in points]

    spent = drive(strategy, slow, deadline=100.12)
    assert spent == 48  # batches start at 0, 0.05 and 0.10 s, before the deadline; the one in flight finishes


# Block shapes bounded by a product, as GPUs bound threads per block: the fastest shape sits on
# the bound, where no one-parameter step from another shape on it stays valid.
BLOCKS = SearchSpace.from_configs(
    ["bx", "by"],
    [(1, 2, 4, 8, 16, 32), (32, 64, 128, 256, 512)],
    [{"bx": x, "by": y} for x in (1, 2, 4, 8, 16, 32) for y in (32, 64, 128, 256, 512) if x * y <= 1024],
)


def test_moves_repair_a_broken_constraint():
    assert BLOCKS.moves((1, 3), 0) == [(0, 3), (2, 3), (3, 2), (4, 1), (5, 0)]  # nearest first; by down to fit
    assert BLOCKS.moves((5, 0), 1) == [(4, 1), (3, 2), (2, 3), (1, 4)]


def test_design_covers_every_value_of_every_axis():
    design = space().design(16, random.Random(1))
    assert len(design) == len(set(design)) == 16 and all(space().valid(p) for p in design)
    assert {p[0] for p in design} == set(range(16))  # one point per stratum: both extremes included
    assert {p[2] for p in design} == set(range(6))


def test_multistart_plans_for_its_budget():
    seen = []
    strategy = make("Multistart", space(), seed=2)
    drive(strategy, lambda pts: seen.append(list(pts)) or [cost(p) for p in pts], budget=400)
    assert strategy.budget == 400  # told by the driver
    assert len(seen[0]) == 20  # the initial design: 5% of the budget, at least one point per parameter
    assert min(strategy.costs.values()) == cost(OPTIMUM)


def test_multistart_moves_sizes_first_by_powers_of_two():
    names, values = ["switch", "size", "tile"], ((0, 1), tuple(range(16)), (1, 2, 3, 4))
    grid = SearchSpace.from_configs(names, values, [dict(zip(names, c)) for c in itertools.product(*values)])
    moves = make("Multistart", grid, seed=5)._singles((0, 5, 1))
    # size: 1, 2, 4 and 8 indices away (not all 15 other values); tile: every other value is
    # 1 or 2 away; the switch last in its round, as it has the fewest values
    assert sorted(moves) == sorted(
        [(0, v, 1) for v in (4, 6, 3, 7, 1, 9, 13)] + [(0, 5, 0), (0, 5, 2), (0, 5, 3), (1, 5, 1)]
    )
    assert moves[:3] == [(0, 4, 1), (0, 5, 0), (1, 5, 1)]  # round 1: each parameter's nearest value
    assert moves[3:] == [(0, 6, 1), (0, 5, 2), (0, 3, 1), (0, 5, 3), (0, 7, 1), (0, 1, 1), (0, 9, 1), (0, 13, 1)]


def test_multistart_reaches_an_optimum_on_a_constraint_bound():
    def slow(p):
        x, y = BLOCKS.config(p).values()
        return 1.0 + abs(x * y - 1024) / 1024 + 0.1 * (32 - x) / 32  # threads matter most, then bx

    def found(name):
        hits = 0
        for seed in range(20):
            strategy = make(name, BLOCKS, seed)
            drive(strategy, lambda pts: [slow(p) for p in pts], budget=12)
            hits += min(strategy.costs, key=strategy.costs.get) == (5, 0)
        return hits

    assert found("Multistart") == 20 > found("Random")  # 12 of the 20 shapes: chance alone misses it


# Block widths of 16 to 256 by 16, rows of 1 to 8 per thread, a switch; 256 threads at most.
WIDTHS = SearchSpace.from_configs(
    ["bx", "rows", "cache"],
    [tuple(range(16, 257, 16)), tuple(range(1, 9)), (0, 1)],
    [
        {"bx": x, "rows": r, "cache": c}
        for x in range(16, 257, 16)
        for r in range(1, 9)
        for c in (0, 1)
        if x * r <= 1024
    ],
)


def width_cost(p):
    """A bowl around 48 wide, 3 rows, cache on: an optimum off the octaves."""
    c = WIDTHS.config(p)
    return 1.0 + abs(c["bx"] - 48) / 32 + abs(c["rows"] - 3) / 2 + (1 - c["cache"])


def test_the_coarse_grid_keeps_sizes_at_octaves():
    grid, lift = WIDTHS.coarse()
    assert grid.values == ((16, 32, 64, 128, 256), (1, 2, 4, 8), (0, 1))
    assert all(
        WIDTHS.config(lift(q)) == dict(zip(grid.names, (v[i] for v, i in zip(grid.values, q)))) for q in grid.points
    )
    assert sorted(map(lift, grid.points)) == sorted(
        p
        for p in WIDTHS.points
        if (c := WIDTHS.config(p))["bx"] in (16, 32, 64, 128, 256) and c["rows"] in (1, 2, 4, 8)
    )
    assert space().coarse() is None and BLOCKS.coarse() is None  # nothing to drop: indices from 0, powers of two


def test_multistart_searches_the_coarse_grid_then_the_whole_space():
    grid, lift = WIDTHS.coarse()
    on_grid = set(map(lift, grid.points))
    for seed in range(8):
        strategy = make("Multistart", WIDTHS, seed)
        drive(strategy, lambda pts: [width_cost(p) for p in pts], budget=60)
        asked = list(strategy.costs)
        share = int(0.2 * len(grid))  # 0.2 of the grid: less than 85% of the budget here
        assert all(p in on_grid for p in asked[:share]) and asked[share] not in on_grid
        assert min(strategy.costs.values()) == 1.0  # found off the grid, between octaves
    alone = make("Multistart", WIDTHS, 0, {"coarse": 0})
    drive(alone, lambda pts: [width_cost(p) for p in pts], budget=60)
    assert any(p not in on_grid for p in list(alone.costs)[:share])  # coarse=0: the whole space at once


@pytest.mark.parametrize("where", ["grid", "coarse grid first"])
def test_ahead_names_what_is_asked_next(where):
    the_space, the_cost = (space(), cost) if where == "grid" else (WIDTHS, width_cost)
    for name in ("Exhaustive", "Random", "Multistart", "Portfolio"):
        strategy = make(name, the_space, seed=4)
        told, asked = [], []

        def evaluate(points):
            asked.append(points)
            return [the_cost(p) for p in points]

        drive(strategy, evaluate, budget=60, prepare=lambda batches: told.append(batches))
        assert len(told) == len(asked)
        built = sum(1 for before, now in zip(told, asked[1:]) if now in before)
        # most batches asked were built ahead; in a Portfolio, the climbs' turns (a generation of
        # the genetic algorithm depends on the costs of the one in flight)
        assert built >= len(asked) // (3 if name == "Portfolio" else 2), (name, built, len(asked))
        if where == "grid":  # the first guess too; on the bowl most moves improve, so the climb's next move is a miss
            first = sum(1 for before, now in zip(told, asked[1:]) if before and before[0] == now)
            assert first >= len(asked) // 2, (name, first, len(asked))
        assert all(p not in strategy.costs or p in sum(asked, []) for b in sum(told, []) for p in b)
        alone = make(name, the_space, seed=4)  # asking ahead changes nothing in the search
        drive(alone, lambda pts: [the_cost(p) for p in pts], budget=60)
        assert list(alone.costs) == list(strategy.costs)


def test_generational_starts_from_the_best_points_known_and_breeds_known_points_for_free():
    known = {p: cost(p) for p in ALLOWED[::7]}
    best = sorted(known, key=known.get)
    strategy = make("Generational", space(), seed=3, options={"population": 6})
    strategy.costs.update(known)  # in a Portfolio: what the climbs evaluated
    search = strategy.search()
    assert next(search) == best[:6]
    children = search.send([known[p] for p in best[:6]])
    assert len(children) == len(set(children)) == 6 and all(strategy.space.valid(p) for p in children)
    alone = make("Generational", space(), seed=5)
    asked = []
    drive(alone, lambda pts: asked.append(list(pts)) or [cost(p) for p in pts], budget=150)
    assert asked[0] == make("Random", space(), seed=5).random_unseen(26)  # nothing known: random
    assert any(len(batch) < 26 for batch in asked)  # some children were known: only the new ones spent budget
    assert min(alone.costs.values()) == cost(OPTIMUM)


def test_multistart_restart_best_climbs_from_the_best_point_not_climbed():
    known = {p: cost(p) for p in ALLOWED[::11]}
    start = min(known, key=known.get)
    strategy = make("Multistart", space(), seed=1, options={"restart": "best", "coarse": 0})
    strategy.costs.update(known)
    asked = []
    drive(strategy, lambda pts: asked.extend(pts) or [cost(p) for p in pts], budget=1)
    assert asked == [q for q in strategy._singles(start) if q not in known][:1]  # no design: climbing at once
    fresh = make("Multistart", space(), seed=1, options={"restart": "best"})
    seen = []
    drive(fresh, lambda pts: seen.append(list(pts)) or [cost(p) for p in pts], budget=60)
    assert len(seen[0]) == 3  # nothing known: a design first (a point per parameter), then climbs
    assert min(fresh.costs.values()) == cost(OPTIMUM)


def turns_of(strategy, budget, evaluate):
    """Drive a Portfolio; its turns as [arm name, evaluations, whether the turn improved the
    best point found by more than 1%]."""
    turns, quota = [], strategy.option("turn", 0.1) * budget

    def logged(points):
        name = type(strategy._active).__name__
        before = min(strategy.costs.values(), default=math.inf)
        costs = evaluate(points)
        if not turns or turns[-1][0] != name or turns[-1][1] >= quota:
            turns.append([name, 0, before])
        turns[-1][1] += len(points)
        turns[-1][2] = min([turns[-1][2]] + costs)  # the best after it, for now
        return costs

    drive(strategy, logged, budget)
    starts = [math.inf] + [t[2] for t in turns[:-1]]
    return [[name, spent, best < start * 0.99] for (name, spent, best), start in zip(turns, starts)]


def test_portfolio_gives_the_next_turn_to_the_arm_that_improved():
    for seed in range(6):
        strategy = make("Portfolio", space(), seed)
        turns = turns_of(strategy, 300, lambda pts: [cost(p) for p in pts])
        assert turns[0][0] == "Multistart" and {t[0] for t in turns} == {"Multistart", "Generational"}
        for k, ((arm, spent, better), (after, _, _)) in enumerate(zip(turns, turns[1:])):
            # Where an arm's search ends (the genetic algorithm after its generations), its last
            # turn is short and the other has every turn after it.
            later = {t[0] for t in turns[k + 1 :]}
            if later == {"Multistart", "Generational"}:
                assert spent >= 30  # a tenth of the budget a turn
                assert (after == arm) == better, turns  # play the winner
            else:
                assert spent >= 30 or arm not in later
        assert min(strategy.costs.values()) == cost(OPTIMUM)


def test_portfolio_moves_the_budget_to_the_arm_that_finds_better_points():
    """Whichever arm it is: here the one whose points keep getting better is named by the test."""
    for winner in ("Multistart", "Generational"):
        strategy = make("Portfolio", space(), seed=2)
        clock = itertools.count()

        def rigged(points):  # the winner's points better with every batch, the other's all alike
            better = type(strategy._active).__name__ == winner
            return [100.0 - next(clock) if better else 1000.0 for _ in points]

        turns = turns_of(strategy, 300, rigged)
        spent = {arm: sum(t[1] for t in turns if t[0] == arm) for arm in ("Multistart", "Generational")}
        won = spent.pop(winner)
        # the other: a turn, two where it went first (its first points improve on nothing), a
        # batch overrunning a turn by at most a population
        assert spent.popitem()[1] <= 2 * 0.1 * 300 + 20 and won >= 300 - 2 * 0.1 * 300 - 20


def test_the_default_is_named_once():
    assert DEFAULT in STRATEGIES

    class Spec:
        search = {}

    class Program:
        spec = Spec()

    assert strategy_name(Program(), None, 10, 100) == DEFAULT
    assert strategy_name(Program(), None, 100, 100) == "Exhaustive"
    assert strategy_name(Program(), "ga", 10, 100) == "Genetic"


def test_tsg_tries_every_recipe_at_default_sizes_then_sizes_the_best_one():
    names, values = ["d", "t", "e", "w"], ((0, 1, 2), (8, 16, 32, 64, 128), (False, True), (1, 2, 3))
    configs = [dict(zip(names, c)) for c in itertools.product(*values)]
    tsg_space = SearchSpace.from_configs(names, values, configs)
    tsg_space.roles = {"d": "decision", "e": "decision", "t": "size", "w": "size"}
    tsg_space.waves = lambda c: 1.0 if c["t"] == 64 else 0.5  # 64 threads fill the last wave

    def cost(p):
        c = tsg_space.config(p)
        return 10.0 - 3 * c["d"] - 2 * c["e"] + abs(c["t"] - 128) / 64 + c["w"]

    def run(budget):
        strategy = make("TSG", tsg_space, seed=0)
        asked = []
        drive(strategy, lambda pts: asked.extend(pts) or [cost(p) for p in pts], budget)
        return [tsg_space.config(p) for p in asked]

    asked = run(None)
    recipes = asked[:6]  # Phase III: each (d, e) once, at the middle sizes
    assert sorted((c["d"], c["e"]) for c in recipes) == sorted(itertools.product((0, 1, 2), (False, True)))
    assert {(c["t"], c["w"]) for c in recipes} == {(32, 2)}
    sized = asked[
        6:
    ]  # Phase IV: the best recipe's other sizes, those filling the last wave first, then nearest the middle
    assert {(c["d"], c["e"]) for c in sized} == {(2, True)} and len(sized) == 5 * 3 - 1
    assert [c["t"] for c in sized[:3]] == [64, 64, 64] and sized[0]["w"] == 2
    assert min(cost(tsg_space.points[tsg_space.configs.index(c)]) for c in asked) == cost(
        tsg_space.points[tsg_space.configs.index({"d": 2, "t": 128, "e": True, "w": 1})]
    )
    more = run(30)  # a budget: the next best recipe's sizes follow
    assert more[:20] == asked and len(more) == 30 and {(c["d"], c["e"]) for c in more[20:]} == {(2, False)}


def test_tsg_measures_the_recipes_the_model_predicts_fastest_when_its_budget_cannot_cover_them_all():
    names, values = ["d", "e", "t"], ((0, 1, 2, 3), (False, True), (32, 64, 128))
    configs = [dict(zip(names, c)) for c in itertools.product(*values)]
    space = SearchSpace.from_configs(names, values, configs)
    space.roles = {"d": "decision", "e": "decision", "t": "size"}
    # the model's times: d = 3 with e the fastest, then d = 1; d = 0 it cannot tell (None)
    space.predicted = lambda c: None if c["d"] == 0 else {3: 1.0, 1: 2.0, 2: 5.0}[c["d"]] - 0.5 * c["e"]

    def run(budget):
        strategy = make("TSG", space, seed=0)
        asked = []
        drive(strategy, lambda pts: asked.extend(pts) or [1.0 for _ in pts], budget)
        return [(c["d"], c["e"]) for c in map(space.config, asked)]

    assert run(3) == [(3, True), (3, False), (1, True)]
    # the recipes the model cannot tell come last
    assert run(7) == [(3, True), (3, False), (1, True), (1, False), (2, True), (2, False), (0, False)]
    # a budget that covers every recipe: the space's own order, the model not asked
    space.predicted = lambda c: pytest.fail("the model was asked")
    assert run(None)[:8] == [(d, e) for d in range(4) for e in (False, True)]


def test_the_covering_array_holds_every_pair_the_valid_points_hold():
    """Four parameters (3 x 3 x 2 x 2 = 36 points), the points where a + b > 3 invalid: every pair
    of values that some valid point holds is in the covering, and no pair that none holds."""
    values = ((0, 1, 2), (0, 1, 2), (False, True), (16, 32))
    configs = [dict(zip("abcd", p)) for p in itertools.product(*values) if p[0] + p[1] <= 3]
    space = SearchSpace.from_configs("abcd", values, configs)
    covering = space.covering()
    assert len(set(covering)) == len(covering) and all(space.valid(p) for p in covering)

    def pairs(points):
        return {(x, y, p[x], p[y]) for p in points for x, y in itertools.combinations(range(4), 2)}

    assert pairs(covering) == pairs(space.points)
    assert (0, 1, 2, 2) not in pairs(covering)  # a + b = 4: ruled out by the constraint
    assert len(covering) == 8 < len(space)  # the 8 valid pairs of a and b need 8 points; greedy needs no more


def test_the_registry_is_the_one_list_of_strategies():
    import inspect
    import re

    from orcu.driver.cli import build_parser
    from orcu.search.registry import SPELLINGS, canonical
    from orcu.spec.builder import _algorithm

    assert canonical("RandomSearch") == "Random" and canonical("msimplex") == "Simplex" and canonical("nope") is None
    for spelling in SPELLINGS:
        assert _algorithm(spelling) is None
    assert _algorithm("Hillclimb") == "one of " + ", ".join(sorted(STRATEGIES))
    tune = next(a for a in build_parser()._subparsers._group_actions[0].choices["tune"]._actions if a.dest == "search")
    assert all(name in tune.help for name in STRATEGIES)
    for name, cls in STRATEGIES.items():  # every option a strategy reads is documented with its default
        read = set(re.findall(r'self\.option\("(\w+)"', inspect.getsource(cls)))
        assert read <= set(cls.options_doc), (name, read - set(cls.options_doc))
