"""Segments' fight: health by hit points, as the data's `tracker.states` say: Down at 0 (the
site's ruling: the chapter is silent). Under the other reading of round-drop-at-zero (the
`drop_at` ruling, as the round calculator reads it), a combatant is Down at 0 and dead at −10
(the rule's `dead_at` fact)."""

from __future__ import annotations

from typing import Any

from calc.data import SystemData
from calc.fight.hit_points import HitPointRules

RULE = "death-and-dying"


class DropRules(HitPointRules):
    def states(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> list[dict[str, Any]]:
        states = super().states(c, data, options)
        if options["drop_at"] != "minus-ten":
            return states
        dead = {"label": "Dead", "rule": RULE, "fact": "dead_at", "when": "at-or-below"}
        return [{**dead, "value": data.fact(RULE, "dead_at")}, *states]


FIGHT = DropRules()
