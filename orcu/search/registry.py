"""Every search strategy, by name: the one list that the spec's check, the command line's help
and the reference (docs/reference.md) are made from. A strategy's own class says its name, the
spellings Orio's specs use for it (``aliases``), and its options with their defaults
(``options_doc``); its docstring's first sentence describes it."""

from __future__ import annotations

from orcu.search.heuristics import Annealing, Generational, Genetic, Simplex
from orcu.search.mlsearch import Mlsearch
from orcu.search.phased import TSG
from orcu.search.strategies import Exhaustive, Multistart, Portfolio, Random, Randomlocal
from orcu.search.strategy import Strategy

STRATEGIES: dict[str, type[Strategy]] = {
    s.name: s
    for s in (
        Exhaustive,
        Random,
        Portfolio,
        Multistart,
        Randomlocal,
        Simplex,
        Annealing,
        Genetic,
        Generational,
        Mlsearch,
        TSG,
    )
}
# The strategy a tune uses when neither the spec nor --search names one and the budget does
# not cover the space: chosen by the replay figures of bench/bench_search.py (bench/README.md).
DEFAULT = "Portfolio"
SPELLINGS = {spelling: s.name for s in STRATEGIES.values() for spelling in (s.name.lower(), *s.aliases)}


def canonical(name: str) -> str | None:
    """The strategy a spelling names, in any case (``randomsearch`` -> ``Random``); None for none."""
    return SPELLINGS.get(name.lower())


def known() -> str:
    """The strategies' names in alphabetical order, for messages."""
    return ", ".join(sorted(STRATEGIES))


def summary(name: str) -> str:
    """The first sentence of a strategy's docstring."""
    doc = " ".join((STRATEGIES[name].__doc__ or "").split())
    return doc.split(". ")[0].rstrip(".") + "." if doc else ""
