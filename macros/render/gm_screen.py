"""A system's GM screen: the sections its `system.yaml` declares under `gm_screen` (checked by
`macros/check/screen.py`), one for each part of a fight, each item pulled from the data it names and
linked to it: a rule's summary (and chosen facts), a ruling's title, a glossary term's definition,
a table with the chosen columns. Nothing on the screen is typed twice. codex.css prints it in three
columns on A4 landscape sheets with whole items per column; on a phone it is one column whose
tables wrap rather than scroll."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from typing import Any

from macros.check import screen
from macros.render.facts import fact_text
from macros.render.prose import Prose, md_text, system_heading
from macros.render.tables import grid

Generated = Callable[[dict], dict[str, Any]]
_DASHED = re.compile(r"[^\s-]+(?:[-‐–—/][^\s-]+)+")
"""A word with a hyphen, dash or slash inside, where a line could otherwise break."""


class GmScreenError(ValueError):
    """`gm_screen` names something the system does not have (the data check reports it first)."""


def gm_screen_page(prose: Prose, generated: Generated) -> str:
    """The GM screen of `prose.system` as page Markdown."""
    system = prose.system
    sections = system.meta.get("gm_screen") or []
    parts = [
        system_heading("GM screen", system.name),
        "",
        "What a GM resolves in a fight, on one page; every entry links to its rule. Print it "
        "(two A4 landscape sheets at most) or keep it open beside the table.",
        "{: .cc-lead }",
        "",
    ]
    if not sections:
        parts += ["This system declares no GM screen yet.", ""]
        return "\n".join(parts)
    parts += ['<div class="cc-gm-screen" markdown>', ""]
    for section in sections:
        parts.append(section_block(prose, section, generated))
    parts += ["</div>", ""]
    return "\n".join(parts)


def section_block(prose: Prose, section: dict[str, Any], generated: Generated) -> str:
    """One section: its heading, then each item as a block that never splits in print."""
    sid = section["section"]
    parts = [
        f'<section class="cc-gm-section" data-cc-gm-section="{sid}" markdown>',
        "",
        f"## {md_text(screen.SECTIONS[sid])} {{: #gm-{sid} }}",
        "",
    ]
    if section.get("absent"):
        parts += [_block(f"*{md_text(screen.ABSENT_TEXT)}*", "absent")]
    for item in section.get("items") or []:
        parts.append(item_block(prose, item, generated))
    parts += ["</section>", ""]
    return "\n".join(parts)


def item_block(prose: Prose, item: dict[str, Any], generated: Generated) -> str:
    """One item as Markdown, linked to the rule, ruling, term or table it names."""
    system = prose.system
    kind = screen.item_kind(item)
    wanted = item[kind]
    index = {"rule": system.rules, "ruling": system.rulings, "term": system.terms, "table": system.tables}[kind]
    if wanted not in index:
        raise GmScreenError(f"rules_data/{system.id}/system.yaml: gm_screen: no {kind} '{wanted}'")
    entry = index[wanted]
    if kind == "rule":
        text = (
            f"**[{md_text(entry['title'])}]({prose.rule_href(system, wanted)})**: {prose.expand(entry.get('summary'))}"
        )
        facts = entry.get("facts") or {}
        shown = [
            f"{md_text(facts[n].get('label') or n)}: **{md_text(fact_text(facts[n]))}**"
            for n in item.get("facts") or []
        ]
        if shown:
            text += " (" + "; ".join(shown) + ")"
        return _block(text, "rule")
    if kind == "ruling":
        text = _ruling(prose, wanted)
        if item.get("text"):
            text += ": " + prose.expand(entry["ruling"])
        return _block(text, "ruling")
    if kind == "term":
        name = md_text(entry["term"]) + (f" ({md_text(entry['expansion'])})" if entry.get("expansion") else "")
        text = f"**[{name}]({prose.term_href(system, wanted)})**: {prose.expand(entry['definition'], plain=True)}"
        return _block(text, "term")
    return table_block(prose, entry, generated(entry) if "generator" in entry else None, item.get("columns"))


def table_block(prose: Prose, table: dict[str, Any], content: dict[str, Any] | None, columns: list[str] | None) -> str:
    """A table with only `columns` (ids, in that order; all when None), titled and linked to it.
    Its header row is a `thead`, which print repeats; the whole table stays in one column."""
    labels, rows, _caption = grid(table, content)
    ids = [c["id"] for c in (content["columns"] if content is not None else table["columns"])]
    keep = [ids.index(c) for c in columns] if columns else list(range(len(ids)))
    title = f"**[{md_text(table['title'])}]({prose.table_href(prose.system, table['id'])})**"
    if table.get("ruling"):
        title += " " + _ruling(prose, table["ruling"])
    header = "".join(f'<th scope="col">{escape(labels[k])}</th>' for k in keep)
    body = "\n".join("<tr>" + "".join(_cell(row[k]) for k in keep) + "</tr>" for row in rows)
    return "\n".join(
        [
            '<div class="cc-gm-item cc-gm-table" markdown>',
            "",
            title,
            "",
            f'<table class="cc-gm-grid" data-cc-table="{table["id"]}">',
            f"<thead><tr>{header}</tr></thead>",
            f"<tbody>\n{body}\n</tbody>",
            "</table>",
            "",
            "</div>",
            "",
        ]
    )


def _ruling(prose: Prose, ruling_id: str) -> str:
    """A ruling, marked as one, linked to its entry on the rulings page."""
    title = md_text(prose.system.rulings[ruling_id]["title"])
    return f'<span class="cc-badge">Ruling</span> [{title}]({prose.ruling_href(prose.system, ruling_id)})'


def _cell(text: str) -> str:
    """A body cell; a word ("11–12", "D1–D4.", "glaive-guisarme") never wraps, not even at its dash."""
    if not any(ch.isspace() for ch in text):
        return f'<td class="cc-nowrap">{escape(text)}</td>'
    return "<td>" + _DASHED.sub(r'<span class="cc-nowrap">\g<0></span>', escape(text)) + "</td>"


def _block(markdown: str, kind: str) -> str:
    return "\n".join([f'<div class="cc-gm-item cc-gm-{kind}" markdown>', "", markdown, "", "</div>", ""])
