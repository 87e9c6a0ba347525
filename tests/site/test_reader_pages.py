"""What a reader sees of the built site without a browser: every system page names its system
in the tab title, heading and search index; each system has a GM screen of the tables its
system.yaml declares; the Performance page is linked from home but not in the navigation."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from site_html import page_html

from macros.check import loader
from macros.load import catalog

SYSTEMS = list(loader.load().systems.values())


def _title(html: str) -> str:
    return unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1)).strip()


def _system_urls(system: catalog.System) -> list[str]:
    urls = [f"{system.id}/{p['id']}/" for p in system.pages]
    urls += [f"{system.id}/rulings/", f"{system.id}/glossary/", f"{system.id}/gm-screen/", f"{system.id}/tracker/"]
    urls += [f"{system.id}/calculators/{name}/" for name in system.calculators]
    return urls


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_system_page_names_its_system(site: Path, system: catalog.System) -> None:
    unnamed = []
    for url in _system_urls(system):
        html = page_html(site, url)
        title = _title(html)
        h1 = re.sub(r"<[^>]+>", "", re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1))
        if not title.endswith(f" · {system.name} — Combat Codex") or system.name not in unescape(h1):
            unnamed.append((url, title, h1))
    assert not unnamed, unnamed


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_tracker_page_carries_the_systems_tracker_declaration(site: Path, system: catalog.System) -> None:
    """The tracker's fields are the `tracker:` block's inputs, defenses and status (as exported
    to calc/rules.json), its links the hit and round calculators' own pages and inputs."""
    html = page_html(site, f"{system.id}/tracker/")
    found = re.search(r"<div class=\"cc-tracker\"[^>]*data-cc-tracker='([^']*)'", html)
    assert found, "no tracker block"
    decl = json.loads(unescape(found.group(1)))
    spec = json.loads((Path(__file__).parents[2] / "calc" / "rules.json").read_text())["systems"][system.id]["tracker"]
    names = [i["name"] for i in spec["inputs"]] + [r["input"] for r in spec["defenses"] + spec.get("status", [])]
    assert [f["name"] for f in decl["fields"]] == list(dict.fromkeys(names))
    assert decl["health"]["input"] == spec["health"]["input"]
    for name, link in decl["links"].items():
        assert link["url"] == f"{system.id}/calculators/{name}/"
        assert set(link["inputs"]) == {i["name"] for i in system.calculators[name]["inputs"]}
    assert "hit" in decl["links"]


def test_calculator_titles_differ_between_systems(site: Path) -> None:
    """The issue: five pages were all called "Hit chance - Combat Codex"."""
    assert _title(page_html(site, "countup/calculators/hit/")) == "Hit chance · Countup — Combat Codex"
    assert _title(page_html(site, "")) == "Combat Codex"
    titles = [_title(page_html(site, f"{s.id}/calculators/hit/")) for s in SYSTEMS if "hit" in s.calculators]
    assert len(titles) >= 2 and len(set(titles)) == len(titles), titles


def test_search_results_name_the_system(site: Path) -> None:
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    by_page = {d["location"]: d["title"] for d in docs if "#" not in d["location"]}
    missing = []
    for system in SYSTEMS:
        for url in _system_urls(system):
            title = by_page.get(url)
            if title is None or system.name not in unescape(re.sub(r"<[^>]+>", "", title)):
                missing.append((url, title))
    assert not missing, missing[:10]


def test_performance_is_linked_from_home_but_not_in_the_navigation(site: Path) -> None:
    assert 'href="performance/"' in page_html(site, "")
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>\s*</div>', page_html(site, "countup/"), re.S)
    assert nav and "Performance" not in nav.group(0)
    assert (site / "performance" / "index.html").exists()


def test_reader_text_has_no_test_suite_notes(site: Path) -> None:
    for system in SYSTEMS:
        for page in system.pages:
            assert "Checked by the test suite" not in page_html(site, f"{system.id}/{page['id']}/")
