"""The attack at hand in every round calculator's answer (`first_attack`: calc/answers/first_attack.py):
its chance to hit, expected damage and chance to drop the target alone, each against brute force
over every face of that one attack's dice (written from the rules, not from the engines), in a
round of more attacks or of several attackers, so the first attack is not the round."""

from __future__ import annotations

from fractions import Fraction

import pytest
from answers import runner
from test_round import faces
from test_round_attackers import AD_PARTY, AD_TARGET, PH_PARTY, SEG, SEG_PARTY, ap_attacks

from calc.inputs import data as data_mod


def figures(answer: dict) -> tuple[Fraction, Fraction, dict[str, Fraction]]:
    fa = answer["first_attack"]
    drops = {d["label"]: Fraction(d["p"]["fraction"]) for d in fa["drops"]}
    return Fraction(fa["hit"]["fraction"]), Fraction(fa["expected"]["fraction"]), drops


def brute(outcomes: list[int], need: int) -> tuple[Fraction, Fraction]:
    """(expected damage, P(damage ≥ need)) over equally likely outcomes."""
    n = len(outcomes)
    return Fraction(sum(outcomes), n), Fraction(sum(1 for x in outcomes if x >= need), n)


def test_countup_the_first_of_two_attacks() -> None:
    """+7 to hit against AC 14 (d20 ≥ 7), 1d4 + 2 on a hit; 2 attacks a round; an NPC of 5 HP."""
    answer = runner("countup")(
        "round", to_hit=5, ability_from="bonus", ability_bonus=2, misc=0, dice="1d4", damage_misc=0, ac=14,
        attacks=2, target_hp=5,
    )  # fmt: skip
    one = [(x + 2 if a >= 7 else 0) for a, x in faces(20, 4)]
    hit, expected, drops = figures(answer)
    assert hit == Fraction(14, 20)
    assert (expected, drops["Dead"]) == brute(one, 5)
    two = [(x + 2 if a >= 7 else 0) + (y + 2 if b >= 7 else 0) for a, x, b, y in faces(20, 4, 20, 4)]
    assert Fraction(answer["rounds"][0]["within"][0]["fraction"]) == brute(two, 5)[1]  # before its next turn
    assert drops["Dead"] < Fraction(answer["rounds"][0]["within"][0]["fraction"])


def test_countup_first_round_without_an_attack_still_gives_the_attack() -> None:
    """A first round spent moving and drawing has no attack; the attack at hand (the tracker's: it
    is the attacker's turn, it is ready) is still one attack."""
    answer = runner("countup")("round", first_round="move-and-draw", target_hp=3, dice="1d4", damage_misc=0)
    assert Fraction(answer["rounds"][0]["within"][0]["fraction"]) == 0
    assert figures(answer)[2]["Dead"] > 0


def test_segments_the_first_attack_of_a_routine_with_its_multiplier() -> None:
    """AAC0 16 against AC 4 asks 12; the routine's first attack (+1 to hit, 1d4 + 1) backstabs ×2."""
    first = SEG_PARTY[0]
    routine = [first["routine"][0], {"dice": "1d3"}]
    answer = runner("segments")("round", **SEG | {"routine": routine, "multipliers": first["multipliers"]})

    def one(d20: int, dmg: int) -> int:
        return (dmg + 1) * 2 if d20 == 20 or (d20 != 1 and d20 + 1 >= 12) else 0

    hit, expected, drops = figures(answer)
    assert hit == Fraction(10, 20)
    assert (expected, drops["Drops"]) == brute([one(a, x) for a, x in faces(20, 4)], SEG["target_hp"])


@pytest.mark.parametrize("hp", [3, 6])
def test_action_points_the_turns_first_attack(hp: int) -> None:
    """A standard then a quick attack; the standard comes first: +2 against AC 15, 19+ threatens."""
    answer = runner("action-points")(
        "round", standard=1, quick=1, use_preset=False, dice="1d4", threshold=19, multiplier=2, ability=2,
        damage_bonus=1, defense=15, target_hp=hp,
    )  # fmt: skip
    standard = ap_attacks(15)[0]
    below = data_mod.system("action-points").fact("dying", "dying_below")
    hit, expected, drops = figures(answer)
    assert hit == Fraction(sum(1 for (a,) in faces(20) if a + 2 >= 15 or a >= 19), 20)
    assert (expected, drops["Unconscious"]) == brute(standard, hp - below + 1)


def test_active_defense_the_first_attacker_against_the_shared_reserve() -> None:
    """Attacker 1 (+6 against Passive Defense 11) meets the defender's one block (d20 + 4, ties to
    the defender) first; a hit deals 1d2 + 2 − armour 2."""
    answer = runner("active-defense")("round", spend_reserve="when-hit", target_hp=2, attackers=AD_PARTY, **AD_TARGET)

    def total(face: int) -> int:
        return (30 if face == 20 else -10 if face == 1 else face) + 6

    dealt = [x if total(a) >= 11 and block + 4 < total(a) else 0 for a, x, block in faces(20, 2, 20)]
    lands = Fraction(sum(1 for a, _, block in faces(20, 2, 20) if total(a) >= 11 and block + 4 < total(a)), 800)
    hit, expected, drops = figures(answer)
    assert hit == lands
    assert (expected, drops["Drops"]) == brute(dealt, 2)


def test_phases_one_action_a_round_the_attack_is_the_round() -> None:
    """Attack target 10 against Defense 2 asks 12 (natural 20 hits, natural 1 misses), 1d4."""
    run = runner("phases")
    alone = run("round", target_hp=1, hd=2, **PH_PARTY[0])
    hit, expected, drops = figures(alone)
    assert hit == Fraction(sum(1 for (a,) in faces(20) if a != 1 and a >= 12), 20)
    assert expected == hit * Fraction(5, 2)
    assert drops == {r["label"]: Fraction(r["within"][0]["fraction"]) for r in alone["rounds"]}
    party = run("round", target_hp=1, hd=2, attackers=PH_PARTY)
    assert figures(party) == figures(alone)  # the first attacker's attack, whoever follows
    assert figures(party)[2]["Down"] < Fraction(party["rounds"][0]["within"][0]["fraction"])


def test_every_other_calculator_answers_no_first_attack() -> None:
    assert runner("countup")("hit")["first_attack"] is None


@pytest.mark.parametrize("system_id", ["countup", "segments", "phases", "action-points", "active-defense"])
def test_the_round_alone_is_the_same_answer_without_the_attack_at_hand(system_id: str) -> None:
    """`evaluate(..., first_attack=False)` (the odds card's "before it acts again") answers the
    same rounds, without `first_attack`: one round calculator, two ways to call it."""
    from calc import evaluate

    request = {"system": system_id, "calculator": "round", "inputs": {}}
    whole, alone = evaluate(request), evaluate(request, first_attack=False)
    assert whole["first_attack"] is not None and alone["first_attack"] is None
    assert {k: v for k, v in whole.items() if k != "first_attack"} == {
        k: v for k, v in alone.items() if k != "first_attack"
    }
