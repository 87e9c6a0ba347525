"""Every order of a fight whose initiative is rolled once, followed as one chain: a state is the
order of the fighters still in the fight and every fighter's health.

A fighter out of the fight never acts again and is never attacked again (nobody comes back within
the fight: dropped, dying and dead only go down), so two orders that differ only in where the
fighters now out stand play out alike from then on: once a fighter is out, the orders are kept
without it, and those that have become the same are followed once. The chain's first state
(the order not yet rolled) moves, in its one round, by every order's first round weighted by that
order's chance; every answer is then exactly the mixture of the orders' own chains (the same
chances within each round, the same means), for fewer states than the orders' chains together.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from calc.forecast.fighters import Health

if TYPE_CHECKING:
    from calc.forecast.fixed_order import Order, Rules

Healths = tuple[Health, ...]
OVER: tuple[()] = ()
"""The order kept for a fight that is over: who would act no longer matters."""


class MixedFight:
    """What `calc.forecast.chain` reads of a fight, over the mixture of `chances` (order → its
    exact chance); the weights are integers over `total` (the round's times the chances' common
    denominator)."""

    def __init__(self, rules: Rules, chances: dict[Order, Fraction]) -> None:
        self.rules = rules
        self.fighters = rules.fighters
        self.den = math.lcm(*(p.denominator for p in chances.values()))
        self.weights = {order: int(p * self.den) for order, p in chances.items()}
        self.total = rules.total * self.den
        self.start: tuple[Any, Healths] = (None, tuple(f.start for f in rules.fighters))
        self.steps = 0
        self._idles: dict[Order, int] = {}
        self._up: dict[Healths, tuple[bool, ...]] = {}
        self._kept_orders: dict[tuple[Order, tuple[bool, ...]], Order] = {}

    def side_out(self, side: str, healths: Healths) -> bool:
        return self.rules.side_out(side, healths)

    def over(self, healths: Healths) -> bool:
        return self.rules.over(healths)

    def state_bound(self) -> int:
        """Each state's order is one of the orders kept without some fighters (at most one per
        order of the mixture for any healths), or none yet, or the fight's end."""
        return (len(self.weights) + 2) * self.rules.state_bound()

    def orders_walked(self, limit: int) -> int:
        """One order a round from every state but the first (whatever `limit`)."""
        return 1

    def step(self, state: tuple[Any, Healths]) -> list[tuple[int, Any]]:
        order, healths = state
        self.rules.count()
        if self.over(healths):
            return [(self.total, state)]
        if order is None:
            pairs = list(self.weights.items())
        else:
            pairs = [(order, self.den)]
        merged: dict[tuple[Any, Healths], int] = {}
        for one, weight in pairs:
            out, steps = self.rules.round(one, healths)
            weight *= self._idle(one)
            self.steps += steps
            for hs, w in out.items():
                key = (OVER if self.over(hs) else self._kept(one, hs), hs)
                merged[key] = merged.get(key, 0) + weight * w
        return [(w, s) for s, w in merged.items()]

    def _kept(self, order: Order, healths: Healths) -> Order:
        """`kept`, cached by the order and who is up (the healths' own test cached too)."""
        up = self._up.get(healths)
        if up is None:
            up = self._up[healths] = tuple(not f.out(h) for f, h in zip(self.fighters, healths, strict=True))
        got = self._kept_orders.get((order, up))
        if got is None:
            got = self._kept_orders[(order, up)] = kept(order, up)
        return got

    def _idle(self, order: Order) -> int:
        """The turns of the fighters no longer in `order`, as the round counts a turn not taken."""
        got = self._idles.get(order)
        if got is None:
            acting = {i for group in order for i in group}
            got = self._idles[order] = math.prod(f.turn for i, f in enumerate(self.fighters) if i not in acting)
        return got


def kept(order: Order, up: Sequence[bool]) -> Order:
    """`order` with only the fighters `up` (a group of fighters out gone, one of several left
    out: those left act together as before)."""
    groups = (tuple(i for i in group if up[i]) for group in order)
    return tuple(group for group in groups if group)


def estimate(first: Callable[[], list[Healths]], chances: Sequence[Order], fighters: Sequence[Any]) -> int:
    """About how many states the mixture follows, from the healths one order's chain reaches
    (`first()`): each counted once for every different order, kept without the fighters it has
    out, that the mixture's orders make (exact if every order reached the same healths)."""
    kinds: dict[tuple[bool, ...], int] = {}
    for hs in first():
        up = tuple(not f.out(h) for f, h in zip(fighters, hs, strict=True))
        kinds[up] = kinds.get(up, 0) + 1
    total = 0
    for up, n in kinds.items():
        total += n * len({kept(order, up) for order in chances})
    return total
