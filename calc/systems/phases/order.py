"""Who acts first in a phase, and who flees in the morale phase.

Every phase but morale is resolved from the highest d20 down (movement by the margin of a
Dexterity roll, per the ruling); equal results act simultaneously (ruling) or roll again (the other
reading). A combatant whose roll is not known yet is a fresh die, so the chance that one acts
before another is exact either way. Morale: one 2d6 roll for all; a monster flees when the roll
is above its Morale score (ruling) or at least it (other reading)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.errors import DataError, InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.phases.attack_roll import phase_die, row_by
from calc.turns import order as who_first

Step = dict[str, str]


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    phase = row_by(data, "phases", "id", inputs["phase"])
    steps = [data.step("phase-order", f"Phase {phase['n']}: {phase['name']}.")]
    handler = _HANDLERS.get(phase["id"])
    if handler is None:
        raise DataError(f"{data.id}: no way to order phase '{phase['id']}' (known: {', '.join(_HANDLERS)})")
    return handler(inputs, data, steps)


# --- morale ----------------------------------------------------------------------------------
def flees(total: int, morale: int, reading: str) -> bool:
    """Whether a morale roll of `total` makes a monster of Morale `morale` flee."""
    return total > morale if reading == "above" else total >= morale


def _morale(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> dict[str, Any]:
    monsters = [(c["name"], c["morale"]) for c in inputs["combatants"] if c["morale"] > 0]
    if not monsters:
        raise InputError("combatants", "the morale phase needs at least one combatant with a Morale score above 0")
    expr = data.fact("morale", "morale_dice")
    roll = dice.parse(expr).dist()
    reading = inputs["morale_reading"]
    steps.append(data.step("morale", f"The GM rolls {expr} once for all the monsters."))
    if reading == "above":
        steps.append(data.step("ruling:morale-above", "A monster flees when the roll is above its Morale score."))
    else:
        steps.append(data.step("ruling:morale-above", "Other reading: a roll equal to the Morale score flees too."))
    chances = [
        result.chance(f"{name} flees", roll.p_where(lambda t, m=m: flees(t, m, reading))) for name, m in monsters
    ]
    rows = []
    for total, p in roll.items():
        fleeing = [name for name, m in monsters if flees(total, m, reading)]
        rows.append([total, str(p), ", ".join(fleeing) or "—"])
    summary = "; ".join(f"{c['label']} {result.percent(Fraction(c['p']['fraction']))}" for c in chances)
    return {
        "summary": summary,
        "chances": chances,
        "table": result.table(f"Who flees on each {expr} roll", ["Roll", "Chance", "Flees"], rows),
        "steps": steps,
    }


# --- phase order -----------------------------------------------------------------------------
def _ordered(inputs: dict[str, Any], data: SystemData, steps: list[Step], by_margin: bool) -> dict[str, Any]:
    die = phase_die(data)
    steps.append(
        data.step("declaration-order", "Actions are declared first: the GM for the monsters, then players clockwise.")
    )
    if by_margin:
        steps.append(data.step("movement-order", "Those who want to move roll Dexterity: a d20 against their target."))
        if inputs["movement_order"] == "margin":
            steps.append(
                data.step("ruling:movement-order", "Movers go in order of Dexterity margin (d20 − Dexterity target).")
            )
        else:
            by_margin = False
            steps.append(data.step("ruling:movement-order", "Other reading: movers go in order of the d20 alone."))
    steps.append(data.step("simultaneous-actions", "Each rolls a d20; actions resolve from the highest result down."))
    simultaneous = inputs["ties"] == "simultaneous"
    if simultaneous:
        steps.append(data.step("ruling:phase-ties", "Equal results act simultaneously."))
    else:
        steps.append(data.step("ruling:phase-ties", "Other reading: equal results roll again until the tie breaks."))

    names: list[str] = []
    fresh: list[Dist] = []
    now: list[Dist] = []
    known: list[tuple[str, int]] = []
    unknown: list[str] = []
    for c in inputs["combatants"]:
        shift = c["dex_target"] if by_margin else 0
        names.append(c["name"])
        fresh.append(die - shift)
        if c["roll"]:
            if not die.min <= c["roll"] <= die.max:
                raise InputError("combatants", f"{c['name']}: a roll must be {die.min} to {die.max}, or 0")
            known.append((c["name"], c["roll"] - shift))
            now.append(Dist.constant(c["roll"] - shift))
        else:
            unknown.append(c["name"])
            now.append(die - shift)

    def shown(score: int) -> str:
        return f"{score:+d}" if by_margin else str(score)

    def tie_note(group: list[int]) -> str:
        if len(group) < 2:
            return ""
        return "act simultaneously" if simultaneous else "tied: roll again to break the tie"

    order = result.order_groups(known, key=lambda s: -s, score=shown, note=tie_note)
    if unknown:
        order.append({"rank": len(order) + 1, "names": unknown, "score": "?", "tied": False, "note": "not rolled yet"})
    pairs = result.pairwise(names, lambda i, j: before_tied_after(now[i], now[j], fresh[i], fresh[j], simultaneous))
    chances = []
    if simultaneous:
        chances = [
            result.chance(f"{name} acts first, alone", p) for name, p in zip(names, first_alone(now), strict=True)
        ]
    summary = _summary(order, unknown)
    return {"summary": summary, "chances": chances, "order": order, "pairwise": pairs, "steps": steps}


def before_tied_after(
    a: Dist, b: Dist, fresh_a: Dist, fresh_b: Dist, simultaneous: bool
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a acts before b), P(at once), P(b before a)), higher first. Under the re-roll reading a
    tie is rolled again with fresh dice until it breaks, so it splits in the fresh dice's odds."""
    chances = who_first.compare(a, b, high_first=True)
    if simultaneous or not chances[1]:
        return chances
    return who_first.break_ties(chances, who_first.reroll_share(fresh_a, fresh_b))


def first_alone(scores: list[Dist]) -> list[Fraction]:
    """For each combatant, the chance that their result is strictly above everyone else's."""
    return who_first.first_chances(scores, high_first=True, alone=True)


def _summary(order: list[dict[str, Any]], unknown: list[str]) -> str:
    known = [g for g in order if g["score"] != "?"]
    if not known:
        return "Nobody has rolled yet: see the chance that each acts before another."
    text = ", then ".join(" and ".join(g["names"]) + f" ({g['score']})" for g in known)
    if unknown:
        text += f"; not rolled yet: {', '.join(unknown)}"
    return text


def _by_margin(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> dict[str, Any]:
    return _ordered(inputs, data, steps, by_margin=True)


def _by_d20(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> dict[str, Any]:
    return _ordered(inputs, data, steps, by_margin=False)


_HANDLERS: dict[str, Callable[[dict[str, Any], SystemData, list[Step]], dict[str, Any]]] = {
    "morale": _morale,
    "movement": _by_margin,
    "declare-spells": _by_d20,
    "ranged": _by_d20,
    "spells": _by_d20,
    "melee": _by_d20,
}
"""How each phase is resolved, keyed by the phase's id in the phases table (not its display text,
which may be reworded)."""
