"""Phases engines: the source's worked example, both readings of every ruling that changes a number,
and property tests against brute-force enumeration of every die face (and icepool)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest
from answers import chance, pmf, runner
from hypothesis import given, settings
from hypothesis import strategies as st

import calc
from calc.errors import CalcError, InputError
from calc.inputs import data as calc_data
from calc.systems import phases

SYSTEM = "phases"
D20 = range(1, 21)


@pytest.fixture(scope="module")
def data():
    return calc_data.system(SYSTEM)


DATA = calc_data.system(SYSTEM)
PARRY = {row["id"]: row["parry"] for row in DATA.table("parry-bonuses")}
COVER = {row["id"]: row["bonus"] for row in DATA.table("cover-bonuses")}
ARMOUR = {row["id"]: row["protection"] for row in DATA.table("armour-wound-protection")}


run = runner(SYSTEM)


def pair(answer, first: str, second: str) -> tuple[Fraction, Fraction, Fraction]:
    (found,) = [e for e in answer["pairwise"] if (e["first"], e["second"]) == (first, second)]
    return (
        Fraction(found["before"]["fraction"]),
        Fraction(found["tied"]["fraction"]),
        Fraction(found["after"]["fraction"]),
    )


# --- the source's worked example (lines 13-15) -----------------------------------------------------
def test_regdar_rolls_15_orc_rolls_18_orc_acts_first():
    answer = run("initiative", phase="melee", combatants=[{"name": "Regdar", "roll": 15}, {"name": "Orc", "roll": 18}])
    assert [g["names"] for g in answer["order"]] == [["Orc"], ["Regdar"]]
    assert [g["score"] for g in answer["order"]] == ["18", "15"]
    assert pair(answer, "Regdar", "Orc") == (0, 0, 1)
    assert "simultaneous-actions" in [s["rule"] for s in answer["steps"]]


def test_the_phase_roll_is_the_action_roll():
    # Regdar's 15 was a successful grapple roll: with his phase roll known the outcome is certain.
    answer = run("hit", target_source="direct", attack_target=10, defense=3, phase_roll=15)
    assert chance(answer, "Hit") == 1
    answer = run("hit", target_source="direct", attack_target=10, defense=3, phase_roll=12)
    assert chance(answer, "Hit") == 0


# --- rules-notes tables ------------------------------------------------------------------------------
def test_attack_targets_as_listed_in_the_notes():
    # "Attack target from ability score 18→12: 13, 12, 11, 10, 9, 8, 7; Dodge −3..+3 likewise"
    rows = DATA.table("ability-targets")
    assert [(r["score"], r["target"], r["dodge"]) for r in rows] == [
        (18, 13, -3), (17, 12, -2), (16, 11, -1), (15, 10, 0), (14, 9, 1), (13, 8, 2), (12, 7, 3)
    ]  # fmt: skip
    for score, level, target in [(18, 1, 13), (18, 10, 6), (12, 4, 5), (15, 7, 5), (14, 6, 7)]:
        answer = run("hit", ability_score=score, level=level, defense=0, natural_rolls=False)
        assert answer["roll_needed"]["value"] == max(target, 1), (score, level)


def test_abilities_are_labelled_as_targets_lower_is_better():
    labels = {d["name"]: d["label"] for d in DATA.calculator("hit")["inputs"]}
    assert labels["ability_score"] == "Ability target (lower is better)"
    assert labels["attack_target"] == "Attack target (lower is better)"
    step = run("hit", ability_score=15, level=1)["steps"][0]["text"]
    assert step.startswith("Ability target 15 (lower is better) gives attack target 10")
    # and lower is better indeed: a lower ability target hits more often
    assert chance(run("hit", ability_score=12), "Hit") > chance(run("hit", ability_score=18), "Hit")


def test_scores_outside_the_listing_are_refused():
    with pytest.raises(InputError) as err:
        run("hit", ability_score=11)
    assert err.value.input == "ability_score"


def test_parry_counts_in_melee_only():
    melee = run("hit", target_source="direct", attack_target=10, defense=2, parry_weapon="longsword")
    ranged = run(
        "hit", target_source="direct", attack_target=10, defense=2, parry_weapon="longsword", attack_type="ranged"
    )
    spell = run(
        "hit", target_source="direct", attack_target=10, defense=2, parry_weapon="longsword", attack_type="spell"
    )
    assert (melee["roll_needed"]["value"], ranged["roll_needed"]["value"], spell["roll_needed"]["value"]) == (
        17,
        12,
        12,
    )


def test_cover_and_range_raise_defense_and_cover_takes_the_hit():
    answer = run(
        "hit", target_source="direct", attack_target=10, defense=0, attack_type="ranged", cover="three-quarters",
        range_steps=3,
    )  # fmt: skip
    assert answer["roll_needed"]["value"] == 18  # 10 + 0 + 3 range + 5 cover
    assert chance(answer, "Hit") == Fraction(3, 20)
    assert chance(answer, "Hits the cover instead (cover takes 5)") == Fraction(5, 20)  # 13..17


def test_feint_ignores_all_defense():
    answer = run("hit", target_source="direct", attack_target=10, defense=6, parry_weapon="spear", feinted=True)
    assert answer["roll_needed"]["value"] == 10


# --- both readings of every ruling -----------------------------------------------------------------
def test_natural_rolls_both_readings():
    hard = {"target_source": "direct", "attack_target": 15, "defense": 8}
    assert chance(run("hit", **hard), "Hit") == Fraction(1, 20)
    assert chance(run("hit", **hard, natural_rolls=False), "Hit") == 0
    easy = {"target_source": "direct", "attack_target": 5, "defense": -5}
    assert chance(run("hit", **easy), "Hit") == Fraction(19, 20)
    assert chance(run("hit", **easy, natural_rolls=False), "Hit") == 1
    assert chance(run("hit", **easy), "Fumble (natural 1)") == Fraction(1, 20)


def _two_d20(need: int, keep) -> Fraction:
    """P(the kept one of two d20s reaches `need`), by enumerating all 400 pairs of faces."""
    return Fraction(sum(keep(a, b) >= need for a in D20 for b in D20), 400)


@pytest.mark.parametrize("need", range(2, 21))
def test_advantage_helps_and_disadvantage_hurts_by_default(need):
    # The ruling (default): keep the higher d20 with advantage, the lower with disadvantage; a high
    # roll succeeds (d20 >= attack target + Defense), natural rolls off so only the faces count.
    base = {"target_source": "direct", "attack_target": need, "defense": 0, "natural_rolls": False}
    normal = chance(run("hit", **base), "Hit")
    advantage = chance(run("hit", **base, roll_mode="advantage"), "Hit")
    disadvantage = chance(run("hit", **base, roll_mode="disadvantage"), "Hit")
    assert normal == Fraction(21 - need, 20)
    assert advantage == _two_d20(need, max) == 1 - (1 - normal) ** 2
    assert disadvantage == _two_d20(need, min) == normal**2
    assert disadvantage < normal < advantage  # each has an effect, in the right direction


@pytest.mark.parametrize("need", range(2, 21))
def test_advantage_literal_reading_is_a_fresh_d20(need):
    # The alternative: the second d20 is used whatever the first, so both equal the plain roll.
    base = {"target_source": "direct", "attack_target": need, "defense": 0, "natural_rolls": False}
    fresh = Fraction(sum(b >= need for b in D20), 20)
    for mode in ("advantage", "disadvantage"):
        assert chance(run("hit", **base, roll_mode=mode, advantage_reading="literal"), "Hit") == fresh
        # even a known phase roll of 20 is thrown away
        assert chance(run("hit", **base, roll_mode=mode, advantage_reading="literal", phase_roll=20), "Hit") == fresh


def test_advantage_with_a_known_phase_roll_keeps_the_better_or_worse():
    base = {"target_source": "direct", "attack_target": 11, "defense": 0}
    assert chance(run("hit", **base, roll_mode="advantage", phase_roll=15), "Hit") == 1
    assert chance(run("hit", **base, roll_mode="disadvantage", phase_roll=15), "Hit") == Fraction(10, 20)
    assert chance(run("hit", **base, roll_mode="advantage", phase_roll=5), "Hit") == Fraction(10, 20)
    assert chance(run("hit", **base, roll_mode="disadvantage", phase_roll=5), "Hit") == 0


def _dodge_brute(number: int, mode: str, reading: str) -> Fraction:
    """Hit chance with the site's default natural rolls (20 hits, 1 misses), by enumeration."""

    def hits(face: int) -> bool:
        return face == 20 or (face != 1 and face >= number)

    wins = 0
    for a, b in product(D20, D20):
        used = a if mode == "normal" else b if reading == "literal" else max(a, b) if mode == "advantage" else min(a, b)
        wins += hits(used)
    return Fraction(wins, 400)


def test_dodge_and_ranged_in_melee_have_effect_by_default():
    # The calculator's default attacker against a dodging target (disadvantage): worse than normal.
    answer = run("hit")
    number = int(answer["roll_needed"]["value"])
    normal = chance(answer, "Hit")
    assert normal == _dodge_brute(number, "normal", "better-worse")
    dodged = chance(run("hit", roll_mode="disadvantage"), "Hit")
    assert dodged == _dodge_brute(number, "disadvantage", "better-worse") < normal
    literal = chance(run("hit", roll_mode="disadvantage", advantage_reading="literal"), "Hit")
    assert literal == _dodge_brute(number, "disadvantage", "literal") == normal  # the text word for word: no effect
    # Shooting while in melee: disadvantage on a ranged attack.
    ranged = {"attack_type": "ranged", "target_source": "direct", "attack_target": 9, "defense": 2}
    plain = chance(run("hit", **ranged), "Hit")
    in_melee = chance(run("hit", **ranged, roll_mode="disadvantage"), "Hit")
    assert in_melee == _dodge_brute(11, "disadvantage", "better-worse") < plain


def test_natural_roll_rule_off_reports_no_critical_or_fumble():
    base = {"target_source": "direct", "attack_target": 10, "defense": 0}
    on, off = run("hit", **base), run("hit", **base, natural_rolls=False)
    labels_on, labels_off = [c["label"] for c in on["chances"]], [c["label"] for c in off["chances"]]
    assert "Critical hit (natural 20)" in labels_on and "Fumble (natural 1)" in labels_on
    assert not any("Critical" in x or "Fumble" in x for x in labels_off)
    damage_off = run("damage", **base, natural_rolls=False)
    assert not any("Critical" in c["label"] for c in damage_off["chances"])
    assert not any(s["rule"] == "critical-hits" for s in damage_off["steps"])
    (step,) = [s["text"] for s in damage_off["steps"] if s["rule"] == "ruling:natural-rolls"]
    assert "no critical Wound" in step
    damage_on = run("damage", **base)
    assert chance(damage_on, "Critical hit: an extra Wound until the end of next round") == Fraction(1, 20)


def test_advantage_steps_name_the_reading():
    base = {"target_source": "direct", "attack_target": 11, "defense": 0, "roll_mode": "advantage"}
    (ruling,) = [s for s in run("hit", **base)["steps"] if s["rule"] == "ruling:advantage-second-roll"]
    assert "higher of the two" in ruling["text"]
    literal = run("hit", **base, advantage_reading="literal")
    (other,) = [s for s in literal["steps"] if s["rule"] == "ruling:advantage-second-roll"]
    assert other["text"].startswith("Other reading")


def test_damage_margin_both_readings():
    hit17 = {"target_source": "direct", "attack_target": 10, "defense": 3, "phase_roll": 17, "modifiers": 2}
    assert pmf(run("damage", **hit17)) == {6: 1}
    assert pmf(run("damage", **hit17, melee_modifiers=False)) == {4: 1}
    # the other reading only concerns melee
    assert pmf(run("damage", **hit17, attack_type="ranged", melee_modifiers=False)) == {6: 1}


def test_natural_20_below_the_number_still_deals_at_least_1():
    answer = run("damage", target_source="direct", attack_target=20, defense=5, phase_roll=20, modifiers=-4)
    assert pmf(answer) == {1: 1}
    answer = run("damage", target_source="direct", attack_target=20, defense=5, phase_roll=20, natural_rolls=False)
    assert pmf(answer) == {0: 1}


def test_finesse_both_readings():
    roll20 = {
        "target_source": "direct",
        "attack_target": 10,
        "defense": 3,
        "phase_roll": 20,
        "weapon_property": "finesse",
    }
    two_d4 = {x: Fraction(min(x - 1, 9 - x), 16) for x in range(2, 9)}
    assert pmf(run("damage", **roll20)) == two_d4
    assert pmf(run("damage", **roll20, finesse_reading="if-higher")) == {7: Fraction(15, 16), 8: Fraction(1, 16)}


def test_versatile_d4_is_used_if_higher():
    answer = run(
        "damage", target_source="direct", attack_target=10, defense=3, phase_roll=15, weapon_property="versatile"
    )
    assert pmf(answer) == {2: Fraction(2, 4), 3: Fraction(1, 4), 4: Fraction(1, 4)}  # margin 2 vs d4


def test_wound_overflow_both_readings():
    blow = {"target_source": "direct", "attack_target": 0, "defense": 0, "phase_roll": 12}  # 12 damage
    at_5_chain = {**blow, "current_hp": 5, "armour": "chain"}
    # ruling: 7 below 0, less 5 = 2 → bleeding out
    assert chance(run("damage", **at_5_chain), "Bleeding out") == 1
    # other reading: the whole 12, less 5 = 7 → location wound
    assert chance(run("damage", **at_5_chain, wound_damage="whole"), "Location wound") == 1
    # armour can keep a Wound away; no Wound at all while HP stays at 0 or above
    assert chance(run("damage", **blow, current_hp=5, armour="scale"), "Wound") == 0
    assert chance(run("damage", **blow, current_hp=12, wound_damage="whole"), "Wound") == 0
    assert chance(run("damage", **blow, current_hp=0), "Unconscious") == 1


def test_instant_death_both_readings_for_one_blow():
    blow = {"target_source": "direct", "attack_target": 0, "defense": 0, "phase_roll": 12, "current_hp": 3}
    assert chance(run("damage", **blow, max_hp=12), "Instant death") == 1
    assert chance(run("damage", **blow, max_hp=12, instant_death="exactly"), "Instant death") == 1
    # 12 damage against 11 maximum HP: more than the maximum kills under the ruling only
    assert chance(run("damage", **blow, max_hp=11), "Instant death") == 1
    assert chance(run("damage", **blow, max_hp=11, instant_death="exactly"), "Instant death") == 0
    assert chance(run("damage", **blow, max_hp=13), "Instant death") == 0
    # no Wound (armour takes it all), no instant death: the text says "would gain a Wound"
    assert chance(run("damage", **{**blow, "current_hp": 11}, armour="chain", max_hp=11), "Instant death") == 0


@pytest.mark.parametrize("reading", ["at-least", "exactly"])
def test_instant_death_2d6_against_6_max_hp(reading):
    # A monster's 2d6 at a character with 5 HP of 6 maximum; natural 1 misses, anything else hits.
    inputs = {
        "mode": "monster", "damage_dice": "2d6", "target_source": "direct", "attack_target": 2, "defense": 0,
        "current_hp": 5, "max_hp": 6, "instant_death": reading,
    }  # fmt: skip
    answer = run("damage", **inputs)
    deaths = 0
    for d20, a, b in product(D20, range(1, 7), range(1, 7)):
        hit = d20 != 1 and d20 >= 2
        damage = a + b
        wound = hit and damage > 5
        deaths += wound and (damage >= 6 if reading == "at-least" else damage == 6)
    expected = Fraction(deaths, 20 * 36)
    assert chance(answer, "Instant death") == expected
    assert expected == (Fraction(247, 360) if reading == "at-least" else Fraction(19, 144))
    (step,) = [s for s in answer["steps"] if s["rule"] == "ruling:instant-death-damage"]
    assert ("or more" in step["text"]) == (reading == "at-least")


def test_failure_damage_both_readings():
    need13 = {"mode": "failure", "target_source": "direct", "attack_target": 10, "defense": 3}
    assert pmf(run("damage", **need13, phase_roll=11)) == {1: 1}
    assert pmf(run("damage", **need13, phase_roll=11, failure_min_one=False)) == {0: 1}
    assert pmf(run("damage", **need13, phase_roll=3)) == {7: 1}
    assert pmf(run("damage", **need13, phase_roll=13)) == {0: 1}  # success: no damage
    whole = pmf(run("damage", **need13))
    expected: dict[int, Fraction] = {}
    for r in D20:
        x = max(1, 10 - r) if r < 13 else 0
        expected[x] = expected.get(x, 0) + Fraction(1, 20)
    assert whole == expected


def test_phase_ties_both_readings():
    fresh = [{"name": "Ann"}, {"name": "Bo"}]
    assert pair(run("initiative", combatants=fresh), "Ann", "Bo") == (
        Fraction(19, 40),
        Fraction(1, 20),
        Fraction(19, 40),
    )
    assert pair(run("initiative", combatants=fresh, ties="reroll"), "Ann", "Bo") == (Fraction(1, 2), 0, Fraction(1, 2))
    tied = [{"name": "Ann", "roll": 9}, {"name": "Bo", "roll": 9}, {"name": "Cy", "roll": 4}]
    answer = run("initiative", combatants=tied)
    assert answer["order"][0]["names"] == ["Ann", "Bo"] and answer["order"][0]["tied"]
    assert pair(answer, "Ann", "Bo") == (0, 1, 0)
    assert pair(run("initiative", combatants=tied, ties="reroll"), "Ann", "Bo") == (Fraction(1, 2), 0, Fraction(1, 2))


def test_movement_order_both_readings():
    movers = [{"name": "Kara", "roll": 12, "dex_target": 8}, {"name": "Brute", "roll": 15, "dex_target": 13}]
    assert run("initiative", phase="movement", combatants=movers)["order"][0]["names"] == ["Kara"]
    assert run("initiative", phase="movement", combatants=movers, movement_order="roll")["order"][0]["names"] == [
        "Brute"
    ]
    # in any other phase the Dexterity target plays no part
    assert run("initiative", phase="ranged", combatants=movers)["order"][0]["names"] == ["Brute"]


def test_morale_both_readings():
    orcs = [{"name": "Orc", "morale": 7}, {"name": "Goblin", "morale": 5}, {"name": "Hero"}]
    above = run("initiative", phase="morale", combatants=orcs)
    assert chance(above, "Orc flees") == Fraction(15, 36)
    assert chance(above, "Goblin flees") == Fraction(26, 36)
    assert [c["label"] for c in above["chances"]] == ["Orc flees", "Goblin flees"]
    at_least = run("initiative", phase="morale", combatants=orcs, morale_reading="at-least")
    assert chance(at_least, "Orc flees") == Fraction(21, 36)
    # one roll for all: on a 6 only the goblin flees
    assert above["table"]["rows"][4] == ["6", "5/36", "Goblin"]


def test_morale_phase_needs_a_morale_score():
    with pytest.raises(InputError) as err:
        run("initiative", phase="morale", combatants=[{"name": "Hero"}])
    assert err.value.input == "combatants"


@pytest.mark.parametrize(
    "calculator, inputs, name",
    [
        ("hit", {"defense": 99}, "defense"),
        ("hit", {"phase_roll": 21}, "phase_roll"),
        ("hit", {"parry_weapon": "halberd"}, "parry_weapon"),
        ("damage", {"damage_dice": "2d6+x"}, "damage_dice"),
        ("damage", {"damage_dice": "101d6"}, "damage_dice"),
        ("initiative", {"combatants": [{"name": "A", "roll": 25}]}, "combatants[1].roll"),
        ("initiative", {"phase": "lunch"}, "phase"),
    ],
)
def test_bad_input_names_the_input(calculator, inputs, name):
    with pytest.raises(CalcError) as err:
        run(calculator, **inputs)
    assert err.value.input == name


# --- brute force over every die face --------------------------------------------------------------
def brute_faces(inputs: dict) -> dict[int, Fraction]:
    """The face the action uses, from the rule text: the phase roll (or a d20), replaced by a second
    d20 (literal) or max/min with it (better-worse) under advantage/disadvantage."""
    firsts = [inputs["phase_roll"]] if inputs["phase_roll"] else list(D20)
    out: dict[int, Fraction] = {}
    for first, second in product(firsts, D20):
        if inputs["roll_mode"] == "normal":
            used = first
        elif inputs["advantage_reading"] == "literal":
            used = second
        else:
            used = max(first, second) if inputs["roll_mode"] == "advantage" else min(first, second)
        out[used] = out.get(used, 0) + Fraction(1, len(firsts) * 20)
    return out


def brute_number(inputs: dict) -> tuple[int, int]:
    """(target number, its cover part), straight from the text."""
    if inputs["feinted"]:
        return inputs["attack_target"], 0
    kind = inputs["attack_type"]
    defense = inputs["defense"] + COVER[inputs["cover"]]
    defense += PARRY[inputs["parry_weapon"]] if kind == "melee" else inputs["range_steps"]
    return inputs["attack_target"] + defense, COVER[inputs["cover"]]


def brute_outcome(face: int, number: int, cover: int, natural: bool) -> str:
    if natural and face == 20:
        return "hit"
    if natural and face == 1:
        return "miss"
    if face >= number:
        return "hit"
    return "cover" if cover and face >= number - cover else "miss"


attack_inputs = st.fixed_dictionaries(
    {
        "target_source": st.just("direct"),
        "attack_target": st.integers(-3, 22),
        "defense": st.integers(-4, 10),
        "attack_type": st.sampled_from(["melee", "ranged", "spell"]),
        "parry_weapon": st.sampled_from(sorted(PARRY)),
        "cover": st.sampled_from(sorted(COVER)),
        "range_steps": st.integers(0, 4),
        "feinted": st.booleans(),
        "roll_mode": st.sampled_from(["normal", "advantage", "disadvantage"]),
        "advantage_reading": st.sampled_from(["literal", "better-worse"]),
        "phase_roll": st.sampled_from([0, 0, 0, 1, 7, 13, 20]),
        "natural_rolls": st.booleans(),
    }
)


@settings(max_examples=120, deadline=None)
@given(attack_inputs)
def test_hit_equals_brute_force(inputs):
    answer = run("hit", **inputs)
    number, cover = brute_number(inputs)
    p_hit = p_cover = Fraction(0)
    for face, q in brute_faces(inputs).items():
        outcome = brute_outcome(face, number, cover, inputs["natural_rolls"])
        p_hit += q if outcome == "hit" else 0
        p_cover += q if outcome == "cover" else 0
    assert chance(answer, "Hit") == p_hit
    if cover and not inputs["feinted"]:
        assert chance(answer, f"Hits the cover instead (cover takes {cover})") == p_cover


def _expr_faces(expr: str) -> dict[int, Fraction]:
    """Every total of a small dice expression by enumerating every face."""
    parsed = calc.numbers.dice.parse(expr)
    ranges = [range(1, t.sides + 1) for t in parsed.terms for _ in range(t.count)]
    signs = [t.sign for t in parsed.terms for _ in range(t.count)]
    n = 1
    for r in ranges:
        n *= len(r)
    out: dict[int, Fraction] = {}
    for faces in product(*ranges):
        x = sum(s * f for s, f in zip(signs, faces, strict=True)) + parsed.modifier
        out[x] = out.get(x, 0) + Fraction(1, n)
    return out


PROPERTY_DICE = {row["id"]: row["die"] for row in DATA.table("weapon-properties")}


@settings(max_examples=80, deadline=None)
@given(
    attack_inputs,
    st.sampled_from(["attack", "monster", "failure"]),
    st.integers(-4, 4),
    st.booleans(),
    st.sampled_from(sorted(PROPERTY_DICE)),
    st.sampled_from(["instead", "if-higher"]),
    st.sampled_from(["1d4", "2d3-2", "d6+1d2+1", "1d3-3"]),
    st.booleans(),
)
def test_damage_equals_brute_force(inputs, mode, mods, melee_mods, prop, finesse, monster, floor):
    inputs = {
        **inputs,
        "mode": mode,
        "modifiers": mods,
        "melee_modifiers": melee_mods,
        "weapon_property": prop,
        "finesse_reading": finesse,
        "damage_dice": monster,
        "failure_min_one": floor,
    }
    answer = run("damage", **inputs)
    expected: dict[int, Fraction] = {}

    def add(x: int, q: Fraction) -> None:
        expected[x] = expected.get(x, 0) + q

    faces = brute_faces(inputs)
    if mode == "failure":
        number = inputs["attack_target"] + inputs["defense"] + PARRY[inputs["parry_weapon"]]
        for face, q in faces.items():
            add(max(1 if floor else 0, 10 - face) if face < number else 0, q)
    else:
        number, cover = brute_number(inputs)
        for face, q in faces.items():
            if brute_outcome(face, number, cover, inputs["natural_rolls"]) != "hit":
                add(0, q)
            elif mode == "monster":
                for x, r in _expr_faces(monster).items():
                    add(max(1, x), q * r)
            else:
                bonus = 0 if inputs["attack_type"] == "melee" and not melee_mods else mods
                base = max(1, face - number + bonus)
                die = PROPERTY_DICE[prop]
                if die is None:
                    add(base, q)
                else:
                    for x, r in _expr_faces(die).items():
                        instead = prop == "finesse" and finesse == "instead"
                        add(max(1, x) if instead else max(base, x), q * r)
    got = pmf(answer)
    assert got == {x: q for x, q in expected.items() if q}
    assert sum(got.values()) == 1


def brute_severity(damage: int, hp: int, protection: int, whole: bool) -> str | None:
    if damage <= hp:
        return None
    read = (damage if whole else damage - hp) - protection
    if read < 1:
        return None
    return "Bleeding out" if read <= 3 else "Location wound" if read <= 9 else "Unconscious"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 20),
    st.integers(-5, 25),
    st.sampled_from(sorted(ARMOUR)),
    st.booleans(),
    st.sampled_from(["1d12", "2d10+2", "3d8"]),
)
def test_wound_chances_equal_brute_force(hp, attack_target, armour, whole, monster):
    inputs = {
        "mode": "monster", "damage_dice": monster, "target_source": "direct", "attack_target": attack_target,
        "defense": 0, "current_hp": hp, "armour": armour, "wound_damage": "whole" if whole else "overflow",
    }  # fmt: skip
    answer = run("damage", **inputs)
    expected = {"Bleeding out": Fraction(0), "Location wound": Fraction(0), "Unconscious": Fraction(0)}
    for x, q in pmf(answer).items():
        got = brute_severity(x, hp, ARMOUR[armour], whole)
        if got:
            expected[got] += q
    for label, q in expected.items():
        assert chance(answer, label) == q
    assert chance(answer, "Wound") == sum(expected.values())


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["1d6", "2d8+3", "3d6+1d4", "d20+d12-2", "4d4+4"]))
def test_monster_dice_equal_icepool(expr):
    # A sure hit (natural 20, phase roll 20): the damage is the dice, at least 1.
    answer = run("damage", mode="monster", damage_dice=expr, phase_roll=20)
    parsed = calc.numbers.dice.parse(expr)
    die = icepool.Die([parsed.modifier])
    for t in parsed.terms:
        die = die + t.sign * (t.count @ icepool.d(t.sides))
    oracle = {int(x): Fraction(n, die.denominator()) for x, n in die.items()}
    folded: dict[int, Fraction] = {}
    for x, q in oracle.items():
        folded[max(1, x)] = folded.get(max(1, x), 0) + q
    assert pmf(answer) == folded


@settings(max_examples=80, deadline=None)
@given(
    st.integers(-5, 25),
    st.integers(-5, 15),
    st.sampled_from(["normal", "advantage", "disadvantage"]),
    st.sampled_from(["literal", "better-worse"]),
    st.booleans(),
)
def test_hit_chance_is_monotone(target, defense, mode, reading, natural):
    def hit_p(t, d):
        return chance(
            run(
                "hit", target_source="direct", attack_target=t, defense=d, roll_mode=mode,
                advantage_reading=reading, natural_rolls=natural,
            ),
            "Hit",
        )  # fmt: skip

    here = hit_p(target, defense)
    assert hit_p(target + 1, defense) <= here
    assert hit_p(target, defense + 1) <= here
    assert hit_p(target - 1, defense) >= here


def itertools_pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


combatant = st.fixed_dictionaries(
    {"roll": st.sampled_from([0, 0, 1, 10, 20]), "dex_target": st.integers(5, 15)},
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(combatant, min_size=2, max_size=3),
    st.sampled_from(["melee", "movement"]),
    st.sampled_from(["simultaneous", "reroll"]),
)
def test_phase_order_equals_brute_force(people, phase, ties):
    combatants = [{"name": f"C{i}", **c} for i, c in enumerate(people)]
    answer = run("initiative", phase=phase, combatants=combatants, ties=ties)
    by_margin = phase == "movement"

    def scores(c):
        shift = c["dex_target"] if by_margin else 0
        return [c["roll"] - shift] if c["roll"] else [r - shift for r in D20]

    def fresh(c):
        shift = c["dex_target"] if by_margin else 0
        return [r - shift for r in D20]

    def compare(xs, ys):
        n = len(xs) * len(ys)
        gt = Fraction(sum(x > y for x in xs for y in ys), n)
        eq = Fraction(sum(x == y for x in xs for y in ys), n)
        return gt, eq, 1 - gt - eq

    for i, j in itertools_pairs(len(people)):
        a, b = combatants[i], combatants[j]
        gt, eq, lt = compare(scores(a), scores(b))
        if ties == "reroll" and eq:
            fgt, _, flt = compare(fresh(a), fresh(b))
            gt, eq, lt = gt + eq * fgt / (fgt + flt), Fraction(0), lt + eq * flt / (fgt + flt)
        assert pair(answer, a["name"], b["name"]) == (gt, eq, lt)
        assert gt + eq + lt == 1
    if ties == "simultaneous":
        every = list(product(*(scores(c) for c in combatants)))
        for i, c in enumerate(combatants):
            alone = sum(all(s[i] > s[k] for k in range(len(s)) if k != i) for s in every)
            assert chance(answer, f"{c['name']} acts first, alone") == Fraction(alone, len(every))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=1, max_size=4), st.sampled_from(["above", "at-least"]))
def test_morale_equals_brute_force(scores, reading):
    monsters = [{"name": f"M{i}", "morale": m} for i, m in enumerate(scores)]
    answer = run("initiative", phase="morale", combatants=monsters, morale_reading=reading)
    for c in monsters:
        flee = sum(
            (a + b > c["morale"]) if reading == "above" else (a + b >= c["morale"])
            for a in range(1, 7)
            for b in range(1, 7)
        )
        assert chance(answer, f"{c['name']} flees") == Fraction(flee, 36)


# --- generated tables ------------------------------------------------------------------------------
def test_generated_tables_are_declared(data):
    assert set(phases.TABLES) == {"attack_target_grid", "defense_by_attack", "wound_thresholds", "morale_chances"}
    grid = phases.TABLES["attack_target_grid"](data)
    assert grid["rows"][0] == ["18", "13", "11", "8", "6"]
    thresholds = phases.TABLES["wound_thresholds"](data)
    assert thresholds["rows"][1] == ["Leather", "4–6", "7–12", "13+"]
    morale = phases.TABLES["morale_chances"](data)
    assert morale["rows"][5] == ["7", "8+", "5/12", "41.7%"]
