"""Phases' action calculators (issue 13 item 4): opportunity attacks, grapple and shove
(`maneuver`), `feint`, `dodge`, `monster_wounds` and `rally`. Each is checked against brute-force
enumeration of every d20 face (two or three d20s with advantage and a racing opponent), and
against the hit and damage calculators where they answer the same question."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from answers import chance, pmf, runner
from hypothesis import given, settings
from hypothesis import strategies as st

from calc.errors import CalcError, InputError
from calc.inputs import data as calc_data

SYSTEM = "phases"
D20 = range(1, 21)
DATA = calc_data.system(SYSTEM)
PARRY = {row["id"]: row["parry"] for row in DATA.table("parry-bonuses")}
run = runner(SYSTEM)


def faces(phase_roll: int, mode: str, reading: str) -> dict[tuple[int, int], Fraction]:
    """(phase roll, face the action uses) → chance, by listing both d20s."""
    out: dict[tuple[int, int], Fraction] = {}
    firsts = [phase_roll] if phase_roll else list(D20)
    seconds = [None] if mode == "normal" else list(D20)
    for a, b in product(firsts, seconds):
        if b is None:
            face = a
        elif reading == "literal":
            face = b
        else:
            face = max(a, b) if mode == "advantage" else min(a, b)
        q = Fraction(1, len(firsts) * len(seconds))
        out[(a, face)] = out.get((a, face), 0) + q
    return out


def action_faces(phase_roll: int, mode: str, reading: str) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (_, face), q in faces(phase_roll, mode, reading).items():
        out[face] = out.get(face, 0) + q
    return out


check_inputs = st.fixed_dictionaries(
    {
        "maneuver": st.sampled_from(["opportunity", "grapple", "shove"]),
        "target_source": st.just("direct"),
        "attack_target": st.integers(-3, 22),
        "defense": st.integers(-4, 8),
        "parry_weapon": st.sampled_from(sorted(PARRY)),
        "roll_mode": st.sampled_from(["normal", "advantage", "disadvantage"]),
        "advantage_reading": st.sampled_from(["literal", "better-worse"]),
        "phase_roll": st.sampled_from([0, 0, 0, 1, 9, 13, 20]),
        "failure_min_one": st.booleans(),
    }
)


# --- maneuver: opportunity attacks, grapple, shove ------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(check_inputs)
def test_maneuver_equals_brute_force(inputs):
    answer = run("maneuver", **inputs)
    number = inputs["attack_target"] + inputs["defense"] + PARRY[inputs["parry_weapon"]]
    floor = 1 if inputs["failure_min_one"] else 0
    p_ok = Fraction(0)
    dist: dict[int, Fraction] = {}
    for face, q in action_faces(inputs["phase_roll"], inputs["roll_mode"], inputs["advantage_reading"]).items():
        ok = face >= number  # not an attack: a natural 20 or 1 is just a number
        p_ok += q if ok else 0
        if inputs["maneuver"] == "shove":
            x = face - number if ok else 0
        else:
            x = 0 if ok else max(floor, 10 - face)
        dist[x] = dist.get(x, 0) + q
    assert chance(answer, "Success") == p_ok
    assert chance(answer, "Failure: you are hit") == 1 - p_ok
    assert pmf(answer) == {x: q for x, q in dist.items() if q}


@settings(max_examples=60, deadline=None)
@given(check_inputs)
def test_failure_damage_agrees_with_the_damage_calculator(inputs):
    """The damage calculator's failure mode answers the same question for grapple and opportunity."""
    inputs = {**inputs, "maneuver": "opportunity"}
    mine = run("maneuver", **inputs)
    same = {k: v for k, v in inputs.items() if k != "maneuver"}
    theirs = run("damage", mode="failure", **same)
    assert pmf(mine) == pmf(theirs)
    assert chance(mine, "Failure: you are hit") == chance(theirs, "You are hit")


@pytest.mark.parametrize("strength", [-2, 1, 12, 20, 21])
def test_grapple_hold_is_a_geometric_chain(strength):
    answer = run("maneuver", maneuver="grapple", opponent_strength=strength)
    p_free = Fraction(sum(1 for f in D20 if f >= strength), 20)
    assert chance(answer, "Opponent breaks free in a later melee phase") == p_free
    rows = answer["table"]["rows"]
    assert [Fraction(r[2]) for r in rows] == [(1 - p_free) ** k for k in range(1, len(rows) + 1)]


def brute_race(inputs) -> tuple[Fraction, Fraction, Fraction]:
    """(yours stands, yours stopped, theirs stands) by listing your two d20s and their d20; a
    re-rolled tie puts each first half the time."""
    number = inputs["attack_target"] + inputs["defense"] + PARRY[inputs["parry_weapon"]]
    theirs = [inputs["rival_roll"]] if inputs["rival_roll"] else list(D20)
    stands = stopped = rival = Fraction(0)
    for (a, face), q in faces(inputs["phase_roll"], inputs["roll_mode"], inputs["advantage_reading"]).items():
        for c in theirs:
            w = q / len(theirs)
            ok, r_ok = face >= number, c >= inputs["rival_number"]
            if a == c:
                half = Fraction(1, 2)
                orders = [("together", 1)] if inputs["ties"] == "simultaneous" else [("me", half), ("them", half)]
            else:
                orders = [("me" if a > c else "them", 1)]
            for first, share in orders:
                mine_stopped = first == "them" and r_ok
                theirs_stopped = first == "me" and ok and inputs["mutual"]
                if ok and not mine_stopped:
                    stands += w * share
                if ok and mine_stopped:
                    stopped += w * share
                if r_ok and not theirs_stopped:
                    rival += w * share
    return stands, stopped, rival


@settings(max_examples=80, deadline=None)
@given(
    check_inputs,
    st.integers(-2, 22),
    st.sampled_from([0, 0, 1, 12, 18, 20]),
    st.booleans(),
    st.sampled_from(["simultaneous", "reroll"]),
)
def test_race_against_an_opponent_equals_brute_force(inputs, need, roll, mutual, ties):
    inputs = {**inputs, "rival": "stops", "rival_number": need, "rival_roll": roll, "mutual": mutual, "ties": ties}
    answer = run("maneuver", **inputs)
    stands, stopped, rival = brute_race(inputs)
    assert chance(answer, "Yours succeeds and stands") == stands
    assert chance(answer, "Your roll succeeds but the opponent stops it first") == stopped
    assert chance(answer, "The opponent's action succeeds and stands") == rival
    assert stands + stopped == chance(answer, "Success")


def test_regdar_example_in_the_text():
    """Lines 13-15: Regdar's grapple roll of 15 succeeds, the orc's 18 goes first and its shove
    pushes him out of reach, so the grapple fails."""
    answer = run(
        "maneuver", maneuver="grapple", target_source="direct", attack_target=10, defense=3, phase_roll=15,
        rival="stops", rival_number=12, rival_roll=18,
    )  # fmt: skip
    assert chance(answer, "Success") == 1
    assert chance(answer, "Yours succeeds and stands") == 0
    assert chance(answer, "The opponent's action succeeds and stands") == 1
    assert "simultaneous-actions" in [s["rule"] for s in answer["steps"]]


def test_equal_rolls_both_stand_under_the_ruling_and_split_otherwise():
    common = dict(maneuver="shove", target_source="direct", attack_target=5, defense=0, phase_roll=14)
    common |= dict(rival="stops", rival_number=5, rival_roll=14)
    together = run("maneuver", **common, ties="simultaneous")
    assert chance(together, "Yours succeeds and stands") == 1
    assert chance(together, "The opponent's action succeeds and stands") == 1
    split = run("maneuver", **common, ties="reroll")
    assert chance(split, "Yours succeeds and stands") == Fraction(1, 2)
    assert chance(split, "The opponent's action succeeds and stands") == Fraction(1, 2)


def test_rival_inputs_need_a_rival_and_a_face():
    with pytest.raises(CalcError) as err:
        run("maneuver", rival="none", rival_number=12)
    assert err.value.input == "rival_number"
    with pytest.raises(InputError) as err:
        run("maneuver", rival="stops", rival_roll=21)
    assert err.value.input == "rival_roll"


# --- feint ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    st.integers(-3, 22),
    st.sampled_from(["normal", "advantage", "disadvantage"]),
    st.sampled_from(["literal", "better-worse"]),
    st.sampled_from([0, 0, 5, 15]),
    st.integers(-2, 20),
    st.integers(-4, 10),
)
def test_feint_equals_brute_force_and_the_hit_calculator(cunning, mode, reading, roll, target, defense):
    answer = run(
        "feint", cunning=cunning, roll_mode=mode, advantage_reading=reading, phase_roll=roll,
        target_source="direct", attack_target=target, defense=defense,
    )  # fmt: skip
    p_ok = sum((q for f, q in action_faces(roll, mode, reading).items() if f >= cunning), Fraction(0))
    assert chance(answer, "Feint succeeds") == p_ok
    common = dict(target_source="direct", attack_target=target, defense=defense)
    feinted = chance(run("hit", feinted=True, **common), "Hit")
    plain = chance(run("hit", feinted=False, **common), "Hit")
    assert chance(answer, "Next attack hits, feinted") == feinted
    assert chance(answer, "Next attack hits, not feinted") == plain
    assert chance(answer, "Next attack hits, after this feint attempt") == p_ok * feinted + (1 - p_ok) * plain


# --- dodge ----------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(
    st.integers(-3, 22),
    st.integers(-4, 8),
    st.sampled_from(["melee", "ranged", "spell"]),
    st.sampled_from(["normal", "advantage", "disadvantage"]),
    st.sampled_from(["cancel", "dodge-wins"]),
    st.sampled_from(["literal", "better-worse"]),
    st.sampled_from([0, 0, 3, 17]),
    st.booleans(),
    st.booleans(),
)
def test_dodge_agrees_with_the_hit_calculator(
    target, defense, kind, other, dodge_reading, reading, roll, sees, natural
):
    inputs = dict(
        target_source="direct", attack_target=target, defense=defense, attack_type=kind,
        advantage_reading=reading, phase_roll=roll, natural_rolls=natural,
    )  # fmt: skip
    extra = {"dodge_reading": dodge_reading} if other == "advantage" else {}
    answer = run("dodge", other_effect=other, sees_attacker=sees, **extra, **inputs)
    if not sees:
        dodged = other
    elif other == "advantage":
        dodged = "normal" if dodge_reading == "cancel" else "disadvantage"
    else:
        dodged = "disadvantage"
    assert chance(answer, "Hit, not dodging") == chance(run("hit", roll_mode=other, **inputs), "Hit")
    assert chance(answer, "Hit against the dodge") == chance(run("hit", roll_mode=dodged, **inputs), "Hit")
    # and by listing the faces (no parry, cover or range given: attack target + Defense)
    number = target + defense

    def hits(f: int) -> bool:
        return (f >= number or (natural and f == 20)) and not (natural and f == 1)

    p = sum((q for f, q in action_faces(roll, dodged, reading).items() if hits(f)), Fraction(0))
    assert chance(answer, "Hit against the dodge") == p  # no parry, cover or range given


# --- monster wounds ----------------------------------------------------------------------------
@pytest.mark.parametrize(("hd", "cap"), [(0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (9, 4), (16, 8)])
@pytest.mark.parametrize("reading", ["wounds", "severity"])
def test_monster_dies_at_the_wound_after_half_its_hit_dice(hd, cap, reading):
    severities = [row["severity"] for row in DATA.table("wound-severity")]
    field = "wounds_taken" if reading == "wounds" else "severity_taken"
    for taken in range(cap + 3):
        answer = run("monster_wounds", hit_dice=hd, count_reading=reading, **{field: taken})
        if taken > cap:
            assert answer["summary"].startswith("Dead") and answer["table"] is None
            continue
        fates = [row[3] for row in answer["table"]["rows"]]
        costs = [1] * len(severities) if reading == "wounds" else severities
        assert fates == ["dies instantly" if taken + c > cap else f"lives ({cap - taken - c} to spare)" for c in costs]


def test_first_wound_calls_for_morale():
    rules = [s["rule"] for s in run("monster_wounds", hit_dice=4, wounds_taken=0)["steps"]]
    assert "morale" in rules


# --- rally ------------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(
    st.integers(-20, 25),
    st.integers(0, 12),
    st.sampled_from(["normal", "advantage", "disadvantage"]),
    st.sampled_from(["literal", "better-worse"]),
    st.sampled_from([0, 0, 1, 3, 30]),
)
def test_rally_equals_brute_force(courage, hd, mode, reading, missing):
    answer = run("rally", courage=courage, enemy_hd=hd, roll_mode=mode, advantage_reading=reading, missing_hp=missing)
    number = courage + hd
    dist: dict[int, Fraction] = {}
    for f, q in action_faces(0, mode, reading).items():
        x = max(0, f - number) if f >= number else 0
        x = min(x, missing) if missing else x
        dist[x] = dist.get(x, 0) + q
    assert pmf(answer) == {x: q for x, q in dist.items() if q}
    assert Fraction(answer["distribution"]["mean"]["fraction"]) == sum(x * q for x, q in dist.items())
    p_ok = sum((q for f, q in action_faces(0, mode, reading).items() if f >= number), Fraction(0))
    assert chance(answer, "Rally succeeds") == p_ok
