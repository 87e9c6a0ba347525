"""Action Points engines: the source's worked examples, both readings of every ruling, bad input,
and property tests against brute-force enumeration of every die face (and icepool for damage)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import ceil

import icepool
import pytest
from answers import chance_starting, pmf, runner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import calc
from calc.errors import InputError
from calc.inputs import data
from calc.systems.action_points import TABLES

SYSTEM = "action-points"
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


run = runner(SYSTEM)
chance = chance_starting  # these tests name chances by the start of their label


def scores(answer: dict) -> dict[str, str]:
    return {name: group["score"] for group in answer["order"] for name in group["names"]}


def duel(roll_a: int, roll_b: int, reading: str) -> dict[str, str]:
    combatants = [{"name": "Alice", "roll": roll_a, "swap_with": "Bob"}, {"name": "Bob", "roll": roll_b}]
    return scores(run("initiative", combatants=combatants, swap_reading=reading))


# --- the source's worked examples and both readings of each ruling -----------------------------------
@pytest.mark.parametrize(
    ("a", "b", "reading", "alice", "bob"),
    [
        (17, 5, "examples", "5", "15"),  # source line 10, first example
        (12, 10, "examples", "10", "11"),  # source line 10, second example
        (17, 5, "literal", "5", "6"),  # the formula's "whichever is lower"
        (12, 10, "literal", "10", "10"),
    ],
)
def test_initiative_swap_examples_and_literal_reading(a, b, reading, alice, bob):
    assert duel(a, b, reading) == {"Alice": alice, "Bob": bob}


def test_literal_swap_of_12_and_10_leaves_a_tie_to_re_roll():
    answer = run(
        "initiative",
        combatants=[{"name": "Alice", "roll": 12, "swap_with": "Bob"}, {"name": "Bob", "roll": 10}],
        swap_reading="literal",
    )
    assert answer["order"][0]["tied"] and answer["order"][0]["names"] == ["Alice", "Bob"]


def test_magical_weapon_attacks_sr_with_intelligence():
    answer = run("hit", weapon="staff", kind="magic", ability=4, defense=15)
    assert chance(answer, "Hit") == Fraction(10, 20)  # natural 11+; threshold 20 is inside that
    assert "Intelligence" in answer["steps"][1]["text"] and "SR 15" in answer["steps"][1]["text"]


def test_power_attack_longsword_rolls_4d8_and_adds_bonuses_once():
    # Source lines 95–97: a longsword's 2d8 + Strength + half level becomes 4d8 + the same bonuses.
    power = pmf(run("damage", weapon="long-slashing", damage_bonus=5, attack="power", outcome="hit"))
    expected = Counter(sum(faces) + 5 for faces in itertools.product(range(1, 9), repeat=4))
    assert power == {x: Fraction(n, 8**4) for x, n in expected.items()}
    twice = run("damage", weapon="long-slashing", damage_bonus=5, attack="power", outcome="hit", power_bonuses="twice")
    assert (twice["distribution"]["min"], twice["distribution"]["max"]) == (14, 42)


def test_miss_chance_both_readings():
    base = dict(defense=1, ability=0, weapon="medium-bludgeoning", miss_chance=20)
    ruling = run("hit", **base)
    literal = run("hit", **base, miss_chance_reading="literal")
    assert chance(ruling, "Miss") == Fraction(19, 20) * Fraction(1, 5)
    assert chance(literal, "Miss") == Fraction(19, 20) * Fraction(4, 5)
    # A critical that would miss becomes a regular hit: nothing is lost from the critical's 1/20.
    assert chance(ruling, "Critical hit") + chance(ruling, "Regular hit") == 1 - Fraction(19, 100)


def test_critical_range_always_hits_or_must_hit():
    base = dict(defense=30, ability=0, weapon="short-piercing")
    assert chance(run("hit", **base), "Hit") == Fraction(3, 20)
    assert chance(run("hit", **base), "Critical hit") == 0
    assert chance(run("hit", **base, threat_range="must_hit"), "Hit") == 0


def test_critical_range_step_says_when_no_critical_can_happen():
    def step(answer):
        (text,) = [s["text"] for s in answer["steps"] if s["rule"] == "critical-range"]
        return text

    out_of_reach = run("hit", defense=30, ability=0, weapon="short-piercing")
    assert chance(out_of_reach, "Critical hit") == 0
    assert "cannot reach 30, so no roll is a critical hit" in step(out_of_reach)
    assert "natural 2" not in step(out_of_reach).split("critical range")[1]  # no "natural 25+"
    reachable = run("hit", defense=15, ability=0, weapon="short-piercing")
    assert chance(reachable, "Critical hit") > 0
    assert "a critical hit when the total reaches 15 (natural 18+)" in step(reachable)


def test_critical_multiplies_total_or_dice_only():
    total = run("damage", weapon="medium-slashing", damage_bonus=3, outcome="critical")
    dice_only = run("damage", weapon="medium-slashing", damage_bonus=3, outcome="critical", multiply="dice")
    assert pmf(total) == {2 * (x + 3): Fraction(1, 8) for x in range(1, 9)}
    assert pmf(dice_only) == {2 * x + 3: Fraction(1, 8) for x in range(1, 9)}


def test_quick_attack_minimum_and_its_critical_both_readings():
    hit = run("damage", weapon="long-slashing", damage_bonus=5, attack="quick", outcome="hit")
    crit = run("damage", weapon="long-slashing", damage_bonus=5, attack="quick", outcome="critical")
    flat = run(
        "damage", weapon="long-slashing", damage_bonus=5, attack="quick", outcome="critical", quick_critical="minimum"
    )
    assert pmf(hit) == {7: 1} and pmf(crit) == {14: 1} and pmf(flat) == {7: 1}


def test_charge_adds_two_to_hit_and_level_to_damage():
    standard = run("hit", defense=12, ability=0, weapon="medium-bludgeoning")
    charge = run("hit", defense=12, ability=0, weapon="medium-bludgeoning", attack="charge")
    assert chance(standard, "Hit") == Fraction(9, 20) and chance(charge, "Hit") == Fraction(11, 20)
    dmg = run("damage", weapon="medium-bludgeoning", damage_bonus=2, level=5, attack="charge", outcome="hit")
    assert pmf(dmg) == {x + 7: Fraction(1, 8) for x in range(1, 9)}


def test_tie_re_roll_with_bonus_or_plain_d20():
    people = [{"name": "Alice", "bonus": 5, "roll": 10}, {"name": "Bob", "bonus": 0, "roll": 15}]
    with_bonus = run("initiative", combatants=people)["pairwise"][0]
    plain = run("initiative", combatants=people, tie_reroll="plain")["pairwise"][0]
    # d20+5 vs d20: 280 wins, 15 ties, 105 losses in 400; ties roll again.
    assert Fraction(with_bonus["before"]["fraction"]) == Fraction(280, 385)
    assert Fraction(plain["before"]["fraction"]) == Fraction(1, 2)


def test_team_initiative_lowest_bonus_or_own_bonus():
    people = [
        {"name": "Ana", "bonus": 3, "team": "Heroes"},
        {"name": "Ben", "bonus": 1, "roll": 12, "team": "Heroes"},
        {"name": "Orc", "roll": 10},
    ]
    assert scores(run("initiative", combatants=people, team_initiative=True)) == {"Ana": "13", "Ben": "13", "Orc": "10"}
    own = run("initiative", combatants=people, team_initiative=True, team_roll="own")
    assert scores(own) == {"Ana": "15", "Ben": "13", "Orc": "10"}
    # Without the optional rule the team field does nothing: Ana has not rolled.
    assert run("initiative", combatants=people)["order"] is None


def test_team_members_unrolled_share_one_roll():
    people = [{"name": "Ana", "bonus": 3, "team": "T"}, {"name": "Ben", "bonus": 1, "team": "T"}]
    pair = run("initiative", combatants=people, team_initiative=True)["pairwise"][0]
    assert Fraction(pair["tied"]["fraction"]) == 1
    pair = run("initiative", combatants=people, team_initiative=True, team_roll="own")["pairwise"][0]
    assert Fraction(pair["before"]["fraction"]) == 1


def test_delay_lowers_the_score():
    people = [{"name": "Ana", "bonus": 3, "roll": 15, "delay": 5}, {"name": "Orc", "roll": 14}]
    answer = run("initiative", combatants=people)
    assert [g["names"] for g in answer["order"]] == [["Orc"], ["Ana"]] and scores(answer)["Ana"] == "13"


def test_deft_adds_its_initiative_from_the_property_table():
    people = [{"name": "Ana", "roll": 10, "deft": True}, {"name": "Orc", "roll": 11}]
    assert scores(run("initiative", combatants=people)) == {"Ana": "12", "Orc": "11"}


def test_wound_threshold_both_readings():
    base = dict(weapon="medium-slashing", damage_bonus=3, outcome="hit", wounds_rule=True)
    up = run("damage", **base, target_base_hp=8, target_max_hp=45)
    down = run("damage", **base, target_base_hp=8, target_max_hp=45, wound_rounding="down")
    assert chance(up, "Gives a wound") == Fraction(7, 8)  # needs 5: 4.5 rounded up
    assert chance(down, "Gives a wound") == 1  # needs 4
    capped_by_base = run("damage", **base, target_base_hp=6, target_max_hp=200)
    assert chance(capped_by_base, "Gives a wound (6+") == Fraction(6, 8)


def test_dying_below_zero_and_dead_at_minus_ten():
    table = TABLES["hit_point_states"](data.system(SYSTEM))
    rows = {r[0]: r for r in table["rows"]}
    assert rows["0 or more"][1] == "Conscious"
    assert rows["−1"][1:] == ["Unconscious and dying", "16"]  # DC 15 + 1 hit point below 0
    assert rows["−9"][2] == "24"
    assert rows["−10 or less"][1] == "Dead"


def test_wound_threshold_table_is_min_of_base_and_a_tenth():
    table = TABLES["wound_thresholds"](data.system(SYSTEM))
    bases = [int(c["label"].split()[-1]) for c in table["columns"][1:]]
    for row in table["rows"]:
        top = int(row[0])
        for base, cell in zip(bases, row[1:], strict=True):
            assert int(cell) == ceil(min(base, top / 10))


def test_properties_shift_dice_ranks_and_numbers():
    heavy = run("damage", weapon="medium-slashing", damage_bonus=0, heavy=True, outcome="hit")
    assert pmf(heavy) == {
        x: Fraction(c, 16) for x, c in Counter(a + b for a in range(1, 5) for b in range(1, 5)).items()
    }
    light_hit = run("hit", defense=12, ability=0, weapon="medium-slashing", light=True)
    assert chance(light_hit, "Hit") == Fraction(11, 20)  # +2: needs 10+
    keen = run("hit", defense=1, ability=0, weapon="medium-slashing", heartseeker=True)
    assert chance(keen, "Critical hit") == Fraction(3, 20)  # threshold 19 − 1
    dev = run("damage", weapon="medium-slashing", damage_bonus=0, devastating=True, outcome="critical")
    assert pmf(dev) == {3 * x: Fraction(1, 8) for x in range(1, 9)}


# --- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("calculator", "inputs", "name"),
    [
        ("damage", {"weapon": "short-piercing", "light": True}, "light"),  # 1d4 is the lowest rank
        ("damage", {"use_preset": False, "dice": "3d12", "heavy": True}, "heavy"),  # the highest rank
        ("damage", {"use_preset": False, "dice": "1d7", "heavy": True}, "heavy"),  # not on the list
        ("hit", {"weapon": "long-ranged", "reach_rule": True}, "reach_rule"),
        ("hit", {"weapon": "staff"}, "kind"),  # a staff makes spell attacks against SR
        ("hit", {"weapon": "long-slashing", "kind": "magic"}, "kind"),
        ("initiative", {"combatants": [{"name": "A", "roll": 3, "swap_with": "Zed"}]}, "combatants[1].swap_with"),
        (
            "initiative",
            {"combatants": [{"name": "A", "swap_with": "B"}, {"name": "B", "roll": 4}]},
            "combatants[1].swap_with",
        ),
        ("initiative", {"combatants": [{"name": "A"}, {"name": "A"}]}, "combatants[2].name"),
        ("initiative", {"combatants": [{"name": "A", "roll": 3, "swap_with": "A"}]}, "combatants[1].swap_with"),
    ],
)
def test_bad_input_names_the_input(calculator, inputs, name):
    with pytest.raises(InputError) as err:
        run(calculator, **inputs)
    assert err.value.input == name


# --- property tests -------------------------------------------------------------------------------
small_dice = st.sampled_from(["1d4", "1d6", "2d4", "1d8", "1d3+1", "2d3", "1d10"])
attack_inputs = st.fixed_dictionaries(
    {
        "defense": st.integers(0, 30),
        "ability": st.integers(-5, 10),
        "use_preset": st.just(False),
        "dice": small_dice,
        "threshold": st.integers(15, 20),
        "multiplier": st.integers(1, 4),
        "miss_chance": st.sampled_from([0, 20, 50, 73]),
        "miss_chance_reading": st.sampled_from(["glossary", "literal"]),
        "threat_range": st.sampled_from(["always_hits", "must_hit"]),
        "attack": st.sampled_from(["standard", "quick", "power", "charge"]),
    }
)
damage_extra = st.fixed_dictionaries(
    {
        "damage_bonus": st.integers(-6, 6),
        "level": st.integers(0, 5),
        "weakness": st.integers(0, 3),
        "resistance": st.integers(0, 6),
        "multiply": st.sampled_from(["total", "dice"]),
        "power_bonuses": st.sampled_from(["once", "twice"]),
        "quick_critical": st.sampled_from(["multiply", "minimum"]),
    }
)


def faces(expr_text: str, times: int = 1) -> tuple[list[tuple[int, ...]], int, list[int]]:
    """Every face combination of a small dice expression (dice repeated `times` times)."""
    expr = calc.numbers.dice.parse(expr_text)
    sides = [t.sides for t in expr.terms for _ in range(t.count * times)]
    return list(itertools.product(*(range(1, s + 1) for s in sides))), expr.modifier, sides


def brute_force_attack(i: dict, with_damage: bool) -> tuple[Counter, Counter]:
    """Outcome and damage weights over every d20 face, every d% face and every damage die face,
    straight from the rule text and the rulings."""
    bonus = i["ability"] + (2 if i["attack"] == "charge" else 0)
    outcome, damage = Counter(), Counter()
    times = 2 if i["attack"] == "power" else 1
    rolls, modifier, _ = faces(i["dice"], times) if with_damage else ([()], 0, [])
    dmg_bonus = i.get("damage_bonus", 0) + (i.get("level", 0) if i["attack"] == "charge" else 0)
    if i["attack"] == "power" and i.get("power_bonuses") == "twice":
        dmg_bonus *= 2
    m = i["multiplier"]
    for natural in range(1, 21):
        hits = natural + bonus >= i["defense"]
        in_range = natural >= i["threshold"]
        if in_range and hits:
            kind = "critical"
        elif hits or (in_range and i["threat_range"] == "always_hits"):
            kind = "regular"
        else:
            kind = "miss"
        for d in range(1, 101):
            final = kind
            if i["miss_chance"] and kind != "miss":
                at_or_under = d <= i["miss_chance"]
                missed = at_or_under if i["miss_chance_reading"] == "glossary" else not at_or_under
                if missed:
                    final = "regular" if kind == "critical" else "miss"
            outcome[final] += len(rolls)
            if not with_damage:
                continue
            for roll in rolls:
                if final == "miss":
                    damage[0] += 1
                    continue
                rolled = sum(roll) + modifier
                if i["attack"] == "quick":
                    rolled = len(roll) + modifier  # every die shows 1
                total = rolled + dmg_bonus
                if final == "critical":
                    if i["attack"] == "quick":
                        total = total * m if i["quick_critical"] == "multiply" else total
                    elif i["multiply"] == "total":
                        total = total * m
                    else:
                        total = (sum(roll)) * m + modifier + dmg_bonus
                damage[max(0, total + i["weakness"] - i["resistance"])] += 1
    return outcome, damage


@FAST
@given(attack_inputs)
def test_hit_equals_brute_force(i):
    answer = run("hit", **i)
    outcome, _ = brute_force_attack(i, with_damage=False)
    n = sum(outcome.values())
    assert chance(answer, "Critical hit") == Fraction(outcome["critical"], n)
    assert chance(answer, "Regular hit") == Fraction(outcome["regular"], n)
    assert chance(answer, "Miss") == Fraction(outcome["miss"], n)


@settings(max_examples=25, deadline=None)
@given(attack_inputs, damage_extra)
def test_damage_equals_brute_force(i, extra):
    i = {**i, **extra}
    answer = run("damage", **i)
    _, weights = brute_force_attack(i, with_damage=True)
    n = sum(weights.values())
    assert pmf(answer) == {x: Fraction(w, n) for x, w in weights.items() if w}
    assert sum(pmf(answer).values()) == 1


@FAST
@given(attack_inputs, st.integers(-3, 3))
def test_hit_chance_monotone_in_bonus_and_target(i, step):
    base = chance(run("hit", **i), "Hit")
    more_bonus = chance(run("hit", **{**i, "ability": i["ability"] + abs(step)}), "Hit")
    harder = chance(run("hit", **{**i, "defense": min(80, i["defense"] + abs(step))}), "Hit")
    assert more_bonus >= base >= harder


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["1d6", "2d8", "3d4+2", "1d12-1", "2d6+1d4", "4d10"]), st.integers(-5, 8), st.integers(1, 4))
def test_regular_and_critical_hit_match_icepool(expr, bonus, mult):
    common = dict(use_preset=False, dice=expr, damage_bonus=bonus, multiplier=mult)
    hit = pmf(run("damage", **common, outcome="hit"))
    crit = pmf(run("damage", **common, outcome="critical"))
    die = _icepool(expr)
    reference_hit = (die + bonus).map(lambda x: max(0, x))
    reference_crit = ((die + bonus) * mult).map(lambda x: max(0, x))
    assert hit == {x: Fraction(q, reference_hit.denominator()) for x, q in reference_hit.items()}
    assert crit == {x: Fraction(q, reference_crit.denominator()) for x, q in reference_crit.items()}


def _icepool(expr: str) -> icepool.Die:
    parsed = calc.numbers.dice.parse(expr)
    total = icepool.Die([parsed.modifier])
    for t in parsed.terms:
        total = total + t.sign * (t.count @ icepool.d(t.sides))
    return total


@FAST
@given(st.integers(-5, 10), st.integers(-5, 10), st.sampled_from(["with_bonus", "plain"]))
def test_pairwise_initiative_equals_brute_force(a, b, reroll):
    people = [{"name": "A", "bonus": a}, {"name": "B", "bonus": b}]
    pair = run("initiative", combatants=people, tie_reroll=reroll)["pairwise"][0]
    wins = ties = 0
    for x, y in itertools.product(range(1, 21), repeat=2):
        wins += x + a > y + b
        ties += x + a == y + b
    # Re-rolls repeat the same contest (ruling) or a bare coin-flip d20 roll-off (alternative).
    q = Fraction(wins, 400 - ties) if reroll == "with_bonus" else Fraction(1, 2)
    expected = Fraction(wins, 400) + Fraction(ties, 400) * q
    assert Fraction(pair["before"]["fraction"]) == expected
    assert Fraction(pair["before"]["fraction"]) + Fraction(pair["after"]["fraction"]) == 1
