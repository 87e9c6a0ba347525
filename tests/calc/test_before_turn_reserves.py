"""Active Defense's "drops before it acts again" across the round's end (calc/fight/before_turn.py):
reserve actions "do not carry over into the following round" (reserve-actions), so the attackers
left this round meet the reserves the target has LEFT (held − spent: `resolve.standing`) and those
of the next round meet the reserves held afresh, each list sharing its own in order. The oracle
follows the target's hit points and reserves attack by attack (each attack's chances and damage
read from the damage calculator, as tests/calc/ad_fight_oracle.py does), apart from the round
calculator and before_turn; both readings of the spending ruling."""

from __future__ import annotations

from fractions import Fraction

import pytest

from calc import evaluate, fight
from tests.calc.fight_helpers import Fight

ANN = {"attack_skill": 4, "attack_ability": 2, "damage_dice": "1d8", "damage_strength": 2}
BEA = {"attack_skill": 1, "attack_ability": 1, "damage_dice": "2d6", "damage_strength": 0}  # not Ann's: order tells
ORC = {"defender_dex": 2, "armor": 2, "defense": "block", "block_skill": 3, "defender_str": 1}
ORC_HP = 10
DEFENDER = ("defender_dex", "armor", "defense", "block_skill", "defender_str")


def _attack(mine: dict, defended: bool) -> tuple[Fraction, dict[int, Fraction]]:
    """(P lands, damage when it lands) of `mine`'s attack on the Orc, blocked or not."""
    asked = mine | {k: ORC[k] for k in DEFENDER} | {"attacker_two_weapon": "none", "at_least": 1}
    asked |= {} if defended else {"defense": "none"}
    r = evaluate({"system": "active-defense", "calculator": "damage", "inputs": asked})
    lands = next(Fraction(c["p"]["fraction"]) for c in r["chances"] if c["label"] == "Attack lands")
    d = r["distribution"]
    return lands, {row["x"]: Fraction(int(row["weight"]), int(d["denominator"])) for row in d["pmf"]}


def oracle(rounds: list[tuple[list[dict], int]], spend: str) -> Fraction:
    """P(the Orc at ORC_HP reaches 0) after `rounds`: each (attackers, reserves it holds then), the
    attacks one after another, a reserve spent on an attack that beats Passive Defense (the
    ruling) or on every attack while one is left (the other reading)."""
    taken = {0: Fraction(1)}
    for attackers, reserves in rounds:
        state = {(t, reserves): p for t, p in taken.items()}
        for mine in attackers:
            (beats, dealt), (lands, blocked) = _attack(mine, False), _attack(mine, True)
            nxt: dict[tuple[int, int], Fraction] = {}
            for (t, left), p in state.items():
                if left:
                    used = beats if spend == "when-hit" else Fraction(1)
                    ways = [(left - 1, used, lands / used, blocked), (left, 1 - used, Fraction(0), dealt)]
                else:
                    ways = [(left, Fraction(1), beats, dealt)]
                for after, q, land, dist in ways:
                    for x, r in [(0, 1 - land)] + [(x, land * r) for x, r in dist.items()]:
                        if q * r:
                            key = (min(t + x, ORC_HP), after)
                            nxt[key] = nxt.get(key, 0) + p * q * r
            state = nxt
        taken = {}
        for (t, _), p in state.items():
            taken[t] = taken.get(t, 0) + p
    return taken.get(ORC_HP, Fraction(0))


def at_beas_turn(reserves: int, spend: str, spent: bool) -> Fight:
    """Ann, the Orc, Bea (initiative once: 10 + Dexterity); Ann's attack blocked (a reserve
    spent) or not attacked at all, then on to Bea's turn: the Orc has acted."""
    f = Fight("active-defense")
    f.add("Ann", "pc", 12, **ANN, defender_dex=3)
    f.add("Orc", "foe", ORC_HP, **ORC, reserves=reserves, spend_reserve=spend)
    f.add("Bea", "pc", 12, **BEA, defender_dex=1)
    f.round()
    assert f.order() == ["Ann", "Orc", "Bea"]
    if spent:
        f.do("attack", id=f.ident("Ann"), target=f.ident("Orc"), roll=10, defense_roll=20, faces=[6])
        assert f.who("Orc")["hp"] == ORC_HP and f.who("Orc")["reserves_left"] == reserves - 1
    f.do("next_turn").do("next_turn")
    assert f.current() == "Bea"
    return f


def drops(f: Fight) -> Fraction:
    got = fight.before("active-defense", f.state, f.ident("Bea"), f.ident("Orc"))
    assert [x["names"] for x in got["lists"]] == [["Bea", "Ann"]]
    return Fraction(got["p"]["fraction"])


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
@pytest.mark.parametrize(("reserves", "spent"), [(1, True), (1, False), (2, True), (0, False)])
def test_this_rounds_attackers_meet_the_reserves_left_the_next_rounds_the_fresh_ones(
    reserves: int, spent: bool, spend: str
) -> None:
    f = at_beas_turn(reserves, spend, spent)
    left = reserves - spent
    assert drops(f) == oracle([([BEA], left), ([ANN], reserves)], spend)


def test_one_reserve_shared_over_both_rounds_would_differ() -> None:
    """The figure the oracle gives is not the one a single reserve over the two attacks gives
    (the reading before: so the test above can tell them apart)."""
    f = at_beas_turn(1, "when-hit", False)
    assert drops(f) != oracle([([BEA, ANN], 1)], "when-hit")
    f = at_beas_turn(1, "when-hit", True)
    assert drops(f) != oracle([([BEA, ANN], 1)], "when-hit")


def test_the_reserves_held_afresh_are_stated_with_their_rule() -> None:
    f = at_beas_turn(1, "when-hit", True)
    got = fight.before("active-defense", f.state, f.ident("Bea"), f.ident("Orc"))
    said = [s for s in got["steps"] if "do not carry over" in s["text"]]
    assert len(said) == 1 and said[0]["url"].endswith("#reserve-actions")
    assert [x["drops"] for x in got["lists"]] == [got["p"]]
