"""`rounds.track` and `mean_rounds` (the fast forms: the renewal mean over q^K, the
within-k chances from half the convolutions) against the straightforward implementation they
replaced, kept here as the oracle: on many random per-round distributions, first rounds and
thresholds, the answers must be identical fractions."""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate
from operator import mul

from hypothesis import given, settings
from hypothesis import strategies as st

from calc.chains import rounds
from calc.chains.reached import ROUNDS, Reached
from calc.chains.track import Threshold, _mean_after, mean_rounds, track
from calc.numbers.dist import Dist


# --- the oracle: the previous implementation, word for word in its arithmetic ------------------------
def old_mean_rounds(per_round: Dist, needs: list[int]) -> list[Fraction | None]:
    """Renewal sum over one common denominator q^M (M the largest need): V_s = Σ_d w_d V_(s−d) / q."""
    top = max(needs)
    total = per_round.total
    q = total - dict(per_round.weights()).get(0, 0)
    if q == 0 or top <= 0:
        return [None if n > 0 else Fraction(0) for n in needs]
    dense = [0] * min(top - 1, per_round.max)
    for d, w in per_round.weights():
        if 0 < d <= len(dense):
            dense[d - 1] = w
    v = [total * q ** (top - 1)]
    for _ in range(1, top):
        v.append(sum(map(mul, dense, reversed(v))) // q)
    denominator = q**top
    prefix = list(accumulate(v))
    return [Fraction(prefix[n - 1], denominator) if n > 0 else Fraction(0) for n in needs]


def old_mean_after(first: Dist, step: Dist, need: int) -> Fraction | None:
    return _mean_after(first, step, need, mean=old_mean_rounds)


def old_track(
    per_round: Dist, thresholds: list[Threshold], rounds_: int = ROUNDS, first: Dist | None = None
) -> list[Reached]:
    """Round by round: the total so far capped at the largest threshold, plus one more round."""
    cap = max(t.damage for t in thresholds)

    def capped(d: Dist) -> Dist:
        return d.clamp_above(cap)

    step = capped(per_round)
    taken = Dist.constant(0)
    within: dict[str, list[Fraction]] = {t.label: [] for t in thresholds}
    for k in range(rounds_):
        taken = capped(taken + (capped(first) if k == 0 and first is not None else step))
        for t in thresholds:
            within[t.label].append(taken.p_ge(t.damage))
    needs = [t.damage for t in thresholds]
    if first is None:
        means = old_mean_rounds(step, needs)
    else:
        means = [old_mean_after(capped(first), step, need) for need in needs]
    return [Reached(t.label, tuple(within[t.label]), m) for t, m in zip(thresholds, means, strict=True)]


# --- random cases ------------------------------------------------------------------------------------------
weights = st.dictionaries(st.integers(0, 30), st.integers(1, 50), min_size=1, max_size=8)
# Some need ≥ 0: with every threshold below 0 the old form capped the total below 0 and lost it
# (P(within 2) = 0 after P(within 1) = 1); `test_thresholds_already_reached` covers that case.
needs = st.lists(st.integers(-3, 60), min_size=1, max_size=3).filter(lambda v: max(v) >= 0)


def as_thresholds(values: list[int]) -> list[Threshold]:
    return [Threshold(f"t{i}", v) for i, v in enumerate(values)]


@settings(max_examples=300, deadline=None)
@given(weights, needs, st.integers(1, 10))
def test_track_equals_old_implementation(w: dict[int, int], values: list[int], k: int) -> None:
    per_round = Dist.from_weights(w)
    thresholds = as_thresholds(values)
    assert track(per_round, thresholds, k) == old_track(per_round, thresholds, k)


@settings(max_examples=150, deadline=None)
@given(weights, weights, needs, st.integers(1, 10))
def test_track_with_a_first_round_equals_old_implementation(
    w: dict[int, int], f: dict[int, int], values: list[int], k: int
) -> None:
    per_round, first = Dist.from_weights(w), Dist.from_weights(f)
    thresholds = as_thresholds(values)
    assert track(per_round, thresholds, k, first) == old_track(per_round, thresholds, k, first)


@settings(max_examples=100, deadline=None)
@given(weights, st.integers(0, 40), needs, st.integers(1, 10))
def test_track_with_a_fixed_first_round_equals_old_implementation(
    w: dict[int, int], c: int, values: list[int], k: int
) -> None:
    """A first round with no attack (countup: move and draw) deals a constant 0: its own path."""
    per_round, first = Dist.from_weights(w), Dist.constant(c)
    thresholds = as_thresholds(values)
    assert track(per_round, thresholds, k, first) == old_track(per_round, thresholds, k, first)


@settings(max_examples=200, deadline=None)
@given(weights, st.lists(st.integers(-2, 120), min_size=1, max_size=4))
def test_mean_rounds_equals_old_implementation(w: dict[int, int], values: list[int]) -> None:
    per_round = Dist.from_weights(w)
    assert mean_rounds(per_round, values) == old_mean_rounds(per_round, values)


def test_limit_sized_round_equals_old_implementation() -> None:
    """The countup limit case's shape: four attacks of 0 or 3d10+10 (a gap below 13) to 200 and 210."""
    one = rounds.attack_damage(Fraction(19, 20), Dist.dice(3, 10) + 10)
    per_round = rounds.round_total([one] * 4)
    thresholds = as_thresholds([200, 210])
    assert track(per_round, thresholds) == old_track(per_round, thresholds)


@given(weights, st.lists(st.integers(-5, 0), min_size=1, max_size=3), st.integers(1, 10))
def test_thresholds_already_reached(w: dict[int, int], values: list[int], k: int) -> None:
    """A threshold at or below 0 damage is reached before any round: within k for every k, mean 0."""
    for reached in track(Dist.from_weights(w), as_thresholds(values), k):
        assert reached.within == (1,) * k
        assert reached.mean == 0
