"""The turn bar never covers the cards (issue 21, on a 390×844 phone, light and dark, every
system): a fight built in CPython mid-round is stored as the tracker keeps it; after a reload and
after Next turn the acting card is in view, every button, input and select of the cards that shows
on screen is what a tap at its centre reaches (document.elementFromPoint: not the bar, not the
site's header), and axe-core passes on the whole page (target-size included)."""

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


def check_screen(page, system: str, when: str) -> list:
    """In each colour scheme: the acting card's head in view, nothing of the cards covered, axe
    clean. Returns what is wrong (all of it, so a failure shows every problem at once)."""
    problems = []
    acting = f".cc-tk-card[data-cc-id='{tracker(page).get_attribute('data-cc-turn')}']"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        head = visible_box(page, f"{acting} .cc-tk-head")
        if not (head["below"] <= head["top"] and head["bottom"] <= head["above"]):
            problems.append((when, scheme, "acting card's head out of view", head))
        found = page.evaluate(COVERED_JS)
        if not found["seen"] or found["covered"]:
            problems.append((when, scheme, "controls covered", found))
        try:
            assert_axe_clean(page, "document")
        except AssertionError as err:
            problems.append((when, scheme, "axe", str(err)[:600]))
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
    # bypass_csp: axe is injected as an inline script
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_tracker(page, site, system)
        saved = json.dumps({"past": [], "present": built.state, "future": [], "view": built.view})
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"cc-tracker-{system}", saved])
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        settle(page)
        odds_shown(page)
        problems = check_screen(page, system, "a reload")
        before = tracker(page).get_attribute("data-cc-turn")
        tracker(page).locator(".cc-tk-bar").get_by_role("button", name="Next turn").click()
        settle(page)
        page.locator(f".cc-tracker:not([data-cc-turn='{before}'])").wait_for(state="attached")
        odds_shown(page)
        problems += check_screen(page, system, "Next turn")
        problems += scan(page)
        for problem in problems:
            print(f"\n{system}: {problem}")
        assert not problems, (system, problems)
        assert not errors, errors
    finally:
        context.close()
