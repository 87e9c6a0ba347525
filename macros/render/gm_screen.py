"""A system's GM screen: the tables its `system.yaml` lists under `gm_screen`, on one page that
prints on one or two A4 sheets (codex.css sets them in compact print columns). The tables are
the very tables of the rule pages, rendered by `tables.table_block` from the same data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from macros.render.prose import Prose, md_text, system_heading
from macros.render.tables import table_block

Generated = Callable[[dict], dict[str, Any]]


class GmScreenError(ValueError):
    """`gm_screen` names a table the system does not have."""


def gm_screen_page(prose: Prose, generated: Generated) -> str:
    """The GM screen of `prose.system`; each table links back to the rule it belongs to."""
    system = prose.system
    table_ids = system.meta.get("gm_screen") or []
    unknown = [t for t in table_ids if t not in system.tables]
    if unknown:
        raise GmScreenError(
            f"rules_data/{system.id}/system.yaml: gm_screen: no table {', '.join(map(repr, unknown))} "
            f"(tables: {', '.join(system.tables)})"
        )
    parts = [
        system_heading("GM screen", system.name),
        "",
        "The tables a game master needs mid-fight, on one page: print it (one or two A4 sheets) "
        "or keep it open beside the table.",
        "{: .cc-lead }",
        "",
    ]
    if not table_ids:
        parts.append("This system declares no GM screen tables yet.")
    parts.append('<div class="cc-gm-screen" markdown>')
    parts.append("")
    for tid in table_ids:
        table = system.tables[tid]
        rule = system.rules[table["rule"]]
        parts.append(table_block(prose, table, generated(table) if "generator" in table else None))
        parts += [f"From [{md_text(rule['title'])}]({prose.rule_href(system, rule['id'])}).", "{: .cc-gm-source }", ""]
    parts += ["</div>", ""]
    return "\n".join(parts)
