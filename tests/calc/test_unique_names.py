"""One rule for duplicate names in every system: a list field declared `unique: true` (every named
combatant or group) refuses a repeated value, ignoring case, at the second entry's field — checked
once in calc/inputs/declared.py, so this test iterates the systems' declarations rather than copying itself."""

from __future__ import annotations

import pytest

import calc
from calc.errors import InputError
from calc.inputs import data

UNIQUE = [
    (system, name, decl, field["name"])
    for system in data.system_ids()
    for name, calculator in data.system(system).calculators.items()
    for decl in calculator["inputs"]
    if decl["type"] == "list"
    for field in decl["fields"]
    if field.get("unique")
]


def test_every_system_declares_its_names_unique() -> None:
    assert {system for system, *_ in UNIQUE} == set(data.system_ids())
    for system in data.system_ids():
        # Combatants (and groups) are named in the initiative calculators; a round's list of
        # attacks ("Claw", "Claw", "Bite") may repeat a name on purpose.
        for calculator in [data.system(system).calculator("initiative")]:
            for decl in calculator["inputs"]:
                for field in decl.get("fields", []):
                    if field["name"] == "name":
                        assert field.get("unique"), f"{system}: {decl['name']}.name is not declared unique"


def entries(decl: dict) -> list[dict]:
    out = [dict(e) for e in decl["default"]]
    while len(out) < 2:
        out.append(dict(out[0]) if out else {})
    return out


@pytest.mark.parametrize("spelling", [str, str.upper], ids=["same", "other case"])
@pytest.mark.parametrize(
    ("system", "name", "decl", "field"), UNIQUE, ids=lambda v: v["name"] if isinstance(v, dict) else v
)
def test_a_repeated_name_is_refused_at_the_second_entry(system, name, decl, field, spelling) -> None:
    given = entries(decl)
    first = str(given[0].get(field) or next(f["default"] for f in decl["fields"] if f["name"] == field))
    given[0][field] = first
    given[1][field] = spelling(first)
    with pytest.raises(InputError) as err:
        calc.evaluate({"system": system, "calculator": name, "inputs": {decl["name"]: given}})
    assert err.value.input == f"{decl['name']}[2].{field}"
    noun = decl["label"].lower().removesuffix("s")
    assert err.value.reason.startswith(f'"{spelling(first)}" is already {noun} 1\'s {field}'), err.value.reason
    assert f"give each {noun} its own {field} ({spelling(first)} 1, {spelling(first)} 2)" in err.value.reason


@pytest.mark.parametrize(
    ("system", "name", "decl", "field"), UNIQUE, ids=lambda v: v["name"] if isinstance(v, dict) else v
)
def test_distinct_names_are_answered(system, name, decl, field) -> None:
    given = entries(decl)
    taken = set()
    for i, entry in enumerate(given, start=1):
        if str(entry.get(field, "")).casefold() in taken:  # a copy made by entries(): give it its own name
            entry[field] = f"{entry[field]} {i}"
        taken.add(str(entry.get(field, "")).casefold())
    try:
        answer = calc.evaluate({"system": system, "calculator": name, "inputs": {decl["name"]: given}})
    except InputError as err:
        # A forecast of two fighters on a side may be too big to follow exactly (action-points and
        # active-defense roll initiative once: every order is its own fight): refused for its size,
        # naming a side, never for the names.
        assert name == "forecast" and err.input in ("party", "foes") and "try fewer" in err.reason, err
        return
    assert answer["inputs"][decl["name"]][1][field] == given[1][field]
