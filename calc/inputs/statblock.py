"""Read pasted stat blocks into fighters, by the grammar a system declares in its data.

A system's `rules_data/<system>/statblock.yaml` (exported as `systems[id].statblock`) lists the
fields its rules use, each with the labels adventures print for it (before the value, "AC 5", or
after it, "4+4 HD"), the kind of value it takes and the calculator inputs it fills. This module
knows only the kinds of value (`KINDS`); nothing here names a system. Pure: the hit points rolled
from hit dice come in as `rolls` (the browser draws them with crypto.getRandomValues), so the same
text and rolls always give the same fighters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import cache
from math import floor
from typing import Any

from calc.errors import CalcError, InputError
from calc.inputs import data, declared

MAX_TEXT = 20_000
MAX_FIGHTERS = 20
HP_MODES = ("printed", "average", "rolled")

_SIGN = {"+": 1, "-": -1, "−": -1, "–": -1}
# Digits are ASCII [0-9] throughout, never `\d`: that matches any script's digits ("٣"), which the
# dice parser and the calculators' inputs refuse.
INT = r"[+\-−–]?[0-9]{1,4}(?:st|nd|rd|th)?"
DICE = r"[0-9]{0,3}d[0-9]{1,4}(?:\s*[+\-−–]\s*[0-9]{1,4})?"
NAME = r"[A-Za-z][A-Za-z'\- ]{0,38}?"
ITEM_SEP = r"\s*(?:,|&|\+|\band\b|/)\s*"
ROUTINE_ITEM = rf"(?:(?:[0-9]{{1,2}}\s+)?{NAME}\s*\(\s*{DICE}(?:\s*/\s*{DICE})*\s*\)?)"
KINDS: dict[str, str] = {
    "integer": INT,
    "hit-dice": r"[0-9]{1,2}\s*(?:[+\-−–]\s*[0-9]{1,2})?(?![0-9/])",
    "hit-points": rf"(?:{DICE}|{INT}(?:\s*[,/]\s*{INT}(?![0-9\s]*(?:d|HD)))*)(?!\s*d)",
    "dice": DICE,
    "routine": rf"(?:{ROUTINE_ITEM}(?:{ITEM_SEP}{ROUTINE_ITEM})*|{DICE}(?:\s*/\s*{DICE})*)",
    "weapon": rf"(?:[+\-−–][0-9]{{1,2}}\s*)?(?:{NAME}\s*)?\(?\s*{DICE}\s*\)?",
    "critical": r"[0-9]{1,2}(?:\s*[-–]\s*20)?\s*/\s*[×x*]\s*[0-9]{1,2}",
    "flag": r"",
    "text": r"[A-Za-z][A-Za-z'\- ]{0,38}[A-Za-z]",
}
"""The kinds of value a grammar field may take, as regular expressions (case-insensitive)."""

_COUNT = re.compile(
    r"^(?P<name>.*?)\s*(?:\((?P<a>[0-9]{1,2})\)|[×x]\s*(?P<b>[0-9]{1,2}))\s*$|^(?P<c>[0-9]{1,2})\s+(?P<rest>.+)$"
)


def _int(text: str) -> int:
    t = re.sub(r"(?i)(st|nd|rd|th)$", "", text.strip())  # read as the pattern matched it: "3RD" too
    sign = _SIGN.get(t[0], 0)
    return sign * int(t[1:]) if sign else int(t)


def _dice_text(text: str) -> str:
    t = re.sub(r"\s+", "", text).replace("−", "-").replace("–", "-").lower()
    return t if not t.startswith("d") else "1" + t


def _dice_parts(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"([0-9]*)d([0-9]+)(?:([+-])([0-9]+))?", _dice_text(text))
    if not m:
        raise ValueError(text)
    bonus = int(m[4] or 0) * (-1 if m[3] == "-" else 1)
    return int(m[1] or 1), int(m[2]), bonus


def _singular(name: str, count: int) -> str:
    name = name.strip()
    if count > 1 and name.endswith("s") and not name.endswith("ss"):
        name = name[:-1]
    return name[:1].upper() + name[1:]


def _routine(text: str) -> list[dict[str, Any]]:
    """'2 claws (1d8/1d8) and bite (2d6)' → claw 1d8, claw 1d8, bite 2d6; '1d3/1d3/1d6' → three
    attacks named by number."""
    items = re.findall(rf"(?:([0-9]{{1,2}})\s+)?({NAME})\s*\(\s*({DICE}(?:\s*/\s*{DICE})*)", text, re.I)
    if not items:
        dice_list = [d.strip() for d in text.split("/")]
        return [{"name": f"Attack {i + 1}", "dice": _dice_text(d)} for i, d in enumerate(dice_list)]
    out = []
    for count_text, name, dice_text in items:
        dice_list = [_dice_text(d) for d in dice_text.split("/")]
        count = int(count_text) if count_text else len(dice_list)
        if len(dice_list) == 1:
            dice_list = dice_list * count
        label = _singular(re.sub(r"(?i)^(?:and|or|plus|with)\s+", "", name), count)
        out.extend({"name": label, "dice": d} for d in dice_list)
    return out


def _weapon(text: str) -> dict[str, Any]:
    m = re.fullmatch(rf"(?:([+\-−–][0-9]{{1,2}})\s*)?(?:({NAME})\s*)?\(?\s*({DICE})\s*\)?", text.strip(), re.I)
    assert m is not None
    parts: dict[str, Any] = {"dice": _dice_text(m[3])}
    if m[1]:
        parts["bonus"] = _int(m[1])
    if m[2] and m[2].strip():
        parts["name"] = m[2].strip()
    return parts


def _hit_dice(text: str) -> dict[str, Any]:
    m = re.fullmatch(r"([0-9]{1,2})\s*(?:([+\-−–])\s*([0-9]{1,2}))?", text.strip())
    assert m is not None
    return {"count": int(m[1]), "bonus": _SIGN[m[2]] * int(m[3]) if m[2] else 0}


def _hit_points(text: str) -> dict[str, Any]:
    t = text.strip()
    if re.fullmatch(DICE, t, re.I):
        return {"dice": _dice_text(t)}
    return {"values": [_int(x) for x in re.split(r"\s*[,/]\s*", t)]}


def _critical(text: str) -> dict[str, Any]:
    m = re.fullmatch(r"([0-9]{1,2})(?:\s*[-–]\s*20)?\s*/\s*[×x*]\s*([0-9]{1,2})", text.strip())
    assert m is not None
    return {"threshold": int(m[1]), "multiplier": int(m[2])}


READERS: dict[str, Callable[[str], dict[str, Any]]] = {
    "integer": lambda t: {"value": _int(t)},
    "hit-dice": _hit_dice,
    "hit-points": _hit_points,
    "dice": lambda t: {"value": _dice_text(t)},
    "routine": lambda t: {"value": _routine(t)},
    "weapon": _weapon,
    "critical": _critical,
    "choice": lambda t: {"value": t.strip()},
    "flag": lambda t: {"value": True},
    "text": lambda t: {"value": t.strip()},
}


def _label_pattern(labels: list[str]) -> str:
    def one(label: str) -> str:
        body = r"\s+".join(re.escape(w) for w in label.split())
        return body if len(label) <= 2 else f"(?i:{body})"  # "AC", "hp", "D": as printed

    return "|".join(one(label) for label in sorted(labels, key=len, reverse=True))


def _value_pattern(field: dict[str, Any], decls: Mapping[str, dict]) -> str:
    if field["value"] == "choice":
        target = next(iter(_set_names(field)), None)
        options = sorted((str(o["value"]) for o in decls[target]["options"]), key=len, reverse=True)
        return "(?:" + "|".join(re.escape(o) for o in options) + r")(?![\w*])"
    return KINDS[field["value"]]


def field_patterns(field: dict[str, Any], decls: Mapping[str, dict]) -> list[re.Pattern[str]]:
    """The field's regular expressions: label then value, and value then label (`after`)."""
    value = _value_pattern(field, decls)
    edge_l, edge_r = r"(?<![A-Za-z0-9#*])", r"(?![A-Za-z0-9])"
    out = []
    if field.get("labels"):
        lab = _label_pattern(field["labels"])
        gap = r"\s*[:=.]?\s*" if value else ""
        out.append(re.compile(rf"{edge_l}(?P<label>{lab}){edge_r}{gap}(?P<value>(?i:{value}))", re.M))
    if field.get("after"):
        lab = _label_pattern(field["after"])
        if field["value"] == "hit-points":  # "30 hp": one number (a list would eat the field before)
            value = rf"(?:{DICE}|{INT})"
        out.append(re.compile(rf"{edge_l}(?P<value>(?i:{value}))\s*(?P<label>{lab}){edge_r}", re.M))
    return out


def _set_names(field: dict[str, Any]) -> list[str]:
    names: list[str] = []
    for target in (field.get("sets") or {}).values():
        names.extend(target if isinstance(target, list) else [target])
    return names


def declarations(system: Mapping[str, Any]) -> dict[str, dict]:
    """Every input a stat block may fill, by name: the tracker's fields and kept values first (they
    are what a combatant carries), then each calculator's attacker and target inputs, then the
    calculators' other inputs (phases' target hit dice)."""
    out: dict[str, dict] = {}
    tracker = system.get("tracker") or {}
    for decl in tracker.get("inputs", []):
        out.setdefault(decl["name"], decl)
    for ref in [tracker.get("health"), *tracker.get("defenses", []), *tracker.get("status", [])]:
        if ref:
            out.setdefault(ref["input"], {**ref, "name": ref["input"]})
    calcs = system["calculators"].values()
    for decl in [d for c in calcs for d in c["inputs"] if d.get("role")] + [d for c in calcs for d in c["inputs"]]:
        out.setdefault(decl["name"], decl)
    return out


class Grammar:
    """A system's declared stat-block grammar, compiled."""

    def __init__(self, system: Mapping[str, Any]) -> None:
        spec = system.get("statblock")
        if not spec:
            raise InputError("system", f"'{system['id']}' declares no stat-block grammar (statblock.yaml)")
        self.system = system
        self.spec = spec
        self.decls = declarations(system)
        self.fields = spec["fields"]
        self.patterns = [(f, p) for f in self.fields for p in field_patterns(f, self.decls)]
        self.hp = spec.get("hit_points") or {}

    def rule(self, rule_id: str | None) -> dict[str, str] | None:
        rule = self.system["rules"].get(rule_id) if rule_id else None
        return {"id": rule["id"], "title": rule["title"], "url": rule["url"]} if rule else None

    def hit_die(self) -> int | None:
        spec = self.hp.get("from_hit_dice")
        if not spec:
            return None
        return _dice_parts(self.system["rules"][spec["rule"]]["facts"][spec["fact"]])[1]

    def matches(self, text: str, start: int, end: int) -> list[tuple[dict, re.Match[str]]]:
        """The recognised fields of text[start:end], earliest first, none overlapping (at one
        place the longest reading wins)."""
        found = [(f, m) for f, p in self.patterns for m in p.finditer(text, start, end)]
        found.sort(key=lambda fm: (fm[1].start(), -(fm[1].end() - fm[1].start())))
        kept: list[tuple[dict, re.Match[str]]] = []
        taken_to = -1
        for f, m in found:
            if m.start() >= taken_to and m.end() > m.start():
                kept.append((f, m))
                taken_to = m.end()
        return kept


@cache
def _grammar(system_id: str) -> Grammar:
    """The exported system's grammar, compiled once per process (its patterns are many)."""
    return Grammar(data.system(system_id).raw)


def _blocks(grammar: Grammar, text: str) -> Iterator[tuple[int, int, list[tuple[dict, re.Match[str]]]]]:
    """Split the paste into creatures: at blank lines, and at a line that starts a field already
    seen in the current creature (a list of one-line stat blocks). Lazily: a paste of too many
    creatures is refused without reading them all."""
    for para in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", text):
        start = para.start()
        seen: set[str] = set()
        current: list[tuple[dict, re.Match[str]]] = []
        for line in re.finditer(r"[^\n]+", text[para.start() : para.end()]):
            a, b = para.start() + line.start(), para.start() + line.end()
            got = grammar.matches(text, a, b)
            if current and got and any(f["id"] in seen for f, _ in got) and a > start:
                yield start, a, current
                start, seen, current = a, set(), []
            current.extend(got)
            seen.update(f["id"] for f, _ in got)
        yield start, para.end(), current


def _name_and_count(raw: str) -> tuple[str, int]:
    name = re.sub(r"^[\s\-*•>#]+|[\s:;,.(\[—–-]+$", "", raw)
    m = _COUNT.match(name)
    if m and (m["a"] or m["b"]):
        return m["name"].strip(" :"), int(m["a"] or m["b"])
    if m and m["c"]:
        return _singular(m["rest"], int(m["c"])), int(m["c"])
    return name, 1


def parse(
    system_id: str, text: Any, *, hp: str = "printed", rolls: Any = None, exported: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The fighters of one or several pasted stat blocks (format in CONTRIBUTING.md)."""
    system = exported if exported is not None else data.system(system_id).raw
    if not isinstance(text, str) or not text.strip():
        raise InputError("text", "paste a stat block: the text is empty")
    if len(text) > MAX_TEXT:
        raise InputError("text", f"is {len(text)} characters long; at most {MAX_TEXT} are read")
    if hp not in HP_MODES:
        raise InputError("hp", f"must be one of {', '.join(HP_MODES)} (got {declared.shown(hp)})")
    pool = _rolls(rolls, hp)
    grammar = Grammar(system) if exported is not None else _grammar(system_id)
    fighters: list[dict[str, Any]] = []
    for start, end, found in _blocks(grammar, text):
        if found:
            fighters.extend(_fighters(grammar, text, start, end, found, hp))
        if len(fighters) > MAX_FIGHTERS:
            break
    if not fighters:
        labels = ", ".join(dict.fromkeys(f["labels"][0] for f in grammar.fields if f.get("labels")))
        raise InputError("text", f"no field of a {system['name']} stat block was recognised (labels such as {labels})")
    if len(fighters) > MAX_FIGHTERS:
        raise InputError("text", f"holds more than {MAX_FIGHTERS} creatures; at most {MAX_FIGHTERS} are read at once")
    _unique_names(fighters)
    needed = [{"count": r["count"], "sides": r["sides"]} for f in fighters if (r := f["hp"].get("roll"))]
    if hp == "rolled" and rolls is not None:
        _apply_rolls(fighters, pool)
    return {
        "system": system["id"],
        "hp": hp,
        "dice_needed": needed if hp == "rolled" else [],
        "fighters": [_public(f) for f in fighters],
    }


def _rolls(rolls: Any, hp: str) -> list[int]:
    if rolls is None:
        return []
    if hp != "rolled":
        raise InputError("rolls", "are only read when the hit points are rolled (hp: rolled)")
    if not isinstance(rolls, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rolls):
        raise InputError("rolls", "must be a list of die faces (whole numbers)")
    if len(rolls) > 2000:
        raise InputError("rolls", "at most 2000 are read")
    return list(rolls)


def _apply_rolls(fighters: list[dict[str, Any]], pool: list[int]) -> None:
    total = sum(f["hp"]["roll"]["count"] for f in fighters if f["hp"].get("roll"))
    if len(pool) < total:
        raise InputError("rolls", f"{total} dice are needed for these hit points; {len(pool)} were given")
    at = 0
    for f in fighters:
        roll = f["hp"].get("roll")
        if not roll:
            continue
        faces = pool[at : at + roll["count"]]
        at += roll["count"]
        bad = next((r for r in faces if not 1 <= r <= roll["sides"]), None)
        if bad is not None:
            raise InputError("rolls", f"{bad} is not a face of a d{roll['sides']}")
        value = max(1, sum(faces) + roll["bonus"])
        f["hp"].update({"value": value, "from": "rolled", "rolls": faces})
        f["values"][f["hp"]["input"]] = value


def _fighters(grammar: Grammar, text: str, start: int, end: int, found: list, mode: str) -> list[dict[str, Any]]:
    name, count = _name_and_count(text[start : found[0][1].start()])
    name_span = (start, found[0][1].start())
    fields, rejected, values = [], [], {}
    parts_by_field: dict[str, dict[str, Any]] = {}
    for field, m in found:
        parts = READERS[field["value"]](m["value"])
        set_values = dict(field.get("also") or {})
        for part, targets in (field.get("sets") or {}).items():
            if part in parts:
                for target in targets if isinstance(targets, list) else [targets]:
                    set_values[target] = parts[part]
        entry = {
            "field": field["id"],
            "title": field["title"],
            "text": m.group(0),
            "start": m.start(),
            "end": m.end(),
            "rule": grammar.rule(field.get("rule")),
        }
        try:
            checked = {k: _checked(grammar.decls[k], v, k) for k, v in set_values.items()}
        except CalcError as err:
            rejected.append({**entry, "reason": f"{err.input}: {err.reason}"})
            continue
        values.update(checked)
        parts_by_field[field["id"]] = parts
        fields.append({**entry, "inputs": checked, "shown": _shown(parts)})
    notes = _notes(text, start, end, [(f["start"], f["end"]) for f in fields + rejected], name_span)
    hp_values = (parts_by_field.get(_hp_field(grammar)) or {}).get("values") or []
    count = min(MAX_FIGHTERS + 1, max(count, len(hp_values)))
    out = []
    for i in range(count):
        hp_info = _hit_points_of(grammar, parts_by_field, hp_values[i] if i < len(hp_values) else None, mode)
        own = dict(values)
        if hp_info.get("value") is not None and hp_info["input"] in grammar.decls:
            own[hp_info["input"]] = hp_info["value"]
        out.append(
            {
                "name": name or "Creature",
                "values": own,
                "fields": fields,
                "rejected": rejected,
                "notes": notes,
                "hp": hp_info,
                "block": {"start": start, "end": end},
            }
        )
    return out


def _checked(decl: dict, value: Any, name: str) -> Any:
    typed = declared.value(decl, value, name)
    return declared.to_json([decl], {name: typed})[name]


def _shown(parts: dict[str, Any]) -> str:
    if "value" in parts and isinstance(parts["value"], list):
        return ", ".join(f"{a['name']} {a['dice']}" for a in parts["value"])
    return ", ".join(f"{k} {v}" if k != "value" else str(v) for k, v in parts.items() if k != "values") or ", ".join(
        str(v) for v in parts.get("values", [])
    )


def _hp_field(grammar: Grammar) -> str | None:
    return next((f["id"] for f in grammar.fields if f["value"] == "hit-points"), None)


def _hit_points_of(grammar: Grammar, parts: dict[str, dict], printed: int | None, mode: str) -> dict[str, Any]:
    """Where this fighter's hit points come from: the printed number, or the average (rounded
    down) or a roll of the dice printed for them or of its hit dice. `roll` is kept only when
    the hit points are to be rolled (mode `rolled`)."""
    spec = grammar.hp
    source = "printed" if printed is not None else "none"
    info: dict[str, Any] = {"input": spec.get("input"), "value": printed, "from": source}
    info["rule"] = grammar.rule(spec.get("rule"))
    dice_text = (parts.get(_hp_field(grammar)) or {}).get("dice")
    roll = None
    if dice_text:
        n, sides, bonus = _dice_parts(dice_text)
        roll = {"count": n, "sides": sides, "bonus": bonus, "dice": dice_text}
    elif spec.get("from_hit_dice") and spec["from_hit_dice"]["field"] in parts:
        hd = parts[spec["from_hit_dice"]["field"]]
        sides = grammar.hit_die()
        bonus = hd["count"] * hd["bonus"] if spec["from_hit_dice"].get("bonus_per_die") else hd["bonus"]
        if sides and hd["count"] > 0:
            roll = {"count": hd["count"], "sides": sides, "bonus": bonus, "dice": _dice_name(hd["count"], sides, bonus)}
    if roll:
        info["dice"] = roll["dice"]
        info["average"] = str(roll["count"] * Fraction(roll["sides"] + 1, 2) + roll["bonus"])
        if printed is None or mode != "printed":
            info["value"] = max(1, floor(roll["count"] * Fraction(roll["sides"] + 1, 2) + roll["bonus"]))
            info["from"] = "average"
        if mode == "rolled":
            info["roll"] = roll
    return info


def _dice_name(count: int, sides: int, bonus: int) -> str:
    return f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")


def _notes(text: str, start: int, end: int, spans: list[tuple[int, int]], name_span: tuple[int, int]) -> list[dict]:
    """The block's text that no field took (and is not the name): kept, with where it stands."""
    taken = sorted([*spans, name_span])
    out, at = [], start
    for a, b in [*taken, (end, end)]:
        if a > at:
            for piece in re.finditer(r"[^;,\n]+", text[at:a]):
                words = piece.group(0).strip(" \t.:()[]/-—–")
                if re.search(r"[A-Za-z0-9]", words) and not re.fullmatch(r"(?i)and|or|plus|with|a|the", words):
                    s = at + piece.start() + piece.group(0).index(words)
                    out.append({"text": words, "start": s, "end": s + len(words)})
        at = max(at, b)
    return out


def _unique_names(fighters: list[dict[str, Any]]) -> None:
    counts: dict[str, int] = {}
    for f in fighters:
        counts[f["name"].lower()] = counts.get(f["name"].lower(), 0) + 1
    seen: dict[str, int] = {}
    for f in fighters:
        key = f["name"].lower()
        if counts[key] > 1:
            seen[key] = seen.get(key, 0) + 1
            f["name"] = f"{f['name']} {seen[key]}"
        f["name"] = f["name"][:40]


def _public(f: dict[str, Any]) -> dict[str, Any]:
    return {**f, "hp": {k: v for k, v in f["hp"].items() if k != "roll"}}
