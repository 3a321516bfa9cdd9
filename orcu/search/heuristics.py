"""The classic heuristics Orio and Kernel Tuner offer: Nelder-Mead simplex, simulated annealing,
and two genetic algorithms."""

from __future__ import annotations

import math

import numpy as np

from orcu.search.space import Point
from orcu.search.strategy import Search, Strategy


class Simplex(Strategy):
    """Nelder-Mead on the index coordinates, vertices snapped to valid points, with restarts.

    Orio's coefficients by default: reflection 1.0, expansion 2.0, contraction 0.5, shrink 0.5.
    """

    name = "Simplex"
    aliases = ("msimplex",)  # Orio's spellings
    options_doc = {
        "reflection_coef": "1.0",
        "expansion_coef": "2.0",
        "contraction_coef": "0.5",
        "shrinkage_coef": "0.5",
    }

    def search(self) -> Search:
        alpha = self.option("reflection_coef", 1.0)
        gamma = self.option("expansion_coef", 2.0)
        rho = self.option("contraction_coef", 0.5)
        sigma = self.option("shrinkage_coef", 0.5)
        space = self.space
        dims = len(space.names)
        while True:
            start = self.random_unseen(1)
            if not start:
                return
            vertices = [start[0]]
            for d in range(dims):  # a step along each axis, a quarter of its range
                x = np.array(start[0], dtype=float)
                x[d] += max(1, space.radix[d] // 4) * (1 if self.rng.random() < 0.5 else -1)
                x[d] = min(max(x[d], 0), space.radix[d] - 1)
                p = space.nearest(list(x), exclude=vertices)
                if p is not None:
                    vertices.append(p)
            costs = list((yield vertices))
            stalled = 0
            while stalled < 3 and len(vertices) > 1:
                order = sorted(range(len(vertices)), key=costs.__getitem__)
                vertices = [vertices[k] for k in order]
                costs = [costs[k] for k in order]
                best_before = costs[0]
                x = np.array(vertices, dtype=float)
                centroid = x[:-1].mean(axis=0)
                worst = x[-1]
                reflected = space.nearest(centroid + alpha * (centroid - worst), exclude=vertices)
                if reflected is None:
                    break
                fr = (yield [reflected])[0]
                if fr < costs[0]:
                    expanded = space.nearest(centroid + gamma * (np.array(reflected) - centroid), exclude=vertices)
                    fe = (yield [expanded])[0] if expanded is not None else math.inf
                    vertices[-1], costs[-1] = (expanded, fe) if fe < fr else (reflected, fr)
                elif fr < costs[-2]:
                    vertices[-1], costs[-1] = reflected, fr
                else:
                    contracted = space.nearest(centroid + rho * (worst - centroid), exclude=vertices)
                    fc = (yield [contracted])[0] if contracted is not None else math.inf
                    if fc < costs[-1]:
                        vertices[-1], costs[-1] = contracted, fc
                    else:  # shrink towards the best vertex
                        best = x[0]
                        shrunk: list = []
                        for v in x[1:]:
                            p = space.nearest(best + sigma * (v - best), exclude=[vertices[0], *shrunk])
                            if p is not None:
                                shrunk.append(p)
                        if not shrunk:
                            break
                        vertices = [vertices[0], *shrunk]
                        costs = [costs[0], *(yield shrunk)]
                stalled = stalled + 1 if min(costs) >= best_before else 0


class Annealing(Strategy):
    """Simulated annealing over neighbours, with occasional random jumps and reheating."""

    name = "Annealing"
    aliases = ("simulatedannealing",)  # Orio's spellings
    options_doc = {"temperature": "0.1 (relative to the current cost)", "cooling": "0.95", "jump": "0.1"}

    def search(self) -> Search:
        start_temperature = self.option("temperature", 0.1)
        cooling = self.option("cooling", 0.95)
        jump = self.option("jump", 0.1)
        start = self.random_unseen(1)
        if not start:
            return
        current = start[0]
        cost = (yield [current])[0]
        temperature = start_temperature
        while True:
            around = [q for q in self.space.neighbours(current) if q not in self.costs]
            if not around or self.rng.random() < jump:
                around = self.random_unseen(1)
                if not around:
                    return
            candidate = self.rng.choice(around)
            c = (yield [candidate])[0]
            if (
                c < cost
                or (
                    math.isfinite(c)
                    and math.isfinite(cost)
                    and self.rng.random() < math.exp(-(c - cost) / (temperature * cost + 1e-300))
                )
                or not math.isfinite(cost)
            ):
                current, cost = candidate, c
            temperature *= cooling
            if temperature < start_temperature * 1e-3:
                temperature = start_temperature


class Genetic(Strategy):
    """A genetic algorithm: tournament selection, uniform crossover, mutation, elitism."""

    name = "Genetic"
    aliases = ("ga",)  # Orio's spellings
    options_doc = {"population": "20", "mutation": "1/parameters"}

    def search(self) -> Search:
        space = self.space
        dims = len(space.names)
        size = min(self.option("population", 20), len(space))
        mutation = self.option("mutation", 1.0 / max(1, dims))
        population = self.random_unseen(size)
        costs = list((yield population))
        while True:
            children: list[Point] = []
            taken = set(self.costs)  # a set: the membership test runs for every candidate of every child
            for _ in range(4 * size):
                if len(children) >= size:
                    break
                a, b = self._pick(population, costs), self._pick(population, costs)
                x = [a[d] if self.rng.random() < 0.5 else b[d] for d in range(dims)]
                for d in range(dims):
                    if self.rng.random() < mutation:
                        x[d] = self.rng.randrange(space.radix[d])
                child = space.nearest(x, exclude=taken)
                if child is None:
                    break
                children.append(child)
                taken.add(child)
            if not children:
                return
            child_costs = yield children
            ranked = sorted(zip(population + children, costs + list(child_costs)), key=lambda pc: pc[1])[:size]
            population = [p for p, _ in ranked]
            costs = [c for _, c in ranked]

    def _pick(self, population, costs) -> Point:
        i, j = self.rng.randrange(len(population)), self.rng.randrange(len(population))
        return population[i] if costs[i] <= costs[j] else population[j]


class Generational(Strategy):
    """A generational genetic algorithm, Kernel Tuner's scheme (its ``genetic_algorithm``):
    each generation replaces the last, parents drawn by rank (a Beta(1, 2.5) draw over the
    population sorted by cost, so the best are drawn most), single-point crossover in the
    parameters' order, a child that breaks a constraint repaired to a random valid point
    one value step from it in every parameter (else one differing in one parameter), and
    one child in ``mutation`` (55) moved to a random point differing in one parameter.

    Unlike Genetic, a child may be a point already evaluated: it costs nothing, and a good
    point drawn again and again stays in the population without elitism, so the population
    holds on to good parameter blocks while only new combinations spend the budget. Where
    points are known when it starts (in a Portfolio), the first population is the best of
    them, topped up with random ones. It stops after ``generations`` (90)."""

    name = "Generational"
    options_doc = {"population": "26", "mutation": "55 (one child in this many mutated)", "generations": "90"}

    def search(self) -> Search:
        space = self.space
        dims = len(space.names)
        size = min(self.option("population", 26), len(space))
        mutation = self.option("mutation", 55)
        population = sorted((p for p, c in self.costs.items() if math.isfinite(c)), key=self.costs.__getitem__)[:size]
        population += self.random_unseen(size - len(population))
        for _ in range(self.option("generations", 90)):
            if not population:
                return
            costs = yield population
            ranked = [p for _, p in sorted(zip(costs, population), key=lambda pc: pc[0])]
            children: list[Point] = []
            for _ in range(50 * size):  # tries: a population that has converged breeds few new children
                if len(children) >= size:
                    break
                first = self._rank(len(ranked))
                second = first
                while second == first and len(ranked) > 1:
                    second = self._rank(len(ranked))
                a, b = ranked[first], ranked[second]
                cut = int(self.rng.random() * dims)
                for x in (a[:cut] + b[cut:], b[:cut] + a[cut:]):
                    child = x if x in space.index else self._neighbour(x, adjacent=True) or x
                    if int(self.rng.random() * mutation) == 0:
                        child = self._neighbour(child, adjacent=False) or child
                    if child not in children and child in space.index:
                        children.append(child)
                    if len(children) >= size:
                        break
            population = children

    def _rank(self, count: int) -> int:
        return int(self.rng.betavariate(1, 2.5) * count)

    def _neighbour(self, x: Point, adjacent: bool) -> Point | None:
        """A random valid point differing from ``x`` in one parameter; with ``adjacent``, one
        value step from it in every parameter first, where there is one. None where there is
        none. The steps to every point are computed once for both."""
        steps = np.abs(self.space.array - np.asarray(x))
        if adjacent:
            rows = np.nonzero((steps <= 1).all(axis=1) & (steps.sum(axis=1) > 0))[0]
            if len(rows):
                return self.space.points[int(rows[self.rng.randrange(len(rows))])]
        rows = np.nonzero((steps > 0).sum(axis=1) == 1)[0]
        return self.space.points[int(rows[self.rng.randrange(len(rows))])] if len(rows) else None
