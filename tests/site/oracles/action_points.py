"""Action Points' generated tables recomputed independently of `calc.systems.action_points`: plain
arithmetic from the rule text over the exported facts and data tables (dice averages as
count × (sides + 1) / 2, no distributions), as the rendered cells (strings).

`ORACLES[generator](data)` takes the system's `calc.inputs.data.SystemData` and returns the body rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from calc.inputs.data import SystemData

MINUS = "\N{MINUS SIGN}"


def _n(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _short(value: Fraction) -> str:
    """4.5, 9, 13.5 — every average here terminates within three places."""
    whole, rest = divmod(value, 1)
    if not rest:
        return str(whole)
    return f"{float(value):.3f}".rstrip("0")


def _average(expr: str) -> Fraction:
    """Mean of `NdS(+NdS)(+k)`: each die averages (S + 1) / 2."""
    total = Fraction(0)
    for sign, count, sides, const in re.findall(r"([+-]?)\s*(?:(\d*)d(\d+)|(\d+))", expr):
        part = Fraction(int(count or 1) * (int(sides) + 1), 2) if sides else Fraction(int(const))
        total += -part if sign == "-" else part
    return total


def common_action_costs(data: SystemData) -> list[list[str]]:
    cost = {row["id"]: (row["ap"], row["name"]) for row in data.table("action-type-costs")}
    found = [
        (cost[r["facts"]["action_type"]][0], r["title"], cost[r["facts"]["action_type"]][1])
        for r in data.raw["rules"].values()
        if "action_type" in r.get("facts", {})
    ]
    return [[title, name, str(ap)] for ap, title, name in sorted(found)]


def weapon_stats(data: SystemData) -> list[list[str]]:
    rows = []
    for w in data.table("weapon-table"):
        avg = _average(w["damage"])
        t = w["threshold"]
        rows.append(
            [
                w["name"],
                w["damage"],
                _short(avg),
                "20" if t >= 20 else f"{t}–20",
                f"{_short(Fraction(21 - t, 20) * 100)}%",
                f"×{w['multiplier']}",
                _short(avg * w["multiplier"]),
            ]
        )
    return rows


def dice_rank_steps(data: SystemData) -> list[list[str]]:
    ranks = sorted(data.table("dice-rank-list"), key=lambda r: r["rank"])
    out = []
    for i, r in enumerate(ranks):
        down = ranks[i - 1]["dice"] if i > 0 else "—"  # Light: one rank down
        up = ranks[i + 1]["dice"] if i + 1 < len(ranks) else "—"  # Heavy: one rank up
        out.append([str(r["rank"]), r["dice"], _short(_average(r["dice"])), down, up])
    return out


def swap_outcomes(data: SystemData) -> list[list[str]]:
    """Gap g = H − L: the lower roller's candidates are H − 2 = L + g − 2 and L + 1."""
    out = []
    for gap in range(1, 7):
        h_minus = gap + data.fact("initiative-swap", "higher_minus")
        own_plus = data.fact("initiative-swap", "own_plus")
        cells = [str(gap), "L"]
        for pick in (max, min):  # the examples' reading, then the literal one
            k = pick(h_minus, own_plus)
            cells.append("L" if k == 0 else (f"L + {k}" if k > 0 else f"L {MINUS} {-k}"))
            cells.append("lower roller" if k > 0 else ("tie (re-roll)" if k == 0 else "higher roller"))
        out.append(cells)
    return out


def hit_point_states(data: SystemData) -> list[list[str]]:
    dead = data.fact("dead", "dead_at")
    rows = [["0 or more", "Conscious", "—"]]
    for hp in range(-1, dead, -1):  # below 0 and above −10: dying, DC 15 + hit points below 0
        rows.append([_n(hp), "Unconscious and dying", str(data.fact("dying", "check_dc_base") - hp)])
    return [*rows, [f"{_n(dead)} or less", "Dead", "—"]]


def wound_thresholds(data: SystemData) -> list[list[str]]:
    tenth = data.fact("wounds", "threshold_fraction_of_max")
    rows = []
    for top in (20, 30, 40, 45, 50, 60, 80, 100, 150):
        cells = [str(top)]
        for base in (4, 6, 8, 10, 12):
            threshold = min(Fraction(base), Fraction(top, tenth))
            cells.append(str(-(-threshold.numerator // threshold.denominator)))  # whole damage reaching it
        rows.append(cells)
    return rows


ORACLES: dict[str, Callable[[SystemData], list[list[str]]]] = {
    "common_action_costs": common_action_costs,
    "weapon_stats": weapon_stats,
    "dice_rank_steps": dice_rank_steps,
    "swap_outcomes": swap_outcomes,
    "hit_point_states": hit_point_states,
    "wound_thresholds": wound_thresholds,
}
