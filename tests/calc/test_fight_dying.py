"""Action Points in the fight: dying below 0 (a Constitution check each round, DC 15 + hit points
below 0, a failure costs 1), stabilizing, dead at −10; the worked examples of the dying rule, the
DC ruling both ways, and every face of the check against the dying calculator's own chance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from fight_helpers import Fight

from calc.errors import InputError
from calc.inputs import data as data_mod
from calc.systems.action_points.dying import check_pass


def dying_at(hp: int, con: int, options: dict | None = None) -> Fight:
    f = Fight("action-points", options)
    f.add("Hero", side="pc", hp=10, constitution=con)
    f.add("Orc", hp=10)
    f.damage("Hero", 10 - hp)
    return f


def test_at_zero_a_combatant_still_acts() -> None:
    f = dying_at(0, 2)
    assert (f.who("Hero")["state"], f.who("Hero")["acts"], f.who("Hero")["dying_dc"]) == ("", True, None)


def test_below_zero_a_combatant_is_dying_and_does_not_act() -> None:
    f = dying_at(-1, 2)
    hero = f.who("Hero")
    assert (hero["state"], hero["acts"], hero["dying_dc"]) == ("Dying", False, 16)
    f.do("next_round")
    keys = [d["key"] for d in f.view["pending"]["dice"]]
    assert keys == ["init:c2", "dying:c1"]


@pytest.mark.parametrize(("reading", "face", "after"), [("meets", 20, -9), ("meets", 19, -10), ("exceeds", 20, -10)])
def test_one_hit_point_from_death_both_readings(reading: str, face: int, after: int) -> None:
    """At −9 with Constitution 4 the check is DC 24: a natural 20 gives 24, which passes under the
    ruling and fails when the check must exceed the DC; a failure at −9 is death."""
    f = dying_at(-9, 4, {"dc_ties": reading})
    assert f.who("Hero")["dying_dc"] == 24
    f.round({"dying:c1": face})
    assert f.who("Hero")["hp"] == after
    assert f.who("Hero")["state"] == ("Dying" if after == -9 else "Dead")


def test_two_rounds_until_the_cleric_arrives() -> None:
    """At −8 with Constitution 5 the first check is DC 23 (18+); a failure leaves −9, DC 24 (19+)."""
    f = dying_at(-8, 5)
    assert f.who("Hero")["dying_dc"] == 23
    f.round({"dying:c1": 17})
    assert (f.who("Hero")["hp"], f.who("Hero")["dying_dc"]) == (-9, 24)
    f.round({"dying:c1": 19})
    assert f.who("Hero")["hp"] == -9
    f.do("stabilize", id="c1")
    assert (f.who("Hero")["state"], f.who("Hero")["dying_dc"]) == ("Stable", None)
    f.do("next_round")  # no check, no new combatant: the round starts without a die
    assert f.state["pending"] is None and f.state["round"] == 3 and f.who("Hero")["hp"] == -9


def test_a_stable_combatant_hurt_again_is_dying_and_healed_is_up() -> None:
    f = dying_at(-3, 2)
    f.do("stabilize", id="c1")
    f.damage("Hero", 1)
    assert f.who("Hero")["state"] == "Dying"
    f.do("stabilize", id="c1").heal("Hero", 5)
    hero = f.who("Hero")
    assert (hero["state"], hero["acts"], hero["stable"]) == ("", True, False)


def test_only_the_dying_are_stabilized() -> None:
    f = dying_at(3, 2)
    with pytest.raises(InputError):
        f.do("stabilize", id="c1")


@pytest.mark.parametrize("reading", ["meets", "exceeds"])
@pytest.mark.parametrize("con", [-2, 0, 5])
@pytest.mark.parametrize("hp", [-1, -5, -9])
def test_every_face_of_the_check_agrees_with_the_dying_calculator(reading: str, con: int, hp: int) -> None:
    data = data_mod.system("action-points")
    dc = data.fact("dying", "check_dc_base") - hp
    passed = 0
    for face in range(1, 21):
        f = dying_at(hp, con, {"dc_ties": reading})
        f.round({"dying:c1": face})
        passed += f.who("Hero")["hp"] == hp
    assert Fraction(passed, 20) == check_pass(20, con, dc, reading == "meets")
