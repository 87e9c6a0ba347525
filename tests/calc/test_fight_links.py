"""calc.fight.links: each tracker card's calculator links carry the whole question — the acting
combatant's attacker inputs, the card's combatant as the target with its current hit points and
state, character or NPC as the rules treat it — in the fight's view. Each link's inputs are
evaluated and compared with a request built by hand from the rules' inputs."""

from __future__ import annotations

import pytest

from calc import evaluate
from calc.fight import fighter, links, rulings
from calc.inputs import data as data_mod
from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]


def link(f: Fight, target: str, calculator: str) -> dict:
    return f.who(target)["links"][calculator]


def answer(system: str, calculator: str, inputs: dict) -> dict:
    return evaluate({"system": system, "calculator": calculator, "inputs": inputs})


def acting(f: Fight, name: str) -> Fight:
    """Start round 1 and pass turns until `name` acts."""
    f.round()
    while f.current() != name:
        f.do("next_turn")
    return f


def test_phases_damage_per_round_vs_ogre_is_the_ogre_at_its_own_hp_and_hit_dice() -> None:
    """Issue 21: "Damage per round vs Ogre" (9 HP) opened with 6 HP and 2 Hit Dice."""
    f = Fight("phases")
    f.add("Mialee", "pc", 8, target_source="direct", attack_target=12)
    f.add("Ogre", "foe", 9, hd=4, defense=1)
    got = link(f, "Ogre", "round")
    assert got["inputs"]["target_hp"] == 9 and got["inputs"]["hd"] == 4
    assert got["attacker"] is None and "attack_target" not in got["inputs"]  # no one acts yet
    hand = {"hd": 4, "target_hp": 9, "defense": 1}
    assert answer("phases", "round", got["inputs"]) == answer("phases", "round", hand)
    assert "6-HP" not in answer("phases", "round", got["inputs"])["summary"]

    acting(f, "Mialee")
    got = link(f, "Ogre", "round")
    assert got["attacker"] == "Mialee"
    hand = {"target_source": "direct", "attack_target": 12, "hd": 4, "target_hp": 9, "defense": 1}
    assert got["inputs"] == hand and set(got["given"]) == set(hand)
    assert answer("phases", "round", got["inputs"]) == answer("phases", "round", hand)
    # the damage calculator's own health input (current_hp) is the Ogre's hit points too
    assert link(f, "Ogre", "damage")["inputs"]["current_hp"] == 9


def test_countup_damage_per_round_vs_aria_treats_her_as_a_character() -> None:
    """Issue 21: "Damage per round vs Aria", a character, was computed as an NPC who dies at 0."""
    f = Fight("countup")
    f.add("Aria", "pc", 10, ac=15)
    f.add("Orc", "foe", 9, to_hit=2, dice="1d6")
    acting(f, "Orc")
    got = link(f, "Aria", "round")
    hand = {"to_hit": 2, "dice": "1d6", "ac": 15, "target": "character", "target_hp": 10}
    assert got["inputs"] == hand and got["attacker"] == "Orc"
    result = answer("countup", "round", got["inputs"])
    assert result == answer("countup", "round", hand)
    labels = [c["label"] for c in result["chances"]]
    assert any(label.startswith("Hurt or worse") for label in labels)  # a character is Hurt first
    assert result != answer("countup", "round", {**hand, "target": "npc"})


def test_countup_a_hurt_character_at_minus_one_is_passed_at_minus_one() -> None:
    """Issue 21: a Hurt character at −1 HP was passed as 1 HP."""
    f = Fight("countup")
    f.add("Aria", "pc", 10)
    f.add("Orc", "foe", 9)
    f.damage("Aria", 11)
    assert f.who("Aria")["state"] == "Hurt"
    acting(f, "Orc")
    got = link(f, "Aria", "round")
    assert got["inputs"] == {"target": "character", "target_hp": -1}
    result = answer("countup", "round", got["inputs"])
    assert "already Hurt" in result["summary"] and "−1-HP" in result["summary"]
    assert all(c["label"].startswith("Dead") for c in result["chances"])  # only death is to come
    assert result != answer("countup", "round", {"target": "character", "target_hp": 1})


def test_countup_an_ordinary_npc_cannot_be_below_zero_in_the_round_calculator() -> None:
    with pytest.raises(Exception) as err:
        answer("countup", "round", {"target": "npc", "target_hp": 0})
    assert getattr(err.value, "input", None) == "target_hp"
    assert answer("countup", "round", {"target": "npc", "npc_hurt": True, "target_hp": 0})


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_link_is_the_fighters_inputs_and_answers(system: str) -> None:
    """Each card's link to each calculator: the acting combatant against the card's, as
    fighter.inputs_for maps them, and a request the calculator answers."""
    data = data_mod.system(system)
    f = Fight(system)
    f.add("Ann", "pc", 20)
    f.add("Orc", "foe", 15)
    f.damage("Orc", 4)
    acting(f, "Ann")
    options = rulings.typed_options(data, f.state["options"])
    states = {c["id"]: c["state"] for c in f.view["combatants"]}
    names = links.linked(data)
    assert "round" in names and "hit" in names
    for calculator in names:
        got = link(f, "Orc", calculator)
        want = fighter.inputs_for(f.state, f.ident("Ann"), f.ident("Orc"), calculator, data, options, states)
        assert got["inputs"] == want and got["given"] == list(want) and got["attacker"] == "Ann"
        health = fighter.health_input(data, calculator)
        if health:
            assert got["inputs"][health] == 11
        assert answer(system, calculator, got["inputs"])
        # the one acting's own card: the target's side of the question only
        own = link(f, "Ann", calculator)
        assert own["attacker"] is None
        assert not set(own["inputs"]) & links.attacker_inputs(data, calculator)


def test_a_target_the_calculator_cannot_take_gets_the_reason_not_a_clamped_link() -> None:
    f = Fight("segments")
    f.add("Ann", "pc", 20)
    f.add("Orc", "foe", 5)
    f.damage("Orc", 5)  # 0 hit points: the round calculator's target starts at 1
    got = link(f, "Orc", "round")
    assert "inputs" not in got and "Orc has 0 hit points" in got["problem"]
    assert link(f, "Orc", "hit")["inputs"] == {}  # the hit chance does not need hit points


def test_the_declaration_links_the_same_calculators() -> None:
    from macros.render.tracker import tracker_declaration

    rules = data_mod.load()
    for system in SYSTEMS:
        declared = tracker_declaration(system, rules["systems"][system])
        assert list(declared["links"]) == links.linked(data_mod.system(system))
        assert (declared["forecast"] is not None) == ("forecast" in data_mod.system(system).calculators)
