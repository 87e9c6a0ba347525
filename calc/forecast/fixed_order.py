"""Initiative rolled once for the whole fight: the order is fixed from the first round to the last,
so the fight is a mixture over its possible orders, followed exactly.

`orders` gives every order the rolls can set, with its exact chance (ties settled by the system's
rule: rolled again, or acting together); `FixedFight` is one fight under one order, with what
`calc.forecast.chain.forecast` reads of a fight (start, state bound, one round's integer weights,
who has won); `forecast` bounds the whole work, then follows every order with its chance as one
chain (`calc.forecast.fixed_mixture`: orders alike once fighters are out merged, orders that make
the same chain folded). Each fighter's turn is a list of blows (different attacks in
one turn, each at its side's current target as the fight stands then), a target's round state
(the blocks and dodges it still holds this round) and an end-of-round step (a dying check).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from typing import Any, cast

from calc.errors import InputError
from calc.forecast import chain, fixed_mixture
from calc.forecast.around import Around
from calc.forecast.fighters import Health, Sides, focus_bound
from calc.forecast.numbered import Numbered
from calc.forecast.order import fubini
from calc.numbers.dist import Dist

Group = tuple[int, ...]
Order = tuple[Group, ...]
Healths = tuple[Health, ...]

MAX_WORK = 2_000_000
"""The most (orders × states each order's chain may have), checked before anything is computed:
the bound of one order's states counts every dying fighter's hit points at once (Action Points 2
against 2: 48,357 an order, 22,249 followed over all 24 orders), so past it a fight is refused at
once, within it the early estimate (`_refuse_early`) and the counts decide."""

MAX_FOLLOWED = 10_000
"""The most states followed by the orders' one chain (`fixed_mixture`), counted as they are found;
past it (with `SLACK`), estimated from one order's chain, a fight is refused before the mixture is
followed (`_refuse_early`). The time is bounded by the steps below and by the moves the chain's solve
reads (`chain.MAX_MOVE_BITS`): Active Defense 2 against 2, 8,682 states, 1.3 million steps and 0.73
million moves, answers in about 2 s (`python -m calc.forecast.bench`). The bound above counts
every dying fighter's hit points, rarely all reached."""

MAX_STEPS = 1_500_000
"""The most healths met while walking the rounds of every order's chain (`FixedFight.steps`,
`MixedFight.steps`: about 0.75 µs each in CPython, about 1.1 s at most, the solve bounded apart),
checked as the states are found; the rolled rounds' walk counts in its own unit (`chain.MAX_STEPS`)."""

MAX_FIGHTERS = 7
"""The most fighters whose orders are listed (7! = 5,040 orders at most)."""

REDUCE = "fewer fighters (every order of who acts when is its own fight) or fewer hit points"


@dataclass(frozen=True)
class Blow:
    """One attack of a fighter's turn: `hit(own, target, target_health, target_round)` gives the
    target's next (health, round state) with integer weights over `scale` (a miss leaves both)."""

    scale: int
    hit: Callable[[Health, Any, Health, Any], Sequence[tuple[int, Health, Any]]]


@dataclass(frozen=True, eq=False)
class Actor:
    """A fighter of a fight whose order is rolled once. `states`: its health states while in the
    fight; `out_states`: while out of it (dying hit points, dead); `blows`: its turn; `fresh(h)`:
    its round state as a round begins; `end`: (faces, step) of what it rolls at each round's end
    while the fight is on (a dying check), or None."""

    name: str
    side: str
    start: Health
    hp: int
    initiative: Dist
    danger: Fraction
    states: int
    out_states: int
    blows: tuple[Blow, ...]
    out: Callable[[Health], bool]
    marks: tuple[tuple[str, Callable[[Health], bool]], ...] = ()
    defense: Any = None
    fresh: Callable[[Health], Any] = field(default=lambda h: None)
    end: tuple[int, Callable[[Health], Sequence[tuple[int, Health]]]] | None = None
    final: Callable[[Health], Health] | None = None
    """Its health as kept once the fight is over (a dying fighter's hit points no longer matter)."""
    alike: Hashable | None = None
    """Equal (not None) for two actors of one side whose turns are the same blows whatever their own
    health: orders that differ only by swapping such actors acting one after the other are one
    chain (`fixed_mixture.fold`). None when its blows read its own health, or nothing says so."""

    @property
    def turn(self) -> int:
        """The weight of its whole turn, whatever happens (and of a turn not taken)."""
        return math.prod(b.scale for b in self.blows)


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


# --- one fight under one order ---------------------------------------------------------------
class Rules(Sides):
    """What every order of one fight shares: the actors, whom each side attacks, the caches."""

    def __init__(self, actors: Sequence[Actor], policies: dict[str, str]) -> None:
        super().__init__(actors, policies)
        self.total = 1
        for a in actors:
            self.total *= a.turn * (a.end[0] if a.end else 1)
        self._points = Numbered()  # a round's states (healths, round states): each group's turns cached by them
        self._healths = Numbered()  # the healths a round ends in
        self._moves: defaultdict[Group, dict[int, list[tuple[int, int]]]] = defaultdict(dict)  # point → its turns
        self._closes: dict[int, list[tuple[int, int]]] = {}  # point → its end-of-round rolls (numbered)
        self._lasts: defaultdict[Group, dict[int, tuple[list[tuple[int, int]], tuple[int, ...]]]] = defaultdict(dict)
        self._blows: dict[tuple[int, int, Health, int, Health, Any], Sequence[tuple[int, Health, Any]]] = {}
        self.followed = 0  # states stepped over every order's chain: refused past MAX_FOLLOWED
        self._ends: dict[Healths, list[tuple[int, Healths]]] = {}

    def count(self) -> None:
        """One more state followed; past MAX_FOLLOWED an error that says what to reduce."""
        self.followed += 1
        if self.followed > MAX_FOLLOWED:
            raise InputError(
                "foes",
                f"this fight reaches more than {MAX_FOLLOWED:,} states over its orders of who acts when: try {REDUCE}",
            )

    def state_bound(self) -> int:
        """Each side is attacked down its list, one target at a time: the ones before it out (each
        in one of its out states), the current one in any state, the ones after it untouched."""
        return focus_bound(self.targets, [f.states for f in self.fighters], [f.out_states for f in self.fighters])

    def healths_of(self, k: int) -> Healths:
        """The healths numbered `k` by `round_numbered`."""
        return cast(Healths, self._healths.values[k])

    def _turns(self, n: int, group: Group) -> list[tuple[int, int]]:
        """The group's turns from point `n`, as integer weights over the product of its members'
        turns, to the points they reach (`_act`)."""
        number = self._points.number
        return [(q, number(after)) for q, after in self._act(self._points.values[n], group)]

    def _last(self, n: int, group: Group) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        """The group's turns from point `n` as a round's last group: straight on through the
        end-of-round rolls to the numbered healths (weights merged), with the points its turns reach
        (counted in the round's steps)."""
        turns = self._turns(n, group)
        out: dict[int, int] = {}
        for q, m in turns:
            for r, k in self._close(m):
                out[k] = out.get(k, 0) + q * r
        return [(w, k) for k, w in out.items()], tuple(m for _, m in turns)

    def _close(self, n: int) -> list[tuple[int, int]]:
        """The end-of-round rolls from point `n` (`end` of its healths), to numbered healths (cached)."""
        got = self._closes.get(n)
        if got is None:
            got = self._closes[n] = [(q, self._healths.number(hs)) for q, hs in self.end(self._points.values[n][0])]
        return got

    def _act(self, state: Any, group: Group) -> list[tuple[int, Any]]:
        """The group's turns from `state` (each member up when the group begins makes its blows,
        each at its side's current target): the states they reach, integer weights over the
        product of the members' turns (a member out counts its turn as not taken)."""
        healths0 = state[0]
        dist: dict[Any, int] = {state: 1}
        pad = 1
        fighters = self.fighters
        blows = self._blows
        for i in group:
            me = fighters[i]
            own = healths0[i]
            if me.out(own):
                pad *= me.turn
                continue
            aims = [(j, fighters[j].out) for j in self.targets[me.side]]
            for b, blow in enumerate(me.blows):
                nxt: dict[Any, int] = {}
                get = nxt.get
                for cur, p in dist.items():
                    hs, rs = cur
                    for t, out in aims:  # the side's current target: the first not out
                        if not out(hs[t]):
                            break
                    else:
                        nxt[cur] = get(cur, 0) + p * blow.scale
                        continue
                    key = (i, b, own, t, hs[t], rs[t])
                    hits = blows.get(key)
                    if hits is None:
                        hits = blows[key] = blow.hit(own, fighters[t], hs[t], rs[t])
                    for q, health, r in hits:
                        after = ((*hs[:t], health, *hs[t + 1 :]), (*rs[:t], r, *rs[t + 1 :]))
                        nxt[after] = get(after, 0) + p * q
                dist = nxt
        return [(p * pad, s) for s, p in dist.items()]

    def round(
        self, order: Order, healths: Healths, standing: Sequence[Any] | None = None
    ) -> tuple[dict[Healths, int], int]:
        """One round from `healths` (the fight not over): every group in `order`, then the
        end-of-round rolls, as integer weights over `total`; with the health states met on the way
        (what the time grows with). `standing`: each fighter's round state to start from (the
        rest of a round begun: the blocks and dodges left), else `fresh`."""
        out, steps = self.round_numbered(order, healths, standing)
        return {self.healths_of(k): w for k, w in out.items()}, steps

    def round_numbered(
        self, order: Order, healths: Healths, standing: Sequence[Any] | None = None
    ) -> tuple[dict[int, int], int]:
        """`round` with the healths it ends in numbered (`healths_of`). The hottest loop of the
        fixed-order forecast: every state of the round is a number, each group's turns from it
        cached by that number (read inline, no call per state), the end-of-round rolls by it too."""
        if standing is None:
            standing = [f.fresh(h) for f, h in zip(self.fighters, healths, strict=True)]
        dist: dict[int, int] = {self._points.number((healths, tuple(standing))): 1}
        steps = 0
        for group in order[:-1]:
            turns = self._moves[group]
            nxt: dict[int, int] = {}
            get = nxt.get
            for n, p in dist.items():
                got = turns.get(n)
                if got is None:
                    got = turns[n] = self._turns(n, group)
                for q, m in got:
                    nxt[m] = get(m, 0) + p * q
            dist = nxt
            steps += len(dist)
        out: dict[int, int] = {}
        put = out.get
        if not order:  # nobody left to act this round: its end only
            for n, p in dist.items():
                for q, k in self._close(n):
                    out[k] = put(k, 0) + p * q
            return out, steps
        group = order[-1]
        lasts = self._lasts[group]
        reached: set[int] = set()
        for n, p in dist.items():
            last = lasts.get(n)
            if last is None:
                last = lasts[n] = self._last(n, group)
            ends, points = last
            for q, k in ends:
                out[k] = put(k, 0) + p * q
            reached.update(points)
        return out, steps + len(reached)

    def end(self, healths: Healths) -> list[tuple[int, Healths]]:
        """Each fighter's end-of-round roll (a dying check) while the fight is on (cached)."""
        got = self._ends.get(healths)
        if got is None:
            got = self._ends[healths] = self._end(healths)
        return got

    def _end(self, healths: Healths) -> list[tuple[int, Healths]]:
        dist: dict[Healths, int] = {healths: 1}
        if self.over(healths):
            return [(self.faces, self.final(healths))]
        for i, f in enumerate(self.fighters):
            if f.end is None:
                continue
            faces, step = f.end
            nxt: dict[Healths, int] = {}
            for hs, p in dist.items():
                for q, h in step(hs[i]):
                    after = (*hs[:i], h, *hs[i + 1 :])
                    nxt[after] = nxt.get(after, 0) + p * q
            dist = nxt
        return [(p, hs) for hs, p in dist.items()]

    def final(self, healths: Healths) -> Healths:
        """The healths kept once the fight is over: only what the marks read."""
        return tuple(f.final(h) if f.final else h for f, h in zip(self.fighters, healths, strict=True))

    @property
    def faces(self) -> int:
        """The weight of the end-of-round rolls together."""
        return math.prod(a.end[0] for a in self.fighters if a.end)


class FixedFight:
    """One fight under one fixed order: what `calc.forecast.chain` reads of a fight."""

    def __init__(self, rules: Rules, order: Order) -> None:
        self.rules = rules
        self.order = order
        self.fighters = rules.fighters
        self.total = rules.total
        self.start = (False, tuple(f.start for f in rules.fighters))
        self.steps = 0

    @property
    def max_steps(self) -> int:
        return MAX_STEPS

    def side_out(self, side: str, healths: Healths) -> bool:
        return self.rules.side_out(side, healths)

    def over(self, healths: Healths) -> bool:
        return self.rules.over(healths)

    def state_bound(self) -> int:
        return self.rules.state_bound()

    def orders_walked(self, limit: int) -> int:
        """One order only: the round is one walk down it (whatever `limit`)."""
        return 1

    def step(self, state: tuple[bool, Healths]) -> list[tuple[int, Any]]:
        """One round: every group in the order, then the end-of-round rolls; weights over `total`.
        States are (False, healths), as `calc.forecast.chain` reads them."""
        healths = state[1]
        self.rules.count()
        if self.over(healths):
            return [(self.total, state)]
        out, steps = self.rules.round(self.order, healths)
        self.steps += steps
        return [(w, (False, hs)) for hs, w in out.items()]


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
    if len(chains) > 1 and len(chains) * states > MAX_FOLLOWED:
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
    (`MAX_FOLLOWED` states, `moves`: the moves the mixture's chain may keep) by more than the
    estimate's error (`SLACK`), refused: after some hundreds or thousands of that order's states
    rather than after the mixture's ten thousand (0.05 to 0.8 s in CPython, where following the
    mixture to its bound takes 2 to 3 s). Only a refusal comes of this guess, never an answer; a
    fight within it is followed until the counts say (from 0 again)."""
    about = fixed_mixture.Estimate(chains, rules.fighters)
    fight = _Estimating(FixedFight(rules, first), about, MAX_FOLLOWED * SLACK, moves * SLACK)
    try:
        chain.explore_numbered(cast(Any, fight), max(rules.state_bound(), chain.MAX_STATES))
    except _PastEstimate as past:
        fights = f" ({len(chains):,} different fights)" if len(chains) != orders else ""
        what = (
            f"about {about.states:,} states or more, more than the {MAX_FOLLOWED:,} followed exactly"
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
