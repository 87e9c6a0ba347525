"""Action Points' fight forecast: tiny fights against a brute-force oracle (initiative rolled once,
ties rolled again), one against one against the round calculator's duel, symmetry, monotonicity,
the text's blow to −9 and failed check in a fight (both readings), the wounds rule, the bound."""

from __future__ import annotations

import importlib
from fractions import Fraction
from functools import partial

import pytest

import calc
import calc.systems.action_points  # noqa: F401  (the package shadows its forecast module's name)
from calc.forecast import fixed_order
from calc.inputs import data, declared
from tests.calc import forecast_cases as cases
from tests.calc.ap_fight_oracle import initiative_orders, oracle

FORECAST = importlib.import_module("calc.systems.action_points.forecast")
SYSTEM = data.system("action-points")

HERO = {"name": "Hero", "initiative": 1, "standard": 1, "quick": 0, "use_preset": False, "dice": "1d6", "ability": 2,
        "damage_bonus": 1, "defense": 12, "target_hp": 4}  # fmt: skip
ORC = {"name": "Orc", "standard": 0, "quick": 1, "use_preset": False, "dice": "1d4", "ability": 1, "damage_bonus": 1,
       "defense": 11, "target_hp": 3}  # fmt: skip
HARMLESS = {"name": "Dummy", "standard": 0, "quick": 1, "ability": -10, "misc": -30, "defense": 10, "target_hp": 12}
SAFE = {"threat_range": "must_hit"}  # a natural 20 that misses the total is a miss: a harmless foe never hits


run = partial(cases.run, "action-points")
chance = cases.chance
exact = partial(cases.exact, "action-points", FORECAST, True)
full = partial(cases.full, "action-points")


def test_the_orders_chances_equal_rolling_every_die():
    """Initiative rolled once: every order's chance, ties rolled again with the bonus (or evenly),
    equals the oracle's roll of every face."""
    for reroll in ("with_bonus", "plain"):
        values = declared.validate(
            SYSTEM.calculator("forecast")["inputs"],
            {"party": [{**HERO, "initiative": 3}, {**HERO, "name": "B", "initiative": 0}], "foes": [ORC],
             "tie_reroll": reroll},
        )  # fmt: skip
        _, totals, split = FORECAST.build(values, SYSTEM)
        chances = fixed_order.orders(totals, True, split)
        got = {tuple(g[0] for g in order): p for order, p in chances.items()}
        assert got == initiative_orders([3, 0, 0], reroll)
        assert sum(got.values()) == 1


@pytest.mark.parametrize(
    ("party", "foes", "extra"),
    [
        ([HERO], [ORC], {}),
        ([HERO], [ORC], {"tie_reroll": "plain", "dying_checks": "ignored"}),
        ([HERO, {**HERO, "name": "Ally", "target_hp": 2, "initiative": 3, "dice": "1d4"}], [ORC], {}),
        ([{**HERO, "target_hp": 6}], [ORC, {**ORC, "name": "Orc 2", "target_hp": 1, "initiative": -1}], {}),
        ([{**HERO, "quick": 1}], [{**ORC, "quick": 2, "target_hp": 5}], {"dc_ties": "meets"}),
    ],
)
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, extra):
    rounds = 3
    got = exact(party, foes, rounds=rounds, **extra)
    want = oracle([full(f) for f in party], [full(f) for f in foes], rounds, extra)
    assert list(got.party.within) == want["party"]
    assert list(got.foes.within) == want["foes"]
    for i, marks in enumerate(got.fighters):
        assert list(marks[0].within) == want["down"][i]
        assert list(marks[1].within) == want["dead"][i]


def duel(attacker: dict, target: dict, **extra) -> dict:
    keys = {d["name"] for d in SYSTEM.calculator("round")["inputs"]}
    asked = {k: v for k, v in full(attacker).items() if k in keys and k not in FORECAST.TARGET}
    asked |= {k: v for k, v in full(target).items() if k in FORECAST.TARGET or k.startswith("target_")}
    asked.pop("target_wounds", None)
    return calc.evaluate({"system": "action-points", "calculator": "round", "inputs": {**asked, **extra}})


@pytest.mark.parametrize("wounds_rule", [False, True])
def test_one_against_one_equals_the_round_calculators_duel(wounds_rule):
    """A foe that cannot hit: the party wins within k rounds when the round calculator's target
    falls unconscious within k rounds; the mean is its mean. Under the wounds rule too (the
    target's wounds lower its AC, round after round)."""
    hero = {**HERO, "standard": 1, "quick": 1, "dice": "1d8", "ability": 4, "damage_bonus": 3, "defense": 80}
    foe = {**HARMLESS, "target_hp": 17, "defense": 14, "target_base_hp": 4, "target_max_hp": 30}
    extra = {**SAFE, "wounds_rule": wounds_rule}
    got = exact([hero], [foe], rounds=10, **extra)
    answer = duel(hero, foe, **extra)
    assert got.party.within[0] == chance(answer, "Unconscious in 1 round")
    assert got.party.within[2] == chance(answer, "Unconscious within 3 rounds")
    assert got.party.within[9] == chance(answer, "Unconscious within 10 rounds")
    mean = answer["table"]["title"].split("Unconscious: ")[1].split(";")[0]
    assert f"{float(got.over.mean):.3g}" == mean


def test_a_character_falls_as_the_round_calculator_says():
    hero = {**HARMLESS, "name": "Hero", "target_hp": 9, "defense": 14}
    orc = {**ORC, "standard": 1, "quick": 1, "dice": "1d8", "ability": 3, "target_hp": 5, "defense": 80}
    answer = run([hero], [orc], rounds=10, **SAFE)
    want = duel(orc, hero, **SAFE)
    assert (
        chance(answer, "Hero goes down") == chance(want, "Unconscious within 10 rounds") == chance(answer, "Foes win")
    )


def test_two_identical_fighters_win_with_equal_chance():
    """Initiative is rolled once with ties rolled again: each is first half the time."""
    a = {**HERO, "target_hp": 5, "standard": 1, "quick": 1}
    answer = run([a], [{**a, "name": "Twin"}], rounds=6)
    assert chance(answer, "Party wins") == chance(answer, "Foes win")
    assert chance(answer, "Hero dies") == chance(answer, "Twin dies")


def test_the_texts_blow_to_minus_9_and_failed_check_in_a_fight():
    """The quick attack 1d4 + 9 takes the 1-HP orc to −9 on a hit against AC 10 (7/10); its
    Constitution check at the round's end (DC 24) always fails and kills it, while the fight goes
    on against its ally: dead in the first round 7/10; counting only the blows, only the critical
    kills: 1/20."""
    hero = {**HERO, "standard": 0, "quick": 1, "ability": 3, "dice": "1d4", "damage_bonus": 9, "defense": 80,
            "target_hp": 20}  # fmt: skip
    orc = {**HARMLESS, "name": "Orc", "target_hp": 1, "defense": 10}
    ally = {**HARMLESS, "name": "Ally", "target_hp": 60}
    counted = run([hero], [orc, ally], rounds=1, **SAFE)
    assert chance(counted, "Orc dies") == Fraction(7, 10)
    assert chance(counted, "Orc goes down") == Fraction(7, 10)
    ignored = run([hero], [orc, ally], rounds=1, dying_checks="ignored", **SAFE)
    assert chance(ignored, "Orc dies") == Fraction(1, 20)


def test_a_check_equal_to_the_dc_passes_under_the_ruling_only():
    """The same blow to −9 against an orc of Constitution 4: the DC 24 check equals 24 on a natural
    20, which passes under the ruling, so a regular hit (13/20) kills 19 times in 20 and the critical
    (1/20) outright; under the other reading every hit kills (7/10)."""
    hero = {**HERO, "standard": 0, "quick": 1, "ability": 3, "dice": "1d4", "damage_bonus": 9, "defense": 80,
            "target_hp": 20}  # fmt: skip
    orc = {**HARMLESS, "name": "Orc", "target_hp": 1, "defense": 10, "target_con": 4}
    ally = {**HARMLESS, "name": "Ally", "target_hp": 60}
    meets = run([hero], [orc, ally], rounds=1, **SAFE)
    assert chance(meets, "Orc dies") == Fraction(1, 20) + Fraction(13, 20) * Fraction(19, 20)
    exceeds = run([hero], [orc, ally], rounds=1, dc_ties="exceeds", **SAFE)
    assert chance(exceeds, "Orc dies") == Fraction(7, 10)


def test_a_known_order_past_the_chains_state_count_is_followed_not_refused_by_one():
    """Mid-round, the order known: the chain is bounded by the order's own state bound (43,492
    here, past `chain.MAX_STATES`) counting the rest of the round's start too. It was refused for
    "up to 43,492 states, more than the 43,491 followed"; it answers (2,275 states)."""
    from calc.forecast.bench import TYPICAL

    hero, foe = TYPICAL["action-points"]
    party = [{**hero, "name": "Ann", "target_hp": 20}, {**hero, "name": "Bob", "target_hp": 16}]
    foes = [{**foe, "name": "Orc", "target_hp": 2}, {**foe, "name": "Gob", "target_hp": 2}]
    order = [{"name": n} for n in ("Ann", "Orc", "Bob", "Gob")]
    inputs = {"party": party, "foes": foes, "order": order, "acted": 1}
    answer = calc.evaluate({"system": "action-points", "calculator": "forecast", "inputs": inputs})
    assert "2,275 states" in answer["table"]["title"]


def test_a_known_order_far_past_the_work_bound_is_refused_at_once():
    """Mid-round, the order known, six fighters: one order's up to 7,782,255 states are past
    `fixed_order.MAX_WORK`, refused before any work, naming them (as a fresh fight's orders are)."""
    from calc.forecast.bench import TYPICAL

    hero, foe = TYPICAL["action-points"]
    party = [{**hero, "name": n, "target_hp": hp} for n, hp in (("Ann", 20), ("Bob", 12), ("Cid", 14))]
    foes = [{**foe, "name": n, "target_hp": hp} for n, hp in (("Orc", 12), ("Gob", 7), ("Rat", 4))]
    order = [{"name": n} for n in ("Ann", "Orc", "Bob", "Gob", "Cid", "Rat")]
    inputs = {"party": party, "foes": foes, "order": order, "acted": 2}
    with pytest.raises(calc.errors.InputError) as err:
        calc.evaluate({"system": "action-points", "calculator": "forecast", "inputs": inputs})
    assert "up to 7,782,255 states under its order of who acts when" in err.value.reason
    assert f"more than the {fixed_order.MAX_WORK:,} followed exactly" in err.value.reason
