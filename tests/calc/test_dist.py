"""Exact distributions: checked against brute-force enumeration of every roll."""

import json
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calc.numbers.dist import Dist


def brute(sides: list[int], modifier: int = 0) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for faces in product(*(range(1, s + 1) for s in sides)):
        total = sum(faces) + modifier
        counts[total] = counts.get(total, 0) + 1
    n = sum(counts.values())
    return {k: Fraction(v, n) for k, v in sorted(counts.items())}


@given(st.lists(st.integers(1, 8), min_size=1, max_size=4), st.integers(-5, 5))
def test_sum_of_dice_equals_enumeration(sides, modifier):
    dist = Dist.constant(modifier)
    for s in sides:
        dist = dist + Dist.die(s)
    assert dict(dist.items()) == brute(sides, modifier)


@given(st.integers(1, 12), st.integers(0, 6))
def test_times_equals_repeated_addition(sides, n):
    repeated = Dist.constant(0)
    for _ in range(n):
        repeated = repeated + Dist.die(sides)
    assert Dist.die(sides).times(n) == repeated


@given(st.lists(st.integers(1, 10), min_size=1, max_size=3))
def test_probabilities_sum_to_exactly_one(sides):
    dist = Dist.constant(0)
    for s in sides:
        dist = dist - Dist.die(s)
    assert sum(p for _, p in dist.items()) == 1


def test_tail_probabilities_and_mean():
    d20 = Dist.die(20)
    assert d20.p_ge(6) == Fraction(15, 20)
    assert d20.p_ge(21) == 0
    assert d20.p_ge(-3) == 1
    assert d20.p_lt(6) == Fraction(1, 4)
    assert d20.mean == Fraction(21, 2)
    assert (Dist.die(6) + Dist.die(6)).p(7) == Fraction(1, 6)


def test_mixture_and_map():
    hit = Fraction(3, 4)
    dmg = Dist.mixture([(1 - hit, Dist.constant(0)), (hit, Dist.die(8) + 3)])
    assert dmg.p(0) == Fraction(1, 4)
    assert dmg.p(4) == Fraction(3, 32)
    assert sum(p for _, p in dmg.items()) == 1
    floored = (Dist.die(4) - 10).map(lambda x: max(0, x))
    assert dict(floored.items()) == {0: 1}


def test_compare_counts_ties():
    before, tied, after = Dist.die(10).compare(Dist.die(10))
    assert tied == Fraction(1, 10)
    assert before == after == Fraction(9, 20)


def test_binary_and_condition():
    best = Dist.die(4).binary(Dist.die(6), max)
    assert best.p(1) == Fraction(1, 24)
    assert Dist.die(6).condition(lambda x: x > 4).p(5) == Fraction(1, 2)
    with pytest.raises(ValueError):
        Dist.die(6).condition(lambda x: x > 6)


def test_invalid_construction():
    with pytest.raises(ValueError):
        Dist.die(0)
    with pytest.raises(ValueError):
        Dist.mixture([(Fraction(1, 2), Dist.die(6))])


@given(st.integers(0, 5), st.integers(1, 7))
def test_dice_pool_equals_enumeration(count, sides):
    assert dict(Dist.dice(count, sides).items()) == brute([sides] * count) if count else {0: 1}
    assert Dist.dice(count, sides) == Dist.die(sides).times(count)


# --- the fast paths limit-sized inputs take: each against the plain definition ------------------
def test_large_dice_pool_equals_repeated_addition():
    """Dist.dice (prefix sums of (1 - x^s)^n) against adding one die at a time."""
    for count, sides in [(60, 10), (37, 20), (25, 3), (12, 1), (1, 100)]:
        slow = Dist.constant(0)
        for _ in range(count):
            slow = slow + Dist.die(sides)
        assert Dist.dice(count, sides) == slow


@given(st.integers(1, 40), st.integers(2, 30), st.booleans())
def test_dice_recurrence_equals_prefix_sums(count, sides, whole):
    """The power recurrence Dist.dice takes for many dice against the prefix sums of (1 - x^s)^n,
    over the first half (what Dist.dice asks) or the whole range, and against adding dice."""
    from calc.numbers.dist import _dice_prefix_sums, _dice_recurrence

    size = (sides - 1) * count + 1
    length = size if whole else (size + 1) // 2
    assert _dice_recurrence(count, sides, length) == _dice_prefix_sums(count, sides, length)
    if count <= 12:
        assert Dist(count, _dice_recurrence(count, sides, size)) == Dist.die(sides).times(count)


@given(
    st.lists(st.integers(1, 8), min_size=1, max_size=3),
    st.lists(st.integers(1, 8), min_size=1, max_size=3),
    st.integers(-12, 12),
    st.integers(1, 3),
)
def test_compare_equals_the_difference(sides_a, sides_b, shift, factor):
    """compare (dot products over one range) against the distribution of the difference."""
    a = sum((Dist.die(s) for s in sides_a), Dist.constant(shift)).scale(factor)
    b = sum((Dist.die(s) for s in sides_b), Dist.constant(0))
    diff = a - b
    assert a.compare(b) == (diff.p_lt(0), diff.p(0), diff.p_gt(0))
    assert b.compare(a) == (diff.p_gt(0), diff.p(0), diff.p_lt(0))


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(-4, 4), st.integers(-3, 12))
def test_scale_equals_map(sides, modifier, factor):
    dist = Dist.constant(modifier)
    for s in sides:
        dist = dist + Dist.die(s)
    assert dist.scale(factor) == dist.map(lambda x: x * factor)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(-4, 4), st.integers(-10, 25))
def test_clamps_equal_map(sides, modifier, bound):
    """clamp_below and clamp_above against the plain map of max/min."""
    dist = Dist.constant(modifier)
    for s in sides:
        dist = dist + Dist.die(s)
    assert dist.clamp_below(bound) == dist.map(lambda x: max(bound, x))
    assert dist.clamp_above(bound) == dist.map(lambda x: min(bound, x))


@given(
    st.lists(st.integers(0, 2**70), min_size=1, max_size=12), st.lists(st.integers(0, 2**70), min_size=1, max_size=12)
)
def test_kronecker_product_equals_schoolbook(a, b):
    """The packed big-integer product against the plain double loop, big weights included."""
    from calc.numbers.dist import _convolve

    plain = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            plain[i + j] += x * y
    assert _convolve(tuple(a), tuple(b)) == plain


@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 8), st.integers(-6, 6)), min_size=1, max_size=4))
def test_mixture_equals_weighted_sum_of_probabilities(parts):
    weight_total = sum(w for w, _, _ in parts)
    mixed = Dist.mixture([(Fraction(w, weight_total), Dist.die(s) + k) for w, s, k in parts])
    expected: dict[int, Fraction] = {}
    for w, s, k in parts:
        for face in range(1, s + 1):
            expected[face + k] = expected.get(face + k, 0) + Fraction(w, weight_total) / s
    assert dict(mixed.items()) == {x: p for x, p in sorted(expected.items()) if p}


@pytest.mark.parametrize(
    "dist",
    [
        Dist.constant(7),
        Dist.die(6),
        Dist.dice(2, 6) - 8,
        Dist.mixture([(Fraction(1, 3), Dist.constant(0)), (Fraction(2, 3), Dist.dice(30, 10).scale(3) + 4)]),
        Dist.mixture([(Fraction(1, 2), Dist.constant(0)), (Fraction(1, 2), Dist.dice(200, 10).scale(10))]),
    ],
    ids=["constant", "d6", "2d6-8", "mixture-30d10", "mixture-200d10"],
)
def test_dist_json_weights_over_one_denominator_reproduce_the_fractions(dist):
    """The exact chances are the weights over the common denominator; floats are for display."""
    from calc.answers.result import dist_json, dist_probs

    shown = json.loads(json.dumps(dist_json(dist)))  # what crosses to the page: JSON text
    assert int(shown["denominator"]) == dist.total
    assert [row["x"] for row in shown["pmf"]] == [row["x"] for row in shown["at_least"]] == dist.outcomes()
    assert all(row["weight"].isdigit() for row in shown["pmf"] + shown["at_least"])
    assert dist_probs(shown) == dict(dist.items())
    assert dist_probs(shown, "at_least") == {x: dist.p_ge(x) for x in dist.outcomes()}
    for row in shown["pmf"]:
        assert row["float"] == float(dist.p(row["x"]))
    for row in shown["at_least"]:
        assert row["float"] == float(dist.p_ge(row["x"]))
    assert shown["at_least"][0]["weight"] == shown["denominator"]
    assert Fraction(shown["mean"]["fraction"]) == dist.mean
