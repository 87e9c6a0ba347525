"""Segments' fight forecast: tiny fights against a brute-force oracle written here (every pair of
group d6 rolls, the order spelled out from the text, every damage of every routine from the damage
calculator), the round calculator's duel, symmetry, monotonicity, the text's weapon-speed example,
each ruling both ways, errors, the state bound and the command line."""

from __future__ import annotations

import importlib
from fractions import Fraction
from functools import partial
from itertools import groupby

import pytest

import calc
import calc.systems.segments  # noqa: F401  (the package shadows its forecast module's name)
from tests.calc import forecast_cases as cases

FORECAST = importlib.import_module("calc.systems.segments.forecast")

HERO = {"name": "Hero", "level": 3, "weapon": "long sword", "ac": 5, "target_hp": 6,
        "routine": [{"name": "Sword", "dice": "1d8", "modifier": 0, "to_hit": 0}]}  # fmt: skip
ORC = {"name": "Orc", "attacker": "monster", "hd": 1, "weapon": "battle axe", "ac": 6, "target_hp": 4,
       "routine": [{"name": "Axe", "dice": "1d6", "modifier": 0, "to_hit": 0}]}  # fmt: skip
HARMLESS = {"name": "Dummy", "attacker": "aac0", "aac0": "20*", "bonus": -20, "ac": 10,  # a hit deals 0
            "routine": [{"name": "Poke", "dice": "1d2", "modifier": -5, "to_hit": -20}]}  # fmt: skip
H = Fraction(19, 20)
"""A natural 1 always misses: the best attacker hits 19 times in 20."""
SPEED = {"": 0, "long sword": 5, "battle axe": 7, "dagger": 2}

run = partial(cases.run, "segments")
chance = cases.chance
exact = partial(cases.chained, "segments", FORECAST)
full = partial(cases.full, "segments")


# --- the oracle -----------------------------------------------------------------------------------
def routine_damage(f: dict, enemy: dict) -> dict[int, Fraction]:
    """One routine against `enemy`: each attack's damage (a miss as 0) by the damage calculator, summed."""
    total = {0: Fraction(1)}
    for attack in f["routine"]:
        asked = {k: f[k] for k in ("attacker", "class_group", "level", "hd", "hd_bonus", "aac0")}
        asked |= {"bonus": f["bonus"] + attack["to_hit"], "ac": enemy["ac"], "ac_bonus": enemy["ac_bonus"]}
        asked |= {"dice": attack["dice"], "modifier": attack["modifier"], "multipliers": []}
        d = calc.evaluate({"system": "segments", "calculator": "damage", "inputs": asked})["attack"]["per_attack"]
        one = {r["x"]: Fraction(int(r["weight"]), int(d["denominator"])) for r in d["pmf"]}
        new: dict[int, Fraction] = {}
        for x, p in total.items():
            for y, q in one.items():
                new[x + y] = new.get(x + y, 0) + p * q
        total = new
    return total


def oracle(party: list[dict], foes: list[dict], rounds: int) -> list[tuple[Fraction, Fraction]]:
    """[(P(party has won), P(foes have won)) after round k]: lowest hit points first, drop at 0,
    one routine each, missile before melee. Every pair of d6 rolls: the higher side acts first, each
    of its types in turn (its fighters of one type together); on a tie each type in turn, its
    fighters by weapon speed (plus activities before), equal speeds together."""
    people = [dict(full(f), side=0) for f in party] + [dict(full(f), side=1) for f in foes]
    sides = [[i for i, f in enumerate(people) if f["side"] == s] for s in (0, 1)]
    aims = [sorted(sides[1 - s], key=lambda i: (people[i]["target_hp"], i)) for s in (0, 1)]
    dmg = {(i, j): routine_damage(people[i], people[j]) for i in range(len(people)) for j in range(len(people))}
    speed = [SPEED[f["weapon"]] + f["minor_actions"] for f in people]
    kinds = ("missile", "melee")

    def orders() -> dict[tuple, Fraction]:
        out: dict[tuple, Fraction] = {}
        for a in range(1, 7):
            for b in range(1, 7):
                groups = []
                if a != b:
                    for s in (0, 1) if a > b else (1, 0):
                        groups += [tuple(i for i in sides[s] if people[i]["action"] == k) for k in kinds]
                else:
                    for k in kinds:
                        same = sorted((speed[i], i) for i in range(len(people)) if people[i]["action"] == k)
                        groups += [tuple(i for _, i in g) for _, g in groupby(same, key=lambda t: t[0])]
                key = tuple(g for g in groups if g)
                out[key] = out.get(key, 0) + Fraction(1, 36)
        return out

    start = tuple(f["target_hp"] for f in people)

    def blows(i: int, t: int, hp: int) -> list[tuple[int, Fraction]]:
        return [(max(hp - x, 0), r) for x, r in dmg[(i, t)].items()]

    return cases.rolled_each_round(start, orders(), sides, aims, lambda hp: hp <= 0, blows, rounds)


ARCHER = {**HERO, "name": "Archer", "action": "missile", "weapon": "", "target_hp": 3,
          "routine": [{"name": "Arrow", "dice": "1d6", "modifier": 0, "to_hit": 0}]}  # fmt: skip


@pytest.mark.parametrize(
    ("party", "foes", "rounds"),
    [
        ([HERO], [ORC], 3),
        ([{**HERO, "weapon": "battle axe"}], [ORC], 3),  # equal speeds on a tie: both blows land
        ([HERO, ARCHER], [ORC], 3),
        ([HERO], [ORC, {**ORC, "name": "Orc 2", "target_hp": 2, "weapon": "dagger"}], 3),
        ([{**HERO, "minor_actions": 2}], [{**ORC, "action": "missile"}], 2),
    ],
)
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, rounds):
    got = exact(party, foes, rounds=rounds)
    assert [(got.party.within[k], got.foes.within[k]) for k in range(rounds)] == oracle(party, foes, rounds)


def test_one_against_one_equals_the_round_calculators_duel():
    hero = {**HERO, "routine": [{"name": "Sword", "dice": "2d6", "modifier": 1, "to_hit": 2}]}
    foe = {**HARMLESS, "target_hp": 17, "ac": 4}
    got = exact([hero], [foe], rounds=10)
    duel_inputs = {k: v for k, v in full(hero).items() if k not in ("name", "action", "weapon", "minor_actions")}
    duel_inputs |= {"ac": 4, "ac_bonus": 0, "target_hp": 17}
    duel = calc.evaluate({"system": "segments", "calculator": "round", "inputs": duel_inputs})
    (drops,) = duel["rounds"]
    assert [got.party.within[k] for k in range(10)] == [Fraction(w["fraction"]) for w in drops["within"]]
    assert got.over.mean == Fraction(drops["mean"]["fraction"])


def test_two_identical_fighters_win_with_equal_chance():
    """Either side is HIGH with the same chance, and on a tie equal speeds strike together."""
    answer = run([{**HERO, "name": "A"}], [{**HERO, "name": "B"}], rounds=8)
    assert chance(answer, "Party wins") == chance(answer, "Foes win") > 0
    assert chance(answer, "Both sides fall") > 0


def test_the_texts_weapon_speed_example():
    """Dropping a small shield before swinging the battle axe makes it speed 8: on a tied roll the
    orc's axe (7) strikes first; without the drop both axes land together."""
    axeman = {**HERO, "name": "Axeman", "weapon": "battle axe", "level": 20, "target_hp": 1,
              "routine": [{"name": "Axe", "dice": "1d8", "modifier": 20, "to_hit": 20}]}  # fmt: skip
    orc = {**ORC, "hd": 20, "target_hp": 1, "routine": [{"name": "Axe", "dice": "1d8", "modifier": 20, "to_hit": 20}]}
    dropped = run([{**axeman, "minor_actions": 1}], [orc], rounds=1)
    # A hit kills (19 in 20): the first to strike wins unless it misses; on a tie (6 in 36) the orc strikes first.
    assert chance(dropped, "Party wins") == Fraction(15, 36) * H + Fraction(21, 36) * (1 - H) * H
    together = run([axeman], [orc], rounds=1)
    assert chance(together, "Party wins") == chance(together, "Foes win")
    assert chance(together, "Party wins") == Fraction(15, 36) * (H + (1 - H) * H) + Fraction(6, 36) * H * (1 - H)
    assert chance(together, "Both sides fall") == Fraction(6, 36) * H * H


def test_drop_at_both_readings():
    """At 0 a fighter drops; under the other reading it also dies at −10, which only a blow of 10
    or more beyond its hit points reaches."""
    brute = {**ORC, "hd": 10, "routine": [{"name": "Maul", "dice": "2d10", "modifier": 0, "to_hit": 10}]}
    victim = {**HERO, "target_hp": 2, "routine": HARMLESS["routine"]}
    zero = run([victim], [brute], rounds=1)
    ten = run([victim], [brute], rounds=1, drop_at="minus-ten")
    assert chance(zero, "Hero drops") == chance(ten, "Hero drops")
    assert not any(c["label"] == "Hero dies" for c in zero["chances"])
    dies = chance(ten, "Hero dies")
    assert 0 < dies < chance(ten, "Hero drops")
    assert dies == sum(p for x, p in routine_damage(full(brute), full(victim)).items() if x >= 12)


def test_missile_before_melee_both_readings():
    """On a tie, the archer's arrow comes before the orc's axe (ruling) or after it (other reading)."""
    archer = {
        **ARCHER,
        "level": 20,
        "target_hp": 1,
        "routine": [{"name": "Arrow", "dice": "1d4", "modifier": 9, "to_hit": 20}],
    }
    orc = {**ORC, "hd": 20, "target_hp": 1, "routine": [{"name": "Axe", "dice": "1d4", "modifier": 9, "to_hit": 20}]}
    first = run([archer], [orc], rounds=1)
    later = run([archer], [orc], rounds=1, weapon_phases="melee-first")
    assert chance(first, "Party wins") == Fraction(21, 36) * H + Fraction(15, 36) * (1 - H) * H
    assert chance(later, "Party wins") == Fraction(15, 36) * H + Fraction(21, 36) * (1 - H) * H


def test_multipliers_both_readings():
    stab = {**HERO, "multipliers": [{"source": "back stab", "factor": 3}]}
    foe = {**HARMLESS, "target_hp": 20}
    once = exact([stab], [foe], rounds=6)
    every = exact([stab], [foe], rounds=6, multiplier_rounds="every")
    plain = exact([HERO], [foe], rounds=6)
    assert plain.party.within[0] == 0 < once.party.within[0] == every.party.within[0]
    assert plain.party.within[5] < once.party.within[5] < every.party.within[5]


def test_damage_floor_both_readings():
    weak = {**HERO, "level": 20, "routine": [{"name": "Slap", "dice": "1d2", "modifier": -5, "to_hit": 20}]}
    foe = {**HARMLESS, "target_hp": 1}
    assert chance(run([weak], [foe], rounds=3), "Party wins") == 0
    assert chance(run([weak], [foe], rounds=1, damage_floor="1"), "Party wins") == H


def test_attack_table_rulings_reach_every_fighter():
    """Past the six 20s: the table's formula or a modified 20 always hits; the forecast's one-round
    win over a 1-HP dummy is the hit calculator's chance under each reading."""
    jab = [{"name": "Jab", "dice": "1d4", "modifier": 5, "to_hit": 0}]
    weak = {**HERO, "attacker": "aac0", "aac0": "20*", "bonus": 5, "routine": jab}
    foe = {**HARMLESS, "ac": -10, "target_hp": 1}
    wins = []
    for cap in ("formula", "modified-20"):
        asked = {"attacker": "aac0", "aac0": "20*", "bonus": 5, "ac": -10, "table_cap": cap}
        hit = calc.evaluate({"system": "segments", "calculator": "hit", "inputs": asked})
        wins.append(chance(run([weak], [foe], rounds=1, table_cap=cap), "Party wins"))
        assert wins[-1] == chance(hit, "Hit")
    assert wins[0] < wins[1]


def test_a_multi_attackers_first_routine_comes_before_group_initiative():
    """Whatever the groups roll, the beast's first routine comes before anyone's initiative: the 1-HP
    hero strikes only if it misses; with one routine the beast strikes in its group's turn."""
    sword = [{"name": "Sword", "dice": "1d8", "modifier": 20, "to_hit": 20}]
    hero = {**HERO, "target_hp": 1, "level": 20, "routine": sword}
    claw = [{"name": "Claw", "dice": "1d4", "modifier": 5, "to_hit": 20}]
    beast = {**ORC, "hd": 20, "routines": 2, "routine": claw}
    answer = run([hero], [beast], rounds=1)
    assert chance(answer, "Orc drops") == (1 - H) * H
    single = run([hero], [{**beast, "routines": 1}], rounds=1)
    # The hero's long sword (speed 5) beats the axe (7) on a tied roll: the hero strikes first 21 times in 36.
    assert chance(single, "Orc drops") == Fraction(21, 36) * H + Fraction(15, 36) * (1 - H) * H
