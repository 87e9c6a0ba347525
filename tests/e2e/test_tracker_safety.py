"""The tracker never loses a fight without a word (issue 20, item 4), in the browser:

* storage full: the failed save stays on screen (in the turn bar) through later messages, with
  Export, until a save succeeds; nothing of the fight is lost after the storage frees up;
* two tabs: each sees the other's changes (the `storage` event); a tab that missed them is told
  before it overwrites anything, and chooses;
* a saved fight that cannot be read whole: what can be read loads, the page names what could not,
  the original text is kept aside, downloadable byte for byte, until discarded;
* the cap on combatants is the one the fight's initiative orders: a full fight rolls a round.

Storage full and a missed event are simulated by the test-only init script storage_knobs.js."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

from pages import FIRST_READY_MS

from calc.inputs import data as calc_data

KNOBS = str(Path(__file__).with_name("storage_knobs.js"))
PHONE = {"width": 390, "height": 844}
KEY = "cc-tracker-countup"


def new_page(context):
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    return page


def open_tracker(page, site, system: str = "countup") -> None:
    page.goto(urljoin(site.base, f"{system}/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")


def add(page, name: str, side: str = "pc", hp: int = 10) -> None:
    if not page.locator(".cc-tk-add[open]").count():
        page.locator(".cc-tk-add > summary").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Side", exact=True).select_option(side)
    page.locator(".cc-tk-form input[data-cc-health]").fill(str(hp))
    page.get_by_role("button", name="Add", exact=True).click()


def names(page) -> list[str]:
    return page.locator(".cc-tk-card .cc-tk-toggle").evaluate_all("(xs) => xs.map((x) => x.firstChild.textContent)")


def stored(page) -> dict | None:
    text = page.evaluate("(k) => localStorage.getItem(k)", KEY)
    return json.loads(text) if text else None


def stored_names(page) -> list[str]:
    return [c["name"] for c in stored(page)["present"]["combatants"]]


def test_a_failed_save_stays_on_screen_until_a_save_succeeds(browser, site, tmp_path):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(path=KNOBS)
    page = new_page(context)
    try:
        open_tracker(page, site)
        add(page, "Ann")
        page.locator(".cc-tk-card:has-text('Ann')").wait_for()
        page.evaluate("() => { window.ccStorageFull = true; }")
        add(page, "Orc", "foe", 15)
        alert = page.locator(".cc-tk-bar .cc-tk-alert[data-cc-alert=save]")
        alert.wait_for()
        assert "Not saved in this browser" in alert.inner_text() and "full" in alert.inner_text()
        page.locator(".cc-tk-status:has-text('Orc joins the fight')").wait_for()  # said, and the alert stays
        assert alert.is_visible()
        page.get_by_label("Amount of damage or healing for Orc").fill("4")
        page.get_by_role("button", name="Damage Orc").click()
        page.locator(".cc-tk-status:has-text('Orc takes 4')").wait_for()
        assert alert.is_visible()
        assert stored_names(page) == ["Ann"]  # the failed writes changed nothing stored
        with page.expect_download() as got:
            alert.get_by_role("button", name="Export JSON").click()
        exported = json.loads(Path(got.value.path()).read_text())
        assert [(c["name"], c["hp"]) for c in exported["combatants"]] == [("Ann", 10), ("Orc", 11)]
        assert alert.is_visible()  # exported is not saved: the alert stays
        page.evaluate("() => { window.ccStorageFull = false; }")
        alert.get_by_role("button", name="Try again").click()
        alert.wait_for(state="detached")
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        assert names(page) == ["Ann", "Orc"]
        assert page.locator(".cc-tk-card:has-text('Orc') .cc-tk-left").inner_text() == "11"
    finally:
        context.close()


def test_two_tabs_see_each_other_and_a_deaf_tab_overwrites_nothing(browser, site):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(path=KNOBS)
    a, b = new_page(context), new_page(context)
    try:
        open_tracker(a, site)
        open_tracker(b, site)
        add(a, "Ann")
        b.locator(".cc-tk-card:has-text('Ann')").wait_for()  # B saw A's change
        add(b, "Bob")
        a.locator(".cc-tk-card:has-text('Bob')").wait_for()  # and A saw B's
        assert "another tab" in a.locator(".cc-tk-status").inner_text()
        a.get_by_role("button", name="New fight, same combatants").click()
        a.locator(".cc-tk-status:has-text('A new fight')").wait_for()
        assert stored_names(a) == ["Ann", "Bob"]  # A's next change keeps B's combatant
        b.locator(".cc-tk-card:has-text('Bob')").wait_for()

        # A stops hearing B (a frozen tab); B adds Cy; A's own change must not overwrite it.
        a.evaluate("() => { window.ccDeaf = true; }")
        add(b, "Cy")
        b.locator(".cc-tk-card:has-text('Cy')").wait_for()
        add(a, "Dan")
        conflict = a.locator(".cc-tk-bar .cc-tk-alert[data-cc-alert=conflict]")
        conflict.wait_for()
        assert stored_names(a) == ["Ann", "Bob", "Cy"]  # B's change is still what is stored
        assert names(a) == ["Ann", "Bob", "Dan"]  # A's is on its page, not lost
        conflict.get_by_role("button", name="Load the other tab's").click()
        assert names(a) == ["Ann", "Bob", "Cy"]
        a.get_by_role("button", name="Undo").click()  # A's own fight is one Undo away
        a.locator(".cc-tk-card:has-text('Dan')").wait_for()
        assert names(a) == ["Ann", "Bob", "Dan"]
        assert stored_names(a) == ["Ann", "Bob", "Dan"]
    finally:
        context.close()


def bad_fight() -> dict:
    """A saved countup fight whose Orc has a die the data does not declare ("d12")."""
    state = {
        "format": "cc-tracker",
        "version": 1,
        "system": "countup",
        "round": 1,
        "turn": 1,
        "order": [{"id": "c1", "when": "count 3", "why": []}, {"id": "c2", "when": "count 5", "why": []}],
        "notes": [],
        "rolls": {"init:c1": 3, "init:c2": 5},
        "combatants": [
            {
                "id": "c1",
                "name": "Ann",
                "side": "pc",
                "values": {"die": "d10", "modifier": 1, "ac": 15},
                "max": 20,
                "damage": 3,
                "tags": [],
            },
            {
                "id": "c2",
                "name": "Orc",
                "side": "foe",
                "values": {"die": "d12", "modifier": 0, "ac": 13},
                "max": 15,
                "damage": 6,
                "tags": ["Prone"],
            },
        ],
        "nextId": 3,
        "options": {},
    }
    return {"past": [], "present": state, "future": []}


def test_an_unreadable_saved_fight_is_kept_aside_and_the_rest_loads(browser, site):
    context = browser.new_context(viewport=PHONE)
    page = new_page(context)
    original = json.dumps(bad_fight())
    try:
        open_tracker(page, site)
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, original])
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        # What can be read loads (Ann, her damage, the round); the page names what could not (Orc).
        alert = page.locator(".cc-tk-bar .cc-tk-alert").first
        alert.wait_for()
        assert names(page) == ["Ann"]
        assert page.locator(".cc-tk-card:has-text('Ann') .cc-tk-left").inner_text() == "17"
        assert page.locator(".cc-tracker").get_attribute("data-cc-round") == "1"
        text = alert.inner_text()
        assert "could not be read whole" in text and "Orc" in text and "d12" in text, text
        # The original is kept aside as it was, and a change saves the rest without touching it.
        aside = page.evaluate("(k) => Object.keys(localStorage).filter((x) => x.startsWith(k + ':unread:'))", KEY)
        assert len(aside) == 1
        assert page.evaluate("(k) => localStorage.getItem(k)", aside[0]) == original
        page.get_by_label("Amount of damage or healing for Ann").fill("2")
        page.get_by_role("button", name="Damage Ann").click()
        page.locator(".cc-tk-card:has-text('Ann') .cc-tk-left:text-is('15')").wait_for()
        assert stored(page)["present"]["combatants"][0]["hp"] == 15
        assert page.evaluate("(k) => localStorage.getItem(k)", aside[0]) == original
        assert alert.is_visible()
        # Still offered after a reload, downloadable byte for byte, until discarded.
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        alert = page.locator(".cc-tk-bar .cc-tk-alert").first
        with page.expect_download() as got:
            alert.get_by_role("button", name="Download it as it was").click()
        assert Path(got.value.path()).read_text() == original
        assert page.evaluate("(k) => localStorage.getItem(k)", aside[0]) is None
        assert page.locator(".cc-tk-bar .cc-tk-alert").count() == 0
    finally:
        context.close()


def test_a_text_that_is_no_fight_is_kept_aside_and_not_overwritten_when_storage_is_full(browser, site):
    """Not JSON at all, and no room to copy it aside: nothing is saved over it until the reader
    downloads or discards it."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(path=KNOBS)
    page = new_page(context)
    try:
        open_tracker(page, site)
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)", [KEY, '{"past": [], "present": {"format": "cc-tracker", "ver']
        )
        page.evaluate("() => sessionStorage.setItem('full', '1')")
        page.add_init_script("if (sessionStorage.getItem('full')) window.ccStorageFull = true;")
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        alert = page.locator(".cc-tk-bar .cc-tk-alert[data-cc-alert=aside]")
        assert "could not be copied aside" in alert.inner_text()
        page.evaluate("() => { window.ccStorageFull = false; }")
        add(page, "Ann")
        page.locator(".cc-tk-card:has-text('Ann')").wait_for()
        assert page.evaluate("(k) => localStorage.getItem(k)", KEY).endswith('"ver')  # not overwritten
        with page.expect_download() as got:
            alert.get_by_role("button", name="Download it as it was").click()
        assert Path(got.value.path()).read_text().endswith('"ver')
        assert stored_names(page) == ["Ann"]  # now the fight on the page is saved
    finally:
        context.close()


def test_the_cap_is_the_one_initiative_orders_and_a_full_fight_rolls_a_round(browser, site):
    """The tracker's cap (the data's tracker.max_combatants, 40) is what the fight's initiative
    orders: a full fight rolls a round (with 21 the old tracker could start none), one more is
    refused."""
    system = "countup"
    cap = calc_data.load()["systems"][system]["tracker"]["max_combatants"]
    assert cap == 40
    people = [
        {
            "id": f"c{i}",
            "name": f"Foe {i}",
            "side": "foe",
            "values": {"die": "d10", "modifier": 0, "ac": 10},
            "max": 5,
            "damage": 0,
            "tags": [],
        }
        for i in range(1, cap + 1)
    ]
    state = {
        **bad_fight()["present"],
        "round": 0,
        "turn": 0,
        "order": [],
        "rolls": {},
        "combatants": people,
        "nextId": cap + 1,
    }
    context = browser.new_context(viewport=PHONE)
    page = new_page(context)
    try:
        open_tracker(page, site, system)
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps({"past": [], "present": state, "future": []})]
        )
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        page.locator(".cc-tk-card").nth(cap - 1).wait_for()  # the engine has read the saved fight
        assert page.locator(".cc-tk-card").count() == cap
        assert page.locator(".cc-tk-bar .cc-tk-alert").count() == 0
        add(page, "One too many")
        page.locator(".cc-tk-form .cc-tk-error:not(:empty)").wait_for()
        assert f"at most {cap} combatants" in page.locator(".cc-tk-form .cc-tk-error").inner_text()
        page.locator(".cc-tk-roundbtn").click()
        page.get_by_role("button", name="Roll the empty ones here").click()
        page.get_by_role("button", name="Start round 1").click()
        page.locator(".cc-tracker[data-cc-round='1'], .cc-tk-problem").first.wait_for()
        assert page.locator(".cc-tracker").get_attribute("data-cc-round") == "1", page.locator(
            ".cc-tk-status"
        ).inner_text()
        assert page.locator(".cc-tk-order > li").count() == cap
    finally:
        context.close()
