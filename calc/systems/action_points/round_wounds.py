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

import math
from collections.abc import Callable
from typing import Any

from calc.chains.reached import Reached
from calc.chains.state_chain import StateChain
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.action_points.attack import resolve_attack, wound_needed
from calc.turns import party

MAX_WORK = 500_000
"""The most (state × outcome) steps the wounds chain may take: checked before computing."""


class AttackAt:
    """One attack of the round: its validated damage inputs and its damage against the target's AC
    as typed (`base`: no wounds). `weights(wounds)`: its damage against the AC those wounds leave, as
    integer weights over `scale` (one scale for every wound count, so a round's weights share one
    total); only the attack roll's outcomes change with the AC, never a hit's damage."""

    def __init__(self, typed: dict[str, Any], base: Dist, data: SystemData, hits: tuple[Dist, Dist]) -> None:
        self.typed = typed
        self.base = base
        self.data = data
        self.hits = hits  # the damage of a regular and of a critical hit: the AC changes neither
        self.scale = 0
        self._by_wounds: dict[int, list[tuple[int, int]]] = {}

    def prepare(self, levels: range) -> None:
        """Work out the attack at every wound count in `levels`, and their common scale."""
        if self._by_wounds:
            return
        per = self.data.fact("wounds", "penalty_per_wound")
        regular, critical = self.hits
        odds = {}
        for w in levels:
            o = resolve_attack(self.typed | {"defense": self.typed["defense"] + per * w}, self.data).outcomes
            odds[w] = (o.miss, o.regular, o.critical)
        den = math.lcm(*(p.denominator for trio in odds.values() for p in trio))
        self.scale = den * regular.total * critical.total
        for w, (miss, reg, crit) in odds.items():
            out: dict[int, int] = {0: int(miss * self.scale)} if miss else {}
            for part, dist in ((reg, regular), (crit, critical)):
                if part:
                    k = int(part * (self.scale // dist.total))
                    for x, wx in dist.weights():
                        out[x] = out.get(x, 0) + k * wx
            self._by_wounds[w] = list(out.items())
        g = math.gcd(self.scale, *(x for pairs in self._by_wounds.values() for _, x in pairs))
        if g > 1:  # the smallest common scale: the chain's integers (and its means) stay short
            self.scale //= g
            self._by_wounds = {w: [(x, k // g) for x, k in pairs] for w, pairs in self._by_wounds.items()}

    def weights(self, wounds: int) -> list[tuple[int, int]]:
        return self._by_wounds[wounds]


def wounded_round(
    attacks: list[AttackAt],
    out_at: int,
    dead_at: int,
    inputs: dict[str, Any],
    data: SystemData,
    steps: list[dict[str, str]],
) -> tuple[Dist, list[Reached]]:
    """(the first round's damage, [Unconscious, Dead]) with the target's wounds building up."""
    need, how = wound_needed(inputs, data)
    most = data.fact("wounds", "max_wounds")
    per = data.fact("wounds", "penalty_per_wound")
    start = inputs["target_wounds"]
    steps.append(
        data.step(
            "wounds",
            f"Wound threshold {how}: each attack of {need} or more damage gives the target 1 wound, "
            f"{per} to its AC and SR for every attack after it; from {start} wound(s) ({per * start} to its "
            f"AC or SR already), a wound past {most} kills.",
        )
    )
    reading = "exact, damage must reach it (ruling)" if inputs["wound_rounding"] == "up" else "rounded down"
    steps.append(data.step("ruling:wound-threshold-rounding", f"A fractional tenth is {reading}."))
    top = min(most, start + dead_at // need + len(attacks))  # the most wounds a living target can have
    levels = top - start + 1
    outcomes = max(len(a.base.support()[0]) for a in attacks)
    size = (dead_at + 1) * (len(attacks) + 1)
    work = levels * len(attacks) * size * outcomes + (dead_at + 1) * levels * size
    party.bounded(work, MAX_WORK, "states and outcomes of the wounds chain", party.whole(inputs, "target_hp"))
    for attack in attacks:
        attack.prepare(range(start, top + 1))
    check = _dying_check(inputs, data) if inputs["dying_checks"] == "counted" else None
    faces = check[0] if check else 1
    dead: tuple[int, int] = (dead_at, most + 1)
    joint: dict[int, list[tuple[int, int, int]]] = {}

    def round_from(wounds: int) -> list[tuple[int, int, int]]:
        if wounds not in joint:
            joint[wounds] = [(w, d, g) for (d, g), w in _joint(attacks, wounds, need, most, dead_at).items()]
        return joint[wounds]

    fails: dict[int, int] = {}

    def step(state: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
        """One round from (damage taken, wounds), merged by next state (the chain's fast path)."""
        taken, wounds = state
        out: dict[tuple[int, int], int] = {}
        get = out.get
        for p, d, gained in round_from(wounds):
            now, w = taken + d, wounds + gained
            if w > most or now >= dead_at:
                out[dead] = get(dead, 0) + p * faces
            elif check is not None and now >= out_at:
                if now not in fails:
                    fails[now] = check[1](now)
                fail = fails[now]
                after = (now + check[2], w) if now + check[2] < dead_at else dead
                out[after] = get(after, 0) + p * fail
                out[(now, w)] = get((now, w), 0) + p * (faces - fail)
            else:
                out[(now, w)] = get((now, w), 0) + p * faces
        return [(p, s) for s, p in out.items()]

    total = math.prod(a.scale for a in attacks) * faces
    chain = StateChain((0, start), step, total=total)
    reached = chain.reach_all([("Unconscious", lambda s: s[0] >= out_at or s == dead), ("Dead", lambda s: s == dead)])
    shown: dict[int, int] = {}
    for (d, _), w in _joint(attacks, start, need, most, None).items():
        shown[d] = shown.get(d, 0) + w
    return Dist.from_weights(shown), reached


def _joint(attacks: list[AttackAt], wounds: int, need: int, most: int, cap: int | None) -> dict[tuple[int, int], int]:
    """The round's attacks in order from a target with `wounds`: {(damage, wounds gained): weight}
    over the product of the attacks' scales, damage capped at `cap` (None: not capped); a target
    dead of its wounds (past `most`) takes no more."""
    now: dict[tuple[int, int], int] = {(0, 0): 1}
    for attack in attacks:
        nxt: dict[tuple[int, int], int] = {}
        for (d, g), p in now.items():
            if wounds + g > most:  # dead of its wounds: later blows change nothing
                nxt[(d, g)] = nxt.get((d, g), 0) + p * attack.scale
                continue
            for x, q in attack.weights(wounds + g):
                key = (d + x if cap is None else min(cap, d + x), g + (x >= need))
                nxt[key] = nxt.get(key, 0) + p * q
        now = nxt
    return now


def _dying_check(inputs: dict[str, Any], data: SystemData) -> tuple[int, Callable[[int], int], int]:
    """(the check die's faces, the faces that fail at damage taken `now` (below 0 HP), the loss)."""
    die = dice.parse(data.fact("dying", "check_die")).dist()
    base = data.fact("dying", "check_dc_base")
    below = data.fact("dying", "dying_below")
    con, hp = inputs["target_con"], inputs["target_hp"]

    def failing(now: int) -> int:
        dc = base + (below - (hp - now))
        return sum(w for face, w in die.weights() if face + con < dc)

    return die.total, failing, data.fact("dying", "failed_check_damage")
