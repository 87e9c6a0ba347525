"""A fighter of the forecast and whom each side attacks.

Every targeting policy here is focus fire: a side attacks one foe until that foe is out of the
fight, then the next, in an order fixed before the fight (lowest hit points first, the most
dangerous first, or the order the GM lists). Only the current target is ever hurt, so a side's
state is "how far down the list, and how hurt the current one is": the chain stays small and exact.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from calc.inputs.data import SystemData
from calc.numbers.dist import Dist

Health = Hashable
"""One fighter's state: whatever its system needs (hit points left, Hurt or not, wounds …)."""

PARTY, FOES = "party", "foes"

POLICIES = {
    "lowest-hp": "lowest hit points first",
    "dangerous": "the most dangerous first",
    "listed": "in the order listed",
}
"""Focus-fire orders a side can follow (the `*_targets` inputs' values)."""


@dataclass(frozen=True, eq=False)
class Fighter:
    """One combatant. `strike(own, target, target_health)` is one attack's effect: the target's next
    health states with integer weights summing to `scale` (a miss leaves it as it was);
    `attacks(own, first_round)` how many attacks its action makes this round (at most `most`);
    `states`: how many health states it can have while in the fight; `out(health)` whether it has left the fight
    (it no longer acts and is no longer attacked); `marks`: the health states reported per fighter
    ("is Hurt or worse", "dies"), each of which, once reached, holds for the rest of the fight."""

    name: str
    side: str
    start: Health
    hp: int
    initiative: Dist
    tie: tuple[int, ...]
    danger: Fraction
    states: int
    scale: int
    most: int
    attacks: Callable[[Health, bool], int]
    strike: Callable[[Health, Fighter, Health], Sequence[tuple[int, Health]]]
    out: Callable[[Health], bool]
    marks: tuple[tuple[str, Callable[[Health], bool]], ...] = field(default=())
    defense: Any = None
    """What the system's `strike` reads of this fighter as a target (its Armor Class …)."""


def policies(inputs: dict[str, Any]) -> dict[str, str]:
    """Each side's targeting policy, from the forecast's `party_targets` and `foes_targets`."""
    return {PARTY: inputs["party_targets"], FOES: inputs["foes_targets"]}


def dealt(damage: Dist, scale: int, health: int, floor: Callable[[int], int]) -> list[tuple[int, int]]:
    """A blow of `damage` (a miss as 0) taken from `health`, each result through `floor` (where the
    fight stops telling hit points apart: dropped, dead), as integer weights over `scale` (a
    multiple of the damage's total)."""
    factor = scale // damage.total
    out: dict[int, int] = {}
    xs, ws = damage.support()
    for x, w in zip(xs, ws, strict=True):
        h = floor(health - x)
        out[h] = out.get(h, 0) + w * factor
    return [(w, h) for h, w in out.items() if w]


def targets_step(data: SystemData, inputs: dict[str, Any], until: str = "it is out of the fight") -> dict[str, str]:
    """The forecast's focus-fire assumption, as the two sides' `*_targets` inputs chose it, citing
    the ruling that has the sides declare it; `until`: when the system's fighter leaves the fight."""
    party, foes = POLICIES[inputs["party_targets"]], POLICIES[inputs["foes_targets"]]
    text = f"Focus fire: the party attacks {party}, the foes {foes}; a side attacks its target until {until}."
    return data.step("ruling:forecast-targets", text)


def target_order(defenders: Sequence[int], fighters: Sequence[Fighter], policy: str) -> tuple[int, ...]:
    """The order (indices into `fighters`) in which a side attacks `defenders` under `policy`; ties
    in the listed order. Lowest hit points first stays exact as the fight goes on: only the current
    target loses hit points, so it stays the lowest."""
    if policy == "lowest-hp":
        return tuple(sorted(defenders, key=lambda i: (fighters[i].hp, i)))
    if policy == "dangerous":
        return tuple(sorted(defenders, key=lambda i: (-fighters[i].danger, i)))
    if policy == "listed":
        return tuple(defenders)
    raise ValueError(f"unknown targeting policy {policy!r}")


def focus_bound(targets: dict[str, tuple[int, ...]], states: Sequence[int], outs: Sequence[int]) -> int:
    """At most this many health states of a focus-fire fight, known before any is computed: each
    side is attacked down its list (`targets[side]`: the foes it attacks, in order), one target at a
    time, those before it out (each in one of its `outs` healths), the current one in any of its
    `states`, those after it untouched."""
    count = 1
    for side in (PARTY, FOES):
        ways, before = 0, 1
        for i in targets[side]:
            ways += before * states[i]
            before *= outs[i]
        count *= ways + before
    return count


class Sides:
    """Who is on which side, whom each side attacks (focus fire, down its list) and when a side is
    out: what every kind of forecast round shares (`walk.FocusWalk`, `fixed_fight.Rules`)."""

    def __init__(self, fighters: Sequence[Any], policies: dict[str, str]) -> None:
        self.fighters = tuple(fighters)
        self.sides = {s: tuple(i for i, f in enumerate(fighters) if f.side == s) for s in (PARTY, FOES)}
        self.targets = {
            PARTY: target_order(self.sides[FOES], self.fighters, policies[PARTY]),
            FOES: target_order(self.sides[PARTY], self.fighters, policies[FOES]),
        }
        self._over: dict[tuple[Any, ...], bool] = {}

    def side_out(self, side: str, healths: tuple[Any, ...]) -> bool:
        return all(self.fighters[i].out(healths[i]) for i in self.sides[side])

    def over(self, healths: tuple[Any, ...]) -> bool:
        """Cached: the chain and the rounds ask it of the same healths many times."""
        got = self._over.get(healths)
        if got is None:
            got = self._over[healths] = self.side_out(PARTY, healths) or self.side_out(FOES, healths)
        return got
