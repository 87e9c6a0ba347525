"""Phases' round for the encounter tracker: six phases in a fixed order; in the morale phase the
GM rolls 2d6 once for all monsters when morale is triggered, and in every other phase each
combatant acting in it rolls a d20, resolved from the highest down (movement by the margin of the
Dexterity roll, d20 − Dexterity target: abilities are targets, lower is better). Equal results act
simultaneously (ruling) or roll again. Each phase's order comes from the initiative calculator.

A combatant may carry `acts_in`: the ids of the phases it acts in this round (declared before the
rolls); without it, every phase."""

from __future__ import annotations

from typing import Any

from calc.answers.format import number
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.systems.phases import order as phase_order
from calc.turns import helpers as kit

ROUND_INPUTS: tuple[str, ...] = ("phase",)
"""Initiative calculator inputs the round sets itself (every phase in turn), so not options."""


def _phases(data: SystemData) -> tuple[dict | None, list[dict]]:
    """(the morale phase's row, the rows of the phases ordered by d20), in the table's order."""
    morale, ordered = None, []
    for row in data.table("phases"):
        if phase_order._HANDLERS.get(row["id"]) is phase_order._morale:
            morale = row
        else:
            ordered.append(row)
    return morale, ordered


def _acts_in(p: dict[str, Any], index: int, ordered: list[dict]) -> set[str]:
    ids = [row["id"] for row in ordered]
    given = p["given"].get("acts_in")
    if given is None:
        return set(ids)
    if not isinstance(given, list) or not all(isinstance(x, str) for x in given):
        raise InputError(f"combatants[{index + 1}].acts_in", f"must be a list of phase ids ({', '.join(ids)})")
    for x in given:
        if x not in ids:
            raise InputError(f"combatants[{index + 1}].acts_in", f"'{x}' is not a phase one acts in ({', '.join(ids)})")
    return set(given)


def _morale_dice(data: SystemData) -> dice.DiceExpr:
    return dice.parse(data.fact("morale", "morale_dice"))


def dice_needed(people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> list[dict]:
    morale, ordered = _phases(data)
    sides = data.die_sides("simultaneous-actions", "phase_die")
    out = []
    if morale and any(p["morale"] > 0 for p in people):
        expr = _morale_dice(data)
        term = expr.terms[0]
        label = "Morale: one roll for all the monsters, only when morale is triggered"
        out.append(kit.die(data, "morale", term.sides, label, "morale", count=term.count, optional=True))
    acting = [_acts_in(p, i, ordered) for i, p in enumerate(people)]
    for row in ordered:
        for p, acts in zip(people, acting, strict=True):
            if row["id"] in acts:
                what = "Dexterity roll" if row["id"] == "movement" else "d20"
                label = f"{p['name']}: phase {row['n']} ({row['name']}), {what}"
                rule = "movement-order" if row["id"] == "movement" else "simultaneous-actions"
                out.append(kit.die(data, f"{row['id']}:{p['id']}", sides, label, rule))
    return out


def turn_order(people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict) -> dict:
    morale, ordered = _phases(data)
    sides = data.die_sides("simultaneous-actions", "phase_die")
    acting = [_acts_in(p, i, ordered) for i, p in enumerate(people)]
    notes: list[dict] = []
    needs: list[dict] = []
    fled: set[int] = set()
    if morale and "morale" in rolls:  # noted even when those it sent off (calc.systems.phases.fight) are gone
        expr = _morale_dice(data)
        dist = expr.dist()
        total = kit.rolled(rolls, "morale", dist.min, dist.max, f"the morale {expr}")
        fled = {
            i
            for i, p in enumerate(people)
            if p["morale"] > 0 and phase_order.flees(total, p["morale"], options["morale_reading"])
        }
        who = ", ".join(people[i]["name"] for i in sorted(fled)) or "none of those still fighting"
        notes.append(data.step("morale", f"Phase {morale['n']}: morale roll {total}: {who} flees."))
        reading = "above" if options["morale_reading"] == "above" else "equal to or above"
        notes.append(data.step("ruling:morale-above", f"A monster flees on a roll {reading} its Morale score."))
    elif morale:
        notes.append(data.step("morale", f"Phase {morale['n']}: no morale roll this round."))

    listed: list[dict] = []
    rank = 0
    for row in ordered:
        members = [i for i in range(len(people)) if row["id"] in acting[i]]
        if not members:
            continue
        entries = []
        for i in members:
            p = people[i]
            roll = kit.rolled(rolls, f"{row['id']}:{p['id']}", 1, sides, f"{p['name']}'s d{sides} in {row['name']}")
            entries.append({"name": kit.tag(i), "roll": roll, "dex_target": p["dex_target"], "morale": p["morale"]})
        answer = kit.initiative(data, {**options, "phase": row["id"], "combatants": entries}, people)
        by_margin = row["id"] == "movement" and options["movement_order"] == "margin"
        shift = {i: people[i]["dex_target"] if by_margin else 0 for i in members}
        roll_of = {kit.untag(e["name"]): e["roll"] for e in entries}
        steps = [s for s in answer["steps"] if s["rule"] != "declaration-order"]
        for group in answer["order"]:
            tied = [kit.untag(n) for n in group["names"]]
            if len(tied) > 1 and options["ties"] == "reroll":
                blocks = _break_tie(tied, shift, row, people, rolls, data, needs, notes, sides)
            else:
                blocks = [(tied, "acts simultaneously" if len(tied) > 1 else "")]
            for block, tie in blocks:
                rank += 1
                for i in block:
                    p = people[i]
                    score = number(roll_of[i] - shift[i])
                    rolled = (
                        f"{p['name']} rolled {roll_of[i]} − Dexterity target {p['dex_target']} = margin {score}"
                        if by_margin
                        else f"{p['name']} rolled {roll_of[i]}"
                    )
                    why = [data.step("phase-order", f"Phase {row['n']}: {row['name']}.")]
                    why += [s for s in steps if s["rule"] != "phase-order"]
                    why.append(data.step("simultaneous-actions", f"{rolled}; highest first."))
                    if tie:
                        why.append(data.step("ruling:phase-ties", f"Equal results: {tie}."))
                    if i in fled:
                        why.append(data.step("morale", f"{p['name']} flees (morale)."))
                    listed.append(
                        {
                            "id": p["id"],
                            "when": f"phase {row['n']} ({row['name']}) · {'margin ' if by_margin else ''}{score}",
                            "rank": rank,
                            "phase": row["id"],
                            "why": why,
                        }
                    )
    return {"turns": listed, "notes": notes, "needs": needs, "fled": [people[i]["id"] for i in sorted(fled)]}


def _break_tie(
    tied: list[int],
    shift: dict[int, int],
    row: dict,
    people: list[dict[str, Any]],
    rolls: dict,
    data: SystemData,
    needs: list[dict],
    notes: list[dict],
    sides: int,
    level: int = 1,
) -> list[tuple[list[int], str]]:
    """The other reading of equal results: roll again (the same die, the same target) until they differ."""

    def key(i: int) -> str:
        return f"tie:{row['id']}:{people[i]['id']}" + (f":{level}" if level > 1 else "")

    names = ", ".join(people[i]["name"] for i in tied)
    missing = [i for i in tied if key(i) not in rolls]
    if missing:
        for i in missing:
            label = f"{people[i]['name']}: roll again, tie in {row['name']}"
            needs.append(kit.die(data, key(i), sides, label, "ruling:phase-ties"))
        notes.append(data.step("ruling:phase-ties", f"{row['name']}: {names} are tied: roll again."))
        return [(tied, "tied: roll again")]
    value = {i: kit.rolled(rolls, key(i), 1, sides, f"the d{sides} rolled again") - shift[i] for i in tied}
    shown = "; ".join(f"{people[i]['name']} {number(value[i])}" for i in tied)
    notes.append(data.step("ruling:phase-ties", f"{row['name']}: tie rolled again: {shown}."))
    out: list[tuple[list[int], str]] = []
    for v in sorted(set(value.values()), reverse=True):
        same = [i for i in tied if value[i] == v]
        if len(same) == 1:
            out.append((same, f"won the roll again with {number(v)}"))
        else:
            out += _break_tie(same, shift, row, people, rolls, data, needs, notes, sides, level + 1)
    return out
