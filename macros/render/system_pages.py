"""The generated pages of a system besides its rule pages: overview, rulings, glossary, and one
page per calculator."""

from __future__ import annotations

from macros.render.calculator import calculator_block
from macros.render.prose import Prose, doc_path, md_text, system_heading


def overview_page(prose: Prose, declarations: dict[str, dict]) -> str:
    """What the system is, its pages, its extras, and the source sections it covers."""
    system = prose.system
    parts = [f"# {md_text(system.name)}", "", prose.expand(system.meta["summary"]), "", "## Rule pages", ""]
    for page in system.pages:
        href = prose.href(doc_path(system.id, page["id"]))
        count = len(system.rules_on(page["id"]))
        parts.append(
            f"- [{md_text(page['title'])}]({href}): {prose.expand(page['summary'])} "
            f"<small>({count} rule{'s' if count != 1 else ''})</small>"
        )
    parts += ["", "## Tools", ""]
    for name, decl in declarations.items():
        href = prose.href(f"{system.id}/calculators/{name}.md")
        parts.append(f"- [{md_text(decl['title'])}]({href}): {prose.expand(decl['summary'])}")
    parts.append(
        f"- [Rulings]({prose.href(doc_path(system.id, 'rulings'))}): "
        f"{len(system.rulings)} places where the text is silent or contradicts itself, and what we adopt."
    )
    parts.append(f"- [Glossary]({prose.href(doc_path(system.id, 'glossary'))}): {len(system.terms)} terms.")
    parts.append(
        f"- [Encounter tracker]({prose.href(doc_path(system.id, 'tracker'))}): a fight round by round, "
        "initiative by this system's own procedure, damage, conditions and undo."
    )
    parts += [
        "",
        "## Source sections covered",
        "",
        "Every line of the source text belongs to one section, and every section to the rules citing it.",
        "",
        "| Section | Source lines | Rules |",
        "|---|---|---|",
    ]
    citing: dict[str, list[dict]] = {}
    for rule in system.rules.values():
        for sid in rule.get("sources", []):
            citing.setdefault(sid, []).append(rule)
    for sid, section in system.sections.items():
        first, last = section["lines"]
        rules = ", ".join(f"[{md_text(r['title'])}]({prose.rule_href(system, r['id'])})" for r in citing.get(sid, []))
        parts.append(f"| {md_text(section['title'])} | {first}–{last} | {rules or '—'} |")
    return "\n".join(parts) + "\n"


def rulings_page(prose: Prose) -> str:
    system = prose.system
    parts = [
        f"# Rulings: {md_text(system.name)}",
        "",
        "Where the source text is silent or contradicts itself, the site adopts one reading and says so. "
        "Each ruling is also shown, marked, under the rules it applies to; a ruling that changes a number "
        "is an option of the calculator, so both readings can be compared.",
        "{: .cc-lead }",
        "",
    ]
    if not system.rulings:
        parts.append("This system needs no rulings.")
    for rid, ruling in system.rulings.items():
        applies = ", ".join(
            f"[{md_text(system.rules[r]['title'])}]({prose.rule_href(system, r)})" for r in ruling["applies_to"]
        )
        parts += [
            f"## {md_text(ruling['title'])} {{#{rid}}}",
            "",
            '<span class="cc-badge">Ruling</span> ' + prose.expand(ruling["ruling"]),
            "",
            f"**Other reading:** {prose.expand(ruling['alternative'])}",
            "",
            f"Applies to: {applies}.",
            "",
        ]
        option = ruling.get("option")
        if option:
            href = prose.href(f"{system.id}/calculators/{option['calculator']}.md")
            parts += [
                f"Calculator option: `{option['input']}` = `{option['ruling_value']}` (this ruling) or "
                f"`{option['alternative_value']}` (the other reading) in the [{option['calculator']} "
                f"calculator]({href}).",
                "",
            ]
        tables = [t for t in system.tables.values() if t.get("ruling") == rid]
        for table in tables:
            parts += [f"Table: [{md_text(table['title'])}]({prose.table_href(system, table['id'])}).", ""]
    return "\n".join(parts) + "\n"


def glossary_page(prose: Prose) -> str:
    system = prose.system
    parts = [
        f"# Glossary: {md_text(system.name)}",
        "",
        "On the rule pages, a dotted term explains itself when you point at it, tab to it or tap it.",
        "{: .cc-lead }",
        "",
    ]
    for tid, term in sorted(system.terms.items(), key=lambda kv: kv[1]["term"].lower()):
        name = f"**{md_text(term['term'])}**"
        if term.get("expansion"):
            name += f" ({md_text(term['expansion'])})"
        parts += [
            f'<div class="cc-glossary-entry" id="{tid}" markdown>',
            "",
            f"{name}: {prose.expand(term['definition'])}",
        ]
        if term.get("rule"):
            rule = system.rules[term["rule"]]
            parts.append(f"See [{md_text(rule['title'])}]({prose.rule_href(system, rule['id'])}).")
        parts += ["", "</div>", ""]
    return "\n".join(parts) + "\n"


def calculator_page(prose: Prose, name: str, decl: dict) -> str:
    system = prose.system
    rule = system.rules[decl["rule"]]
    return (
        "\n".join(
            [
                system_heading(decl["title"], system.name),
                "",
                prose.expand(decl["summary"]),
                "{: .cc-lead }",
                "",
                f"Rule: [{md_text(rule['title'])}]({prose.rule_href(system, rule['id'])}): "
                f"{prose.expand(rule['summary'])}",
                "",
                calculator_block(system.id, name, decl, decl["url"]),
            ]
        )
        + "\n"
    )
