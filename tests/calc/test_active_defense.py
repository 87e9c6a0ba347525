"""active-defense engines: brute-force enumeration of every die face, properties, both readings of
every ruling, the two-weapon table's consistency, icepool as an independent damage oracle, and bad
input. The worked examples in rules_data/active-defense/ run in test_examples.py."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import calc
from calc.answers.result import dist_probs
from calc.errors import InputError
from calc.inputs import data as calc_data
from calc.systems import active_defense as ad

SYSTEM = "active-defense"
DATA = calc_data.system(SYSTEM)
FLAGS = ("light", "training", "mastery", "shield")


def run(calculator: str, **inputs: Any) -> dict[str, Any]:
    return calc.evaluate({"system": SYSTEM, "calculator": calculator, "inputs": inputs})


def p(answer: dict[str, Any], index: int = 0) -> Fraction:
    return Fraction(answer["chances"][index]["p"]["fraction"])


# --- an independent brute force, read from the rule text's numbers ------------------------------
def counted(face: int) -> int:
    """Natural 20 counts as 30, natural 1 as −10 (facts of the natural-rolls rule)."""
    if face == DATA.fact("natural-rolls", "high_face"):
        return DATA.fact("natural-rolls", "high_counts_as")
    if face == DATA.fact("natural-rolls", "low_face"):
        return DATA.fact("natural-rolls", "low_counts_as")
    return face


def brute_land(bonus: int, dex: int, defense_bonus: int | None, ties: str = "defender", nat_def: bool = False):
    """Count every (attack face, defense face) pair: the chance the attack lands."""
    pd = DATA.fact("passive-defense", "base") + dex
    landed = 0
    for a, b in product(range(1, 21), repeat=2):
        total = counted(a) + bonus
        if total < pd:
            continue
        if defense_bonus is None:
            landed += 1
            continue
        block = (counted(b) if nat_def else b) + defense_bonus
        negated = block >= total if ties == "defender" else block > total
        landed += not negated
    return Fraction(landed, 400)


small = st.integers(min_value=-6, max_value=12)


@settings(max_examples=60, deadline=None)
@given(skill=st.integers(0, 12), ability=small, dex=small, block=st.integers(0, 12), strength=small,
       ties=st.sampled_from(["defender", "attacker"]), nat_def=st.booleans(), crit=st.integers(-5, 0))  # fmt: skip
def test_block_equals_brute_force(skill, ability, dex, block, strength, ties, nat_def, crit):
    answer = run("hit", attack_skill=skill, attack_ability=ability, defender_dex=dex, critical_penalty=crit,
                 defense="block", block_skill=block, defender_str=strength, defense_ties=ties,
                 natural_rolls_on_defense=nat_def)  # fmt: skip
    assert p(answer) == brute_land(skill + ability + crit, dex, block + strength, ties, nat_def)
    assert p(answer, 1) == brute_land(skill + ability + crit, dex, None)


@settings(max_examples=40, deadline=None)
@given(skill=st.integers(0, 12), ability=small, dex=small, dodge=st.integers(0, 12), ranged=st.booleans())
def test_dodge_equals_brute_force(skill, ability, dex, dodge, ranged):
    answer = run("hit", attack_skill=skill, attack_ability=ability, defender_dex=dex, defense="dodge",
                 dodge_skill=dodge, defender_ranged=ranged)  # fmt: skip
    penalty = DATA.fact("ranged-in-melee", "penalty") if ranged else 0
    assert p(answer) == brute_land(skill + ability, dex, dodge + dex + penalty)


def test_natural_rolls_on_attacks():
    # A natural 20 hits a Passive Defense a plain 20 would miss; a natural 1 misses where a plain 1 would hit.
    assert run("hit", attack_skill=0, attack_ability=-4, defender_dex=8)["roll_needed"]["value"] == 20
    assert run("hit", attack_skill=0, attack_ability=-4, defender_dex=8)["roll_needed"]["text"].startswith("natural")
    assert p(run("hit", attack_skill=10, attack_ability=0, defender_dex=0)) == Fraction(19, 20)
    assert p(run("hit", attack_skill=20, attack_ability=0, defender_dex=0)) == 1
    # nothing reaches 31 + … : the natural 20 counts as 30, not as an automatic hit (ruling)
    assert p(run("hit", attack_skill=0, attack_ability=-1, defender_dex=20)) == 0
    assert run("hit", attack_skill=0, attack_ability=-1, defender_dex=20)["roll_needed"]["value"] is None


@settings(max_examples=40, deadline=None)
@given(skill=st.integers(0, 30), ability=small, dex=small, defense=st.sampled_from(["none", "block", "dodge"]))
def test_hit_is_monotone_in_bonus_and_target(skill, ability, dex, defense):
    base = p(run("hit", attack_skill=skill, attack_ability=ability, defender_dex=dex, defense=defense))
    better = p(run("hit", attack_skill=skill + 1, attack_ability=ability, defender_dex=dex, defense=defense))
    stronger_block = p(run("hit", attack_skill=skill, attack_ability=ability, defender_dex=dex, defense=defense,
                           block_skill=4, dodge_skill=4))  # fmt: skip
    assert better >= base
    assert stronger_block <= base
    if defense != "dodge":  # a dodge also adds Dexterity, so only Passive Defense moves here
        harder = p(run("hit", attack_skill=skill, attack_ability=ability, defender_dex=dex + 1, defense=defense))
        assert harder <= base


# --- two-weapon fighting ------------------------------------------------------------------------
ALL_FLAGS = [dict(zip(FLAGS, bits, strict=True)) for bits in product([False, True], repeat=4)]


def test_stacking_reading_reproduces_every_listed_row():
    for row in DATA.table("two-weapon-penalties"):
        flags = {k: row[k] for k in FLAGS}
        assert ad.stacked_penalty(DATA, flags, "primary") == row["primary"], row["circumstances"]
        assert ad.stacked_penalty(DATA, flags, "off_hand") == row["off_hand"], row["circumstances"]


@pytest.mark.parametrize("flags", ALL_FLAGS, ids=lambda f: "+".join(k for k in FLAGS if f[k]) or "none")
def test_most_favourable_row_is_best_for_both_hands(flags):
    # "Most favourable" is unambiguous for this table: the chosen row is best in both columns.
    chosen = ad.favourable_row(DATA, flags)
    for row in ad.applicable_rows(DATA, flags):
        assert chosen["primary"] >= row["primary"] and chosen["off_hand"] >= row["off_hand"]


def test_listed_rows_choose_themselves():
    for row in DATA.table("two-weapon-penalties"):
        assert ad.favourable_row(DATA, {k: row[k] for k in FLAGS}) == row


def test_readings_differ_for_mastery_with_shield_specialist():
    flags = {"light": False, "training": False, "mastery": True, "shield": True}
    assert ad.two_weapon_penalty(DATA, "primary", flags, "most-favourable")[0] == -2
    assert ad.two_weapon_penalty(DATA, "off-hand", flags, "most-favourable")[0] == -2
    assert ad.two_weapon_penalty(DATA, "primary", flags, "stacking")[0] == 0


def test_two_weapon_penalty_applies_to_blocks_not_dodges():
    common = dict(attack_skill=4, attack_ability=2, defender_dex=2, block_skill=3, defender_str=1, dodge_skill=3)
    block = p(run("hit", defense="block", **common))
    off_block = p(run("hit", defense="block", defender_two_weapon="off-hand", **common))
    assert off_block == brute_land(6, 2, 4 - 10)
    assert off_block > block
    dodge = p(run("hit", defense="dodge", **common))
    assert p(run("hit", defense="dodge", defender_two_weapon="off-hand", **common)) == dodge


def test_combinations_table_has_every_combination():
    generated = ad.two_weapon_combinations(DATA)
    assert len(generated["rows"]) == 16
    assert all(len(r) == len(generated["columns"]) for r in generated["rows"])
    normal = generated["rows"][0]
    assert normal[:5] == ["no", "none", "Normal penalties", "−6", "−10"]


# --- damage -------------------------------------------------------------------------------------
def icepool_damage(text: str, flat: int, floor: int) -> dict[int, Fraction]:
    expr = calc.numbers.dice.parse(text)
    die = icepool.Die([0])
    for term in expr.terms:
        rolled = term.count @ icepool.d(term.sides)
        die = die + rolled if term.sign > 0 else die - rolled
    die = (die + expr.modifier + flat).map(lambda x: max(floor, x))
    total = die.denominator()
    return {x: Fraction(q, total) for x, q in die.items()}


dice_text = st.lists(
    st.tuples(st.integers(1, 4), st.sampled_from([2, 4, 6, 8, 10, 12, 20]), st.booleans()), min_size=1, max_size=3
).map(lambda ts: "".join(f"{'+' if pos or i == 0 else '-'}{n}d{s}" for i, (n, s, pos) in enumerate(ts)))


@settings(max_examples=40, deadline=None)
@given(text=dice_text, strength=small, armor=st.integers(0, 12), floor=st.sampled_from(["0", "1"]))
def test_damage_equals_icepool_and_sums_to_one(text, strength, armor, floor):
    answer = run("damage", damage_dice=text, damage_strength=strength, armor=armor, damage_floor=floor)
    dist = answer["distribution"]
    pmf = dist_probs(dist)
    assert sum(pmf.values()) == 1
    assert pmf == icepool_damage(text, strength - armor, int(floor))
    assert min(pmf) >= int(floor)


@settings(max_examples=30, deadline=None)
@given(skill=st.integers(0, 12), dex=small, x=st.integers(0, 15), crit=st.integers(-5, -1), bonus=st.integers(0, 6))
def test_lands_and_deals_at_least_x(skill, dex, x, crit, bonus):
    answer = run("damage", damage_dice="2d6", damage_strength=1, armor=3, at_least=x, attack_skill=skill,
                 defender_dex=dex, defense="block", critical_penalty=crit, critical_bonus=bonus)  # fmt: skip
    lands = brute_land(skill + 2 + crit, dex, 4)
    dealt = sum(1 for a, b in product(range(1, 7), repeat=2) if max(0, a + b + 1 + bonus - 3) >= x)
    assert p(answer) == lands * Fraction(dealt, 36)
    assert p(answer, 1) == lands


def test_critical_bonus_needs_a_critical_attack():
    with pytest.raises(InputError) as err:
        run("damage", critical_bonus=3)
    assert err.value.input == "critical_bonus"


def test_critical_penalty_declaration_matches_the_rule():
    allowed = DATA.fact("critical-attacks", "penalty")
    decl = next(i for i in DATA.calculator("hit")["inputs"] if i["name"] == "critical_penalty")
    assert decl["min"] == allowed["min"] and decl["max"] == 0
    with pytest.raises(InputError):
        run("hit", critical_penalty=allowed["min"] - 1)


# --- initiative ---------------------------------------------------------------------------------
def brute_initiative(a: int, b: int) -> tuple[Fraction, Fraction, Fraction]:
    counts = [0, 0, 0]
    for x, y in product(range(1, 21), repeat=2):
        counts[0 if x + a > y + b else 1 if x + a == y + b else 2] += 1
    return tuple(Fraction(c, 400) for c in counts)


@settings(max_examples=40, deadline=None)
@given(mods=st.lists(st.integers(-5, 8), min_size=2, max_size=4))
def test_initiative_pairwise_equals_brute_force(mods):
    people = [{"name": f"C{i}", "dexterity": m} for i, m in enumerate(mods)]
    answer = run("initiative", combatants=people)
    pairs = iter(answer["pairwise"])
    for i in range(len(mods)):
        for j in range(i + 1, len(mods)):
            pair = next(pairs)
            got = tuple(Fraction(pair[k]["fraction"]) for k in ("before", "tied", "after"))
            assert got == brute_initiative(mods[i], mods[j])
            assert sum(got) == 1


def test_initiative_readings():
    people = [{"name": "A", "dexterity": 1, "agility": 6}, {"name": "B", "dexterity": 4, "agility": 2}]
    dex = run("initiative", combatants=people)["pairwise"][0]
    agi = run("initiative", combatants=people, initiative_ability="agility")["pairwise"][0]
    assert Fraction(dex["before"]["fraction"]) == brute_initiative(1, 4)[0]
    assert Fraction(agi["before"]["fraction"]) == brute_initiative(6, 2)[0]


def test_initiative_order_high_first_and_ties():
    people = [
        {"name": "Slow", "dexterity": 0, "roll": 5},
        {"name": "Fast", "dexterity": 2, "roll": 18},
        {"name": "Tie1", "dexterity": 1, "roll": 9},
        {"name": "Tie2", "dexterity": 3, "roll": 7},
    ]
    order = run("initiative", combatants=people)["order"]
    assert [g["names"] for g in order] == [["Fast"], ["Tie1", "Tie2"], ["Slow"]]
    assert order[1]["tied"] and order[1]["score"] == "10"
    by_dex = run("initiative", combatants=people, initiative_ties="dexterity")["order"]
    assert [g["names"] for g in by_dex] == [["Fast"], ["Tie2"], ["Tie1"], ["Slow"]]


def test_initiative_tie_break_moves_the_tie_chance():
    people = [{"name": "A", "dexterity": 2}, {"name": "B", "dexterity": 0}]
    tied = run("initiative", combatants=people)["pairwise"][0]
    broken = run("initiative", combatants=people, initiative_ties="dexterity")["pairwise"][0]
    assert Fraction(broken["before"]["fraction"]) == Fraction(tied["before"]["fraction"]) + Fraction(
        tied["tied"]["fraction"]
    )
    assert Fraction(broken["tied"]["fraction"]) == 0


def test_initiative_bad_input_names_the_field():
    with pytest.raises(InputError) as err:
        run("initiative", combatants=[{"name": "A"}, {"name": "A"}])
    assert err.value.input == "combatants[2].name"  # at the second entry, as in every system
    with pytest.raises(InputError) as err:
        run("initiative", combatants=[{"name": "A", "roll": 21}])
    assert err.value.input == "combatants[1].roll"


# --- the data's rulings and the engine agree ----------------------------------------------------
def test_every_option_defaults_to_its_ruling():
    for ruling_id in ("initiative-ability", "initiative-ties", "natural-rolls-scope", "active-defense-ties",
                      "damage-floor", "two-weapon-unlisted"):  # fmt: skip
        option = DATA.ruling(ruling_id)["option"]
        decl = next(i for i in DATA.calculator(option["calculator"])["inputs"] if i["name"] == option["input"])
        assert decl["default"] == option["ruling_value"], ruling_id


def test_every_distribution_sums_to_one_at_the_stress_inputs():
    for name in ("hit", "damage", "initiative"):
        answer = run(name, **DATA.calculator(name).get("stress", {}))
        if answer["distribution"]:
            assert sum(dist_probs(answer["distribution"]).values()) == 1
        for pair in answer["pairwise"] or []:
            assert sum(Fraction(pair[k]["fraction"]) for k in ("before", "tied", "after")) == 1


def test_generated_tables_match_the_independent_oracles():
    """The site test compares the oracles with the built page; here, with the generators' cells."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "site" / "oracles" / "active_defense.py"
    spec = importlib.util.spec_from_file_location("active_defense_oracles", path)
    oracles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracles)
    assert set(oracles.ORACLES) == set(ad.TABLES)
    for name, oracle in oracles.ORACLES.items():
        built = ad.TABLES[name](DATA)
        assert [[str(c) for c in row] for row in built["rows"]] == oracle(DATA), name


@settings(max_examples=25, deadline=None)
@given(mods=st.lists(st.integers(-3, 5), min_size=3, max_size=3), tie=st.sampled_from(["tied", "dexterity"]))
def test_chance_of_acting_first_alone_equals_brute_force(mods, tie):
    people = [{"name": f"C{i}", "dexterity": m} for i, m in enumerate(mods)]
    answer = run("initiative", combatants=people, initiative_ties=tie)
    wins = [0, 0, 0]
    for faces in product(range(1, 21), repeat=3):
        key = [(f + m, m if tie == "dexterity" else 0) for f, m in zip(faces, mods, strict=True)]
        best = max(key)
        if key.count(best) == 1:
            wins[key.index(best)] += 1
    assert [p(answer, i) for i in range(3)] == [Fraction(w, 8000) for w in wins]


def test_totals_in_the_steps_write_a_zero_bonus_as_plus_0():
    def texts(answer: dict[str, Any]) -> str:
        return " | ".join(s["text"] for s in answer["steps"])

    zero = run("hit", attack_skill=0, attack_ability=0, defense="block", block_skill=0, defender_str=0)
    assert "Attack total: d20 + 0;" in texts(zero) and "Block total: d20 + 0." in texts(zero)
    assert "d20 0" not in texts(zero)
    minus = run("hit", attack_skill=0, attack_ability=-3, defense="dodge", dodge_skill=0, defender_dex=-2)
    assert "Attack total: d20 − 3;" in texts(minus) and "Dodge total: d20 − 2." in texts(minus)
