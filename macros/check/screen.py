"""What a GM screen must hold, and the checks of its declaration (`gm_screen:` in system.yaml).

A GM screen is a list of sections, one for each part of a fight a GM resolves (`SECTIONS`); each
section's items name rules, rulings, glossary terms and tables by id, so no number is typed twice:
`macros/render/gm_screen.py` pulls the words and values from the data. The schema checks the shape
(`rules_data/schema/system.schema.json#/$defs/screen_section`); this module checks what it cannot:
every section present once, exactly one kind per item, every id, fact and column real. Each problem
names file, line and field, like every other data problem.
"""

from __future__ import annotations

from typing import Any

from calc import systems
from calc.inputs.data import SystemData
from macros.load.catalog import System, Where
from macros.load.engine_view import engine_view
from macros.load.problems import Problem, suggest

SECTIONS = {
    "initiative": "Initiative",
    "actions": "Actions in a round",
    "hit": "Hitting",
    "criticals": "Criticals and natural rolls",
    "damage": "Damage",
    "defenses": "Defenses and armour",
    "health": "Health states and dying",
    "morale": "Morale",
}
"""Section id → title: the parts of a fight every system's screen covers (the schema's enum)."""

ITEM_KINDS = ("rule", "ruling", "term", "table")
"""The keys that say what an item is; an item has exactly one."""

ABSENT_TEXT = "The source text has no rule for this."
"""What a section declared `absent: true` says on the screen."""


def item_kind(item: dict[str, Any]) -> str:
    """Which of ITEM_KINDS the (checked) item is."""
    return next(kind for kind in ITEM_KINDS if kind in item)


def check(system: System, where: Where) -> list[Problem]:
    """Every problem of `system.meta["gm_screen"]` the schema cannot see; `where` locates system.yaml."""
    sections = system.meta.get("gm_screen")
    if not isinstance(sections, list):
        return []  # none declared, or a shape the schema already reports
    out: list[Problem] = []
    seen: dict[str, int] = {}
    columns = _Columns(system)
    for i, section in enumerate(sections):
        if not isinstance(section, dict):
            continue
        sid = section.get("section")
        if sid in seen:
            out.append(where.problem(f"section '{sid}' is already section {seen[sid] + 1}", "gm_screen", i, "section"))
        elif isinstance(sid, str):
            seen[sid] = i
        if "items" in section and section.get("absent"):
            out.append(where.problem("a section has `items` or `absent: true`, not both", "gm_screen", i, "absent"))
        elif "items" not in section and not section.get("absent"):
            out.append(
                where.problem("give the section `items`, or `absent: true` if the text has none", "gm_screen", i)
            )
        for j, item in enumerate(section.get("items") or []):
            if isinstance(item, dict):
                out.extend(_item_problems(system, where, ("gm_screen", i, "items", j), item, columns))
    missing = [s for s in SECTIONS if s not in seen]
    if missing:
        out.append(
            where.problem(
                f"no section {', '.join(map(repr, missing))} (every screen covers {', '.join(SECTIONS)})", "gm_screen"
            )
        )
    return out


def _item_problems(system: System, where: Where, path: tuple, item: dict[str, Any], columns: _Columns) -> list[Problem]:
    kinds = [k for k in ITEM_KINDS if k in item]
    if len(kinds) != 1:
        said = " and ".join(kinds) if kinds else "none of them"
        return [where.problem(f"an item names exactly one of {', '.join(ITEM_KINDS)} (this one: {said})", *path)]
    kind = kinds[0]
    index = {"rule": system.rules, "ruling": system.rulings, "term": system.terms, "table": system.tables}[kind]
    wanted = item[kind]
    if wanted not in index:
        return [where.problem(f"no {kind} '{wanted}'{suggest(str(wanted), index)}", *path, kind)]
    out = []
    if "facts" in item and kind != "rule":
        out.append(where.problem("`facts` belongs to a rule item", *path, "facts"))
    if "text" in item and kind != "ruling":
        out.append(where.problem("`text` belongs to a ruling item", *path, "text"))
    if "columns" in item and kind != "table":
        out.append(where.problem("`columns` belongs to a table item", *path, "columns"))
    if kind == "rule":
        facts = index[wanted].get("facts") or {}
        for k, name in enumerate(item.get("facts") or []):
            if name not in facts:
                out.append(
                    where.problem(f"rule '{wanted}' has no fact '{name}'{suggest(str(name), facts)}", *path, "facts", k)
                )
    if kind == "table" and "columns" in item:
        known = columns.of(index[wanted])
        for k, col in enumerate(item["columns"]):
            if known is not None and col not in known:
                out.append(
                    where.problem(
                        f"table '{wanted}' has no column '{col}'{suggest(str(col), known)}", *path, "columns", k
                    )
                )
    return out


class _Columns:
    """The column ids of a system's tables: declared, or those the generator returns (the engine's
    data exported once per check; None when the engine cannot be asked, as in a partial check:
    the table checks report a broken generator)."""

    def __init__(self, system: System) -> None:
        self.system = system
        self._data: Any = None

    def of(self, table: dict[str, Any]) -> list[str] | None:
        if "generator" not in table:
            return [c["id"] for c in table.get("columns") or []]
        try:
            if self._data is None:
                self._data = SystemData(engine_view(self.system))
            generated = systems.engine(self.system.id).TABLES[table["generator"]](self._data)
        except Exception:
            return None
        return [c["id"] for c in generated["columns"]]
