"""The tracker's Resolve (`attack` action, calc/fight/resolve.py): the roll decides hit or miss by
the system's hit calculator (the roll needed, asked with hand-built inputs here), and a hit's
damage is applied exactly as the `damage` action applies it."""

from __future__ import annotations

import pytest

from calc import evaluate
from calc.errors import InputError
from tests.calc.fight_helpers import Fight

CASES = {
    "countup": ({"to_hit": 3}, {"ac": 15}, {"to_hit": 3, "ac": 15}),
    "segments": ({"level": 3}, {"ac": 4}, {"level": 3, "ac": 4}),
    "action-points": ({"misc": 2}, {"defense": 14}, {"misc": 2, "defense": 14, "ability": 0}),  # no Strength given: +0
    "phases": ({"attack_type": "ranged"}, {"defense": 3}, {"attack_type": "ranged", "defense": 3}),
    "active-defense": ({"attack_skill": 5}, {"defender_dex": 3}, {"attack_skill": 5, "defender_dex": 3}),
}


@pytest.mark.parametrize("system", list(CASES))
def test_the_roll_needed_decides_and_a_hit_is_the_damage_action(system: str) -> None:
    mine, theirs, hand = CASES[system]
    need = evaluate({"system": system, "calculator": "hit", "inputs": hand})["roll_needed"]["value"]
    assert 2 <= need <= 20
    f = Fight(system)
    a, o = f.add("Ann", "pc", 20, **mine), f.add("Orc", "foe", 15, **theirs)
    before = f.state
    f.do("attack", id=a, target=o, roll=need - 1, damage=6)
    assert f.state == before and "a miss" in f.steps[0]["text"]
    f.do("attack", id=a, target=o, roll=need, damage=6)
    hit = f.state
    direct = Fight(system)
    direct.state = before
    direct.do("damage", id=o, amount=6)
    assert hit["combatants"] == direct.state["combatants"]
    assert "a hit, 6 damage (typed)" in f.steps[0]["text"] and f.steps[1:] == direct.steps


def test_no_roll_hits_when_the_hit_calculator_says_none_can() -> None:
    need = evaluate({"system": "countup", "calculator": "hit", "inputs": {"to_hit": 0, "ac": 30}})["roll_needed"]
    assert need["value"] is None or need["value"] > 20
    f = Fight("countup")
    a, o = f.add("Ann", "pc", 20, to_hit=0), f.add("Orc", "foe", 15, ac=30)
    f.do("attack", id=a, target=o, roll=20, damage=3)
    assert f.who("Orc")["hp"] == 15 and "a miss" in f.steps[0]["text"]


def test_a_roll_off_the_die_and_a_bad_target_are_named() -> None:
    f = Fight("countup")
    a, o = f.add("Ann", "pc", 20), f.add("Orc", "foe", 15)
    for action, where in (
        ({"roll": 21, "damage": 2, "target": o}, "action.roll"),
        ({"roll": 5, "damage": -1, "target": o}, "action.damage"),
        ({"roll": 5, "damage": 1, "target": "c99"}, "action.target"),
        ({"roll": 5, "damage": 1, "target": a}, "action.target"),
    ):
        with pytest.raises(InputError) as err:
            f.do("attack", id=a, **action)
        assert err.value.input == where
