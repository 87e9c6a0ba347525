"""A round whose order is one of a few scripts, drawn once a round: side (group) initiative, where
one die per side, not per fighter, decides who acts when (Segments' HIGH and LOW).

A script is a sequence of slots; a slot is fighters acting together (everyone up at the slot's
start acts, even one felled by another of the slot), each making a fixed number of strikes there.
A fighter may have several slots in one round (a multi-attacker's first routine early, the rest
late). The chain (`calc.forecast.chain.forecast`) reads the same interface as `round.Fight`:
`start`, `step`, `total`, `steps`, `side_out`, `over`, `fighters`, `state_bound`, `orders_walked`.

Weights stay integers over one total per round: the scripts' weights times each fighter's
`scale ** most`; a strike not made (the striker out, no target left) counts as `scale`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from calc.forecast.fighters import Fighter, Health, focus_bound
from calc.forecast.order import tree_dag, trie
from calc.forecast.walk import FocusWalk

Healths = tuple[Health, ...]
State = tuple[bool, Healths]
Slot = tuple[tuple[int, int], ...]
"""(fighter index, strikes it makes in this slot) for every fighter acting together."""

Strike = Callable[[Health, bool, Fighter, Health], Sequence[tuple[int, Health]]]
"""strike(own health, first round, target, target's health) → its next healths, weights over `scale`."""


@dataclass(frozen=True)
class Script:
    weight: int
    slots: tuple[Slot, ...]


class ScriptedFight(FocusWalk):
    """The fighters, whom each side attacks, the round's scripts and each fighter's strike.
    `outs[i]`: how many healths fighter i can have once out of the fight (for the bound)."""

    def __init__(
        self,
        fighters: Sequence[Fighter],
        policies: dict[str, str],
        scripts: Sequence[Script],
        strikes: Sequence[Strike],
        outs: Sequence[int],
        first_differs: bool,
        reads_own: bool = True,
    ) -> None:
        """`reads_own=False`: no strike reads its striker's own health (only whether it is up), so
        a slot of one side's fighters does the same to the other side whatever its own healths:
        worked out once per (who of it is up, the other side's healths), not once per state."""
        super().__init__(fighters, policies)
        self.reads_own = reads_own
        self._plans: dict[Slot, tuple[int, int] | None] = {}
        self._side_acts: dict[tuple, list[tuple[int, Healths]]] = {}
        self.scripts = tuple(scripts)
        self.strikes = tuple(strikes)
        self.outs = tuple(outs)
        self.first_differs = first_differs
        for script in self.scripts:  # the total below holds only if every fighter strikes `most` times a round
            made = [0] * len(self.fighters)
            for slot in script.slots:
                for i, n in slot:
                    made[i] += n
            if made != [f.most for f in self.fighters]:
                raise ValueError(f"a script gives strikes {made}, not each fighter's most")
        self.tree = trie((s.weight, s.slots) for s in self.scripts)  # shared prefixes walked once
        self.graph = tree_dag(self.tree)  # and equal suffixes
        self.total = sum(s.weight for s in self.scripts)
        for f in self.fighters:
            self.total *= f.scale**f.most

    @property
    def start(self) -> State:
        return self.first_differs, tuple(f.start for f in self.fighters)

    def state_bound(self) -> int:
        """At most this many states: a side is attacked down its list, one target at a time, those
        before it out (each in one of its out healths), those after it untouched; twice for the
        first round's flag."""
        return 2 * focus_bound(self.targets, [f.states for f in self.fighters], self.outs)

    def orders_walked(self, limit: int) -> int:
        """The slots a round walks from each state (its `Dag`'s steps): with the states, what the
        time grows with (a handful of scripts, counted whole whatever `limit`)."""
        return self.graph.size()

    def step(self, state: State) -> list[tuple[int, State]]:
        first, healths = state
        if self.over(healths):
            return [(self.total, state)]
        merged: dict[Healths, int] = {}
        self._walk(self.graph, {healths: 1}, first, merged)
        return [(w, (False, h)) for h, w in merged.items()]

    def _plan(self, slot: Slot) -> tuple[int, int] | None:
        """Where the healths a slot can change lie, `h[lo:hi]`, when its work can be shared between
        states: its fighters all of one side, reading no own health, their foes side by side."""
        if slot not in self._plans:
            sides = {self.fighters[i].side for i, _ in slot}
            plan = None
            if not self.reads_own and len(sides) == 1:
                foes = sorted(self.targets[sides.pop()])
                if foes and foes == list(range(foes[0], foes[-1] + 1)):
                    plan = (foes[0], foes[-1] + 1)
            self._plans[slot] = plan
        return self._plans[slot]

    def _act(self, h: Healths, slot: Slot, first: bool) -> list[tuple[int, Healths]]:
        """Everyone of the slot up at its start strikes (own health as it stood then), each strike
        at its side's current target as the state stands at that strike."""
        plan = self._plan(slot)
        if plan is None:
            return self._act_whole(h, slot, first)
        lo, hi = plan
        key = (slot, first, tuple(self.fighters[i].out(h[i]) for i, _ in slot), h[lo:hi])
        got = self._side_acts.get(key)
        if got is None:
            got = self._side_acts[key] = [(p, after[lo:hi]) for p, after in self._act_whole(h, slot, first)]
        head, tail = h[:lo], h[hi:]
        return [(p, head + part + tail) for p, part in got]

    def _act_whole(self, h: Healths, slot: Slot, first: bool) -> list[tuple[int, Healths]]:
        """`_act` from the whole state."""
        dist: dict[Healths, int] = {h: 1}
        pad = 1
        for i, n in slot:
            me = self.fighters[i]
            own = h[i]
            if me.out(own):
                pad *= me.scale**n
                continue
            dist = self._strikes_of(dist, i, own, n, first)
        return [(p * pad, s) for s, p in dist.items()]

    def _strike(self, i: int, own: Health, first: bool, t: int, health: Health) -> Sequence[tuple[int, Health]]:
        return self.strikes[i](own, first, self.fighters[t], health)
