"""The tracker cards' calculator links ("Hit chance vs Ogre", "Damage per round vs Ogre") carry the
whole question: the acting combatant's attacker inputs and the card's combatant as the target, its
current hit points and state, character or NPC as the rules treat them. The inputs are
`calc.fight.fighter.inputs_for`'s (the one mapping from combatants to a calculator's inputs), put
in the fight's view, so the page builds no input in JavaScript; it writes them into the link's
query with the names they came from (`from=tracker:<names>`), and the calculator page says so.

No one acting (before the first round, after the last turn) or the card of the one acting: the
link carries the target's side of the question only. A target the calculator cannot take as it
stands (hit points outside its input's range, or any input the calculator refuses:
`fighter.refusal`) gets no link but the reason."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc.errors import InputError
from calc.fight import fighter
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

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


def _entry(got: dict[str, Any] | InputError, attacker: str | None, own: set[str]) -> dict[str, Any]:
    """A link from `inputs_for`'s answer (or its refusal); without an attacker, the target's side."""
    if isinstance(got, InputError):
        return {"problem": got.reason}
    if attacker is None:
        got = {name: value for name, value in got.items() if name not in own}
    return {"inputs": got, "given": list(got), "attacker": attacker}


def known(odds: Mapping[str, Any] | None, data: SystemData) -> dict[str, dict[str, dict[str, Any] | InputError]]:
    """The round calculator's inputs the view's odds (`fighter.odds`) already worked out for the
    acting combatant against each target, by calculator and target id: not asked twice."""
    spec = fighter.declaration(data)
    if not odds or spec is None:
        return {}
    got: dict[str, dict[str, Any] | InputError] = {}
    for t in odds["targets"]:
        if "request" in t:
            got[t["id"]] = t["request"]["inputs"]
        else:
            got[t["id"]] = InputError(t["error"]["input"], t["error"]["message"])
    return {str(spec["calculator"]): got}


def card_links(
    fight: Mapping[str, Any],
    data: SystemData,
    options: Mapping[str, Any],
    states: Mapping[str, str],
    done: Mapping[str, Mapping[str, dict[str, Any] | InputError]] | None = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Every card's links, `{combatant id: {calculator: link}}`; a link is `{"inputs": {name: JSON
    value}, "given": [names], "attacker": name | None}` (every input given comes from the fight;
    the others are the calculator's defaults), or `{"problem": text}` when the target cannot be
    put to that calculator as it stands. `done`: inputs already worked out for the one acting
    (`known`), by calculator and target id."""
    ids = [c["id"] for c in fight["combatants"]]
    who = acting(fight)
    who = who if who in ids else None
    name = next((c["name"] for c in fight["combatants"] if c["id"] == who), None)
    out: dict[str, dict[str, dict[str, Any]]] = {ident: {} for ident in ids}
    for calculator in linked(data):
        own = attacker_inputs(data, calculator)
        if who is not None:  # the one acting against every other card, its own part worked out once
            others = [ident for ident in ids if ident != who]
            asked = (done or {}).get(calculator)
            if asked is None or set(asked) != set(others):
                asked = fighter.inputs_for_targets(fight, who, others, calculator, data, options, states)
            for ident, got in asked.items():
                out[ident][calculator] = _entry(fighter.accepted(data, calculator, got), name, own)
        for ident in ids if who is None else [who]:
            try:
                got: dict[str, Any] | InputError = fighter.inputs_for(
                    fight, ident, ident, calculator, data, options, states
                )
            except InputError as err:
                got = err
            if not isinstance(got, InputError):  # the link opens with the attacker's side at its defaults
                got = fighter.refusal(data, calculator, {k: v for k, v in got.items() if k not in own}) or got
            out[ident][calculator] = _entry(got, None, own)
    return out
