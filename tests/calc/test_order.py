"""calc/turns/order.py against brute force: every roll of small dice enumerated, both count directions,
with and without a tie priority, alone or ties included, and re-rolled ties."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from calc.numbers.dist import Dist
from calc.turns import order

DICE = [Dist.die(4) + 1, Dist.die(3), Dist.die(6) - 2]


def _rolls(dists):
    for combo in itertools.product(*(list(d.items()) for d in dists)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        yield [v for v, _ in combo], p


def _before(a, b, pa, pb, high_first):
    if a != b:
        return (a > b) if high_first else (a < b)
    return pa < pb


@pytest.mark.parametrize("high_first", [True, False])
@pytest.mark.parametrize("priority", [None, [1, 0, 1]])
def test_pairs_and_first_chances_match_enumeration(high_first, priority):
    prio = priority or [0, 0, 0]
    for i, j in itertools.combinations(range(3), 2):
        want = [Fraction(0)] * 3
        for (a, b), p in _rolls([DICE[i], DICE[j]]):
            if _before(a, b, prio[i], prio[j], high_first):
                want[0] += p
            elif _before(b, a, prio[j], prio[i], high_first):
                want[2] += p
            else:
                want[1] += p
        pair = (prio[i], prio[j]) if priority else None
        assert order.acts_before(DICE[i], DICE[j], high_first=high_first, priority=pair) == tuple(want)
    for i in range(3):
        alone = tied_in = Fraction(0)
        for values, p in _rolls(DICE):
            others = [j for j in range(3) if j != i]
            if all(_before(values[i], values[j], prio[i], prio[j], high_first) for j in others):
                alone += p
            if not any(_before(values[j], values[i], prio[j], prio[i], high_first) for j in others):
                tied_in += p
        kw = {"high_first": high_first, "priority": priority}
        assert order.first_chance(i, DICE, alone=True, **kw) == alone
        assert order.first_chance(i, DICE, alone=False, **kw) == tied_in
        assert order.first_chances(DICE, alone=True, **kw)[i] == alone
        assert order.first_chances(DICE, alone=False, **kw)[i] == tied_in


def test_rerolled_ties_split_in_the_fresh_dice_odds():
    a, b = Dist.die(6) + 1, Dist.die(6)
    before, tied, after = order.compare(a, b, high_first=True)
    share = order.reroll_share(a, b)
    # rolling again until the tie breaks: P(a wins) = P(a > b) / (1 - P(a == b))
    assert share == before / (1 - tied)
    assert order.break_ties((before, tied, after), share) == (before + tied * share, 0, after + tied * (1 - share))
    assert sum(order.break_ties((before, tied, after), share)) == 1
