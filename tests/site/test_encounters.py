"""The Encounters pages (macros/render/encounters.py): each encounter of the data with its foes
and a "Run in tracker" link whose `#fight=` fragment unpacks (raw DEFLATE, base64url, as the
browser's DecompressionStream reads it) to exactly the exported roster and the data's version."""

from __future__ import annotations

import base64
import html
import json
import re
import zlib

import pytest

from macros.check import loader
from macros.export import exported
from macros.render.encounters import fight_fragment
from macros.site import Site


@pytest.fixture(scope="module")
def site() -> Site:
    return Site(loader.load())


def unpack(fragment: str) -> dict:
    assert fragment.startswith("#fight=")
    text = fragment.removeprefix("#fight=")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return json.loads(zlib.decompress(raw, -15))


def test_fragment_round_trip() -> None:
    foes = [{"name": "Orc “Grim”", "side": "foe", "values": {"ac": 6, "routine": [{"name": "Axe", "dice": "1d8"}]}}]
    assert unpack(fight_fragment("segments", "v1", foes)) == {
        "v": 1,
        "d": "v1",
        "s": "segments",
        "c": [{"n": "Orc “Grim”", "s": "foe", "v": foes[0]["values"]}],
    }


@pytest.mark.parametrize("system", ["countup", "segments"])
def test_each_encounter_runs_in_the_tracker_with_its_foes(site: Site, system: str) -> None:
    page = site.render(f"{system}/encounters.md")
    data = site.exported[system]["encounters"]
    links = re.findall(r'href="(\.\./tracker/#fight=[^"]+)"', page)
    assert len(links) == len(data) > 0
    for link, enc in zip(links, data, strict=True):
        body = unpack(html.unescape(link).removeprefix("../tracker/"))
        assert body["s"] == system and body["d"] == exported(site.catalog)["version"]
        assert [(c["n"], c["s"], c["v"]) for c in body["c"]] == [
            (f["name"], f["side"], f["values"]) for f in enc["foes"]
        ]
        assert f"## {enc['title']}" in page
    assert {"Encounters": f"{system}/encounters.md"} in site.system_nav(site.catalog.systems[system])


@pytest.mark.parametrize("system", ["action-points", "phases", "active-defense"])
def test_a_text_without_creatures_says_so_and_makes_none_up(site: Site, system: str) -> None:
    assert site.exported[system]["encounters"] == []
    page = site.render(f"{system}/encounters.md")
    assert "gives numbers for no creature" in page and "no encounter is made up" in page
    assert "cc-run-encounter" not in page and "has no encounters yet" not in page
    assert "Ready-made fights" not in page and "[Open the encounter tracker](tracker.md)" in page
    assert {"Encounters": f"{system}/encounters.md"} in site.system_nav(site.catalog.systems[system])


def test_a_system_without_encounters_or_note_has_no_page(site: Site) -> None:
    saved = site.exported["phases"]
    site.exported["phases"] = {**saved, "encounters": [], "encounters_note": None}
    try:
        assert {"Encounters": "phases/encounters.md"} not in site.system_nav(site.catalog.systems["phases"])
    finally:
        site.exported["phases"] = saved
