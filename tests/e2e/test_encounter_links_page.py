"""Encounter links in the browser at phone size: a `#fight=` link and a players' link open with
the site offline (service worker ready, the context offline, each link opened in a new tab); the
players' view is read-only (no controls, foes' hit points nowhere, the stored fight untouched);
the link's QR code is drawn by the vendored library, loaded only when asked for; a link made
with other rules data opens with a notice naming both versions and what no longer fits; six
combatants set up from pasted stat blocks in every system, taps counted (the issue's ≤ 10)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

import pytest
from pages import FIRST_READY_MS, too_small, wait_until

from macros.render.encounters import fight_fragment

PHONE = {"width": 390, "height": 844}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]
QR_LIBRARY = "assets/js/vendor/qrcode.mjs"
CARDS = "(n) => document.querySelectorAll('.cc-tk-card[data-cc-id]').length === n"
# Per system: three PCs and three foes as an adventure prints them (the system's grammar reads
# every field: tests/calc/test_statblock.py reads the same kinds of line).
BLOCKS = {
    "countup": (
        "Ann: AC 16, HP 20, Init +2\nBob: AC 14, HP 14, Init +1\nCy: AC 12, HP 11, Init +0",
        "Orcs (3): AC 14, HP 6, 5, 4, Init +0, Atk +1 longsword (1d8)",
    ),
    "segments": (
        "Ann: AC 3, HD 4, hp 20\nBob: AC 5, HD 3, hp 14\nCy: AC 7, HD 2, hp 11",
        "Orcs (3): AC 6, HD 1, hp 7, 5, 4; MELEE: axe (1d8)",
    ),
    "action-points": (
        "Ann: HP 20, AC 16, Init +2\nBob: HP 14, AC 14, Init +1\nCy: HP 11, AC 12, Init +0",
        "Bandits (3): HP 18, 12, 9, AC 14, Init +2, Attack +5 longsword (2d8)",
    ),
    "phases": (
        "Ann: HP 20; Defense 3\nBob: HP 14; Defense 2\nCy: HP 11; Defense 1",
        "Goblins (3): HD 1, HP 5, 4, 3; Defense 2, Attack 12, Damage 1d6, Morale 7",
    ),
    "active-defense": (
        "Ann: HP 20, Dex +2, Armor 3\nBob: HP 14, Dex +1, Armor 2\nCy: HP 11, Dex +0, Armor 1",
        "Orc warriors (3): HP 14, 12, 10, Dex +1, Armor 3, Attack +5 axe (1d8)",
    ),
}
TAPS: dict[str, int] = {}  # measured here, printed by the last test (the closing note's figure)


@pytest.fixture
def phone(browser):
    """A phone-sized context, its page and every request that brought a response (URL, and
    whether the service worker made it: its install asks the HTTP cache alone for the later
    tier's files, which transfers nothing and fails when it is not there); page errors and policy
    violations fail the test."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    requests: list[tuple[str, bool]] = []
    context.on("requestfinished", lambda r: requests.append((r.url, r.service_worker is not None)))
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    context.expose_function("__ccViolation", lambda text: errors.append(f"CSP: {text}"))
    context.add_init_script(
        'document.addEventListener("securitypolicyviolation", (e) => '
        "window.__ccViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"
    )
    yield context, page, requests
    context.set_offline(False)
    context.close()
    assert errors == []


def open_tracker(page, site, system: str) -> None:
    page.goto(urljoin(site.base, f"{system}/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")


def stored(page, system: str) -> dict | None:
    text = page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}")
    return json.loads(text)["present"] if text else None


def add_pasted(page, text: str, side: str) -> int:
    """Paste `text` and add everyone as `side`: the taps it took (a paste counts as one)."""
    taps = 0
    if not page.locator(".cc-tk-add").evaluate("(d) => d.open"):
        page.locator(".cc-tk-add > summary").click()
        taps += 1
    page.get_by_label("Paste a stat block", exact=True).fill(text)
    taps += 1
    first = text.split(":")[0].replace(" (3)", " 1")
    page.locator(".cc-paste-name").first.filter(has_text=first).wait_for()  # this paste is read
    join = page.get_by_label("Join as", exact=True)
    if join.input_value() != side:
        join.select_option(side)
        taps += 1
    add = page.get_by_role("button", name="Add all 3 to the fight")
    add.wait_for()
    add.click()
    return taps + 1


@pytest.mark.parametrize("system", list(BLOCKS))
def test_six_combatants_from_pasted_blocks_in_at_most_ten_taps(phone, site, system) -> None:
    _, page, _ = phone
    open_tracker(page, site, system)
    pcs, foes = BLOCKS[system]
    taps = add_pasted(page, pcs, "pc")
    wait_until(page, CARDS, 3)
    taps += add_pasted(page, foes, "foe")
    wait_until(page, CARDS, 6)
    state = stored(page, system)
    assert [(c["side"], c["max"]) for c in state["combatants"][:3]] == [("pc", 20), ("pc", 14), ("pc", 11)]
    assert [c["side"] for c in state["combatants"][3:]] == ["foe"] * 3
    assert page.locator(".cc-paste-notes").count() == 0  # every field of the lines was read
    TAPS[system] = taps
    assert taps <= 10


def test_a_fight_link_and_a_players_link_open_offline(phone, site) -> None:
    context, page, requests = phone
    open_tracker(page, site, "segments")
    add_pasted(page, BLOCKS["segments"][0], "pc")
    wait_until(page, CARDS, 3)
    add_pasted(page, BLOCKS["segments"][1], "foe")
    wait_until(page, CARDS, 6)
    assert not [u for u, _ in requests if u.endswith(QR_LIBRARY)]  # not before a QR code is asked for

    page.get_by_role("button", name="Link to this fight").click()
    qr = page.get_by_role("img", name="QR code of the link to this roster")
    qr.wait_for()
    link = page.get_by_label("Link to this fight", exact=True).input_value()
    assert link.startswith(urljoin(site.base, "segments/tracker/#fight="))
    assert page.locator(".cc-tk-fightqr figcaption").inner_text() == link  # the link's text beside it
    loaded = [u for u, by_worker in requests if u.endswith(QR_LIBRARY) and not by_worker]
    assert loaded == [urljoin(site.base, QR_LIBRARY)]  # once, when asked for
    modules = int(qr.get_attribute("data-cc-modules"))
    assert qr.get_attribute("viewBox") == f"0 0 {modules + 8} {modules + 8}"  # four light modules around
    fills = qr.evaluate(
        "(svg) => [svg.querySelector('rect'), svg.querySelector('path')].map((n) => getComputedStyle(n).fill)"
    )
    assert fills == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    assert qr.bounding_box()["width"] >= 300  # as wide as the phone allows

    page.get_by_role("button", name="Players' view").click()
    page.get_by_role("button", name="Link for the players").click()
    page.get_by_role("img", name="QR code of the players' link").wait_for()
    players = page.locator(".cc-tk-players-link figcaption").inner_text()
    assert players.startswith(urljoin(site.base, "segments/tracker/#fight=players."))
    fight = stored(page, "segments")

    page.wait_for_selector("html[data-cc-offline=ready]", state="attached")
    context.set_offline(True)
    table = context.new_page()  # the players' phone (this browser: the site is kept offline)
    table.goto(players)
    table.wait_for_selector(".cc-tracker[data-cc-players=ready]")
    view = table.get_by_role("region", name="Players' view")
    text = view.inner_text()
    assert all(name in text for name in ("Ann", "Bob", "Cy", "Orcs 1", "Orcs 3"))
    assert "HP 20 / 20" in text and "HP 7" not in text  # PCs' hit points, never a foe's
    assert table.locator(".cc-tracker :is(button, input, select, textarea)").count() == 0  # read-only
    assert stored(table, "segments") == fight  # the GM's stored fight is untouched
    table.close()

    gm = context.new_page()  # the link opened offline: the roster becomes the fight
    gm.goto(link)
    said = "(t) => document.querySelector('.cc-tk-status')?.textContent.startsWith(t)"
    wait_until(gm, said, "Opened the link's fight: 6 combatants")
    assert "#fight=" not in gm.url
    opened = stored(gm, "segments")
    assert [c["name"] for c in opened["combatants"]] == [c["name"] for c in fight["combatants"]]


def test_a_link_from_other_rules_data_names_both_versions_and_what_no_longer_fits(phone, site) -> None:
    _, page, _ = phone
    roster = [
        {"name": "Ann", "side": "pc", "values": {"target_hp": 12}},
        {"name": "Orc", "side": "foe", "values": {"target_hp": 6, "ac": 999}},  # past today's bounds
    ]
    page.goto(urljoin(site.base, "countup/tracker/" + fight_fragment("countup", "000000000000", roster)))
    said = "(t) => document.querySelector('.cc-tk-status')?.textContent.startsWith(t)"
    wait_until(page, said, "Opened the link's fight: 1 combatant ")
    version = json.loads(page.locator(".cc-tracker").get_attribute("data-cc-tracker"))["version"]
    status = page.locator(".cc-tk-status").inner_text()
    assert f"made with rules data 000000000000; this site has {version}" in status
    assert "Not opened: Orc, Armor Class: must be between -10 and 50 (got 999)." in status
    assert [c["name"] for c in stored(page, "countup")["combatants"]] == ["Ann"]


def serious_violations(page) -> list:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations.map("
        "(v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))",
        AXE_TAGS,
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_qr_codes_and_the_players_view_pass_axe_in_both_themes(browser, site, theme) -> None:
    # bypass_csp: axe is injected as an inline script, which the site's policy rightly refuses
    context = browser.new_context(viewport=PHONE, color_scheme=theme, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    try:
        page.goto(urljoin(site.base, "segments/encounters/"))
        page.get_by_role("link", name="Run Claws and arrows in the tracker").click()
        wait_until(page, CARDS, 3)
        page.get_by_role("button", name="Link to this fight").click()
        page.get_by_role("img", name="QR code of the link to this roster").wait_for()
        page.get_by_role("button", name="Players' view").click()
        page.get_by_role("button", name="Link for the players").click()
        page.get_by_role("img", name="QR code of the players' link").wait_for()
        assert too_small(page, ".cc-tk-share, .cc-tk-players-open, .cc-tk-players-share") == []
        found = serious_violations(page)
        players = page.locator(".cc-tk-players-link figcaption").inner_text()
        page.goto(urljoin(site.base, "countup/"))  # another page first: the link is a new load
        page.goto(players)
        page.wait_for_selector(".cc-tracker[data-cc-players=ready]")
        found += serious_violations(page)
    finally:
        context.close()
    assert found == []


def test_the_qr_library_is_not_loaded_by_a_calculator_page(phone, site) -> None:
    _, page, requests = phone
    page.goto(urljoin(site.base, "countup/calculators/hit/"))
    page.wait_for_selector(".cc-calc[data-cc-state='done']")
    page.wait_for_selector("html[data-cc-offline=ready]", state="attached")  # the precache filled
    assert not [u for u, _ in requests if "vendor/" in u or "fight/qr" in u]  # not a byte of them
    caches = json.loads((site.dir / "sw.js").read_text().split("const CACHES = ", 1)[1].split(";\n", 1)[0])
    for file in (QR_LIBRARY, "assets/js/fight/qr.mjs"):
        tiers = [c.get("later", False) for c in caches for url, *_ in c["files"] if url == file]
        assert tiers == [True], file  # listed for offline use, with the tracker pages (later)
    print(f"\ntaps to set up six combatants: {TAPS}")
