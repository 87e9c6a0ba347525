"""Who acts first: the exact chance that one combatant acts before another, and that one acts
first of all, for every system's initiative. A system says which way its count runs
(`high_first`), how it breaks equal totals before anyone rolls again (`priority`: a smaller
value acts first, e.g. players before NPCs, or the higher Dexterity), and whether remaining ties
stand (acting at once, or the players choose) or are rolled again until they break
(`break_ties` with a `reroll_share`)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from itertools import accumulate
from math import prod

from calc.numbers.dist import Dist

ORDER_ONLY: ContextVar[bool] = ContextVar("order_only", default=False)
"""Set within `order_only()`: the caller reads an initiative calculator's order, never its
chances, so the chances of every pair (`calc.answers.result.pairwise`) and of acting first of all
(`first_chances`) are not worked out."""


@contextmanager
def order_only() -> Iterator[None]:
    """The encounter tracker orders concrete rolls: with 40 combatants the chance tables cost
    more than the order itself (780 pairs, 40 products of 39 factors) and are never read there."""
    token = ORDER_ONLY.set(True)
    try:
        yield
    finally:
        ORDER_ONLY.reset(token)


Chances = tuple[Fraction, Fraction, Fraction]
"""(P(a acts before b), P(tied), P(b acts before a))."""


def compare(a: Dist, b: Dist, *, high_first: bool) -> Chances:
    """Before / tied / after of two totals, on a count that runs down (high first) or up."""
    lower, equal, higher = a.compare(b)
    return (higher, equal, lower) if high_first else (lower, equal, higher)


def acts_before(a: Dist, b: Dist, *, high_first: bool, priority: tuple[int, int] | None = None) -> Chances:
    """Before / tied / after; equal totals go to the smaller `priority` (a's, b's) when they differ."""
    before, tied, after = compare(a, b, high_first=high_first)
    if priority is None or priority[0] == priority[1]:
        return before, tied, after
    if priority[0] < priority[1]:
        return before + tied, Fraction(0), after
    return before, Fraction(0), after + tied


def reroll_share(fresh_a: Dist, fresh_b: Dist, *, high_first: bool = True) -> Fraction:
    """P(a wins a tie rolled again with fresh dice until it breaks)."""
    wins, _, loses = compare(fresh_a, fresh_b, high_first=high_first)
    return wins / (wins + loses)


def break_ties(chances: Chances, share: Fraction) -> Chances:
    """Split the tied chance: a wins it with probability `share` (see `reroll_share`)."""
    before, tied, after = chances
    return before + tied * share, Fraction(0), after + tied * (1 - share)


def first_chance(
    i: int,
    totals: Sequence[Dist],
    *,
    high_first: bool,
    priority: Sequence[int] | None = None,
    alone: bool,
) -> Fraction:
    """P(combatant i acts first): with `alone`, before every other one; otherwise nobody acts
    strictly before i (acting first in a tied group counts). Totals are independent."""
    return _first_chance(i, totals, [_tallies(d) for d in totals], high_first, priority, alone)


def first_chances(
    totals: Sequence[Dist], *, high_first: bool, priority: Sequence[int] | None = None, alone: bool
) -> list[Fraction]:
    """`first_chance` of every combatant, each total's tallies worked out once for all (zeros
    within `order_only()`, where nobody reads them)."""
    if ORDER_ONLY.get():
        return [Fraction(0)] * len(totals)
    tallies = [_tallies(d) for d in totals]
    return [_first_chance(i, totals, tallies, high_first, priority, alone) for i in range(len(totals))]


_Tally = tuple[Sequence[int], list[int], int]


def _tallies(dist: Dist) -> _Tally:
    """(outcomes, weight of the outcomes before each position, total weight): any count of
    outcomes below, at or above a value by two bisections, in integers."""
    xs, ws = dist.support()
    return xs, [0, *accumulate(ws)], dist.total


def _first_chance(
    i: int,
    totals: Sequence[Dist],
    tallies: Sequence[_Tally],
    high_first: bool,
    priority: Sequence[int] | None,
    alone: bool,
) -> Fraction:
    """Σ over i's values v of P(v) × Π over the others of P(that one does not beat v), in integer
    weights over the product of the totals (one exact division at the end, no Fraction per
    term)."""
    others = []
    for j, tally in enumerate(tallies):
        if j != i:
            wins_tie = priority is not None and priority[i] < priority[j]
            loses_tie = priority is not None and priority[j] < priority[i]
            others.append((tally, wins_tie, loses_tie))
    chance = 0
    for value, weight in zip(*totals[i].support(), strict=True):
        for (xs, before, total), wins_tie, loses_tie in others:
            at, past = bisect_left(xs, value), bisect_right(xs, value)
            lower, equal = before[at], before[past] - before[at]
            better, worse = (total - before[past], lower) if high_first else (lower, total - before[past])
            if alone:
                weight *= worse + (equal if wins_tie else 0)
            else:
                weight *= total - better - (equal if loses_tie else 0)
            if not weight:
                break
        chance += weight
    return Fraction(chance, prod(t for _, _, t in tallies))
