"""Phases' fight forecast: tiny fights against a brute-force oracle written here (every d20 of every
fighter, phase by phase; every damage from the damage calculator; Wounds read on the data's wound
table), the round calculator's duel, symmetry, monotonicity, the texts' examples (equal rolls, the
orc's first-Wound morale roll), each ruling both ways, errors, the state bound and the command line."""

from __future__ import annotations

import dataclasses
import importlib
import time
from collections import Counter
from fractions import Fraction
from functools import cache, partial
from itertools import groupby, product
from typing import Any

import pytest

import calc
import calc.systems.phases  # noqa: F401  (the package shadows its forecast module's name)
from calc.errors import InputError
from calc.forecast import chain
from calc.inputs import data
from tests.calc import forecast_cases as cases

FORECAST = importlib.import_module("calc.systems.phases.forecast")
phases_round = importlib.import_module("calc.systems.phases.round")
SYSTEM = data.system("phases")

HERO = {"name": "Hero", "target_source": "direct", "attack_target": 8, "defense": 2, "target_kind": "character",
        "free_slots": 3, "target_hp": 3}  # fmt: skip
ORC = {"name": "Orc", "mode": "monster", "damage_dice": "1d6", "target_source": "direct", "attack_target": 10,
       "defense": 1, "target_kind": "monster", "hd": 1, "target_hp": 3}  # fmt: skip
DUMMY = {"name": "Dummy", "mode": "monster", "damage_dice": "1d2", "target_source": "direct", "attack_target": 40,
         "target_kind": "monster", "hd": 2, "target_hp": 6}  # fmt: skip
"""Hits only on a natural 20 (with natural rolls), for 1 or 2."""
PLAIN = {"natural_rolls": False}
"""The oracle's rules: no natural 20s, so no critical Wounds."""

run = partial(cases.run, "phases")
chance = cases.chance
exact = partial(cases.chained, "phases", FORECAST)


def full(f: dict) -> dict:
    """An entry with every field that applies to it (the declaration's defaults otherwise)."""
    fields = SYSTEM.calculator("forecast")["inputs"][0]["fields"]
    out = {**{d["name"]: d["default"] for d in fields}, **f}
    return {k: v for k, v in out.items() if all(out.get(c) == w for c, w in _when(fields, k).items())}


def _when(fields: list[dict], name: str) -> dict:
    return next((d.get("when") or {} for d in fields if d["name"] == name), {})


# --- the oracle -----------------------------------------------------------------------------------
def damage_pmf(f: dict, target: dict) -> dict[int, Fraction]:
    """One attack's damage to `target` (a miss as 0), by the damage calculator, natural rolls off."""
    names = [d["name"] for d in SYSTEM.calculator("damage")["inputs"]]
    asked = {k: v for k, v in f.items() if k in names} | {k: target[k] for k in ("defense", "parry_weapon", "cover")}
    asked |= {"natural_rolls": False}
    d = calc.evaluate({"system": "phases", "calculator": "damage", "inputs": asked})["distribution"]
    return {r["x"]: Fraction(int(r["weight"]), int(d["denominator"])) for r in d["pmf"]}


def oracle(
    party: list[dict], foes: list[dict], rounds: int, ties: str = "simultaneous"
) -> list[tuple[Fraction, Fraction]]:
    """[(P(party has won), P(foes have won)) after round k]: lowest HP first; a fighter is
    (HP, Wounds or slots) until down or dead ("out"); each phase by d20, high first."""
    people = [dict(full(f), side=0) for f in party] + [dict(full(f), side=1) for f in foes]
    n = len(people)
    sides = [[i for i in range(n) if people[i]["side"] == s] for s in (0, 1)]
    aims = [sorted(sides[1 - s], key=lambda i: (people[i]["target_hp"], i)) for s in (0, 1)]
    pmf = {(i, j): damage_pmf(people[i], people[j]) for i in range(n) for j in range(n) if i != j}
    rows = SYSTEM.table("wound-severity")
    protection = {r["id"]: r["protection"] for r in SYSTEM.table("armour-wound-protection")}
    knockout = SYSTEM.fact("wounds", "knockout_wound")

    def dies(i: int) -> int:
        f = people[i]
        if f["target_kind"] == "character":
            return f["free_slots"]
        return (
            max(
                SYSTEM.fact("killing-monsters", "minimum_wounds"),
                f["hd"] // SYSTEM.fact("killing-monsters", "hd_divisor"),
            )
            + 1
        )

    def blow(i: int, health: tuple, x: int):
        hp, count = health
        if x <= hp:
            return (hp - x, count)
        read = x - hp - protection[people[i]["armour"]]
        row = next(
            (
                r
                for r in rows
                if r["damage"]["min"] <= read and (r["damage"]["max"] is None or read <= r["damage"]["max"])
            ),
            None,
        )
        if read < 1 or row is None:
            return (0, count)
        add = 1 if people[i]["target_kind"] == "monster" else row["severity"]
        if count + add >= dies(i) or row["name"] == knockout:
            return "out"
        return (0, count + add)

    phase = [0 if f["attack_type"] == "ranged" else 1 for f in people]
    orders: Counter = Counter()
    for rolls in product(range(1, 21), repeat=n):
        groups = []
        for p in (0, 1):
            keyed = sorted((-rolls[i], i) for i in range(n) if phase[i] == p)
            for _, g in groupby(keyed, key=lambda t: t[0]):
                members = tuple(i for _, i in g)
                groups += [members] if ties == "simultaneous" else [(i,) for i in members]
        orders[tuple(groups)] += 1
    if ties == "reroll":  # every order of a phase's fighters equally likely: rebuild from permutations
        from itertools import permutations

        orders = Counter()
        each = [list(permutations([i for i in range(n) if phase[i] == p])) for p in (0, 1)]
        for a, b in product(*each):
            orders[tuple((i,) for i in (*a, *b))] += 1
    whole = sum(orders.values())
    chances = {order: Fraction(count, whole) for order, count in orders.items()}
    start = tuple((f["target_hp"], 0) for f in people)

    def blows(i: int, t: int, h: tuple) -> list[tuple[Any, Fraction]]:
        return [(blow(t, h, x), r) for x, r in pmf[(i, t)].items()]

    return cases.rolled_each_round(start, chances, sides, aims, lambda h: h == "out", blows, rounds)


ARCHER = {**HERO, "name": "Archer", "attack_type": "ranged", "target_hp": 2, "free_slots": 2}


@pytest.mark.parametrize(
    ("party", "foes", "rounds", "ties"),
    [
        ([HERO], [ORC], 3, "simultaneous"),
        ([HERO], [ORC], 2, "reroll"),
        ([HERO, ARCHER], [ORC], 2, "simultaneous"),
        ([HERO], [ORC, {**ORC, "name": "Orc 2", "target_hp": 1, "armour": "leather"}], 2, "simultaneous"),
    ],
)
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, rounds, ties):
    got = exact(party, foes, rounds=rounds, ties=ties, **PLAIN)
    assert [(got.party.within[k], got.foes.within[k]) for k in range(rounds)] == oracle(party, foes, rounds, ties)


TARGET = (
    "defense",
    "parry_weapon",
    "cover",
    "armour",
    "target_kind",
    "hd",
    "free_slots",
    "target_hp",
    "max_hp",
    "morale",
)
SAFE = {"name": "Hero", "target_kind": "character", "free_slots": 20, "target_hp": 21}
"""21 HP: the dummy's 1–2 on a natural 20 cannot take it below 0 in 10 rounds."""


def duel(hero: dict, foe: dict, **rulings) -> dict:
    """The round calculator: the hero's attack against the foe, under the same rulings."""
    fields = SYSTEM.calculator("forecast")["inputs"][0]["fields"]
    attacker = {k: v for k, v in full(hero).items() if k not in (*TARGET, "name")}
    target = {k: v for k, v in full(foe).items() if k in TARGET}
    asked = attacker | target | rulings
    asked = {k: v for k, v in asked.items() if all(asked.get(c) == w for c, w in _when(fields, k).items())}
    return calc.evaluate({"system": "phases", "calculator": "round", "inputs": asked})


DUEL = (
    {**SAFE, "roll_mode": "advantage", "weapon_property": "finesse", "modifiers": 1},
    {**DUMMY, "defense": 1, "armour": "leather", "hd": 4, "target_hp": 5, "max_hp": 7, "morale": 7},
)


@cache
def _default_duel() -> chain.Forecast:
    return exact([DUEL[0]], [DUEL[1]], rounds=10)


@pytest.mark.parametrize(
    "rulings",
    [
        {},
        {"natural_rolls": False},
        {"advantage_reading": "literal"},
        {"finesse_reading": "if-higher"},
        {"melee_modifiers": False},
        {"count_reading": "severity"},
        {"wound_damage": "whole"},
        {"instant_death": "exactly"},
        {"critical_wound": "ignored"},
        {"morale_reading": "at-least"},
        {"morale_when": "at-once"},
    ],
)
def test_one_against_one_equals_the_round_calculators_duel(rulings):
    """The party's chance to win within k rounds is the round calculator's chance that the foe is out
    of the fight (down, dead or fled) within k rounds, under every reading of every ruling; each
    other reading changes the answer."""
    hero, foe = DUEL
    got = exact([hero], [foe], rounds=10, **rulings)
    if rulings and "melee_modifiers" not in rulings:  # each other reading changes the answer
        assert got.party.within != _default_duel().party.within
    out = duel(hero, foe, **rulings)["rounds"][0]
    assert out["label"] == "Out of the fight"
    assert [got.party.within[k] for k in range(10)] == [Fraction(w["fraction"]) for w in out["within"]]
    if rulings.get("natural_rolls") is False:  # the dummy never hits: the fight lasts as long as the foe
        assert got.over.mean == Fraction(out["mean"]["fraction"])


def test_melee_modifiers_both_readings():
    """A bare margin in melee (other reading) leaves out the damage modifiers (the finesse duel above
    replaces the margin, so there they change nothing)."""
    hero, foe = {**SAFE, "modifiers": 3}, DUEL[1]
    bare = exact([hero], [foe], rounds=3, melee_modifiers=False).party.within
    assert bare != exact([hero], [foe], rounds=3).party.within
    out = duel(hero, foe, melee_modifiers=False)["rounds"][0]
    assert list(bare) == [Fraction(w["fraction"]) for w in out["within"][:3]]


def test_two_identical_fighters_win_with_equal_chance():
    """Same phase, same d20, equal rolls simultaneous: neither side has the edge."""
    answer = run([{**HERO, "name": "A", "free_slots": 2}], [{**HERO, "name": "B", "free_slots": 2}], rounds=6)
    assert chance(answer, "Party wins") == chance(answer, "Foes win") > 0
    assert chance(answer, "Both sides fall") > 0


KILLER = {"target_source": "direct", "attack_target": -20, "target_kind": "character", "free_slots": 1, "target_hp": 0}
"""Hits on anything but a natural 1; any hit on its 0-HP, one-slot twin is a Wound that kills."""
HIT = Fraction(19, 20)


def test_the_texts_equal_rolls_both_readings():
    """Equal rolls act at the same time (ruling): each strikes first with 19/40 and both strike at
    once with 1/20; rolled again (other reading), each strikes first with 1/2 and never both."""
    ann, bo = {**KILLER, "name": "Ann"}, {**KILLER, "name": "Bo"}
    together = run([ann], [bo], rounds=1)
    first = HIT + (1 - HIT) * HIT
    assert chance(together, "Party wins") == Fraction(19, 40) * first + Fraction(1, 20) * HIT * (1 - HIT)
    assert chance(together, "Both sides fall") == Fraction(1, 20) * HIT * HIT
    again = run([ann], [bo], rounds=1, ties="reroll")
    assert chance(again, "Party wins") == chance(again, "Foes win") == Fraction(1, 2) * first
    assert not any(c["label"] == "Both sides fall" for c in again["chances"])


def test_ranged_phase_comes_before_melee():
    archer = {**KILLER, "name": "Archer", "attack_type": "ranged"}
    answer = run([archer], [{**KILLER, "name": "Brute"}], rounds=1)
    assert chance(answer, "Party wins") == HIT  # the arrow in the ranged phase, before any melee
    assert chance(answer, "Foes win") == (1 - HIT) * HIT


def test_the_texts_orc_of_morale_7_both_readings():
    """The round calculator's default attacker against the 6-HP, 2-HD orc of Morale 7: out of the
    fight in the first round 1/20 (its roll waits for the next morale phase) or 1/20 + 1/20 × 15/36
    = 17/240 (the roll at once); the foes break by morale only in the second case."""
    orc = {**DUMMY, "name": "Orc", "defense": 2, "hd": 2, "target_hp": 6, "morale": 7}
    waits = run([SAFE], [orc], rounds=1)
    assert chance(waits, "Party wins") == Fraction(1, 20)
    assert chance(waits, "Foes break by morale") == 0
    at_once = run([SAFE], [orc], rounds=1, morale_when="at-once")
    assert chance(at_once, "Party wins") == Fraction(17, 240)
    assert chance(at_once, "Foes break by morale") == chance(at_once, "Orc flees") == Fraction(1, 20) * Fraction(15, 36)
    later = run([SAFE], [orc], rounds=2)
    assert chance(later, "Foes break by morale") > 0


def test_too_many_orders_of_rerolled_ties_are_refused_before_they_are_listed():
    """Twelve melee fighters: 12! orders a round under the re-roll reading, refused at once."""
    party = [{**HERO, "name": f"H{i}"} for i in range(6)]
    foes = [{**ORC, "name": f"O{i}"} for i in range(6)]
    with pytest.raises(InputError) as err:
        run(party, foes, ties="reroll")
    assert err.value.input == "ties" and "479,001,600 orders" in err.value.reason


@pytest.mark.parametrize("n", [4, 6])
def test_many_fighters_in_one_phase_are_refused_before_their_orders_are_listed(n):
    """With a d20 each, the orders of 2n fighters in one phase grow as the Fubini numbers: refused
    at once, naming the count (6 against 6 would otherwise never answer)."""
    tiny = {"target_source": "direct", "attack_target": 8, "target_kind": "character", "free_slots": 1, "target_hp": 0}
    start = time.process_time()
    with pytest.raises(InputError) as err:
        run([{**tiny, "name": f"H{i}"} for i in range(n)], [{**tiny, "name": f"O{i}"} for i in range(n)])
    assert "orders of who acts when" in err.value.reason and "fewer fighters" in err.value.reason
    assert time.process_time() - start < 1


@pytest.mark.parametrize("extra", [{}, {"ties": "reroll"}, {"morale_when": "at-once"}])
def test_a_critical_wound_that_cannot_decide_a_death_is_merged_away(extra, monkeypatch):
    """Last round's critical Wound is dropped at the round's end where no blows of the next round
    could make it decide a death (the Wounds that kill less the most a round can add): the same
    answers, every chance round by round and every mean, from fewer states than keeping it."""
    party = [{**HERO, "name": "A", "free_slots": 8, "target_hp": 4}, {**HERO, "name": "B", "free_slots": 6}]
    foes = [{**ORC, "name": "Orc", "morale": 7, "hd": 3, "target_hp": 5}]
    merged = exact(party, foes, **extra)
    monkeypatch.setattr(phases_round, "LUMP_CRITICALS", False)
    kept = exact(party, foes, **extra)
    assert dataclasses.replace(merged, states=0) == dataclasses.replace(kept, states=0)
    assert merged.states < kept.states


def test_the_rerolled_orders_listed_have_their_own_bound(monkeypatch):
    """The re-rolled ties' orders are counted in turns to list (`MAX_LISTED`), their own bound, not
    the chain's steps: one against two in one phase lists 3! × 3 = 18 turns, refused past 17."""
    from calc.systems.phases import forecast as phases_forecast

    fight = ([HERO], [ORC, {**ORC, "name": "Orc 2"}])
    assert run(*fight, ties="reroll")["chances"]
    monkeypatch.setattr(phases_forecast, "MAX_LISTED", 17)
    with pytest.raises(InputError) as err:
        run(*fight, ties="reroll")
    assert err.value.input == "ties" and "18 turns to list: more than the 17 listed" in err.value.reason
