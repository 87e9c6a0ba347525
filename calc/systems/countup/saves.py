"""The save calculator: the text gives the targets of a Hurt caster's spells +10 to save but no
save table, so the reader enters the number the save needs (rules notes: no invented numbers).
How the save is rolled (d20 + modifiers, natural rolls or not) is a ruling."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.answers.format import number, signed
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist


def save_chance(need: int, bonus: int, sides: int, natural_rolls: bool) -> Fraction:
    """P(d{sides} + bonus ≥ need); with natural rolls the top face always saves and a 1 always fails."""

    def saves(face: int) -> bool:
        if natural_rolls and face in (1, sides):
            return face == sides
        return face + bonus >= need

    return Dist.die(sides).p_where(saves)


def lowest_face(need: int, bonus: int, sides: int, natural_rolls: bool) -> int | None:
    """The lowest face that saves (None: none does)."""
    face = need - bonus
    if natural_rolls:
        return min(max(face, 2), sides)
    if face > sides:
        return None
    return max(face, 1)


def save(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    sides = data.die_sides("hurt", "save_die")
    hurt_bonus = data.fact("hurt", "spell_save_bonus")
    need, modifier, natural = inputs["need"], inputs["modifier"], inputs["natural_rolls"]
    bonus = {True: modifier + hurt_bonus, False: modifier}
    p = {hurt: save_chance(need, bonus[hurt], sides, natural) for hurt in (True, False)}
    faces = {hurt: lowest_face(need, bonus[hurt], sides, natural) for hurt in (True, False)}
    hurt = inputs["caster_hurt"]

    steps = [
        data.step(
            "ruling:save-natural-rolls",
            f"The text prints no save table: the save needs {number(need)} as entered, on d{sides} + modifiers.",
        ),
        data.step(
            "hurt",
            f"A Hurt caster's targets get {signed(hurt_bonus)} to save: d{sides} {signed(modifier)} "
            f"{signed(hurt_bonus)} ≥ {number(need)} saves on a natural {number(need - bonus[True])} or more.",
        ),
        data.step(
            "hurt",
            f"Against a caster who is not Hurt: d{sides} {signed(modifier)} ≥ {number(need)}, "
            f"a natural {number(need - bonus[False])} or more.",
        ),
    ]
    if natural:
        steps.append(data.step("ruling:save-natural-rolls", f"Option on: a natural {sides} saves, a natural 1 fails."))
    else:
        steps.append(data.step("ruling:save-natural-rolls", "Only the total counts, as for attacks (ruling)."))

    needed = result.roll_needed(faces[hurt], sides)
    who = "a Hurt caster" if hurt else "a caster who is not Hurt"
    if p[hurt] == 0:
        summary = f"Cannot save against {who} (needs {number(need - bonus[hurt])} on the d{sides})"
    else:
        summary = f"Saves against {who} on {needed['text']} ({result.percent(p[hurt])})"
    other = "not Hurt" if hurt else "Hurt"
    summary += f"; {result.percent(p[not hurt])} if the caster were {other}"
    rows = [
        [situation, signed(bonus[h]), result.roll_needed(faces[h], sides)["text"], result.percent(p[h])]
        for h, situation in ((True, "Caster Hurt"), (False, "Caster not Hurt"))
    ]
    return {
        "summary": summary,
        "chances": [
            result.chance("Saves", p[hurt]),
            result.chance("Fails", 1 - p[hurt]),
            result.chance("Saves against a Hurt caster", p[True]),
            result.chance("Saves against a caster who is not Hurt", p[False]),
        ],
        "roll_needed": needed,
        "table": result.table("Saving throw", ["Caster", "Save bonus", "Roll needed", "Chance"], rows),
        "steps": steps,
    }
