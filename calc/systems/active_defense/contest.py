"""Contested rolls: counterspell (your skill against the caster's, same school, within 60 feet,
from a reserved complex action) and feint (weapon skill + Intelligence against Defense skill +
Wisdom; a win denies the target its block or dodge against your next attack, which the hit
calculator's exchange then prices both ways)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers.format import signed
from calc.answers.result import chance, percent, table
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.active_defense.hit import exchange
from calc.systems.active_defense.readers import num


def contest(data: SystemData, rule: str, mine: int, theirs: int, reroll: bool) -> tuple[Fraction, Fraction]:
    """(P the initiator wins, P of a tie before any re-roll): 1d20 + `mine` against 1d20 + `theirs`;
    a tie goes to the other side, or is rolled again until someone is higher."""
    die = Dist.die(data.die_sides(rule, "die"))
    _, tie, win = (die + mine).compare(die + theirs)
    if reroll and tie != 1:
        win = win / (1 - tie)
    return win, tie


def _ties_step(data: SystemData, reroll: bool, other: str) -> dict[str, str]:
    text = "Ties are rolled again (other reading)." if reroll else f"A tie goes to {other} (ruling)."
    return data.step("ruling:contest-ties", f"Each side rolls 1d20 (the face as rolled). {text}")


def counterspell(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    mine = inputs["counter_skill"] + inputs["counter_modifier"]
    theirs = inputs["caster_skill"] + inputs["caster_modifier"]
    reroll = inputs["contest_ties"] == "reroll"
    reach = data.fact("counterspell", "range")
    steps = []
    blocked = []
    if not inputs["reserved"]:
        blocked.append("it needs a complex action held in reserve")
    if inputs["distance"] > reach:
        blocked.append(f"the caster is {inputs['distance']} feet away, more than {reach}")
    if not inputs["trained"]:
        blocked.append("you have no training in the spell's school")
    steps.append(
        data.step(
            "counterspell",
            f"A reserved complex action, within {reach} feet, trained in the school: "
            + ("all met." if not blocked else "not met — " + "; ".join(blocked) + "."),
        )
    )
    win, tie = contest(data, "counterspell", mine, theirs, reroll)
    if blocked:
        win = Fraction(0)
    steps.append(
        data.step(
            "counterspell",
            f"Contest: your 1d20 {signed(mine)} against the caster's 1d20 {signed(theirs)}, same skill; "
            "win and the spell fizzles.",
        )
    )
    steps.append(_ties_step(data, reroll, "the caster: the spell goes off"))
    rows = []
    die = data.die_sides("counterspell", "die")
    for face in range(1, die + 1):
        beaten = Fraction(sum(1 for other in range(1, die + 1) if face + mine > other + theirs), die)
        level = Fraction(sum(1 for other in range(1, die + 1) if face + mine == other + theirs), die)
        p = beaten + (level / 2 if reroll and level else 0)
        rows.append([face, num(face + mine), percent(0 if blocked else p)])
    summary = (
        f"Cannot counter: {'; '.join(blocked)}"
        if blocked
        else f"Counters the spell {percent(win)} (tie {percent(tie)} before any re-roll)"
    )
    return {
        "summary": summary,
        "chances": [
            chance("Counters the spell", win),
            chance("The spell goes off", 1 - win),
            chance("Tie on the first roll", Fraction(0) if blocked else tie),
        ],
        "table": table(
            "Each face of your d20", ["Your roll", "Your total", "Wins" if not reroll else "Wins (ties split)"], rows
        ),
        "steps": steps,
    }


def feint(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    mine = inputs["attack_skill"] + inputs["attacker_int"]
    theirs = inputs["dodge_skill"] + inputs["defender_wis"]
    reroll = inputs["contest_ties"] == "reroll"
    steps = [
        data.step(
            "feint",
            f"Feint (a complex action): weapon skill {inputs['attack_skill']} + Intelligence "
            f"{signed(inputs['attacker_int'])} against Defense skill {inputs['dodge_skill']} + Wisdom "
            f"{signed(inputs['defender_wis'])}: 1d20 {signed(mine)} against 1d20 {signed(theirs)}.",
        ),
        _ties_step(data, reroll, "the defender: the feint fails"),
    ]
    win, tie = contest(data, "feint", mine, theirs, reroll)
    attack_inputs = dict(inputs) | {
        "attacker_two_weapon": "none",
        "defender_two_weapon": "none",
        "two_weapon_reading": "most-favourable",
    }
    ex = exchange(attack_inputs, data, steps)
    bare = ex.p_beats_passive()
    defended = ex.p_lands()
    after = win * bare + (1 - win) * defended
    steps.append(
        data.step(
            "feint",
            f"A successful feint leaves the target no {inputs['defense'] if inputs['defense'] != 'none' else 'active'}"
            f" defense against your next attack: it lands {percent(bare)} then, {percent(defended)} otherwise.",
        )
    )
    summary = (
        f"The feint works {percent(win)}; your next attack then lands {percent(after)} "
        f"against {percent(defended)} with no feint"
    )
    rows = [
        ["Feint succeeds", percent(win), percent(bare)],
        ["Feint fails", percent(1 - win), percent(defended)],
        ["No feint", "—", percent(defended)],
    ]
    return {
        "summary": summary,
        "chances": [
            chance("Feint succeeds", win),
            chance("Next attack lands after the feint", after),
            chance("Attack lands without a feint", defended),
            chance(f"Beats Passive Defense {num(ex.passive_defense)}", bare),
        ],
        "table": table("Your next attack", ["Case", "Chance", "Attack lands"], rows),
        "steps": steps,
    }
