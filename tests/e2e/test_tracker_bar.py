"""The turn bar never covers the cards (issue 21, on a 390×844 phone, light and dark, every
system): a fight built in CPython mid-round is stored as the tracker keeps it; after a reload and
after Next turn the acting card is in view with its odds and Resolve (no scrolling), every button,
input and select of the cards that shows on screen is what a tap at its centre reaches
(document.elementFromPoint: not the bar, not the site's header), and axe-core passes on the whole
page (target-size included); scrolling from top to bottom finds no control covered either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tracker import PHONE, open_tracker, settle, tracker
from test_tracker_odds import assert_axe_clean, panel

from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
COVERED_JS = (Path(__file__).parent / "covered.js").read_text()
PEOPLE = [("Ann", "pc", 20), ("Bob", "pc", 14), ("Orc", "foe", 15), ("Ogre", "foe", 30)]


def mid_round(system: str) -> Fight:
    """Four combatants, round 1 started, the second in the order acting."""
    built = Fight(system)
    for name, side, hp in PEOPLE:
        built.add(name, side, hp)
    built.round()
    built.do("next_turn")
    return built


def odds_shown(page) -> None:
    """The acting card's odds are in: their figures and the "before it acts again" answer."""
    box = panel(page)
    box.locator(".cc-tk-figures").wait_for()
    box.locator("xpath=self::*[@data-cc-before-state]").wait_for(state="attached")


def visible_box(page, selector: str) -> dict:
    """Where `selector` is on screen, and the bottom of the box the page scrolls in (above the bar)."""
    return page.evaluate(
        """(sel) => {
            const r = document.querySelector(sel).getBoundingClientRect();
            const bar = document.querySelector('.cc-tk-bar').getBoundingClientRect();
            const header = document.querySelector('.md-header').getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, above: bar.top, below: header.bottom};
        }""",
        selector,
    )


def check_screen(page, system: str, scheme: str, when: str) -> list:
    """The acting card's head, odds and Resolve in view, nothing of the cards covered, axe clean.
    Returns what is wrong (all of it, so a failure shows every problem at once)."""
    problems = []
    where = (scheme, when)
    # Material follows the system's scheme (mkdocs.yml: the palette's media queries)
    dark = page.evaluate("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    assert dark == (scheme == "dark"), where
    acting = f".cc-tk-card[data-cc-id='{tracker(page).get_attribute('data-cc-turn')}']"
    head = visible_box(page, f"{acting} .cc-tk-head")
    if not (head["below"] <= head["top"] and head["bottom"] <= head["above"]):
        problems.append((*where, "acting card's head out of view", head))
    odds = visible_box(page, f"{acting} .cc-tk-odds")  # its figures and Resolve, no scrolling
    if not (odds["below"] <= odds["top"] and odds["bottom"] <= odds["above"]):
        problems.append((*where, "acting card's odds and Resolve out of view", odds))
    found = page.evaluate(COVERED_JS)
    if not found["seen"] or found["covered"]:
        problems.append((*where, "controls covered", found))
    try:
        assert_axe_clean(page, "document")
    except AssertionError as err:
        problems.append((*where, "axe", str(err)[:600]))
    print(f"\n{system} {scheme} after {when}: {found['seen']} controls on screen, {len(found['covered'])} covered")
    return problems


def scan(page) -> list:
    """Scroll the page from top to bottom a third of a screen at a time: no control of the cards is
    ever covered on the way."""
    problems = []
    scroll = "(y) => { scrollTo(0, y); document.querySelector('.md-container').scrollTo(0, y); }"
    height = page.evaluate(
        "() => Math.max(document.documentElement.scrollHeight, document.querySelector('.md-container').scrollHeight)"
    )
    for y in range(0, height, PHONE["height"] // 3):
        page.evaluate(scroll, y)
        found = page.evaluate(COVERED_JS)
        if found["covered"]:
            problems.append(("scrolled to", y, found["covered"]))
    return problems


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_turn_bar_covers_no_control_after_a_reload_and_next_turn(browser, site, system):
    built = mid_round(system)
    saved = json.dumps({"past": [], "present": built.state, "future": [], "view": built.view})
    problems = []
    for scheme in ("light", "dark"):
        # bypass_csp: axe is injected as an inline script
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(120_000)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            open_tracker(page, site, system)
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"cc-tracker-{system}", saved])
            page.reload()
            page.wait_for_selector(".cc-tracker[data-cc-bound]")
            settle(page)
            odds_shown(page)
            problems += check_screen(page, system, scheme, "a reload")
            before = tracker(page).get_attribute("data-cc-turn")
            tracker(page).locator(".cc-tk-bar").get_by_role("button", name="Next turn").click()
            settle(page)
            page.locator(f".cc-tracker:not([data-cc-turn='{before}'])").wait_for(state="attached")
            odds_shown(page)
            problems += check_screen(page, system, scheme, "Next turn")
            problems += scan(page)
            assert not errors, errors
        finally:
            context.close()
    for problem in problems:
        print(f"\n{system}: {problem}")
    assert not problems, (system, problems)
