"""The tracker cards' calculator links ("Hit chance vs Ogre", "Damage per round vs Ogre") carry the
whole question: the acting combatant's attacker inputs and the card's combatant as the target, its
current hit points and state, character or NPC as the rules treat them. The inputs are
`calc.fight.fighter.inputs_for`'s (the one mapping from combatants to a calculator's inputs), put
in the fight's view, so the page builds no input in JavaScript; it writes them into the link's
query with the names they came from (`from=tracker:<names>`), and the calculator page says so.

No one acting (before the first round, after the last turn) or the card of the one acting: the
link carries the target's side of the question only. A target the calculator cannot take as it
stands (hit points outside its input's range) gets no link but the reason."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc.data import SystemData
from calc.errors import InputError
from calc.fight import fighter
from calc.turn_helpers import tracker

LINKED = ("hit", "round")
"""The calculators each card opens (with the one the tracker's health input belongs to)."""


def linked(data: SystemData) -> list[str]:
    """The calculators a card links to, in order, once each (those the system has)."""
    health = tracker(data)["health"]["calculator"]
    return [name for name in dict.fromkeys((*LINKED, health)) if name in data.calculators]


def acting(fight: Mapping[str, Any]) -> str | None:
    """The id of the combatant whose turn it is, or None."""
    order, turn = fight["order"], fight["turn"]
    return order[turn]["id"] if fight["round"] > 0 and turn < len(order) else None


def attacker_inputs(data: SystemData, calculator: str) -> set[str]:
    """The inputs of `calculator` that belong to the attacker (its role, and the fighter's `also`)."""
    also = set((fighter.declaration(data) or {}).get("also") or [])
    decls = data.calculator(calculator)["inputs"]
    return {d["name"] for d in decls if d.get("role") == "attacker" or d["name"] in also}


def link(
    fight: Mapping[str, Any],
    target_id: str,
    calculator: str,
    data: SystemData,
    options: Mapping[str, Any],
    states: Mapping[str, str],
) -> dict[str, Any]:
    """One card's link to `calculator`: `{"inputs": {name: JSON value}, "given": [names],
    "attacker": name | None}` (every input given comes from the fight; the others are the
    calculator's defaults), or `{"problem": text}` when the target cannot be put to it."""
    by_id = {c["id"]: c for c in fight["combatants"]}
    who = acting(fight)
    attacker = who if who is not None and who != target_id and who in by_id else None
    try:
        got = fighter.inputs_for(fight, attacker or target_id, target_id, calculator, data, options, states)
    except InputError as err:
        return {"problem": err.reason}
    if attacker is None:
        own = attacker_inputs(data, calculator)
        got = {name: value for name, value in got.items() if name not in own}
    return {"inputs": got, "given": list(got), "attacker": by_id[attacker]["name"] if attacker else None}


def card_links(
    fight: Mapping[str, Any], data: SystemData, options: Mapping[str, Any], states: Mapping[str, str]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Every card's links: `{combatant id: {calculator: link}}`."""
    names = linked(data)
    return {
        c["id"]: {name: link(fight, c["id"], name, data, options, states) for name in names}
        for c in fight["combatants"]
    }
