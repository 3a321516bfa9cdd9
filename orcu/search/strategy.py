"""Search strategies behind one ask/tell interface.

A strategy's ``search()`` is a generator: it yields a batch of points to evaluate and is
sent back their costs (milliseconds; ``math.inf`` for a variant that failed, so failures
are penalties, never errors). The driver answers points it knows without spending budget,
so strategies may revisit. Every strategy draws from its own seeded ``random.Random`` and
knows its budget (points to evaluate; None: unbounded) from the start, to plan for it.
While a batch is evaluated, ``ahead()`` names the batches the strategy expects to ask for
next, so that they can be built meanwhile.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Generator, Mapping
from typing import Any

from orcu.search.space import Point, SearchSpace

Search = Generator[list[Point], list[float], None]


class Strategy(ABC):
    name = ""  # as specs and --search write it (any case)
    aliases: tuple[str, ...] = ()  # other spellings, lower case: those of Orio's specs
    options_doc: dict[str, str] = {}  # option -> its default and what it does (spec: search.NAME_OPTION)

    def __init__(
        self, space: SearchSpace, seed: int = 0, options: Mapping[str, Any] | None = None, budget: int | None = None
    ):
        self.space = space
        self.rng = random.Random(seed)
        self.options = dict(options or {})
        self.budget = budget
        self.costs: dict[Point, float] = {}  # every evaluated point, kept by the driver

    def option(self, name: str, default):
        value = self.options.get(name, default)
        return type(default)(value) if not isinstance(default, bool) else bool(value)

    @abstractmethod
    def search(self) -> Search:
        """Yield batches of points; each yield returns the batch's costs."""

    def ahead(self) -> list[list[Point]]:
        """The batches likely to follow the one being evaluated, whatever its costs turn out
        to be (a guess: building one that is never asked for wastes only build time)."""
        return []

    def random_unseen(self, count: int) -> list[Point]:
        """Up to ``count`` distinct valid points not evaluated yet."""
        pool = [p for p in self.space.points if p not in self.costs]
        return self.rng.sample(pool, min(count, len(pool)))
