"""Action-points' turn in the tracker, by the text (002): a combatant's own damage bonus (the
weapon's dice + Strength + one-half the level, a value it does not give adding nothing), the
standard and quick defense's +4 / +2 to AC and SR on attacks against the holder until its next
turn, and stabilizing as the slow action (3 AP) the text makes it."""

from __future__ import annotations

from typing import Any

import pytest

from calc import fight
from calc.errors import InputError
from tests.calc.fight_helpers import Fight

OWN = {"use_preset": False, "dice": "1d8", "threshold": 20, "multiplier": 2}
"""A 1d8 weapon, critical on 20 only (×2): the faces sent make the damage."""


def _taken(f: Fight, ident: str, hp: int) -> int:
    return hp - next(c for c in f.state["combatants"] if c["id"] == ident)["hp"]


def _request(f: Fight, attacker: str, target: str) -> dict[str, Any]:
    odds = f.view["odds"]
    assert odds["attacker"] == attacker
    return next(t for t in odds["targets"] if t["id"] == target)["request"]["inputs"]


# --- 1. damage: the dice + Strength + one-half the level (Power Attack's longsword example) -------


def test_damage_adds_the_combatants_strength_and_half_its_level() -> None:
    """Strength 3 at level 4: 1d8 showing 5 + 3 + 2 = 10 (the text's "Strength and one-half the
    wielder's level added to damage"), not the form's example +3."""
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN, ability=3, level=4)
    o = f.add("Orc", "foe", 40, defense=10)
    f.do("attack", id=a, target=o, roll=15, faces=[5])
    assert _taken(f, o, 40) == 5 + 3 + 4 // 2


def test_odd_level_adds_half_rounded_down() -> None:
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN, ability=2, level=5)
    o = f.add("Orc", "foe", 40, defense=10)
    f.do("attack", id=a, target=o, roll=15, faces=[5])
    assert _taken(f, o, 40) == 5 + 2 + 2


def test_a_combatant_that_gives_no_strength_or_level_adds_nothing_to_its_dice() -> None:
    """No Strength, level or damage bonus given: the dice alone (+0), for its attack roll too."""
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN)
    o = f.add("Orc", "foe", 40, defense=15)
    f.do("attack", id=a, target=o, roll=14, faces=[5])  # 14 + 0 < 15: a miss (Strength 0, not 3)
    assert _taken(f, o, 40) == 0
    f.do("attack", id=a, target=o, roll=15, faces=[5])
    assert _taken(f, o, 40) == 5


def test_a_damage_bonus_given_is_the_combatants_own() -> None:
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN, ability=3, level=4, damage_bonus=7)
    o = f.add("Orc", "foe", 40, defense=10)
    f.do("attack", id=a, target=o, roll=15, faces=[5])
    assert _taken(f, o, 40) == 12


def test_the_odds_ask_the_round_calculator_with_each_combatants_own_damage() -> None:
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN, ability=3, level=4)
    o = f.add("Orc", "foe", 40, **OWN, defense=10)
    f.round({}, 10)
    while f.view["current"] != a:
        f.do("next_turn")
    asked = _request(f, a, o)
    assert asked["damage_bonus"] == 5 and "ability" not in asked  # Strength 3: the declared default
    while f.view["current"] != o:
        f.do("next_turn")
    asked = _request(f, o, a)
    assert asked["damage_bonus"] == 0 and asked["ability"] == 0 and asked["level"] == 0


# --- 3. stabilizing: "As a [Slow Action], another creature can stabilize you" (3 AP) ----------------


def _with_dying() -> tuple[Fight, str, str]:
    """Ann acting in a round, Bob (her ally) dying at -3: (fight, Ann, Bob)."""
    f = Fight("action-points")
    a = f.add("Ann", "pc", 30, **OWN, standard=0, quick=1)
    b = f.add("Bob", "pc", 20)
    f.add("Orc", "foe", 40, defense=10)
    f.damage("Bob", 23)
    f.round({}, 10)
    while f.view["current"] != a:
        f.do("next_turn")
    return f, a, b


def test_stabilizing_spends_the_acting_combatants_slow_action() -> None:
    f, a, b = _with_dying()
    f.do("stabilize", id=b)
    assert f.who("Bob")["stable"]
    assert f.view["actions"]["left"][0]["left"] == 0 and f.state["spent"]["actions"] == {"stabilize": 1}
    assert f.steps[0]["rule"] == "dying" and "(3 AP)" in f.steps[0]["text"]


def test_stabilizing_is_refused_when_the_turn_has_not_3_ap_left() -> None:
    f, a, b = _with_dying()
    orc = f.ident("Orc")
    f.do("attack", id=a, target=orc, roll=1)  # a quick attack: 1 AP
    before = f.state
    with pytest.raises(InputError) as err:
        f.do("stabilize", id=b)
    assert f.state is before
    assert err.value.input == "action.kind"
    assert (
        err.value.reason
        == "Ann has only 2 AP left this turn: Stabilize a dying creature costs 3 (Spending action points)"
    )


def test_stabilizing_outside_a_round_is_not_counted_and_act_does_not_take_it() -> None:
    f = Fight("action-points")
    f.add("Ann", "pc", 30)
    b = f.add("Bob", "pc", 20)
    f.damage("Bob", 23)
    f.do("stabilize", id=b)
    assert f.who("Bob")["stable"] and f.state.get("spent") is None
    g, a, _ = _with_dying()
    with pytest.raises(InputError) as err:
        fight.act("action-points", g.state, {"type": "act", "id": a, "kind": "stabilize"})
    assert "stabilize action" in err.value.reason


# --- 2. defenses: "Your AC and SR receive a +4 bonus until your next turn, but cannot exceed the
# results of this roll" (+2 for a quick defense, which "stacks with Standard Defense, but not with itself")


def _defending(reading: str | None = None) -> tuple[Fight, str, str]:
    """Ann (AC 15, Strength 3: her defense roll is the d20 + 3) acting first, the Orc after her."""
    f = Fight("action-points", {"cap_reading": reading} if reading else None)
    a = f.add("Ann", "pc", 30, **OWN, ability=3, defense=15, bonus=20)
    o = f.add("Orc", "foe", 40, **OWN, defense=10)
    f.round({}, 10)
    assert f.view["current"] == a
    return f, a, o


def _ac(f: Fight, attacker: str, target: str) -> int:
    """The target's AC or SR in the attacker's odds request (15, the declared default, is left out)."""
    return int(_request(f, attacker, target).get("defense", 15))


def _act(f: Fight, ident: str, kind: str, roll: int) -> None:
    """The act action (`Fight.do`'s first argument is named kind)."""
    answer = fight.act(f.system, f.state, {"type": "act", "id": ident, "kind": kind, "roll": roll})
    f.state, f.view, f.steps = answer["state"], answer["view"], answer["steps"]


def _orcs_turn(f: Fight, o: str) -> None:
    f.do("next_turn")
    assert f.view["current"] == o


@pytest.mark.parametrize(
    ("kinds", "faces", "ac"),
    [
        (["standard_defense"], [17], 19),  # roll 20: the full +4
        (["standard_defense"], [14], 17),  # roll 17: AC cannot exceed it
        (["standard_defense"], [10], 15),  # roll 13: below the AC, the raise is 0 (ruling)
        (["quick_defense"], [20], 17),  # +2
        (["quick_defense", "quick_defense"], [20, 20], 17),  # not with itself
        (["standard_defense", "quick_defense"], [20, 20], 21),  # stacks with standard
    ],
)
def test_a_held_defense_raises_the_holders_ac_in_the_odds_against_it(kinds: list, faces: list, ac: int) -> None:
    f, a, o = _defending()
    for kind, face in zip(kinds, faces, strict=True):
        _act(f, a, kind, face)
    assert isinstance(f.state["held"][a][kinds[0]], list)
    _orcs_turn(f, o)
    assert _ac(f, o, a) == ac


def test_the_literal_reading_lowers_the_ac_to_a_low_roll() -> None:
    f, a, o = _defending("literal")
    _act(f, a, "standard_defense", 8)  # 8 + 3 = 11: the AC becomes 11
    _orcs_turn(f, o)
    assert _ac(f, o, a) == 11
    g, b, p = _defending("literal")
    _act(g, b, "standard_defense", 14)  # 17: as under the ruling
    _orcs_turn(g, p)
    assert _ac(g, p, b) == 17


def test_resolve_misses_what_the_raised_ac_turns_away_until_the_holders_next_turn() -> None:
    f, a, o = _defending()
    _act(f, a, "standard_defense", 14)  # AC 17
    _orcs_turn(f, o)
    f.do("attack", id=o, target=a, roll=16)  # 16 + 0 hits AC 15, not AC 17
    assert _taken(f, a, 30) == 0 and "a miss" in f.steps[0]["text"]
    f.do("attack", id=o, target=a, roll=17)
    assert _taken(f, a, 30) > 0
    f.round({}, 10)  # Ann's next turn: the defense ends
    assert f.view["current"] == a and not f.state["held"]
    _orcs_turn(f, o)
    assert _ac(f, o, a) == 15


def test_the_view_says_the_held_defense_and_its_ac() -> None:
    f, a, o = _defending()
    _act(f, a, "standard_defense", 13)
    assert "rolling 13 on the d20" in f.steps[0]["text"]
    _orcs_turn(f, o)
    (row,) = f.view["actions"]["held"]
    assert row["text"] == "Standard defense held: AC or SR 16 until Ann's next turn" and row["rolls"] == [13]


def test_the_defense_roll_is_a_face_of_the_d20_and_only_a_defense_carries_one() -> None:
    f, a, _ = _defending()
    before = f.state
    for kind, face in (("standard_defense", 21), ("standard_defense", 0), ("move", 5)):
        with pytest.raises(InputError) as err:
            _act(f, a, kind, face)
        assert err.value.input == "action.roll" and f.state is before
    bad = {**before, "held": {a: {"standard_defense": [25]}}}
    with pytest.raises(InputError) as err:
        fight.act("action-points", bad, {"type": "view"})
    assert err.value.input == f"held.{a}.standard_defense"
