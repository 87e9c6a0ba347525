"""Rounds and turns of a fight: which dice a round needs (initiative by `calc.turns.tracker`, and the
system's own round dice such as a dying check), the round's order from the faces, and whose turn
comes next: the next in the order whom the rules still let act (the Down, Dying, Unconscious and
Dead keep their place in the list, and act again once healed).

Who rolls: in a system that rolls every round, those who may act as the round starts (and, in
phases, only in the phases they declared); in one that rolls once, everyone still without a roll
who may act. The order of a once-rolled system keeps everyone who has a roll, so that one who is
healed mid-round takes the turn the roll gives."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from calc.errors import InputError
from calc.fight import rulings
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.turns import tracker as turns
from calc.turns.helpers import tracker


def _people(fight: dict, data: SystemData, rules: Any, options: dict, round_no: int) -> list[dict[str, Any]]:
    """The combatants `calc.turns.tracker` orders this round, as it takes them."""
    once = tracker(data)["rolled"] == "once"
    out = []
    for c in fight["combatants"]:
        acts = rules.health(c, data, options)["acts"]
        if once and round_no > 1:
            has_roll = any(k.endswith(f":{c['id']}") for k in fight["rolls"])
            if not (acts or has_roll):
                continue
        elif not acts:
            continue
        out.append(_person(c, data, rules))
    return out


def _person(c: dict[str, Any], data: SystemData, rules: Any) -> dict[str, Any]:
    """One combatant as `calc.turns.tracker` takes it."""
    person = {"id": c["id"], "name": c["name"], "side": c["side"], **c["values"]}
    phases = rules.acts_in(c, data)
    if phases is not None:
        person["acts_in"] = phases
    return person


def saved_dice(fight: dict, data: SystemData, rules: Any, options: dict) -> dict[str, dict[str, Any]]:
    """The dice entries a state's saved faces were rolled on, by key: each combatant's initiative
    dice of a first round (acting or not), and the pending round's dice and re-rolls. A face
    under another key (a tie's re-roll kept with the round's rolls, a die no longer asked for)
    is held to the least and most any of these dice show (`calc.fight.state.checked`)."""
    people = [_person(c, data, rules) for c in fight["combatants"]]
    listed = turns.dice_needed(data.id, people, 1, rulings.initiative_options(data, options)) if people else []
    if fight["pending"] is not None:
        listed += [*round_dice(fight, data, rules, options), *fight["pending"]["needs"]]
    return {e["key"]: e for e in listed}


def round_dice(fight: dict, data: SystemData, rules: Any, options: dict) -> list[dict[str, Any]]:
    """The dice the pending round needs before its order (initiative, then the system's own);
    asked again within one request (the roll, then the view), answered once."""
    memo = getattr(rules, "memo", None)
    if memo is None:
        return _round_dice(fight, data, rules, options)
    deps = (fight["combatants"], fight["rolls"], options, fight["pending"]["round"])
    key = ("round_dice", *(id(d) for d in deps[:3]), deps[3])
    if key not in memo:
        memo[key] = (_round_dice(fight, data, rules, options), deps)
    return list(memo[key][0])


def _initiative_dice(fight: dict, data: SystemData, rules: Any, options: dict) -> list[dict[str, Any]]:
    """The initiative dice of the pending round for the combatants as `fight` holds them."""
    number = fight["pending"]["round"]
    people = _people(fight, data, rules, options, number)
    if not people:
        return []
    kept = fight["rolls"] if tracker(data)["rolled"] == "once" else None
    return turns.dice_needed(data.id, people, number, rulings.initiative_options(data, options), kept)


def _round_dice(fight: dict, data: SystemData, rules: Any, options: dict) -> list[dict[str, Any]]:
    number = fight["pending"]["round"]
    needed = _initiative_dice(fight, data, rules, options)
    for c in fight["combatants"]:
        needed += rules.round_dice(c, data, options)
    due = rules.due_dice(fight["combatants"], number, data, options)
    return [{**e, "optional": False, "due": due[e["key"]]} if e["key"] in due else e for e in needed]


def face_range(entry: dict[str, Any]) -> tuple[int, int]:
    """What a dice entry's dice can show (the sum of several), by the one dice parser."""
    return _shape_of(entry["dice"])[2:]


@lru_cache(maxsize=64)
def _shape_of(text: str) -> tuple[int, int, int, int]:
    """(count, sides, least, most) of dice text such as "2d6" (a handful of texts, each once)."""
    expr = dice.parse(text, "dice")
    return expr.terms[0].count, expr.terms[0].sides, expr.min, expr.max


def record(fight: dict, rolls: Any, data: SystemData, rules: Any, options: dict) -> dict[str, Any]:
    """The pending round with `rolls` added, each checked against its dice (`None` clears one)."""
    if fight["pending"] is None:
        raise InputError("action.type", "no round is being rolled: start one with next_round")
    if rolls is None:
        return fight
    if not isinstance(rolls, dict):
        raise InputError("action.rolls", "must be an object of dice keys to the faces rolled")
    entries = {e["key"]: e for e in [*round_dice(fight, data, rules, options), *fight["pending"]["needs"]]}
    merged = dict(fight["pending"]["rolls"])
    for key, value in rolls.items():
        if key not in entries:
            raise InputError(f"action.rolls.{key}", "is no die this round needs")
        low, high = face_range(entries[key])
        if value is None:
            merged.pop(key, None)
            continue
        if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"action.rolls.{key}", f"{entries[key]['dice']} shows {low} to {high} (got {value!r})")
        merged[key] = value
    return {**fight, "pending": {**fight["pending"], "rolls": merged}}


def _all_rolls(fight: dict, data: SystemData) -> dict[str, int]:
    kept = fight["rolls"] if tracker(data)["rolled"] == "once" else {}
    return {**kept, **fight["pending"]["rolls"]}


def _order(fight: dict, data: SystemData, rules: Any, options: dict) -> dict[str, Any] | None:
    """The pending round's order from its rolls, or None when nobody may act."""
    number = fight["pending"]["round"]
    people = _people(fight, data, rules, options, number)
    if not people:
        return None
    rolls = _all_rolls(fight, data)
    return turns.turn_order(data.id, people, rolls, number, rulings.initiative_options(data, options))


def pending_dice(fight: dict, data: SystemData, rules: Any, options: dict) -> list[dict]:
    """Every die of the pending round (and the re-rolls a start asked for), with its face when
    known (`value`)."""
    rolls = _all_rolls(fight, data)
    listed = [*round_dice(fight, data, rules, options), *fight["pending"]["needs"]]
    return [{**e, **_shape(e), "value": rolls.get(e["key"])} for e in listed]


def _shape(entry: dict[str, Any]) -> dict[str, int]:
    """How many dice of how many sides, and what they can show: the page rolls from these and
    never parses dice text itself."""
    count, sides, low, high = _shape_of(entry["dice"])
    return {"count": count, "sides": sides, "min": low, "max": high}


def next_round(fight: dict, data: SystemData, rules: Any, options: dict) -> dict[str, Any]:
    """Ask the next round's dice; a round that needs none starts at once."""
    if not fight["combatants"]:
        raise InputError("combatants", "add combatants before the first round")
    if fight["pending"] is not None:
        raise InputError("action.type", "a round is being rolled: start it (start_round) or cancel it first")
    out = {**fight, "pending": {"round": fight["round"] + 1, "rolls": {}, "needs": []}}
    if not pending_dice(out, data, rules, options):
        return start(out, None, data, rules, options)
    return out


def start(fight: dict, rolls: Any, data: SystemData, rules: Any, options: dict) -> dict[str, Any]:
    """Start the pending round: every die in, the order computed, the round's own rules applied
        (dying checks, Wounds that end), the turn at the first who acts. While the procedure asks for
    more dice (ties to re-roll), the round stays pending with the rolls recorded."""
    fight = record(fight, rolls, data, rules, options)
    given = _all_rolls(fight, data)
    missing = [e for e in round_dice(fight, data, rules, options) if not e["optional"] and e["key"] not in given]
    if missing:
        raise InputError(f"rolls.{missing[0]['key']}", f"is missing: roll {missing[0]['label']}")
    number = fight["pending"]["round"]
    notes: list[dict] = []
    people = []
    for c in fight["combatants"]:
        c2, steps = rules.start_round(c, given, number, data, options)
        people.append(c2)
        notes += steps
    # One whom the round's start lets act again (a Wound that ends) rolls too: the round stays
    # pending and asks for that die, as for a tie's re-roll.
    asked = {e["key"] for e in fight["pending"]["needs"]}
    late = [
        e
        for e in _initiative_dice({**fight, "combatants": people}, data, rules, options)
        if not e["optional"] and e["key"] not in given and e["key"] not in asked
    ]
    if late:
        return {**fight, "pending": {**fight["pending"], "needs": [*fight["pending"]["needs"], *late]}}
    answer = _order({**fight, "combatants": people}, data, rules, options)
    if answer and any(e["key"] not in given for e in answer["needs"]):
        # ties to re-roll first: the round stays pending, and its view lists those dice too
        return {**fight, "pending": {**fight["pending"], "needs": answer["needs"]}}
    kept_keys = ("id", "when", "rank", "why", "phase", "inputs")
    order = [{k: t[k] for k in kept_keys if k in t} for t in (answer or {}).get("turns", [])]
    kept = {k: v for k, v in given.items() if not _round_only(k)} if tracker(data)["rolled"] == "once" else given
    started = {
        **fight,
        "combatants": people,
        "round": number,
        "order": order,
        "notes": [*notes, *(answer or {}).get("notes", [])],
        "rolls": kept,
        "pending": None,
        "turn": 0,
    }
    return {**started, "turn": step(started, 0, 1, data, rules, options, inclusive=True)}


def _round_only(key: str) -> bool:
    """Dice of one round only, never kept for the next (dying checks)."""
    return key.startswith("dying:")


def step(
    fight: dict, at: int, direction: int, data: SystemData, rules: Any, options: dict, inclusive: bool = False
) -> int:
    """The index of the next (direction 1) or previous (-1) entry from `at` whose combatant may
    act; past the end: len(order) (the round is over); before the start: `at` itself."""
    by_id = {c["id"]: c for c in fight["combatants"]}
    i = at if inclusive else at + direction
    while 0 <= i < len(fight["order"]):
        c = by_id.get(fight["order"][i]["id"])
        if c is not None and rules.health(c, data, options)["acts"]:
            return i
        i += direction
    return len(fight["order"]) if direction > 0 else at
