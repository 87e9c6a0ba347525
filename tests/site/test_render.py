"""The pure renderers on the checker's mini system: Markdown in, no MkDocs needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from macros.check import loader
from macros.load import markup
from macros.load.markup import plain_text
from macros.render import overview, rules, system_pages
from macros.render.prose import Prose, md_text
from macros.render.tables import table_block
from macros.site import Site

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "good"


@pytest.fixture(scope="module")
def site() -> Site:
    cat = loader.load(FIXTURE)
    assert cat.problems == []
    return Site(cat)


def prose(site: Site, page: str = "countup/attacks.md") -> Prose:
    return Prose(site.catalog, site.catalog.systems["countup"], page)


def test_rule_page_has_anchored_headings_summary_facts_tables_rulings_examples_calculator(site: Site) -> None:
    md = site.render("countup/attacks.md")
    assert md.startswith('# Attacks <span class="cc-h1-system">· Mini</span>\n')
    assert "## Attacking {#attack}" in md and "## Damage {#damage}" in md
    assert "- Attack roll: **d20**" in md and "- Reach: **10 ft**" in md
    assert '<div class="cc-table" id="bonuses" markdown>' in md
    assert "<td>3–5</td><td>−1</td>" in md and "<td>6+</td><td>+0</td>" in md
    assert '!!! ruling "Ruling: Does a natural 20 always hit?"' in md
    assert "**Other reading:** Only if the total reaches the AC." in md
    assert '!!! example "Example: A plain hit"' in md
    assert 'data-cc-system="countup" data-cc-calculator="hit"' in md
    assert md.index("{#attack}") < md.index('data-cc-calculator="hit"') < md.index("{#damage}")


def test_references_become_relative_links_and_terms(site: Site) -> None:
    p = prose(site, "countup/calculators/hit.md")
    out = p.expand("See [[rule:damage]], [[table:bonuses|the table]], [[ruling:nat-20]] and [[term:ac]].")
    assert "[Damage](../attacks.md#damage)" in out
    assert "[the table](../attacks.md#bonuses)" in out
    assert "[Does a natural 20 always hit?](../rulings.md#nat-20)" in out
    assert '<span class="cc-term" tabindex="0" aria-describedby="cc-tip-ac-1">AC' in out
    assert '<span class="cc-tip" role="tooltip" id="cc-tip-ac-1"><strong>AC (Armour Class)</strong>' in out
    # the definition's own reference is plain text inside the tooltip: nothing interactive there
    assert "*Attacking*" in out


def test_plain_text_names_references_by_title_and_drops_marks(site: Site) -> None:
    """A ruling's reading as a calculator's step says it: plain text on one line, each reference
    its label or title, no emphasis or code marks (a step is shown as text, never as HTML)."""
    system = site.catalog.systems["countup"]
    text = "See [[rule:damage]],\n[[table:bonuses|the table]] and [[term:ac]]: **at least** *once*, `d20`; 2 * 3."
    assert plain_text(system, text) == "See Damage, the table and AC: at least once, d20; 2 * 3."
    assert plain_text(system, None) == ""


def test_bad_markup_raises() -> None:
    with pytest.raises(markup.MarkupError):
        markup.substitute("a [[rule:x", lambda ref: "")


def test_text_from_data_is_escaped() -> None:
    assert md_text("<img src=x onerror=alert(1)> *x* [y]") == "&lt;img src=x onerror=alert(1)&gt; \\*x\\* \\[y\\]"


def test_generated_table_renders_given_cells(site: Site) -> None:
    table = {"id": "gen", "title": "Gen", "rule": "attack", "generator": "g"}
    content = {
        "columns": [{"id": "a", "label": "A"}, {"id": "b", "label": "B<"}],
        "rows": [[-2, "17+"]],
        "caption": None,
    }
    md = table_block(prose(site), table, content)
    assert '<th scope="col">B&lt;</th>' in md and "<td>−2</td><td>17+</td>" in md and "computed" in md


def test_rulings_glossary_overview_calculator_pages(site: Site) -> None:
    assert "## Does a natural 20 always hit? {#nat-20}" in site.render("countup/rulings.md")
    assert "Calculator option: `nat20` = `True`" in site.render("countup/rulings.md")
    assert '<div class="cc-glossary-entry" id="ac" markdown>' in site.render("countup/glossary.md")
    overview_md = site.render("countup/index.md")
    assert "[Attacks](attacks.md)" in overview_md and "| Hitting | 1–2 | [Attacking](attacks.md#attack)" in overview_md
    calc_md = site.render("countup/calculators/damage.md")
    assert calc_md.startswith('# Damage <span class="cc-h1-system">· Mini</span>\n')
    assert "Rule: [Damage](../attacks.md#damage)" in calc_md


def test_compare_and_home(site: Site) -> None:
    compare = overview.compare_page(site.catalog)
    assert compare.count("\n| **") == len(overview.ASPECTS)
    assert "[→ Attacking](countup/attacks.md#attack)" in compare
    home = overview.home_page(site.catalog)
    assert "[Mini](countup/index.md)" in home and "[Compare the systems](compare.md)" in home


def test_compare_initiative_ties_row_reads_each_systems_tie_rule() -> None:
    # The real data: the row shows what each system declares for ties (a rule's summary, or a
    # ruling's title marked as a ruling), never the general initiative summary.
    cat = loader.load()
    assert cat.problems == []
    page = overview.compare_page(cat)
    (ties,) = [line for line in page.split("\n") if line.startswith("| **Initiative ties**")]
    (general,) = [line for line in page.split("\n") if line.startswith("| **Initiative**")]
    cells, general_cells = ties.split(" | ")[1:], general.split(" | ")[1:]
    for system, cell, other in zip(cat.systems.values(), cells, general_cells, strict=True):
        ref = system.meta["comparison"]["initiative_ties"]
        if ref.startswith("ruling:"):
            assert cell.startswith('<span class="cc-badge">Ruling</span> ')
            assert system.rulings[ref.removeprefix("ruling:")]["title"] in cell
        else:
            assert cell.startswith(system.rules[ref]["summary"].split("[[")[0].rstrip())
        assert cell != other, system.id
    phases, segments = cat.systems["phases"], cat.systems["segments"]
    assert phases.rulings["phase-ties"]["title"] in cells[list(cat.systems).index("phases")]
    assert "(phases/rulings.md#phase-ties)" in ties
    assert segments.rules["weapon-speed"]["summary"] in cells[list(cat.systems).index("segments")]


def test_ruling_shown_once_per_page(site: Site) -> None:
    system = site.catalog.systems["countup"]
    ruling = system.rulings["nat-20"]
    shown: set[str] = set()
    decls = site.declarations(system)
    first = rules.rule_section(prose(site), system.rules["attack"], lambda t: {}, decls, shown)
    ruling["applies_to"].append("damage")
    try:
        second = rules.rule_section(prose(site), system.rules["damage"], lambda t: {}, decls, shown)
    finally:
        ruling["applies_to"].remove("damage")
    assert "!!! ruling" in first and "!!! ruling" not in second and "rulings.md#nat-20" in second


def test_nav_is_derived_from_data(site: Site) -> None:
    nav = site.nav(["performance.md"])
    assert nav[0] == {"Home": "index.md"} and nav[-1] == "performance.md"
    mini = next(item["Mini"] for item in nav if isinstance(item, dict) and "Mini" in item)
    assert mini[0] == "countup/index.md" and {"Attacks": "countup/attacks.md"} in mini
    assert {
        "Calculators": [
            {"Hit chance": "countup/calculators/hit.md"},
            {"Damage": "countup/calculators/damage.md"},
            {"Initiative": "countup/calculators/initiative.md"},
        ]
    } in mini


def test_system_pages_module_is_pure(site: Site) -> None:
    assert system_pages.glossary_page(prose(site, "countup/glossary.md")) == system_pages.glossary_page(
        prose(site, "countup/glossary.md")
    )
