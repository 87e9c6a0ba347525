"""Segments' turn (calc/fight/economy.py, its `turn:` in rules_data/segments/calculators.yaml): one
major action a round (text line 24); an attack routine makes every attack of it, each at its own
dice and to-hit (line 83: "a thief attacks in melee using two-weapon fighting (with sword and
dagger)"; line 61: "2 longbow arrows (1d6/1d6)"); the multi-attack ability's first routine before
group initiative and the rest after LOW (steps 4 and 6, lines 15-19); the fast actions Parley, Flee
and Charge (step 3); minor actions any number (line 26); a delay in LOW loses the major action
(line 40)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from calc import fight as engine
from calc.errors import InputError
from calc.inputs import data as data_mod
from tests.calc.fight_helpers import Fight
from tests.calc.test_turn_economy import do, refused

SWORD = {"name": "Sword", "dice": "1d8", "modifier": 0, "to_hit": 0}
DAGGER = {"name": "Dagger", "dice": "1d4", "modifier": 1, "to_hit": 2}
THIEF = {"routine": [SWORD, DAGGER]}
ARROW = {"name": "Longbow arrow", "dice": "1d6", "modifier": 0, "to_hit": 0}
CLAW_BITE = [{**ARROW, "name": "Claw"}, {**SWORD, "name": "Bite"}]
BEAR = {"attacker": "monster", "hd": 4, "routines": 2, "routine": CLAW_BITE}


def duel(mine: dict[str, Any], theirs: dict[str, Any] | None = None, **options: Any) -> tuple[Fight, str, str]:
    """Ann (PC) against an Orc, the first round started, the PCs HIGH: (fight, who acts first, the other)."""
    f = Fight("segments", options)
    a = f.add("Ann", "pc", 60, **mine)
    o = f.add("Orc", "foe", 90, **(theirs or {"routine": [SWORD]}))
    f.round({"side:pc": 5, "side:foe": 2}, 10)
    cur = f.view["current"]
    return f, cur, (o if cur == a else a)


def hp(f: Fight, ident: str) -> int:
    return next(c["hp"] for c in f.state["combatants"] if c["id"] == ident)


def dice(f: Fight, target: str) -> str | None:
    """The damage dice the odds' Resolve asks for against `target` (the turn's next attack's)."""
    return next(t["resolve"]["dice"] for t in f.view["odds"]["targets"] if t["id"] == target)


# --- the routine: every attack, each at its own dice and to-hit -------------------------------------------------


def test_sword_and_dagger_resolve_the_sword_then_the_dagger_then_no_third() -> None:
    f, me, foe = duel(THIEF, THIEF)
    assert dice(f, foe) == "1d8" and f.view["actions"]["next"] == "routine"
    before = hp(f, foe)
    do(f, "attack", id=me, target=foe, roll=20, faces=[5])
    assert "(needs 15+)" in f.steps[0]["text"] and hp(f, foe) == before - 5  # the sword: 1d8 + 0
    assert "1 attack left, 0 major action left" in f.steps[0]["text"]
    assert dice(f, foe) == "1d4" and f.view["actions"]["attacks_left"] == 1
    do(f, "attack", id=me, target=foe, roll=20, faces=[3])
    assert "(needs 13+)" in f.steps[0]["text"]  # the dagger's own +2 to hit
    assert hp(f, foe) == before - 5 - 4  # the dagger: 1d4 + 1
    err = refused(f, "attack", id=me, target=foe, roll=20, faces=[3])
    assert err.input == "action.kind"
    assert err.reason.startswith("Ann has made the attacks its turn plans (2 × Attack routine)")
    assert err.reason.endswith("(The combat round, step by step)")
    err = refused(f, "attack", id=me, target=foe, roll=20, faces=[3], kind="routine")
    assert err.reason.endswith(
        "has made the 2 attacks of its Attack routine and has no major action left this turn: "
        "Attack routine costs 1 (Major actions)"
    )


def test_two_longbow_arrows_are_two_attacks_and_a_third_is_refused() -> None:
    f, me, foe = duel({"routine": [ARROW, ARROW]})  # "MISSILE: 2 longbow arrows (1d6/1d6)", as the stat block reads
    before = hp(f, foe)
    do(f, "attack", id=me, target=foe, roll=20, faces=[6])
    do(f, "attack", id=me, target=foe, roll=20, faces=[2])
    assert hp(f, foe) == before - 8
    assert "(2 × Attack routine)" in refused(f, "attack", id=me, target=foe, roll=20, faces=[1]).reason


def test_a_miss_is_one_of_the_routines_attacks_too() -> None:
    f, me, foe = duel(THIEF)
    do(f, "attack", id=me, target=foe, roll=1)  # a natural 1 misses: the sword is spent
    assert f.state["spent"]["attacks"] == {"routine": 1} and dice(f, foe) == "1d4"


# --- the multi-attack ability: the first routine at step 4, the rest at step 6 --------------------------------


READINGS = [("melee", "melee"), ("missile-too", "missile"), ("melee", "missile")]


@pytest.mark.parametrize(("reading", "declared"), READINGS)
def test_a_multi_attacker_makes_one_routine_a_turn_first_early_rest_after_low(reading: str, declared: str) -> None:
    f, _, _ = duel({"routine": [SWORD]}, {**BEAR, "action": declared}, multi_attack=reading)
    bear, ann = f.ident("Orc"), f.ident("Ann")
    turns = [t["id"] for t in f.state["order"]]
    assert turns.count(bear) == 2  # both readings of multi-attack-in-melee: two turns, each one routine
    seen = []
    while f.view["current"] is not None:
        who = f.view["current"]
        if who == bear:
            assert f.view["actions"]["next"] == "routine"
            do(f, "attack", id=bear, target=ann, roll=2, faces=[1])  # the claw
            assert dice(f, ann) == "1d8"  # then the bite
            do(f, "attack", id=bear, target=ann, roll=2, faces=[1])
            err = refused(f, "attack", id=bear, target=ann, roll=2, faces=[1])
            assert "(2 × Attack routine)" in err.reason  # one routine's attacks this turn, not both routines'
        seen.append(who)
        do(f, "next_turn")
    early = reading == "missile-too" or declared == "melee"  # step 4, before group initiative
    assert seen.index(bear) == (0 if early else 1) and seen[-1] == bear  # the rest at step 6, after LOW


# --- fast actions, minor actions, delay -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["parley", "spell", "delay"])
def test_a_fast_action_a_spell_or_a_delay_is_the_rounds_major_action(kind: str) -> None:
    f, me, foe = duel(THIEF)
    do(f, "act", id=me, kind=kind)
    assert f.view["actions"]["text"] == "0 major action left"
    err = refused(f, "attack", id=me, target=foe, roll=20, faces=[1])
    assert err.reason.endswith("has no major action left this turn: Attack routine costs 1 (Major actions)")


def test_flee_is_the_rounds_major_action_and_takes_the_fleer_out_of_the_fight() -> None:
    """Step 3's Flee is a fast action: its taker leaves the round's order and the targets (Fled),
    until the GM brings it back."""
    f, me, foe = duel(THIEF)
    do(f, "act", id=me, kind="flee")
    fled = next(c for c in f.view["combatants"] if c["id"] == me)
    assert fled["state"] == "Fled" and me not in [t["id"] for t in f.state["order"]]
    assert any("flees (Fled)" in s["text"] for s in f.steps)
    assert f.view["current"] != me
    do(f, "return", id=me)
    assert next(c for c in f.view["combatants"] if c["id"] == me)["state"] != "Fled"


def test_a_charge_attacks_with_the_routine_as_its_major_action() -> None:
    f, me, foe = duel(THIEF)
    do(f, "attack", id=me, target=foe, roll=20, faces=[4], kind="charge")
    assert "(charge (fast action))" in f.steps[0]["text"] and dice(f, foe) == "1d4"
    do(f, "attack", id=me, target=foe, roll=20, faces=[1])  # no kind: the charge's dagger still open
    assert f.state["spent"]["attacks"] == {"charge": 2}
    assert "no major action left" in refused(f, "act", id=me, kind="parley").reason


def test_minor_actions_any_number_before_or_after_the_major_action() -> None:
    f, me, foe = duel(THIEF)
    for _ in range(3):
        do(f, "act", id=me, kind="minor")
    do(f, "attack", id=me, target=foe, roll=20, faces=[1])
    do(f, "act", id=me, kind="minor")
    assert f.state["spent"]["actions"] == {"minor": 4, "routine": 1}
    err = refused(f, "attack", id=me, target=foe, roll=20, faces=[1], kind="minor")
    assert err.reason == "Minor action (draw, speak, drop) makes no attack: take it with the act action"


def test_only_the_acting_combatant_acts_naming_the_round() -> None:
    f, me, foe = duel(THIEF)
    err = refused(f, "act", id=foe, kind="minor")
    assert err.input == "action.id" and err.reason.endswith("acts on its own turn (The combat round, step by step)")


# --- the view, the state, the data ------------------------------------------------------------------------------


def test_the_view_says_what_is_left_and_why_the_rest_is_refused() -> None:
    f, me, foe = duel(THIEF)
    v = f.view["actions"]
    assert v["left"] == [{"pool": "major", "label": "major action", "amount": 1, "left": 1}] and v["next"] == "routine"
    assert [r["kind"] for r in v["actions"]] == ["routine", "charge", "parley", "flee", "spell", "delay", "minor"]
    assert all(r["allowed"] for r in v["actions"])
    do(f, "attack", id=me, target=foe, roll=20, faces=[1])
    v = f.view["actions"]
    rows = {r["kind"]: r for r in v["actions"]}
    assert v["attacks_left"] == 1 and v["next"] == "routine" and v["target"] == foe
    assert rows["routine"]["allowed"] and rows["routine"]["taken"] == 1 and rows["minor"]["allowed"]
    why = "Ann has no major action left this turn: Parley (fast action) costs 1 (Major actions)"
    assert rows["parley"]["why"] == why
    assert rows["parley"]["url"].endswith("#combat-round-sequence") and rows["minor"]["rule"] == "minor-actions"
    do(f, "attack", id=me, target=foe, roll=20, faces=[1])
    v = f.view["actions"]
    rows = {r["kind"]: r for r in v["actions"]}
    assert v["next"] is None and v["attacks_left"] == 0 and not rows["routine"]["allowed"]


def test_a_saved_turn_round_trips_and_one_no_turn_reaches_is_refused() -> None:
    f, me, foe = duel(THIEF)
    do(f, "act", id=me, kind="minor")
    do(f, "attack", id=me, target=foe, roll=20, faces=[1])
    saved = json.loads(json.dumps(f.state))
    again = engine.act("segments", None, {"type": "load", "state": saved})
    assert again["state"] == f.state and again["dropped"] == []
    view = engine.act("segments", saved, {"type": "view"})["view"]
    assert view["actions"] == f.view["actions"]
    for bad, where in (
        ({"actions": {"routine": 2}}, "spent.actions"),  # 2 major actions of a round's 1
        ({"attacks": {"routine": 3}}, "spent.attacks.routine"),  # a routine of 2 attacks
        ({"actions": {"bite": 1}}, "spent.actions"),
    ):
        broken = {**saved, "spent": {**saved["spent"], **bad}}
        with pytest.raises(InputError) as err:
            engine.act("segments", broken, {"type": "view"})
        assert err.value.input == where


def test_the_turn_takes_its_numbers_from_the_texts_facts() -> None:
    sg = data_mod.system("segments")
    assert sg.fact("major-action", "major_actions_per_round") == 1
    assert sg.fact("attack-routine", "routines_per_round") == 1
