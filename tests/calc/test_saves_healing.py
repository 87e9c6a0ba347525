"""Issue 13 item 4 for countup and segments: the segments monster save (Monster Save Table with
enhanced hit dice), countup's save against a Hurt caster (+10, the number entered by the reader)
and countup's natural healing. Each is checked against brute force over every d20 face (or every
day of rest) with an independent reading of the data, and both readings of their rulings."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from answers import chance, runner

from calc.answers.result import dist_probs
from calc.errors import InputError
from calc.inputs import data as calc_data

SEG = calc_data.system("segments")
CUP = calc_data.system("countup")
seg = runner("segments")
cup = runner("countup")
D20 = range(1, 21)


# --- segments: monster saving throw ----------------------------------------------------------------
def save_hit_dice(hd: int, bonus: int) -> int:
    """The source's list (line 72): +1-4 = +1, +5-8 = +2, +9-12 = +3, +13-16 = +4, no maximum."""
    extra = 0
    while bonus > 0:
        extra, bonus = extra + 1, bonus - 4
    return hd + extra


def table_number(save_hd: int, category: str) -> int:
    (row,) = [
        r for r in SEG.table("monster-save-table")
        if r["hd"]["min"] <= save_hd and (r["hd"]["max"] is None or save_hd <= r["hd"]["max"])
    ]  # fmt: skip
    return row[category]


def brute_save(need: int, modifier: int, natural: bool) -> Fraction:
    ok = 0
    for face in D20:
        if natural and face == 20:
            ok += 1
        elif natural and face == 1:
            continue
        else:
            ok += face + modifier >= need
    return Fraction(ok, 20)


CATEGORIES = [o["value"] for o in SEG.calculator("save")["inputs"][2]["options"]]


def test_save_categories_are_the_columns_of_the_table():
    columns = [c["id"] for c in SEG.table_info("monster-save-table")["columns"]]
    assert columns[0] == "hd" and CATEGORIES == columns[1:]


@pytest.mark.parametrize("natural", [False, True])
@pytest.mark.parametrize("category", CATEGORIES)
def test_save_equals_brute_force(category, natural):
    for hd in (0, 1, 2, 4, 5, 7, 12, 16, 19, 25):
        for bonus in (-2, 0, 1, 4, 5, 8, 9, 13):
            for modifier in (-8, -2, 0, 3, 9):
                answer = seg("save", hd=hd, hd_bonus=bonus, category=category, modifier=modifier, natural_rolls=natural)
                need = table_number(save_hit_dice(hd, bonus), category)
                expected = brute_save(need, modifier, natural)
                assert chance(answer, "Saves") == expected, (hd, bonus, modifier)
                assert chance(answer, "Fails") == 1 - expected
                lowest = min((f for f in D20 if (natural and f == 20) or (f + modifier >= need
                              and not (natural and f == 1))), default=None)  # fmt: skip
                assert answer["roll_needed"]["value"] == lowest


def test_enhanced_hit_dice_steps_of_the_source():
    # "+1-4=+1; +5-8=+2; +9-12=+3; +13-16=+4 ... (e.g. 5+5 HD = 7 HD or 7-8 in the table)"
    for bonus, extra in [(1, 1), (4, 1), (5, 2), (8, 2), (9, 3), (12, 3), (13, 4), (16, 4), (17, 5)]:
        answer = seg("save", hd=3, hd_bonus=bonus)
        assert answer["table"]["rows"][1][1] == str(3 + extra)
    assert seg("save", hd=5, hd_bonus=5)["table"]["rows"][2][1] == "7-8"
    assert seg("save", hd=1, hd_bonus=-1)["table"]["rows"][1][1] == "1"  # a penalty changes nothing


def test_save_reading_matters_only_out_of_reach():
    # In reach of faces 2-19 both readings agree; out of reach they differ by exactly 1 in 20.
    assert chance(seg("save", hd=4, category="spells", modifier=0), "Saves") == chance(
        seg("save", hd=4, category="spells", modifier=0, natural_rolls=True), "Saves"
    )
    top = {"hd": 19, "category": "death", "modifier": 5}  # needs 2, total always reaches it
    assert chance(seg("save", **top), "Saves") == 1
    assert chance(seg("save", **top, natural_rolls=True), "Saves") == Fraction(19, 20)


def test_better_hit_dice_never_save_worse():
    for category in CATEGORIES:
        numbers = [r[category] for r in SEG.table("monster-save-table")]
        assert numbers == sorted(numbers, reverse=True), category


# --- countup: saving throw against a Hurt caster's spell --------------------------------------------
HURT_BONUS = CUP.fact("hurt", "spell_save_bonus")


@pytest.mark.parametrize("natural", [False, True])
@pytest.mark.parametrize("hurt", [False, True])
def test_countup_save_equals_brute_force(hurt, natural):
    for need in range(-5, 36, 3):
        for modifier in (-7, 0, 4):
            answer = cup("save", need=need, modifier=modifier, caster_hurt=hurt, natural_rolls=natural)
            with_hurt = brute_save(need, modifier + HURT_BONUS, natural)
            without = brute_save(need, modifier, natural)
            assert chance(answer, "Saves against a Hurt caster") == with_hurt
            assert chance(answer, "Saves against a caster who is not Hurt") == without
            assert chance(answer, "Saves") == (with_hurt if hurt else without)
            assert chance(answer, "Fails") == 1 - (with_hurt if hurt else without)
            assert with_hurt >= without


def test_countup_hurt_caster_gives_plus_ten():
    assert HURT_BONUS == 10  # the text: "give their targets a +10 to save"
    answer = cup("save", need=15)
    assert chance(answer, "Saves against a caster who is not Hurt") == Fraction(6, 20)
    assert chance(answer, "Saves against a Hurt caster") == Fraction(16, 20)
    assert answer["roll_needed"]["value"] == 5
    assert cup("save", need=15, caster_hurt=False)["roll_needed"]["value"] == 15


# --- countup: natural healing -----------------------------------------------------------------------
def con_bonus(score: int) -> int:
    (row,) = [
        r for r in CUP.table("ability-score-bonuses")
        if (r["score"]["min"] is None or r["score"]["min"] <= score)
        and (r["score"]["max"] is None or score <= r["score"]["max"])
    ]  # fmt: skip
    return row["bonus"]


def brute_days(level: int, con: int, now: int, top: int, wanted: int, floor: bool) -> int | None:
    """Rest day by day until the goal is reached (None after enough days to be sure it never is)."""
    per_day = level + con
    if floor:
        per_day = max(per_day, 0)
    goal = min(now + wanted, top) if wanted else top
    hp, day = now, 0
    while hp < goal:
        if day > 2000 or hp <= -10:
            return None
        hp, day = min(hp + per_day, top), day + 1
    return day


def test_the_texts_example_regains_five_a_day():
    # "A 3rd Level character with a 16 Constitution will regain 5 hit points per day of rest."
    answer = cup("healing", level=3, con_from="score", con_score=16, current_hp=0, max_hp=30)
    assert answer["table"]["rows"][0][1] == "5"
    assert answer["table"]["rows"][1][1] == "6"


@pytest.mark.parametrize("floor", [True, False])
def test_healing_days_equal_brute_force(floor):
    for level in (1, 2, 3, 7):
        for score in (3, 5, 9, 16, 18):
            for now, top in ((-9, 8), (0, 1), (1, 20), (5, 20), (19, 20), (20, 20), (-3, 45)):
                for wanted in (0, 1, 4, 100):
                    answer = cup("healing", level=level, con_score=score, current_hp=now, max_hp=top,
                                 regain=wanted, healing_floor=floor)  # fmt: skip
                    days = brute_days(level, con_bonus(score), now, top, wanted, floor)
                    shown = answer["table"]["rows"][1][1]
                    assert shown == ("never" if days is None else str(days)), (level, score, now, top, wanted)


def test_healing_per_day_is_the_pages_healing_table():
    from calc.systems.countup import healing_table

    table = healing_table(CUP)
    bands = CUP.table("ability-score-bonuses")
    for row in table["rows"]:
        level = row[0]
        for band, cell in zip(bands, row[1:], strict=True):
            answer = cup("healing", level=level, con_from="bonus", con_bonus=band["bonus"], current_hp=1, max_hp=9)
            assert answer["table"]["rows"][0][1].replace("−", "-") == str(cell)


def test_healing_never_above_the_maximum():
    answer = cup("healing", level=10, con_score=18, current_hp=15, max_hp=20)
    assert answer["table"]["rows"][1][1] == "1"
    assert answer["table"]["rows"][-1] == ["After day 1", "20"]


def test_healing_at_the_maximum_needs_no_rest():
    answer = cup("healing", current_hp=20, max_hp=20)
    assert answer["table"]["rows"][1][1] == "0" and "no rest needed" in answer["summary"]


def test_healing_bad_hit_points_name_the_input():
    with pytest.raises(InputError) as err:
        cup("healing", current_hp=21, max_hp=20)
    assert err.value.input == "current_hp"
    with pytest.raises(InputError) as err:
        cup("healing", current_hp=-10, max_hp=20)
    assert err.value.input == "current_hp" and "dead" in err.value.reason


# --- the command line --------------------------------------------------------------------------------
@pytest.mark.parametrize(("system", "calculator"), [("segments", "save"), ("countup", "save"), ("countup", "healing")])
def test_cli_json(system, calculator):
    out = subprocess.run(
        [sys.executable, "-m", "calc", system, calculator, "--json"], capture_output=True, text=True, check=True
    )
    answer = json.loads(out.stdout)
    assert answer["calculator"] == calculator and answer["summary"]


# --- segments: does a hit land before the spell completes -------------------------------------------
def test_caster_loses_the_spell_when_any_attack_of_the_round_damages_it():
    """Every group acts before spells resolve, so the chance of losing the spell is P(damage ≥ 1)
    this round: 1 − Π(1 − P(hit)) when every hit deals at least 1, from the hit calculator."""
    routine = [
        {"name": "Claw", "dice": "1d4", "modifier": 0, "to_hit": 0},
        {"name": "Bite", "dice": "1d6", "modifier": 1, "to_hit": 3},
    ]
    base = {"attacker": "monster", "hd": 3, "hd_bonus": 0, "ac": 4}
    answer = seg("round", **base, routine=routine)
    miss_all = Fraction(1)
    for attack in routine:
        miss_all *= 1 - chance(seg("hit", **base, bonus=attack["to_hit"]), "Hit")
    assert dist_probs(answer["distribution"], "at_least")[1] == 1 - miss_all
