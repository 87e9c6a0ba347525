"""A rule's typed facts as a compact list: label and value, formatted by kind."""

from __future__ import annotations

from typing import Any

from macros.load import cells
from macros.render.prose import md_text


def fact_text(fact: dict[str, Any]) -> str:
    """The value of a fact as read on the page (units appended)."""
    kind, value = fact["kind"], fact["value"]
    if kind in ("modifier",):
        text = cells.signed(value)
    elif kind in ("number", "threshold"):
        text = cells.number(value)
    elif kind in ("range", "percent", "multiplier", "flag"):
        text = cells.text(
            {"range": "range", "percent": "percent", "multiplier": "multiplier", "flag": "flag"}[kind], value
        )
    elif kind == "list":
        text = ", ".join("—" if v is None else str(v) for v in value)
    else:
        text = str(value)
    if fact.get("unit"):
        text += f" {fact['unit']}"
    return text


def facts_block(facts: dict[str, dict] | None) -> str:
    """The facts of a rule, or "" when it has none."""
    if not facts:
        return ""
    items = []
    for name, fact in facts.items():
        label = fact.get("label") or name.replace("_", " ").capitalize()
        items.append(f"- {md_text(label)}: **{md_text(fact_text(fact))}**")
    return "\n".join(['<div class="cc-facts" markdown>', "", "**In numbers**", "", *items, "", "</div>", ""])
