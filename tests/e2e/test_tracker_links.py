"""The tracker's links and forecast, in the browser (issues 21 item 3, 22 item 4):

* the Forecast panel of a countup fight as it stands sends the request CPython's
  calc.fight.forecast_request builds from the same state, and shows "Party wins" with the
  fraction calc.evaluate gives for it, with its assumptions linked to their rules;
* a card's "Damage per round vs Orc" link opens the round calculator with the acting attacker's
  and the target's values, says which came from the tracker, and Back lands on the Orc's card.

The fight is built in CPython (tests/calc/fight_helpers.py) and stored as the page stores it."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

import pytest
from pages import FIRST_READY_MS, wait_until

from calc import evaluate
from calc import fight as calc_fight
from tests.calc.fight_helpers import Fight

PHONE = {"width": 390, "height": 844}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]
KEY = "cc-tracker-countup"


def fight() -> Fight:
    """Aria (Hurt at −1) and Bram against an Orc; round 1, Aria acting."""
    f = Fight("countup")
    f.add("Aria", "pc", 10, to_hit=4, ac=15, modifier=1)
    f.add("Bram", "pc", 8, attack="thrown", dice="1d6")
    f.add("Orc", "foe", 9, ac=13, to_hit=1)
    f.damage("Aria", 11)
    f.round()
    while f.current() != "Aria":
        f.do("next_turn")
    return f


def open_with(browser, site, f: Fight, theme: str = "light"):
    # bypass_csp: axe is injected as an inline script, which the site's policy rightly refuses
    context = browser.new_context(viewport=PHONE, color_scheme=theme, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    url = urljoin(site.base, "countup/tracker/")
    page.goto(url)
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    stored = {"past": [], "present": f.state, "future": [], "view": f.view}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(stored)])
    page.reload()
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    page.locator(".cc-tracker[data-cc-python=ready]:not([data-cc-busy])").wait_for(state="attached")
    return context, page


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_forecast_panel_answers_the_fight_as_it_stands(browser, site, theme, tmp_path):
    f = fight()
    request = calc_fight.forecast("countup", f.state)["request"]
    want = {c["label"]: c["p"]["fraction"] for c in evaluate(request)["chances"]}
    context, page = open_with(browser, site, f, theme)
    try:
        panel = page.locator(".cc-tk-forecast")
        panel.get_by_role("button", name="Forecast the fight from here").click()
        page.locator(".cc-tk-forecast[data-cc-state=done]").wait_for()
        answer = panel.locator(".cc-tk-forecast-answer")
        assert json.loads(answer.get_attribute("data-cc-request")) == request
        # mid-round: Aria's turn, those before her have acted (calc/fight/forecast_request.py)
        acted = request["inputs"]["acted"]
        assert [e["name"] for e in request["inputs"]["order"]][acted] == "Aria"
        status = panel.locator(".cc-tk-forecast-status").inner_text()
        assert f"from round 1, turn {acted + 1} of {len(request['inputs']['order'])}" in status, status
        shown = answer.locator(".cc-chances dt").all_inner_texts()
        assert shown[:2] == ["Party wins", "Foes win"]
        wins = answer.locator(".cc-chances dd").first.locator(".cc-frac").get_attribute("data-fraction")
        assert wins == want["Party wins"]
        # each exact fraction a tap away, as on the cards (hundreds of digits would fill the phone)
        first = answer.locator(".cc-chances dd").first
        assert first.locator(".cc-frac").is_hidden()
        first.locator("summary").click()
        assert first.locator(".cc-frac").is_visible() and first.locator(".cc-frac").inner_text() == wins
        rules = answer.locator(".cc-steps a[href]")  # every assumption beside its rule
        assert rules.count() >= 5
        assert all(href.startswith(site.base) for href in rules.evaluate_all("(xs) => xs.map((a) => a.href)"))
        assert panel.locator(".cc-tk-forecast-out").is_hidden()
        # the panel fits a phone: nothing wider than the screen, the rounds table's columns within
        # its box (the exact mean in its caption wraps, never widens the table)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        table = answer.locator(".cc-table-block .cc-scroll")
        assert table.evaluate("(box) => box.scrollWidth <= box.clientWidth"), table.evaluate("(b) => b.scrollWidth")
        panel.screenshot(path=str(tmp_path / f"tracker-forecast-{theme}.png"))  # to look at
        # axe-core with the forecast showing, in this colour scheme
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            "async (tags) => (await axe.run(document.querySelector('.cc-tk-forecast'), "
            "{runOnly: {type: 'tag', values: tags}})).violations.map("
            "(v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))",
            AXE_TAGS,
        )
        assert not [v for v in violations if v["impact"] in ("serious", "critical")], violations
        # a change to the fight marks the answer as old until asked again
        page.get_by_label("Amount of damage or healing for Orc").fill("2")
        page.get_by_role("button", name="Damage Orc").click()
        page.locator(".cc-tk-forecast[data-cc-stale=true]").wait_for(state="attached")
    finally:
        context.close()


def test_a_fight_past_the_forecasts_limits_shows_the_typed_error(browser, site):
    f = Fight("countup")
    f.add("Aria", "pc", 10)
    for i in range(7):
        f.add(f"Orc {i + 1}", "foe", 5)
    context, page = open_with(browser, site, f)
    try:
        page.get_by_role("button", name="Forecast the fight from here").click()
        page.locator(".cc-tk-forecast[data-cc-state=error]").wait_for()
        text = page.locator(".cc-tk-forecast-answer .cc-error").inner_text()
        assert text.startswith("foes: ")
    finally:
        context.close()


def test_a_card_link_carries_the_question_and_back_lands_on_the_card(browser, site, tmp_path):
    f = fight()
    orc = f.ident("Orc")
    link = f.who("Orc")["links"]["round"]
    assert link["attacker"] == "Aria"
    context, page = open_with(browser, site, f)
    try:
        card = page.locator(f".cc-tk-card[data-cc-id='{orc}']")
        card.locator(".cc-tk-toggle").click()
        card.locator(".cc-tk-link").first.wait_for()
        card.screenshot(path=str(tmp_path / "tracker-card-links.png"))  # to look at
        card.get_by_role("link", name="Damage per round vs Orc").click()
        page.wait_for_selector(".cc-calc[data-cc-state=done]")
        notice = page.locator(".cc-from-tracker")
        assert notice.inner_text().startswith("From the encounter tracker:")
        for name, value in link["inputs"].items():
            field = page.locator(f".cc-calc [name='{name}']")
            if field.get_attribute("type") == "checkbox":
                assert field.is_checked() == value, name
            else:
                assert field.input_value() == str(value), name
        assert "Target's hit points 9" in notice.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(tmp_path / "calculator-from-tracker.png"))  # to look at
        assert "−1" not in notice.inner_text()  # Aria's own hit points are not the target's
        # an edit here: the inputs are the reader's now, and a copied link no longer claims the tracker
        page.locator(".cc-calc [name='to_hit']").fill("7")
        page.locator(".cc-from-tracker:has-text('then changed here')").wait_for()
        wait_until(page, "() => new URLSearchParams(location.search).get('to_hit') === '7'")
        assert not page.evaluate("new URLSearchParams(location.search).has('from')")
        page.go_back()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        assert page.evaluate("location.hash") == f"#cc-card-{orc}"
        wait_until(
            page,
            """(id) => {
                const card = document.querySelector(`.cc-tk-card[data-cc-id="${id}"]`);
                if (!card) return false;
                const box = card.getBoundingClientRect();
                return box.top >= 0 && box.top < innerHeight / 2;
            }""",
            orc,
        )
        assert page.locator(f".cc-tk-card[data-cc-id='{orc}'] .cc-tk-toggle").get_attribute("aria-expanded") == "true"
    finally:
        context.close()
