"""One tap per attack (issue #35 item 2), on a 390×844 phone, every system: a nine-combatant fight
(4 PCs against 5 foes) built in CPython mid-round and stored as the tracker keeps it. At the turn's
start the acting card's Resolve and odds are on screen without scrolling (light and dark); the
target shown is Python's default (`odds.default_target`: calc/fight/aim.py) and its card is marked;
one tap on another combatant's card makes it the target; one tap on Resolve rolls every die the plan
lists, applies the attack Python resolves from those faces and records the target as the last one."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from test_tracker import PHONE, current_id, open_tracker, settle, stored, tracker

from calc import fight as engine
from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
PEOPLE = [
    ("Ann", "pc", 20),
    ("Bob", "pc", 14),
    ("Cy", "pc", 11),
    ("Dee", "pc", 16),
    ("Orc", "foe", 15),
    ("Gob", "foe", 7),
    ("Ogre", "foe", 30),
    ("Rat", "foe", 5),
    ("Wolf", "foe", 12),
]
SHOTS = Path(os.environ.get("CC_SHOTS", "/tmp/cc-tracker-resolve-shots"))


def built(system: str) -> Fight:
    """Nine combatants, round 1 started, the second in the order acting."""
    f = Fight(system)
    for name, side, hp in PEOPLE:
        f.add(name, side, hp)
    f.round()
    f.do("next_turn")
    return f


def acting(page) -> str:
    return f".cc-tk-card[data-cc-id='{current_id(page)}']"


def in_view(page, selector: str) -> dict:
    """Where `selector` is on screen and the box the page scrolls in: below the header, above the bar."""
    return page.evaluate(
        """(sel) => {
            const r = document.querySelector(sel).getBoundingClientRect();
            const bar = document.querySelector('.cc-tk-bar').getBoundingClientRect();
            const header = document.querySelector('.md-header').getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, above: bar.top, below: header.bottom};
        }""",
        selector,
    )


def seen(box: dict) -> bool:
    return box["below"] <= box["top"] and box["bottom"] <= box["above"]


def load(page, site, system: str, f: Fight) -> None:
    open_tracker(page, site, system)
    saved = json.dumps({"past": [], "present": f.state, "future": [], "view": f.view})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"cc-tracker-{system}", saved])
    page.reload()
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    settle(page)
    page.locator(f"{acting(page)} .cc-tk-odds .cc-tk-figures").wait_for()


@pytest.mark.parametrize("system", SYSTEMS)
def test_resolve_and_the_odds_are_on_screen_as_a_turn_starts(browser, site, system):
    f = built(system)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(120_000)
        try:
            load(page, site, system, f)
            for when in ("a reload", "Next turn"):
                if when == "Next turn":
                    before = current_id(page)
                    tracker(page).locator(".cc-tk-bar").get_by_role("button", name="Next turn").click()
                    settle(page)
                    page.locator(f".cc-tracker:not([data-cc-turn='{before}'])").wait_for(state="attached")
                    page.locator(f"{acting(page)} .cc-tk-odds .cc-tk-figures").wait_for()
                page.screenshot(path=str(SHOTS / f"{system}-{scheme}-{when.replace(' ', '-')}.png"))
                for part in (".cc-tk-resolvebtn", ".cc-tk-figures"):
                    box = in_view(page, f"{acting(page)} .cc-tk-odds {part}")
                    if not seen(box):
                        problems.append((scheme, when, part, box))
        finally:
            context.close()
    assert not problems, (system, problems)


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_tap_on_a_card_retargets_and_one_tap_on_resolve_resolves(browser, site, system):
    f = built(system)
    context = browser.new_context(viewport=PHONE, color_scheme="light", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        load(page, site, system, f)
        me = current_id(page)
        odds = f.view["odds"]
        default = odds["default_target"]
        assert default is not None and odds["target"] == default
        box = tracker(page).locator(f"{acting(page)} .cc-tk-odds")
        assert box.get_attribute("data-cc-target") == default  # preselected: Python's default
        assert tracker(page).locator(f".cc-tk-card.cc-tk-aimed[data-cc-id='{default}']").count() == 1
        page.evaluate("() => { window.__taps = 0; document.addEventListener('click', () => window.__taps++, true); }")

        # one tap on another enemy's card (on its hit points, no control) makes it the target
        me_side = next(c["side"] for c in f.view["combatants"] if c["id"] == me)
        other = next(c for c in f.view["combatants"] if c["side"] != me_side and c["acts"] and c["id"] != default)
        card = tracker(page).locator(f".cc-tk-card[data-cc-id='{other['id']}']")
        card.locator(".cc-tk-health").click()
        tracker(page).locator(f"{acting(page)} .cc-tk-odds[data-cc-target='{other['id']}']").wait_for()
        assert page.evaluate("() => window.__taps") == 1
        assert tracker(page).locator(f".cc-tk-card.cc-tk-aimed[data-cc-id='{other['id']}']").count() == 1
        page.locator(f"{acting(page)} .cc-tk-odds .cc-tk-figures").wait_for()

        # one tap on Resolve: every die rolled, the attack applied as Python resolves those faces
        before = stored(page, system)["present"]
        page.evaluate("() => (window.__taps = 0)")
        resolve = tracker(page).locator(f"{acting(page)} .cc-tk-odds").get_by_role("button", name="Resolve")
        resolve.click()
        settle(page)
        assert page.evaluate("() => window.__taps") == 1
        after = stored(page, system)["present"]
        assert after != before
        assert after["last_target"][me] == other["id"]
        said = tracker(page).locator(".cc-tk-status").inner_text()
        assert re.search(rf"rolls .* against {re.escape(other['name'])}", said), said
        old = next(c for c in before["combatants"] if c["id"] == other["id"])
        new = next(c for c in after["combatants"] if c["id"] == other["id"])
        dealt = re.search(r"a hit, (\d+) damage", said)
        if dealt and int(dealt.group(1)):
            assert new["hp"] < old["hp"], (system, said, old, new)
        else:
            assert "a miss" in said or "no damage" in said or "0 damage" in said, said
            assert new["hp"] == old["hp"]
        # the turn stays while the view says an attack is next or it is not done (an action that can
        # change the fight is left); once done, the next turn follows in the same step: one Undo
        # takes both back
        view = engine.act(system, after, {"type": "view"})["view"]
        if current_id(page) == me:
            turn = view["actions"]
            assert turn is None or turn["next"] or any(r["allowed"] and r["cost"] for r in turn["actions"]), turn
        else:
            assert view["actions"] is not None and after["turn"] > before["turn"], (before["turn"], after["turn"])
        tracker(page).locator(".cc-tk-bar").get_by_role("button", name="Undo").click()
        settle(page)
        assert stored(page, system)["present"] == before
        assert not errors, errors
    finally:
        context.close()
