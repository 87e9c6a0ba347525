"""The actions of a fight, each a pure function from the (checked) state and the action to the
new state: the roster, damage and healing by the system's rules, declarations, rulings, rounds
and turns (damage and healing also return the steps that say what the rules did).
`calc.fight.act` checks the request and picks the action by its `type`."""

from __future__ import annotations

from typing import Any

from calc.errors import InputError
from calc.fight import aim, economy, fled, resolve, rounds, rulings
from calc.fight import state as st
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import max_combatants

Fight = dict[str, Any]


def _find(fight: Fight, action: dict) -> tuple[int, dict[str, Any]]:
    ident = action.get("id")
    for i, c in enumerate(fight["combatants"]):
        if c["id"] == ident:
            return i, c
    raise InputError("action.id", f"no combatant has the id {declared.shown(ident)}")


def _with(fight: Fight, i: int, c: dict[str, Any]) -> Fight:
    people = list(fight["combatants"])
    people[i] = c
    return {**fight, "combatants": people}


def _amount(action: dict) -> int:
    amount = action.get("amount")
    if isinstance(amount, str) and amount.strip().isdigit() and amount.strip().isascii():
        amount = int(amount)
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= st.HEALTH_MAX:
        raise InputError(
            "action.amount", f"must be a whole number from 1 to {st.HEALTH_MAX} (got {declared.shown(amount)})"
        )
    return amount


def _unique_name(fight: Fight, name: str, ident: str | None) -> None:
    for c in fight["combatants"]:
        if c["id"] != ident and c["name"].lower() == name.lower():
            raise InputError("action.combatant.name", f"there is already a combatant called {c['name']}")


def add(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    most = max_combatants(data)
    if len(fight["combatants"]) >= most:
        raise InputError("action.combatant", f"a fight holds at most {most} combatants")
    raw = action.get("combatant")
    if not isinstance(raw, dict):
        raise InputError("action.combatant", "must be an object: name, side, max, values")
    n = fight["next_id"]
    ids = {c["id"] for c in fight["combatants"]}
    while f"c{n}" in ids:
        n += 1
    c = st.checked_combatant(data, {**raw, "id": f"c{n}"}, "action.combatant", rules)
    _unique_name(fight, c["name"], None)
    return {**fight, "combatants": [*fight["combatants"], c], "next_id": n + 1}


EDITABLE = ("name", "side", "max", "hp", "values", "tags")


def edit(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    i, old = _find(fight, action)
    changes = action.get("changes")
    if not isinstance(changes, dict):
        raise InputError("action.changes", f"must be an object of {', '.join(EDITABLE)}")
    for key in changes:
        if key not in EDITABLE:
            raise InputError(f"action.changes.{key}", f"cannot be changed (only {', '.join(EDITABLE)})")
    merged = {**old, **changes, "id": old["id"]}
    if "values" in changes and isinstance(changes["values"], dict):
        merged["values"] = {**old["values"], **changes["values"]}
    derived = "max" in changes and "hp" not in changes and isinstance(changes["max"], int)
    if derived:  # checked at full health, then the damage taken stays (down to the rules' floor)
        merged["hp"] = changes["max"]
    c = st.checked_combatant(data, merged, "action.changes", rules)
    if derived:
        c = {**c, "hp": max(rules.lowest(c, data), min(old["hp"] + c["max"] - old["max"], c["max"]))}
    _unique_name(fight, c["name"], old["id"])
    return _with(fight, i, c)


def remove(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    _, c = _find(fight, action)
    before = sum(1 for t in fight["order"][: fight["turn"]] if t["id"] == c["id"])
    order = [t for t in fight["order"] if t["id"] != c["id"]]
    rolls = {k: v for k, v in fight["rolls"].items() if not k.endswith(f":{c['id']}")}
    people = [x for x in fight["combatants"] if x["id"] != c["id"]]
    pending = fight["pending"]
    if pending is not None:
        pending = {**pending, "rolls": {k: v for k, v in pending["rolls"].items() if not k.endswith(f":{c['id']}")}}
    out = {
        **fight,
        "combatants": people,
        "order": order,
        "turn": min(fight["turn"] - before, len(order)),
        "rolls": rolls,
        "pending": pending,
    }
    return aim.removed(economy.removed(out, c["id"], before), c["id"])


def damage(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    i, c = _find(fight, action)
    critical = action.get("critical", False)
    if not isinstance(critical, bool):
        raise InputError("action.critical", "must be true or false")
    after, steps = rules.damage(c, _amount(action), data, options, critical, fight["round"])
    return _with(fight, i, after), steps


def heal(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    i, c = _find(fight, action)
    after, steps = rules.heal(c, _amount(action), data, options)
    return _with(fight, i, after), steps


def tag(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    i, c = _find(fight, action)
    text = st.checked_tags([action.get("tag")], "action.tag")[0]
    if text in c["tags"]:
        return fight
    return _with(fight, i, {**c, "tags": st.checked_tags([*c["tags"], text], "action.tag")})


def untag(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    i, c = _find(fight, action)
    if action.get("tag") not in c["tags"]:
        return fight
    return _with(fight, i, {**c, "tags": [t for t in c["tags"] if t != action.get("tag")]})


def declare(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    i, c = _find(fight, action)
    return _with(fight, i, rules.declare(c, action.get("declaration"), data))


def special(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    """A system's own action on one combatant; the acting combatant pays for it where the turn
    declares it (`by:`, calc/fight/economy.py `charged`: action-points' stabilize, a slow action)."""
    i, c = _find(fight, action)
    after = rules.special(action, c, data, options)
    paid, steps = economy.charged(fight, str(action.get("type")), data)
    return _with(paid, i, after), steps


def option(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    name = action.get("name")
    if not isinstance(name, str):
        raise InputError("action.name", "must name a ruling")
    stored = {**fight["options"], name: action.get("value")}
    return {**fight, "options": rulings.checked_options(data, stored, "action")}


def new(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    keep = action.get("keep_combatants", False)
    out = st.empty(data.id)
    out["options"] = fight["options"]
    if keep:
        out["combatants"] = [rules.fresh(c) for c in fight["combatants"]]
        out["next_id"] = fight["next_id"]
    return out


def _turned(before: Fight, after: Fight, data: SystemData) -> Fight:
    """`after`, and if its turn is another than `before`'s, that turn begun (nothing spent yet)."""
    if (after["round"], after["turn"]) == (before["round"], before["turn"]) and after["order"] == before["order"]:
        return after
    return economy.begin(after, data)


def next_round(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    return _turned(fight, rounds.next_round(fight, data, rules, options), data)


def roll(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    return rounds.record(fight, action.get("rolls"), data, rules, options)


def start_round(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    if fight["pending"] is None:
        raise InputError("action.type", "no round is being rolled: start one with next_round")
    return _turned(fight, rounds.start(fight, action.get("rolls"), data, rules, options), data)


def cancel_round(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    return {**fight, "pending": None}


def next_turn(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    if fight["turn"] >= len(fight["order"]):
        return fight
    return _turned(fight, {**fight, "turn": rounds.step(fight, fight["turn"], 1, data, rules, options)}, data)


def previous_turn(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    back = rounds.step(fight, min(fight["turn"], len(fight["order"])), -1, data, rules, options)
    return _turned(fight, {**fight, "turn": back}, data)


def take(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[Fight, list[dict]]:
    """The acting combatant takes one of its turn's actions that is no attack (`{"type": "act", "id",
    "kind", "roll"?}`: a move, a defense, a spell's progress), paid from what its turn holds; `roll`:
    the face of the die the action rolls (action-points' defense roll), held with it."""
    _, c = _find(fight, action)
    out, steps = economy.act(fight, c, action.get("kind"), data, action.get("roll"))
    if economy.entered(data, action.get("kind")) == "fled":  # segments' Flee: the taker leaves the fight
        out, fled_steps = fled.flee(out, {"id": c["id"]}, data, rules, options)
        steps = [*steps, *fled_steps]
    return out, steps


def view(fight: Fight, action: dict, data: SystemData, rules: Any, options: dict) -> Fight:
    return fight


ACTIONS = {
    "view": view,
    "new": new,
    "add": add,
    "edit": edit,
    "remove": remove,
    "damage": damage,
    "heal": heal,
    "tag": tag,
    "untag": untag,
    "declare": declare,
    "stabilize": special,
    "remove_wound": special,
    "flee": fled.flee,  # where the rules name a fled state (calc/fight/fled.py)
    "return": fled.come_back,
    "option": option,
    "next_round": next_round,
    "roll": roll,
    "start_round": start_round,
    "cancel_round": cancel_round,
    "next_turn": next_turn,
    "previous_turn": previous_turn,
    "act": take,  # a turn's action that is no attack, by its kind (calc/fight/economy.py)
    "attack": resolve.attack,  # the odds' Resolve: the roll decides by the hit rules (calc/fight/resolve.py)
}
