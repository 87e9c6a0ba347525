"""The site-wide pages: the home page and the comparison of the systems."""

from __future__ import annotations

import re

from macros.load.catalog import RULING_PREFIX, Catalog, System
from macros.render.prose import Prose, doc_path, md_text

ASPECTS = (
    ("round_length", "Round length"),
    ("initiative", "Initiative"),
    ("initiative_ties", "Initiative ties"),
    ("action_economy", "Action economy"),
    ("hit_rule", "Hit rule"),
    ("natural_rolls", "Natural 1 and 20"),
    ("damage", "Damage"),
    ("critical_hits", "Critical hits"),
    ("death_and_dying", "Death and dying"),
)
"""The rows of the comparison page: aspect key of system.yaml `comparison` → row label."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _aspect(prose: Prose, system: System, ref: str) -> str:
    """One cell: a rule's summary and a link to it, or a ruling's title (marked) and a link to it."""
    if ref.startswith(RULING_PREFIX):
        ruling_id = ref[len(RULING_PREFIX) :]
        title = md_text(system.rulings[ruling_id]["title"])
        return f'<span class="cc-badge">Ruling</span> {title}. [→ the ruling]({prose.ruling_href(system, ruling_id)})'
    rule = system.rules[ref]
    return f"{prose.expand(rule['summary'])} [→ {md_text(rule['title'])}]({prose.rule_href(system, ref)})"


def compare_page(catalog: Catalog, page: str = "compare.md") -> str:
    """The systems side by side: each cell is the summary of the rule a system names for that aspect
    (or the title of the ruling it names, where the source is silent)."""
    systems = list(catalog.systems.values())
    parts = [
        "# Compare the systems",
        "",
        "The same questions answered by each system. Each cell is the summary of the rule that answers it; "
        "follow the link for the whole rule.",
        "{: .cc-lead }",
        "",
        '<div class="cc-compare" markdown>',
        "",
        "| | " + " | ".join(f"[{md_text(s.name)}]({doc_path(s.id, 'index')})" for s in systems) + " |",
        "|---|" + "---|" * len(systems),
    ]
    for key, label in ASPECTS:
        row = [f"**{label}**"]
        for system in systems:
            row.append(_cell(_aspect(Prose(catalog, system, page), system, system.meta["comparison"][key])))
        parts.append("| " + " | ".join(row) + " |")
    parts += ["", "</div>", ""]
    return "\n".join(parts)


def first_sentence(text: str) -> str:
    """The first sentence of a paragraph (for a one-screen home page)."""
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip().replace("\n", " "))
    return match.group(1) if match else text.strip()


def _count(n: int) -> str:
    """A small count in words, as prose writes it."""
    words = "zero one two three four five six seven eight nine ten eleven twelve".split()
    return words[n] if n < len(words) else str(n)


def home_page(catalog: Catalog, page: str = "index.md") -> str:
    """What is here, for a newcomer, in one screen."""
    parts = [
        "# Combat Codex",
        "",
        f"The combat rules of {_count(len(catalog.systems))} tabletop role-playing systems, rewritten in plain "
        "words, with their tables "
        "and exact dice calculators. Every number comes from one set of rules data; every calculator answer "
        "is an exact probability, computed in your browser.",
        "{: .cc-lead }",
        "",
        '<div class="grid cards cc-home" markdown>',
        "",
    ]
    for system in catalog.systems.values():
        prose = Prose(catalog, system, page)
        calcs = " · ".join(f"[{name}]({system.id}/calculators/{name}.md)" for name in system.calculators)
        parts += [
            f"-   **[{md_text(system.name)}]({doc_path(system.id, 'index')})**",
            "",
            f"    {prose.expand(first_sentence(system.meta['summary']))}",
            "",
            f"    Calculators: {calcs}" if calcs else "",
            "",
        ]
    parts += [
        "</div>",
        "",
        "**[Compare the systems](compare.md)** side by side: round, initiative, actions, hitting, damage, "
        "criticals, death.",
        "",
        '<span class="cc-badge">Ruling</span> marks where a text is silent or contradicts itself and we chose '
        "a reading; the other reading is always given. Dotted terms explain themselves on hover, focus or "
        "tap. Every calculator cites the rules it applies. Each system has a printable GM screen: "
        "what a GM resolves in a fight, every entry linked to its rule.",
        "",
        "How fast the calculators start: [Performance](performance.md).",
        "{: .cc-footnote }",
        "",
    ]
    return "\n".join(parts)
