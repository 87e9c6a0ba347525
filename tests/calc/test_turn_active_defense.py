"""Active-defense's turn (calc/fight/economy.py; 004, "Types of Actions", "Reserve Actions",
"Fighting with Two Weapons"): one complex and one basic action a round, free actions; a character
holds all its complex actions in reserve until its turn, so a block or dodge before it spends the
complex action its turn would attack with, and one its turn spends is not held for a block later
that round; two weapons give a bonus complex action for the off hand's attack (the round
calculator's `off_hand`), at the off hand's dice and penalty. Both readings of reserve-spending."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from calc import fight as engine
from calc.errors import InputError
from calc.inputs import data as data_mod
from macros.check import loader
from tests.calc.fight_helpers import Fight
from tests.calc.test_turn_economy import GOOD, TURN, do, refused

SWORD = {"attack_skill": 4, "attack_ability": 2, "damage_dice": "1d8", "damage_strength": 2}
GUARD = {"defender_dex": 0, "armor": 0, "defense": "block", "block_skill": 3, "defender_str": 1, "reserves": 1}
# Ann: +6 to hit, a block at d20 + 4; Passive Defense 10 (Dexterity modifier 0)


def pair(mine: dict | None = None, theirs: dict | None = None, options: dict | None = None) -> tuple[Fight, str, str]:
    """Ann (higher initiative) then the Orc, both armed and guarding, the first round at Ann's turn."""
    f = Fight("active-defense", options)
    a = f.add("Ann", "pc", 40, dexterity=2, **(SWORD | GUARD | (mine or {})))
    o = f.add("Orc", "foe", 40, dexterity=0, **(SWORD | GUARD | (theirs or {})))
    f.round()
    assert f.order() == ["Ann", "Orc"] and f.view["current"] == a
    return f, a, o


def card(f: Fight, ident: str) -> dict:
    return next(c for c in f.view["combatants"] if c["id"] == ident)


def resolve(f: Fight, target: str) -> dict:
    """What the acting combatant's Resolve rolls against `target` now (the view's odds)."""
    return next(t for t in f.view["odds"]["targets"] if t["id"] == target)["resolve"]


def row(f: Fight, kind: str) -> dict:
    return next(r for r in f.view["actions"]["actions"] if r["kind"] == kind)


def hp(f: Fight, ident: str) -> int:
    return next(c for c in f.state["combatants"] if c["id"] == ident)["hp"]


# --- Types of Actions: one complex action (an attack) and one basic action a round, free actions ---------


def test_one_attack_a_turn_one_basic_action_free_actions_any_number() -> None:
    f, a, o = pair()
    assert f.view["actions"]["text"] == "1 complex action left, 1 basic action left"
    assert f.view["actions"]["next"] == "attack"
    do(f, "attack", id=a, target=o, roll=2)  # 8 < 10: a miss spends the action all the same
    assert f.steps[0]["text"].endswith("a miss. 0 complex action left, 1 basic action left.")
    err = refused(f, "attack", id=a, target=o, roll=20)
    assert err.input == "action.kind" and err.reason == (
        "Ann has made the attacks its turn plans (1 × Attack): 0 complex action left, 1 basic action left "
        "(Types of actions)"
    )
    err = refused(f, "attack", id=a, target=o, roll=20, kind="attack")
    assert err.reason == "Ann has taken Attack this turn: 1 a turn (Complex actions)"
    assert (
        "no complex action left this round: Feint costs 1 (Complex actions)"
        in refused(f, "act", id=a, kind="feint").reason
    )
    do(f, "act", id=a, kind="basic")
    assert "no basic action left this turn" in refused(f, "act", id=a, kind="basic").reason
    for _ in range(5):
        do(f, "act", id=a, kind="free")
    assert f.view["actions"]["text"] == "0 complex action left, 0 basic action left"


def test_a_feint_or_a_spell_takes_the_complex_action_the_attack_would() -> None:
    for kind in ("feint", "complex"):
        f, a, o = pair()
        do(f, "act", id=a, kind=kind)
        err = refused(f, "attack", id=a, target=o, roll=20)
        assert "Ann has no complex action left this round: Attack costs 1 (Complex actions)" in err.reason


# --- Reserve Actions: held until its turn, spent before it; what its turn spends is not held after -------


def test_a_combatant_that_attacked_on_its_turn_has_no_block_later_that_round() -> None:
    f, a, o = pair()
    assert card(f, a)["reserves_left"] == 1
    do(f, "attack", id=a, target=o, roll=2)
    assert (
        card(f, a)["reserves_left"] == 0 and card(f, a)["reserves_note"] == "Reserve actions left this round: 0 of 1."
    )
    do(f, "next_turn")
    assert resolve(f, a)["defense"] is None and resolve(f, a)["rolls"] == []  # nothing to block with
    do(f, "attack", id=o, target=a, roll=10, defense_roll=20, faces=[3])  # 16 ≥ 10: no block, it lands
    assert hp(f, a) == 40 - (3 + 2) and "block" not in f.steps[0]["text"]


def test_a_combatant_that_held_its_complex_action_blocks_later_that_round() -> None:
    f, a, o = pair()
    do(f, "act", id=a, kind="basic")  # it moves and holds its complex action in reserve
    do(f, "next_turn")
    assert resolve(f, a)["defense"] == {"kind": "block", "label": "Block", "die": "d20"}
    do(f, "attack", id=o, target=a, roll=10, defense_roll=20, faces=[3])  # 24 ≥ 16: blocked
    assert hp(f, a) == 40 and "the block (20) negates it" in f.steps[0]["text"]
    assert card(f, a)["reserves_left"] == 0


def test_a_combatant_that_blocked_before_its_turn_does_not_attack_on_it() -> None:
    f, a, o = pair()
    do(f, "attack", id=a, target=o, roll=10, defense_roll=20)  # the Orc blocks before its turn
    do(f, "next_turn")
    assert f.view["actions"]["left"][0] == {"pool": "complex", "label": "complex action", "amount": 1, "left": 0}
    why = (
        "Orc has no complex action left this round, 1 spent out of its turn (Reserve actions): Attack costs 1 "
        "(Complex actions)"
    )
    assert row(f, "attack")["why"] == why and not row(f, "attack")["allowed"] and f.view["actions"]["next"] is None
    err = refused(f, "attack", id=o, target=a, roll=20)
    assert err.input == "action.kind" and why in err.reason
    assert refused(f, "attack", id=o, target=a, roll=20, kind="attack").reason == why
    do(f, "act", id=o, kind="basic")  # its basic action is still its own


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
def test_an_attack_short_of_passive_defense_spends_the_reserve_only_under_the_other_reading(spend: str) -> None:
    """reserve-spending: a block answers an attack's total, so an attack that misses Passive Defense
    takes no reserve (the ruling) — or the reserve goes to the first attack whatever (the other)."""
    f, a, o = pair(theirs={"spend_reserve": spend})
    do(f, "attack", id=a, target=o, roll=2)  # 8 < 10
    do(f, "next_turn")
    if spend == "when-hit":
        do(f, "attack", id=o, target=a, roll=2)  # its complex action still there: it attacks
        assert f.state["spent"]["attacks"] == {"attack": 1}
    else:
        assert "1 spent out of its turn (Reserve actions)" in refused(f, "attack", id=o, target=a, roll=2).reason


def test_reserves_do_not_carry_over_and_the_new_rounds_are_held_until_its_turn() -> None:
    f, a, o = pair()
    do(f, "attack", id=a, target=o, roll=2)
    do(do(f, "next_turn"), "act", id=o, kind="basic")  # the Orc holds its complex action
    f.round()  # Ann first again: her complex action is back, held in reserve until now
    assert card(f, a)["reserves_left"] == 1 and f.view["actions"]["left"][0]["left"] == 1
    do(f, "attack", id=a, target=o, roll=10, defense_roll=20)  # the Orc's new round's reserve blocks
    assert card(f, o)["reserves_left"] == 0


def test_reserves_of_zero_keep_no_block_and_the_turn_still_attacks() -> None:
    f, a, o = pair(mine={"reserves": 0})
    assert f.view["actions"]["left"][0]["amount"] == 1  # the text's one complex action a round
    do(f, "attack", id=a, target=o, roll=10, defense_roll=20)
    do(f, "next_turn")
    assert resolve(f, a)["defense"] is None


# --- Fighting with Two Weapons: a bonus complex action for the off hand's attack (or block) -------------


def test_two_weapons_give_an_off_hand_attack_at_its_own_dice_and_penalty() -> None:
    f, a, o = pair(mine={"off_hand": True, "off_hand_dice": "1d4"}, theirs={"defense": "none"})
    assert f.view["actions"]["left"][0]["amount"] == 2 and f.view["actions"]["next"] == "attack"
    assert resolve(f, o)["dice"] == "1d8"
    do(f, "attack", id=a, target=o, roll=9, faces=[8])  # 9 + 6 − 6 = 9 < 10: the primary hand's −6
    assert "a miss" in f.steps[0]["text"] and "(attack)" in f.steps[0]["text"]
    assert f.view["actions"]["next"] == "off_hand" and resolve(f, o)["dice"] == "1d4"
    do(f, "attack", id=a, target=o, roll=13, faces=[4])  # 13 + 6 − 10 = 9 < 10: the off hand's −10
    assert "a miss" in f.steps[0]["text"] and "(off-hand attack (bonus complex action))" in f.steps[0]["text"]
    assert refused(f, "attack", id=a, target=o, roll=20).reason.startswith("Ann has made the attacks its turn plans")
    g, a2, o2 = pair(mine={"off_hand": True, "off_hand_dice": "1d4"}, theirs={"defense": "none"})
    do(g, "attack", id=a2, target=o2, roll=10, faces=[8])  # 10: the primary hits, 1d8 + 2
    do(g, "attack", id=a2, target=o2, roll=14, faces=[4])  # 14 − 4 = 10: the off hand hits, 1d4 + 2
    assert hp(g, o2) == 40 - (8 + 2) - (4 + 2)


def test_one_weapon_gives_no_off_hand_attack() -> None:
    f, a, o = pair()
    why = (
        "Ann makes no attack with Off-hand attack (bonus complex action): its values give none "
        "(Fighting with two weapons)"
    )
    assert row(f, "off_hand")["why"] == why
    assert refused(f, "attack", id=a, target=o, roll=20, kind="off_hand").reason == why


def test_two_weapons_and_a_block_before_the_turn_leave_one_attack() -> None:
    f, a, o = pair(theirs={"off_hand": True})
    do(f, "attack", id=a, target=o, roll=10, defense_roll=20)
    do(f, "next_turn")
    assert f.view["actions"]["left"][0] == {"pool": "complex", "label": "complex action", "amount": 2, "left": 1}
    do(f, "attack", id=o, target=a, roll=1)
    err = refused(f, "attack", id=o, target=a, roll=1, kind="off_hand")
    assert "no complex action left this round, 1 spent out of its turn (Reserve actions)" in err.reason


def test_a_shields_bonus_block_is_held_after_the_turns_attack() -> None:
    """Weapon and shield: two reserve actions, one attack (no off-hand attack): the attack leaves
    the bonus complex action for a block later that round."""
    f, a, o = pair(mine={"reserves": 2})
    do(f, "attack", id=a, target=o, roll=2)
    assert card(f, a)["reserves_left"] == 1
    do(f, "next_turn")
    assert resolve(f, a)["defense"] is not None


# --- the view, the state, the data ----------------------------------------------------------------------


def test_the_view_lists_the_turns_actions_with_their_rules() -> None:
    f, _, _ = pair()
    got = {r["kind"]: (r["cost"], r["attack"], r["rule"]) for r in f.view["actions"]["actions"]}
    assert got == {
        "attack": ({"complex": 1}, True, "attack-roll"),
        "off_hand": ({"complex": 1}, True, "two-weapon-fighting"),
        "feint": ({"complex": 1}, False, "feint"),
        "complex": ({"complex": 1}, False, "complex-actions"),
        "basic": ({"basic": 1}, False, "basic-actions"),
        "free": ({}, False, "free-actions"),
    }
    assert all(r["url"].startswith("active-defense/") for r in f.view["actions"]["actions"])


def test_a_saved_turn_round_trips_with_what_the_round_spent() -> None:
    f, a, o = pair(mine={"off_hand": True})
    do(f, "attack", id=a, target=o, roll=2)
    saved = json.loads(json.dumps(f.state))
    assert next(c for c in saved["combatants"] if c["id"] == a)["reserves_spent"] == 1
    again = engine.act("active-defense", None, {"type": "load", "state": saved})
    assert again["state"] == f.state and again["dropped"] == []
    assert engine.act("active-defense", saved, {"type": "view"})["view"]["actions"] == f.view["actions"]
    broken = {**saved, "spent": {**saved["spent"], "attacks": {"attack": 2}}}
    with pytest.raises(InputError) as err:
        engine.act("active-defense", broken, {"type": "view"})
    assert err.value.input == "spent.attacks.attack"


def test_the_turns_numbers_are_the_texts_facts() -> None:
    ad = data_mod.system("active-defense")
    assert ad.fact("complex-actions", "per_round") == 1 and ad.fact("basic-actions", "per_round") == 1
    assert ad.fact("two-weapon-fighting", "bonus_complex_actions") == 1


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        ("per: round, off_turn: atack}", "tracker.turn.pools[0].off_turn: no rule 'atack'"),
        ("per: often}", "tracker.turn.pools[0].per"),
    ],
)
def test_a_round_pools_data_is_checked_naming_file_line_and_field(tmp_path: Path, pool: str, expected: str) -> None:
    shutil.copytree(GOOD, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "rules_data" / "countup" / "calculators.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = "    - {calculator: hit, input: ac}\n"
    good = TURN.replace("rule: attack}", "rule: attack, per: round, off_turn: attack}")
    path.write_text(text.replace(anchor, anchor + good), encoding="utf-8")
    assert [str(p) for p in loader.load(tmp_path).problems] == []
    path.write_text(text.replace(anchor, anchor + TURN.replace("rule: attack}", f"rule: attack, {pool}")), "utf-8")
    found = [str(p) for p in loader.load(tmp_path).problems]
    assert len(found) == 1 and "rules_data/countup/calculators.yaml:" in found[0] and expected in found[0]
