"""The generated tables of the rule pages: every cell worked out from the rules data."""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import Any

from calc.answers.format import number as minus
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.systems.action_points.weapons import PROPERTY_TABLE, RANK_TABLE, WEAPON_TABLE

ACTION_TABLE = "action-type-costs"

WOUND_BASE_HP = (4, 6, 8, 10, 12)
"""Sample base HP values shown as columns of the wound-threshold table (not rule numbers)."""
WOUND_MAX_HP = (20, 30, 40, 45, 50, 60, 80, 100, 150)
"""Sample maximum HP values shown as rows of the wound-threshold table (not rule numbers)."""
SWAP_GAPS = range(1, 7)
"""The gaps between the two scores shown in the swap table."""


def decimal(value: Fraction) -> str:
    """An exact number as a short decimal: 4.5, 9, 3.333."""
    return f"{float(value):.3f}".rstrip("0").rstrip(".")


def offset(base: str, n: int) -> str:
    """`L + 1`, `L`, `L − 1`."""
    return base if n == 0 else f"{base} + {n}" if n > 0 else f"{base} − {-n}"


def columns(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"id": i, "label": label} for i, label in pairs]


def common_action_costs(data: SystemData) -> dict[str, Any]:
    """Every rule with an `action_type` fact, with the AP its type costs."""
    types = {row["id"]: row for row in data.table(ACTION_TABLE)}
    rows = []
    for rule in data.raw["rules"].values():
        kind = rule.get("facts", {}).get("action_type")
        if kind is None:
            continue
        row = types[kind]
        rows.append((row["ap"], rule["title"], [rule["title"], row["name"], str(row["ap"])]))
    rows.sort(key=lambda r: (r[0], r[1]))
    return {
        "columns": columns(("action", "Action"), ("type", "Action type"), ("ap", "AP")),
        "rows": [r[2] for r in rows],
        "caption": None,
    }


def critical_range(threshold: int, sides: int) -> str:
    low = max(threshold, 1)
    return str(sides) if low >= sides else f"{low}–{sides}"


def weapon_stats(data: SystemData) -> dict[str, Any]:
    """What each weapon preset means: average damage, critical range and chance, average critical."""
    sides = data.die_sides("standard-attack", "attack_die")
    rows = []
    for w in data.table(WEAPON_TABLE):
        expr = dice.parse(w["damage"])
        mean = expr.dist().mean
        crit_chance = Fraction(sides - max(w["threshold"], 1) + 1, sides)
        rows.append(
            [
                w["name"],
                str(expr),
                decimal(mean),
                critical_range(w["threshold"], sides),
                f"{decimal(crit_chance * 100)}%",
                f"×{w['multiplier']}",
                decimal(mean * w["multiplier"]),
            ]
        )
    return {
        "columns": columns(
            ("weapon", "Weapon"),
            ("damage", "Damage"),
            ("average", "Average"),
            ("critical_range", "Critical range"),
            ("critical_chance", "Critical chance"),
            ("multiplier", "Multiplier"),
            ("average_critical", "Average critical"),
        ),
        "rows": rows,
        "caption": None,
    }


def dice_rank_steps(data: SystemData) -> dict[str, Any]:
    """Each dice rank with its average and its neighbours one rank down (Light) and up (Heavy)."""
    ranked = sorted(data.table(RANK_TABLE), key=lambda r: r["rank"])
    steps = {p["id"]: p["dice_rank"] for p in data.table(PROPERTY_TABLE)}
    down, up = steps["light"], steps["heavy"]
    rows = []
    for i, row in enumerate(ranked):
        expr = dice.parse(row["dice"])

        def neighbour(step: int, i: int = i) -> str:
            j = i + step
            return ranked[j]["dice"] if 0 <= j < len(ranked) else "—"

        rows.append([str(row["rank"]), row["dice"], decimal(expr.dist().mean), neighbour(down), neighbour(up)])
    return {
        "columns": columns(
            ("rank", "Rank"),
            ("dice", "Dice"),
            ("average", "Average"),
            ("light", "Light (down)"),
            ("heavy", "Heavy (up)"),
        ),
        "rows": rows,
        "caption": None,
    }


def swap_outcomes(data: SystemData) -> dict[str, Any]:
    """For each gap H − L: the lower roller's new score under both readings, and who then acts first."""
    minus_h = data.fact("initiative-swap", "higher_minus")
    plus_l = data.fact("initiative-swap", "own_plus")

    def first(new_low: int) -> str:
        # After the swap the higher roller holds L (offset 0).
        if new_low > 0:
            return "lower roller"
        return "tie (re-roll)" if new_low == 0 else "higher roller"

    rows = []
    for gap in SWAP_GAPS:
        a, b = gap + minus_h, plus_l  # the two candidates, relative to L
        examples, literal = max(a, b), min(a, b)
        rows.append([str(gap), "L", offset("L", examples), first(examples), offset("L", literal), first(literal)])
    return {
        "columns": columns(
            ("gap", "H − L"),
            ("higher", "Higher roller takes"),
            ("examples", "Lower roller takes (examples, ruling)"),
            ("examples_first", "Then first (examples)"),
            ("literal", "Lower roller takes (literal)"),
            ("literal_first", "Then first (literal)"),
        ),
        "rows": rows,
        "caption": None,
    }


def hit_point_states(data: SystemData) -> dict[str, Any]:
    """State and dying check for each hit point total from the dying line to death."""
    below = data.fact("dying", "dying_below")
    dead = data.fact("dead", "dead_at")
    dc = data.fact("dying", "check_dc_base")
    rows = [[f"{minus(below)} or more", "Conscious", "—"]]
    for hp in range(below - 1, dead, -1):
        rows.append([minus(hp), "Unconscious and dying", str(dc + (below - hp))])
    rows.append([f"{minus(dead)} or less", "Dead", "—"])
    return {
        "columns": columns(("hp", "Hit points"), ("state", "State"), ("dc", "Constitution check DC each round")),
        "rows": rows,
        "caption": None,
    }


def wound_threshold(base_hp: int, max_hp: int, divisor: int) -> int:
    """The least damage of one hit that gives a wound: min(base HP, max HP ÷ divisor), reached exactly."""
    return max(1, ceil(min(Fraction(base_hp), Fraction(max_hp, divisor))))


def wound_thresholds(data: SystemData) -> dict[str, Any]:
    divisor = data.fact("wounds", "threshold_fraction_of_max")
    rows = [[str(top)] + [str(wound_threshold(b, top, divisor)) for b in WOUND_BASE_HP] for top in WOUND_MAX_HP]
    return {
        "columns": columns(("max_hp", "Max HP"), *((f"base_{b}", f"Base HP {b}") for b in WOUND_BASE_HP)),
        "rows": rows,
        "caption": None,
    }


TABLES = {
    "common_action_costs": common_action_costs,
    "weapon_stats": weapon_stats,
    "dice_rank_steps": dice_rank_steps,
    "swap_outcomes": swap_outcomes,
    "hit_point_states": hit_point_states,
    "wound_thresholds": wound_thresholds,
}
