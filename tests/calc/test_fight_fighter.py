"""calc.fight.fighter: a combatant as a fighter, mapped to a calculator's inputs. Each system's
request is compared with one built by hand from the rules' inputs, and evaluated the same."""

from __future__ import annotations

import pytest

from calc import evaluate
from calc.errors import InputError
from calc.fight import fighter, rulings
from calc.inputs import data as data_mod
from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]


def _request(f: Fight, attacker: str, target: str) -> dict:
    data = data_mod.system(f.system)
    states = {c["id"]: c["state"] for c in f.view["combatants"]}
    options = rulings.typed_options(data, f.state["options"])
    return fighter.request(f.state, f.ident(attacker), f.ident(target), data, options, states)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_declares_the_round_calculators_fighter_inputs(system: str) -> None:
    data = data_mod.system(system)
    spec = fighter.declaration(data)
    assert spec is not None and spec["calculator"] == "round"
    round_inputs = {d["name"]: d for d in data.calculator("round")["inputs"]}
    filled = {spec["health"], spec.get("max"), (spec.get("side") or {}).get("input"), *spec.get("from", {})}
    filled |= set(spec.get("state", {})) | {"attackers"}
    carried = {d["name"] for d in fighter.carried(data)}
    for name, decl in round_inputs.items():
        if decl.get("role") in ("attacker", "target") and name not in filled:
            assert name in carried, name
    labels = [d.get("card_label") for d in fighter.carried(data)]
    assert all(labels) and len(set(labels)) == len(labels)  # the card tells each value apart
    assert not [label for label in labels if label.startswith(("Target", "Defender", "Enemy", "Your"))]


def test_countup_attacker_and_target_values_and_a_pc_target_is_a_character() -> None:
    f = Fight("countup")
    f.add("Aria", "pc", 20, to_hit=4, dice="1d10", ac=16, attack="thrown")
    f.add("Orc", "foe", 9, ac=12, to_hit=1)
    f.damage("Orc", 2)
    assert _request(f, "Aria", "Orc") == {
        "system": "countup",
        "calculator": "round",
        "inputs": {"attack": "thrown", "to_hit": 4, "ac": 12, "dice": "1d10", "target_hp": 7},
    }
    back = _request(f, "Orc", "Aria")["inputs"]
    assert back == {"to_hit": 1, "ac": 16, "target": "character", "target_hp": 20}
    assert evaluate(_request(f, "Aria", "Orc")) == evaluate(
        {
            "system": "countup",
            "calculator": "round",
            "inputs": {"attack": "thrown", "to_hit": 4, "ac": 12, "dice": "1d10", "target_hp": 7},
        }
    )


def test_countup_a_hurt_attacker_attacks_as_hurt_and_a_target_below_the_inputs_range_is_named() -> None:
    f = Fight("countup")
    f.add("Aria", "pc", 10)
    f.add("Orc", "foe", 9)
    f.damage("Aria", 11)  # −1: Hurt
    assert f.who("Aria")["state"] == "Hurt"
    assert _request(f, "Aria", "Orc")["inputs"]["hurt"] is True
    assert "hurt" not in _request(f, "Orc", "Orc")["inputs"]
    # a Hurt character is passed at its real hit points (countup's round takes −9 to 200)
    back = _request(f, "Orc", "Aria")["inputs"]
    assert back["target_hp"] == -1 and back["target"] == "character"


def test_action_points_inputs_from_fields_of_another_name_and_the_maximum() -> None:
    f = Fight("action-points")
    f.add("Kael", "pc", 30, wounds=1, bonus=3, dice="1d10", use_preset=False)
    f.add("Brute", "foe", 25, wounds=2, constitution=4, defense=13, target_base_hp=9)
    f.damage("Brute", 5)
    got = _request(f, "Kael", "Brute")["inputs"]
    assert got["target_hp"] == 20 and got["target_max_hp"] == 25
    assert got["target_wounds"] == 2 and got["target_con"] == 4 and got["wounds"] == 1
    assert got["initiative"] == 3 and got["dice"] == "1d10" and got["defense"] == 13
    assert got["target_base_hp"] == 9


def test_phases_a_monster_keeps_its_hit_dice_and_an_attacker_its_damage_dice() -> None:
    f = Fight("phases")
    f.add("Ogre", "foe", 9, hd=4, mode="monster", damage_dice="1d10", defense=3)
    f.add("Mialee", "pc", 6, attack_type="ranged", max_hp=6)
    got = _request(f, "Mialee", "Ogre")["inputs"]
    assert got == {"attack_type": "ranged", "defense": 3, "hd": 4, "target_hp": 9}
    back = _request(f, "Ogre", "Mialee")["inputs"]
    assert back == {"mode": "monster", "damage_dice": "1d10", "target_kind": "character", "target_hp": 6, "max_hp": 6}
    evaluate(_request(f, "Ogre", "Mialee"))  # a valid request


def test_a_fights_ruling_is_the_requests_input_of_that_name() -> None:
    f = Fight("segments", options={"drop_at": "minus-ten"})
    f.add("Hero", "pc", 12, level=3)
    f.add("Orc", "foe", 9, ac=6)
    got = _request(f, "Hero", "Orc")["inputs"]
    assert got == {"level": 3, "ac": 6, "target_hp": 9, "drop_at": "minus-ten"}


def test_an_input_whose_when_does_not_hold_is_left_out() -> None:
    f = Fight("countup")
    f.add("Aria", "pc", 20, strength_from="bonus", attack="thrown")
    f.add("Orc", "foe", 9)
    assert _request(f, "Aria", "Orc")["inputs"]["strength_from"] == "bonus"
    f.do("edit", id=f.ident("Aria"), changes={"values": {"attack": "melee"}})
    assert "strength_from" not in _request(f, "Aria", "Orc")["inputs"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_systems_request_evaluates_and_equals_the_hand_built_one(system: str) -> None:
    f = Fight(system)
    f.add("A", "pc", 12)
    f.add("B", "foe", 8)
    req = _request(f, "A", "B")
    data = data_mod.system(system)
    hand = {fighter.declaration(data)["health"]: 8}
    assert {k: v for k, v in req["inputs"].items() if k in hand} == hand
    assert evaluate(req)["rounds"] == evaluate({**req, "inputs": {**req["inputs"]}})["rounds"]


def test_fighter_values_are_checked_like_the_other_values() -> None:
    f = Fight("countup")
    with pytest.raises(InputError) as err:
        f.add("Aria", "pc", 20, dice="2q6")
    assert err.value.input == "action.combatant.values.dice"
    with pytest.raises(InputError) as err:
        f.add("Aria", "pc", 20, nonsense=1)
    assert err.value.input == "action.combatant.values.nonsense"
    f.add("Aria", "pc", 20, to_hit=3)
    assert f.state["combatants"][0]["values"]["to_hit"] == 3
    assert "dice" not in f.state["combatants"][0]["values"]  # carried only when given


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_views_odds_hold_each_targets_request_and_default_to_an_acting_foe(system: str) -> None:
    f = Fight(system)
    f.add("Ann", "pc", 20)
    f.add("Bob", "pc", 12)
    f.add("Orc", "foe", 9)
    f.add("Rat", "foe", 3)
    f.damage("Rat", 30)  # down or dead: listed, not the default
    f.round()
    odds = f.view["odds"]
    acting = f.view["current"]
    assert odds["attacker"] == acting
    me = next(c for c in f.view["combatants"] if c["id"] == acting)
    default = next(t for t in odds["targets"] if t["id"] == odds["target"])
    if me["side"] == "pc":
        assert default["name"] == "Orc"
    else:
        assert default["side"] == "pc"
    for t in odds["targets"]:
        if "request" in t:
            assert t["request"] == _request(f, me["name"], t["name"])
    assert odds["die"] == "d20"


def test_inputs_for_several_targets_equal_one_at_a_time_and_name_a_refusal() -> None:
    f = Fight("segments")
    a = f.add("Ann", "pc", 20, level=4)
    b, o = f.add("Bob", "pc", 12, ac=3), f.add("Orc", "foe", 9, ac=6)
    f.damage("Bob", 12)  # 0: Down, below the round calculator's hit points (1 or more)
    data = data_mod.system("segments")
    got = fighter.inputs_for_targets(f.state, a, [b, o], "round", data)
    assert got[o] == fighter.inputs_for(f.state, a, o, "round", data) == {"level": 4, "ac": 6, "target_hp": 9}
    refused = got[b]
    assert isinstance(refused, InputError) and refused.input == "target_hp"
