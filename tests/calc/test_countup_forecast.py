"""Countup's fight forecast: tiny fights against a brute-force oracle, one against one against
the round calculator's duel, monotonicity, the text's exchange of blows, the state bound."""

from __future__ import annotations

import importlib
from fractions import Fraction
from functools import partial

import pytest

import calc
import calc.systems.countup  # noqa: F401  (the package shadows its forecast module's name)
from calc.errors import InputError
from tests.calc import forecast_cases as cases
from tests.calc.fight_oracle import oracle

FORECAST = importlib.import_module("calc.systems.countup.forecast")

HERO = {"name": "Hero", "target": "character", "to_hit": 2, "ability_bonus": 1, "ac": 13, "target_hp": 5, "dice": "1d6"}
ORC = {"name": "Orc", "target": "npc", "to_hit": 1, "ability_bonus": 0, "ac": 12, "target_hp": 4, "dice": "1d4"}
HARMLESS = {"name": "Dummy", "target": "npc", "to_hit": -20, "ability_bonus": -10, "misc": -30, "ac": 12}

run = partial(cases.run, "countup")
chance = cases.chance
exact = partial(cases.chained, "countup", FORECAST)
full = partial(cases.full, "countup")


@pytest.mark.parametrize(
    ("party", "foes", "ties", "rounds"),
    [
        ([HERO], [ORC], "listed", 3),
        ([{**HERO, "attacks": 2, "target_hp": 2}], [{**ORC, "die": "d8", "attacks": 2}], "listed", 3),
        ([HERO, {**HERO, "name": "Ally", "target_hp": 3, "dice": "1d4", "modifier": 2}], [ORC], "listed", 3),
        ([HERO], [ORC, {**ORC, "name": "Orc 2", "target_hp": 2, "modifier": -1}], "listed", 3),
        ([HERO], [ORC, {**ORC, "name": "Orc 2", "target_hp": 2}], "together", 3),
        pytest.param(
            [HERO, {**HERO, "name": "B", "target_hp": 2}],
            [ORC, {**ORC, "name": "Orc 2", "target_hp": 3}],
            "together",
            2,
            marks=pytest.mark.slow,  # the oracle's biggest fight: ~8 s of CPU
        ),
    ],
)
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, ties, rounds):
    got = exact(party, foes, rounds=rounds, ties=ties)
    want = oracle([full(f) for f in party], [full(f) for f in foes], rounds, ties)
    assert [(got.party.within[k], got.foes.within[k]) for k in range(rounds)] == want


def test_one_against_one_equals_the_round_calculators_duel():
    """A foe that cannot hit: the party's chance to win within k rounds is the round
    calculator's chance to kill it within k rounds, and the mean is its mean."""
    hero = {**HERO, "attacks": 2, "dice": "2d6", "target_hp": 30}
    foe = {**HARMLESS, "target_hp": 17}
    got = exact([hero], [foe], rounds=10)
    duel_inputs = {
        k: v for k, v in full(hero).items() if k not in ("name", "die", "modifier", "target", "target_hp", "reload")
    }
    duel_inputs |= {"ac": 12, "target": "npc", "target_hp": 17}
    duel_inputs.pop("npc_hurt")
    for name in ("strength_from", "strength_score", "strength_bonus"):  # a melee attack's Strength is the hit's
        duel_inputs.pop(name)
    duel = calc.evaluate({"system": "countup", "calculator": "round", "inputs": duel_inputs})
    assert got.party.within[0] == chance(duel, "Dead in 1 round")
    assert got.party.within[2] == chance(duel, "Dead within 3 rounds")
    assert got.party.within[9] == chance(duel, "Dead within 10 rounds")
    mean = duel["table"]["title"].split("Dead: ")[1].rstrip(")")
    assert f"{float(got.over.mean):.2f}".rstrip("0").rstrip(".") == mean


def test_a_character_falls_as_the_round_calculator_says():
    """The other way round: the foes' chances to make the character Hurt and to kill it."""
    hero = {**HERO, "to_hit": -20, "ability_bonus": -10, "misc": -30, "target_hp": 9, "ac": 14}
    orc = {**ORC, "attacks": 2, "dice": "1d8", "ability_bonus": 2, "target_hp": 5}
    answer = run([hero], [orc], rounds=10)
    duel_inputs = {
        k: v for k, v in full(orc).items() if k not in ("name", "die", "modifier", "target_hp", "npc_hurt", "reload")
    }
    duel_inputs |= {"ac": 14, "target": "character", "target_hp": 9}
    for name in ("strength_from", "strength_score", "strength_bonus"):  # a melee attack's Strength is the hit's
        duel_inputs.pop(name)
    duel = calc.evaluate({"system": "countup", "calculator": "round", "inputs": duel_inputs})
    assert chance(answer, "Hero is Hurt or worse") == chance(duel, "Hurt or worse within 10 rounds")
    assert chance(answer, "Hero dies") == chance(duel, "Dead within 10 rounds") == chance(answer, "Foes win")


def test_the_texts_exchange_of_blows():
    """The 5th-level fighter's longsword +1 (hits AC 14 on 6+: 3/4) against the ordinary orc at
    5 hit points (1d8 + 3 kills it 7 times in 8): the orc is dead after one round 21/32 of the
    time, whoever strikes first, since the orc cannot fell the fighter in one blow."""
    fighter = {"name": "Fighter", "target": "character", "to_hit": 5, "ability_from": "score", "ability_score": 16,
               "misc": 1, "dice": "1d8", "strength_from": "score", "strength_score": 16, "damage_misc": 1,
               "target_hp": 30}  # fmt: skip
    orc = {**ORC, "ac": 14, "target_hp": 5}
    answer = run([fighter], [orc], rounds=1)
    assert chance(answer, "Party wins") == Fraction(3, 4) * Fraction(7, 8)
    assert chance(answer, "Orc dies") == Fraction(21, 32)


def test_a_fighter_down_before_its_turn_does_not_act():
    """The orc always acts first (modifier −20: the count runs up) and always kills the 1-HP character (NPC): the
    character never strikes back."""
    orc = {**ORC, "modifier": -20, "to_hit": 30, "dice": "1d4", "ability_bonus": 0, "damage_misc": 1}
    victim = {**HERO, "target": "npc", "target_hp": 1, "to_hit": 30, "damage_misc": 20}
    answer = run([victim], [orc], rounds=1)
    assert chance(answer, "Foes win") == 1
    assert chance(answer, "Orc dies") == 0


def test_past_the_steps_bound_the_answer_says_what_to_reduce(monkeypatch):
    """Few states but wide rounds (many attacks, wide damage): refused while the states are found,
    past Countup's own steps bound (4.4 million steps here, the bound lowered to 2 million)."""
    monkeypatch.setattr(FORECAST, "BOUNDS", (FORECAST.BOUNDS[0], 2_000_000))
    party = [
        {**HERO, "name": "A", "attacks": 2, "target_hp": 14, "dice": "1d10"},
        {**HERO, "name": "B", "target_hp": 12},
    ]
    ogre = {**ORC, "name": "Ogre", "npc_hurt": True, "attacks": 2, "target_hp": 40, "dice": "3d6"}
    with pytest.raises(InputError) as err:
        run(party, [ogre])
    assert "more than 2,000,000 steps" in err.value.reason and "fewer attacks" in err.value.reason


@pytest.mark.slow
def test_three_against_three_answers_under_countups_own_bounds(monkeypatch):
    """Countup's steps are cheap (bare hit points), so its fight carries its own bounds: the
    benchmark's 3 against 3 (917 states, 14.9 million steps) answers; under the chain's own bounds
    (800,000 work, 4 million steps) it is refused."""
    from calc.forecast import chain
    from calc.forecast.bench import cases

    inputs = next(i for s, c, i in cases() if s == "countup" and c == "3 against 3")
    request = {"system": "countup", "calculator": "forecast", "inputs": inputs}
    assert "917 states" in calc.evaluate(request)["table"]["title"]
    monkeypatch.setattr(FORECAST, "BOUNDS", (chain.MAX_WORK, chain.MAX_STEPS))
    with pytest.raises(InputError) as err:
        calc.evaluate(request)
    assert f"more than the {chain.MAX_WORK:,} followed exactly" in err.value.reason


def test_each_targeting_policy_picks_its_first_target():
    """Two foes: a weak one with fewer hit points listed second, a strong one listed first. Lowest
    hit points first kills the weak one more often; the most dangerous first and the order listed
    go for the strong one."""
    strong = {**ORC, "name": "Brute", "target_hp": 6, "attacks": 2, "dice": "1d8", "ability_bonus": 2}
    weak = {**ORC, "name": "Runt", "target_hp": 3, "to_hit": -5, "dice": "1d2"}
    hero = {**HERO, "target_hp": 30, "dice": "1d4"}
    by = {p: run([hero], [strong, weak], rounds=2, party_targets=p) for p in ("lowest-hp", "dangerous", "listed")}
    assert chance(by["lowest-hp"], "Runt dies") > chance(by["dangerous"], "Runt dies")
    assert chance(by["dangerous"], "Brute dies") > chance(by["lowest-hp"], "Brute dies")
    assert by["dangerous"]["chances"] == by["listed"]["chances"]


def test_a_first_round_spent_moving_and_drawing_has_no_attack():
    hero = {**HERO, "first_round": "move-and-draw", "to_hit": 30, "damage_misc": 20}
    foe = {**HARMLESS, "target_hp": 3}
    assert chance(run([hero], [foe], rounds=1), "Party wins") == 0
    assert chance(run([hero], [foe], rounds=2), "Party wins") == 1
    assert chance(run([{**hero, "first_round": "move"}], [foe], rounds=1), "Party wins") == 1
