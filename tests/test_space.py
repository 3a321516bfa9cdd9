import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from orcu.frontend.source import SourceFile
from orcu.planning.space import Space
from orcu.spec.language import parse_perftuning


def space_of(body, env=None):
    text = "def performance_params {\n" + body + "\n}"
    spec = parse_perftuning(SourceFile("t.c", text), 0, len(text))
    return Space(spec.performance_params, spec.performance_constraints, {**spec.lets, **(env or {})})


def brute(space):
    out = []
    for combo in itertools.product(*(p.values for p in space.params)):
        env = dict(space.env, **dict(zip(space.names, combo)))
        if all(c.expr.evaluate(env) for c in space.constraints):
            out.append(combo)
    return out


def test_unconstrained_order_and_indices():
    s = space_of("param A[] = [1, 2]; param B[] = ['x', 'y', 'z'];")
    assert (s.raw_size, s.size) == (6, 6)
    assert list(s.points()) == list(itertools.product([1, 2], ["x", "y", "z"]))
    assert s.config(4) == {"A": 2, "B": "y"}
    assert [s.index(c) for c in s.configs()] == list(range(6))


def test_grouped_constraints_match_brute_force_in_lexicographic_order():
    s = space_of(
        "param A[] = range(20); param B[] = range(15); param C[] = [0, 1, 2]; param D[] = ['', '-O3'];"
        "constraint c1 = (A * B) % 3 == 0 and A >= B; constraint c2 = C != 1 or D == '-O3';"
    )
    expected = brute(s)
    assert s.raw_size == 20 * 15 * 3 * 2
    assert s.size == len(expected) == 550
    assert list(s.points()) == expected
    for i in (0, 1, 437, len(expected) - 1):
        assert s.point(i) == expected[i]
        assert s.index(s.config(i)) == i


def test_constraint_linking_distant_parameters_keeps_every_point():
    s = space_of("param A[] = range(4); param B[] = range(5); param C[] = range(6); constraint c = A + C == 5;")
    assert sorted(s.points()) == sorted(brute(s))
    assert [s.point(s.index(dict(zip(s.names, p)))) for p in s.points()] == list(s.points())


def test_constant_constraints_and_empty_spaces():
    assert space_of("let on = False; param A[] = [1]; constraint c = on;").size == 0
    assert space_of("param A[] = [1, 2]; constraint c = A > 5;").size == 0
    assert list(space_of("param A[] = [1]; constraint c = A > 5;").points()) == []
    assert space_of("let on = True; param A[] = [1, 2]; constraint c = on;").size == 2


def test_constraint_reading_an_outer_value():
    text = "def input_params { param n[] = [64]; }\ndef performance_params { param TC[] = [32, 64, 128]; constraint fits = TC <= n; }"
    spec = parse_perftuning(SourceFile("t.c", text), 0, len(text))
    s = Space(spec.performance_params, spec.performance_constraints, {"n": 64})
    assert list(s.points()) == [(32,), (64,)]


def test_scalar_fallback_for_non_vectorisable_constraints():
    s = space_of("param L[] = [[1, 2], [3]]; param K[] = [0, 1, 5]; constraint c = K < len(L) and L[K] != 3;")
    assert list(s.points()) == brute(s) == [([1, 2], 0), ([1, 2], 1)]


def test_sampling_is_distinct_and_reproducible():
    s = space_of("param A[] = range(1000); param B[] = range(1000); constraint c = A % 2 == B % 2;")
    assert s.size == 500_000
    a = s.sample(100, random.Random(7))
    assert a == s.sample(100, random.Random(7))
    assert len(set(a)) == 100
    assert all(s.config(i)["A"] % 2 == s.config(i)["B"] % 2 for i in a)
    everything = s.sample(10**9, random.Random(1))  # more than there are: each point once
    assert len(everything) == 500_000 and sorted(everything) == list(range(500_000))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
    st.integers(0, 6),
    st.sampled_from(["<=", "!=", ">", "=="]),
)
def test_size_and_order_agree_with_brute_force(sizes, k, op):
    names = [f"P{i}" for i in range(len(sizes))]
    body = " ".join(f"param {n}[] = range({s});" for n, s in zip(names, sizes))
    body += f" constraint c = {names[0]} + {names[-1]} {op} {k};"
    s = space_of(body)
    expected = brute(s)
    assert s.size == len(expected)
    assert sorted(s.points()) == sorted(expected)
    for i, p in enumerate(s.points()):
        assert s.point(i) == p and s.index(dict(zip(names, p))) == i


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=5),
    st.integers(0, 5),
    st.sets(st.integers(0, 4), max_size=3),
)
def test_distinct_settings_are_the_first_configurations_that_have_them(sizes, k, chosen):
    """Space.distinct(names) without going through the groups that hold none of the names: the
    configurations a walk of the whole space keeps, first of each setting, in its order."""
    names = [f"P{i}" for i in range(len(sizes))]
    body = " ".join(f"param {n}[] = [{', '.join(str(v % 3) for v in range(s))}];" for n, s in zip(names, sizes))
    body += f" constraint c = {names[0]} + {names[1]} != {k};"  # one group of two, the others alone
    s = space_of(body)
    wanted = [names[i] for i in sorted(chosen) if i < len(names)]
    expected, seen = [], set()
    for config in s.configs():
        key = tuple(repr(config[n]) for n in wanted)
        if key not in seen:
            seen.add(key)
            expected.append(config)
    assert s.distinct(wanted) == expected
