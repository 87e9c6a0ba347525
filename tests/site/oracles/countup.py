"""Countup's generated tables recomputed independently of `calc.systems.countup`, straight from the
rule text's arithmetic over the exported facts, as the rendered cells (strings).

`ORACLES[generator](data)` takes the system's `calc.inputs.data.SystemData` and returns the body rows.
"""

from __future__ import annotations

from collections.abc import Callable

from calc.inputs.data import SystemData


def _minus(n: int) -> str:
    return str(n).replace("-", "\N{MINUS SIGN}")


def _plus(n: int) -> str:
    return "+" + str(n) if n >= 0 else _minus(n)


def healing(data: SystemData) -> list[list[str]]:
    """Level × per-level hit points + Constitution bonus, at least the ruling's minimum, for each
    level shown and each band of the ability score table."""
    per_level = data.fact("natural-healing", "hp_per_level")
    least = data.fact("natural-healing", "minimum_per_day")
    shown = data.fact("natural-healing", "table_levels")
    bonuses = [row["bonus"] for row in data.table("ability-score-bonuses")]
    rows = []
    level = shown["min"]
    while level <= shown["max"]:
        cells = [str(level)]
        for bonus in bonuses:
            healed = per_level * level + bonus
            cells.append(str(healed if healed > least else least))
        rows.append(cells)
        level += 1
    return rows


def hit_points(data: SystemData) -> list[list[str]]:
    """Up above the Hurt band, Hurt inside it, dead at the death threshold; NPCs dead at theirs."""
    low, high = data.fact("hurt", "hurt_hp")["min"], data.fact("hurt", "hurt_hp")["max"]
    dead = data.fact("death", "death_hp")
    npc = data.fact("npc-death", "npc_death_hp")
    f = {k: _plus(data.fact("hurt", k)) for k in ("hit_penalty", "damage_penalty", "proficiency_penalty")}
    hurt = (
        f"Hurt: {f['hit_penalty']} to hit, {f['damage_penalty']} to damage, {f['proficiency_penalty']} to "
        f"proficiency checks; targets of their spells get {_plus(data.fact('hurt', 'spell_save_bonus'))} to save"
    )
    pcs, npcs = "Characters (and important NPCs, if the GM chooses)", "Most NPCs and monsters"
    return [
        [pcs, _minus(high + 1) + " or more", "Up, no penalty"],
        [pcs, f"{_minus(high)} to {_minus(low)}", hurt],
        [pcs, _minus(dead) + " or fewer", "Dead"],
        [npcs, _minus(npc + 1) + " or more", "Up, no penalty"],
        [npcs, _minus(npc) + " or fewer", "Dead"],
    ]


ORACLES: dict[str, Callable[[SystemData], list[list[str]]]] = {
    "healing_table": healing,
    "hp_thresholds": hit_points,
}
