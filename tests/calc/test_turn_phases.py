"""Phases' turn (issue #35 item 1), as its text has it: "Each combatant can move once and perform one
action per round", declared, resolved in its phase; "they roll a d20 … and resolve them in that
order" and that d20 is the action's own roll (the Regdar example: his 15 is his grapple roll), so
Resolve takes the phase's kept d20 and asks no other, but the second d20 of advantage or
disadvantage. A movement or declare-spells turn makes no attack, one attack a turn, and the
attack's type is the declaration's (Missile: ranged, so no parry)."""

from __future__ import annotations

from typing import Any

import pytest

from calc import evaluate
from calc import fight as engine
from calc.errors import InputError
from tests.calc.fight_helpers import Fight

MELEE_PHASE = "Melee and miscellaneous"


def do(f: Fight, action: str, /, **fields: Any) -> Fight:
    """`Fight.do` with a `kind` field (the helper's first argument has that name)."""
    answer = engine.act(f.system, f.state, {"type": action, **fields})
    f.state, f.view, f.steps = answer["state"], answer["view"], answer["steps"]
    return f


def refused(f: Fight, action: str, /, **fields: Any) -> InputError:
    before = f.state
    with pytest.raises(InputError) as err:
        do(f, action, **fields)
    assert f.state is before
    return err.value


def started(f: Fight, rolls: dict[str, int]) -> Fight:
    f.do("next_round").do("start_round", rolls=rolls)
    return f


def at(f: Fight, ident: str, phase: str) -> Fight:
    """`f` moved on to `ident`'s turn in `phase`."""
    while (f.view["current"], f.view["order"][f.view["turn"]]["phase"]) != (ident, phase):
        f.do("next_turn")
    return f


def hp(f: Fight, ident: str) -> int:
    return next(c["hp"] for c in f.state["combatants"] if c["id"] == ident)


def need(**inputs: Any) -> int:
    return evaluate({"system": "phases", "calculator": "hit", "inputs": inputs})["roll_needed"]["value"]


# --- the phase's d20 is the action's roll (simultaneous-actions, the Regdar example) ----------------


def test_regdar_and_the_orc_each_attack_with_the_d20_of_the_melee_phase_none_asked_again() -> None:
    """Regdar rolls 15 and the orc 18: the orc acts first, and each one's d20 is its attack roll."""
    f = Fight("phases")
    regdar = f.add("Regdar", "pc", 30, target_source="direct", attack_target=10)
    orc = f.add("Orc", "foe", 40, target_source="direct", attack_target=10, defense=3)
    started(f, {f"melee:{regdar}": 15, f"melee:{orc}": 18})
    assert f.current() == "Orc" and f.view["actions"]["roll"] == 18
    do(f, "attack", id=orc, target=regdar)  # no roll sent: the 18 of its phase
    assert f"rolls 18 on the d20, its roll of the {MELEE_PHASE} phase, against Regdar" in f.steps[0]["text"]
    assert hp(f, regdar) == 30 - (18 - 12)  # the margin over attack target 10 + Defense 2 (the default)
    f.do("next_turn")
    assert f.current() == "Regdar" and f.view["actions"]["roll"] == 15
    do(f, "attack", id=regdar, target=orc, roll="")  # the page's empty Roll field: the kept 15
    assert hp(f, orc) == 40 - (15 - 13)


def test_another_face_than_the_phase_roll_is_refused_naming_the_rule_the_same_face_is_taken() -> None:
    f = Fight("phases")
    ann = f.add("Ann", "pc", 30)
    orc = f.add("Orc", "foe", 40)
    started(f, {f"melee:{ann}": 14, f"melee:{orc}": 3})
    err = refused(f, "attack", id=ann, target=orc, roll=20)
    assert err.input == "action.roll"
    assert err.reason == (
        f"Ann rolled 14 for the {MELEE_PHASE} phase: that roll is the attack's, no other is rolled "
        "(Simultaneous actions and the phase roll)"
    )
    do(f, "attack", id=ann, target=orc, roll="14")
    assert "rolls 14 on the d20" in f.steps[0]["text"]


def test_outside_a_round_the_attack_roll_is_still_asked() -> None:
    f = Fight("phases")
    ann, orc = f.add("Ann", "pc", 30), f.add("Orc", "foe", 40)
    err = refused(f, "attack", id=ann, target=orc)
    assert err.input == "action.roll"


@pytest.mark.parametrize(
    ("reading", "mode", "second", "kept"),
    [
        ("better-worse", "advantage", 4, 16),  # the ruling: the higher of the phase roll and the second
        ("better-worse", "disadvantage", 4, 4),  # the lower
        ("literal", "advantage", 4, 4),  # the text word for word: the second roll either way
        ("literal", "disadvantage", 19, 19),
    ],
)
def test_advantage_rolls_only_the_second_d20_beside_the_phase_roll_both_readings(
    reading: str, mode: str, second: int, kept: int
) -> None:
    f = Fight("phases", {"advantage_reading": reading})
    ann = f.add("Ann", "pc", 30, roll_mode=mode, target_source="direct", attack_target=3)
    orc = f.add("Orc", "foe", 40)
    started(f, {f"melee:{ann}": 16, f"melee:{orc}": 2})
    assert f.current() == "Ann"
    target = next(t for t in f.view["odds"]["targets"] if t["id"] == orc)
    assert target["resolve"]["rolls"] == [
        {"key": "second_roll", "kind": mode, "label": f"Second roll, {mode}", "die": "d20"}
    ]
    err = refused(f, "attack", id=ann, target=orc)
    assert err.input == "action.second_roll"  # only the second d20 is asked
    do(f, "attack", id=ann, target=orc, second_roll=second)
    assert f"16 and {second} on the d20s" in f.steps[0]["text"]
    assert hp(f, orc) == 40 - (kept - 5 if kept >= 5 else 0)  # attack target 3 + Defense 2: a hit deals the margin


# --- one move and one action a round, each in its phase (combat-round, phase-order) ----------------


def test_a_movement_turn_moves_once_and_makes_no_attack() -> None:
    f = Fight("phases")
    ann = f.add("Ann", "pc", 30)
    orc = f.add("Orc", "foe", 40)
    f.do("declare", id=ann, declaration={"move": True, "action": "melee"})
    started(f, {f"movement:{ann}": 12, f"melee:{ann}": 9, f"melee:{orc}": 5})
    assert f.view["order"][0]["phase"] == "movement" and f.current() == "Ann"
    shown = f.view["actions"]
    assert [r["kind"] for r in shown["actions"]] == ["move"] and shown["text"] == "1 move left"
    assert shown["roll"] is None and shown["next"] is None  # a Dexterity roll, no attack roll
    err = refused(f, "attack", id=ann, target=orc)
    assert err.reason == (
        "Ann's turn in the Movement phase gives no attack: attacks are made in the Ranged attacks phase or "
        f"the Spells phase or the {MELEE_PHASE} phase (The six phases)"
    )
    err = refused(f, "attack", id=ann, target=orc, kind="melee")
    assert (
        err.reason
        == f"Ann acts in the Movement phase now: Melee attack is taken in the {MELEE_PHASE} phase (The six phases)"
    )
    do(f, "act", id=ann, kind="move")
    assert f.steps[0]["text"] == "Ann takes Move (1 move): 0 move left."
    err = refused(f, "act", id=ann, kind="move")
    assert err.reason == "Ann has no move left this turn: Move costs 1 (Rounds and phases)"
    at(f, ann, "melee")
    assert [r["kind"] for r in f.view["actions"]["actions"]] == ["melee", "other"]
    assert f.view["actions"]["text"] == "1 action left"
    err = refused(f, "act", id=ann, kind="move")
    assert "Move is taken in the Movement phase" in err.reason


def test_one_attack_a_turn_a_second_is_refused_and_the_other_action_too() -> None:
    f = Fight("phases")
    ann, orc = f.add("Ann", "pc", 30), f.add("Orc", "foe", 60)
    started(f, {f"melee:{ann}": 15, f"melee:{orc}": 3})
    do(f, "attack", id=ann, target=orc)
    assert f.steps[0]["text"].endswith(" 0 action left.")
    err = refused(f, "attack", id=ann, target=orc)
    assert err.input == "action.kind"
    assert err.reason == "Ann has made the attacks its turn plans (1 × Melee attack): 0 action left (The six phases)"
    err = refused(f, "act", id=ann, kind="other")
    assert (
        err.reason == "Ann has no action left this turn: Other action (dodge, feint, grapple, shove, …) costs 1 "
        "(Rounds and phases)"
    )
    row = next(r for r in f.view["actions"]["actions"] if r["kind"] == "melee")
    assert not row["allowed"] and row["taken"] == 1


def test_a_spell_is_declared_in_its_phase_and_cast_in_the_spells_phase_as_a_ranged_attack() -> None:
    """spell-attacks: "use the same rules as ranged attacks": the target's parry does not count."""
    f = Fight("phases")
    mia = f.add("Mialee", "pc", 30, target_source="direct", attack_target=10)
    orc = f.add("Orc", "foe", 40, defense=2, parry_weapon="longsword")
    f.do("declare", id=mia, declaration={"action": "spell"})
    started(f, {f"declare-spells:{mia}": 8, f"spells:{mia}": 13, f"melee:{orc}": 3})
    assert f.view["order"][0]["phase"] == "declare-spells"
    err = refused(f, "attack", id=mia, target=orc)
    assert "turn in the Declare spells phase gives no attack" in err.reason
    do(f, "act", id=mia, kind="declare_spell")
    assert f.steps[0]["text"] == "Mialee takes Declare a spell."
    assert "1 a turn" in refused(f, "act", id=mia, kind="declare_spell").reason
    at(f, mia, "spells")
    assert [r["kind"] for r in f.view["actions"]["actions"]] == ["spell", "cast"]
    assert f.view["actions"]["next"] == "spell"
    assert (
        need(target_source="direct", attack_target=10, defense=2, parry_weapon="longsword", attack_type="spell") == 12
    )
    do(f, "attack", id=mia, target=orc)
    assert "(spell attack) rolls 13 on the d20" in f.steps[0]["text"] and "target number 12" in f.steps[0]["text"]
    assert hp(f, orc) == 40 - 1


# --- the attack's type is the declaration's ---------------------------------------------------------


def test_a_declared_missile_attack_is_ranged_in_the_odds_and_in_resolve_no_parry() -> None:
    """The issue: "declared Missile, shown Melee". Against a longsword (parry +5) a melee attack
    needs 10 + 2 + 5 = 17, a ranged one 12."""
    f = Fight("phases")
    ann = f.add("Ann", "pc", 30, target_source="direct", attack_target=10)  # its values: a melee attack
    orc = f.add("Orc", "foe", 40, defense=2, parry_weapon="longsword")
    assert need(target_source="direct", attack_target=10, defense=2, parry_weapon="longsword") == 17
    f.do("declare", id=ann, declaration={"action": "ranged"})
    started(f, {f"ranged:{ann}": 14, f"melee:{orc}": 3})
    assert f.view["order"][0]["phase"] == "ranged" and f.current() == "Ann"
    odds = f.view["odds"]
    assert odds["attack"] is None  # the card's attack choice is the declaration's Action
    assert next(t for t in odds["targets"] if t["id"] == orc)["request"]["inputs"]["attack_type"] == "ranged"
    assert f.view["actions"]["next"] == "ranged"
    do(f, "attack", id=ann, target=orc)
    assert "Ann (missile attack) rolls 14" in f.steps[0]["text"] and "target number 12" in f.steps[0]["text"]
    assert hp(f, orc) == 40 - 2


def test_the_first_declaration_is_the_attack_the_values_name() -> None:
    f = Fight("phases")
    f.add("Archer", "pc", 10, attack_type="ranged")
    f.add("Mage", "pc", 10, attack_type="spell")
    f.add("Orc", "foe", 10)
    assert [c["declared"] for c in f.state["combatants"]] == [
        {"move": False, "action": "ranged"},
        {"move": False, "action": "spell"},
        {"move": False, "action": "melee"},
    ]
    f.do("next_round")
    assert sorted(d["key"] for d in f.view["pending"]["dice"]) == [
        "declare-spells:c2",
        "melee:c3",
        "ranged:c1",
        "spells:c2",
    ]


def test_a_melee_turn_attacks_in_melee_whatever_the_values_say_and_a_monster_rolls_its_dice() -> None:
    """The n-th (here the one) attack of the turn: a monster's damage dice, a natural 20 its critical."""
    f = Fight("phases")
    ogre = f.add("Ogre", "foe", 40, mode="monster", damage_dice="2d6")
    ann = f.add("Ann", "pc", 30, defense=3)
    started(f, {f"melee:{ogre}": 20, f"melee:{ann}": 2})
    target = next(t for t in f.view["odds"]["targets"] if t["id"] == ann)
    assert target["resolve"]["dice"] == "2d6"
    before = f.state
    do(f, "attack", id=ogre, target=ann, faces=[2, 5])
    direct = Fight("phases")
    direct.state = before
    direct.do("damage", id=ann, amount=7, critical=True)
    assert f.state["combatants"] == direct.state["combatants"]


# --- the saved state ------------------------------------------------------------------------------


def test_a_saved_turn_loads_as_it_was_and_still_refuses_a_second_attack() -> None:
    f = Fight("phases")
    ann, orc = f.add("Ann", "pc", 30), f.add("Orc", "foe", 60)
    started(f, {f"melee:{ann}": 15, f"melee:{orc}": 3})
    do(f, "attack", id=ann, target=orc)
    saved = f.state
    loaded = engine.act("phases", None, {"type": "load", "state": saved})
    assert loaded["state"] == saved and loaded["dropped"] == []
    assert loaded["view"]["actions"] == f.view["actions"]
    with pytest.raises(InputError) as err:
        engine.act("phases", loaded["state"], {"type": "attack", "id": ann, "target": orc})
    assert "has made the attacks its turn plans" in err.value.reason
