"""The round calculator: one attack a round (each combatant takes one action a round, made in the
phase of its kind: ranged, spell or melee), its joint chance of each damage and of a critical hit
from the same pieces as the hit and damage calculators, then the target followed round by round
as a Markov chain over what it has left: hit points, Wounds (a monster's count, a character's
filled inventory slots), the critical Wound that lasts to the end of the next round, knocked out,
dead. Rounds to its first Wound (the morale trigger), to being down and to death."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from calc.answers import first_attack, round_answer
from calc.chains.reached import Reached
from calc.chains.state_chain import StateChain
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.phases import round_morale, round_party
from calc.systems.phases.attack_roll import HIT, face_outcome, row_by, target_number, used_roll
from calc.systems.phases.damage import _damage_steps, _hit_damage, margin_damage
from calc.systems.phases.hit import natural_rolls_step
from calc.systems.phases.wounds import wound_row
from calc.turns import party

Step = dict[str, str]
Outcome = tuple[int, bool]  # (damage to the target, critical hit)
State = tuple[int, int, int, bool, bool, bool]  # hp, Wounds/slots, last round's critical Wound, wounded, down, dead
DEAD: State = (0, 0, 0, True, True, True)

MAX_DICE = 3  # monster damage dice in a round: keeps the exact chain within its time budget
MAX_SIDES = 12
LUMP_CRITICALS = True
"""Merge a state carrying last round's critical Wound into the same state without it when the
Wound cannot decide a death next round (exact; tests switch it off to compare)."""


def attack_outcomes(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> tuple[dict[Outcome, int], int]:
    """Integer weights of (damage, critical) for one attack, over a common total: every face of
    the d20 used (advantage included), and on a hit every outcome of its damage."""
    number = target_number(inputs, data, steps)
    roll = used_roll(inputs, data, steps)
    natural = inputs["natural_rolls"]
    steps.append(natural_rolls_step(data, natural))
    crit_face = data.fact("critical-hits", "critical_roll")
    monster = inputs["mode"] == "monster"
    hits: list[tuple[int, int, Dist]] = []  # (face weight, face, damage of the hit)
    misses = 0
    for face, w in roll.weights():
        if face_outcome(face, number, natural, data) == HIT:
            base = 0 if monster else margin_damage(face, number, inputs, data)
            hits.append((w, face, _hit_damage(base, inputs, data)))
        else:
            misses += w  # a miss, a fumble or a blow stopped by cover: nothing reaches the target
    scale = math.lcm(*(d.total for _, _, d in hits)) if hits else 1
    out: dict[Outcome, int] = {(0, False): misses * scale} if misses else {}
    for w, face, dist in hits:
        crit = natural and face == crit_face
        for x, dw in dist.weights():
            key = (x, crit)
            out[key] = out.get(key, 0) + w * dw * (scale // dist.total)
    _damage_steps(inputs, data, steps)
    return out, roll.total * scale


def _phase_step(inputs: dict[str, Any], data: SystemData) -> Step:
    kind = inputs["attack_type"]
    phase = {"melee": "melee", "ranged": "ranged", "spell": "spells"}[kind]
    row = row_by(data, "phases", "id", phase)
    per_round = data.fact("combat-round", "actions_per_round")
    return data.step(
        "combat-round",
        f"{per_round} action a round: the attacker makes {per_round} {kind} attack a round, "
        f"in phase {row['n']} ({row['name']}).",
    )


def whole_round(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[Step] = []
    attackers: list[tuple[dict[Outcome, int], int]] = []
    per_round = Dist.constant(0)
    for at, attacker in enumerate(party.each(inputs), start=1):
        if attacker["mode"] == "monster":
            expr = attacker["damage_dice"]
            if sum(t.count for t in expr.terms) > MAX_DICE or any(t.sides > MAX_SIDES for t in expr.terms):
                limit = f"at most {MAX_DICE} dice of up to {MAX_SIDES} sides in the round calculator"
                raise InputError(party.where(inputs, at, "damage_dice"), limit)
        asked = attacker | {"feinted": False, "phase_roll": 0}
        own = [_phase_step(attacker, data)]
        outcomes, total = attack_outcomes(asked, data, own)
        steps += party.named(own, party.who(inputs, at))
        attackers.append((outcomes, total))
        by_damage: dict[int, int] = {}
        for (x, _), w in outcomes.items():
            by_damage[x] = by_damage.get(x, 0) + w
        per_round = per_round + Dist.from_weights(by_damage)
    hp = inputs["target_hp"]
    if len(attackers) > 1:
        work = round_party.work(hp, *_limits(inputs, data), [len(o) + 1 for o, _ in attackers])
        party.bounded(
            work * (2 if inputs["morale"] else 1), MAX_WORK, "states and blows", party.whole(inputs, "target_hp")
        )
    step, start, thresholds = _target(inputs, data, steps, attackers)
    total = math.prod(t for _, t in attackers)
    reached = _reach(step, start, thresholds, total)
    kind = "monster" if inputs["target_kind"] == "monster" else "character"
    if inputs["morale"]:
        out = round_morale.out_of_fight(step, start, total, inputs, data, steps)
        aim = f"take a {hp}-HP {kind} out of the fight (down, dead or fled)"
        return round_answer.answer(per_round, [out, *reached], aim, steps)
    return round_answer.answer(per_round, reached, f"down a {hp}-HP {kind}", steps)


MAX_WORK = 600_000
"""The most blows (estimated: `round_party.work`) a round of several attackers may fold: about
0.12 s in CPython."""


def _limits(inputs: dict[str, Any], data: SystemData) -> tuple[int, int]:
    """(the Wounds or slots that kill the target, the most a critical hit's Wound adds)."""
    if inputs["target_kind"] == "monster":
        limit = max(
            data.fact("killing-monsters", "minimum_wounds"), inputs["hd"] // data.fact("killing-monsters", "hd_divisor")
        )
        dies_at, by_wound = limit + 1, inputs["count_reading"] == "wounds"
    else:
        dies_at, by_wound = inputs["free_slots"], False
    crit_row = row_by(data, "wound-severity", "name", data.fact("critical-hits", "critical_wound"))
    counts = inputs["critical_wound"] == "counts" and inputs["natural_rolls"]
    return dies_at, (1 if by_wound else crit_row["severity"]) if counts else 0


def _reach(
    step: Callable[[State], list[tuple[int, State]]],
    start: State,
    thresholds: list[tuple[str, Callable[[State], bool]]],
    total: int,
) -> list[Reached]:
    """The thresholds on two smaller chains than the full one (same answers, a third of the
    work): the "wounded" flag only matters until the first Wound, so Down and Dead follow the
    chain without it, and the First Wound the chain that stops at any Wound."""

    def without_flag(s: State) -> tuple:
        return s[:3] + s[4:]

    # Both chains step only states not yet wounded (the first chain stops at a Wound): each
    # such state's round is worked out once for the two.
    stepped: dict[State, list[tuple[int, State]]] = {}

    def shared(s: State) -> list[tuple[int, State]]:
        if s not in stepped:
            stepped[s] = step(s)
        return stepped[s]

    def main_step(s: tuple) -> list[tuple[int, tuple]]:
        return [(w, t[:3] + t[4:]) for w, t in shared((*s[:3], False, *s[3:]))]

    main = StateChain(without_flag(start), main_step, total=total)
    down, dead = main.reach_all([(label, lambda s, i=i: s[i - 1]) for label, i in (("Down", 4), ("Dead", 5))])

    # Until its first Wound the target has taken no Wound, carries no critical and is not down:
    # its HP is the whole state (an int hashes faster than the tuple).
    def first_step(left: int) -> list[tuple[int, int | str]]:
        return [(w, "wounded" if t[3] else t[0]) for w, t in shared((left, 0, 0, False, False, False))]

    if start[1:] != (0, 0, False, False, False):
        raise ValueError("the First Wound chain needs a target with no Wound, critical or knock-out yet")
    first = StateChain(start[0], first_step, total=total)
    (wounded,) = first.reach_all([("First Wound", lambda s: s == "wounded")])
    return [down, dead, wounded]  # the order of `thresholds`


# (weight, HP after or None for a miss, Wounds or slots added or -1 for instant death, gives
# a Wound, knocks out, this critical's Wound that lasts a round)
Blow = tuple[int, int | None, int, bool, bool, int]
Blows = Callable[[dict[Outcome, int]], Callable[[int], list[Blow]]]


def target_rules(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> tuple[Blows, int]:
    """What a blow does to this target, every rule on the way cited: `blows_from(outcomes)` gives,
    for one attacker's outcomes, its blows at each HP left (cached); and the Wounds (a monster) or
    slots (a character) that kill it. The round calculator's chain and the fight forecast share it."""
    hp = inputs["target_hp"]
    max_hp = inputs["max_hp"]
    armour = row_by(data, "armour-wound-protection", "id", inputs["armour"])
    protection = armour["protection"]
    reading = inputs["wound_damage"]
    at_least = inputs["instant_death"] == "at-least"
    monster = inputs["target_kind"] == "monster"
    crit_counts = inputs["critical_wound"] == "counts"
    knockout = data.fact("wounds", "knockout_wound")
    crit_row = row_by(data, "wound-severity", "name", data.fact("critical-hits", "critical_wound"))

    steps.append(
        data.step(
            "wounds",
            f"From {hp} HP: damage that takes the target below 0 HP gives a Wound "
            "(from then on every point of a blow is below 0 HP), "
            f"read on the wound table less the armour's wound protection ({armour['name']}: {protection}); "
            f'a Wound of the table\'s "{knockout}" row knocks it out (down).',
        )
    )
    if monster:
        divisor = data.fact("killing-monsters", "hd_divisor")
        least = data.fact("killing-monsters", "minimum_wounds")
        limit = max(least, inputs["hd"] // divisor)
        steps.append(
            data.step(
                "killing-monsters",
                f"{inputs['hd']} HD: it carries up to {limit} Wound(s) (half its HD, rounded down, at least "
                f"{least}); one more kills it.",
            )
        )
        if inputs["count_reading"] == "wounds":
            steps.append(data.step("ruling:monster-wound-count", "Each Wound counts one, whatever its Severity."))
        else:
            steps.append(
                data.step("ruling:monster-wound-count", "Other reading: the limit counts the Wounds' Severity.")
            )
    else:
        limit = inputs["free_slots"]
        steps.append(
            data.step(
                "wounds",
                f"Each point of Severity fills an inventory slot; with {limit} slot(s) free, filling them all kills.",
            )
        )
    by_wound = monster and inputs["count_reading"] == "wounds"  # a monster counts Wounds (ruling), not Severity
    crit_size = (1 if by_wound else crit_row["severity"]) if crit_counts else 0
    if inputs["natural_rolls"]:
        if crit_counts:
            what = "1 more Wound" if by_wound else f"a {crit_row['name'].lower()} (Severity {crit_row['severity']})"
            steps.append(
                data.step(
                    "ruling:round-critical-wound",
                    f"A natural 20 also gives {what} that counts until the end of the next round.",
                )
            )
        else:
            steps.append(
                data.step(
                    "ruling:round-critical-wound",
                    "Other reading: the critical hit's Wound only describes the injury; it is not counted.",
                )
            )
        steps.append(
            data.step(
                "fumbles",
                "Notches (the target's armour on a critical, the attacker's item on a fumble) change no "
                "number here: the text does not say what a notch does.",
            )
        )
    if max_hp:
        steps.append(
            data.step(
                "ruling:instant-death-damage",
                f"A blow of {'at least' if at_least else 'exactly'} {max_hp} (maximum HP) that gives a Wound kills.",
            )
        )
    effects: dict[tuple[int, int], tuple[int, bool] | None] = {}

    def effect(x: int, left: int) -> tuple[int, bool] | None:
        """What a blow of x at `left` HP adds: (Wounds or slots, knocks out), (-1, …) for instant
        death, None for no Wound."""
        key = (x, left)
        if key not in effects:
            row = wound_row(x, left, protection, reading, data)
            if row is None:
                effects[key] = None
            elif max_hp and (x == max_hp or (at_least and x > max_hp)):
                effects[key] = (-1, True)
            else:
                effects[key] = (1 if by_wound else row["severity"], row["name"] == knockout)
        return effects[key]

    dies_at = limit + 1 if monster else limit  # a monster dies past its limit, a character at it

    def blows_from(outcomes: dict[Outcome, int]) -> Callable[[int], list[Blow]]:
        """One attacker's blows at each HP left (cached)."""
        misses = sum(w for (x, _), w in outcomes.items() if not x)  # a miss's critical changes nothing
        landing = [(x, crit_size if crit else 0, crit, w) for (x, crit), w in outcomes.items() if x]
        blows: dict[int, list[Blow]] = {}

        def blows_at(left: int) -> list[Blow]:
            """The round's outcomes at `left` HP, outcomes that act alike merged (same HP after,
            critical or not, same effect): fewer moves to follow from every state with that HP, each
            with its effect worked out once. A blow below `left` leaves HP above 0 and gives no Wound
            (`wound_row`), and no two of them leave the same HP: those need no merging."""
            if left not in blows:
                out: list[Blow] = [(misses, None, 0, False, False, 0)] if misses else []
                out += [(w, left - x, 0, False, False, extra) for x, extra, _, w in landing if x < left]
                merged: dict[tuple[bool, tuple[int, bool] | None], int] = {}
                for x, _, crit, w in landing:
                    if x >= left:
                        key = (crit, effect(x, left))
                        merged[key] = merged.get(key, 0) + w
                out += [
                    (w, 0, hit[0] if hit else 0, hit is not None, bool(hit and hit[1]), crit_size if crit else 0)
                    for (crit, hit), w in merged.items()
                ]
                blows[left] = out
            return blows[left]

        return blows_at

    return blows_from, dies_at


def wounds_added(blows_at: Callable[[int], list[Any]], left: int) -> list[int]:
    """What each blow that lands on a target with `left` hit points adds to its Wounds (the
    blow's critical Wound with it), instant deaths left out (they kill whatever the count): what
    decides whether a critical Wound carried into the next round can change a death."""
    return [add + more for _, after, add, _, _, more in blows_at(left) if after is not None and add >= 0]


def critical_decides(dies_at: int, wounds: int, extra: int, added: Iterable[int]) -> bool:
    """Whether a critical Wound `extra` carried into the next round can decide a death: some
    Wounds that round can add (`added`, from `wounds_added`) kill with it and not without. Where it
    cannot, the states with and without it move alike (`LUMP_CRITICALS` merges them)."""
    low, high = dies_at - wounds - extra, dies_at - wounds
    return any(low <= v < high for v in added)


def _target(
    inputs: dict[str, Any],
    data: SystemData,
    steps: list[Step],
    attackers: list[tuple[dict[Outcome, int], int]],
) -> tuple[Callable[[State], list[tuple[int, State]]], State, list[tuple[str, Callable[[State], bool]]]]:
    """The target's chain: its one-round step (integer weights over the product of the attackers'
    totals), its start and the thresholds, every rule on the way cited. `attackers`: each one's
    (outcomes, total), in the order they meet the target."""
    hp = inputs["target_hp"]
    blows_from, dies_at = target_rules(inputs, data, steps)
    every = [blows_from(outcomes) for outcomes, _ in attackers]
    blows_at = every[0]

    sums: dict[int, list[int]] = {}  # per HP left: add + extra of every blow that lands and does not kill outright
    kept: dict[tuple[int, int, int], int] = {}

    def lasting(left: int, count: int, extra: int) -> int:
        """The critical Wound a state carries into next round, 0 when it cannot change whether
        any blow of that round kills (it changes nothing else): the states with and without it
        then move alike, so they are one state (the chain's answers are the same, its states fewer)."""
        key = (left, count, extra)
        if key not in kept:
            if left not in sums:
                sums[left] = wounds_added(blows_at, left)
            kept[key] = extra if not LUMP_CRITICALS or critical_decides(dies_at, count, extra, sums[left]) else 0
        return kept[key]

    def step(state: State) -> list[tuple[int, State]]:
        left, count, last_crit, wounded, down, _ = state
        out = []
        for w, after, add, wounds, knocks, extra in blows_at(left):
            if after is None:
                out.append((w, (left, count, 0, wounded, down, False)))
            elif add < 0 or count + add + last_crit + extra >= dies_at:
                out.append((w, DEAD))
            else:
                if extra:
                    carried = kept.get((after, count + add, extra), -1)
                    if carried < 0:
                        carried = lasting(after, count + add, extra)
                else:
                    carried = 0
                out.append((w, (after, count + add, carried, wounded or wounds or extra > 0, down or knocks, False)))
        return out

    steps.append(
        data.step(
            "morale",
            "The first Wound is what usually calls for a morale roll; the table shows when it comes.",
        )
    )
    thresholds: list[tuple[str, Callable[[State], bool]]] = [
        ("Down", lambda s: s[4]),
        ("Dead", lambda s: s[5]),
        ("First Wound", lambda s: s[3]),
    ]
    if len(every) > 1:
        step = round_party.composed(every, [t for _, t in attackers], dies_at)
    return step, (hp, 0, 0, False, False, False), thresholds


def one_attack(attacker: dict[str, Any]) -> dict[str, Any]:
    """One action a round: the attacker's round is its attack."""
    return attacker


def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
    """No feint, the phase's roll not asked (as the round asks its attacks)."""
    return {"feinted": False, "phase_roll": 0}


round_ = first_attack.calculator(whole_round, one_attack, hit_extra)
"""The whole round's answer with the attack at hand (`first_attack`: calc/answers/first_attack.py)."""
