"""The tables countup's pages show, computed from its data (healing per day, hit point thresholds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.answers.format import number, signed
from calc.inputs.data import SystemData
from calc.systems.countup.readers import ABILITY_TABLE, range_label


def natural_healing(level: int, con_bonus: int, data: SystemData, floor: bool = True) -> int:
    """Hit points regained in one day of rest: level × per-level + Constitution bonus (≥ 0 by ruling)."""
    healed = level * data.fact("natural-healing", "hp_per_level") + con_bonus
    return max(healed, data.fact("natural-healing", "minimum_per_day")) if floor else healed


def healing_table(data: SystemData) -> dict[str, Any]:
    """Hit points regained per day of rest, by level (rows) and Constitution score band (columns)."""
    levels = data.fact("natural-healing", "table_levels")
    bands = data.table(ABILITY_TABLE)
    columns = [{"id": "level", "label": "Level"}] + [
        {"id": f"con_{i}", "label": f"Con {range_label(b['score']['min'], b['score']['max'])}"}
        for i, b in enumerate(bands)
    ]
    rows = [
        [level] + [natural_healing(level, b["bonus"], data) for b in bands]
        for level in range(levels["min"], levels["max"] + 1)
    ]
    return {"columns": columns, "rows": rows, "caption": None}


def hp_thresholds(data: SystemData) -> dict[str, Any]:
    """What a creature's current hit points mean: up, Hurt or dead, for characters and for NPCs."""
    band = data.fact("hurt", "hurt_hp")
    dead = data.fact("death", "death_hp")
    npc_dead = data.fact("npc-death", "npc_death_hp")
    hurt = (
        f"Hurt: {signed(data.fact('hurt', 'hit_penalty'))} to hit, {signed(data.fact('hurt', 'damage_penalty'))} "
        f"to damage, {signed(data.fact('hurt', 'proficiency_penalty'))} to proficiency checks; targets of their "
        f"spells get {signed(data.fact('hurt', 'spell_save_bonus'))} to save"
    )
    characters = "Characters (and important NPCs, if the GM chooses)"
    npcs = "Most NPCs and monsters"
    rows = [
        [characters, f"{number(band['max'] + 1)} or more", "Up, no penalty"],
        [characters, f"{number(band['max'])} to {number(band['min'])}", hurt],
        [characters, f"{number(dead)} or fewer", "Dead"],
        [npcs, f"{number(npc_dead + 1)} or more", "Up, no penalty"],
        [npcs, f"{number(npc_dead)} or fewer", "Dead"],
    ]
    columns = [{"id": "who", "label": "Who"}, {"id": "hp", "label": "Hit points"}, {"id": "state", "label": "State"}]
    return {"columns": columns, "rows": rows, "caption": None}


TABLES: dict[str, Callable[[SystemData], dict[str, Any]]] = {
    "healing_table": healing_table,
    "hp_thresholds": hp_thresholds,
}
