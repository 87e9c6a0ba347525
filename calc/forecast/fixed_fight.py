"""One fight whose initiative is rolled once, under a fixed order: the types both its chains share
(an `Actor`'s turn of `Blow`s, an `Order` of groups of fighters), `Rules` (what every order of one
fight shares: the actors, whom each side attacks, a round's walk), `FixedFight` (one order's fight,
as `calc.forecast.chain` reads it) and the bounds of the states and steps those chains follow.
`calc.forecast.fixed_mixture` (every order as one chain) and `calc.forecast.fixed_order` (the orders,
the forecast) both build on it; it imports neither.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from calc.errors import InputError
from calc.forecast.fighters import Health, Sides, focus_bound
from calc.forecast.numbered import Numbered
from calc.numbers.dist import Dist

Group = tuple[int, ...]
Order = tuple[Group, ...]
Healths = tuple[Health, ...]

MAX_FOLLOWED = 10_000
"""The most states followed by the orders' one chain (`fixed_mixture`), counted as they are found;
past it (with `fixed_order.SLACK`), estimated from one order's chain, a fight is refused before the
mixture is followed (`fixed_order._refuse_early`). The time is bounded by the steps below and by the
moves the chain's solve reads (`chain.MAX_MOVE_BITS`): Active Defense 2 against 2, 8,682 states,
1.3 million steps and 0.73 million moves, answers in about 2 s (`python -m calc.forecast.bench`).
The bound of the orders' work (`fixed_order.MAX_WORK`) counts every dying fighter's hit points,
rarely all reached."""

MAX_STEPS = 1_500_000
"""The most healths met while walking the rounds of every order's chain (`FixedFight.steps`,
`MixedFight.steps`: about 0.75 µs each in CPython, about 1.1 s at most, the solve bounded apart),
checked as the states are found; the rolled rounds' walk counts in its own unit (`chain.MAX_STEPS`)."""

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
