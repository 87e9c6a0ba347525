"""The tracker's Forecast panel asks the system's `forecast` calculator about the fight as it
stands: this builds that request from the fight's state, so the page sends it as it is.

Each combatant still in the fight is one fighter, PCs in `party`, foes in `foes`, in the fight's
order of combatants: its round-calculator inputs as `calc.fight.fighter.inputs_for` maps them
(its attack, its defenses, its CURRENT hit points and health state, character or NPC as the rules
treat it), every field of the forecast's list that the round calculator declares (its declared
default where the combatant holds none: the forecast's own defaults differ), the fields the
combatant carries under the same name (the initiative die and modifier), what it has spent this
round of a value held afresh each round (the fight rules' `ROUND_VALUES`: active-defense's
`reserves_spent`), and its name (made unique). A combatant the rules let no longer act (dead,
down, dying) is out of the fight and left out, named. The fight's rulings fill the forecast's
inputs of the same name. Mid-fight, the round's order and the current turn give the forecast's
`order` and `acted`: its first round is the rest of this round (`calc.forecast.rest_of_round`).
Past the forecast's limits (fighters per side, its state bound) `calc.evaluate` answers with the
typed error that says what to reduce: nothing is checked twice here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.fight import fighter
from calc.inputs import applies, declared
from calc.inputs.data import SystemData

CALCULATOR = "forecast"
SIDES = {"pc": "party", "foe": "foes"}


def _field_value(field: Mapping[str, Any], value: Any) -> Any:
    """A value as JSON under a list field's declaration (dice as text)."""
    return declared.to_json([dict(field)], {field["name"]: value})[field["name"]]


def fighter_entry(
    fight: Mapping[str, Any],
    c: Mapping[str, Any],
    fields: list[dict[str, Any]],
    data: SystemData,
    options: Mapping[str, Any],
    states: Mapping[str, str],
) -> dict[str, Any]:
    """One combatant as an entry of the forecast's `party` or `foes` list."""
    spec = fighter.declaration(data) or {}
    calculator = str(spec.get("calculator", "round"))
    own = fighter.inputs_for(fight, c["id"], c["id"], calculator, data, options, states)
    spent_of = {key: held for held, key, _ in systems.engine(data.id).FIGHT.ROUND_VALUES}
    inputs_by_name = {d["name"]: d for d in data.calculator(calculator)["inputs"]}
    entry: dict[str, Any] = {}
    for field in fields:
        name = field["name"]
        if name in own:
            entry[name] = own[name]
        elif name in inputs_by_name:
            decl = inputs_by_name[name]
            entry[name] = declared.to_json([decl], {name: declared.value(decl, None, name)})[name]
        elif name in c["values"]:
            entry[name] = _field_value(field, c["values"][name])
        elif name in spent_of:  # spent this round (active-defense's reserves): the rest of it starts less these
            entry[name] = int(c.get(name, 0))
    for field in fields:  # a field that does not apply to this fighter (phases' Morale on a character) is not sent
        if field["name"] in entry and not applies.holds(field, entry):
            del entry[field["name"]]
    for key, held in spent_of.items():  # no more than it holds now (its value edited since: as the card reads it)
        if key in entry and held in entry:
            entry[key] = min(entry[key], int(entry[held]))
    return entry


def unique_names(names: list[str], most: int | None) -> list[str]:
    """Names as given, the second "Orc" and on numbered ("Orc (2)"), each within `most` characters."""
    seen: set[str] = set()
    out = []
    for name in names:
        base = name[:most] if most else name
        candidate, n = base, 1
        while candidate.casefold() in seen:
            n += 1
            tail = f" ({n})"
            candidate = (base[: most - len(tail)] if most else base) + tail
        seen.add(candidate.casefold())
        out.append(candidate)
    return out


def forecast_request(
    fight: Mapping[str, Any],
    data: SystemData,
    options: Mapping[str, Any],
    health: Mapping[str, Mapping[str, Any]],
) -> dict[str, Any] | None:
    """`{"request": {"system", "calculator": "forecast", "inputs"}, "left_out": [{"name",
    "state"}]}` for `fight` (None when the system has no forecast calculator). `health`: each
    combatant's health by id as the fight's rules work it out (`state`, `acts`)."""
    if CALCULATOR not in data.calculators or fighter.declaration(data) is None:
        return None
    decls = {d["name"]: d for d in data.calculator(CALCULATOR)["inputs"]}
    states = {ident: h["state"] for ident, h in health.items()}
    lists: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES.values()}
    names: dict[str, list[str]] = {side: [] for side in SIDES.values()}
    ids: dict[str, list[str]] = {side: [] for side in SIDES.values()}
    left_out = []
    for c in fight["combatants"]:
        h = health[c["id"]]
        if not h["acts"]:
            left_out.append({"name": c["name"], "state": h["state"]})
            continue
        side = SIDES[c["side"]]
        fields = decls[side]["fields"]
        lists[side].append(fighter_entry(fight, c, fields, data, options, states))
        names[side].append(c["name"])
        ids[side].append(c["id"])
    most = next((f.get("max_length") for f in decls["party"]["fields"] if f["name"] == "name"), None)
    every = unique_names(names["party"] + names["foes"], most)
    for side, offset in (("party", 0), ("foes", len(names["party"]))):
        for i, entry in enumerate(lists[side]):
            lists[side][i] = {"name": every[offset + i], **entry}
    chosen = {
        name: declared.to_json([d], {name: options[name]})[name]
        for name, d in decls.items()
        if d["type"] != "list" and name in options
    }
    named = dict(zip(ids["party"] + ids["foes"], every, strict=True))
    mid = mid_round(fight, named) if {"order", "acted"} <= decls.keys() else {}
    if mid and "round_reached" in decls:  # the rest of round 1 keeps the first round's own rules
        mid["round_reached"] = min(fight["round"], decls["round_reached"]["max"])
    request = {"system": data.id, "calculator": CALCULATOR, "inputs": {**lists, **chosen, **mid}}
    return {"request": request, "left_out": left_out}


def mid_round(fight: Mapping[str, Any], named: Mapping[str, str]) -> dict[str, Any]:
    """The forecast's `order` and `acted` from the round the tracker stands in: every fighter by
    its turn in this round's order (a combatant in several turns, phases', at its last; one whose
    turns carry their share of its attacks, segments' multi-attacker, at its first: the forecast
    keeps the rest of its routines at their place after LOW), those before the current turn having
    acted; a fighter with no turn this round (added since) last. Nothing before the first round is
    rolled: the forecast starts from a fresh round."""
    if not fight["round"] or not fight["order"]:
        return {}
    at: dict[str, int] = {}
    for i, t in enumerate(fight["order"]):
        if t["id"] in named and not (t.get("inputs") and t["id"] in at):
            at[t["id"]] = i
    ranked = sorted(named, key=lambda ident: at.get(ident, len(fight["order"])))
    acted = sum(1 for ident in ranked if at.get(ident, len(fight["order"])) < fight["turn"])
    return {"order": [{"name": named[ident]} for ident in ranked], "acted": acted}
