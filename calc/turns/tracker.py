"""The encounter tracker's initiative: which dice a round needs and, from the rolls, the order of
that round, by each system's own procedure.

The tracker (a page) never orders anyone itself: it asks `dice_needed`, rolls those dice (or the
GM types the table's dice), and asks `turn_order`. This module is the dispatcher above the
systems: it checks the request and hands it to the system's engine, found through the one lookup
`calc.systems.engine(id)`, whose `TURNS` (the system's `calc.systems.<pkg>.turns`, typed by
`calc.systems.contract.Turns`) runs its procedure through that system's initiative calculator
(same engine, same data), so the tracker and the calculator cannot disagree. The helpers those
modules share are in `calc.turns.helpers`.

A combatant is `{"id", "name", "side": "pc" | "foe", …}` plus the fields of the initiative
calculator's combatant list that the system's `tracker:` declaration (calculators.yaml, exported
to calc/rules.json) names, under the same names. Other keys (hit points, conditions, …) are the
tracker's own and ignored here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.errors import InputError
from calc.inputs import data as data_mod
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import list_declaration, max_combatants, tracker

SIDES = ("pc", "foe")
ID_LIMIT = 60
"""Longest combatant id accepted (ids are the tracker's own keys, never shown)."""


def dice_needed(
    system_id: str,
    combatants: Any,
    round_no: Any,
    options: Mapping[str, Any] | None = None,
    rolls: Any = None,
) -> list[dict[str, Any]]:
    """The dice the table rolls for round `round_no`: `[{"key", "dice", "label", "rule", "url",
    "optional"}]`. When the system rolls initiative once for the encounter, a later round needs
    no dice (`[]`), except, given the `rolls` kept so far, the dice of combatants who joined
    since (their keys missing from `rolls`)."""
    data = data_mod.system(system_id)
    people = checked_combatants(data, combatants)
    number = checked_round(round_no)
    opts = checked_options(data, options)
    if rolls is not None and not isinstance(rolls, Mapping):
        raise InputError("rolls", "must be an object of dice keys to the numbers rolled")
    spec = tracker(data)
    needed = systems.engine(system_id).TURNS.dice_needed(people, number, data, opts)
    if spec["rolled"] == "once" and number > 1:
        return [e for e in needed if rolls is not None and e["key"] not in rolls]
    return needed


def turn_order(
    system_id: str, combatants: Any, rolls: Any, round_no: Any, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The round's order from concrete rolls: `{"turns": [{"id", "when", "rank", "why"}], "notes",
    "needs"}`. `rolls` maps each key of `dice_needed` (for a system that rolls once, round 1's
    keys, every round) to what its dice show (the face; a 2d6's sum), never a total with
    modifiers: the engine adds those; `needs` lists further dice (ties to re-roll) when the
    procedure cannot finish without them: roll those, add them to `rolls` and ask again."""
    data = data_mod.system(system_id)
    people = checked_combatants(data, combatants)
    number = checked_round(round_no)
    opts = checked_options(data, options)
    if not isinstance(rolls, Mapping):
        raise InputError("rolls", "must be an object of dice keys to the numbers rolled")
    answer = systems.engine(system_id).TURNS.turn_order(people, dict(rolls), number, data, opts)
    answer.setdefault("notes", [])
    answer.setdefault("needs", [])
    return answer


def checked_round(round_no: Any) -> int:
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise InputError("round", f"must be a round number, 1 or more (got {declared.shown(round_no)})")
    return round_no


def checked_combatants(data: SystemData, combatants: Any) -> list[dict[str, Any]]:
    """Each combatant as `{"id", "name", "side", <declared inputs typed, defaults filled>, "given"}`
    (`given`: the combatant as sent, for a system's own per-round keys such as phases' `acts_in`)."""
    spec = tracker(data)
    decl = list_declaration(data)
    if not isinstance(combatants, list) or not all(isinstance(c, Mapping) for c in combatants):
        raise InputError("combatants", "must be a list of combatants (objects with id, name and side)")
    hi = max_combatants(data)
    if not 1 <= len(combatants) <= hi:
        raise InputError("combatants", f"must have between 1 and {hi} combatants (got {len(combatants)})")
    fields = {f["name"]: f for f in decl["fields"]}
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, c in enumerate(combatants, start=1):
        where = f"combatants[{i}]"
        ident = c.get("id")
        if not isinstance(ident, str) or not ident.strip() or len(ident) > ID_LIMIT:
            raise InputError(f"{where}.id", f"must be a text of 1 to {ID_LIMIT} characters")
        if ident in seen:
            raise InputError(f"{where}.id", f"'{ident}' is already the id of another combatant")
        seen.add(ident)
        name = declared.value(
            fields.get("name", {"type": "text", "max_length": 40}), c.get("name", ident), f"{where}.name"
        )
        side = c.get("side")
        if side not in SIDES:
            raise InputError(f"{where}.side", f"must be pc or foe (got {declared.shown(side)})")
        person: dict[str, Any] = {"id": ident, "name": name or ident, "side": side, "given": c}
        for field in spec["inputs"]:
            person[field["name"]] = declared.value(field, c.get(field["name"]), f"{where}.{field['name']}")
        out.append(person)
    return out


def checked_options(data: SystemData, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The initiative calculator's other inputs (its rulings' readings), typed with defaults;
    list inputs and those the round itself sets (a system's `ROUND_INPUTS`, e.g. phases' phase)
    are not options."""
    spec = tracker(data)
    own = set(systems.engine(data.id).TURNS.ROUND_INPUTS)
    decls = [d for d in data.calculator(spec["calculator"])["inputs"] if d["type"] != "list" and d["name"] not in own]
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InputError("options", "must be an object of the initiative calculator's inputs")
    known = {d["name"] for d in decls}
    for key in options:
        if key not in known:
            raise InputError(f"options.{key}", f"is not an option here (options: {', '.join(sorted(known))})")
    return {d["name"]: declared.value(d, options.get(d["name"]), f"options.{d['name']}") for d in decls}
