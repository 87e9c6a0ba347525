"""Small readers of countup's data (dice facts, the ability score table) and its number formatting."""

from __future__ import annotations

from calc.answers.format import signed
from calc.errors import InputError
from calc.inputs.data import SystemData

ABILITY_TABLE = "ability-score-bonuses"


def minus_term(n: int) -> str:
    """`− n` to subtract n in a written sum, `+ 2` when n is −2 (never "− −2")."""
    return f"− {n}" if n >= 0 else f"+ {-n}"


def range_label(low: int | None, high: int | None) -> str:
    """A score band as the site shows it: "3", "4–5", "18+"."""
    if high is None:
        return f"{low}+"
    if low is None:
        return f"{high} or less"
    return str(low) if low == high else f"{low}–{high}"


def ability_bonus_of(score: int, data: SystemData, input_name: str) -> int:
    """The bonus of an ability score, from the ability score table (a ruling)."""
    rows = data.table(ABILITY_TABLE)
    for row in rows:
        low, high = row["score"]["min"], row["score"]["max"]
        if (low is None or score >= low) and (high is None or score <= high):
            return row["bonus"]
    lowest = min(r["score"]["min"] for r in rows)
    highest = max(r["score"]["max"] for r in rows)
    raise InputError(
        input_name,
        f"the ability score table covers scores {lowest} to {highest} (got {score}); type the bonus in instead",
    )


def chosen_bonus(
    data: SystemData, how: str, score: int, bonus: int, ability: str, score_input: str
) -> tuple[int, dict[str, str]]:
    """The ability bonus the user asked for (looked up from the score, or typed in), and the step."""
    if how == "score":
        value = ability_bonus_of(score, data, score_input)
        text = f"{ability} {score} gives {signed(value)} (the site's ability score table)."
        return value, data.step("ability-bonuses", text)
    text = f"{ability} bonus {signed(bonus)} as typed in, instead of the site's table."
    return bonus, data.step("ruling:ability-bonus-table", text)
