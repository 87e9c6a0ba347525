"""Countup's turn (calc/fight/economy.py, text lines 11-21): one Primary Action, which attacks at the
attack rate, and one Secondary Action a turn; a Full Round Action takes both; Free Actions are
any number."""

from __future__ import annotations

from tests.calc.test_turn_economy import do, duel, refused


def test_countup_attack_rate_two_refuses_a_third_attack() -> None:
    f, me, foe = duel("countup", {"attacks": 2})
    do(f, "attack", id=me, target=foe, roll=1)
    assert "1 attack left" in f.steps[0]["text"] and f.view["actions"]["attacks_left"] == 1
    do(f, "attack", id=me, target=foe, roll=1)
    err = refused(f, "attack", id=me, target=foe, roll=1)
    assert "has made the attacks its turn plans (2 × Attack (Primary Action))" in err.reason
    err = refused(f, "attack", id=me, target=foe, roll=1, kind="primary")
    assert err.reason.endswith(
        "has made the 2 attacks of its Attack (Primary Action) and has no Primary Action left this turn: "
        "Attack (Primary Action) costs 1 (Primary Actions)"
    )


def test_countup_secondary_once_full_round_takes_both_free_any_number() -> None:
    f, me, foe = duel("countup", {})
    do(f, "act", id=me, kind="secondary")
    assert "no Secondary Action left" in refused(f, "act", id=me, kind="secondary").reason
    assert "Full Round Action costs 1" in refused(f, "act", id=me, kind="full_round").reason
    for _ in range(4):
        do(f, "act", id=me, kind="free")
    do(f, "attack", id=me, target=foe, roll=1)  # the Primary still attacks
    assert "no Primary Action left" in refused(f, "act", id=me, kind="primary_other").reason
    do(f, "next_turn")
    other = f.view["current"]
    do(f, "act", id=other, kind="full_round")
    assert f.view["actions"]["text"] == "0 Primary Action left, 0 Secondary Action left"
    err = refused(f, "attack", id=other, target=me, roll=1)
    assert "no Primary Action left" in err.reason
