"""Initiative rolled once for the whole fight: the order is fixed from the first round to the last,
so the fight is a mixture over its possible orders, followed exactly.

`orders` gives every order the rolls can set, with its exact chance (ties settled by the system's
rule: rolled again, or acting together); `calc.forecast.fixed_fight.FixedFight` is one fight under
one order, with what `calc.forecast.chain.forecast` reads of a fight (start, state bound, one round's
integer weights, who has won); `forecast` bounds the whole work, then follows every order with its chance as one
chain (`calc.forecast.fixed_mixture`: orders alike once fighters are out merged, orders that make
the same chain folded). Each fighter's turn is a list of blows (different attacks in
one turn, each at its side's current target as the fight stands then), a target's round state
(the blocks and dodges it still holds this round) and an end-of-round step (a dying check).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from typing import Any, cast

from calc.errors import InputError
from calc.forecast import chain, fixed_fight, fixed_mixture
from calc.forecast.around import Around
from calc.forecast.fixed_fight import REDUCE, FixedFight, Group, Healths, Order, Rules
from calc.forecast.order import fubini
from calc.numbers.dist import Dist

MAX_WORK = 2_000_000
"""The most (orders × states each order's chain may have), checked before anything is computed:
the bound of one order's states counts every dying fighter's hit points at once (Action Points 2
against 2: 48,357 an order, 22,249 followed over all 24 orders), so past it a fight is refused at
once, within it the early estimate (`_refuse_early`) and the counts decide."""

MAX_FIGHTERS = 7
"""The most fighters whose orders are listed (7! = 5,040 orders at most)."""


# --- the orders ------------------------------------------------------------------------------
def ordered_groups(totals: Sequence[Dist], members: Group, high_first: bool) -> dict[Order, Fraction]:
    """Every way the totals of `members` fall into groups of equal totals, earliest group first,
    with its exact chance: a sum over the points of the count, never an enumeration of rolls."""
    points = sorted({x for i in members for x in totals[i].outcomes()}, reverse=high_first)
    at = {x: n for n, x in enumerate(points)}
    rows = {}
    for i in members:
        row = [0] * len(points)
        for x, w in totals[i].weights():
            row[at[x]] += w
        rows[i] = row
    whole = math.prod(totals[i].total for i in members)
    out: dict[Order, Fraction] = {}

    def grow(prefix: Order, left: Group, ways: list[int] | None) -> None:
        if not left:
            out[prefix] = Fraction(sum(ways or [1]), whole)
            return
        before = [1] * len(points) if ways is None else [0, *_running(ways)][:-1]
        for k in range(1, len(left) + 1):
            for group in combinations(left, k):
                nxt = before
                for i in group:
                    nxt = [a * b for a, b in zip(nxt, rows[i], strict=True)]
                if any(nxt):
                    grow((*prefix, group), tuple(i for i in left if i not in group), nxt)

    grow((), members, None)
    return out


def _running(xs: list[int]) -> list[int]:
    out, s = [], 0
    for x in xs:
        s += x
        out.append(s)
    return out


Split = Callable[[Group], dict[Order, Fraction]]
"""How a tied group is settled: its orders (of smaller groups, or of single fighters) with chances."""


def together(group: Group) -> dict[Order, Fraction]:
    """Tied fighters act together."""
    return {(group,): Fraction(1)}


def evenly(group: Group) -> dict[Order, Fraction]:
    """A bare roll-off: every order of the tied fighters equally likely."""
    every = list(permutations(group))
    return {tuple((i,) for i in p): Fraction(1, len(every)) for p in every}


def rerolled(fresh: Sequence[Dist], high_first: bool) -> Split:
    """The tied fighters roll `fresh[i]` again, as often as needed: a new tie among some of them
    is rolled again among those only; all of them tied again is no result."""

    @cache
    def split(group: Group) -> dict[Order, Fraction]:
        rolls = ordered_groups(fresh, group, high_first)
        again = rolls.pop((group,), Fraction(0))
        out: dict[Order, Fraction] = {}
        for order, p in rolls.items():
            for settled, q in settle(order, split).items():
                out[settled] = out.get(settled, 0) + p * q / (1 - again)
        return out

    return split


def by_key(key: Sequence[int], then: Split) -> Split:
    """Tied fighters act by `key` (smaller first); equal keys are settled by `then`."""

    def split(group: Group) -> dict[Order, Fraction]:
        ranks = sorted({key[i] for i in group})
        order = tuple(tuple(i for i in group if key[i] == r) for r in ranks)
        return settle(order, then) if len(order) > 1 else then(group)

    return split


def settle(order: Order, split: Split) -> dict[Order, Fraction]:
    """Every group of more than one fighter settled by `split`, with the chances multiplied."""
    out: dict[Order, Fraction] = {(): Fraction(1)}
    for group in order:
        parts = split(group) if len(group) > 1 else {(group,): Fraction(1)}
        out = {(*a, *b): p * q for a, p in out.items() for b, q in parts.items()}
    return out


def orders(totals: Sequence[Dist], high_first: bool, split: Split) -> dict[Order, Fraction]:
    """Every order the initiative rolls can set for the whole fight, with its exact chance."""
    out: dict[Order, Fraction] = {}
    for order, p in ordered_groups(totals, tuple(range(len(totals))), high_first).items():
        for settled, q in settle(order, split).items():
            out[settled] = out.get(settled, 0) + p * q
    return out


def most_orders(n: int, strict: bool) -> int:
    """The most orders n fighters can take: n! when ties are broken, else the ordered partitions."""
    return math.factorial(n) if strict else fubini(n)


# --- the mixture -----------------------------------------------------------------------------
def forecast(
    rules: Rules, totals: Sequence[Dist], split: Split, strict: bool, rounds: int, folded: bool = True
) -> tuple[chain.Forecast, int]:
    """The exact forecast (and the number of orders): the work bounded before the orders are even
    listed, then every order followed as one chain (`fixed_mixture`: orders the same once some
    fighters are out followed once), orders that make the same chain (`fixed_mixture.fold`) merged from the
    start. Not `folded`: each order's own chain, mixed by the orders' chances (what the tests
    compare the chain with)."""
    n = len(rules.fighters)
    most = most_orders(n, strict)
    if n > MAX_FIGHTERS:
        raise InputError("foes", f"{n} fighters can act in up to {most:,} orders: try {REDUCE}")
    states = rules.state_bound()
    check_work(most, states)
    chances = orders(totals, True, split)
    if not folded:
        parts = [
            (p, chain.forecast(cast(Any, FixedFight(rules, order)), rounds, bound=max(states, chain.MAX_STATES)))
            for order, p in chances.items()
        ]
        return fixed_mixture.mix(parts, rounds), len(chances)
    chains = fixed_mixture.fold(chances, rules.fighters)
    fight = fixed_mixture.MixedFight(rules, chains)
    if len(chains) > 1 and len(chains) * states > fixed_fight.MAX_FOLLOWED:
        _refuse_early(rules, next(iter(chains)), list(chains), len(chances), chain.moves_bound(fight))
    return chain.forecast(cast(Any, fight), rounds, bound=max(fight.state_bound(), chain.MAX_STATES)), len(chances)


def check_work(orders: int, states: int) -> None:
    """`MAX_WORK` checked before any work: `orders` (up to) each with up to `states` states."""
    if orders * states > MAX_WORK:
        many = (
            f"has up to {orders:,} orders of who acts when, each with up to {states:,} states: "
            f"{orders * states:,} in all"
            if orders > 1
            else f"has up to {states:,} states under its order of who acts when"
        )
        raise InputError("foes", f"this fight {many}, more than the {MAX_WORK:,} followed exactly: try {REDUCE}")


def _refuse_early(rules: Rules, first: Order, chains: list[Order], orders: int, moves: int) -> None:
    """Before the chain: one order's chain, each state it finds counted for the mixture
    (`fixed_mixture.Estimate`); as soon as the count passes what the mixture may follow
    (`fixed_fight.MAX_FOLLOWED` states, `moves`: the moves the mixture's chain may keep) by more than the
    estimate's error (`SLACK`), refused: after some hundreds or thousands of that order's states
    rather than after the mixture's ten thousand (0.05 to 0.8 s in CPython, where following the
    mixture to its bound takes 2 to 3 s). Only a refusal comes of this guess, never an answer; a
    fight within it is followed until the counts say (from 0 again)."""
    about = fixed_mixture.Estimate(chains, rules.fighters)
    fight = _Estimating(FixedFight(rules, first), about, fixed_fight.MAX_FOLLOWED * SLACK, moves * SLACK)
    try:
        chain.explore_numbered(cast(Any, fight), max(rules.state_bound(), chain.MAX_STATES))
    except _PastEstimate as past:
        fights = f" ({len(chains):,} different fights)" if len(chains) != orders else ""
        what = (
            f"about {about.states:,} states or more, more than the {fixed_fight.MAX_FOLLOWED:,} followed exactly"
            if past.states
            else f"about {about.moves:,} moves between states or more, more than the {moves:,} kept"
        )
        raise InputError(
            "foes",
            f"this fight's first order of who acts when alone reaches {len(fight.found):,} states so far, and it has "
            f"{orders:,} orders{fights}: {what}: try {REDUCE}",
        ) from None
    rules.followed = 0


SLACK = 1.1
"""How far past its bounds the early estimate must go before it refuses: above the estimate's
error (0 to 6 % above the states followed in the benchmark's random fights), so a fight within
the bounds is followed, not refused on a guess."""


class _PastEstimate(Exception):
    def __init__(self, states: bool) -> None:
        super().__init__()
        self.states = states


class _Estimating(Around):
    """One order's fight, stepped only to count the mixture's states and moves (`about`), each
    state counted as it is found (all of a round's outcomes at once, the fights with every fighter
    up, the most orders kept, early): past `states` or `moves`, `_PastEstimate`."""

    def __init__(self, fight: FixedFight, about: fixed_mixture.Estimate, states: float, moves: float) -> None:
        super().__init__(fight)
        self.start = fight.start
        self.total = fight.total
        self.about = about
        self.most = (states, moves)
        self.found: set[Any] = {fight.start}
        about.add(fight.start[1])

    def step(self, state: tuple[bool, Healths]) -> list[tuple[int, Any]]:
        out = self.inner.step(state)
        about = self.about
        about.step(state[1], len(out))
        for _, after in out:
            if after not in self.found:
                self.found.add(after)
                about.add(after[1])
        if about.states > self.most[0] or about.moves > self.most[1]:
            raise _PastEstimate(about.states > self.most[0])
        return out  # type: ignore[no-any-return]
