"""Helpers the systems' `turns` modules (calc/systems/<module>/turns.py) import to run their
initiative procedure through their own initiative calculator: the `tracker:` declaration, a dice
entry, a checked roll, and the tags that name the tracker's combatants inside the calculator.

The dispatcher above the systems (which request reaches which system) is `calc.turns.tracker`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.errors import DataError, InputError
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns import order


def tracker(data: SystemData) -> dict[str, Any]:
    """The system's exported `tracker:` declaration."""
    spec = data.raw.get("tracker")
    if not spec:
        raise DataError(f"{data.id}: no `tracker:` in calculators.yaml, so no encounter tracker")
    return spec


def max_combatants(data: SystemData) -> int:
    """The most combatants the tracker orders (`max_combatants` of its declaration)."""
    return int(tracker(data)["max_combatants"])


def list_declaration(data: SystemData) -> dict[str, Any]:
    """The initiative calculator's list input the tracker's combatants fill."""
    spec = tracker(data)
    for decl in data.calculator(spec["calculator"])["inputs"]:
        if decl["name"] == spec["list"]:
            return decl
    raise DataError(f"{data.id}: calculator '{spec['calculator']}' has no input '{spec['list']}'")


def die(
    data: SystemData, key: str, sides: int, label: str, rule: str, count: int = 1, optional: bool = False
) -> dict[str, Any]:
    """One entry of `dice_needed`; `optional` marks a roll made only when the rule is triggered."""
    cited = data.step(rule, "")
    return {
        "key": key,
        "dice": f"{count}d{sides}",
        "label": label,
        "rule": rule,
        "url": cited["url"],
        "optional": optional,
    }


def rolled(rolls: Mapping[str, Any], key: str, low: int, high: int, what: str) -> int:
    """The roll under `key`, checked to lie in low..high (`what` says which die, for the message)."""
    if key not in rolls:
        raise InputError(f"rolls.{key}", f"is missing: roll {what}")
    value = rolls[key]
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.strip().isascii():
            value = int(value)
        else:
            raise InputError(f"rolls.{key}", f"must be a whole number (got {declared.shown(value)})")
    if not low <= value <= high:
        raise InputError(f"rolls.{key}", f"{what} shows {low} to {high} (got {value})")
    return value


def initiative(data: SystemData, raw: dict[str, Any], people: list[dict[str, Any]]) -> dict[str, Any]:
    """Run the system's initiative calculator on `raw` inputs (validated as the calculator's own),
    its combatants named by `tag`; an error names the tracker's combatants, never the tags."""
    spec = tracker(data)
    try:
        most = max_combatants(data)
        decls = [
            {**d, "max_items": max(d.get("max_items", 0), most)} if d["name"] == spec["list"] else d
            for d in data.calculator(spec["calculator"])["inputs"]
        ]  # the tracker's cap, above the calculator form's: the order alone stays fast
        values = declared.validate(decls, raw)
        with order.order_only():  # the order only: its chance tables are never read here
            return systems.engine(data.id).CALCULATORS[spec["calculator"]](values, data)
    except InputError as err:
        raise InputError(err.input, named(err.reason, people)) from None


def tag(i: int) -> str:
    """The name combatant i goes by inside the calculator (unique whatever the tracker's names)."""
    return f"#{i + 1}"


def untag(name: str) -> int:
    """The index of the combatant a calculator's result names by `tag`."""
    return int(name[1:]) - 1


def named(text: str, people: list[dict[str, Any]]) -> str:
    """A calculator's text with its combatant tags replaced by their names (longest tags first)."""
    if "#" not in text:  # no tag at all: most steps, and 40 replacements each otherwise
        return text
    for i in sorted(range(len(people)), reverse=True):
        text = text.replace(tag(i), people[i]["name"])
    return text


def _tagged(step: dict[str, str]) -> set[int]:
    """The indexes of the combatants a calculator's step names (by their tags, as whole words)."""
    words = step["text"]
    for mark in ",:;()":
        words = words.replace(mark, " ")
    out = set()
    for word in words.split():
        digits = word[1:]
        if word.startswith("#") and digits.isdigit() and digits.isascii() and word == tag(int(digits) - 1):
            out.add(int(digits) - 1)
    return out


def mentions(step: dict[str, str], i: int) -> bool:
    """Whether a calculator's step names combatant i (by its tag, as a whole word)."""
    return i in _tagged(step)


def steps_by_person(steps: list[dict[str, str]], count: int) -> dict[int, list[dict[str, str]]]:
    """Each of `count` combatants' steps (those that name it, in order), every step's words read
    once: a round of 40 combatants otherwise reads each step 40 times."""
    out: dict[int, list[dict[str, str]]] = {i: [] for i in range(count)}
    for step in steps:
        for i in sorted(_tagged(step)):
            if i in out:
                out[i].append(step)
    return out


def turns_from_order(
    order: list[dict[str, Any]],
    people: list[dict[str, Any]],
    when: Any,
    why: Any,
) -> list[dict[str, Any]]:
    """The calculator's order groups (named by `tag`) as turns: one per combatant, in order;
    combatants of one group share a `rank` (they are tied: see the notes)."""
    turns = []
    for group in order:
        for name in group["names"]:
            i = untag(name)
            turns.append({"id": people[i]["id"], "when": when(group, i), "rank": group["rank"], "why": why(group, i)})
    return turns
