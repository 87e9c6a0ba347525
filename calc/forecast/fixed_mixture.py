"""Every order of a fight whose initiative is rolled once, followed as one chain: a state is the
order of the fighters still in the fight and every fighter's health.

A fighter out of the fight never acts again and is never attacked again (nobody comes back within
the fight: dropped, dying and dead only go down), so two orders that differ only in where the
fighters now out stand play out alike from then on: once a fighter is out, the orders are kept
without it, and those that have become the same are followed once. The chain's first state
(the order not yet rolled) moves, in its one round, by every order's first round weighted by that
order's chance; every answer is then exactly the mixture of the orders' own chains (the same
chances within each round, the same means), for fewer states than the orders' chains together.
`fold` merges, before the chain, the orders that make the same chain; `mix` mixes the orders'
own chains (what the tests compare the one chain with).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, cast

from calc.chains.reached import Reached
from calc.forecast import chain, fixed_fight
from calc.forecast.fixed_fight import Actor, Healths, Order, Rules

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
        # per order: numbered healths → the chain's state
        self._keys: defaultdict[Order, dict[int, tuple[Order, Healths]]] = defaultdict(dict)

    @property
    def max_steps(self) -> int:
        return fixed_fight.MAX_STEPS

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
            out, steps = self.rules.round_numbered(one, healths)
            weight *= self._idle(one)
            self.steps += steps
            keys = self._keys[one]
            for k, w in out.items():
                key = keys.get(k)
                if key is None:
                    hs = self.rules.healths_of(k)
                    key = keys[k] = (OVER if self.over(hs) else self._kept(one, hs), hs)
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


class Estimate:
    """About how many states and moves the mixture follows, counted as one order's chain finds its
    states: each healths counted once for every different order, kept without the fighters it has
    out, that the mixture's orders make (`add`; exact if every order reached the same healths: in
    the benchmark's random fights, 0 to 6 % above the states followed), its moves as many times
    (`step`; 0 to 25 % below the moves kept)."""

    def __init__(self, chains: Sequence[Order], fighters: Sequence[Any]) -> None:
        self.chains = chains
        self.fighters = fighters
        self.states = 0
        self.moves = 0
        self._kinds: dict[tuple[bool, ...], int] = {}

    def kinds(self, healths: Healths) -> int:
        """How many different orders the mixture keeps at these healths."""
        up = tuple(not f.out(h) for f, h in zip(self.fighters, healths, strict=True))
        kinds = self._kinds.get(up)
        if kinds is None:
            kinds = self._kinds[up] = len({kept(order, up) for order in self.chains})
        return kinds

    def add(self, healths: Healths) -> None:
        """A state found."""
        self.states += self.kinds(healths)

    def step(self, healths: Healths, moves: int) -> None:
        """A state stepped, with its moves."""
        self.moves += self.kinds(healths) * moves


def fold(chances: dict[Order, Fraction], actors: Sequence[Actor]) -> dict[Order, Fraction]:
    """The orders that make different chains, each with the chance of every order making the same
    one (`canonical`)."""
    out: dict[Order, Fraction] = {}
    for order, p in chances.items():
        key = canonical(order, actors)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def canonical(order: Order, actors: Sequence[Actor]) -> Order:
    """`order` with every run of alike actors (`Actor.alike`, one side) acting one after the other,
    each alone, put in index order. Between two such turns nobody else acts, so neither's health
    changes: whichever acts first, the same blows land in the same sequence (one out of the fight
    skips its blows either way), and every round of the two orders is the same transition, the same
    chain, each fighter's marks included. Alike actors with another fighter's turn between them are
    never swapped: the one attacked first (focus fire) acts before or after that turn."""
    out = list(order)
    k = 0
    while k < len(out):
        end = k + 1
        if len(out[k]) == 1 and actors[out[k][0]].alike is not None:
            mine = (actors[out[k][0]].side, actors[out[k][0]].alike)
            while (
                end < len(out) and len(out[end]) == 1 and (actors[out[end][0]].side, actors[out[end][0]].alike) == mine
            ):
                end += 1
            out[k:end] = sorted(out[k:end])
        k = end
    return tuple(out)


def mix(parts: list[tuple[Fraction, chain.Forecast]], rounds: int) -> chain.Forecast:
    """The forecasts' mixture: every chance and every mean weighted by its order's chance."""

    def reached(get: Callable[[chain.Forecast], Reached]) -> Reached:
        first = get(parts[0][1])
        within = tuple(sum((p * get(f).within[k] for p, f in parts), Fraction(0)) for k in range(rounds))
        means = [get(f).mean for _, f in parts]
        mean = (
            None
            if any(m is None for m in means)
            else sum((p * cast(Fraction, m) for (p, _), m in zip(parts, means, strict=True)), Fraction(0))
        )
        return Reached(first.label, within, mean)

    fighters = tuple(
        tuple(reached(partial(_mark, i, j)) for j in range(len(marks))) for i, marks in enumerate(parts[0][1].fighters)
    )
    return chain.Forecast(
        rounds,
        reached(lambda f: f.party),
        reached(lambda f: f.foes),
        reached(lambda f: f.over),
        fighters,
        sum(f.states for _, f in parts),
    )


def _mark(i: int, j: int, f: chain.Forecast) -> Reached:
    return f.fighters[i][j]
