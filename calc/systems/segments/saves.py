"""The save calculator: a monster's row on the Monster Save Table from its saving-throw hit dice
(enhanced hit dice add a die per started 4 points of bonus), the column of what it saves against,
and the exact chance that d20 + modifiers reaches the number. Whether a natural 20 or 1 decides a
save is a ruling (the source says so of attack rolls only)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.errors import DataError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.segments.attack_tables import HitDice, minus, save_label, save_row, signed

SAVE_TABLE = "monster-save-table"


def column_label(category: str, data: SystemData) -> str:
    """The Monster Save Table's label of a save category (a column id of the table)."""
    for column in data.table_info(SAVE_TABLE)["columns"]:
        if column["id"] == category:
            return column["label"]
    raise DataError(f"segments: the Monster Save Table has no column '{category}'")


def save_chance(need: int, modifier: int, sides: int, natural: tuple[int, int] | None) -> Fraction:
    """P(d{sides} + modifier ≥ need); with `natural` = (always saves, always fails) faces those decide."""

    def saves(face: int) -> bool:
        if natural is not None and face in natural:
            return face == natural[0]
        return face + modifier >= need

    return Dist.die(sides).p_where(saves)


def save(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    hd = HitDice(inputs["hd"], inputs["hd_bonus"])
    saves_as = hd.saves(data)
    row = save_row(hd, data)
    category = inputs["category"]
    label = column_label(category, data)
    need = row[category]
    modifier = inputs["modifier"]
    sides = data.die_sides("monster-saves", "die")
    steps = []
    if hd.bonus > 0:
        step = data.fact("enhanced-hit-dice", "save_step")
        steps.append(
            data.step(
                "enhanced-hit-dice",
                f"{hd} HD: +{hd.bonus} adds ⌈{hd.bonus}/{step}⌉ = {saves_as - hd.dice} hit "
                f"{'die' if saves_as - hd.dice == 1 else 'dice'} on the save table, so it saves as {saves_as} HD.",
            )
        )
    elif hd.bonus < 0:
        steps.append(data.step("enhanced-hit-dice", f"{hd} HD: a penalty adds nothing; it saves as {saves_as} HD."))
    steps.append(
        data.step(
            "monster-saves", f'{saves_as} HD is the "{save_label(row)}" row; against {label.lower()} it needs {need}.'
        )
    )

    natural = inputs["natural_rolls"]
    top = data.fact("natural-rolls", "always_hits")
    bottom = data.fact("natural-rolls", "always_misses")
    p = save_chance(need, modifier, sides, (top, bottom) if natural else None)
    face = need - modifier
    steps.append(
        data.step(
            "monster-saves",
            f"d{sides} {signed(modifier)} ≥ {need}: a natural {minus(face)} or more"
            + (" (no face reaches it)." if face > sides else "."),
        )
    )
    if natural:
        steps.append(
            data.step(
                "ruling:save-natural-rolls",
                f"Other reading: a natural {top} always saves and a natural {bottom} always fails.",
            )
        )
        lowest = min(max(face, bottom + 1), top)
    else:
        steps.append(
            data.step("ruling:save-natural-rolls", "The total alone decides: no natural roll saves or fails by itself.")
        )
        lowest = max(face, 1)
    needed = result.roll_needed(lowest if lowest <= sides else None, sides)
    rows = [
        ["Hit dice", str(hd)],
        ["Saving-throw hit dice", str(saves_as)],
        ["Monster Save Table row", save_label(row)],
        ["Saves against", label],
        ["Table number", str(need)],
        ["Modifier", signed(modifier)],
        ["Roll needed", needed["text"]],
    ]
    if p == 0:
        summary = f"Cannot save against {label.lower()} (needs {minus(face)} on the d{sides})"
    elif p == 1:
        summary = f"Saves against {label.lower()} on any roll (100%)"
    else:
        summary = f"Saves against {label.lower()} on {needed['text']} ({result.percent(p)})"
    return {
        "summary": summary,
        "chances": [result.chance("Saves", p), result.chance("Fails", 1 - p)],
        "roll_needed": needed,
        "table": result.table("Saving throw", ["", "Value"], rows),
        "steps": steps,
    }
