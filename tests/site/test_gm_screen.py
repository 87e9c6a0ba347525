"""The GM screens: the declaration (`gm_screen:` in system.yaml) checked with located problems, the
pure renderer pulling every word and number from the data it names, and the built pages holding
every declared item. The print and phone layout is tested in the browser
(tests/site/test_touch_and_print.py)."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from site_html import Tables, page_html

from macros.check import loader, screen
from macros.load import catalog
from macros.render import gm_screen
from macros.render.facts import fact_text
from macros.render.prose import Prose
from macros.render.tables import grid
from macros.site import Site

CATALOG = loader.load()
SYSTEMS = list(CATALOG.systems.values())
SITE = Site(CATALOG)


def _render(system: catalog.System) -> str:
    prose = Prose(CATALOG, system, f"{system.id}/gm-screen.md")
    return gm_screen.gm_screen_page(prose, lambda table: SITE.generated(system, table))


def _items(system: catalog.System):
    for section in system.meta["gm_screen"]:
        for item in section.get("items") or []:
            yield section["section"], item


def test_the_schema_lists_the_sections_screen_py_titles() -> None:
    schema = json.loads((catalog.ROOT / "rules_data" / "schema" / "system.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["screen_section"]["properties"]["section"]["enum"] == list(screen.SECTIONS)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_screen_has_every_section_once_in_order(system: catalog.System) -> None:
    declared = [s["section"] for s in system.meta["gm_screen"]]
    assert sorted(declared) == sorted(screen.SECTIONS)
    headings = re.findall(r"^## (.+?) \{: #gm-([a-z]+) \}$", _render(system), re.M)
    assert [sid for _, sid in headings] == declared
    assert [title for title, _ in headings] == [screen.SECTIONS[s] for s in declared]


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_each_item_is_pulled_from_the_data_and_linked_to_it(system: catalog.System) -> None:
    """A rule shows its linked title, its summary and the named facts' values; a ruling its title,
    marked; a term its definition; a table exactly its data's cells in the chosen columns."""
    page = _render(system)
    prose = Prose(CATALOG, system, f"{system.id}/gm-screen.md")
    tables = Tables()
    tables.feed(page)
    for _, item in _items(system):
        kind = screen.item_kind(item)
        if kind == "rule":
            rule = system.rules[item["rule"]]
            assert f"({prose.rule_href(system, rule['id'])})**: {prose.expand(rule['summary'])}" in page
            for name in item.get("facts") or []:
                assert f"**{fact_text(rule['facts'][name])}**" in page, (item, name)
        elif kind == "ruling":
            ruling = system.rulings[item["ruling"]]
            assert f"Ruling</span> [{ruling['title']}]({prose.ruling_href(system, ruling['id'])})" in page
            if item.get("text"):
                assert f"({prose.ruling_href(system, ruling['id'])}): {prose.expand(ruling['ruling'])}" in page
        elif kind == "term":
            assert f"]({prose.term_href(system, item['term'])})**: " in page
        else:
            table = system.tables[item["table"]]
            content = SITE.generated(system, table) if "generator" in table else None
            labels, rows, _ = grid(table, content)
            ids = [c["id"] for c in (content or table)["columns"]]
            keep = [ids.index(c) for c in item.get("columns") or ids]
            assert [[unescape(c) for c in row] for row in tables.tables[table["id"]]] == [
                [row[k] for k in keep] for row in rows
            ]
            header = re.search(rf'data-cc-table="{table["id"]}">\s*<thead><tr>(.*?)</tr>', page, re.S)
            assert header and re.findall(r"<th[^>]*>(.*?)</th>", header.group(1)) == [labels[k] for k in keep]


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_nothing_is_shown_twice_on_a_screen(system: catalog.System) -> None:
    """An id appears once per kind, and a ruling shown in a table's title is not listed again."""
    named = [(screen.item_kind(item), item[screen.item_kind(item)]) for _, item in _items(system)]
    repeated = {n for n in named if named.count(n) > 1}
    in_titles = {
        ("ruling", system.tables[t]["ruling"]) for k, t in named if k == "table" and system.tables[t].get("ruling")
    }
    assert not repeated and not in_titles & set(named), (repeated, in_titles & set(named))
    in_states = {("ruling", r) for state in _states(system) for r in gm_screen.state_rulings(system, state)}
    assert not in_states & set(named), in_states & set(named)  # the health section's states show them


def _states(system: catalog.System) -> list[dict]:
    return (system.tracker or {}).get("states") or []


def _words(html: str) -> str:
    """The text of built HTML as read: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def _plain(markdown: str, prose: Prose) -> str:
    """A ruling's words as the built page reads them (its references as their titles)."""
    return " ".join(re.sub(r"[*`\\]", "", prose.expand(markdown, plain=True)).split())


@pytest.mark.parametrize("system", [s for s in SYSTEMS if _states(s)], ids=lambda s: s.id)
def test_the_health_section_names_the_trackers_states_and_their_rulings(site: Path, system: catalog.System) -> None:
    """Issue #34: each state the tracker declares (`tracker: states`), gravest first, with the hit
    points where it applies (its rule's fact), its rule linked, and the words of every ruling it
    follows, linked; a state whose fact is a ruling's number cites that ruling."""
    html = page_html(site, f"{system.id}/gm-screen/")
    section = html.split('data-cc-gm-section="health"')[1].split("</section>")[0]
    items = re.findall(r"<li>(.*?)</li>", section, re.S)
    prose = Prose(CATALOG, system, f"{system.id}/gm-screen.md")
    assert len(items) == len(_states(system)), items
    for state, item in zip(_states(system), items, strict=True):
        rule = system.rules[state["rule"]]
        fact = rule["facts"][state["fact"]]
        text = _words(item)
        assert text.startswith(f"{state['label']}: "), text
        bounds = [fact["value"]["min"], fact["value"]["max"]] if state["when"] == "within" else [fact["value"]]
        for value in bounds:
            assert f"{fact_text({'kind': 'number', 'value': value})} hit points" in text or (
                f"{fact_text({'kind': 'number', 'value': value})} to " in text
            ), (state, text)
        assert f'href="../{rule["page"]}/#{rule["id"]}"' in item
        rulings = gm_screen.state_rulings(system, state)
        if "(ruling)" in (fact.get("label") or ""):
            assert rulings, f"{state['label']} stands on a ruling's number but cites none"
        for ruling_id in rulings:
            assert f'href="../rulings/#{ruling_id}"' in item, (state, ruling_id)
            assert _plain(system.rulings[ruling_id]["ruling"], prose) in _words(section), ruling_id


def test_a_states_rulings_are_those_the_tracker_holds() -> None:
    """A ruling that applies to a state's rule but whose option the tracker never reads (the
    damage floor for Hurt) is not cited; one whose option exempts from the state (`unless`) is."""
    system = CATALOG.systems["countup"]
    hurt, npc_dead = (next(s for s in _states(system) if s["rule"] == r) for r in ("hurt", "npc-death"))
    assert "damage-floor" in system.rulings and "hurt" in system.rulings["damage-floor"]["applies_to"]
    assert "damage-floor" not in gm_screen.state_rulings(system, hurt)
    option = system.rulings[gm_screen.state_rulings(system, npc_dead)[0]]["option"]
    assert option["input"] == npc_dead["unless"]


def test_an_absent_section_says_the_text_has_none() -> None:
    absent = [(s, sec["section"]) for s in SYSTEMS for sec in s.meta["gm_screen"] if sec.get("absent")]
    assert absent, "no system declares an absent section"
    for system, sid in absent:
        block = _render(system).split(f"{{: #gm-{sid} }}")[1].split("</section>")[0]
        assert screen.ABSENT_TEXT in block


def test_a_one_word_cell_never_wraps_and_a_sentence_may() -> None:
    assert gm_screen._cell("11–12") == '<td class="cc-nowrap">11–12</td>'
    assert gm_screen._cell("Off hand <b>") == "<td>Off hand &lt;b&gt;</td>"
    assert gm_screen._cell("in order D1–D4.") == '<td>in order <span class="cc-nowrap">D1–D4.</span></td>'
    assert gm_screen._cell("a half-hit, a b") == '<td>a <span class="cc-nowrap">half-hit,</span> a b</td>'


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_the_built_screen_holds_every_declared_item(site: Path, system: catalog.System) -> None:
    html = page_html(site, f"{system.id}/gm-screen/")
    declared_tables = [item["table"] for _, item in _items(system) if "table" in item]
    assert re.findall(r'data-cc-table="([^"]+)"', html) == declared_tables
    for _, item in _items(system):
        kind = screen.item_kind(item)
        anchor = {"rule": "", "ruling": "rulings/", "term": "glossary/", "table": ""}[kind]
        if kind in ("ruling", "term"):
            assert f'href="../{anchor}#{item[kind]}"' in html, item
        else:
            assert f'#{item[kind]}"' in html, item
    sections = re.findall(r'data-cc-gm-section="([a-z]+)"', html)
    assert sections == [s["section"] for s in system.meta["gm_screen"]]


# ---- the declaration's problems, each at its file, line and field ----


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    shutil.copytree(catalog.ROOT / "rules_data", tmp_path / "rules_data")
    return tmp_path


def _declare(root: Path, old: str, new: str) -> list[str]:
    path = root / "rules_data" / "countup" / "system.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return [str(p) for p in loader.load(root).problems]


def _line(root: Path, text: str) -> int:
    lines = (root / "rules_data" / "countup" / "system.yaml").read_text(encoding="utf-8").splitlines()
    return [i for i, line in enumerate(lines, 1) if text in line][-1]  # the last: a repeated section


FILE = "rules_data/countup/system.yaml"

BAD = {
    "unknown rule": (
        "      - {rule: initiative-count}\n",
        "      - {rule: initiative-counts}\n",
        "initiative-counts",
        "gm_screen[0].items[4].rule: no rule 'initiative-counts' (did you mean 'initiative-count'?)",
    ),
    "unknown fact": (
        "facts: [melee_range, reach_range]",
        "facts: [melee_range, reach]",
        "facts: [melee_range, reach]",
        "gm_screen[2].items[0].facts[1]: rule 'attack-melee' has no fact 'reach'",
    ),
    "unknown column": (
        "      - {table: action-types}\n",
        "      - {table: action-types, columns: [action, how_many]}\n",
        "how_many",
        "gm_screen[1].items[1].columns[1]: table 'action-types' has no column 'how_many'",
    ),
    "unknown column of a generated table": (
        "      - {table: hit-point-states}\n",
        "      - {table: hit-point-states, columns: [hp, status]}\n",
        "status",
        "gm_screen[6].items[0].columns[1]: table 'hit-point-states' has no column 'status'",
    ),
    "two kinds in one item": (
        "      - {rule: death}\n",
        "      - {rule: death, ruling: damage-floor}\n",
        "{rule: death, ruling",
        "gm_screen[6].items[1]: an item names exactly one of rule, ruling, term, table (this one: rule and ruling)",
    ),
    "text on a rule": (
        "      - {rule: apply-damage}\n",
        "      - {rule: apply-damage, text: true}\n",
        "apply-damage, text",
        "gm_screen[4].items[2].text: `text` belongs to a ruling item",
    ),
    "facts on a table": (
        "      - {table: ability-score-bonuses}\n",
        "      - {table: ability-score-bonuses, facts: [bonus]}\n",
        "facts: [bonus]",
        "gm_screen[2].items[2].facts: `facts` belongs to a rule item",
    ),
    "missing section": (
        "  - section: morale\n    absent: true\n",
        "",
        "gm_screen:",
        "gm_screen: no section 'morale' (every screen covers initiative, actions, hit, criticals, damage, "
        "defenses, health, morale)",
    ),
    "section twice": (
        "  - section: morale\n",
        "  - section: damage\n",
        "  - section: damage",
        "gm_screen[7].section: section 'damage' is already section 5",
    ),
    "items and absent": (
        "    absent: true\n",
        "    absent: true\n    items: [{rule: round}]\n",
        "absent: true",
        "gm_screen[7].absent: a section has `items` or `absent: true`, not both",
    ),
    "neither items nor absent": (
        "  - section: morale\n    absent: true\n",
        "  - section: morale\n",
        "  - section: morale",
        "gm_screen[7]: give the section `items`, or `absent: true` if the text has none",
    ),
    "unknown section (schema)": (
        "  - section: morale\n",
        "  - section: moral\n",
        "section: moral",
        "gm_screen[7].section: 'moral' is not one of",
    ),
    "unknown key (schema)": (
        "      - {rule: death}\n",
        "      - {rule: death, fact: [death_hp]}\n",
        "fact: [death_hp]",
        "gm_screen[6].items[1].fact: unknown field 'fact' (did you mean 'facts'?)",
    ),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_declaration_is_reported_at_its_file_line_and_field(data_root: Path, case: str) -> None:
    old, new, located, expected = BAD[case]
    found = _declare(data_root, old, new)
    wanted = f"{FILE}:{_line(data_root, located)}: {expected}"
    assert any(p.startswith(wanted) for p in found), (wanted, found)


def test_the_renderer_refuses_an_unknown_id_naming_the_file() -> None:
    import dataclasses

    real = CATALOG.systems["countup"]
    meta = {**real.meta, "gm_screen": [{"section": "hit", "items": [{"table": "no-such-table"}]}]}
    system = dataclasses.replace(real, meta=meta)
    with pytest.raises(gm_screen.GmScreenError, match=r"countup/system.yaml: gm_screen: no table 'no-such-table'"):
        gm_screen.gm_screen_page(Prose(CATALOG, system, "countup/gm-screen.md"), lambda table: {})
