"""Active Defense's forecast from mid-round (calc/forecast/rest_of_round.py): a defender's reserve
actions "do not carry over into the following round" (reserve-actions), and those it has spent this
round are gone for the rest of it. The forecast's fighter carries `reserves_spent` (this round's,
as the tracker counts them): the rest of this round starts from the reserves held less those
spent, every later round from the reserves held. The oracle follows the fight attack by attack,
each attack's chances and damage read from the damage calculator (as tests/calc/ad_fight_oracle.py
does), apart from calc.forecast; both readings of the spending ruling."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

import calc
from calc import fight
from calc.errors import InputError
from tests.calc.ad_fight_oracle import ATTACK, DEFENDER
from tests.calc.fight_helpers import Fight
from tests.calc.forecast_cases import chance, full

P1 = full("active-defense", {"name": "P1", "attack_skill": 3, "attack_ability": 1, "damage_dice": "1d6",
                             "defender_dex": 3, "defense": "none", "target_hp": 6})  # fmt: skip
P2 = full("active-defense", {"name": "P2", "attack_skill": 1, "attack_ability": 0, "damage_dice": "2d4",
                             "damage_strength": 1, "defender_dex": 1, "defense": "none", "target_hp": 5})  # fmt: skip
Q = full("active-defense", {"name": "Q", "attack_skill": 2, "attack_ability": 1, "damage_dice": "1d8",
                            "defender_dex": 2, "armor": 1, "defense": "block", "block_skill": 3, "defender_str": 1,
                            "reserves": 1, "target_hp": 7})  # fmt: skip
PEOPLE = [P1, P2, Q]
SIDE = [0, 0, 1]
ORDER = [0, 2, 1]  # P1, Q, P2 (Dexterity 3, 2, 1)
ROUNDS = 3


@cache
def attack(i: int, t: int, defended: bool) -> tuple[Fraction, dict[int, Fraction]]:
    """(P lands, damage when it lands) of fighter i's attack on t, blocked or not."""
    me, them = PEOPLE[i], PEOPLE[t]
    asked = {k: me[k] for k in ATTACK} | {k: them[k] for k in DEFENDER}
    asked |= {"attacker_two_weapon": "none", "damage_dice": me["damage_dice"]}
    asked |= {"defense": them["defense"] if defended else "none"}
    r = calc.evaluate({"system": "active-defense", "calculator": "damage", "inputs": asked})
    lands = next(Fraction(c["p"]["fraction"]) for c in r["chances"] if c["label"] == "Attack lands")
    d = r["distribution"]
    return lands, {row["x"]: Fraction(int(row["weight"]), int(d["denominator"])) for row in d["pmf"]}


def turns(dist: dict, who: list[int], spend: str) -> dict:
    """Each of `who` in turn, if up, attacks the first enemy up; a reserve spent on an attack that
    beats Passive Defense (the ruling) or on every attack while one is left (the other reading)."""
    for i in who:
        nxt: dict = {}
        for (h, left), p in dist.items():
            t = next((j for j in range(3) if SIDE[j] != SIDE[i] and h[j] > 0), None)
            if h[i] <= 0 or t is None:
                nxt[(h, left)] = nxt.get((h, left), 0) + p
                continue
            beats, dealt = attack(i, t, False)
            ways = [(left[t], Fraction(1), beats, dealt)]
            if left[t] and PEOPLE[t]["defense"] != "none":
                lands, blocked = attack(i, t, True)
                used = beats if spend == "when-hit" else Fraction(1)
                ways = [(left[t] - 1, used, lands / used, blocked), (left[t], 1 - used, Fraction(0), dealt)]
            for after, q, land, dmg in ways:
                for x, r in [(0, 1 - land)] + [(x, land * r) for x, r in dmg.items()]:
                    if q * r:
                        key = (tuple(max(v - x, 0) if j == t else v for j, v in enumerate(h)),
                               tuple(after if j == t else v for j, v in enumerate(left)))  # fmt: skip
                        nxt[key] = nxt.get(key, 0) + p * q * r
        dist = nxt
    return dist


def oracle(acted: int, spent: tuple[int, int, int], spend: str) -> tuple[Fraction, Fraction]:
    """P(party wins), P(foes win) within ROUNDS: round 1 the rest of this round from the reserves
    left, every later round the whole order from the reserves held."""
    held = tuple(p["reserves"] if p["defense"] != "none" else 0 for p in PEOPLE)
    start = tuple(p["target_hp"] for p in PEOPLE)
    dist = turns({(start, tuple(max(a - b, 0) for a, b in zip(held, spent, strict=True))): Fraction(1)},
                 ORDER[acted:], spend)  # fmt: skip
    for _ in range(ROUNDS - 1):
        healths: dict = {}
        for (h, _), p in dist.items():
            healths[h] = healths.get(h, 0) + p
        fresh: dict = {}
        for h, p in healths.items():
            over = all(h[j] <= 0 for j in (0, 1)) or h[2] <= 0
            for s, q in ({(h, held): Fraction(1)} if over else turns({(h, held): Fraction(1)}, ORDER, spend)).items():
                fresh[s] = fresh.get(s, 0) + p * q
        dist = fresh
    party = sum((p for (h, _), p in dist.items() if h[2] <= 0 and any(h[j] > 0 for j in (0, 1))), Fraction(0))
    foes = sum((p for (h, _), p in dist.items() if h[2] > 0 and all(h[j] <= 0 for j in (0, 1))), Fraction(0))
    return party, foes


def forecast(acted: int, spent: tuple[int, int, int], spend: str) -> tuple[Fraction, Fraction]:
    people = [{**p, "reserves_spent": s} for p, s in zip(PEOPLE, spent, strict=True)]
    got = calc.evaluate({"system": "active-defense", "calculator": "forecast", "inputs": {
        "party": people[:2], "foes": people[2:], "order": [{"name": PEOPLE[i]["name"]} for i in ORDER],
        "acted": acted, "rounds": ROUNDS, "party_targets": "listed", "foes_targets": "listed",
        "spend_reserve": spend}})  # fmt: skip
    return chance(got, "Party wins"), chance(got, "Foes win")


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
@pytest.mark.parametrize("spent", [(0, 0, 1), (0, 0, 0)])
def test_the_rest_of_the_round_starts_from_the_reserves_left(spent: tuple[int, int, int], spend: str) -> None:
    """P1 has attacked Q this round, Q has acted: P2's attack meets Q's reserve only if unspent."""
    assert forecast(2, spent, spend) == oracle(2, spent, spend)


def test_spent_reserves_change_the_answer() -> None:
    """So the test above can tell the readings apart: the fresh reserve gives another figure."""
    assert oracle(2, (0, 0, 1), "when-hit") != oracle(2, (0, 0, 0), "when-hit")


def test_spent_is_refused_without_the_order_and_past_what_is_held() -> None:
    with pytest.raises(InputError) as e:
        calc.evaluate({"system": "active-defense", "calculator": "forecast",
                       "inputs": {"party": [P1], "foes": [{**Q, "reserves_spent": 1}]}})  # fmt: skip
    assert e.value.input == "foes[1].reserves_spent"
    with pytest.raises(InputError) as e:
        calc.evaluate({"system": "active-defense", "calculator": "forecast", "inputs": {
            "party": [P1], "foes": [{**Q, "reserves_spent": 2}], "order": [{"name": "P1"}, {"name": "Q"}],
            "acted": 1}})  # fmt: skip
    assert e.value.input == "foes[1].reserves_spent"


def test_the_answer_states_the_reserves_left() -> None:
    people = [{**p, "reserves_spent": s} for p, s in zip(PEOPLE, (0, 0, 1), strict=True)]
    got = calc.evaluate({"system": "active-defense", "calculator": "forecast", "inputs": {
        "party": people[:2], "foes": people[2:], "order": [{"name": PEOPLE[i]["name"]} for i in ORDER],
        "acted": 2}})  # fmt: skip
    said = [s for s in got["steps"] if "reserve actions left" in s["text"]]
    assert len(said) == 1 and "Q 0 of 1" in said[0]["text"] and said[0]["url"]


def test_the_trackers_forecast_carries_the_reserves_spent_this_round() -> None:
    """P1's attack blocked by Q (a reserve spent), Q's turn passed, P2 to act: the Forecast panel's
    request carries Q's spent reserve and P1's complex action, spent on its attack (none held in
    reserve for the rest of the round: 004, Reserve Actions), and answers as the oracle does from
    there (asked with the oracle's targets: the first enemy listed)."""
    round_inputs = {d["name"] for d in calc.inputs.data.system("active-defense").calculator("round")["inputs"]}
    f = Fight("active-defense")
    for p, side in zip(PEOPLE, ("pc", "pc", "foe"), strict=True):
        values = {k: v for k, v in p.items() if k in round_inputs - {"target_hp"}}
        f.add(p["name"], side, p["target_hp"], dexterity=p["defender_dex"], **values)
    f.round()
    assert f.order() == ["P1", "Q", "P2"]
    f.do("attack", id=f.ident("P1"), target=f.ident("Q"), roll=10, defense_roll=20, faces=[6])
    assert f.who("Q")["reserves_left"] == 0 and f.who("Q")["hp"] == Q["target_hp"]
    f.do("next_turn").do("next_turn")
    got = fight.forecast("active-defense", f.state)
    asked = got["request"]["inputs"]
    assert [e["reserves_spent"] for e in asked["party"] + asked["foes"]] == [1, 0, 1]
    assert asked["acted"] == 2
    want = oracle(2, (1, 0, 1), "when-hit")
    policy = {"rounds": ROUNDS, "foes_targets": "listed", "party_targets": "listed"}  # the oracle's
    rounds = calc.evaluate({**got["request"], "inputs": {**asked, **policy}})
    assert (chance(rounds, "Party wins"), chance(rounds, "Foes win")) == want


def test_reserves_lowered_after_spending_count_as_none_left() -> None:
    """Two blocks spent (Ann's attack and her off-hand one, a turn's two with two weapons), then the
    Orc's reserves edited down to 1 on its card: the card reads none left; the forecast request
    sends 1 spent of 1, not a count the forecast would refuse."""
    f = Fight("active-defense")
    f.add("Ann", "pc", 12, dexterity=3, defender_dex=3, attack_skill=4, damage_dice="1d8", off_hand=True)
    o = f.add("Orc", "foe", 30, dexterity=1, defender_dex=1, defense="block", reserves=2, block_skill=3)
    f.round()
    for _ in range(2):  # 15 + 6 − 6, then 15 + 6 − 10: each beats Passive Defense 11, each blocked at 24
        f.do("attack", id=f.ident("Ann"), target=o, roll=15, defense_roll=20, faces=[6])
    edited = [c if c["id"] != o else {**c, "values": {**c["values"], "reserves": 1}} for c in f.state["combatants"]]
    f.do("load", state={**f.state, "combatants": edited})
    assert f.who("Orc")["reserves_left"] == 0
    got = fight.forecast("active-defense", f.state)
    assert got["request"]["inputs"]["foes"][0]["reserves_spent"] == 1
