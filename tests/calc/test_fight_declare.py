"""Round declarations in the tracker's fight (`declare`, the view's `declaration`): what a
combatant does this round is kept from the last round until changed, one field at a time, and the
card offers exactly the fields the engine says apply (segments: the action type, and a spell's
casting time; phases: moving and the one action)."""

from __future__ import annotations

import pytest
from fight_helpers import Fight

from calc import evaluate
from calc.errors import InputError
from calc.inputs import data


def segments_fight() -> Fight:
    f = Fight("segments")
    for name, side in [("Ann", "pc"), ("Mage", "pc"), ("Orc", "foe"), ("Gob", "foe")]:
        f.add(name, side=side)
    return f


def names(f: Fight) -> list[str]:
    """The round's order by name."""
    by_id = {c["id"]: c["name"] for c in f.view["combatants"]}
    return [by_id[e["id"]] for e in f.view["order"]]


def whens(f: Fight) -> dict[str, str]:
    return dict(zip(names(f), (e["when"] for e in f.view["order"]), strict=True))


ROLLS = {"side:pc": 5, "side:foe": 2}


def calculator_order(people: list[dict]) -> list[list[str]]:
    """The round-order calculator's own answer for the same round (the oracle: the tracker adds
    nothing to the order of its initiative calculator)."""
    groups = [{"name": "PCs", "roll": ROLLS["side:pc"]}, {"name": "Foes", "roll": ROLLS["side:foe"]}]
    answer = evaluate(
        {"system": "segments", "calculator": "initiative", "inputs": {"groups": groups, "combatants": people}}
    )
    return [group["names"] for group in answer["order"]]


def test_a_segments_declaration_changes_the_order_as_the_round_order_calculator_does() -> None:
    f = segments_fight()
    f.do("declare", id="c2", declaration={"action": "spell"})
    f.do("declare", id="c2", declaration={"casting_time": 3})
    f.do("declare", id="c4", declaration={"action": "fast"})
    f.round(ROLLS)
    people = [
        {"name": "Ann", "group": "PCs"},
        {"name": "Mage", "group": "PCs", "action": "spell", "casting_time": 3},
        {"name": "Orc", "group": "Foes"},
        {"name": "Gob", "group": "Foes", "action": "fast"},
    ]
    assert names(f) == [n for g in calculator_order(people) for n in g]
    assert whens(f)["Mage"].startswith("Spell · segment 3")


def test_each_declaration_stands_until_changed_so_a_round_needs_no_tap_per_combatant() -> None:
    f = segments_fight()
    f.do("declare", id="c2", declaration={"action": "spell", "casting_time": 2})
    f.do("declare", id="c3", declaration={"action": "missile"})
    f.round(ROLLS)
    first = whens(f)
    f.round(ROLLS)
    assert whens(f) == first  # round 2: the same declarations, nothing declared again
    f.do("declare", id="c3", declaration={"action": "complex"})
    f.round(ROLLS)
    assert whens(f)["Orc"] != first["Orc"] and whens(f)["Mage"] == first["Mage"]
    assert names(f)[-1] == "Orc"  # a complex activity goes last


def test_the_card_offers_the_casting_time_only_for_a_spell_with_the_datas_declarations() -> None:
    f = segments_fight()
    decls = {d["name"]: d for d in data.system("segments").raw["tracker"]["inputs"]}

    def offered(name: str) -> dict[str, object]:
        return {d["name"]: d for d in f.who(name)["declaration"]}

    assert list(offered("Mage")) == ["action"]
    action = offered("Mage")["action"]
    assert action["value"] == decls["action"]["default"]
    assert action["options"] == decls["action"]["options"] and action["label"] == decls["action"]["label"]
    f.do("declare", id="c2", declaration={"action": "spell"})
    cast = offered("Mage")["casting_time"]
    assert (cast["type"], cast["min"], cast["max"], cast["value"]) == ("integer", 0, 10, 0)
    f.do("declare", id="c2", declaration={"casting_time": "4"})  # typed text, read by the declaration
    assert offered("Mage")["casting_time"]["value"] == 4
    assert f.state["combatants"][1]["values"]["casting_time"] == 4


def test_a_spell_declared_without_its_casting_time_is_named_when_the_round_starts() -> None:
    f = segments_fight()
    f.do("declare", id="c2", declaration={"action": "spell"})
    with pytest.raises(InputError) as err:
        f.round(ROLLS)
    assert err.value.input == "combatants[2].casting_time"


@pytest.mark.parametrize(
    ("declaration", "field"),
    [
        ({"action": "dance"}, "action.declaration.action"),
        ({"casting_time": 11}, "action.declaration.casting_time"),
        ({"casting_time": "two"}, "action.declaration.casting_time"),
        ({"weapon": "dagger"}, "action.declaration"),
        ({}, "action.declaration"),
        ("melee", "action.declaration"),
    ],
)
def test_a_bad_segments_declaration_is_named_and_changes_nothing(declaration: object, field: str) -> None:
    f = segments_fight()
    before = f.state
    with pytest.raises(InputError) as err:
        f.do("declare", id="c1", declaration=declaration)
    assert err.value.input == field
    assert f.state == before


def test_phases_offers_its_declaration_as_the_state_keeps_it() -> None:
    f = Fight("phases")
    f.add("Mialee", side="pc", hp=5)
    shown = {d["name"]: d["value"] for d in f.who("Mialee")["declaration"]}
    assert shown == f.state["combatants"][0]["declared"] == {"move": False, "action": "melee"}
    f.do("declare", id="c1", declaration={"action": "spell"})
    f.do("declare", id="c1", declaration={"move": True})
    shown = {d["name"]: d["value"] for d in f.who("Mialee")["declaration"]}
    assert shown == f.state["combatants"][0]["declared"] == {"move": True, "action": "spell"}
    action = next(d for d in f.who("Mialee")["declaration"] if d["name"] == "action")
    assert [o["value"] for o in action["options"]] == ["melee", "ranged", "spell", "none"]


@pytest.mark.parametrize("system", ["countup", "action-points", "active-defense"])
def test_a_system_without_declarations_offers_none_and_refuses_one(system: str) -> None:
    f = Fight(system)
    f.add("Orc")
    assert f.who("Orc")["declaration"] == []
    with pytest.raises(InputError) as err:
        f.do("declare", id="c1", declaration={"action": "melee"})
    assert err.value.input == "action.type"
