"""Prose of the data as page Markdown: `[[...]]` references become links and glossary terms.

A `Prose` knows the page it writes for (its path under `docs/`), so links are relative `.md`
links that MkDocs resolves and checks. A glossary term becomes an inline element that explains
itself on hover, on keyboard focus and on tap, by CSS alone (see docs/stylesheets/codex.css):
a focusable `<span tabindex="0">` described (`aria-describedby`) by a `role="tooltip"` span.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from html import escape

from macros.load.catalog import Catalog, System
from macros.load.markup import Ref, substitute


def doc_path(system_id: str, page: str) -> str:
    """The Markdown file (under docs/) of a system page: `countup/attacks.md`."""
    return f"{system_id}/{page}.md"


def md_text(text: str) -> str:
    """Plain text safe as Markdown link text or inline text."""
    out = escape(text, quote=False)
    for ch in "\\[]*_`":
        out = out.replace(ch, "\\" + ch)
    return out


def system_heading(title: str, system_name: str) -> str:
    """A page's h1 naming its system too ("Hit chance · Countup"), so the heading, the search
    result (indexed from the h1) and a printout all say which system a page is about."""
    return f'# {md_text(title)} <span class="cc-h1-system">· {md_text(system_name)}</span>'


def page_title(title: str, system_name: str) -> str:
    """The browser tab's title for a system page (Material appends the site name)."""
    return f"{title} · {system_name}"


@dataclass
class Prose:
    """Expands prose for one page: `page` is its path under docs/ (e.g. `countup/attacks.md`)."""

    catalog: Catalog
    system: System
    page: str
    _tips: int = field(default=0, repr=False)

    def href(self, target_doc: str, anchor: str | None = None) -> str:
        """A link from this page to `target_doc` (path under docs/), relative so MkDocs checks it."""
        rel = posixpath.relpath(target_doc, posixpath.dirname(self.page) or ".")
        if target_doc == self.page:
            rel = ""
        return f"{rel}#{anchor}" if anchor else rel

    def rule_href(self, system: System, rule_id: str) -> str:
        return self.href(doc_path(system.id, system.rules[rule_id]["page"]), rule_id)

    def table_href(self, system: System, table_id: str) -> str:
        rule = system.rules[system.tables[table_id]["rule"]]
        return self.href(doc_path(system.id, rule["page"]), table_id)

    def ruling_href(self, system: System, ruling_id: str) -> str:
        return self.href(doc_path(system.id, "rulings"), ruling_id)

    def term_href(self, system: System, term_id: str) -> str:
        return self.href(doc_path(system.id, "glossary"), term_id)

    def expand(self, text: str | None, *, plain: bool = False) -> str:
        """`text` with its references expanded; `plain=True` writes them as emphasised text
        without links or tooltips (inside a tooltip, which must hold nothing interactive)."""
        if not text:
            return ""
        return substitute(text.strip(), lambda ref: self._ref(ref, plain)).strip()

    def _ref(self, ref: Ref, plain: bool) -> str:
        system = self.catalog.systems[ref.system] if ref.system else self.system
        if plain:
            index = {"rule": system.rules, "table": system.tables, "ruling": system.rulings, "term": system.terms}
            entry = index[ref.kind][ref.id]
            return f"*{md_text(ref.text or entry.get('title') or entry.get('term', ref.id))}*"
        if ref.kind == "rule":
            label = ref.text or system.rules[ref.id]["title"]
            return f"[{md_text(label)}]({self.rule_href(system, ref.id)})"
        if ref.kind == "table":
            label = ref.text or system.tables[ref.id]["title"]
            return f"[{md_text(label)}]({self.table_href(system, ref.id)})"
        if ref.kind == "ruling":
            label = ref.text or system.rulings[ref.id]["title"]
            return f"[{md_text(label)}]({self.ruling_href(system, ref.id)})"
        term = system.terms[ref.id]
        return self.term(system, term, ref.text or term["term"])

    def term(self, system: System, term: dict, label: str) -> str:
        """The self-explaining inline element of a glossary term."""
        self._tips += 1
        tip_id = f"cc-tip-{term['id']}-{self._tips}"
        name = md_text(term["term"])
        if term.get("expansion"):
            name += f" ({md_text(term['expansion'])})"
        inner = Prose(self.catalog, system, self.page).expand(term["definition"], plain=True)
        return (
            f'<span class="cc-term" tabindex="0" aria-describedby="{tip_id}">{md_text(label)}'
            f'<span class="cc-tip" role="tooltip" id="{tip_id}"><strong>{name}</strong>: {inner}</span></span>'
        )


def indent(text: str, spaces: int = 4) -> str:
    """Indent every non-blank line (admonition and details bodies)."""
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())
