"""Segments' generated tables recomputed independently of `calc.systems.segments`, straight from the
rule text over the exported data, as the rendered cells (strings).

The attack tables are rebuilt the way the source describes them, walking along the AC columns
("count up 1 per AC until 20, repeat 20 six times, then keep counting"), not with the engine's
closed formula; the hit-dice mappings are spelled out from the source's wording.

`ORACLES[generator](data)` takes the system's `calc.inputs.data.SystemData` and returns the body rows.
"""

from __future__ import annotations

from collections.abc import Callable

from calc.inputs.data import SystemData


def _n(n: int) -> str:
    return str(n).replace("-", "\N{MINUS SIGN}")


def _walk_table(aac0: str, data: SystemData) -> list[str]:
    """The cells AC 10 … −10 of the table of `aac0`, by walking from the AC 0 cell outwards."""
    scale = data.fact("armor-class", "scale")
    repeats = data.fact("six-twenties", "repeats")
    top = data.fact("six-twenties", "top")
    start = data.fact("aac0", "star_value") if aac0.endswith("*") else int(aac0)
    cells: dict[int, int] = {}
    # Walk from the worst AC towards the best, counting a "raw" score r up by one per step.
    raw = start - scale["max"]
    twenties_seen = 0
    for ac in range(scale["max"], scale["min"] - 1, -1):
        if raw < top:
            cells[ac] = raw
        elif twenties_seen < repeats:
            cells[ac] = top
            twenties_seen += 1
        else:
            cells[ac] = top + (raw - top) - (repeats - 1)
        raw += 1
    return [_n(cells[ac]) for ac in range(scale["max"], scale["min"] - 1, -1)]


def _band(levels: dict) -> str:
    lo, hi = levels["min"], levels["max"]
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}\N{EN DASH}{hi}"


def _class_table(group: str) -> Callable[[SystemData], list[list[str]]]:
    def build(data: SystemData) -> list[list[str]]:
        rows = [r for r in data.table("class-aac0") if r["group"] == group]
        return [[_band(r["levels"]), r["aac0"], *_walk_table(r["aac0"], data)] for r in rows]

    return build


def monster_attack_table(data: SystemData) -> list[list[str]]:
    return [[r["column"], r["aac0"], *_walk_table(r["aac0"], data)] for r in data.table("monster-aac0")]


def aac0_by_level(data: SystemData) -> list[list[str]]:
    bands = data.table("class-aac0")
    groups = [g["id"] for g in data.table("class-groups")]
    top_level = max(b["levels"]["min"] for b in bands if b["levels"]["max"] is None)
    low_level = min(b["levels"]["min"] for b in bands)
    rows = []
    for level in range(low_level, top_level + 1):
        row = [str(level) + ("+" if level == top_level else "")]
        for g in groups:
            found = "—"
            for b in bands:
                hi = b["levels"]["max"] if b["levels"]["max"] is not None else 10**6
                if b["group"] == g and b["levels"]["min"] <= level <= hi:
                    found = b["aac0"]
            row.append(found)
        rows.append(row)
    return rows


def _attack_column(dice: int, bonus: int, data: SystemData) -> str:
    """Source: +1..+3 → the "+" rating of the same HD; +4 or more → one more HD (max +1)."""
    if bonus >= data.fact("enhanced-hit-dice", "attack_plus_max") + 1:
        dice, bonus = dice + 1, 0
    if dice == 1:
        if bonus <= -2:
            return "up to 1-1"
        return {-1: "1-1", 0: "1"}.get(bonus, "1+")
    for r in data.table("monster-aac0"):
        lo, hi = r["hd"]["min"], r["hd"]["max"]
        if lo is not None and lo >= 2 and dice >= lo and (hi is None or dice <= hi):
            return r["column"]
    raise AssertionError(f"no column for {dice}")


def _save_dice(dice: int, bonus: int, data: SystemData) -> int:
    """Source: +1-4 = +1, +5-8 = +2, +9-12 = +3 … (no maximum)."""
    step = data.fact("enhanced-hit-dice", "save_step")
    extra = 0
    while bonus > 0:
        extra += 1
        bonus -= step
    return dice + extra


def _save_row(hd: int, data: SystemData) -> str:
    for r in data.table("monster-save-table"):
        lo, hi = r["hd"]["min"], r["hd"]["max"]
        if hd >= lo and (hi is None or hd <= hi):
            return f"{lo}+" if hi is None else (str(lo) if lo == hi else f"{lo}-{hi}")
    raise AssertionError(hd)


def _aac0_of_column(column: str, data: SystemData) -> str:
    return next(r["aac0"] for r in data.table("monster-aac0") if r["column"] == column)


def aac0_by_hit_dice(data: SystemData) -> list[list[str]]:
    plus = data.fact("enhanced-hit-dice", "attack_plus_max")
    cases = [(1, -2, "below 1-1 (e.g. 1-2)"), (1, -1, "1-1"), (1, 0, "1"), (1, 1, f"1+1 to 1+{plus}")]
    cases += [(h, 0, str(h)) for h in range(2, 21)]
    rows = []
    for dice, bonus, label in cases:
        column = _attack_column(dice, bonus, data)
        rows.append([label, column, _aac0_of_column(column, data), _save_row(_save_dice(dice, bonus, data), data)])
    return rows


def enhanced_hit_dice(data: SystemData) -> list[list[str]]:
    die = data.fact("enhanced-hit-dice", "hit_die")
    rows = []
    for dice in range(1, 17):
        for bonus in range(1, 9):
            saves = _save_dice(dice, bonus, data)
            rows.append([f"{dice}+{bonus}", _attack_column(dice, bonus, data), _save_row(saves, data), str(saves),
                         f"{dice}{die}+{dice * bonus}", f"+{bonus}"])  # fmt: skip
    return rows


def spell_initiative_chart(data: SystemData) -> list[list[str]]:
    """Slots in the round: segment 1 HIGH, segment 1 LOW, segment 2 HIGH, …"""
    first = data.fact("spell-initiative", "start_segment")
    last = data.fact("spell-initiative", "chart_segments")
    slots = [(seg, side) for seg in range(first, first + last) for side in ("HIGH", "LOW")]
    names = {1: "st", 2: "nd", 3: "rd"}

    def ordinal(n: int) -> str:
        return f"{n}{'th' if 11 <= n % 100 <= 13 else names.get(n % 10, 'th')}"

    rows = []
    for time in range(1, last + 1):
        done = first + time - 1
        rows.append([str(time), str(done), ordinal(slots.index((done, "HIGH")) + 1),
                     ordinal(slots.index((done, "LOW")) + 1)])  # fmt: skip
    return rows


ORACLES: dict[str, Callable[[SystemData], list[list[str]]]] = {
    "fighter_attack_table": _class_table("fighters"),
    "cleric_attack_table": _class_table("clerics"),
    "magic_user_attack_table": _class_table("magic-users"),
    "thief_attack_table": _class_table("thieves"),
    "monster_attack_table": monster_attack_table,
    "aac0_by_level": aac0_by_level,
    "aac0_by_hit_dice": aac0_by_hit_dice,
    "enhanced_hit_dice": enhanced_hit_dice,
    "spell_initiative_chart": spell_initiative_chart,
}
