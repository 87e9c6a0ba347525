"""The built site: every rule, table, ruling and term is an anchor where links expect it, terms
render as self-explaining elements, no `[[...]]` markup is left, and nothing is fetched off the
site's origin."""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from site_html import page_html

from calc.inputs import applies, declared
from calc.inputs import data as calc_data
from macros.check import loader
from macros.load import catalog
from macros.render.calculator import calculator_block, json_attribute

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import prerender  # noqa: E402

CATALOG = loader.load()
SYSTEMS = list(CATALOG.systems.values())


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_rule_and_table_is_an_anchor_on_its_page(site: Path, system: catalog.System) -> None:
    missing = []
    for page in system.pages:
        ids = _ids(page_html(site, f"{system.id}/{page['id']}/"))
        missing += [r["id"] for r in system.rules_on(page["id"]) if r["id"] not in ids]
        missing += [
            t["id"] for r in system.rules_on(page["id"]) for t in system.tables_of(r["id"]) if t["id"] not in ids
        ]
    assert missing == []


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_rulings_and_terms_are_anchors(site: Path, system: catalog.System) -> None:
    assert set(system.rulings) <= _ids(page_html(site, f"{system.id}/rulings/"))
    assert set(system.terms) <= _ids(page_html(site, f"{system.id}/glossary/"))


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_rulings_are_marked_where_they_apply(site: Path, system: catalog.System) -> None:
    for ruling in system.rulings.values():
        for rule_id in ruling["applies_to"]:
            html = page_html(site, f"{system.id}/{system.rules[rule_id]['page']}/")
            assert "admonition ruling" in html and f"rulings/#{ruling['id']}" in html, (ruling["id"], rule_id)


TERM = re.compile(r'<span class="cc-term" tabindex="0" aria-describedby="([^"]+)">')


def test_glossary_terms_render_as_accessible_tooltips(site: Path) -> None:
    used = 0
    for path in site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        for tip_id in TERM.findall(html):
            used += 1
            assert f'role="tooltip" id="{tip_id}"' in html, f"{path}: term without its tooltip {tip_id}"
        assert len(TERM.findall(html)) == len(set(TERM.findall(html))), f"{path}: tooltip ids repeat"
    uses = sum("[[term:" in (r.get("body", "") + r.get("summary", "")) for s in SYSTEMS for r in s.rules.values())
    assert used >= uses > 0


def test_no_reference_markup_left(site: Path) -> None:
    left = [
        p
        for p in site.rglob("*.html")
        if "[[" in p.read_text(encoding="utf-8").replace("[[", "", 0)
        and re.search(r"\[\[(term|rule|ruling|table):", p.read_text(encoding="utf-8"))
    ]
    assert left == []


def test_calculators_are_embedded_on_their_pages(site: Path) -> None:
    for system in SYSTEMS:
        for name, calc in system.calculators.items():
            rule_page = page_html(site, f"{system.id}/{system.rules[calc['rule']]['page']}/")
            own_page = page_html(site, f"{system.id}/calculators/{name}/")
            marker = f'data-cc-system="{system.id}" data-cc-calculator="{name}"'
            assert marker in rule_page and marker in own_page


def test_json_attributes_read_back_exactly() -> None:
    """The JSON a calculator block carries in a single-quoted attribute (apostrophes, quotes,
    `<`, `&` and non-ASCII included) is the data again for an HTML parser, as for a browser."""
    data = {"title": 'Alice\'s <b>"bold"</b> & co — ½', "list": [1, "'", '"', "&amp;"]}
    fragment = f"<div {json_attribute('data-x', data)}></div>"
    found: list[dict] = []

    class Reader(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append(json.loads(dict(attrs)["data-x"]))

    Reader().feed(fragment)
    assert found == [data]
    assert "<" not in fragment[5:-7] and "&quot;" not in fragment


class _Blocks(HTMLParser):
    """The attributes of every calculator block of a page, as a browser reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if "data-cc-declaration" in dict(attrs):
            self.found.append(dict(attrs))


def test_every_calculator_page_carries_its_declaration(site: Path) -> None:
    for system in SYSTEMS:
        for name in system.calculators:
            reader = _Blocks()
            reader.feed(page_html(site, f"{system.id}/calculators/{name}/"))
            (block,) = reader.found
            declaration = json.loads(block["data-cc-declaration"])
            assert declaration["inputs"], f"{system.id}/{name}"
            # What the form reads of Python before it is up: the inputs that apply with the
            # defaults, and each field's typed-length limit, both Python's own.
            exported = calc_data.system(system.id).calculator(name)["inputs"]
            assert declaration["applies"] == applies.applicable(exported, {}), f"{system.id}/{name}"
            by_name = {d["name"]: d for d in exported}
            for decl in declaration["inputs"]:
                own = by_name[decl["name"]]
                fields = {f["name"]: f for f in own.get("fields", [])}
                for one, its in [(decl, own), *((f, fields[f["name"]]) for f in decl.get("fields", []))]:
                    assert one.get("max_length") == declared.typed_length(its), f"{system.id}/{name}/{one['name']}"
                if decl["type"] == "list":
                    assert (decl["min_items"], decl["max_items"]) == declared.item_bounds(own)


def test_the_prerendered_answer_reads_back_exactly(tmp_path: Path) -> None:
    """tools/prerender.py writes the default answer into a block as JSON: read back, it is the
    answer, whatever characters it holds."""
    answer = {"summary": 'Alice\'s "Hurt" <b>test</b> & more — ½', "steps": [{"text": "it's"}]}
    page = tmp_path / "p" / "index.html"
    page.parent.mkdir()
    page.write_text(calculator_block("countup", "hit", {"inputs": [{"name": "x"}]}, "countup/calculators/hit/"))
    assert prerender.inject(page, tmp_path, {"countup/hit": answer}, {"countup/hit": "<p>shown</p>"}) == 1
    reader = _Blocks()
    reader.feed(page.read_text())
    (block,) = reader.found
    assert json.loads(block["data-cc-answer"]) == answer


# --- zero requests off the origin -------------------------------------------------------------

SITE_HOSTS = {"127.0.0.1", "localhost"}
INERT = {
    # host: why a URL to it in the built files is never requested
    "www.w3.org": "XML namespaces in inline SVG",
    "unpkg.com": "Material's bundle: ResizeObserver polyfill (every supported browser has it) and mermaid "
    "(only for mermaid diagrams, which the site has none of)",
    "api.github.com": "Material's bundle: repository facts, only with repo_url, which the site does not set",
    "github.com": "comments and licence headers in the search (lunr) scripts",
    "clipboardjs.com": "licence comment in Material's bundle",
    "fontawesome.com": "licence comment in Material's stylesheet",
    "lunrjs.com": "licence comment in the search worker",
    "tartarus.org": "reference comment (Snowball stemmer) in the search worker",
    "bit.ly": "reference comment in the search worker",
}
LOADING = re.compile(
    r'<(?:script|img|iframe|link|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)="(https?:)?//([^/"]+)'
)
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])(https?:)?//([^/'")]+)""")
ANY_URL = re.compile(r"https?://([A-Za-z0-9.-]+)")


def _text_files(site: Path):
    for path in site.rglob("*"):
        if path.suffix in (".html", ".css", ".js", ".mjs", ".json", ".webmanifest") and path.is_file():
            yield path, path.read_text(encoding="utf-8", errors="replace")


def test_nothing_loads_from_another_host(site: Path) -> None:
    bad = []
    for path, text in _text_files(site):
        if path.suffix == ".html":
            bad += [(path.name, host) for _, host in LOADING.findall(text) if host.split(":")[0] not in SITE_HOSTS]
        bad += [(path.name, host) for _, host in CSS_URL.findall(text) if host.split(":")[0] not in SITE_HOSTS]
    assert bad == []


def test_every_url_to_another_host_is_known_inert(site: Path) -> None:
    site_url = urlparse(re.search(r'rel="canonical" href="([^"]+)"', (site / "index.html").read_text())[1])
    allowed = SITE_HOSTS | {site_url.hostname} | set(INERT)
    unknown: dict[str, str] = {}
    for path, text in _text_files(site):
        if path.match("assets/javascripts/lunr/*") or path.match("assets/javascripts/lunr/min/*"):
            continue  # third-party stemmers: only licence and reference comments
        for host in ANY_URL.findall(text):
            if host not in allowed:
                unknown.setdefault(host, str(path.relative_to(site)))
    assert unknown == {}
