"""What every rolled-each-round forecast round shares: whom each side attacks (focus fire), when a
side is out, and the walk of a round's tree of orders (`round.Fight`'s initiative orders,
`scripted_round.ScriptedFight`'s scripts), each step a group of fighters striking together.

Weights stay integers over one total per round; a strike not made (the striker out, no target
left) counts as the striker's `scale`, a weight that changes nothing."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from calc.forecast.fighters import Fighter, Health, Sides
from calc.forecast.numbered import Numbered
from calc.forecast.order import Dag

Healths = tuple[Health, ...]


class FocusWalk(Sides):
    """The fighters, whom each side attacks, and the walk of a round; a subclass says what one
    step of its tree does (`_act`) and what one strike does (`_strike`)."""

    def __init__(self, fighters: Sequence[Fighter], policies: dict[str, str]) -> None:
        super().__init__(fighters, policies)
        self._acts: dict[tuple[Hashable, bool], dict[int, list[tuple[int, int]]]] = {}
        self._healths = Numbered()  # the healths a walk meets: its dicts and caches hash their numbers
        self._strikes: dict[tuple, Sequence[tuple[int, Health]]] = {}
        self._outs = tuple(f.out for f in self.fighters)
        self.steps = 0  # healths met and made while walking the rounds' orders: what the time grows with

    def _walk(self, graph: Dag, dist: dict[Healths, int], first: bool, out: dict[Healths, int]) -> None:
        """Every order of `graph` from the healths `dist`, the round's ends summed into `out`.
        The orders are walked as their `Dag` (equal subtrees once, each node's healths gathered from
        every way into it). The hottest loop of the forecast: every healths is a number
        (`Numbered`: a dict then hashes a small integer, not a tuple of tuples, at every step), the
        cache of steps is read inline (no call per health), one cache per step."""
        number, values = self._healths.number, self._healths.values
        scale = graph.scale
        here_at: list[dict[int, int] | None] = [None] * len(graph.weights)
        here_at[0] = {number(h): w * scale for h, w in dist.items()}
        ends: dict[int, int] = {}
        for at, weight in enumerate(graph.weights):
            here = here_at[at]
            if here is None:
                continue
            here_at[at] = None
            self.steps += len(here)
            if weight:
                get = ends.get
                for n, w in here.items():
                    ends[n] = get(n, 0) + w * weight
            for step, child, times in graph.edges[at]:
                acts = self._acts.get((step, first))
                if acts is None:
                    acts = self._acts[(step, first)] = {}
                nxt = here_at[child]
                if nxt is None:
                    nxt = here_at[child] = {}
                put = nxt.get
                met = 0
                for n, w in here.items():
                    got = acts.get(n)
                    if got is None:
                        got = acts[n] = [(x, number(after)) for x, after in self._act(values[n], step, first)]
                    w *= times
                    met += len(got)
                    for x, after in got:
                        nxt[after] = put(after, 0) + w * x
                self.steps += met
        get = out.get
        for n, w in ends.items():
            h = values[n]
            out[h] = get(h, 0) + w

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
