"""Avoiding an opportunity attack, grappling and shoving: a d20 against your target plus the
enemy's Defense (its weapon's parry included, as in the damage calculator's failure mode).

A failure costs 10 − the roll (at least 1 under the ruling); a shove's success sends the foe as
many feet as the margin; a grapple holds until the opponent makes a Strength roll in a later melee
phase. In a phase an opponent who rolls higher acts first and, on a success, can stop your action
even when your roll succeeds (the source's Regdar example): `rival` works that race out exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.phases.attack_roll import check_number, phase_die
from calc.systems.phases.checks import check_roll, margin_step, phase_and_action

Step = dict[str, str]

RULE = {"opportunity": "opportunity-attacks", "grapple": "grapple", "shove": "shove"}
HOLD_PHASES = 10  # rows of the grapple's hold table: melee phases after the grapple


def failure_damage(face: int, number: int, inputs: dict[str, Any], data: SystemData) -> int:
    """10 − the roll on a failed roll (at least 1 under the ruling, else at least 0)."""
    base = data.fact("opportunity-attacks", "failure_damage_base")
    floor = data.fact("margin-damage", "minimum_damage") if inputs["failure_min_one"] else 0
    return max(floor, base - face) if face < number else 0


def maneuver(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    kind = inputs["maneuver"]
    rule = RULE[kind]
    steps: list[Step] = []
    if kind == "opportunity":
        steps.append(data.step(rule, "To avoid the opportunity attack, roll Melee + the enemy's Defense."))
    number = check_number(inputs, data, steps, rule).value
    roll = check_roll(inputs, data, steps, inputs["phase_roll"])
    steps.append(data.step(rule, "Not an attack roll: natural 20 and natural 1 have no special effect here."))
    p_ok = roll.p_ge(number)
    chances = [result.chance("Success", p_ok)]
    base = data.fact("opportunity-attacks", "failure_damage_base")
    least = data.fact("margin-damage", "minimum_damage")
    if inputs["failure_min_one"]:
        text = f"On a failure you are hit for {base} − the roll, at least {least}."
    else:
        text = f"Other reading: on a failure you are hit for {base} − the roll, with no minimum (0 if negative)."
    steps.append(data.step("ruling:failure-damage", text))
    hurt = roll.map(lambda f: failure_damage(f, number, inputs, data))
    chances.append(result.chance("Failure: you are hit", 1 - p_ok))
    out: dict[str, Any] = {"steps": steps}
    if kind == "shove":
        steps.append(margin_step(data, "shove", number, "on a success, the feet you may shove the foe away"))
        feet = roll.map(lambda f: f - number if f >= number else 0)
        out["distribution"] = result.dist_json(feet, "Feet shoved away (0 on a failure)")
        out["table"] = _face_table(roll, number, inputs, data)
        steps.append(data.step("shove", "Or, on any success, knock the foe Prone instead."))
    else:
        out["distribution"] = result.dist_json(hurt, "Damage you take (0 on a success)")
    if kind == "grapple":
        steps.append(data.step("grapple", "On a success both of you are Grappling; you may move the foe with you."))
        out["table"] = _hold(inputs, data, steps, chances)
    needed = result.roll_needed(max(number, 1), phase_die(data).max)
    summary = f"Succeeds on {needed['text']}: {result.percent(p_ok)}"
    if p_ok < 1:
        summary += f"; a failure costs {base} − the roll (mean damage {float(hurt.mean):.2f})"
    if inputs["rival"] == "stops":
        stands = _race(inputs, data, steps, number, chances)
        summary += f"; it succeeds and stands {result.percent(stands)} against the opponent's action"
    out["chances"] = chances
    out["summary"] = summary
    out["roll_needed"] = needed
    return out


def _face_table(roll: Dist, number: int, inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    rows = []
    for face, p in roll.items():
        if face >= number:
            rows.append([face, str(p), f"Success: shove {face - number} ft, or knock Prone"])
        else:
            rows.append([face, str(p), f"Failure: you take {failure_damage(face, number, inputs, data)}"])
    return result.table("Each d20 roll", ["d20", "Chance", "Result"], rows)


def _hold(inputs: dict[str, Any], data: SystemData, steps: list[Step], chances: list[dict]) -> dict[str, Any]:
    """The opponent's Strength roll to break free in each later melee phase: the chance it still
    holds after k phases is (1 − p)^k. The text names no Defense for this roll."""
    die = phase_die(data)
    target = inputs["opponent_strength"]
    p_free = die.p_ge(target)
    steps.append(
        data.step(
            "grapple",
            f"In each later melee phase the opponent may roll Strength to break free: a d20 of {target} or more "
            f"({result.percent(p_free)}); the text adds no Defense to that roll.",
        )
    )
    chances.append(result.chance("Opponent breaks free in a later melee phase", p_free))
    rows, held = [], Fraction(1)
    for k in range(1, HOLD_PHASES + 1):
        held *= 1 - p_free
        rows.append([k, result.percent(held), str(held)])
    return result.table("Still grappled after each later melee phase", ["Melee phases", "Held", "Exact"], rows)


def _race(inputs: dict[str, Any], data: SystemData, steps: list[Step], number: int, chances: list[dict]) -> Fraction:
    """Both declared; each d20 sets the order and is the action roll. Returns P(yours stands)."""
    die = phase_die(data)
    theirs = inputs["rival_roll"]
    if theirs and not die.min <= theirs <= die.max:
        raise InputError("rival_roll", f"must be a face of the phase die, {die.min} to {die.max}, or 0")
    need = inputs["rival_number"]
    rival = Dist.constant(theirs) if theirs else die
    mutual = inputs["mutual"]
    simultaneous = inputs["ties"] == "simultaneous"
    steps.append(
        data.step(
            "simultaneous-actions",
            f"The opponent's d20 reaching {need} succeeds; whoever rolled higher resolves first, and a success "
            "first stops the other's action" + ("" if mutual else " (yours does not stop theirs)") + ".",
        )
    )
    if simultaneous:
        steps.append(data.step("ruling:phase-ties", "Equal rolls act simultaneously: neither stops the other."))
    else:
        text = "Other reading: equal rolls roll again for the order, each first half the time."
        steps.append(data.step("ruling:phase-ties", text))
    grouped: dict[tuple[int, bool], int] = {}  # (phase roll, my action succeeds) → weight
    for (a, face), w in phase_and_action(inputs, data).items():
        grouped[(a, face >= number)] = grouped.get((a, face >= number), 0) + w
    # Integer weights doubled, so a re-rolled tie's half share stays whole.
    tie_first = 0 if simultaneous else 1  # doubled share of a tie in which one side goes first
    acc = {"stands": 0, "stopped": 0, "rival": 0}
    for (a, ok), w in grouped.items():
        for c, wc in rival.weights():
            weight = w * wc
            r_ok = c >= need
            they_first = 2 if c > a else tie_first if c == a else 0
            i_first = 2 if a > c else tie_first if c == a else 0
            if ok:
                blocked = they_first if r_ok else 0
                acc["stands"] += weight * (2 - blocked)
                acc["stopped"] += weight * blocked
            if r_ok:
                acc["rival"] += weight * (2 - (i_first if ok and mutual else 0))
    total = 2 * sum(grouped.values()) * rival.total
    p = {k: Fraction(v, total) for k, v in acc.items()}
    chances.append(result.chance("Yours succeeds and stands", p["stands"]))
    chances.append(result.chance("Your roll succeeds but the opponent stops it first", p["stopped"]))
    chances.append(result.chance("The opponent's action succeeds and stands", p["rival"]))
    return p["stands"]
