"""A brute-force oracle for tiny Action Points fights, written apart from `calc.forecast`: it rolls
every fighter's d20 for initiative (every face), sorts the totals highest first and settles each tie
by rolling the tied fighters again, face by face (or evenly, for the bare roll-off); then, for each
order, it follows the fight round by round with plain Fractions: every attack of every turn (read
from the damage calculator's `attack.per_attack`, lowest hit points first), a fighter below 0 out
of the fight, at −10 dead, the dying checks at each round's end while the fight is on."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import permutations, product
from typing import Any

import calc
from tests.calc.forecast_cases import follow

ATTACK = (
    *("kind", "ability", "weapon_bonus", "misc", "use_preset", "weapon", "dice", "threshold", "multiplier", "heavy"),
    *("light", "deft", "devastating", "heartseeker", "wounds", "reach_rule", "initiative", "damage_bonus", "level"),
)
STYLES = ("standard", "quick", "power", "charge")
DEAD, DC_BASE = -10, 15


def initiative_orders(bonus: list[int], reroll: str) -> dict[tuple[int, ...], Fraction]:
    """Every order (highest first) with its chance: d20 + bonus, ties rolled again."""

    @cache
    def settle(group: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
        if len(group) == 1:
            return {group: Fraction(1)}
        if reroll == "plain":
            every = list(permutations(group))
            return {p: Fraction(1, len(every)) for p in every}
        out: dict[tuple[int, ...], Fraction] = {}
        again = Fraction(0)
        each = Fraction(1, 20 ** len(group))
        for faces in product(range(1, 21), repeat=len(group)):
            totals = {i: f + bonus[i] for i, f in zip(group, faces, strict=True)}
            if len(set(totals.values())) == 1:
                again += each
                continue
            for order, p in split(group, totals).items():
                out[order] = out.get(order, 0) + each * p
        return {o: p / (1 - again) for o, p in out.items()}

    def split(group: tuple[int, ...], totals: dict[int, int]) -> dict[tuple[int, ...], Fraction]:
        out: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
        for t in sorted(set(totals.values()), reverse=True):
            tied = tuple(i for i in group if totals[i] == t)
            out = {a + b: p * q for a, p in out.items() for b, q in settle(tied).items()}
        return out

    everyone = tuple(range(len(bonus)))
    result: dict[tuple[int, ...], Fraction] = {}
    each = Fraction(1, 20 ** len(bonus))
    for faces in product(range(1, 21), repeat=len(bonus)):
        totals = {i: f + bonus[i] for i, f in zip(everyone, faces, strict=True)}
        for order, p in split(everyone, totals).items():
            result[order] = result.get(order, 0) + each * p
    return result


def oracle(party: list[dict], foes: list[dict], rounds: int, rulings: dict[str, Any] | None = None) -> dict[str, Any]:
    """{"party": [P(party has won) after round k], "foes": [...], "down": [[P(fighter i down by k)]],
    "dead": [[...]]} for k = 1…rounds."""
    rulings = rulings or {}
    checks = rulings.get("dying_checks", "counted") == "counted"
    people = [dict(f, side=0) for f in party] + [dict(f, side=1) for f in foes]
    n = len(people)
    sides = [[i for i in range(n) if people[i]["side"] == s] for s in (0, 1)]
    aims = [sorted(sides[1 - s], key=lambda i: (people[i]["target_hp"], i)) for s in (0, 1)]
    turns = [[style for style in STYLES for _ in range(people[i][style])] for i in range(n)]

    @cache
    def damage(i: int, t: int, style: str) -> tuple[tuple[int, Fraction], ...]:
        asked = {k: people[i][k] for k in ATTACK} | {"dice": str(people[i]["dice"]), "attack": style}
        asked |= {k: people[t][k] for k in ("defense", "miss_chance", "weakness", "resistance")}
        asked |= {k: v for k, v in rulings.items() if k in ("threat_range", "miss_chance_reading")}
        d = calc.evaluate({"system": "action-points", "calculator": "damage", "inputs": asked})["attack"]["per_attack"]
        return tuple((row["x"], Fraction(int(row["weight"]), int(d["denominator"]))) for row in d["pmf"])

    def out(i: int, h: tuple) -> bool:
        return h[i] < 0

    def over(h: tuple) -> bool:
        return all(out(i, h) for i in sides[0]) or all(out(i, h) for i in sides[1])

    def turn(h: tuple, i: int) -> dict[tuple, Fraction]:
        dist = {h: Fraction(1)}
        for style in turns[i]:
            nxt: dict[tuple, Fraction] = {}
            for cur, p in dist.items():
                t = next((j for j in aims[people[i]["side"]] if not out(j, cur)), None)
                if t is None:
                    nxt[cur] = nxt.get(cur, 0) + p
                    continue
                for x, q in damage(i, t, style):
                    after = list(cur)
                    after[t] = max(cur[t] - x, DEAD)
                    nxt[tuple(after)] = nxt.get(tuple(after), 0) + p * q
            dist = nxt
        return dist

    def check(h: tuple) -> dict[tuple, Fraction]:
        dist = {h: Fraction(1)}
        if over(h) or not checks:
            return dist
        for i in range(n):
            nxt: dict[tuple, Fraction] = {}
            for cur, p in dist.items():
                if not (DEAD < cur[i] < 0):
                    nxt[cur] = nxt.get(cur, 0) + p
                    continue
                dc = DC_BASE - cur[i]
                for face in range(1, 21):
                    fails = face + people[i]["target_con"] < dc
                    after = list(cur)
                    after[i] = max(cur[i] - 1, DEAD) if fails else cur[i]
                    nxt[tuple(after)] = nxt.get(tuple(after), 0) + p / 20
            dist = nxt
        return dist

    def one_round(h: tuple, order: tuple[int, ...]) -> dict[tuple, Fraction]:
        if over(h):
            return {h: Fraction(1)}
        dist = {h: Fraction(1)}
        for i in order:
            nxt: dict[tuple, Fraction] = {}
            for cur, p in dist.items():
                if out(i, cur):
                    nxt[cur] = nxt.get(cur, 0) + p
                    continue
                for c, q in turn(cur, i).items():
                    nxt[c] = nxt.get(c, 0) + p * q
            dist = nxt
        final: dict[tuple, Fraction] = {}
        for cur, p in dist.items():
            for c, q in check(cur).items():
                final[c] = final.get(c, 0) + p * q
        return final

    bonus = [p["initiative"] + (2 if p["deft"] else 0) for p in people]
    answers: dict[str, Any] = {"party": [Fraction(0)] * rounds, "foes": [Fraction(0)] * rounds,
                               "down": [[Fraction(0)] * rounds for _ in people],
                               "dead": [[Fraction(0)] * rounds for _ in people]}  # fmt: skip

    def tally(k: int, h: tuple, w: Fraction) -> None:
        answers["party"][k] += w if all(out(i, h) for i in sides[1]) else 0
        answers["foes"][k] += w if all(out(i, h) for i in sides[0]) else 0
        for i in range(n):
            answers["down"][i][k] += w if out(i, h) else 0
            answers["dead"][i][k] += w if h[i] <= DEAD else 0

    orders = initiative_orders(bonus, rulings.get("tie_reroll", "with_bonus"))
    follow(orders, tuple(f["target_hp"] for f in people), one_round, rounds, tally)
    return answers
