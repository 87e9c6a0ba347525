"""What every rolled-each-round forecast round shares: whom each side attacks (focus fire), when a
side is out, and the walk of a round's tree of orders (`round.Fight`'s initiative orders,
`scripted_round.ScriptedFight`'s scripts), each step a group of fighters striking together.

Weights stay integers over one total per round; a strike not made (the striker out, no target
left) counts as the striker's `scale`, a weight that changes nothing."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from operator import itemgetter
from typing import Any, Protocol

from calc.forecast.fighters import Fighter, Health, Sides

Healths = tuple[Health, ...]


class Tree(Protocol):
    """A prefix of a round's orders: the weight of those ending here, the steps that may come next."""

    weight: int
    children: Any


class FocusWalk(Sides):
    """The fighters, whom each side attacks, and the walk of a round; a subclass says what one
    step of its tree does (`_act`) and what one strike does (`_strike`)."""

    def __init__(self, fighters: Sequence[Fighter], policies: dict[str, str]) -> None:
        super().__init__(fighters, policies)
        self._acts: dict[tuple[Hashable, bool], dict[Healths, list[tuple[int, Healths]]]] = {}
        self._strikes: dict[tuple, Sequence[tuple[int, Health]]] = {}
        self._outs = tuple(f.out for f in self.fighters)
        self.steps = 0  # health states met while walking the rounds' orders: what the time grows with

    def _walk(self, node: Tree, dist: dict[Healths, int], first: bool, out: dict[Healths, int]) -> None:
        """Every order below `node` from the healths `dist`, the round's ends summed into `out`.
        The hottest loop of the forecast: the cache of steps is read inline (no call per health),
        one cache per step, keyed by the healths alone (no hashing of the step per health)."""
        self.steps += len(dist)
        if node.weight:
            get = out.get
            for h, w in dist.items():
                out[h] = get(h, 0) + w * node.weight
        for step, child in node.children.items():
            acts = self._acts.get((step, first))
            if acts is None:
                acts = self._acts[(step, first)] = {}
            if child.weight and not child.children:  # a last step: its ends go straight into `out`
                self.steps += self._last(dist, acts, step, first, child.weight, out)
                continue
            nxt: dict[Healths, int] = {}
            put = nxt.get
            for h, w in dist.items():
                got = acts.get(h)
                if got is None:
                    got = acts[h] = self._act(h, step, first)
                for x, after in got:
                    nxt[after] = put(after, 0) + w * x
            self._walk(child, nxt, first, out)

    def _last(
        self,
        dist: dict[Healths, int],
        acts: dict[Healths, list[tuple[int, Healths]]],
        step: Any,
        first: bool,
        weight: int,
        out: dict[Healths, int],
    ) -> int:
        """`_walk` of a last step (a leaf of weight `weight`): summed into `out` as they come, no
        dict of its own; how many healths it ended in (counted in `steps` as a leaf's dist is)."""
        put = out.get
        ends: set[Healths] = set()
        for h, w in dist.items():
            got = acts.get(h)
            if got is None:
                got = acts[h] = self._act(h, step, first)
            w *= weight
            for x, after in got:
                out[after] = put(after, 0) + w * x
            ends.update(map(itemgetter(1), got))
        return len(ends)

    def _act(self, h: Healths, step: Any, first: bool) -> list[tuple[int, Healths]]:
        raise NotImplementedError

    def _strike(self, i: int, own: Health, first: bool, t: int, health: Health) -> Sequence[tuple[int, Health]]:
        raise NotImplementedError

    def _strikes_of(self, dist: dict[Healths, int], i: int, own: Health, n: int, first: bool) -> dict[Healths, int]:
        """Fighter i's `n` strikes, its own health `own` as it stood when its step began, each at
        its side's current target (the first not out in its list) as the state stands then."""
        me = self.fighters[i]
        aims = self.targets[me.side]
        outs = self._outs
        strikes = self._strikes
        for _ in range(n):
            nxt: dict[Healths, int] = {}
            get = nxt.get
            for cur, p in dist.items():
                for t in aims:  # the side's current target: the first not out
                    if not outs[t](cur[t]):
                        break
                else:
                    nxt[cur] = get(cur, 0) + p * me.scale
                    continue
                key = (i, own, first, t, cur[t])
                hits = strikes.get(key)
                if hits is None:
                    hits = strikes[key] = self._strike(i, own, first, t, cur[t])
                for q, health in hits:
                    after = (*cur[:t], health, *cur[t + 1 :])
                    nxt[after] = get(after, 0) + p * q
            dist = nxt
        return dist
