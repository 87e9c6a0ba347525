"""The Fled state (issue #35, item 3): a combatant that flees leaves the round's order and the
targets (the odds, their default target, the forecast) until the GM brings it back (`return`).

phases: "To determine Morale, roll 2d6. If the number is higher than any monster's Morale score,
that monster flees" (the ruling: above; the other reading: equal or above), the roll coming in
the next round's morale phase after a monster's first Wound. segments: the Flee fast action (step
3 of the round); the GM marks it (`flee`)."""

from __future__ import annotations

import pytest
from fight_helpers import Fight

from calc import fight
from calc.errors import InputError
from calc.inputs import data as data_mod


def wounded_orc(options: dict | None = None) -> Fight:
    """Regdar and an Orc of Morale 7 that took its first Wound in round 1: the morale roll is due."""
    f = Fight("phases", options)
    f.add("Regdar", side="pc", hp=10)
    f.add("Orc", hp=1, hd=4, morale=7)
    f.add("Goblin", hp=6, hd=1)  # no Morale score: fights to the death
    f.round()
    f.damage("Orc", 3)
    return f


def morale_round(f: Fight, total: int) -> Fight:
    return f.round({"morale": total})


def test_phases_the_data_declares_the_fled_state_with_its_rule() -> None:
    spec = data_mod.system("phases").raw["tracker"]["fled"]
    assert spec == {"label": "Fled", "rule": "morale"}
    assert data_mod.system("segments").raw["tracker"]["fled"]["rule"] == "combat-round-sequence"


@pytest.mark.parametrize(
    ("reading", "total", "flees"),
    [("above", 8, True), ("above", 7, False), ("at-least", 7, True), ("at-least", 6, False)],
)
def test_phases_a_failed_morale_roll_puts_the_monster_in_fled_both_readings(
    reading: str, total: int, flees: bool
) -> None:
    f = morale_round(wounded_orc({"morale_reading": reading}), total)
    orc = f.who("Orc")
    assert (orc["state"], orc["acts"], orc["fled"]) == (("Fled", False, True) if flees else ("Wounded", True, False))
    assert ("Orc" in f.order()) is not flees
    if flees:
        assert orc["state_rule"] == "morale"
        assert any(n["text"].startswith("Orc flees: the morale 2d6 shows") for n in f.state["notes"])
        assert not any("no morale roll" in n["text"] for n in f.state["notes"])
    assert f.who("Goblin")["state"] == ""  # no Morale score: never flees


def test_phases_a_fled_monster_takes_no_turn_and_is_no_target() -> None:
    f = morale_round(wounded_orc(), 12)
    assert "Orc" not in f.turns_taken()
    f = morale_round(wounded_orc(), 12)
    while f.current() != "Regdar":
        f.do("next_turn")
    odds = f.view["odds"]
    assert {t["name"] for t in odds["targets"]} == {"Goblin"}
    assert odds["target"] == f.ident("Goblin")
    with pytest.raises(InputError) as err:
        fight.before("phases", f.state, f.ident("Regdar"), f.ident("Orc"))
    assert err.value.input == "target" and "has fled" in err.value.reason
    with pytest.raises(InputError) as err:
        f.do("attack", id=f.ident("Regdar"), target=f.ident("Orc"), roll=20)
    assert "has fled" in err.value.reason
    forecast = fight.forecast("phases", f.state)
    assert {"name": "Orc", "state": "Fled"} in forecast["left_out"]
    assert [x["name"] for x in forecast["request"]["inputs"]["foes"]] == ["Goblin"]


def test_phases_the_gm_brings_a_fled_monster_back_for_the_next_round() -> None:
    f = morale_round(wounded_orc(), 12)
    f.do("return", id=f.ident("Orc"))
    assert (f.who("Orc")["state"], f.who("Orc")["fled"], f.who("Orc")["acts"]) == ("Wounded", False, True)
    assert f.who("Orc")["hp"] == 0 and len(f.who("Orc")["wounds"]) == 1  # it keeps its Wounds
    f.round()
    assert "Orc" in f.order()
    with pytest.raises(InputError) as err:
        f.do("return", id=f.ident("Orc"))
    assert err.value.input == "action.id"


def test_phases_the_down_and_the_dead_do_not_flee() -> None:
    f = Fight("phases")
    f.add("Regdar", side="pc", hp=10)
    f.add("Orc", hp=1, hd=1, morale=7)
    f.round()
    f.damage("Orc", 3).damage("Orc", 3)  # a second Wound: past its one, dead
    morale_round(f, 12)
    assert (f.who("Orc")["state"], f.who("Orc")["fled"]) == ("Dead", False)


def test_a_new_fight_keeping_the_roster_brings_the_fled_back() -> None:
    f = morale_round(wounded_orc(), 12)
    f.do("new", keep_combatants=True)
    assert (f.who("Orc")["fled"], f.who("Orc")["state"]) == (False, "")


def test_a_saved_fight_from_before_the_fled_state_loads_as_not_fled() -> None:
    f = wounded_orc()
    saved = {**f.state, "combatants": [{k: v for k, v in c.items() if k != "fled"} for c in f.state["combatants"]]}
    answer = fight.act("phases", None, {"type": "load", "state": saved})
    assert [c["fled"] for c in answer["state"]["combatants"]] == [False, False, False]


def segments_fight() -> Fight:
    f = Fight("segments")
    f.add("Hero", side="pc", hp=10)
    f.add("Orc 1", hp=6)
    f.add("Orc 2", hp=6)
    f.do("declare", id=f.ident("Orc 2"), declaration={"action": "fast"})  # B. Flee, a fast action
    return f.round()


def test_segments_the_gm_marks_a_flee_and_the_turn_moves_on() -> None:
    f = segments_fight()
    assert f.order()[0] == "Orc 2"  # fast actions first
    assert f.current() == "Orc 2"
    f.do("flee", id=f.ident("Orc 2"))
    assert f.who("Orc 2")["state"] == "Fled" and f.who("Orc 2")["state_rule"] == "combat-round-sequence"
    assert "Orc 2" not in f.order()
    assert f.current() is not None and f.current() != "Orc 2"
    assert "Orc 2" not in [t["name"] for t in (f.view["odds"] or {"targets": []})["targets"]]
    f.round()
    assert "Orc 2" not in f.order()
    f.do("return", id=f.ident("Orc 2"))
    f.round()
    assert "Orc 2" in f.order()


def test_a_system_whose_rules_name_no_fled_state_refuses_flee() -> None:
    f = Fight("countup")
    f.add("Orc", hp=6)
    with pytest.raises(InputError) as err:
        f.do("flee", id=f.ident("Orc"))
    assert err.value.input == "action.type" and "name no fled state" in err.value.reason
    assert "fled" not in f.who("Orc")
