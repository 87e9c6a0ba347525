"""Segments' forecast from mid-round (calc/systems/segments/forecast.py `rest_slots`): a
multi-attacker's first routine comes before group initiative and its remaining routines after LOW
(001, the combat round's steps 4 and 6; rules-notes "Action order"), in the rest of a round begun as
in a fresh round. The tracker's order gives a multi-attacker a turn in HIGH or LOW and counts no
routines: once anyone of the order has acted its first routine is made, the rest still to come.
The oracle walks every pair of group d6 rolls for the later rounds and every routine's damage from
the damage calculator (tests/calc/test_segments_forecast.py's), apart from calc.forecast."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.calc import forecast_cases as cases
from tests.calc.test_segments_forecast import HERO, ORC, routine_damage

CLAW = [{"name": "Claw", "dice": "1d4", "modifier": 1, "to_hit": 2}]
BEAST = {**ORC, "name": "Beast", "hd": 3, "routines": 2, "routine": CLAW, "target_hp": 5}
HERO_ = {**HERO, "target_hp": 7}
ORC_ = {**ORC, "target_hp": 3}
PEOPLE = [cases.full("segments", f) for f in (HERO_, BEAST, ORC_)]
SIDE = [0, 1, 1]
AIMS = [[1, 2], [0], [0]]  # the first enemy listed and up: `listed` targets
ROUNDS = 3
Slot = tuple[tuple[int, int], ...]


def play(h: tuple, slots: list[Slot], dmg: dict) -> dict[tuple, Fraction]:
    """Each slot in turn: everyone of it up at its start makes its routines, each at the first
    enemy up."""
    dist = {h: Fraction(1)}
    for slot in slots:
        nxt: dict[tuple, Fraction] = {}
        for cur, p in dist.items():
            states = {cur: p}
            for i, n in slot:
                if cur[i] <= 0:
                    continue
                for _ in range(n):
                    after: dict[tuple, Fraction] = {}
                    for s, q in states.items():
                        t = next((j for j in AIMS[i] if s[j] > 0), None)
                        for x, r in [(0, Fraction(1))] if t is None else dmg[(i, t)].items():
                            hit = s if t is None else (*s[:t], max(s[t] - x, 0), *s[t + 1 :])
                            after[hit] = after.get(hit, 0) + q * r
                    states = after
            for s, q in states.items():
                nxt[s] = nxt.get(s, 0) + q
        dist = nxt
    return dist


def fresh_rounds() -> dict[tuple[Slot, ...], Fraction]:
    """Every pair of d6 rolls: the Beast's first routine, the higher side (a tie: the long sword,
    speed 5, before the Orc's battle axe, 7), then the Beast's second routine."""
    out: dict[tuple[Slot, ...], Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            middle = [((0, 1),), ((2, 1),)] if a >= b else [((2, 1),), ((0, 1),)]
            key = (((1, 1),), *middle, ((1, 1),))
            out[key] = out.get(key, 0) + Fraction(1, 36)
    return out


def oracle(first: list[Slot]) -> tuple[Fraction, Fraction]:
    """P(party wins), P(foes win) within ROUNDS: round 1 is `first`, every later one fresh."""
    dmg = {(i, t): routine_damage(PEOPLE[i], PEOPLE[t]) for i in range(3) for t in range(3) if SIDE[i] != SIDE[t]}
    dist = play(tuple(p["target_hp"] for p in PEOPLE), first, dmg)
    for _ in range(ROUNDS - 1):
        nxt: dict[tuple, Fraction] = {}
        for h, p in dist.items():
            over = h[0] <= 0 or (h[1] <= 0 and h[2] <= 0)
            for slots, q in [((), Fraction(1))] if over else fresh_rounds().items():
                for after, r in play(h, list(slots), dmg).items():
                    nxt[after] = nxt.get(after, 0) + p * q * r
        dist = nxt
    party = sum((p for h, p in dist.items() if h[0] > 0 and h[1] <= 0 and h[2] <= 0), Fraction(0))
    foes = sum((p for h, p in dist.items() if h[0] <= 0 and (h[1] > 0 or h[2] > 0)), Fraction(0))
    return party, foes


def forecast(order: list[int], acted: int) -> dict:
    return cases.run("segments", PEOPLE[:1], PEOPLE[1:], order=[{"name": PEOPLE[i]["name"]} for i in order],
                     acted=acted, rounds=ROUNDS, party_targets="listed", foes_targets="listed")  # fmt: skip


@pytest.mark.parametrize(
    ("order", "acted", "first"),
    [
        # nobody has acted: the whole round, the Beast's first routine before anyone's turn
        ([0, 1, 2], 0, [((1, 1),), ((0, 1),), ((2, 1),), ((1, 1),)]),
        ([2, 1, 0], 0, [((1, 1),), ((2, 1),), ((0, 1),), ((1, 1),)]),
        # the Hero has acted: the Beast's first routine made; the Orc, then the Beast's second
        ([0, 1, 2], 1, [((2, 1),), ((1, 1),)]),
        ([0, 2, 1], 1, [((2, 1),), ((1, 1),)]),
        # the Beast's turn passed in the tracker: its second routine still comes after LOW
        ([1, 0, 2], 2, [((2, 1),), ((1, 1),)]),
        # everyone's turn passed: only the Beast's remaining routine is left
        ([0, 2, 1], 3, [((1, 1),)]),
    ],
)
def test_the_rest_of_the_round_keeps_the_multi_attackers_places(order, acted, first):
    got = forecast(order, acted)
    assert (cases.chance(got, "Party wins"), cases.chance(got, "Foes win")) == oracle(first)


def test_nobody_acted_is_the_fresh_round_under_that_order():
    """The same first round as a fresh round whose rolls gave this order (the Hero's side HIGH)."""
    got = forecast([0, 1, 2], 0)
    assert cases.chance(got, "Party wins") == oracle([((1, 1),), ((0, 1),), ((2, 1),), ((1, 1),)])[0]
    old = oracle([((0, 1),), ((1, 2),), ((2, 1),)])  # all of the Beast's routines at its tracker turn
    assert (cases.chance(got, "Party wins"), cases.chance(got, "Foes win")) != old


def test_the_assumption_is_stated_with_its_rule():
    said = [s for s in forecast([0, 1, 2], 1)["steps"] if "multi-attacker's routines" in s["text"]]
    assert len(said) == 1 and said[0]["url"].endswith("#combat-round-sequence")
    fresh = cases.run("segments", PEOPLE[:1], PEOPLE[1:], rounds=ROUNDS)
    assert not [s for s in fresh["steps"] if "multi-attacker's routines" in s["text"]]
