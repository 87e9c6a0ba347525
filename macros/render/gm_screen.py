"""A system's GM screen: the sections its `system.yaml` declares under `gm_screen` (checked by
`macros/check/screen.py`), one for each part of a fight, each item pulled from the data it names and
linked to it: a rule's summary (and chosen facts), a ruling's title, a glossary term's definition,
a table with the chosen columns; the health section opens with the states the fight tracker marks
(its `tracker: states` in calculators.yaml) and the rulings it marks them by. Nothing on the screen
is typed twice. codex.css prints it in three columns on A4 landscape sheets with whole items per
column; on a phone it is one column whose tables wrap rather than scroll."""

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
    if sid == "health" and (prose.system.tracker or {}).get("states"):
        parts.append(states_block(prose))
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


WHEN = {
    "at-or-below": "at {value} hit points or fewer",
    "below": "below {value} hit points",
    "within": "from {min} to {max} hit points",
}
"""How a state's `when` reads, on the hit points of its rule's fact (calc/fight/hit_points.py)."""


def states_block(prose: Prose) -> str:
    """The states the fight tracker marks a combatant with, gravest first as it tries them: each
    state's name, the hit points where it applies (its rule's fact), whom it applies to, whether
    the combatant still acts, its rule, and the words of each ruling it follows (`state_rulings`)
    (a ruling's words once; a later state links it). A GM reads what the tracker's card says."""
    system = prose.system
    spec = system.tracker or {}
    said: set[str] = set()
    lines = []
    for state in spec["states"]:
        rule = system.rules[state["rule"]]
        fact = rule["facts"][state["fact"]]
        text = f"**{md_text(state['label'])}**: {_hit_points(state['when'], fact['value'])}"
        who = _who(system, spec, state)
        if who:
            text += f", {who}"
        text += "; " + ("still acts" if state.get("acts") else "cannot act")
        text += f". [{md_text(rule['title'])}]({prose.rule_href(system, state['rule'])})"
        for ruling_id in state_rulings(system, state):
            text += ". " + _ruling(prose, ruling_id)
            if ruling_id not in said:
                said.add(ruling_id)
                text += ": " + " ".join(prose.expand(system.rulings[ruling_id]["ruling"]).split())  # one list item
        lines.append(f"- {text}")
    tracker = f"[fight tracker]({prose.href(f'{system.id}/tracker.md')})"
    intro = f"**What the {tracker} marks**, the first that holds:"
    return _block("\n".join([intro, "", *lines]), "states")


def state_rulings(system: Any, state: dict[str, Any]) -> list[str]:
    """The rulings a tracker state follows: those that apply to its rule (`applies_to`) and hold
    in the tracker: one without an option always holds; one with an option holds as the tracker's
    Rulings block chooses (`tracker: rulings`) or decides whether the state applies (`unless`)."""
    chosen = {(ref["calculator"], ref["input"]) for ref in (system.tracker or {}).get("rulings") or []}
    out = []
    for ruling_id, ruling in system.rulings.items():
        option = ruling.get("option")
        if state["rule"] not in (ruling.get("applies_to") or []):
            continue
        if not option or (option["calculator"], option["input"]) in chosen or option["input"] == state.get("unless"):
            out.append(ruling_id)
    return out


def _hit_points(when: str, value: Any) -> str:
    number = {"kind": "number"}
    if when == "within":
        return WHEN[when].format(
            min=fact_text({**number, "value": value["min"]}), max=fact_text({**number, "value": value["max"]})
        )
    return WHEN[when].format(value=fact_text({**number, "value": value}))


def _who(system: Any, spec: dict[str, Any], state: dict[str, Any]) -> str:
    """Whom a state is limited to: a side ("foes only") and the field that exempts a combatant."""
    parts = []
    if state.get("side"):
        parts.append({"foe": "foes only", "pc": "player characters only"}[state["side"]])
    if state.get("unless"):
        ref = next(r for r in spec.get("status") or [] if r["input"] == state["unless"])
        decl = next(d for d in system.calculators[ref["calculator"]]["inputs"] if d["name"] == ref["input"])
        parts.append(f"not when marked “{md_text(decl.get('label') or decl['name'])}”")
    return ", ".join(parts)


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
