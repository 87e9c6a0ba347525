"""The round under the optional wounds rule: a hit of at least the target's wound threshold gives it
a wound, and each wound lowers its AC and SR by 1 for every attack after it (the same round's
included), so the attacks' chances change as the wounds build up, round after round; a wound past
the most it can carry kills it.

The target is followed as a chain over (damage taken, wounds). One round from a state is the
round's attacks in order, each read from the damage calculator at the AC its wounds leave: the
round's joint (damage, wounds gained) depends only on the wounds at its start, so it is worked out
once per wound count and shared by every state with that count. A dying target's Constitution
check follows the attacks, as in the round without wounds (ruling).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from calc import dice, party, rounds
from calc.data import SystemData
from calc.dist import Dist
from calc.systems.action_points.attack import damage, wound_needed

MAX_WORK = 3_000_000
"""The most (state × outcome) steps the wounds chain may take: checked before computing."""


class AttackAt:
    """One attack of the round: its validated damage inputs, its damage at the target's starting
    AC (`base`), and `at(wounds)`: its damage against the AC those wounds leave (cached)."""

    def __init__(self, typed: dict[str, Any], base: Dist, data: SystemData) -> None:
        self.typed = typed
        self.base = base
        self.data = data
        self._by_wounds: dict[int, list[tuple[int, Fraction]]] = {}

    def at(self, wounds: int, start: int) -> list[tuple[int, Fraction]]:
        """[(damage, chance)] against a target with `wounds` (`start` of them already in `base`)."""
        if wounds not in self._by_wounds:
            if wounds == start:
                dist = self.base
            else:
                per = self.data.fact("wounds", "penalty_per_wound")
                lowered = self.typed | {"defense": self.typed["defense"] + per * (wounds - start)}
                dist = rounds.dist_of(rounds.uncut(damage, lowered, self.data))
            self._by_wounds[wounds] = list(dist.items())
        return self._by_wounds[wounds]


def wounded_round(
    attacks: list[AttackAt],
    out_at: int,
    dead_at: int,
    inputs: dict[str, Any],
    data: SystemData,
    steps: list[dict[str, str]],
) -> tuple[Dist, list[rounds.Reached]]:
    """(the first round's damage, [Unconscious, Dead]) with the target's wounds building up."""
    need, how = wound_needed(inputs, data)
    most = data.fact("wounds", "max_wounds")
    per = data.fact("wounds", "penalty_per_wound")
    start = inputs["target_wounds"]
    steps.append(
        data.step(
            "wounds",
            f"Wound threshold {how}: each attack of {need} or more damage gives the target 1 wound, "
            f"{per} to its AC and SR for every attack after it; from {start} wound(s), a wound past {most} kills.",
        )
    )
    reading = "exact, damage must reach it (ruling)" if inputs["wound_rounding"] == "up" else "rounded down"
    steps.append(data.step("ruling:wound-threshold-rounding", f"A fractional tenth is {reading}."))
    levels = min(most - start + 1, dead_at // need + 1)  # wound counts a living target can reach
    outcomes = max(len(a.base.support()[0]) for a in attacks)
    size = (dead_at + 1) * (len(attacks) + 1)
    work = levels * len(attacks) * size * outcomes + (dead_at + 1) * levels * size
    party.bounded(work, MAX_WORK, "states and outcomes of the wounds chain", inputs, "wounds_rule")
    check = _dying_check(inputs, data, out_at, dead_at) if inputs["dying_checks"] == "counted" else None
    dead: tuple[int, int] = (dead_at, most + 1)
    joint: dict[int, dict[tuple[int, int], Fraction]] = {}

    def round_from(wounds: int) -> dict[tuple[int, int], Fraction]:
        if wounds not in joint:
            joint[wounds] = _joint(attacks, wounds, start, need, most, dead_at)
        return joint[wounds]

    def step(state: tuple[int, int]) -> list[tuple[Fraction, tuple[int, int]]]:
        taken, wounds = state
        out: list[tuple[Fraction, tuple[int, int]]] = []
        for (d, gained), p in round_from(wounds).items():
            now, w = min(dead_at, taken + d), wounds + gained
            if w > most or now >= dead_at:
                out.append((p, dead))
            elif check is not None and now >= out_at:
                fail, loss = check(now)
                out.append((p * fail, (min(dead_at, now + loss), w) if now + loss < dead_at else dead))
                out.append((p * (1 - fail), (now, w)))
            else:
                out.append((p, (now, w)))
        return out

    chain = rounds.StateChain((0, start), step)
    reached = chain.reach_all([("Unconscious", lambda s: s[0] >= out_at or s == dead), ("Dead", lambda s: s == dead)])
    first = _joint(attacks, start, start, need, most, None)
    shown: dict[int, Fraction] = {}
    for (d, _), p in first.items():
        shown[d] = shown.get(d, Fraction(0)) + p
    return Dist.from_probs(shown), reached


def _joint(
    attacks: list[AttackAt], wounds: int, start: int, need: int, most: int, cap: int | None
) -> dict[tuple[int, int], Fraction]:
    """The round's attacks in order from a target with `wounds`: {(damage, wounds gained): chance},
    damage capped at `cap` (None: not capped); wounds past `most` stop counting (the target is dead)."""
    now: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for attack in attacks:
        nxt: dict[tuple[int, int], Fraction] = {}
        for (d, g), p in now.items():
            if wounds + g > most:  # dead of its wounds: later blows change nothing
                nxt[(d, g)] = nxt.get((d, g), Fraction(0)) + p
                continue
            for x, q in attack.at(wounds + g, start):
                key = (d + x if cap is None else min(cap, d + x), g + (x >= need))
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        now = nxt
    return now


def _dying_check(
    inputs: dict[str, Any], data: SystemData, out_at: int, dead_at: int
) -> Callable[[int], tuple[Fraction, int]]:
    """At damage taken `now` (below 0 HP): (the chance its Constitution check fails, the loss)."""

    die = dice.parse(data.fact("dying", "check_die")).dist()
    base = data.fact("dying", "check_dc_base")
    loss = data.fact("dying", "failed_check_damage")
    below = data.fact("dying", "dying_below")
    con, hp = inputs["target_con"], inputs["target_hp"]

    def check(now: int) -> tuple[Fraction, int]:
        dc = base + (below - (hp - now))
        return die.p_where(lambda face: face + con < dc), loss

    return check
