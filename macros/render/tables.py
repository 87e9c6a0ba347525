"""Tables as HTML: data tables (typed columns) and generated ones (cells computed by
`calc.systems.<module>.TABLES[generator]`), each anchored by its id and scrolling inside its own
container so a wide table never widens the page on a phone."""

from __future__ import annotations

from html import escape
from typing import Any

from macros.load import cells
from macros.render.prose import Prose, md_text


def grid(table: dict, generated: dict[str, Any] | None) -> tuple[list[str], list[list[str]], str | None]:
    """(header labels, rows of cell texts, caption) of a table, whichever kind it is."""
    if "generator" in table:
        if generated is None:
            raise ValueError(f"table '{table['id']}' is generated but no generated content was given")
        labels = [str(c["label"]) for c in generated["columns"]]
        rows = [[_generated_cell(cell) for cell in row] for row in generated["rows"]]
        return labels, rows, table.get("caption") or generated.get("caption")
    labels = [c["label"] for c in table["columns"]]
    rows = [[cells.text(c["type"], row.get(c["id"])) for c in table["columns"]] for row in table["rows"]]
    return labels, rows, table.get("caption")


def _generated_cell(cell: Any) -> str:
    if isinstance(cell, bool) or cell is None:
        return cells.text("flag", cell)
    if isinstance(cell, int):
        return cells.number(cell)
    return str(cell)


def table_block(prose: Prose, table: dict, generated: dict[str, Any] | None = None) -> str:
    """One table: title (marked when it is a ruling), the scrollable grid, and its caption."""
    labels, rows, caption = grid(table, generated)
    title = md_text(table["title"])
    head = f"**{title}**"
    if table.get("ruling"):
        ruling = prose.system.rulings[table["ruling"]]
        href = prose.ruling_href(prose.system, ruling["id"])
        head += f' <span class="cc-badge">Ruling</span> [{md_text(ruling["title"])}]({href})'
    if "generator" in table:
        head += ' <span class="cc-generated" title="Every cell is computed from the rules data">computed</span>'
    header = "".join(f'<th scope="col">{escape(label)}</th>' for label in labels)
    body = "\n".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    parts = [
        f'<div class="cc-table" id="{table["id"]}" markdown>',
        "",
        head,
        "",
        f'<div class="cc-scroll" role="region" tabindex="0" aria-label="{escape(table["title"])}">',
        f'<table class="cc-grid" data-cc-table="{table["id"]}">',
        f"<thead><tr>{header}</tr></thead>",
        f"<tbody>\n{body}\n</tbody>",
        "</table>",
        "</div>",
        "",
    ]
    if caption:
        parts += [prose.expand(caption), "{: .cc-caption }", ""]
    parts += ["</div>", ""]
    return "\n".join(parts)
