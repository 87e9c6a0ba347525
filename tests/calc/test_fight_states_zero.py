"""Action Points at 0 hit points (issue #35, item 3): "If your hit points ever fall below 0, you
fall [Unconscious] and begin [Dying]" (line 77): at 0 a combatant is conscious, acts, and is
attacked like any other; its odds, Resolve and the forecast take it (the round calculator's
target hit points start at 0)."""

from __future__ import annotations

from fractions import Fraction

from fight_helpers import Fight

import calc
from calc import fight


def at_zero() -> Fight:
    f = Fight("action-points")
    f.add("Hero", side="pc", hp=10, constitution=2)
    f.add("Orc", hp=10)
    f.damage("Hero", 10)
    f.round()
    while f.current() != "Orc":
        f.do("next_turn")
    return f


def test_at_zero_the_combatant_is_conscious_and_a_target() -> None:
    f = at_zero()
    hero = f.who("Hero")
    assert (hero["hp"], hero["state"], hero["acts"]) == (0, "", True)
    odds = f.view["odds"]
    target = next(t for t in odds["targets"] if t["name"] == "Hero")
    assert "error" not in target
    assert target["request"]["inputs"]["target_hp"] == 0
    assert odds["target"] == f.ident("Hero")


def test_at_zero_any_damage_takes_it_below_0() -> None:
    """The chance the Orc's turn drops a 0-HP target is the chance its turn deals at least 1."""
    f = at_zero()
    before = fight.before("action-points", f.state, f.ident("Orc"), f.ident("Hero"))
    target = next(t for t in f.view["odds"]["targets"] if t["name"] == "Hero")
    answer = calc.evaluate(target["request"])
    pmf = answer["distribution"]
    none = next((Fraction(int(p["weight"]), int(pmf["denominator"])) for p in pmf["pmf"] if p["x"] == 0), Fraction(0))
    assert Fraction(before["p"]["fraction"]) == 1 - none
    assert answer["chances"][0]["label"] == "Unconscious in 1 round"
    assert Fraction(answer["chances"][0]["p"]["fraction"]) == 1 - none


def test_at_zero_the_forecast_keeps_it_in_the_fight() -> None:
    f = at_zero()
    answer = fight.forecast("action-points", f.state)
    assert answer["left_out"] == []
    hero = next(x for x in answer["request"]["inputs"]["party"] if x["name"] == "Hero")
    assert hero["target_hp"] == 0


def test_at_zero_resolve_hits_it_below_0() -> None:
    f = at_zero()
    f.do("attack", id=f.ident("Orc"), target=f.ident("Hero"), roll=20, damage=3)
    assert f.who("Hero")["hp"] < 0 and f.who("Hero")["state"] == "Dying"
