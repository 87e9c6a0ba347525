"""The forecast started mid-round (`order`, `acted`: calc/forecast/rest_of_round.py): tiny fights
against a brute-force oracle over the dice faces (Countup: initiative rolled each round; Active
Defense: rolled once, the known order kept), nobody acted yet averaged over the initiative orders
equals today's forecast, everyone acted equals a fresh round shifted by one, bad values named."""

from __future__ import annotations

import importlib
from fractions import Fraction
from itertools import product

import pytest

import calc.systems.active_defense  # noqa: F401  (the packages shadow their forecast modules' names)
import calc.systems.countup  # noqa: F401
from calc.errors import InputError
from calc.forecast import chain, fixed_order, rest_of_round
from calc.inputs import data, declared

CU = data.system("countup")
AD = data.system("active-defense")
CU_FORECAST = importlib.import_module("calc.systems.countup.forecast")
AD_FORECAST = importlib.import_module("calc.systems.active_defense.forecast")

A = {"name": "A", "target": "npc", "to_hit": 2, "ability_bonus": 0, "misc": 0, "ac": 12, "target_hp": 4,
     "dice": "1d6", "strength_bonus": 0, "modifier": 0}  # fmt: skip
B = {**A, "name": "B", "to_hit": 0, "target_hp": 2, "dice": "1d4", "modifier": 1}
ORC = {**A, "name": "O", "to_hit": 1, "ac": 11, "target_hp": 5, "dice": "1d6", "modifier": 2}
CU_RULES = {"ties": "listed", "party_targets": "listed", "foes_targets": "listed", "natural_rolls": False}


def typed(system: data.SystemData, raw: dict) -> dict:
    return declared.validate(system.calculator("forecast")["inputs"], raw)


def countup(party: list[dict], foes: list[dict], **extra) -> chain.Forecast:
    values = typed(CU, {"party": party, "foes": foes, **CU_RULES, **extra})
    fight = CU_FORECAST.build(values, CU)
    return chain.forecast(rest_of_round.mid_round(fight, values), values["rounds"])


# --- the oracle: every die face, kept apart from calc/ -----------------------------------------
def sides(dice: str) -> int:
    count, die = dice.split("d")
    assert count == "1"
    return int(die)


def cu_blow(att: dict, dfn: dict) -> dict[int, Fraction]:
    """Countup: d20 + to-hit + ability bonus + misc ≥ AC hits; a hit deals the die + Strength bonus
    (never below 0); the damage of one attack (a miss as 0), face by face."""
    n = sides(att["dice"])
    out: dict[int, Fraction] = {}
    for d20, face in product(range(1, 21), range(1, n + 1)):
        hit = d20 + att["to_hit"] + att["ability_bonus"] + att["misc"] >= dfn["ac"]
        x = max(face + att["strength_bonus"], 0) if hit else 0
        out[x] = out.get(x, 0) + Fraction(1, 20 * n)
    return out


def ad_blow(att: dict, dfn: dict) -> dict[int, Fraction]:
    """Active Defense: d20 (a natural 20 counts 30, a 1 counts −10) + skill + ability + modifier
    ≥ 10 + the defender's Dexterity lands; damage = die + Strength − armour, never below 0."""
    n = sides(att["damage_dice"])
    out: dict[int, Fraction] = {}
    for d20, face in product(range(1, 21), range(1, n + 1)):
        roll = 30 if d20 == 20 else -10 if d20 == 1 else d20
        lands = roll + att["attack_skill"] + att["attack_ability"] + att["attack_modifier"] >= 10 + dfn["defender_dex"]
        x = max(face + att["damage_strength"] - dfn["armor"], 0) if lands else 0
        out[x] = out.get(x, 0) + Fraction(1, 20 * n)
    return out


def turns(fighters: list[dict], order: list[int], hp: tuple, blow) -> dict[tuple, Fraction]:
    """Each fighter of `order` in turn, if up (hit points above 0), hits the first foe up in the
    listed order."""
    dist = {hp: Fraction(1)}
    for i in order:
        nxt: dict[tuple, Fraction] = {}
        for h, p in dist.items():
            foes = [j for j, f in enumerate(fighters) if f["side"] != fighters[i]["side"] and h[j] > 0]
            if h[i] <= 0 or not foes:
                nxt[h] = nxt.get(h, 0) + p
                continue
            t = foes[0]
            for x, q in blow(fighters[i], fighters[t]).items():
                after = (*h[:t], h[t] - x, *h[t + 1 :])
                nxt[after] = nxt.get(after, 0) + p * q
        dist = nxt
    return dist


def cu_orders(fighters: list[dict]) -> dict[tuple[int, ...], Fraction]:
    """Every d10 face of every fighter: lower totals first, the party before the foes on a tie,
    then the listed order."""
    out: dict[tuple[int, ...], Fraction] = {}
    whole = 10 ** len(fighters)
    for faces in product(range(1, 11), repeat=len(fighters)):
        key = [(faces[i] + f["modifier"], f["side"] != "party", i) for i, f in enumerate(fighters)]
        order = tuple(i for *_, i in sorted(key))
        out[order] = out.get(order, 0) + Fraction(1, whole)
    return out


def oracle(fighters: list[dict], first: list[int], later, rounds: int, blow) -> tuple[list, list]:
    """P(party wins within k), P(foes win within k) for k = 1…rounds: round 1 is `first`, every
    later round one of `later()`'s orders."""
    dist = turns(fighters, first, tuple(f["target_hp"] for f in fighters), blow)
    won: tuple[list, list] = ([], [])
    for k in range(rounds):
        if k:
            nxt: dict[tuple, Fraction] = {}
            for h, p in dist.items():
                if over(fighters, h):
                    nxt[h] = nxt.get(h, 0) + p
                    continue
                for order, q in later().items():
                    for after, r in turns(fighters, list(order), h, blow).items():
                        nxt[after] = nxt.get(after, 0) + p * q * r
            dist = nxt
        for n, side in enumerate(("foes", "party")):  # the party wins when every foe is down
            won[n].append(sum(p for h, p in dist.items() if down(fighters, h, side) and not down(fighters, h, "x")))
    return won


def down(fighters: list[dict], h: tuple, side: str) -> bool:
    if side == "x":  # both sides down
        return down(fighters, h, "party") and down(fighters, h, "foes")
    return all(h[i] <= 0 for i, f in enumerate(fighters) if f["side"] == side)


def over(fighters: list[dict], h: tuple) -> bool:
    return down(fighters, h, "party") or down(fighters, h, "foes")


def sided(party: list[dict], foes: list[dict]) -> list[dict]:
    return [{**f, "side": "party"} for f in party] + [{**f, "side": "foes"} for f in foes]


def names(order: list[int], fighters: list[dict]) -> list[dict]:
    return [{"name": fighters[i]["name"]} for i in order]


# --- Countup: initiative rolled every round ---------------------------------------------------
@pytest.mark.slow  # the oracle walks every roll of every round: seconds each
@pytest.mark.parametrize(("order", "acted"), [([0, 2, 1], 1), ([2, 1, 0], 0), ([1, 0, 2], 2), ([0, 1, 2], 3)])
def test_countup_mid_round_equals_the_oracle(order, acted):
    fighters = sided([A, B], [ORC])
    got = countup([A, B], [ORC], order=names(order, fighters), acted=acted, rounds=3)
    party, foes = oracle(fighters, order[acted:], lambda: cu_orders(fighters), 3, cu_blow)
    assert list(got.party.within) == party
    assert list(got.foes.within) == foes


@pytest.mark.slow
@pytest.mark.parametrize(("order", "acted"), [([0, 2, 1], 1), ([2, 1, 0], 0)])
def test_countup_first_round_rules_only_in_round_one(order, acted):
    """Fighters who must move and draw have no attack in the fight's first round: the rest of
    round 1 has no attack at all, the rest of round 2 is an ordinary round (the oracle's)."""
    slow = [{**f, "first_round": "move-and-draw"} for f in (A, B, ORC)]
    fighters = sided(slow[:2], slow[2:])
    first = countup(slow[:2], slow[2:], order=names(order, fighters), acted=acted, rounds=3, round_reached=1)
    assert first.over.within[0] == 0
    later = countup(slow[:2], slow[2:], order=names(order, fighters), acted=acted, rounds=3, round_reached=2)
    party, foes = oracle(fighters, order[acted:], lambda: cu_orders(fighters), 3, cu_blow)
    assert list(later.party.within) == party
    assert list(later.foes.within) == foes
    assert (list(later.party.within), list(later.foes.within)) != (list(first.party.within), list(first.foes.within))


def test_countup_nobody_acted_averaged_over_the_orders_is_todays_forecast():
    fighters = sided([A, B], [ORC])
    today = countup([A, B], [ORC], rounds=4)
    parts = [
        (p, countup([A, B], [ORC], order=names(list(o), fighters), rounds=4)) for o, p in cu_orders(fighters).items()
    ]
    for get in (lambda f: f.party, lambda f: f.foes, lambda f: f.over):
        assert sum(p * get(f).within[-1] for p, f in parts) == get(today).within[-1]
    assert sum(p * f.over.mean for p, f in parts) == today.over.mean  # the fight's length: a mean always
    assert countup([A, B], [ORC], rounds=4, order=[], acted=0) == today  # no order: today's forecast


def test_countup_everyone_acted_is_a_fresh_round_shifted_by_one():
    fighters = sided([A, B], [ORC])
    fresh = countup([A, B], [ORC], rounds=4)
    later = countup([A, B], [ORC], rounds=5, order=names([2, 0, 1], fighters), acted=3)
    for get in (lambda f: f.party, lambda f: f.foes, lambda f: f.over):
        assert get(later).within == (0, *get(fresh).within)
    assert later.over.mean == fresh.over.mean + 1


# --- Active Defense: initiative rolled once, the known order kept ------------------------------
P = {"name": "P", "attack_skill": 3, "attack_ability": 1, "attack_modifier": 0, "damage_dice": "1d6",
     "damage_strength": 0, "armor": 1, "defender_dex": 2, "defense": "none", "target_hp": 5}  # fmt: skip
Q = {**P, "name": "Q", "attack_skill": 2, "damage_dice": "1d4", "damage_strength": 1, "armor": 0, "defender_dex": 1,
     "target_hp": 4}  # fmt: skip


def active_defense(**extra) -> chain.Forecast:
    values = typed(AD, {"party": [P], "foes": [Q], "initiative_ties": "dexterity", **extra})
    rules, totals, split = AD_FORECAST.build(values, AD)
    known = rest_of_round.known_order(values)
    if known is None:
        return fixed_order.forecast(rules, totals, split, False, values["rounds"])[0]
    return rest_of_round.fixed_forecast(rules, *known, values["rounds"])


@pytest.mark.parametrize(("order", "acted"), [([1, 0], 1), ([0, 1], 1), ([1, 0], 0), ([0, 1], 2)])
def test_active_defense_mid_round_keeps_the_order_and_equals_the_oracle(order, acted):
    fighters = sided([P], [Q])
    got = active_defense(order=names(order, fighters), acted=acted, rounds=4)
    party, foes = oracle(fighters, order[acted:], lambda: {tuple(order): Fraction(1)}, 4, ad_blow)
    assert list(got.party.within) == party
    assert list(got.foes.within) == foes


def test_active_defense_nobody_acted_averaged_over_the_orders_is_todays_forecast():
    fighters = sided([P], [Q])
    chances: dict[tuple[int, ...], Fraction] = {}
    for a, b in product(range(1, 21), repeat=2):  # 1d20 + Dexterity, high first; a tie: the higher Dexterity
        key = sorted(
            [(-(a + P["defender_dex"]), -P["defender_dex"], 0), (-(b + Q["defender_dex"]), -Q["defender_dex"], 1)]
        )
        order = tuple(i for *_, i in key)
        chances[order] = chances.get(order, 0) + Fraction(1, 400)
    today = active_defense(rounds=4)
    parts = [(p, active_defense(order=names(list(o), fighters), rounds=4)) for o, p in chances.items()]
    for get in (lambda f: f.party, lambda f: f.foes, lambda f: f.over):
        assert sum(p * get(f).within[-1] for p, f in parts) == get(today).within[-1]
    assert sum(p * f.over.mean for p, f in parts) == today.over.mean


# --- bad values -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"order": [{"name": "A"}, {"name": "Zed"}, {"name": "O"}]}, "order[2].name"),
        ({"order": [{"name": "A"}, {"name": "O"}]}, "order"),
        ({"order": [{"name": "A"}, {"name": "a"}, {"name": "O"}]}, "order[2].name"),
        ({"order": [{"name": "A"}, {"name": "B"}, {"name": "O"}], "acted": 4}, "acted"),
        ({"acted": 1}, "acted"),
        ({"acted": -1}, "acted"),
    ],
)
def test_bad_values_name_the_field(extra, field):
    with pytest.raises(InputError) as e:
        calc.evaluate(
            {"system": "countup", "calculator": "forecast", "inputs": {"party": [A, B], "foes": [ORC], **extra}}
        )
    assert e.value.input == field


def test_the_answer_states_the_mid_round_assumption():
    fighters = sided([A, B], [ORC])
    request = {"party": [A, B], "foes": [ORC], "order": names([0, 2, 1], fighters), "acted": 1}
    got = calc.evaluate({"system": "countup", "calculator": "forecast", "inputs": request})
    said = [s for s in got["steps"] if s["text"].startswith("Mid-round")]
    assert len(said) == 1 and "O, B still to act" in said[0]["text"] and said[0]["url"]


@pytest.mark.parametrize(
    ("system_id", "extra"),
    [
        ("segments", {}),
        ("phases", {}),
        ("phases", {"ties": "reroll"}),
        ("action-points", {}),
        ("active-defense", {}),
    ],
)
def test_every_system_everyone_acted_is_a_fresh_round_shifted_by_one(system_id, extra):
    """Every kind of round (scripted, with what happens between rounds, fixed order): once everyone
    has acted, the forecast is the fresh one a round later (where the order is rolled once, the
    fresh one under the known order: nobody has acted yet)."""
    decls = {d["name"]: d for d in data.system(system_id).calculator("forecast")["inputs"]}
    every = [{"name": e["name"]} for side in ("party", "foes") for e in decls[side]["default"]]
    fixed = system_id in ("action-points", "active-defense")
    fresh = {**extra, "order": every, "acted": 0} if fixed else extra
    ask = lambda raw: calc.evaluate({"system": system_id, "calculator": "forecast", "inputs": raw})  # noqa: E731
    before = ask({**fresh, "rounds": 3})["chances"]
    later = ask({**extra, "order": every, "acted": len(every), "rounds": 4})["chances"]
    assert [(c["label"].replace("4 rounds", "N"), c["p"]) for c in later] == [
        (c["label"].replace("3 rounds", "N"), c["p"]) for c in before
    ]
