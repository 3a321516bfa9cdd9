"""The strategies a tune uses by default: the exhaustive and random orders, Multistart's planned
hill climbing, the Portfolio that runs it beside a genetic algorithm, Orio's Randomlocal."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Generator, Mapping
from typing import Any

from orcu.search.heuristics import Generational
from orcu.search.space import Point, SearchSpace
from orcu.search.strategy import Search, Strategy


class Exhaustive(Strategy):
    """Every point, in the space's order."""

    name = "Exhaustive"
    options_doc = {"batch": "16 (points evaluated at once)"}
    _next: list[Point] = []  # the batch after the one in flight

    def order(self) -> list[Point]:
        return self.space.points

    def search(self) -> Search:
        batch = self.option("batch", 16)
        points = self.order()
        for k in range(0, len(points), batch):
            self._next = points[k + batch : k + 2 * batch]
            yield points[k : k + batch]

    def ahead(self) -> list[list[Point]]:
        return [self._next] if self._next else []


class Random(Exhaustive):
    """Points drawn without replacement (Orio's Randomsearch)."""

    name = "Random"
    aliases = ("randomsearch",)  # Orio's spellings

    def order(self) -> list[Point]:
        points = list(self.space.points)
        self.rng.shuffle(points)
        return points


class Multistart(Strategy):
    """Hill climbing from several starts, planned for the budget (one of the Portfolio's two arms).

    First a Latin-hypercube design over the value indices (``design`` of the budget, at
    least one point per parameter that has several values); then first-improvement climbs
    over one-parameter moves: steps of 1, 2, 4, 8, ... value indices (a parameter of 16
    values has 4 to 7 moves, not 15: the far values of a size are seldom the next
    improvement, and a climb pays for every move at its optimum), nearest first, the
    parameters interleaved in a random order except that in each round those with more
    values (sizes) come before those with fewer (switches of code path, such as shared
    memory on or off, whose worth depends on the sizes they are tried with); moves that
    break a constraint are repaired (SearchSpace.moves). A climb ends at a local optimum, where
    every move has been tried, or where it steps onto an earlier climb's path (it would
    only retrace it). The first climb starts at the design's best point; each later one at
    the unclimbed design point farthest, in parameters changed, from the optima found so
    far, the design's cost breaking ties: a space's best point often lies in a basin whose
    points look bad from afar (another code path, e.g. shared memory off), and a restart
    near a known optimum mostly finds that optimum again. Once the budget left is less
    than a climb has taken on average, the rest goes to two-parameter moves around the
    best point found. While a move is evaluated, ahead() names the next moves and the first
    moves from the one being tried, so that a tune builds them meanwhile.

    All this runs twice where the space has sizes of many values: first on its coarse grid
    (SearchSpace.coarse: the sizes at octaves, 16, 32, 64, ... of 16, 32, 48, ...), for at
    most ``coarse`` of that grid's points and 85% of the budget, then on the whole space:
    a climb from the best point found, then the design and climbs above. On the coarse
    grid a climb is cheaper (fewer moves to confirm an optimum) and its basins are wider:
    the fastest GPU configurations sit mostly on octaves, and an optimum whose row runs a hundred times slower off them
    (a block width of 48 instead of 32 or 64) is a needle on the whole space. The whole
    space then finds what lies between octaves near the best one, or off them elsewhere.

    Measured by replay on recorded GPU spaces against the other strategies and Kernel
    Tuner's (bench/bench_search.py, bench/README.md)."""

    name = "Multistart"
    options_doc = {
        "design": "0.05 (fraction of the budget spent on the initial design)",
        "batch": "1 (moves tried at once: more keeps more builders busy, at some cost in quality)",
        "coarse": "0.2 (the most of the coarse grid searched first, as a fraction of its points; 0: none)",
        "restart": "farthest (each later climb from the design point farthest from the optima found; "
        "best: from the best point evaluated and not climbed yet, whoever evaluated it)",
    }

    def __init__(
        self, space: SearchSpace, seed: int = 0, options: Mapping[str, Any] | None = None, budget: int | None = None
    ):
        super().__init__(space, seed, options, budget)
        self.seed = seed
        self._queue: list[Point] = []  # the moves a climb will try next, in order
        self._trying: list[Point] = []  # the moves being evaluated
        self._batch = self.option("batch", 1)
        self._moves: Callable[[Point], list[Point]] = self._singles  # the climb's kind of move
        self._singles_of: dict[Point, list[Point]] = {}
        self._coarse: tuple[Multistart, Callable[[Point], Point]] | None = None  # while on the coarse grid

    def ahead(self) -> list[list[Point]]:
        """The climb's next moves, and, second, the first moves from the one being tried,
        where the climb goes if it is better."""
        if self._coarse is not None:
            inner, lift = self._coarse
            return [[lift(q) for q in batch] for batch in inner.ahead()]
        rest = [q for q in self._queue if q not in self.costs]
        then = []
        if len(self._trying) == 1 and self._moves == self._singles:
            then = [q for q in self._singles(self._trying[0]) if q not in self.costs][:2]
        points = list(dict.fromkeys(rest[: self._batch] + then + rest[self._batch :]))[:16]
        return [points[k : k + self._batch] for k in range(0, len(points), self._batch)]

    def search(self) -> Search:
        space = self.space
        visited: set[Point] = set()
        if (yield from self._search_coarse()):  # then on to the whole space from the best point found
            visited.update(
                (yield from self._climb(min(self.costs, key=self.costs.__getitem__), visited, self._singles))
            )
        free = int((space.radix > 1).sum())  # a parameter with one value is no dimension of the design
        size = max(free, 2, math.ceil(self.option("design", 0.05) * (self.budget or 0)))
        if self.option("restart", "farthest") == "best":
            yield from self._climb_from_best(size, visited)
            return
        starts = space.design(min(size, len(space)), self.rng, self.costs)
        if not starts:
            return
        yield starts
        optima: list[Point] = []
        climbing = 0  # evaluations spent climbing, for the mean length of a climb
        polished = False
        while True:
            unclimbed = [p for p in starts if p not in visited and math.isfinite(self.costs[p])]
            if not unclimbed:
                starts = space.design(max(4, size // 2), self.rng, self.costs)
                if not starts:
                    return
                yield starts
                continue
            left = math.inf if self.budget is None else self.budget - len(self.costs)
            if optima and not polished and left < climbing / len(optima):
                polished = True
                yield from self._climb(min(self.costs, key=self.costs.__getitem__), visited, self._pairs)
                continue
            if optima:
                start = min(unclimbed, key=lambda p: (-min(_changed(p, q) for q in optima), self.costs[p]))
            else:
                start = min(unclimbed, key=self.costs.__getitem__)
            starts.remove(start)
            before = len(self.costs)
            path = yield from self._climb(start, visited, self._singles)
            climbing += len(self.costs) - before
            visited.update(path)
            optima.append(path[-1])

    def _climb_from_best(self, size: int, visited: set[Point]) -> Search:
        """Climbs from the best point evaluated that no climb has passed through, a design of
        ``size`` points first if none is known, another where every known point is climbed:
        in a Portfolio the genetic algorithm's finds are the climbs' starts."""
        while True:
            unclimbed = [p for p, c in self.costs.items() if p not in visited and math.isfinite(c)]
            if not unclimbed:
                starts = self.space.design(min(size, len(self.space)), self.rng, self.costs)
                if not starts:
                    return
                yield starts
                size = max(4, size // 2)
                continue
            visited.update((yield from self._climb(min(unclimbed, key=self.costs.__getitem__), visited, self._singles)))

    def _search_coarse(self) -> Generator[list[Point], list[float], bool]:
        """The search on the space's coarse grid, for its share of the budget; whether it
        evaluated anything."""
        fraction = self.option("coarse", 0.2)
        coarse = self.space.coarse() if fraction > 0 else None
        if coarse is None:
            return False
        grid, lift = coarse
        share = int(fraction * len(grid))
        if self.budget is not None:  # the whole space keeps 15% of the budget, at least 10 points
            share = min(share, self.budget - max(10, int(0.15 * self.budget)))
        if share < 2:
            return False
        # the grid is the climbs' own exploration, the genetic algorithm's of a Portfolio being
        # on the whole space: restarts there go far from the optima found, whatever "restart" says
        inner = Multistart(grid, self.seed, {**self.options, "coarse": 0, "restart": "farthest"}, share)
        self._coarse = inner, lift
        start, ran = len(self.costs), False
        search = inner.search()
        try:
            batch = next(search)
            while True:
                costs = yield [lift(q) for q in batch]
                ran = True
                inner.costs.update(zip(batch, costs))
                if len(self.costs) - start >= share:
                    break
                batch = search.send(costs)
        except StopIteration:
            pass
        self._coarse = None
        return ran

    def _climb(self, start: Point, visited: set[Point], moves) -> Generator[list[Point], list[float], list[Point]]:
        """First-improvement descent from ``start``; returns the path, local optimum last."""
        current, cost, path = start, self.costs[start], [start]
        self._moves = moves
        while True:
            self._queue = moves(current)
            better = None
            while self._queue:
                tried = [self._queue.pop(0)]
                while self._queue and len([q for q in tried if q not in self.costs]) < self._batch:
                    tried.append(self._queue.pop(0))
                fresh = [q for q in tried if q not in self.costs]
                if fresh:
                    self._trying = fresh
                    yield fresh
                q = min(tried, key=self.costs.__getitem__)
                if self.costs[q] < cost:
                    better = q, self.costs[q]
                    break
            self._queue, self._trying = [], []
            if better is None:
                return path
            current, cost = better
            if current in visited:
                return path
            path.append(current)

    def _singles(self, p: Point) -> list[Point]:
        """One-parameter moves a power of two value indices away: the nearest of each
        parameter first (the parameters with more values first), then the next. The order
        among parameters with as many values is drawn from the seed and the point alone, so
        that asking ahead (for a point the climb may never reach) changes nothing in the
        search."""
        if p not in self._singles_of:
            axes = list(range(len(p)))
            random.Random(hash((self.seed, p))).shuffle(axes)
            axes.sort(key=lambda d: -self.space.radix[d])
            per_axis = [[q for q in self.space.moves(p, d) if _power_of_two(abs(q[d] - p[d]))] for d in axes]
            out = []
            for k in range(max(map(len, per_axis), default=0)):
                out += [moves[k] for moves in per_axis if k < len(moves)]
            self._singles_of[p] = list(dict.fromkeys(out))
        return list(self._singles_of[p])

    def _pairs(self, p: Point) -> list[Point]:
        """Two parameters one value step each, in a random order."""
        out = [
            q
            for d, e in itertools.combinations(range(len(p)), 2)
            for a in (-1, 1)
            for b in (-1, 1)
            if (q := p[:d] + (p[d] + a,) + p[d + 1 : e] + (p[e] + b,) + p[e + 1 :]) in self.space.index
        ]
        self.rng.shuffle(out)
        return out


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _changed(p: Point, q: Point) -> int:
    """How many parameters differ between two points."""
    return sum(a != b for a, b in zip(p, q))


class Portfolio(Strategy):
    """The default strategy: a Multistart and a Generational genetic algorithm that share one
    record of evaluated points and take turns, a tenth of the budget each (``turn``), the next
    turn to the one whose turn improved the best point found by more than 1% (``gain``), else
    to the other (play the winner). Less than 1% is within the noise of a GPU timing, so no
    evidence of which search is doing better.

    The two fail in opposite ways. Climbs from a Latin-hypercube design are the quickest to
    an optimum that one-parameter moves lead to, and the coarse grid takes them over sizes of
    many values; but where the best points differ from good ones in several parameters at
    once (a tiling whose work-group sizes, vector widths and caching must agree), every climb
    stops at a lesser optimum and restarts pay for confirming it again. A genetic algorithm
    recombines parameters of good points, so it crosses such valleys, but over a large size
    it samples where a climb would step, and at small budgets its random start is most of
    what it does. Which kind a user's kernel is cannot be known before it is measured; how
    each is doing can: a turn that improves the best point found is the evidence, and the
    budget follows it. Sharing the record makes them one search, not two halves: the
    climbs start from the best point that no climb has passed through, whoever found it
    (Multistart's ``restart`` "best"), and the genetic algorithm's first population is the
    best points known when its first turn comes.

    Measured by replay on recorded GPU spaces, and on the same kernels recorded on other
    GPUs it was not shaped on (bench/bench_search.py, bench/README.md)."""

    name = "Portfolio"
    options_doc = {
        "turn": "0.1 (evaluations per turn, as a fraction of the budget, at least 5)",
        "gain": "0.01 (the least improvement of the best time that wins a turn)",
    }

    def __init__(
        self, space: SearchSpace, seed: int = 0, options: Mapping[str, Any] | None = None, budget: int | None = None
    ):
        super().__init__(space, seed, options, budget)
        self._active: Strategy | None = None

    def ahead(self) -> list[list[Point]]:
        """The batches the arm whose turn it is expects to ask for next."""
        return self._active.ahead() if self._active is not None else []

    def search(self) -> Search:
        arms: list[Strategy] = [
            Multistart(self.space, self.rng.randrange(1 << 30), {"restart": "best"}, self.budget),
            Generational(self.space, self.rng.randrange(1 << 30), None, self.budget),
        ]
        for arm in arms:
            arm.costs = self.costs  # one record: each sees what the other evaluated
        searches = [arm.search() for arm in arms]
        answers: list[list[float] | None] = [None] * len(arms)  # each arm's last batch's costs, to send it next
        turn = max(5, int(self.option("turn", 0.1) * (self.budget or len(self.space))))
        gain = self.option("gain", 0.01)
        k = 0
        while searches[0] is not None or searches[1] is not None:
            if searches[k] is None:
                k = 1 - k
            self._active = arms[k]
            before, start = min(self.costs.values(), default=math.inf), len(self.costs)
            while len(self.costs) - start < turn:
                try:
                    batch = next(searches[k]) if answers[k] is None else searches[k].send(answers[k])
                except StopIteration:
                    searches[k] = None
                    break
                answers[k] = yield batch
            if not min(self.costs.values(), default=math.inf) < before * (1 - gain):
                k = 1 - k  # no better point this turn: the other's turn


class Randomlocal(Strategy):
    """Random restarts, each followed by steepest descent over the neighbours (Orio's Randomlocal)."""

    name = "Randomlocal"

    def search(self) -> Search:
        while True:
            start = self.random_unseen(1)
            if not start:
                return
            current = start[0]
            cost = (yield [current])[0]
            while True:
                around = self.space.neighbours(current)
                if not around:
                    break
                costs = yield around
                k = min(range(len(around)), key=costs.__getitem__)
                if costs[k] >= cost:
                    break
                current, cost = around[k], costs[k]
