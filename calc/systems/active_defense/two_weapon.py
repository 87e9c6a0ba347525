"""Two-weapon fighting in Active Defense: which rows of the penalties table apply, and how they stack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc.answers.format import signed
from calc.inputs.data import SystemData

TALENTS = ("light", "training", "mastery", "shield")
"""The condition columns of the two-weapon penalties table, in the inputs' order."""
HAND_COLUMN = {"primary": "primary", "off-hand": "off_hand"}


def applicable_rows(data: SystemData, flags: Mapping[str, bool]) -> list[dict[str, Any]]:
    """The listed table rows whose every ticked condition holds."""
    return [r for r in data.table("two-weapon-penalties") if all(flags[k] or not r[k] for k in TALENTS)]


def favourable_row(data: SystemData, flags: Mapping[str, bool]) -> dict[str, Any]:
    """The most favourable applicable row (ruling): least total penalty, then least primary penalty;
    among equally good rows, the first the source lists (`max` keeps the first maximum)."""
    return max(applicable_rows(data, flags), key=lambda r: (r["primary"] + r["off_hand"], r["primary"]))


def stacked_penalty(data: SystemData, flags: Mapping[str, bool], column: str) -> int:
    """The other reading: reductions add up from the normal row, never past 0."""
    rows = data.table("two-weapon-penalties")
    normal = next(r for r in rows if not any(r[k] for k in TALENTS))
    penalty = normal[column]
    if flags["light"]:
        penalty += data.fact("two-weapon-fighting", "light_reduction")
    for talent in TALENTS[1:]:
        if flags[talent]:
            alone = next(r for r in rows if r[talent] and not any(r[k] for k in TALENTS if k != talent))
            penalty += alone[column] - normal[column]
    return min(0, penalty)


def two_weapon_penalty(data: SystemData, hand: str, flags: Mapping[str, bool], reading: str) -> tuple[int, str]:
    """(penalty, how it was found) for a roll made with `hand` while fighting with two weapons."""
    column = HAND_COLUMN[hand]
    if reading == "stacking":
        return stacked_penalty(data, flags, column), "reductions added up from the normal row"
    row = favourable_row(data, flags)
    return row[column], f"row “{row['circumstances']}”"


def side_flags(inputs: Mapping[str, Any], side: str) -> dict[str, bool]:
    return {k: bool(inputs[f"{side}_{k}"]) for k in TALENTS}


def two_weapon_combinations(data: SystemData) -> dict[str, Any]:
    """Every light × talents combination resolved under the ruling, with the stacking reading beside it."""
    rows = []
    for light in (False, True):
        for training in (False, True):
            for mastery in (False, True):
                for shield in (False, True):
                    flags = {"light": light, "training": training, "mastery": mastery, "shield": shield}
                    names = [
                        c["label"]
                        for c in data.table_info("two-weapon-penalties")["columns"]
                        if c["id"] in TALENTS[1:] and flags[c["id"]]
                    ]
                    row = favourable_row(data, flags)
                    rows.append(
                        [
                            "yes" if light else "no",
                            ", ".join(names) or "none",
                            row["circumstances"],
                            signed(row["primary"]),
                            signed(row["off_hand"]),
                            signed(stacked_penalty(data, flags, "primary")),
                            signed(stacked_penalty(data, flags, "off_hand")),
                        ]
                    )
    columns = [
        ("light", "Off-hand weapon light"),
        ("talents", "Talents"),
        ("row", "Row used (ruling)"),
        ("primary", "Primary hand"),
        ("off_hand", "Off hand"),
        ("stacked_primary", "Primary hand (reductions add up)"),
        ("stacked_off_hand", "Off hand (reductions add up)"),
    ]
    return {"columns": [{"id": i, "label": label} for i, label in columns], "rows": rows, "caption": None}
