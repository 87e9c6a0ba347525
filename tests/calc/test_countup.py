"""Countup engines: the source's worked examples, both readings of every ruling that changes a
number, and property tests against brute-force enumeration of every die face (and icepool)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest
from answers import chance, pmf, runner
from hypothesis import given, settings
from hypothesis import strategies as st

from calc.errors import InputError
from calc.inputs import data as calc_data
from calc.numbers.dist import Dist
from calc.systems import countup

SYSTEM = "countup"


@pytest.fixture(scope="module")
def data():
    return calc_data.system(SYSTEM)


run = runner(SYSTEM)


def damage_line(answer: dict) -> str:
    """The damage part of a damage summary, after its head "Expected … damage per attack (hits …); "."""
    head, _, rest = answer["summary"].partition("; ")
    assert head.startswith("Expected ") and "damage per attack" in head, answer["summary"]
    return rest


FIGHTER = {"attack": "melee", "to_hit": 5, "ability_from": "score", "ability_score": 16, "misc": 1}


# --- the source's worked examples (lines 28 and 34 of the source) --------------------------------
def test_fighter_longsword_hits_ac_14_on_6_or_more():
    answer = run("hit", **FIGHTER, ac=14)
    assert answer["roll_needed"]["value"] == 6
    assert chance(answer, "Hit") == Fraction(15, 20)
    # "If the player rolled a 10 then the final result would be 18": 10 + 5 + 2 + 1.
    assert 10 + (14 - answer["roll_needed"]["value"]) == 18
    rules = [s["rule"] for s in answer["steps"]]
    assert rules[0] == "attack-melee" and "ability-bonuses" in rules


def test_fighter_longsword_damage_is_1d8_plus_3():
    answer = run("damage", attack="melee", dice="1d8", strength_score=16, damage_misc=1)
    assert pmf(answer) == {x: Fraction(1, 8) for x in range(4, 12)}
    assert damage_line(answer).startswith("1d8 +2 (Strength) +1 (misc) = 1d8+3: 4 to 11 damage")
    assert 5 + 3 in pmf(answer)  # a 5 on the d8 deals 8


def test_default_damage_adds_nothing_the_reader_did_not_choose():
    """Issue 11: a typed 1d8+3 stays 1d8+3 until the reader enters a Strength or a bonus."""
    answer = run("damage", dice="1d8+3")
    assert damage_line(answer).startswith("1d8+3: 4 to 11 damage")
    assert answer["inputs"]["damage_misc"] == 0 and answer["inputs"]["strength_bonus"] == 0


def test_damage_summary_names_every_added_bonus():
    answer = run("damage", dice="1d8+3", strength_score=16)
    assert damage_line(answer).startswith("1d8+3 +2 (Strength) = 1d8+5: 6 to 13 damage")
    hurt = run("damage", dice="1d8+3", strength_from="bonus", strength_bonus=2, damage_misc=1, hurt=True)
    assert damage_line(hurt).startswith("1d8+3 +2 (Strength) +1 (misc) \u221210 (Hurt) = 1d8-4: 0 to 4")
    ranged = run("damage", attack="ranged", dice="1d6", strength_score=18, damage_misc=0)
    assert damage_line(ranged).startswith("1d6: ")  # no Strength for this attack, so none is named
    first_damage_step = next(s for s in ranged["steps"] if s["rule"] == "damage")
    assert first_damage_step["text"].startswith("1d6 +0 (misc) = 1d6")


def test_thrown_dagger_hits_with_dexterity_and_adds_strength_to_damage():
    hit = run("hit", attack="ranged", to_hit=5, ability_score=14, misc=0, ac=14)
    assert hit["roll_needed"]["value"] == 8  # d20 + 5 + 1 ≥ 14; a 10 makes 16
    assert hit["steps"][0]["rule"] == "attack-ranged"
    dmg = run("damage", attack="thrown", dice="1d4", strength_score=16, damage_misc=0)
    assert pmf(dmg) == {x: Fraction(1, 4) for x in range(3, 7)}  # 1d4 + 2; a 3 makes 5


def test_other_ranged_weapons_add_no_strength():
    dmg = run("damage", attack="ranged", dice="1d4", strength_score=18, damage_misc=0)
    assert (dmg["distribution"]["min"], dmg["distribution"]["max"]) == (1, 4)


def test_third_level_character_with_con_16_heals_5_a_day(data):
    con_bonus = countup.ability_bonus_of(16, data, "con")
    assert countup.natural_healing(3, con_bonus, data) == 5
    table = countup.healing_table(data)
    labels = [c["label"] for c in table["columns"]]
    row = next(r for r in table["rows"] if r[0] == 3)
    assert row[labels.index("Con 16–17")] == 5


# --- the ability score table (a ruling) and its alternative --------------------------------------
@pytest.mark.parametrize(
    ("score", "bonus"),
    [(3, -3), (4, -2), (5, -2), (6, -1), (8, -1), (9, 0), (12, 0), (13, 1), (15, 1), (16, 2), (17, 2), (18, 3)],
)
def test_ability_bonuses_follow_the_ruling(data, score, bonus):
    assert countup.ability_bonus_of(score, data, "s") == bonus


@pytest.mark.parametrize("score", [1, 2, 19, 25])
def test_scores_outside_the_table_are_refused_by_name(score):
    with pytest.raises(InputError) as err:
        run("hit", ability_from="score", ability_score=score)
    assert err.value.input == "ability_score"
    assert "3 to 18" in err.value.reason


def test_typed_bonus_replaces_the_table_and_ignores_the_score():
    by_score = run("hit", **FIGHTER, ac=14)
    typed = run("hit", **{**FIGHTER, "ability_from": "bonus", "ability_bonus": 2, "ability_score": 25}, ac=14)
    assert typed["roll_needed"] == by_score["roll_needed"]
    assert "ruling:ability-bonus-table" in [s["rule"] for s in typed["steps"]]
    other = run("hit", **{**FIGHTER, "ability_from": "bonus", "ability_bonus": 4}, ac=14)
    assert other["roll_needed"]["value"] == 4


# --- natural 20 / natural 1: off (the ruling) and on ---------------------------------------------
@pytest.mark.parametrize(
    ("ac", "off", "on"),
    [(30, Fraction(0), Fraction(1, 20)), (4, Fraction(1), Fraction(19, 20)), (14, Fraction(3, 4), Fraction(3, 4))],
)
def test_natural_rolls_both_readings(ac, off, on):
    assert chance(run("hit", **FIGHTER, ac=ac), "Hit") == off
    assert chance(run("hit", **FIGHTER, ac=ac, natural_rolls=True), "Hit") == on


def test_impossible_and_certain_hits_say_so():
    assert run("hit", **FIGHTER, ac=30)["roll_needed"]["text"] == "cannot succeed"
    assert run("hit", **FIGHTER, ac=4)["roll_needed"]["text"] == "any roll"


# --- Hurt: −10 to hit and damage; damage floor 0 (the ruling) or none -----------------------------
def test_hurt_takes_ten_off_hit_and_damage():
    assert run("hit", **FIGHTER, ac=14, hurt=True)["roll_needed"]["value"] == 16
    dmg = run("damage", dice="2d6", strength_score=16, damage_misc=10, hurt=True)
    assert pmf(dmg) == dict(Dist.die(6).times(2).map(lambda x: x + 2).items())


def test_damage_floor_both_readings():
    floored = run("damage", attack="thrown", dice="1d4", strength_score=16, damage_misc=0, hurt=True)
    raw = run("damage", attack="thrown", dice="1d4", strength_score=16, damage_misc=0, hurt=True, damage_floor=False)
    assert pmf(floored) == {0: Fraction(1)}
    assert pmf(raw) == {x: Fraction(1, 4) for x in range(-7, -3)}
    assert chance(floored, "At least 1 damage") == chance(raw, "At least 1 damage") == 0
    partly = run("damage", dice="1d20", strength_score=10, damage_misc=0, hurt=True)
    assert pmf(partly)[0] == Fraction(10, 20)  # 1..10 → −9..0, all counted as 0


# --- targets: characters are Hurt, most NPCs die at 0, important NPCs may be Hurt ------------------
def test_ordinary_npc_dies_at_zero_and_important_npc_is_hurt():
    base = {"attack": "melee", "dice": "1d8", "strength_score": 16, "damage_misc": 1, "target": "npc", "target_hp": 5}
    ordinary = run("damage", **base)
    important = run("damage", **base, npc_hurt=True)
    assert chance(ordinary, "Killed") == Fraction(7, 8)
    assert chance(important, "Killed") == 0 and chance(important, "Hurt") == Fraction(7, 8)


def test_character_target_hurt_band_and_death():
    answer = run("damage", dice="1d10", strength_score=10, damage_misc=0, target="character", target_hp=1)
    # 1 − d: 0..−9 is Hurt (d = 1..10 gives 0..−9), so never killed by 1d10 from 1 hp.
    assert chance(answer, "Hurt") == 1 and chance(answer, "Killed") == 0
    answer = run("damage", dice="1d10", strength_score=10, damage_misc=0, target="character", target_hp=0)
    assert chance(answer, "Killed") == Fraction(1, 10)  # only 10 damage reaches −10


@pytest.mark.parametrize(("target", "hp"), [("npc", 0), ("npc", -3), ("character", -10)])
def test_dead_targets_are_refused(target, hp):
    with pytest.raises(InputError) as err:
        run("damage", target=target, target_hp=hp)
    assert err.value.input == "target_hp"


# --- initiative -----------------------------------------------------------------------------------
def person(name, side="player", die="d10", modifier=0, roll=0):
    return {"name": name, "side": side, "die": die, "modifier": modifier, "roll": roll}


def test_lowest_first_and_players_before_npcs_on_a_tie():
    answer = run(
        "initiative",
        combatants=[person("Orc", "npc", roll=3), person("Aria", roll=2, modifier=1), person("Bram", roll=1)],
    )
    assert [g["names"] for g in answer["order"]] == [["Bram"], ["Aria"], ["Orc"]]
    assert not any(g["tied"] for g in answer["order"])
    pair = next(x for x in answer["pairwise"] if {x["first"], x["second"]} == {"Orc", "Aria"})
    assert pair["first"] == "Orc" and Fraction(pair["after"]["fraction"]) == 1


def test_same_side_ties_are_tied_groups_never_a_silent_order():
    answer = run(
        "initiative",
        combatants=[
            person("Aria", roll=4),
            person("Bram", roll=3, modifier=1),
            person("Orc", "npc", roll=4),
            person("Goblin", "npc", roll=5, modifier=-1),
        ],
    )
    groups = [(g["names"], g["tied"], g["note"]) for g in answer["order"]]
    assert groups == [
        (["Aria", "Bram"], True, "players choose their order"),
        (["Orc", "Goblin"], True, "the GM chooses their order"),
    ]
    assert "ruling:initiative-npc-ties" in [s["rule"] for s in answer["steps"]]
    pair = answer["pairwise"][0]
    assert (pair["first"], pair["second"], pair["tied"]["fraction"]) == ("Aria", "Bram", "1")


def test_unrolled_combatants_are_listed_apart():
    answer = run("initiative", combatants=[person("Aria", roll=7), person("Orc", "npc")])
    assert answer["order"][0]["names"] == ["Aria"]
    assert answer["order"][-1] == {"rank": 2, "names": ["Orc"], "score": "—", "tied": False, "note": "not rolled yet"}
    # Orc acts before Aria (7) on 1..6, after her on 7 (player first) and above.
    pair = answer["pairwise"][0]
    assert Fraction(pair["after"]["fraction"]) == Fraction(6, 10)


def test_first_place_counts_ties_only_within_a_side():
    # Same total 5: the player acts first (not a tie), the NPC does not; two players share first.
    answer = run("initiative", combatants=[person("Aria", roll=5), person("Orc", "npc", roll=5)])
    assert chance(answer, "Aria acts first (alone or tied with their own side)") == 1
    assert chance(answer, "Orc acts first (alone or tied with their own side)") == 0
    both = run("initiative", combatants=[person("Aria", roll=5), person("Bo", roll=5)])
    assert chance(both, "Bo acts first (alone or tied with their own side)") == 1
    waiting = run("initiative", combatants=[person("Aria"), person("Orc", "npc", roll=5)])
    assert "ties included" not in waiting["summary"] and "tied with their own side" in waiting["summary"]


def test_why_steps_write_sums_and_the_floor_for_readers():
    hit = run("hit", ac=14, hurt=True, to_hit=6, misc=0)  # total 6 + 2 (Str 16) − 10 = −2
    (needs,) = [s["text"] for s in hit["steps"] if s["text"].startswith("Needs")]
    assert needs.startswith("Needs 14 + 2 = 16 on the d20") and "− −" not in needs
    plain = run("hit", ac=14, to_hit=1, misc=0)  # total 1 + 2 = 3
    assert any(s["text"].startswith("Needs 14 − 3 = 11") for s in plain["steps"])
    damage = run("damage", dice="1d4", hurt=True)  # 1d4 + 0 − 10: below 0 on every roll
    (floor,) = [s["text"] for s in damage["steps"] if s["rule"] == "ruling:damage-floor"]
    assert "P =" not in floor
    assert "below 0 with chance 100%" in floor and "moves to 0 damage" in floor


def test_d8_talent_and_roll_limits():
    answer = run("initiative", combatants=[person("Elf", die="d8"), person("Orc", "npc")])
    assert chance(answer, "Elf acts first (alone or tied with their own side)") == Fraction(
        sum(11 - t for t in range(1, 9)), 80
    )
    with pytest.raises(InputError) as err:
        run("initiative", combatants=[person("Elf", die="d8", roll=9)])
    assert err.value.input == "combatants[1].roll" and "1 to 8" in err.value.reason


def test_duplicate_names_are_refused():  # the rule of every system: tests/calc/test_unique_names.py
    with pytest.raises(InputError) as err:
        run("initiative", combatants=[person("Orc", "npc"), person("Orc", "npc")])
    assert err.value.input == "combatants[2].name"


# --- generated tables -----------------------------------------------------------------------------
def test_healing_floor_both_readings(data):
    assert countup.natural_healing(1, -3, data) == 0
    assert countup.natural_healing(1, -3, data, floor=False) == -2
    assert countup.natural_healing(12, 3, data) == countup.natural_healing(12, 3, data, floor=False) == 15


def test_hp_thresholds_table(data):
    rows = countup.hp_thresholds(data)["rows"]
    assert [r[1] for r in rows] == ["1 or more", "0 to −9", "−10 or fewer", "1 or more", "0 or fewer"]


# --- properties -----------------------------------------------------------------------------------
@given(st.integers(-30, 30), st.integers(-10, 50), st.booleans())
def test_hit_equals_enumeration_of_the_d20(misc, ac, natural):
    answer = run("hit", **{**FIGHTER, "misc": misc}, ac=ac, natural_rolls=natural)
    bonus = 5 + 2 + misc

    def hits_on(face: int) -> bool:
        if natural and face in (1, 20):
            return face == 20
        return face + bonus >= ac

    hits = sum(1 for face in range(1, 21) if hits_on(face))
    assert chance(answer, "Hit") == Fraction(hits, 20)
    assert chance(answer, "Hit") + chance(answer, "Miss") == 1


@settings(deadline=None)
@given(st.integers(-20, 29), st.integers(-10, 49), st.booleans())
def test_hit_is_monotone_in_bonus_and_target(misc, ac, natural):
    def hit(m, a):
        return chance(run("hit", **{**FIGHTER, "misc": m}, ac=a, natural_rolls=natural), "Hit")

    assert hit(misc + 1, ac) >= hit(misc, ac)
    assert hit(misc, ac + 1) <= hit(misc, ac)


dice_terms = st.lists(st.tuples(st.integers(1, 2), st.sampled_from([2, 3, 4, 6, 8])), min_size=1, max_size=2)


@settings(max_examples=60, deadline=None)
@given(dice_terms, st.integers(-12, 6), st.booleans(), st.booleans(), st.sampled_from(["melee", "ranged", "thrown"]))
def test_damage_equals_enumeration(terms, misc, hurt, floor, attack):
    text = "+".join(f"{n}d{s}" for n, s in terms)
    answer = run("damage", attack=attack, dice=text, strength_score=17, damage_misc=misc, hurt=hurt, damage_floor=floor)
    modifier = (2 if attack != "ranged" else 0) + misc - (10 if hurt else 0)
    faces = [range(1, s + 1) for n, s in terms for _ in range(n)]
    counts: dict[int, int] = {}
    for roll in product(*faces):
        total = sum(roll) + modifier
        total = max(total, 0) if floor else total
        counts[total] = counts.get(total, 0) + 1
    n = sum(counts.values())
    assert pmf(answer) == {k: Fraction(v, n) for k, v in counts.items()}
    assert sum(pmf(answer).values()) == 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 20), st.sampled_from([4, 6, 8, 10, 12, 20])), min_size=1, max_size=3))
def test_damage_equals_icepool(terms):
    text = "+".join(f"{n}d{s}" for n, s in terms)
    answer = run("damage", dice=text, strength_score=16, damage_misc=1)
    pool = icepool.Die([3])  # Strength 16 (+2) and misc +1
    for n, sides in terms:
        pool = pool + n @ icepool.d(sides)
    expected = {int(k): Fraction(q, pool.denominator()) for k, q in pool.items()}
    assert pmf(answer) == expected


combatant = st.tuples(st.sampled_from(["player", "npc"]), st.sampled_from(["d10", "d8"]), st.integers(-3, 3))


@settings(max_examples=40, deadline=None)
@given(st.lists(combatant, min_size=2, max_size=3), st.data())
def test_initiative_chances_equal_enumeration(people, draw):
    rolls = [draw.draw(st.integers(0, int(d[1:])), label="roll") for _, d, _ in people]
    combatants = [person(f"C{i}", s, d, m, r) for i, ((s, d, m), r) in enumerate(zip(people, rolls, strict=True))]
    answer = run("initiative", combatants=combatants)
    faces = [range(r, r + 1) if r else range(1, int(d[1:]) + 1) for (_, d, _), r in zip(people, rolls, strict=True)]
    rank = {"player": 0, "npc": 1}
    worlds = list(product(*faces))
    share = Fraction(1, len(worlds))
    before: dict[tuple[int, int], list[Fraction]] = {}
    first = [Fraction(0)] * len(people)
    for world in worlds:
        keys = [(world[i] + people[i][2], rank[people[i][0]]) for i in range(len(people))]
        for i in range(len(people)):
            if all(keys[j] >= keys[i] for j in range(len(people))):
                first[i] += share
            for j in range(i + 1, len(people)):
                slot = before.setdefault((i, j), [Fraction(0)] * 3)
                slot[0 if keys[i] < keys[j] else 1 if keys[i] == keys[j] else 2] += share
    for pair in answer["pairwise"]:
        i, j = int(pair["first"][1:]), int(pair["second"][1:])
        got = [Fraction(pair[k]["fraction"]) for k in ("before", "tied", "after")]
        assert got == before[(i, j)] and sum(got) == 1
    for i in range(len(people)):
        assert chance(answer, f"C{i} acts first (alone or tied with their own side)") == first[i]


def test_generated_tables_match_the_independent_oracles(data):
    """The site test compares the oracles with the built page; here, with the generators' cells."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "site" / "oracles" / "countup.py"
    spec = importlib.util.spec_from_file_location("countup_oracles", path)
    oracles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracles)
    assert set(oracles.ORACLES) == set(countup.TABLES)
    for name, oracle in oracles.ORACLES.items():
        built = countup.TABLES[name](data)
        assert [[str(c) for c in row] for row in built["rows"]] == oracle(data), name
        assert all(len(row) == len(built["columns"]) for row in built["rows"])
