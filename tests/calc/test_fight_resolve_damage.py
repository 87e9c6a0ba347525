"""Resolve's damage rolled at the table (calc/fight/resolve.py, resolve_rules.py): the view names the
dice each system's rule rolls for the attack at hand, the faces sent with the `attack` action are
turned into damage by that rule, and the damage is applied as the `damage` action applies it.
Expected figures are the source texts' worked examples, or worked out here by hand from the rule."""

from __future__ import annotations

import pytest

from calc import evaluate
from calc.errors import InputError
from tests.calc.fight_helpers import Fight


def _fight(system: str, mine: dict, theirs: dict, hp: int = 40) -> tuple[Fight, str, str]:
    f = Fight(system)
    a, o = f.add("Ann", "pc", 30, **mine), f.add("Orc", "foe", hp, **theirs)
    return f, a, o


def _plan(f: Fight, target: str) -> dict:
    """What the acting card's Resolve rolls against `target` (the view's odds)."""
    look = Fight(f.system)
    look.state = f.state
    look.round()
    for _ in range(4):
        if look.view["odds"] and look.view["odds"]["attacker"] == look.ident("Ann"):
            return next(t for t in look.view["odds"]["targets"] if t["id"] == target)["resolve"]
        look.do("next_turn")
    raise AssertionError("Ann never acts")


def _plan_error(f: Fight, target: str) -> dict:
    return _plan(f, target)["error"]


def _taken(f: Fight, o: str) -> int:
    return 40 - next(c for c in f.state["combatants"] if c["id"] == o)["hp"]


def _damaged_directly(f: Fight, before: dict, o: str, amount: int, critical: bool = False) -> dict:
    direct = Fight(f.system)
    direct.state = before
    direct.do("damage", id=o, amount=amount, critical=critical)
    return direct.state


# --- countup: the text's two worked examples ------------------------------------------------------
def test_countup_longsword_example() -> None:
    """A 5th-level Fighter, Strength 16, longsword +1 against an Orc in scale mail (AC 14): a d20
    roll of 10 makes 18, a hit; the 1d8 rolls 5: 5 + 2 (Strength) + 1 (the sword) = 8 damage."""
    f, a, o = _fight(
        "countup", {"to_hit": 5, "ability_score": 16, "misc": 1, "dice": "1d8", "damage_misc": 1}, {"ac": 14}
    )
    f.do("attack", id=a, target=o, roll=10, faces=[5])
    assert _taken(f, o) == 8
    assert "8 damage (1d8: 5)" in f.steps[0]["text"]


def test_countup_thrown_dagger_example() -> None:
    """The same Fighter throws a dagger (Dexterity 14): 10 + 5 + 1 = 16 hits AC 14; the 1d4 rolls
    3, + 2 for Strength (thrown) = 5 damage."""
    mine = {"attack": "thrown", "to_hit": 5, "ability_score": 14, "misc": 0, "dice": "1d4", "damage_misc": 0}
    f, a, o = _fight("countup", mine | {"strength_score": 16}, {"ac": 14})
    assert _plan(f, o)["dice"] == "1d4"
    f.do("attack", id=a, target=o, roll=10, faces=[3])
    assert _taken(f, o) == 5


def test_countup_a_miss_deals_nothing_and_ignores_the_faces() -> None:
    f, a, o = _fight("countup", {}, {"ac": 14})
    need = evaluate({"system": "countup", "calculator": "hit", "inputs": {"ac": 14}})["roll_needed"]["value"]
    before = f.state
    f.do("attack", id=a, target=o, roll=need - 1, faces=[8])
    assert f.state == before and "a miss" in f.steps[0]["text"]


# --- segments: dice + modifier, the highest multiplier on the total ---------------------------------
def test_segments_a_backstab_doubles_dice_and_modifier() -> None:
    routine = [{"name": "Dagger", "dice": "2d4", "modifier": 1, "to_hit": 0}]
    mult = [{"source": "backstab", "factor": 2}, {"source": "set", "factor": 3}]
    f, a, o = _fight("segments", {"routine": routine, "multipliers": mult}, {"ac": 10})
    assert _plan(f, o)["roll"] == [{"count": 2, "sides": 4}]
    before = f.state
    f.do("attack", id=a, target=o, roll=20, faces=[3, 4])
    assert _taken(f, o) == (3 + 4 + 1) * 3  # the highest multiplier only, on dice and modifier
    assert f.state["combatants"] == _damaged_directly(f, before, o, 24, critical=True)["combatants"]


def test_segments_the_routine_attack_own_to_hit_bonus_counts() -> None:
    """As the odds' chance to hit has it: the attack's own to-hit bonus on the attacker's."""
    routine = [{"name": "Axe", "dice": "1d8", "modifier": 0, "to_hit": 4}]
    f, a, o = _fight("segments", {"routine": routine}, {"ac": 4})
    need = evaluate({"system": "segments", "calculator": "hit", "inputs": {"ac": 4, "bonus": 4}})["roll_needed"]
    before = f.state
    f.do("attack", id=a, target=o, roll=need["value"] - 1, faces=[3])
    assert f.state == before
    f.do("attack", id=a, target=o, roll=need["value"], faces=[3])
    assert _taken(f, o) == 3


# --- action-points: the power attack example; the critical multiplier -------------------------------
def test_action_points_power_attack_rolls_the_dice_twice() -> None:
    """A Longsword's 2d8 with Strength + half level: a power attack rolls 4d8, adding them once."""
    mine = {"use_preset": False, "dice": "2d8", "threshold": 20, "multiplier": 2, "standard": 0, "quick": 0, "power": 1}
    f, a, o = _fight("action-points", mine | {"damage_bonus": 4}, {"defense": 10})
    assert _plan(f, o)["dice"] == "4d8"
    with pytest.raises(InputError) as err:
        f.do("attack", id=a, target=o, roll=15, faces=[1, 2])
    assert err.value.input == "action.faces"
    before = f.state
    f.do("attack", id=a, target=o, roll=15, faces=[1, 2, 3, 4])
    assert _taken(f, o) == 1 + 2 + 3 + 4 + 4
    assert f.state["combatants"] == _damaged_directly(f, before, o, 14)["combatants"]


def test_action_points_a_critical_multiplies_the_total() -> None:
    mine = {"use_preset": False, "dice": "1d8", "threshold": 19, "multiplier": 3, "standard": 1, "quick": 0}
    f, a, o = _fight("action-points", mine | {"damage_bonus": 2}, {"defense": 12})
    before = f.state
    f.do("attack", id=a, target=o, roll=19, faces=[5])
    assert _taken(f, o) == (5 + 2) * 3  # the multiply ruling: the whole total
    assert f.state["combatants"] == _damaged_directly(f, before, o, 21, critical=True)["combatants"]
    f.state = before
    f.do("attack", id=a, target=o, roll=12, faces=[5])
    assert _taken(f, o) == 7


# --- phases: the margin of success -----------------------------------------------------------------
def _number(inputs: dict) -> int:
    return evaluate({"system": "phases", "calculator": "hit", "inputs": inputs})["roll_needed"]["value"]


def test_phases_damage_is_the_margin_plus_modifiers_at_least_one() -> None:
    mine = {"attack_type": "ranged", "modifiers": 2}
    f, a, o = _fight("phases", mine, {"defense": 3}, hp=40)
    need = _number({"attack_type": "ranged", "defense": 3})
    assert _plan(f, o)["dice"] is None
    with pytest.raises(InputError) as err:
        f.do("attack", id=a, target=o, roll=need + 3, faces=[4])
    assert err.value.input == "action.faces"
    before = f.state
    f.do("attack", id=a, target=o, roll=need + 3)
    margin = 3 + 2
    assert f.state["combatants"] == _damaged_directly(f, before, o, margin)["combatants"]
    low = Fight("phases")
    low.state = before
    low.do("edit", id=a, changes={"values": {"modifiers": -3}})
    low.do("attack", id=a, target=o, roll=need)
    assert "a hit, 1 damage" in low.steps[0]["text"]  # at least 1


def test_phases_a_monster_rolls_its_dice_and_a_natural_20_is_critical() -> None:
    f, a, o = _fight("phases", {"mode": "monster", "damage_dice": "2d6"}, {"defense": 3}, hp=40)
    assert _plan(f, o)["dice"] == "2d6"
    before = f.state
    f.do("attack", id=a, target=o, roll=20, faces=[2, 5])
    assert f.state["combatants"] == _damaged_directly(f, before, o, 7, critical=True)["combatants"]


# --- active-defense: Passive Defense, then the defender's block ------------------------------------
AD_MINE = {"attack_skill": 4, "attack_ability": 2, "damage_dice": "1d8", "damage_strength": 2}
AD_THEIRS = {"defender_dex": 2, "armor": 2, "defense": "block", "reserves": 1, "block_skill": 3, "defender_str": 1}


def test_active_defense_the_block_negates_on_a_tie_and_fails_below() -> None:
    """d20 + 6 against Passive Defense 10 + 2; the block d20 + 3 + 1 must reach the attack total
    (ties to the defender, the ruling); a landing 1d8 + 2 − armour 2."""
    f, a, o = _fight("active-defense", AD_MINE, AD_THEIRS)
    assert _plan(f, o)["defense"] == {"kind": "block", "label": "Block", "die": "d20"}
    before = f.state
    with pytest.raises(InputError) as err:
        f.do("attack", id=a, target=o, roll=10, faces=[6])
    assert err.value.input == "action.defense_roll"
    f.do("attack", id=a, target=o, roll=10, defense_roll=12, faces=[6])  # 16 against a block of 16
    assert _taken(f, o) == 0 and "negates" in f.steps[0]["text"]
    f.state = before
    f.do("attack", id=a, target=o, roll=10, defense_roll=11, faces=[6])  # a block of 15
    assert _taken(f, o) == 6 + 2 - 2


def test_active_defense_short_of_passive_defense_and_undefended() -> None:
    f, a, o = _fight("active-defense", AD_MINE, AD_THEIRS | {"reserves": 0})
    assert _plan(f, o)["defense"] is None  # no reserve held: nothing to block with
    before = f.state
    f.do("attack", id=a, target=o, roll=5, faces=[6])  # 11 < 12
    assert f.state == before
    f.do("attack", id=a, target=o, roll=20, faces=[8])  # a natural 20 counts as 30; no extra damage
    assert _taken(f, o) == 8


# --- bad faces ------------------------------------------------------------------------------------
@pytest.mark.parametrize("faces", [[9], [0], [3, 3], [], "x", [True]])
def test_bad_faces_are_named_and_change_nothing(faces: object) -> None:
    f, a, o = _fight("countup", {"dice": "1d8"}, {"ac": 5})
    before = f.state
    with pytest.raises(InputError) as err:
        f.do("attack", id=a, target=o, roll=15, faces=faces)
    assert err.value.input == "action.faces"
    assert f.state == before


def test_faces_typed_as_text_and_a_typed_total_override() -> None:
    f, a, o = _fight("segments", {"routine": [{"name": "Axe", "dice": "2d6", "modifier": 0, "to_hit": 0}]}, {"ac": 10})
    f.do("attack", id=a, target=o, roll=20, faces="2, 6")
    assert _taken(f, o) == 8
    f.do("attack", id=a, target=o, roll=20, faces="1 1", damage=3)
    assert _taken(f, o) == 11
