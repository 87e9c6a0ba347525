"""Inputs that apply only when another input has a given value (`when:` in an input declaration).

Phases' typed attack target counts only when the attack target is entered directly: a value given
for an input whose `when` does not hold would otherwise be silently ignored. So giving it chooses
that value for the other input when that one was not given, and is an error naming the other input
when it was given with another value. (The browser form hides such an input until it applies and
does not send it, so it never meets the error.)

The form asks here which inputs apply (`applicable`): it sends every field as typed, and the
browser's door (`calc.browser`) leaves out those whose `when` does not hold and names the ones
that do, so the page shows them; the build names those that apply with the defaults, for the
form drawn before Python is up. The browser holds no reading of `when` of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc.errors import InputError
from calc.inputs import declared


def given(raw: Mapping[str, Any], name: str) -> bool:
    """Whether the request sets `name` (a blank text is the same as leaving it out)."""
    value = raw.get(name)
    return value is not None and not (isinstance(value, str) and not value.strip())


def holds(decl: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    """Whether a declaration's `when` holds among typed `values` (an input it names that is not
    among them does not stop it): the tracker's combatant fields, e.g. phases' Hit Dice only for
    a monster."""
    when = decl.get("when") or {}
    return all(values[name] == wanted for name, wanted in when.items() if name in values)


def applicable(declarations: list[dict], raw: Mapping[str, Any]) -> list[str]:
    """The names of the inputs that apply with a form's values `raw` (as typed; a field left out
    takes its default), in declaration order: those whose `when` holds, each input it names read
    as `calc.inputs.declared.value` reads it. A condition whose value cannot be read (a choice the input
    does not offer) holds no `when`: that input's own error is what the reader sees."""
    by_name = {d["name"]: d for d in declarations}
    read: dict[str, Any] = {}

    def current(name: str) -> Any:
        if name not in read:
            try:
                read[name] = declared.value(by_name[name], raw.get(name), name)
            except InputError:
                read[name] = _UNREADABLE
        return read[name]

    def wanted(name: str, value: Any) -> Any:
        try:
            return declared.value(by_name[name], value, name)
        except InputError:  # a `when` the declaration's checks let through: it never holds
            return _UNREADABLE

    return [
        decl["name"]
        for decl in declarations
        if all(
            other not in by_name or (current(other) is not _UNREADABLE and current(other) == wanted(other, value))
            for other, value in (decl.get("when") or {}).items()
        )
    ]


def cells(declarations: list[dict], raw: Mapping[str, Any], names: list[str]) -> dict[str, list[list[str]]]:
    """For each list input among `names` whose form value (or default) is a list of entries: for
    each entry, the names of its fields that apply to it (`applicable` over the entry's fields,
    e.g. phases' attack target in one attacker's row only when that row enters it directly)."""
    out = {}
    for decl in declarations:
        if decl["type"] != "list" or decl["name"] not in names:
            continue
        entries = raw.get(decl["name"], decl.get("default", []))
        if isinstance(entries, list) and all(isinstance(e, Mapping) for e in entries):
            out[decl["name"]] = [applicable(decl["fields"], entry) for entry in entries]
    return out


def only_applicable(declarations: list[dict], raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A form's values without the inputs, and the list entries' fields, that do not apply (see
    `applicable`), and `{"applies": names, "cells": {list: [names per entry]}}` of those that do.
    A name no input or field has stays, for `calc.inputs.declared.validate` to refuse."""
    names = applicable(declarations, raw)
    declared = {d["name"] for d in declarations}
    keep = set(names)
    kept = {k: v for k, v in raw.items() if k in keep or k not in declared}
    per_entry = cells(declarations, raw, names)
    for decl in declarations:
        if decl["name"] in per_entry and decl["name"] in kept:
            fields = {f["name"] for f in decl["fields"]}
            kept[decl["name"]] = [
                {k: v for k, v in entry.items() if k in set(applying) or k not in fields}
                for entry, applying in zip(raw[decl["name"]], per_entry[decl["name"]], strict=True)
            ]
    return kept, {"applies": names, "cells": per_entry}


_UNREADABLE = object()
"""A condition's value that `calc.inputs.declared.value` refuses: equal to nothing."""


def condition_text(when: Mapping[str, Any]) -> str:
    """`when` in words, e.g. "target_source is direct"."""
    return " and ".join(f"{name} is {_plain(value)}" for name, value in when.items())


def resolve(declarations: list[dict], raw: Mapping[str, Any]) -> dict[str, Any]:
    """`raw` with the conditions of the inputs it gives filled in; raises `InputError` (naming the
    input given) when a condition contradicts an input given, or two given inputs ask for
    different values of one not given."""
    by_name = {d["name"]: d for d in declarations}
    out = dict(raw)
    chosen: dict[str, tuple[str, Any]] = {}  # condition input → (the input that asked, its value)
    for decl in declarations:
        when = decl.get("when")
        if not when or not given(raw, decl["name"]):
            continue
        for other, wanted in when.items():
            cond = by_name[other]
            want = declared.value(cond, wanted, other)
            if given(raw, other):
                have = declared.value(cond, raw[other], other)  # a bad value is reported as such
                if have != want:
                    raise InputError(
                        decl["name"],
                        f"applies only when {other} is {_plain(want)} ({other} is {_plain(have)}): "
                        f"set {other} to {_plain(want)} or leave {decl['name']} out" + _why(decl),
                    )
            elif other in chosen and chosen[other][1] != want:
                first, first_want = chosen[other]
                raise InputError(
                    decl["name"],
                    f"applies only when {other} is {_plain(want)}, but {first} applies only when it is "
                    f"{_plain(first_want)}: give {other}",
                )
            else:
                chosen[other] = (decl["name"], want)
                out[other] = want
    return out


def _why(decl: Mapping[str, Any]) -> str:
    """The rule as the input's help leads with it, before its first colon (phases' Morale:
    "Monsters and NPCs only (the morale rule gives characters no Morale score)"); none without."""
    lead, colon, _ = str(decl.get("help") or "").partition(": ")
    return f": {lead[0].lower()}{lead[1:]}" if colon and lead else ""


def _plain(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
