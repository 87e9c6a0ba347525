"""Fights saved by the tracker before the engine kept them (`"format": "cc-tracker"`, version 1,
in localStorage under `cc-tracker-<system>`), read as today's state: hit points from `max` −
`damage`, `nextId` as `next_id`, the order's entries ranked by their place. Anything else is
passed on unchanged (and checked as a state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc.fight import state as st

OLD_FORMAT = "cc-tracker"


def upgraded(raw: Any) -> Any:
    if not isinstance(raw, Mapping) or raw.get("format") != OLD_FORMAT or raw.get("version") != 1:
        return raw
    people = []
    for c in raw.get("combatants") or []:
        if isinstance(c, Mapping):
            top, taken = c.get("max"), c.get("damage", 0)
            hp = top - taken if isinstance(top, int) and isinstance(taken, int) else top
            people.append({k: v for k, v in c.items() if k != "damage"} | {"hp": hp})
        else:
            people.append(c)
    order = raw.get("order") if isinstance(raw.get("order"), list) else []
    return {
        "format": st.FORMAT,
        "version": st.VERSION,
        "system": raw.get("system"),
        "round": raw.get("round", 0),
        "turn": raw.get("turn", 0),
        "order": [{**t, "rank": i + 1} if isinstance(t, Mapping) else t for i, t in enumerate(order)],
        "notes": raw.get("notes", []),
        "rolls": raw.get("rolls", {}),
        "pending": None,
        "options": raw.get("options", {}),
        "combatants": people,
        "next_id": raw.get("nextId", 1),
    }
