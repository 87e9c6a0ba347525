"""A brute-force oracle for tiny Countup fights, written apart from `calc.forecast`: every round it
enumerates every initiative roll of everyone up, sorts them by the rule (lowest first, the party
before the foes on a total, then the order listed or together), and every damage of every attack
(read from the damage calculator's `attack.per_attack`), with plain Fractions."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import groupby, product
from typing import Any

import calc

HURT_AT, CHAR_DEAD, NPC_DEAD = 0, -10, 0


def per_attack(f: dict[str, Any], hurt: bool, ac: int) -> dict[int, Fraction]:
    inputs = {k: f[k] for k in ("attack", "to_hit", "ability_from", "ability_score", "ability_bonus", "misc", "dice",
                                "strength_from", "strength_score", "strength_bonus", "damage_misc")}  # fmt: skip
    inputs |= {"hurt": hurt, "ac": ac, "dice": str(f["dice"])}
    if f["attack"] == "melee":  # the text: a melee attack adds the one Strength bonus to hit and to damage
        inputs |= {"strength_from": f["ability_from"], "strength_score": f["ability_score"]}
        inputs |= {"strength_bonus": f["ability_bonus"]}
    answer = calc.evaluate({"system": "countup", "calculator": "damage", "inputs": inputs})
    d = answer["attack"]["per_attack"]
    return {row["x"]: Fraction(int(row["weight"]), int(d["denominator"])) for row in d["pmf"]}


def oracle(party: list[dict], foes: list[dict], rounds: int, ties: str = "listed") -> list[tuple[Fraction, Fraction]]:
    """[(P(party has won), P(foes have won)) after round k] for k = 1…rounds; lowest HP first."""
    people = [dict(f, side=0) for f in party] + [dict(f, side=1) for f in foes]
    dead = [CHAR_DEAD if f.get("target") == "character" or f.get("npc_hurt") else NPC_DEAD for f in people]
    hurtable = [d == CHAR_DEAD for d in dead]
    sides = [[i for i, f in enumerate(people) if f["side"] == s] for s in (0, 1)]
    aims = [sorted(sides[1 - s], key=lambda i: (people[i]["target_hp"], i)) for s in (0, 1)]

    @cache
    def damage(i: int, hurt: bool, ac: int) -> tuple[tuple[int, Fraction], ...]:
        return tuple(per_attack(people[i], hurt, ac).items())

    def out(i: int, h: tuple) -> bool:
        return h[i] <= dead[i]

    def over(h: tuple) -> bool:
        return all(out(i, h) for i in sides[0]) or all(out(i, h) for i in sides[1])

    def attack_all(h: tuple, i: int, own: int, n: int) -> dict[tuple, Fraction]:
        dist = {h: Fraction(1)}
        for _ in range(n):
            nxt: dict[tuple, Fraction] = {}
            for cur, p in dist.items():
                t = next((j for j in aims[people[i]["side"]] if not out(j, cur)), None)
                if t is None:
                    nxt[cur] = nxt.get(cur, 0) + p
                    continue
                hurt = hurtable[i] and own <= HURT_AT
                for x, q in damage(i, hurt, people[t]["ac"]):
                    after = list(cur)
                    after[t] = max(cur[t] - x, dead[t])
                    nxt[tuple(after)] = nxt.get(tuple(after), 0) + p * q
            dist = nxt
        return dist

    def one_round(h: tuple) -> dict[tuple, Fraction]:
        if over(h):
            return {h: Fraction(1)}
        up = [i for i in range(len(people)) if not out(i, h)]
        sides_of = [10 if people[i]["die"] == "d10" else 8 for i in up]
        orders: dict[tuple, Fraction] = {}  # every roll, sorted into its order of groups
        for rolls in product(*(range(1, s + 1) for s in sides_of)):
            p_rolls = Fraction(1)
            for s in sides_of:
                p_rolls /= s
            keyed = []
            for i, r in zip(up, rolls, strict=True):
                tie = (people[i]["side"],) if ties == "together" else (people[i]["side"], i)
                keyed.append(((r + people[i]["modifier"], tie), i))
            keyed.sort()
            order = tuple(tuple(i for _, i in group) for _, group in groupby(keyed, key=lambda kv: kv[0]))
            orders[order] = orders.get(order, 0) + p_rolls
        out_dist: dict[tuple, Fraction] = {}
        for order, p_order in orders.items():
            dist = {h: Fraction(1)}
            for members in order:
                nxt: dict[tuple, Fraction] = {}
                for cur, p in dist.items():
                    start = cur
                    sub = {cur: Fraction(1)}
                    for i in members:
                        if out(i, start):
                            continue
                        sub2: dict[tuple, Fraction] = {}
                        for c2, p2 in sub.items():
                            for c3, p3 in attack_all(c2, i, start[i], people[i]["attacks"]).items():
                                sub2[c3] = sub2.get(c3, 0) + p2 * p3
                        sub = sub2
                    for c, q in sub.items():
                        nxt[c] = nxt.get(c, 0) + p * q
                dist = nxt
            for c, q in dist.items():
                out_dist[c] = out_dist.get(c, 0) + p_order * q
        return out_dist

    state = {tuple(f["target_hp"] for f in people): Fraction(1)}
    answers = []
    for _ in range(rounds):
        nxt: dict[tuple, Fraction] = {}
        for h, p in state.items():
            for c, q in one_round(h).items():
                nxt[c] = nxt.get(c, 0) + p * q
        state = nxt
        won = sum((p for h, p in state.items() if all(out(i, h) for i in sides[1])), Fraction(0))
        lost = sum((p for h, p in state.items() if all(out(i, h) for i in sides[0])), Fraction(0))
        answers.append((won, lost))
    return answers
