"""Segments' fight: health by hit points, as the data's `tracker.states` say: Down at 0 (the
site's ruling: the chapter is silent). Under the other reading of round-drop-at-zero (the
`drop_at` ruling, as the round calculator reads it), a combatant is Down at 0 and dead at −10
(the rule's `dead_at` fact), and stays dead: healing is refused.

A combatant that takes the Flee fast action can be marked Fled (`flee`, the data's `tracker.fled`):
out of the round's order and the targets until the GM brings it back (`return`).

Each round every combatant declares its action (the action type that places it in the round,
and a spell's casting time): the declaration is the combatant's initiative fields of those names,
kept from round to round (the last one stands until changed, so a round starts without a tap per
combatant) and changed by `declare`, read by the same declarations as the add form's."""

from __future__ import annotations

from typing import Any

from calc.errors import InputError
from calc.fight.hit_points import HitPointRules
from calc.inputs import applies, declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

RULE = "death-and-dying"
DROP_AT = "drop_at"
"""The round calculator's ruling of where a combatant drops (and, by the other reading, dies)."""
DECLARED: dict[str, dict[str, Any]] = {"action": {}, "casting_time": {"action": "spell"}}
"""The initiative fields a round's declaration sets, each with the `when` under which the card
offers it: the action type, and a spell's casting time (the Spell Initiative Chart's)."""
SHOWN = ("name", "label", "card_label", "type", "options", "min", "max", "help")
"""What the card needs of a field's declaration."""


class DropRules(HitPointRules):
    def states(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> list[dict[str, Any]]:
        states = super().states(c, data, options)
        if options[DROP_AT] != "minus-ten":
            return states
        dead = {"label": "Dead", "rule": RULE, "fact": "dead_at", "when": "at-or-below", "final": True}
        return [{**dead, "value": data.fact(RULE, "dead_at")}, *states]

    def lowest(self, c: dict[str, Any], data: SystemData) -> int:
        """The floor under either reading of `drop_at`: a combatant brought to −10 under the other
        reading keeps its hit points when the ruling changes back."""
        ruling = next(d for d in data.calculator("round")["inputs"] if d["name"] == DROP_AT)
        return min(self.floor(c, data, {DROP_AT: o["value"]}) for o in ruling["options"])

    def declaration(self, c: dict[str, Any], data: SystemData) -> list[dict[str, Any]]:
        decls = _declared(data)
        return [
            {**{k: decls[name][k] for k in SHOWN if k in decls[name]}, "value": c["values"][name]}
            for name, when in DECLARED.items()
            if applies.holds({"when": when}, c["values"])
        ]

    def declare(self, c: dict[str, Any], raw: Any, data: SystemData) -> dict[str, Any]:
        if not isinstance(raw, dict) or not raw or any(k not in DECLARED for k in raw):
            raise InputError("action.declaration", f"must be an object of {', '.join(DECLARED)}")
        decls = _declared(data)
        values = {**c["values"], **{k: declared.value(decls[k], v, f"action.declaration.{k}") for k, v in raw.items()}}
        return {**c, "values": values}


def _declared(data: SystemData) -> dict[str, dict[str, Any]]:
    """The tracker's declarations of the declared fields, by name."""
    return {d["name"]: d for d in tracker(data)["inputs"] if d["name"] in DECLARED}


FIGHT = DropRules()
