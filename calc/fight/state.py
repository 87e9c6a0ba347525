"""The fight's state as plain JSON, checked on every request: the encounter tracker keeps it (and
an undo stack of it) in the browser and sends it with each action; nothing else is remembered.

What a combatant carries is the system's `tracker:` declaration (calc/rules.json): the
initiative fields, defenses and status inputs, each read by `calc.inputs.declared.value` (the one meaning
of a declaration: limits, choices, defaults), and a field whose `when:` does not hold is not
read (`calc.inputs.applies.holds`). Rulings are the initiative calculator's options and the tracker's
`rulings:`, kept only when they differ from the data's default.

A state that cannot be read whole is an error naming the field (`combatants[2].die`); `load`
reads a saved state leniently instead: what can be read is kept and the rest is named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from calc.errors import CalcError, InputError
from calc.fight import aim, economy, fighter, rounds, rulings
from calc.inputs import applies, declared
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.turns import tracker as turns_mod
from calc.turns.helpers import max_combatants, tracker

FORMAT = "cc-fight"
VERSION = 2
NAME_MAX = 40
TAG_MAX = 30
MAX_TAGS = 12
HEALTH_MAX = 100000
ID_LIMIT = turns_mod.ID_LIMIT
SIDES = turns_mod.SIDES
TURN_INPUT_MAX = 99
"""The most a turn's share of its combatant's attacks can be (segments' routines: 1 or 2)."""
MAX_ORDER = 400
"""Entries of a round's order a saved state may hold (phases: a combatant in up to five phases)."""
TEXT_MAX = 500


def empty(system_id: str) -> dict[str, Any]:
    """A new fight: no round yet, nobody in it."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": system_id,
        "round": 0,
        "turn": 0,
        "order": [],
        "notes": [],
        "rolls": {},
        "pending": None,
        "options": {},
        "combatants": [],
        "next_id": 1,
        "spent": None,
        "held": {},
        "last_target": {},
    }


_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")
"""A whole number as a form sends it: one sign at most, ASCII digits (`int` would take "٣" and "1_0")."""


def fields(data: SystemData) -> list[dict[str, Any]]:
    """The declarations of what a combatant carries besides id, name, side and hit points: the
    initiative fields, then the defenses and status inputs (first declaration of a name wins)."""
    return rulings.cached("fields", data, _fields)


def _fields(data: SystemData) -> list[dict[str, Any]]:
    spec = tracker(data)
    out: dict[str, dict[str, Any]] = {}
    for decl in [*spec["inputs"], *spec.get("defenses", []), *spec.get("status", [])]:
        out.setdefault(decl["name"], {k: v for k, v in decl.items() if k not in ("calculator", "input")})
    return list(out.values())


def _whole(raw: Any, where: str, low: int, high: int) -> int:
    if isinstance(raw, str) and _WHOLE_TEXT.fullmatch(raw.strip()) and len(raw) < 12:
        raw = int(raw.strip())  # a number typed in a form, sent as its text
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InputError(where, f"must be a whole number from {low} to {high} (got {declared.shown(raw)})")
    return raw


def _text(raw: Any, where: str, most: int) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw.strip()) > most:
        raise InputError(where, f"must be a text of 1 to {most} characters (got {declared.shown(raw)})")
    return raw.strip()


def checked_values(data: SystemData, raw: Any, where: str) -> dict[str, Any]:
    """A combatant's declared fields, typed, defaults filled; a field whose `when:` does not hold
    among them keeps its default (it does not apply). The fighter's inputs (`calc.fight.fighter`)
    are kept only when given, as JSON."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be an object of the combatant's fields")
    decls = fields(data)
    known = {d["name"] for d in decls}
    fighting = {d["name"] for d in fighter.carried(data)} - known
    for key in raw:
        if key not in known and key not in fighting:
            everything = sorted(known | fighting)
            raise InputError(f"{where}.{key}", f"is no field of a combatant here (fields: {', '.join(everything)})")
    out = {d["name"]: declared.value(d, raw.get(d["name"]), f"{where}.{d['name']}") for d in decls}
    for d in decls:
        if "when" in d and not applies.holds(d, out):
            out[d["name"]] = declared.value(d, None, f"{where}.{d['name']}")
    # the round calculator's attacker and target inputs it carries as a fighter, when given
    out.update(fighter.checked_values(data, raw, known, where))
    return out


def checked_tags(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_TAGS:
        raise InputError(where, f"must be a list of at most {MAX_TAGS} conditions")
    return list(dict.fromkeys(_text(t, f"{where}[{i + 1}]", TAG_MAX) for i, t in enumerate(raw)))


def checked_combatant(data: SystemData, raw: Any, where: str, rules: Any) -> dict[str, Any]:
    """One combatant, typed: `{id, name, side, max, hp, values, tags}` and the system's own keys
    (`rules.check_extra`)."""
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be an object (a combatant)")
    ident = raw.get("id")
    if not isinstance(ident, str) or not ident.strip() or len(ident) > ID_LIMIT:
        raise InputError(f"{where}.id", f"must be a text of 1 to {ID_LIMIT} characters")
    side = raw.get("side")
    if side not in SIDES:
        raise InputError(f"{where}.side", f"must be pc or foe (got {declared.shown(side)})")
    top = _whole(raw.get("max"), f"{where}.max", 1, HEALTH_MAX)
    out: dict[str, Any] = {
        "id": ident,
        "name": _text(raw.get("name"), f"{where}.name", NAME_MAX),
        "side": side,
        "max": top,
        "hp": _whole(raw.get("hp", top), f"{where}.hp", -HEALTH_MAX, top),
        "values": checked_values(data, _with_side(rules.side_values(side), raw.get("values")), f"{where}.values"),
        "tags": checked_tags(raw.get("tags"), f"{where}.tags"),
    }
    out.update(rules.check_extra(raw, where, data))
    low = rules.lowest(out, data)
    if out["hp"] < low:
        raise InputError(
            f"{where}.hp",
            f"must be from {low} to {top}: {low} is the lowest hit points the rules count (got {out['hp']})",
        )
    return out


def _with_side(defaults: dict[str, Any], given: Any) -> Any:
    """The given values over the side's own defaults (phases: a PC is a character)."""
    return {**defaults, **given} if isinstance(given, Mapping) else (defaults if given is None else given)


def _steps(raw: Any) -> list[dict[str, str]]:
    """Reasons kept from an answer (`[{rule, title, url, text}]`), as plain short strings."""
    if not isinstance(raw, list):
        return []
    keys = ("rule", "title", "url", "text")
    return [{k: _plain(s.get(k, ""), TEXT_MAX) for k in keys} for s in raw[:50] if isinstance(s, Mapping)]


def _plain(raw: Any, most: int) -> str:
    """A saved text as a short plain string: a number as its digits, anything else described
    (`str` of a tampered list or of a number past 4,300 digits would raise or run long)."""
    if isinstance(raw, str):
        return raw[:most]
    text = str(raw) if isinstance(raw, float | bool) or raw is None else declared.shown(raw)
    return text[:most]


def _rolls(raw: Any, where: str) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or len(raw) > 4 * MAX_ORDER:
        raise InputError(where, "must be an object of dice keys to the faces rolled")
    out = {}
    for key, value in raw.items():
        if not isinstance(key, str) or len(key) > 2 * ID_LIMIT:
            raise InputError(where, "has a key that is no dice key")
        out[key] = _whole(value, f"{where}.{key}", -HEALTH_MAX, HEALTH_MAX)
    return out


def checked(data: SystemData, raw: Any, rules: Any, lenient: bool = False) -> tuple[dict[str, Any], list[dict]]:
    """The state as the engine works on it, and (lenient) what was left out: `[{"input", "message"}]`.
    Strict: the first problem is an `InputError` naming its field."""
    if not isinstance(raw, Mapping) or raw.get("format") != FORMAT:
        raise InputError("state", f"is not a fight (a JSON object of format {FORMAT!r})")
    if raw.get("version") != VERSION:
        raise InputError(
            "state.version", f"this engine reads version {VERSION} (got {declared.shown(raw.get('version'))})"
        )
    if raw.get("system") != data.id:
        raise InputError("state.system", f"this fight is for {declared.shown(raw.get('system'))}, not {data.id}")
    dropped: list[dict] = []

    def keep(where: str, read: Any, fallback: Any) -> Any:
        try:
            return read()
        except CalcError as err:
            if not lenient:
                raise
            dropped.append({"input": err.input or where, "message": err.reason})
            return fallback

    state = empty(data.id)
    people = raw.get("combatants")
    most = max_combatants(data)
    if not isinstance(people, list) or len(people) > most:
        raise InputError("combatants", f"must be a list of at most {most} combatants")
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for i, c in enumerate(people, start=1):
        where = f"combatants[{i}]"
        person = keep(where, lambda c=c, where=where: checked_combatant(data, c, where, rules), None)
        if person is None:
            continue
        if person["id"] in seen_ids or person["name"].lower() in seen_names:
            what = "id" if person["id"] in seen_ids else "name"
            keep(where, lambda w=where, k=what: _raise(f"{w}.{k}", f"is the {k} of another combatant"), None)
            continue
        seen_ids.add(person["id"])
        seen_names.add(person["name"].lower())
        state["combatants"].append(person)
    state["options"] = keep("options", lambda: rulings.checked_options(data, raw.get("options")), {})
    state["round"] = keep("round", lambda: _whole(raw.get("round", 0), "round", 0, HEALTH_MAX), 0)
    state["rolls"] = keep("rolls", lambda: _rolls(raw.get("rolls"), "rolls"), {})
    state["next_id"] = keep("next_id", lambda: _whole(raw.get("next_id", 1), "next_id", 1, 10**9), 1)
    order = raw.get("order") or []
    shares = _turn_input_names(data)
    phases = _phase_ids(data, rules, state["combatants"])
    if not isinstance(order, list) or len(order) > MAX_ORDER:
        keep("order", lambda: _raise("order", f"must be a list of at most {MAX_ORDER} turns"), None)
        order = []
    for i, t in enumerate(order, start=1):
        entry = keep(f"order[{i}]", lambda t=t, i=i: _turn(t, f"order[{i}]", seen_ids, shares, phases), None)
        if entry is not None:
            state["order"].append(entry)
    state["turn"] = keep("turn", lambda: _whole(raw.get("turn", 0), "turn", 0, len(state["order"])), 0)
    state["notes"] = _steps(raw.get("notes"))
    state["pending"] = keep("pending", lambda: _pending(raw.get("pending")), None)
    _hold_faces(state, data, rules, keep)
    people = state["combatants"]
    state["held"] = keep("held", lambda: economy.checked_held(raw.get("held"), data, people), {})
    state["spent"] = keep("spent", lambda: economy.checked_spent(raw.get("spent"), data, people), None)
    state["last_target"] = keep("last_target", lambda: aim.checked(raw.get("last_target"), people), {})
    return state, dropped


def _hold_faces(state: dict[str, Any], data: SystemData, rules: Any, keep: Any) -> None:
    """Every saved face within what its die shows (a d6 kept at 2000 is a state no roll reaches):
    kept rolls and the pending round's, each by its dice entry (`calc.fight.rounds.saved_dice`);
    `keep` drops (lenient) or refuses (strict) one that is not."""
    entries = rounds.saved_dice(state, data, rules, rulings.typed_options(data, state["options"]))
    if not entries:
        return  # nobody rolls: no die to hold a face to (a roster emptied after its rolls)
    ranges = {key: (*rounds.face_range(e), e["dice"]) for key, e in entries.items()}
    widest = (min(r[0] for r in ranges.values()), max(r[1] for r in ranges.values()), "any die of the round")

    def held(rolls: dict[str, int], where: str) -> dict[str, int]:
        out = {}
        for key, face in rolls.items():
            low, high, dice_text = ranges.get(key, widest)
            if low <= face <= high:
                out[key] = face
            else:
                why = f"{dice_text} shows {low} to {high} (got {face})"
                keep(f"{where}.{key}", lambda w=f"{where}.{key}", r=why: _raise(w, r), None)
        return out

    state["rolls"] = held(state["rolls"], "rolls")
    if state["pending"] is not None:
        state["pending"] = {**state["pending"], "rolls": held(state["pending"]["rolls"], "pending.rolls")}


def _raise(where: str, reason: str) -> Any:
    raise InputError(where, reason)


def _turn_input_names(data: SystemData) -> set[str]:
    """The inputs a turn of this system may carry over its combatant's (`TURN_INPUT` of its turns
    module: segments' routines), none elsewhere."""
    name = getattr(turns_mod.systems.engine(data.id).TURNS, "TURN_INPUT", None)
    return {name} if name else set()


def _phase_ids(data: SystemData, rules: Any, people: list[dict[str, Any]]) -> set[str] | None:
    """The phases a turn of this system's rounds is in (the data's `phases` table), or None: its
    rounds have no phases (the rules say so of a combatant: `acts_in` is None)."""
    if not people or rules.acts_in(people[0], data) is None:
        return None
    return {row["id"] for row in data.table("phases")}


def _turn(raw: Any, where: str, ids: set[str], shares: set[str], phases: set[str] | None) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or raw["id"] not in ids:
        raise InputError(f"{where}.id", "names no combatant of the fight")
    entry = {
        "id": raw["id"],
        "when": _plain(raw.get("when", ""), TEXT_MAX),
        "rank": _whole(raw.get("rank", 1), f"{where}.rank", 1, MAX_ORDER),
        "why": _steps(raw.get("why")),
    }
    phase = raw.get("phase")
    if phases is None and phase is not None:
        raise InputError(f"{where}.phase", "names a phase: this system's rounds have none")
    if phases is not None:  # every turn in one of the round's phases, or the view cannot place it
        if not isinstance(phase, str) or phase not in phases:
            raise InputError(f"{where}.phase", f"must be one of the phases ({', '.join(sorted(phases))})")
        entry["phase"] = phase
    if raw.get("inputs"):
        entry["inputs"] = _turn_inputs(raw["inputs"], f"{where}.inputs", shares)
    return entry


def _turn_inputs(raw: Any, where: str, shares: set[str]) -> dict[str, int]:
    """The values one turn carries over its combatant's (segments: the routines of a multi-attacker's
    turn): small whole numbers under the names the system allows; the calculator checks them when
    asked."""
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be an object of input names to whole numbers")
    out = {}
    for k, v in raw.items():
        if k not in shares:
            allowed = ", ".join(sorted(shares)) or "none here"
            raise InputError(where, f"{declared.shown(k)} is no input a turn carries (allowed: {allowed})")
        out[k] = _whole(v, f"{where}.{k}", 0, TURN_INPUT_MAX)
    return out


def _pending(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InputError("pending", "must be the round being rolled, or null")
    needs = raw.get("needs") or []
    if not isinstance(needs, list) or len(needs) > MAX_ORDER:
        raise InputError("pending.needs", "must be the list of dice to re-roll")
    return {
        "round": _whole(raw.get("round"), "pending.round", 1, HEALTH_MAX),
        "rolls": _rolls(raw.get("rolls"), "pending.rolls"),
        "needs": [_die(n, f"pending.needs[{i + 1}]") for i, n in enumerate(needs)],
    }


def _die(raw: Any, where: str) -> dict[str, Any]:
    """A dice entry kept in a state (a tie's re-roll): plain short texts, dice the parser reads."""
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be a dice entry")
    out: dict[str, Any] = {k: _plain(raw.get(k, ""), TEXT_MAX) for k in ("key", "dice", "label", "rule", "url")}
    if not out["key"] or len(out["key"]) > 2 * ID_LIMIT:
        raise InputError(f"{where}.key", "must be a dice key")
    dice.parse(out["dice"], f"{where}.dice")
    out["optional"] = raw.get("optional") is True
    return out
