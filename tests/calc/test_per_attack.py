"""One attack, one form (issue 11, item 6): every system's damage calculator reports, from the hit
calculator's inputs, the hit chance, the damage of an attack that lands and the expected damage per
attack. Checked against brute force over every face of the attack roll (and of the damage dice) on
small cases written from the rules, not from the engines; and, where a system has no critical hits,
against P(hit) of the hit calculator × the mean of the damage calculator."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product

import pytest
from answers import chance, runner
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import calc
from calc.answers.result import dist_probs
from calc.inputs import data as calc_data

SYSTEMS = [s for s in calc_data.load()["systems"]]
D20 = range(1, 21)


def exact(entry: dict) -> Fraction:
    return Fraction(entry["fraction"])


def pmf_of(dist: dict) -> dict[int, Fraction]:
    return dist_probs(dist)


def faces(*sides: int):
    """Every roll of these dice, each with its chance."""
    weight = Fraction(1, 1)
    for s in sides:
        weight /= s
    for roll in product(*(range(1, s + 1) for s in sides)):
        yield roll, weight


def brute(outcomes) -> tuple[Fraction, dict[int, Fraction]]:
    """(expected damage, distribution) from (chance, damage) pairs of an enumeration."""
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for p, dmg in outcomes:
        dist[dmg] += p
    return sum((p * x for x, p in dist.items()), Fraction(0)), {x: p for x, p in dist.items() if p}


def check(answer: dict, outcomes) -> None:
    """The answer's expected damage and per-attack distribution equal the enumeration's."""
    expected, dist = brute(outcomes)
    attack = answer["attack"]
    assert exact(attack["expected"]) == expected
    assert pmf_of(attack["per_attack"]) == dist
    assert exact(attack["per_attack"]["mean"]) == expected


# --- the shape, in every system ---------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_damage_takes_the_hit_inputs_and_agrees_with_itself(system):
    declared = calc_data.system(system).calculator("damage")
    hit_names = [d["name"] for d in calc_data.system(system).calculator("hit")["inputs"]]
    names = [d["name"] for d in declared["inputs"]]
    assert declared.get("inputs_from") == "hit" and names[: len(hit_names)] == hit_names
    for inputs in ({}, declared.get("stress") or {}):
        answer = calc.evaluate({"system": system, "calculator": "damage", "inputs": inputs})
        attack = answer["attack"]
        hit, expected = exact(attack["hit"]), exact(attack["expected"])
        on_hit = attack["on_hit"]
        assert expected == hit * exact(on_hit["mean"]) == exact(attack["per_attack"]["mean"])
        per = pmf_of(attack["per_attack"])
        assert sum(per.values()) == 1
        assert per.get(0, 0) == (1 - hit) + hit * pmf_of(on_hit).get(0, 0)
        assert any("expected damage per attack" in s["text"] for s in answer["steps"])


@pytest.mark.parametrize("system", ["countup", "segments", "active-defense"])
@pytest.mark.parametrize("stress", [False, True])
def test_no_critical_hits_expected_is_hit_chance_times_mean_damage(system, stress):
    """No crits: expected damage = P(hit) from the hit calculator × mean from the damage calculator."""
    inputs = calc_data.system(system).calculator("damage").get("stress", {}) if stress else {}
    damage = calc.evaluate({"system": system, "calculator": "damage", "inputs": inputs})
    hit_names = {d["name"] for d in calc_data.system(system).calculator("hit")["inputs"]}
    hit = calc.evaluate(
        {"system": system, "calculator": "hit", "inputs": {k: v for k, v in inputs.items() if k in hit_names}}
    )
    label = "Attack lands" if system == "active-defense" else "Hit"
    p = chance(hit, label)
    assert exact(damage["attack"]["hit"]) == p
    assert exact(damage["attack"]["expected"]) == p * exact(damage["distribution"]["mean"])


# --- brute force from the rules, system by system ------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(
    ac=st.integers(8, 26),
    misc=st.integers(-3, 3),
    sides=st.sampled_from([4, 6]),
    plus=st.integers(-4, 3),
    floor=st.booleans(),
    natural=st.booleans(),
)
@example(ac=26, misc=-3, sides=4, plus=0, floor=True, natural=True)
def test_countup_expected_equals_enumeration(ac, misc, sides, plus, floor, natural):
    answer = runner("countup")(
        "damage", to_hit=5, ability_score=16, misc=misc, ac=ac, natural_rolls=natural,
        dice=f"1d{sides}", strength_score=10, damage_misc=plus, damage_floor=floor,
    )  # fmt: skip
    bonus = 5 + 2 + misc  # to-hit, Strength 16, misc

    def hits(face):
        if natural and face in (1, 20):
            return face == 20
        return face + bonus >= ac

    outcomes = [(p, max(0, d + plus) if floor else d + plus) if hits(f) else (p, 0) for (f, d), p in faces(20, sides)]
    check(answer, outcomes)


@settings(max_examples=25, deadline=None)
@given(
    ac=st.integers(-3, 8),
    aac0=st.integers(12, 19),
    bonus=st.integers(-3, 3),
    modifier=st.integers(-3, 2),
    factor=st.sampled_from([None, 2, 3]),
)
@example(ac=1, aac0=19, bonus=-3, modifier=0, factor=None)  # needs 21 on the die: only a natural 20 hits
@example(ac=8, aac0=12, bonus=3, modifier=-3, factor=2)  # needs 1: a natural 1 still misses
def test_segments_expected_equals_enumeration(ac, aac0, bonus, modifier, factor):
    assume(aac0 - ac <= 20)  # within the table's plain formula (beyond it come the six 20s)
    multipliers = [{"source": "back stab", "factor": factor}] if factor else []
    answer = runner("segments")(
        "damage", attacker="aac0", aac0=str(aac0), ac=ac, bonus=bonus, dice="1d6", modifier=modifier,
        multipliers=multipliers,
    )  # fmt: skip

    def hits(face):  # AAC0 − AC needed; a natural 20 always hits, a natural 1 always misses
        return face == 20 or (face != 1 and face + bonus >= aac0 - ac)

    outcomes = [(p, max(0, d + modifier) * (factor or 1) if hits(f) else 0) for (f, d), p in faces(20, 6)]
    check(answer, outcomes)


@settings(max_examples=15, deadline=None)
@given(
    defense=st.integers(10, 26),
    threshold=st.integers(15, 20),
    multiplier=st.integers(2, 4),
    miss=st.sampled_from([0, 20, 50]),
    always=st.booleans(),
    weakness=st.integers(0, 2),
    resistance=st.integers(0, 4),
)
def test_action_points_expected_equals_enumeration(defense, threshold, multiplier, miss, always, weakness, resistance):
    answer = runner("action-points")(
        "damage", defense=defense, ability=3, use_preset=False, dice="1d4", threshold=threshold,
        multiplier=multiplier, miss_chance=miss, threat_range="always_hits" if always else "must_hit",
        damage_bonus=1, weakness=weakness, resistance=resistance,
    )  # fmt: skip
    outcomes = []
    for (face, d), p in faces(20, 4):
        total_hits = face + 3 >= defense
        in_range = face >= threshold
        kind = "crit" if in_range and total_hits else "hit" if total_hits or (in_range and always) else "miss"
        # the d% miss chance (glossary reading: at or under it misses); a critical so missed stays a hit
        lost = Fraction(miss, 100)
        regular = max(0, d + 1 + weakness - resistance)
        critical = max(0, (d + 1) * multiplier + weakness - resistance)  # the whole total multiplied (ruling)
        if kind == "miss":
            outcomes.append((p, 0))
        elif kind == "hit":
            outcomes += [(p * (1 - lost), regular), (p * lost, 0)]
        else:
            outcomes += [(p * (1 - lost), critical), (p * lost, regular)]
    check(answer, outcomes)


@settings(max_examples=25, deadline=None)
@given(
    target=st.integers(4, 14),
    defense=st.integers(-2, 6),
    modifiers=st.integers(-3, 3),
    natural=st.booleans(),
)
@example(target=14, defense=6, modifiers=0, natural=True)
def test_phases_expected_equals_enumeration(target, defense, modifiers, natural):
    """Margin damage: roll − (attack target + Defense) + modifiers, at least 1; a natural 20 hits and
    a natural 1 misses under the ruling (a critical adds a Wound, not damage)."""
    answer = runner("phases")(
        "damage", target_source="direct", attack_target=target, defense=defense, modifiers=modifiers,
        natural_rolls=natural,
    )  # fmt: skip
    number = target + defense

    def hits(face):
        if natural and face in (1, 20):
            return face == 20
        return face >= number

    outcomes = [(p, max(1, f - number + modifiers) if hits(f) else 0) for (f,), p in faces(20)]
    check(answer, outcomes)


@settings(max_examples=25, deadline=None)
@given(
    skill=st.integers(0, 8),
    dex=st.integers(-2, 6),
    armor=st.integers(0, 6),
    floor=st.sampled_from(["0", "1"]),
)
def test_active_defense_expected_equals_enumeration(skill, dex, armor, floor):
    """d20 + skill + ability against Passive Defense 10 + Dexterity; a natural 20 counts as 30 and a
    natural 1 as −10; damage dice + Strength − armour, never below the floor."""
    answer = runner("active-defense")(
        "damage", attack_skill=skill, attack_ability=1, defender_dex=dex, damage_dice="1d6", damage_strength=1,
        armor=armor, damage_floor=floor,
    )  # fmt: skip
    counted = {20: 30, 1: -10}

    outcomes = [
        (p, max(int(floor), d + 1 - armor) if counted.get(f, f) + skill + 1 >= 10 + dex else 0)
        for (f, d), p in faces(20, 6)
    ]
    check(answer, outcomes)


# --- the source texts' worked examples ------------------------------------------------------------
def test_countup_fighter_longsword_expected_damage_per_attack():
    """The text's 5th-level fighter with a longsword +1 (Strength 16) against AC 14 hits on 6+
    (15/20) and deals 1d8+3 (mean 15/2): 45/8 damage per attack."""
    answer = runner("countup")(
        "damage", to_hit=5, ability_score=16, misc=1, ac=14, dice="1d8", strength_score=16, damage_misc=1
    )
    assert exact(answer["attack"]["hit"]) == Fraction(3, 4)
    assert exact(answer["distribution"]["mean"]) == Fraction(15, 2)
    assert exact(answer["attack"]["expected"]) == Fraction(45, 8)
