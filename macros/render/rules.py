"""A rule page: each rule of the page as a heading anchored by its id, with its summary, body,
facts, tables, the rulings that apply (marked), its worked examples, and its calculator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from macros.render.calculator import calculator_block
from macros.render.facts import facts_block
from macros.render.prose import Prose, indent, md_text, system_heading
from macros.render.tables import table_block

Generated = Callable[[dict], dict[str, Any]]
"""Gives the content of a generated table (the site layer calls calc; tests pass a stub)."""


def admonition(kind: str, title: str, body: str) -> str:
    return f'!!! {kind} "{title.replace(chr(34), chr(39))}"\n\n{indent(body)}\n'


def ruling_note(prose: Prose, ruling: dict, declarations: dict[str, dict]) -> str:
    """A ruling, visibly marked as one, with the other reading."""
    system = prose.system
    lines = [prose.expand(ruling["ruling"]), "", f"**Other reading:** {prose.expand(ruling['alternative'])}", ""]
    option = ruling.get("option")
    if option and option["calculator"] in declarations:
        decl = next((d for d in declarations[option["calculator"]]["inputs"] if d["name"] == option["input"]), None)
        calc_title = declarations[option["calculator"]]["title"]
        if decl:
            lines += [
                f"The {md_text(calc_title)} calculator's *{md_text(decl['label'])}* input switches "
                "between the two readings.",
                "",
            ]
    lines.append(f"[All rulings of {md_text(system.name)}]({prose.ruling_href(system, ruling['id'])})")
    return admonition("ruling", f"Ruling: {ruling['title']}", "\n".join(lines))


def example_note(prose: Prose, rule: dict, example: dict, declarations: dict[str, dict]) -> str:
    lines = [prose.expand(example["text"])]
    extra = []
    if example.get("ruling") and example["ruling"] in prose.system.rulings:
        reading = "the site's ruling" if example.get("reading") == "ruling" else "the other reading"
        extra.append(
            f"Under {reading} of [{md_text(prose.system.rulings[example['ruling']]['title'])}]"
            f"({prose.ruling_href(prose.system, example['ruling'])})."
        )
    if example.get("calculator") in declarations:
        name = example["calculator"]
        href = prose.href(f"{prose.system.id}/calculators/{name}.md")
        extra.append(f"Try it in the [{md_text(declarations[name]['title'])}]({href}).")
    if extra:
        lines += ["", " ".join(extra), "{: .cc-example-note }"]
    return admonition("example", f"Example: {example['title']}", "\n".join(lines))


def rule_section(
    prose: Prose, rule: dict, generated: Generated, declarations: dict[str, dict], shown: set[str] | None = None
) -> str:
    """One rule: everything the page shows of it, as Markdown. `shown` holds the rulings already
    shown in full on this page; a ruling applying to several of its rules is shown once, then
    linked."""
    shown = set() if shown is None else shown
    system = prose.system
    parts = [
        f"## {md_text(rule['title'])} {{#{rule['id']}}}",
        "",
        prose.expand(rule["summary"]),
        "{: .cc-summary }",
        "",
    ]
    parts += [prose.expand(rule["body"]), ""]
    facts = facts_block(rule.get("facts"))
    if facts:
        parts.append(facts)
    for table in system.tables_of(rule["id"]):
        parts.append(table_block(prose, table, generated(table) if "generator" in table else None))
    for ruling in system.rulings_for(rule["id"]):
        if ruling["id"] in shown:
            href = prose.ruling_href(system, ruling["id"])
            parts += [
                f'<span class="cc-badge">Ruling</span> [{md_text(ruling["title"])}]({href}) '
                "also applies here (shown above).",
                "",
            ]
            continue
        shown.add(ruling["id"])
        parts.append(ruling_note(prose, ruling, declarations))
    for example in rule.get("examples") or []:
        parts.append(example_note(prose, rule, example, declarations))
    for name, _calc in system.calculators_of(rule["id"]):
        if name not in declarations:
            continue
        decl = declarations[name]
        parts += [f"### {md_text(decl['title'])} {{#calculator-{name}}}", "", prose.expand(decl["summary"]), ""]
        parts.append(calculator_block(system.id, name, decl, decl["url"]))
    return "\n".join(parts) + "\n"


def rule_page(prose: Prose, page_id: str, generated: Generated, declarations: dict[str, dict]) -> str:
    """The whole page `page_id` of a system, in file order of its rules.

    `declarations` are the exported calculator declarations (options resolved, with `url`).
    """
    system = prose.system
    page = next(p for p in system.pages if p["id"] == page_id)
    parts = [system_heading(page["title"], system.name), "", prose.expand(page["summary"]), "{: .cc-lead }", ""]
    shown: set[str] = set()
    for rule in system.rules_on(page_id):
        parts.append(rule_section(prose, rule, generated, declarations, shown))
    return "\n".join(parts)
