"""Active Defense's generated table recomputed independently of `calc.systems.active_defense`,
straight from the two-weapon rule text over the exported table and facts, as the rendered cells.

`ORACLES[generator](data)` takes the system's `calc.inputs.data.SystemData` and returns the body rows.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from calc.inputs.data import SystemData

CONDITIONS = ("light", "training", "mastery", "shield")


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else "\N{MINUS SIGN}" + str(-n)


def two_weapon_combinations(data: SystemData) -> list[list[str]]:
    """For each (light, training, mastery, shield) in counting order: the listed row that is at
    least as good as every applicable listed row in BOTH hands (the ruling's "most favourable"; the
    first listed when several tie), and the other reading's penalties: normal row + light
    reduction + each talent's own improvement, capped at 0."""
    table = data.table("two-weapon-penalties")
    labels = {c["id"]: c["label"] for c in data.table_info("two-weapon-penalties")["columns"]}
    normal = [r for r in table if not (r["light"] or r["training"] or r["mastery"] or r["shield"])][0]
    light_cut = data.fact("two-weapon-fighting", "light_reduction")
    improvement = {}
    for talent in CONDITIONS[1:]:
        (alone,) = [r for r in table if r[talent] and sum(bool(r[k]) for k in CONDITIONS) == 1]
        improvement[talent] = (alone["primary"] - normal["primary"], alone["off_hand"] - normal["off_hand"])
    out = []
    for bits in product((False, True), repeat=4):
        held = dict(zip(CONDITIONS, bits, strict=True))
        usable = [r for r in table if not any(r[k] and not held[k] for k in CONDITIONS)]
        dominant = [
            r for r in usable if all(r["primary"] >= o["primary"] and r["off_hand"] >= o["off_hand"] for o in usable)
        ]
        assert dominant, f"no row is best in both hands for {held}"
        best = dominant[0]  # equally good rows: the first the source lists
        primary, off_hand = normal["primary"], normal["off_hand"]
        if held["light"]:
            primary, off_hand = primary + light_cut, off_hand + light_cut
        for talent, (dp, do) in improvement.items():
            if held[talent]:
                primary, off_hand = primary + dp, off_hand + do
        talents = ", ".join(labels[t] for t in CONDITIONS[1:] if held[t]) or "none"
        out.append(
            [
                "yes" if held["light"] else "no",
                talents,
                best["circumstances"],
                _signed(best["primary"]),
                _signed(best["off_hand"]),
                _signed(min(primary, 0)),
                _signed(min(off_hand, 0)),
            ]
        )
    return out


ORACLES: dict[str, Callable[[SystemData], list[list[str]]]] = {
    "two_weapon_combinations": two_weapon_combinations,
}
