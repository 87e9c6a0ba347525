"""The generated tables of the segments pages: every cell computed from the data by the same
functions the calculators use (attack tables from AAC0, enhanced hit dice, Spell Initiative Chart)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.systems.segments.attack_tables import (
    AttackTable,
    HitDice,
    ac_columns,
    band,
    class_aac0,
    class_bands,
    class_groups,
    group_name,
    minus,
    monster_column,
    save_label,
    save_row,
    signed,
)

ENHANCED_HIT_DICE = range(1, 17)
"""Hit dice shown in the enhanced-hit-dice conversion table (1 to 16)."""
ENHANCED_BONUSES = range(1, 9)
"""Hit-die bonuses shown in that table (+1 to +8)."""
PLAIN_HIT_DICE = range(2, 21)
"""Whole hit dice listed in the AAC0-by-hit-dice table after the 1-HD columns."""

Table = dict[str, Any]


def _table(columns: list[tuple[str, str]], rows: list[list[Any]], caption: str | None = None) -> Table:
    return {"columns": [{"id": cid, "label": label} for cid, label in columns], "rows": rows, "caption": caption}


def _ac_header(data: SystemData) -> list[tuple[str, str]]:
    return [(f"ac_{'m' if ac < 0 else ''}{abs(ac)}", f"AC {minus(ac)}") for ac in ac_columns(data)]


def class_attack_table(group: str, data: SystemData) -> Table:
    """One class group's attack table: a row per level band, a column per AC (10 … −10)."""
    rows = []
    for row in class_bands(group, data):
        table = AttackTable(row["aac0"])
        rows.append([band(row["levels"]["min"], row["levels"]["max"]), row["aac0"]]
                    + [minus(table.needs(ac, data)) for ac in ac_columns(data)])  # fmt: skip
    caption = f"{group_name(group, data)}: the modified d20 score that hits each AC, by level."
    return _table([("level", "Level"), ("aac0", "AAC0"), *_ac_header(data)], rows, caption)


def monster_attack_table(data: SystemData) -> Table:
    """The Monster Attack Table: a row per hit-dice column, a column per AC (10 … −10)."""
    rows = []
    for row in data.table("monster-aac0"):
        table = AttackTable(row["aac0"])
        rows.append([row["column"], row["aac0"]] + [minus(table.needs(ac, data)) for ac in ac_columns(data)])
    caption = "The modified d20 score a creature without a class needs to hit each AC, by hit dice."
    return _table([("hit_dice", "Hit dice"), ("aac0", "AAC0"), *_ac_header(data)], rows, caption)


def aac0_by_level(data: SystemData) -> Table:
    """AAC0 of every class group at every level, up to the last band's first level."""
    groups = class_groups(data)
    last = max(r["levels"]["min"] for r in data.table("class-aac0") if r["levels"]["max"] is None)
    first = min(r["levels"]["min"] for r in data.table("class-aac0"))
    rows = []
    for level in range(first, last + 1):
        cells = []
        for g in groups:
            try:
                cells.append(class_aac0(g["id"], level, data))
            except InputError:
                cells.append("—")
        rows.append([f"{level}+" if level == last else str(level), *cells])
    return _table([("level", "Level"), *[(g["id"].replace("-", "_"), g["name"]) for g in groups]], rows)


def aac0_by_hit_dice(data: SystemData) -> Table:
    """AAC0 by hit dice: the 1-HD columns (below 1-1, 1-1, 1, 1+), then whole hit dice."""
    plus_max = data.fact("enhanced-hit-dice", "attack_plus_max")
    examples = [(HitDice(1, -2), "below 1-1 (e.g. 1-2)"), (HitDice(1, -1), "1-1"), (HitDice(1, 0), "1"),
                (HitDice(1, 1), f"1+1 to 1+{plus_max}")]  # fmt: skip
    examples += [(HitDice(h, 0), str(h)) for h in PLAIN_HIT_DICE]
    rows = []
    for hd, label in examples:
        column = monster_column(hd, data)
        rows.append([label, column["column"], column["aac0"], save_label(save_row(hd, data))])
    columns = [("hit_dice", "Hit dice"), ("column", "Attack column"), ("aac0", "AAC0"), ("save_row", "Save row")]
    return _table(columns, rows)


def enhanced_hit_dice(data: SystemData) -> Table:
    """Hit dice 1–16 with bonuses +1..+8: attack column, save row, overall HD, hit points, morale."""
    rows = []
    for dice in ENHANCED_HIT_DICE:
        for bonus in ENHANCED_BONUSES:
            hd = HitDice(dice, bonus)
            rows.append([str(hd), monster_column(hd, data)["column"], save_label(save_row(hd, data)),
                         str(hd.saves(data)), hd.hit_points(data), signed(bonus)])  # fmt: skip
    columns = [("hit_dice", "Hit dice"), ("attack_column", "Attacks on"), ("save_row", "Saves on"),
               ("overall_hd", "Overall HD"), ("hit_points", "Hit points"), ("morale", "Morale")]  # fmt: skip
    return _table(columns, rows)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def spell_initiative_chart(data: SystemData) -> Table:
    """Casting time 1..one round × HIGH/LOW → completion segment and place in the round's spells."""
    start = data.fact("spell-initiative", "start_segment")
    longest = data.fact("spell-initiative", "chart_segments")
    rows = []
    for time in range(1, longest + 1):
        segment = start + time - 1
        place = 2 * (segment - start)  # two slots (HIGH, LOW) per segment before this one
        rows.append([str(time), str(segment), _ordinal(place + 1), _ordinal(place + 2)])
    columns = [("casting_time", "Casting time (segments)"), ("segment", "Completes on segment"),
               ("high", "HIGH caster resolves"), ("low", "LOW caster resolves")]  # fmt: skip
    caption = "Places in the round's spell order; a delayed caster counts as LOW. Same place: together."
    return _table(columns, rows, caption)


TABLES: dict[str, Callable[[SystemData], Table]] = {
    "fighter_attack_table": partial(class_attack_table, "fighters"),
    "cleric_attack_table": partial(class_attack_table, "clerics"),
    "magic_user_attack_table": partial(class_attack_table, "magic-users"),
    "thief_attack_table": partial(class_attack_table, "thieves"),
    "monster_attack_table": monster_attack_table,
    "aac0_by_level": aac0_by_level,
    "aac0_by_hit_dice": aac0_by_hit_dice,
    "enhanced_hit_dice": enhanced_hit_dice,
    "spell_initiative_chart": spell_initiative_chart,
}
