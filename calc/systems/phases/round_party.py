"""Several attackers on one target in a phases round: each makes its one attack, in the order they
meet the target, and the target's state changes blow by blow within the round.

A critical hit's Wound lasts to the end of the next round, so within a round the state also carries
the critical Wounds of this round (they count for every later blow of this round and the next);
the next round starts with them as "last round's". The round's outcomes are folded attacker by
attacker, merging equal part-way states, so the work grows with the attackers, not their product.
"""

from __future__ import annotations

from collections.abc import Callable

Blow = tuple[int, int | None, int, bool, bool, int]  # weight, HP after, added, gives a Wound, knocks out, critical
State = tuple[int, int, int, bool, bool, bool]
DEAD: State = (0, 0, 0, True, True, True)


def composed(
    every: list[Callable[[int], list[Blow]]], totals: list[int], dies_at: int
) -> Callable[[State], list[tuple[int, State]]]:
    """One round's step for the attackers' blows (`every`, in order; each attacker's weights over its
    `totals` entry): integer weights over the product of the totals."""

    def step(state: State) -> list[tuple[int, State]]:
        left, count, last_crit, wounded, down, _ = state
        # part-way: (HP, Wounds or slots, this round's critical Wounds, wounded, down) → weight
        now: dict[tuple[int, int, int, bool, bool], int] = {(left, count, 0, wounded, down): 1}
        dead = 0
        for blows_at, total in zip(every, totals, strict=True):
            nxt: dict[tuple[int, int, int, bool, bool], int] = {}
            dead *= total  # a dead target stays dead whatever this attacker rolls
            for (hp, c, crits, wd, dn), weight in now.items():
                for w, after, add, wounds, knocks, extra in blows_at(hp):
                    if after is None:
                        key = (hp, c, crits, wd, dn)
                    elif add < 0 or c + add + last_crit + crits + extra >= dies_at:
                        dead += weight * w
                        continue
                    else:
                        key = (after, c + add, crits + extra, wd or wounds or extra > 0, dn or knocks)
                    nxt[key] = nxt.get(key, 0) + weight * w
            now = nxt
        out: list[tuple[int, State]] = [(w, (hp, c, crits, wd, dn, False)) for (hp, c, crits, wd, dn), w in now.items()]
        if dead:
            out.append((dead, DEAD))
        return out

    return step


def work(hp: int, dies_at: int, crit: int, blows: list[int]) -> int:
    """An estimate of the blows the chain folds, checked before computing: its states (about HP
    left × Wounds or slots, a critical Wound carried doubling them) times, for each, the part-way
    states after each attacker (the blows so far multiplied, no more than the states themselves)
    times the next attacker's blows (`blows`: each attack's outcomes). Measured on a quiet machine,
    600,000 of them take about 0.12 s in CPython."""
    states = (hp + 1) * (dies_at + 1) * (2 if crit else 1)
    part_way, steps = 1, 0
    for b in blows:
        steps += min(part_way, states) * b
        part_way *= b
    return states * steps
