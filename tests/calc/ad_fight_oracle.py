"""A brute-force oracle for tiny Active Defense fights, written apart from `calc.forecast`: it rolls
every fighter's d20 for initiative once (every face), groups equal totals (acting together, or split
by the higher Dexterity), then follows the fight round by round with plain Fractions: each attack's
chance to land (undefended, or against a block or dodge) and its damage read from the damage
calculator, the target's reserves shared over the round's attacks in order, a fighter dropped at 0."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import calc
from tests.calc.forecast_cases import follow

ATTACK = ("attack_skill", "attack_ability", "attack_modifier", "critical_penalty", "attacker_light",
          "attacker_training", "attacker_mastery", "attacker_shield", "damage_strength", "critical_bonus")  # fmt: skip
DEFENDER = ("defender_dex", "block_skill", "defender_str", "dodge_skill", "defender_modifier", "defender_ranged",
            "defender_two_weapon", "defender_light", "defender_training", "defender_mastery", "defender_shield",
            "armor")  # fmt: skip


def initiative_orders(dex: list[int], ties: str) -> dict[tuple[tuple[int, ...], ...], Fraction]:
    out: dict[tuple[tuple[int, ...], ...], Fraction] = {}
    each = Fraction(1, 20 ** len(dex))
    for faces in product(range(1, 21), repeat=len(dex)):
        keys = [(f + d, d if ties == "dexterity" else 0) for f, d in zip(faces, dex, strict=True)]
        order = tuple(tuple(i for i in range(len(dex)) if keys[i] == k) for k in sorted(set(keys), reverse=True))
        out[order] = out.get(order, 0) + each
    return out


def oracle(party: list[dict], foes: list[dict], rounds: int, rulings: dict[str, Any] | None = None) -> dict[str, Any]:
    rulings = rulings or {}
    when_hit = rulings.get("spend_reserve", "when-hit") == "when-hit"
    people = [dict(f, side=0) for f in party] + [dict(f, side=1) for f in foes]
    n = len(people)
    sides = [[i for i in range(n) if people[i]["side"] == s] for s in (0, 1)]
    aims = [sorted(sides[1 - s], key=lambda i: (people[i]["target_hp"], i)) for s in (0, 1)]

    @cache
    def attack(i: int, t: int, hand: str, defended: bool) -> tuple[Fraction, tuple[tuple[int, Fraction], ...]]:
        """(P lands, damage when it lands)."""
        me, them = people[i], people[t]
        asked = {k: me[k] for k in ATTACK} | {k: them[k] for k in DEFENDER}
        asked |= {
            "attacker_two_weapon": hand,
            "damage_dice": str(me["off_hand_dice" if hand == "off-hand" else "damage_dice"]),
        }
        asked |= {"defense": them["defense"] if defended else "none"}
        asked |= {k: v for k, v in rulings.items() if k in ("damage_floor", "defense_ties", "natural_rolls_on_defense")}
        r = calc.evaluate({"system": "active-defense", "calculator": "damage", "inputs": asked})
        lands = next(Fraction(c["p"]["fraction"]) for c in r["chances"] if c["label"] == "Attack lands")
        d = r["distribution"]
        return lands, tuple((row["x"], Fraction(int(row["weight"]), int(d["denominator"]))) for row in d["pmf"])

    def out(i: int, h: tuple) -> bool:
        return h[i] <= 0

    def over(h: tuple) -> bool:
        return all(out(i, h) for i in sides[0]) or all(out(i, h) for i in sides[1])

    def one_attack(state: tuple, i: int, hand: str) -> dict[tuple, Fraction]:
        h, left = state
        t = next((j for j in aims[people[i]["side"]] if not out(j, h)), None)
        if t is None:
            return {state: Fraction(1)}
        beats, dealt = attack(i, t, hand, False)
        branches = []  # (chance, P lands, reserve spent)
        if left[t] and people[t]["defense"] != "none":
            lands, _ = attack(i, t, hand, True)
            used = beats if when_hit else Fraction(1)
            branches.append((used, lands / used if used else Fraction(0), True))
            branches.append((1 - used, Fraction(0), False))
        else:
            branches.append((Fraction(1), beats, False))
        res: dict[tuple, Fraction] = {}
        for p, land, spent in branches:
            if not p:
                continue
            nl = tuple(x - 1 if (j == t and spent) else x for j, x in enumerate(left))
            for x, q in [(0, 1 - land)] + [(x, land * q) for x, q in dealt]:
                if not q:
                    continue
                nh = tuple(max(v - x, 0) if j == t else v for j, v in enumerate(h))
                res[(nh, nl)] = res.get((nh, nl), 0) + p * q
        return res

    def one_round(h: tuple, order: tuple) -> dict[tuple, Fraction]:
        if over(h):
            return {h: Fraction(1)}
        held = tuple(p["reserves"] if p["defense"] != "none" else 0 for p in people)
        dist = {(h, held): Fraction(1)}
        for group in order:
            nxt: dict[tuple, Fraction] = {}
            for state, p in dist.items():
                start = state[0]
                sub = {state: p}
                for i in group:
                    if out(i, start):
                        continue
                    hands = ["primary", "off-hand"] if people[i]["off_hand"] else ["none"]
                    for hand in hands:
                        sub2: dict[tuple, Fraction] = {}
                        for s2, p2 in sub.items():
                            for s3, p3 in one_attack(s2, i, hand).items():
                                sub2[s3] = sub2.get(s3, 0) + p2 * p3
                        sub = sub2
                for s, q in sub.items():
                    nxt[s] = nxt.get(s, 0) + q
            dist = nxt
        final: dict[tuple, Fraction] = {}
        for (hh, _), p in dist.items():
            final[hh] = final.get(hh, 0) + p
        return final

    answers: dict[str, Any] = {"party": [Fraction(0)] * rounds, "foes": [Fraction(0)] * rounds,
                               "down": [[Fraction(0)] * rounds for _ in people]}  # fmt: skip

    def tally(k: int, h: tuple, w: Fraction) -> None:
        party_out, foes_out = (all(out(i, h) for i in sides[s]) for s in (0, 1))
        answers["party"][k] += w if foes_out and not party_out else 0
        answers["foes"][k] += w if party_out and not foes_out else 0
        for i in range(n):
            answers["down"][i][k] += w if out(i, h) else 0

    orders = initiative_orders([p["defender_dex"] for p in people], rulings.get("initiative_ties", "tied"))
    follow(orders, tuple(f["target_hp"] for f in people), one_round, rounds, tally)
    return answers
