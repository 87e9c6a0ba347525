"""One round of the fight as an exact transition: every fighter acts once, in its initiative's
order, and a fighter out of the fight before its turn comes does not act.

The round walks the tree of the orders of the fighters up at its start, as the fight's initiative
procedure gives it (`calc.forecast.initiative`; by default every fighter rolls each round): each
group of fighters acts on the distribution of everyone's health as it stands after the groups
before it, walked as the orders' `calc.forecast.order.Dag` (shared prefixes and equal suffixes
once). Fighters of one group act together: all of them
act, even one felled by another of them.

Weights stay integers over one total per round, the same from every state (so `StateChain` gets
integer rows): each fighter's initiative faces times `scale ** most` for its attacks; an attack
not made (no target left, the attacker out, fewer attacks this round) counts as `scale`, a weight
that changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from calc.forecast.fighters import FOES, PARTY, Fighter, Health
from calc.forecast.initiative import Initiative
from calc.forecast.order import Group, Orders
from calc.forecast.walk import FocusWalk

Healths = tuple[Health, ...]
State = tuple[bool, Healths]
"""(this is the fight's first round, every fighter's health)."""


class Fight(FocusWalk):
    """The fight's fighters, whom each side attacks, and the orders a round can take: `initiative`
    (a `calc.forecast.initiative.Initiative`), by default every fighter's own roll each round, lower
    totals first unless `high_first`."""

    max_work: int | None = None
    max_steps: int | None = None

    def __init__(
        self,
        fighters: Sequence[Fighter],
        policies: dict[str, str],
        high_first: bool,
        initiative: Initiative | None = None,
        bounds: tuple[int, int] | None = None,
    ) -> None:
        """`bounds`: (the most work, the most steps) where a system's steps cost another time than
        the chain's own bounds assume (`calc.forecast.chain.work_bound`, `steps_bound`)."""
        super().__init__(fighters, policies)
        if bounds is not None:
            self.max_work, self.max_steps = bounds
        self.orders: Initiative = initiative if initiative is not None else Orders(self.fighters, high_first)
        self.idle = [f.scale**f.most for f in self.fighters]  # the weight of a fighter's attacks not made
        self.total = self.orders.faces
        for idle in self.idle:
            self.total *= idle

    @property
    def start(self) -> State:
        """The first round is told apart only when some fighter's first round differs."""
        first = any(f.attacks(f.start, True) != f.attacks(f.start, False) for f in self.fighters)
        return first, tuple(f.start for f in self.fighters)

    def state_bound(self) -> int:
        """At most this many states, known before any is computed: each side is attacked down its
        list, one target at a time (the ones before it out, the ones after it untouched), so a side
        has at most (Σ its fighters' health states + 1) states; twice for the first round's flag."""
        count = 2
        for side in (PARTY, FOES):
            count *= sum(self.fighters[i].states for i in self.sides[side]) + 1
        return count

    def orders_walked(self, limit: int) -> int:
        """The steps of the orders a round walks from the start (every fighter up, its `Dag`),
        counted up to `limit` + 1: with the states, what the work grows with."""
        return self.orders.count(sum(1 << i for i in range(len(self.fighters))), limit)

    # --- one round ----------------------------------------------------------------------------
    def step(self, state: State) -> list[tuple[int, State]]:
        """The round's transitions as integer weights over `self.total`."""
        first, healths = state
        if self.over(healths):
            return [(self.total, state)]
        up = sum(1 << i for i, f in enumerate(self.fighters) if not f.out(healths[i]))
        idle = 1
        for i in range(len(self.fighters)):
            if not up >> i & 1:
                idle *= self.idle[i]
        merged: dict[Healths, int] = {}
        self._walk(self.orders.graph(up), {healths: idle}, first, merged)
        return [(w, (False, h)) for h, w in merged.items()]

    def _act(self, h: Healths, group: Group, first: bool) -> list[tuple[int, Healths]]:
        """Everyone in `group` up at its start acts (one felled by another of them still acts),
        one after another; each attack goes to the side's current target (the first not out in
        its list) as the state stands then; each attacker's own health (Hurt penalties, attacks a
        round) as it stood when the group began."""
        dist: dict[Healths, int] = {h: 1}
        pad = 1
        for i in group:
            me = self.fighters[i]
            own = h[i]
            if me.out(own):  # down before its turn: it does not act
                pad *= self.idle[i]
                continue
            n = me.attacks(own, first)
            pad *= me.scale ** (me.most - n)
            dist = self._strikes_of(dist, i, own, n, first)
        return [(p * pad, s) for s, p in dist.items()]

    def _strike(self, i: int, own: Health, first: bool, t: int, health: Health) -> Sequence[tuple[int, Health]]:
        return self.fighters[i].strike(own, self.fighters[t], health)
