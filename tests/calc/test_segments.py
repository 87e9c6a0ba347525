"""Segments engines: the source's worked examples and the numbers the issues name, both readings of
every ruling option, and properties (exact sums, monotone hit chance, brute force over every die
face, icepool as an independent oracle for damage)."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import calc
from calc.answers.result import dist_probs
from calc.errors import InputError
from calc.inputs import data
from calc.systems.segments import TABLES
from calc.systems.segments.attack_tables import AttackTable, HitDice, monster_column, save_label, save_row
from calc.systems.segments.initiative import high_chances

SEG = data.system("segments")


def run(calculator: str, **inputs):
    return calc.evaluate({"system": "segments", "calculator": calculator, "inputs": inputs})


def cell(answer: dict, label: str) -> str:
    return next(row[1] for row in answer["table"]["rows"] if row[0] == label)


def frac(p: dict) -> Fraction:
    return Fraction(p["fraction"])


# --- numbers the issues name -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hd", "bonus", "ac", "needs"),
    [(1, 0, 10, "9"), (16, 0, -10, "17"), (1, -2, -5, "21"), (20, 0, -10, "17")],
)
def test_monster_attack_table_cells(hd, bonus, ac, needs):
    answer = run("hit", attacker="monster", hd=hd, hd_bonus=bonus, ac=ac)
    assert cell(answer, "Table needs") == needs


def test_monster_attack_table_generated_columns():
    table = TABLES["monster_attack_table"](SEG)
    acs = [c["label"] for c in table["columns"]][2:]
    rows = {r[0]: r[2:] for r in table["rows"]}
    assert rows["1"][acs.index("AC 10")] == "9"
    assert rows["16+"][acs.index("AC −10")] == "17"
    assert rows["up to 1-1"][acs.index("AC −5")] == "21"


def test_five_plus_five_hit_dice():
    answer = run("hit", attacker="monster", hd=5, hd_bonus=5, ac=0)
    assert cell(answer, "Monster Attack Table column") == "6-7+"
    assert cell(answer, "Monster Save Table row") == "7-8"
    assert cell(answer, "Hit points") == "5d8+25"
    assert cell(answer, "Morale bonus") == "+5"
    assert cell(answer, "Overall hit dice") == "7"


def test_one_plus_one_and_four_plus_four():
    assert monster_column(HitDice(1, 1), SEG)["column"] == "1+"
    assert HitDice(4, 4).hit_points(SEG) == "4d8+16"
    assert monster_column(HitDice(4, 4), SEG)["column"] == "4-5+"


@pytest.mark.parametrize(
    ("bonus", "save_hd"), [(1, 6), (4, 6), (5, 7), (8, 7), (9, 8), (12, 8), (13, 9), (16, 9), (17, 10)]
)
def test_save_hit_dice_add_one_per_started_four(bonus, save_hd):
    assert HitDice(5, bonus).saves(SEG) == save_hd


def test_attack_hit_dice_add_at_most_one():
    assert monster_column(HitDice(5, 3), SEG)["column"] == "4-5+"
    assert monster_column(HitDice(5, 4), SEG)["column"] == "6-7+"
    assert monster_column(HitDice(5, 20), SEG)["column"] == "6-7+"


def test_source_example_needs_20_with_plus_2_hits_on_18_to_20():
    answer = run("hit", attacker="aac0", aac0="19", ac=-1, bonus=2)
    assert cell(answer, "Table needs") == "20"
    assert answer["roll_needed"]["value"] == 18
    assert frac(answer["chances"][0]["p"]) == Fraction(3, 20)


def test_ac_bonus_lowers_the_number():
    answer = run("hit", attacker="class", class_group="fighters", level=1, ac=5, ac_bonus=2)
    assert cell(answer, "Target AC") == "3"
    assert cell(answer, "Table needs") == "17"


def test_an_ascending_ac_is_refused_with_the_way_to_the_descending_field():
    """Issue 11: the text gives no ascending-to-descending conversion, so an ascending AC (15) is
    not converted but refused, saying which scale the field takes; in range, no note is added."""
    with pytest.raises(InputError) as err:
        run("hit", attacker="class", class_group="fighters", level=1, ac=15)
    assert err.value.input == "ac"
    assert err.value.reason.startswith("must be between -10 and 10 (got 15; this is the descending AC")
    assert "no conversion from an ascending AC" in err.value.reason
    with pytest.raises(InputError) as err:
        run("hit", attacker="class", class_group="fighters", level=1, ac_bonus=15)
    assert "descending AC" not in err.value.reason  # the note belongs to the AC field only


def test_battle_axe_speed_7_or_8_after_dropping_a_shield():
    groups = [{"name": "Party", "roll": 3}, {"name": "Orcs", "roll": 3}]
    answer = run(
        "initiative",
        groups=groups,
        combatants=[
            {"name": "Axeman", "group": "Party", "action": "melee", "weapon": "battle axe", "minor_actions": 1},
            {"name": "Orc", "group": "Orcs", "action": "melee", "weapon": "dagger"},
            {"name": "Ogre", "group": "Orcs", "action": "melee", "weapon": "battle axe"},
        ],
    )
    scores = {name: entry["score"] for entry in answer["order"] for name in entry["names"]}
    assert scores == {"Orc": "2", "Ogre": "7", "Axeman": "8"}


def test_weapon_speed_table_is_in_speed_order():
    rows = SEG.table("weapon-speed-factors")
    keys = [(row["speed"], row["weapon"]) for row in rows]
    assert keys == sorted(keys)
    assert keys[0] == (1, "fist") and keys[-1] == (13, "awl pike")


@pytest.mark.parametrize("reading", ["before", "any-time"])
@pytest.mark.parametrize(("before", "after"), [(0, 0), (1, 0), (0, 1), (2, 3), (0, 9)])
def test_activity_timing_both_readings(reading, before, after):
    # Speed = the weapon's factor + 1 per 1-segment activity before; + 1 per one after only under
    # the minor-action rule's reading ("no matter when").
    table = {row["weapon"]: row["speed"] for row in SEG.table("weapon-speed-factors")}
    answer = run(
        "initiative",
        groups=[{"name": "Party", "roll": 3}, {"name": "Orcs", "roll": 3}],
        combatants=[
            {"name": "Axeman", "group": "Party", "action": "melee", "weapon": "battle axe",
             "minor_actions": before, "minor_after": after},
            {"name": "Orc", "group": "Orcs", "action": "melee", "weapon": "battle axe"},
        ],
        activity_timing=reading,
    )  # fmt: skip
    scores = {name: entry["score"] for entry in answer["order"] for name in entry["names"]}
    expected = table["battle axe"] + before + (after if reading == "any-time" else 0)
    assert scores == {"Axeman": str(expected), "Orc": str(table["battle axe"])}
    timing = [s["text"] for s in answer["steps"] if s["rule"] == "ruling:activity-timing"]
    assert len(timing) == (1 if after else 0)
    if after:
        assert timing[0].startswith("Other reading") == (reading == "any-time")


def test_racial_hit_dice_versus_level_uses_the_higher():
    by_level = run("hit", attacker="racial", class_group="fighters", level=5, hd=3, ac=5)
    by_hd = run("hit", attacker="racial", class_group="fighters", level=3, hd=3, ac=5)
    assert cell(by_level, "AAC0") == "16"
    assert cell(by_hd, "Monster Attack Table column") == "2-3+"


def test_natural_rolls():
    always = run("hit", attacker="monster", hd=16, ac=10, bonus=20)
    never = run("hit", attacker="class", class_group="magic-users", level=1, ac=-10, bonus=-20)
    assert frac(always["chances"][0]["p"]) == Fraction(19, 20)
    assert frac(never["chances"][0]["p"]) == Fraction(1, 20)
    assert never["roll_needed"]["value"] == 20


def attack_roll_step(answer: dict) -> str:
    (text,) = [s["text"] for s in answer["steps"] if s["rule"] == "attack-roll"]
    return text


def test_attack_roll_step_says_always_or_never_instead_of_impossible_naturals():
    never = run("hit", attacker="class", class_group="magic-users", level=1, ac=-10, bonus=-20)
    assert "never gets there" in attack_roll_step(never) and "or more" not in attack_roll_step(never)
    always = run("hit", attacker="monster", hd=16, ac=10, bonus=20)
    assert "always gets there" in attack_roll_step(always) and "−" not in attack_roll_step(always).split(":")[1]
    plain = run("hit", attacker="class", class_group="fighters", level=1, ac=5)
    assert attack_roll_step(plain).endswith(f"natural {plain['roll_needed']['value']} or more")


# --- both readings of every ruling option ---------------------------------------------------------------
def test_table_cap_readings():
    ruling = run("hit", attacker="class", class_group="fighters", level=1, ac=-10)
    other = run("hit", attacker="class", class_group="fighters", level=1, ac=-10, table_cap="modified-20")
    assert cell(ruling, "Table needs") == "25" and cell(other, "Table needs") == "20"
    assert frac(ruling["chances"][0]["p"]) == frac(other["chances"][0]["p"]) == Fraction(1, 20)
    ruling_b = run("hit", attacker="class", class_group="fighters", level=1, ac=-10, bonus=5)
    other_b = run("hit", attacker="class", class_group="fighters", level=1, ac=-10, bonus=5, table_cap="modified-20")
    assert frac(ruling_b["chances"][0]["p"]) == Fraction(1, 20)
    assert frac(other_b["chances"][0]["p"]) == Fraction(6, 20)


@pytest.mark.parametrize(("ac", "ruling", "other"), [(2, "19", "18"), (1, "20", "20"), (-4, "20", "20"),
                                                     (-5, "21", "20"), (-6, "22", "21")])  # fmt: skip
def test_twenty_star_readings(ac, ruling, other):
    assert str(AttackTable("20*").needs(ac, SEG)) == ruling
    assert str(AttackTable("20*", "extra-twenty").needs(ac, SEG)) == other


def _order(answer):
    return [entry["names"] for entry in answer["order"]]


def test_missile_melee_readings():
    inputs = {
        "groups": [{"name": "A", "roll": 2}, {"name": "B", "roll": 2}],
        "combatants": [
            {"name": "Orc", "group": "B", "action": "melee", "weapon": "club"},
            {"name": "Archer", "group": "A", "action": "missile"},
        ],
    }
    assert _order(run("initiative", **inputs)) == [["Archer"], ["Orc"]]
    assert _order(run("initiative", **inputs, weapon_phases="melee-first")) == [["Orc"], ["Archer"]]


def test_many_groups_readings_against_brute_force():
    for rolls in itertools.product(range(0, 7), repeat=3):
        unknown = [i for i, r in enumerate(rolls) if r == 0]
        for reading in ("highest-high", "lowest-low"):
            counts = [0, 0, 0]
            total = 0
            for faces in itertools.product(range(1, 7), repeat=len(unknown)):
                full = list(rolls)
                for i, f in zip(unknown, faces, strict=True):
                    full[i] = f
                total += 1
                for i in range(3):
                    if reading == "highest-high":
                        high = full[i] == max(full)
                    else:
                        high = full[i] != min(full) or len(set(full)) == 1
                    counts[i] += high
            assert high_chances(rolls, 6, reading) == [Fraction(c, total) for c in counts]
    assert high_chances([0, 0, 0], 6, "highest-high")[0] == Fraction(91, 216)
    assert high_chances([0, 0, 0], 6, "lowest-low")[0] == Fraction(131, 216)
    assert high_chances([0, 0], 6, "highest-high") == high_chances([0, 0], 6, "lowest-low") == [Fraction(7, 12)] * 2


def test_spell_tie_readings_and_delayed_caster():
    inputs = {
        "groups": [{"name": "A", "roll": 5}, {"name": "B", "roll": 2}],
        "combatants": [
            {"name": "Priest", "group": "B", "action": "spell", "casting_time": 3},
            {"name": "Mage", "group": "A", "action": "spell", "casting_time": 3},
            {"name": "Witch", "group": "A", "action": "spell", "casting_time": 3, "delayed": True},
            {"name": "Bard", "group": "A", "action": "spell", "casting_time": 1},
        ],
    }
    ruling = run("initiative", **inputs)
    assert _order(ruling) == [["Bard"], ["Mage"], ["Priest", "Witch"]]  # delayed: LOW, no tie lost
    other = run("initiative", **inputs, spell_ties="together")
    assert _order(other) == [["Bard"], ["Priest", "Mage", "Witch"]]


def test_delayed_loses_group_action_ties_and_acts_in_low():
    answer = run(
        "initiative",
        groups=[{"name": "A", "roll": 6}, {"name": "B", "roll": 1}],
        combatants=[
            {"name": "Quick", "group": "A", "action": "melee", "weapon": "dagger", "delayed": True},
            {"name": "Slow", "group": "B", "action": "melee", "weapon": "awl pike"},
            {"name": "Runner", "group": "A", "action": "fast", "delayed": True},
            {"name": "Ritual", "group": "A", "action": "complex"},
        ],
    )
    assert _order(answer) == [["Runner"], ["Slow"], ["Quick"], ["Ritual"]]
    assert answer["order"][2]["note"].endswith("(delayed: loses the tie)")


def test_untied_groups_act_in_turn_and_same_group_together():
    answer = run(
        "initiative",
        groups=[{"name": "A", "roll": 2}, {"name": "B", "roll": 5}],
        combatants=[
            {"name": "A1", "group": "A", "action": "melee", "weapon": "dagger"},
            {"name": "B1", "group": "B", "action": "other"},
            {"name": "B2", "group": "B", "action": "melee", "weapon": "halberd"},
            {"name": "B3", "group": "B", "action": "melee", "weapon": "dagger"},
        ],
    )
    assert _order(answer) == [["B2", "B3"], ["B1"], ["A1"]]
    assert [c["label"] for c in answer["chances"]] == ["A is HIGH", "B is HIGH"]


# --- damage ---------------------------------------------------------------------------------------
def test_multiplier_applies_after_modifiers_and_never_stacks():
    answer = run(
        "damage", dice="1d8", modifier=3, multipliers=[{"source": "a", "factor": 2}, {"source": "b", "factor": 3}]
    )
    dist = answer["distribution"]
    assert (dist["min"], dist["max"]) == (12, 33)
    assert [p["x"] for p in dist["pmf"]] == [3 * (k + 3) for k in range(1, 9)]
    assert frac(dist["mean"]) == 3 * (Fraction(9, 2) + 3)


@pytest.mark.parametrize(("reading", "floor"), [("0", 0), ("1", 1)])
def test_damage_floor_both_readings_against_brute_force(reading, floor):
    """The damage-floor ruling: a total below 0 deals 0; the other reading: every hit at least 1
    (both before the multiplier), each checked against every face of the dice."""
    answer = run("damage", dice="2d4", modifier=-5, damage_floor=reading, multipliers=[{"source": "m", "factor": 2}])
    faces = Counter(2 * max(a + b - 5, floor) for a in range(1, 5) for b in range(1, 5))
    assert dist_probs(answer["distribution"]) == {x: Fraction(n, 16) for x, n in faces.items()}
    assert any(s["rule"] == "ruling:damage-floor" for s in answer["steps"])


def test_damage_floor_is_a_ruling_with_its_alternative_offered_by_the_damage_calculator():
    ruling = SEG.raw["rulings"]["damage-floor"]
    assert ruling["option"] == {"calculator": "damage", "input": "damage_floor", "ruling_value": "0",
                                "alternative_value": "1"}  # fmt: skip
    decl = {d["name"]: d for d in SEG.calculator("damage")["inputs"]}["damage_floor"]
    assert decl["default"] == "0" and decl["ruling"] == "damage-floor"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 3), st.sampled_from([2, 4, 6, 8, 10])), min_size=1, max_size=3),
    st.integers(-5, 8),
    st.lists(st.integers(1, 4), max_size=3),
)
def test_damage_equals_icepool(terms, modifier, factors):
    text = "+".join(f"{n}d{s}" for n, s in terms)
    answer = run("damage", dice=text, modifier=modifier, multipliers=[{"source": "m", "factor": f} for f in factors])
    pool = sum((icepool.d(s) * 0 + (n @ icepool.d(s)) for n, s in terms), icepool.Die([0])) + modifier
    factor = max(factors, default=1)
    expected = pool.map(lambda x: max(x, 0) * factor)
    got = dist_probs(answer["distribution"])
    denom = expected.denominator()
    want = {x: Fraction(expected.quantity(x), denom) for x in expected.outcomes() if expected.quantity(x)}
    assert got == want
    assert sum(got.values()) == 1


# --- hit properties ---------------------------------------------------------------------------------
def brute_force_hit(aac0: str, ac: int, bonus: int) -> Fraction:
    need = AttackTable(aac0).needs(ac, SEG)
    return Fraction(sum(1 for roll in range(1, 21) if roll == 20 or (roll != 1 and roll + bonus >= need)), 20)


AAC0S = ["20*", *[str(v) for v in range(20, -1, -1)]]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(AAC0S), st.integers(-10, 10), st.integers(-20, 19))
def test_hit_is_monotone_and_matches_brute_force(aac0, ac, bonus):
    p = frac(run("hit", attacker="aac0", aac0=aac0, ac=ac, bonus=bonus)["chances"][0]["p"])
    assert p == brute_force_hit(aac0, ac, bonus)
    assert frac(run("hit", attacker="aac0", aac0=aac0, ac=ac, bonus=bonus + 1)["chances"][0]["p"]) >= p
    if ac < 10:
        assert frac(run("hit", attacker="aac0", aac0=aac0, ac=ac + 1, bonus=bonus)["chances"][0]["p"]) >= p
    miss = frac(run("hit", attacker="aac0", aac0=aac0, ac=ac, bonus=bonus)["chances"][1]["p"])
    assert p + miss == 1


def test_every_table_row_is_nondecreasing_across_better_acs():
    for name in ("fighter_attack_table", "cleric_attack_table", "magic_user_attack_table", "thief_attack_table",
                 "monster_attack_table"):  # fmt: skip
        for row in TABLES[name](SEG)["rows"]:
            values = [int(c.replace("−", "-")) for c in row[2:]]
            assert values == sorted(values)
            assert values.count(20) <= 6
            if max(values) > 20:
                assert values.count(20) == 6


def test_save_row_labels():
    assert save_label(save_row(HitDice(5, 5), SEG)) == "7-8"
    assert save_label(save_row(HitDice(19, 0), SEG)) == "19+"


# --- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("calculator", "inputs", "name", "fragment"),
    [
        ("hit", {"attacker": "class", "class_group": "clerics", "level": 0}, "level", "starts at level 1"),
        ("initiative", {"combatants": [{"name": "X", "group": "Nobody"}]}, "combatants[1].group", "not one of"),
        ("initiative", {"combatants": [{"name": "X", "group": "Party", "weapon": "battle ax"}]},
         "combatants[1].weapon", "battle axe"),
        ("initiative", {"combatants": [{"name": "X", "group": "Party", "action": "spell"}]},
         "combatants[1].casting_time", "at least 1"),
        ("initiative", {"groups": [{"name": "A"}, {"name": "a"}]}, "groups[2].name", "already group 1's name"),
        ("initiative", {"groups": [{"name": "A", "roll": 7}, {"name": "B"}]}, "groups[1].roll", "between 0 and 6"),
        ("damage", {"dice": "2x6"}, "dice", "cannot read"),
    ],
)  # fmt: skip
def test_bad_input_names_the_input(calculator, inputs, name, fragment):
    with pytest.raises(InputError) as err:
        run(calculator, **inputs)
    assert err.value.input == name
    assert fragment in err.value.reason


def test_user_text_is_kept_as_text():
    answer = run("initiative", groups=[{"name": "<b>A</b>", "roll": 3}, {"name": "B", "roll": 3}],
                 combatants=[{"name": "<script>", "group": "<b>A</b>", "action": "other"}])  # fmt: skip
    assert answer["order"][0]["names"] == ["<script>"]


def test_stress_inputs_are_fast():
    for name, calc_decl in SEG.calculators.items():
        start = time.perf_counter()
        calc.evaluate({"system": "segments", "calculator": name, "inputs": calc_decl.get("stress") or {}})
        assert time.perf_counter() - start < 0.5, name
