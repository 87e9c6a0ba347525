"""Setting up a fight in seconds, in the browser at phone size: stat blocks pasted into the
tracker's "Paste a stat block" box (fields highlighted and linked, notes named, an unreadable
paste a message that changes nothing), the texts' own creatures added by name, an Encounters
page's "Run in tracker" link (`#fight=`), and a pasted block filling a calculator's inputs."""

from __future__ import annotations

import json
from urllib.parse import urljoin

import pytest
from pages import FIRST_READY_MS, too_small, wait_until

PHONE = {"width": 390, "height": 844}
CARDS = "(n) => document.querySelectorAll('.cc-tk-card[data-cc-id]').length === n"
SIX = """Orcs (4): AC 6, HD 1, hp 7, 5, 4, 3; MELEE: axe (1d8); XP 10

Ogre: AC 5; HD 4+1; hp 25; MELEE: club (1d10); SZ L
Bugbear: AC 5, HD 3+1, #AT 1, D 2d4"""


@pytest.fixture
def phone(browser):
    """A fresh page at phone size and the page errors and Content-Security-Policy violations it
    meets (none are expected)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.expose_function("__ccViolation", lambda text: errors.append(f"CSP: {text}"))
    page.add_init_script(
        'document.addEventListener("securitypolicyviolation", (e) => '
        "window.__ccViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"
    )
    yield page, errors
    context.close()
    assert errors == []


def stored(page, system: str) -> dict:
    return json.loads(page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}"))["present"]


def open_add_form(page, taps) -> None:
    if not page.locator(".cc-tk-add").evaluate("(d) => d.open"):
        taps.click(page.locator(".cc-tk-add > summary"))


class Taps:
    """Counts what the reader does: each click or paste is one tap."""

    def __init__(self, page) -> None:
        self.page, self.n = page, 0

    def click(self, locator) -> None:
        locator.click()
        self.n += 1

    def paste(self, locator, text: str) -> None:
        locator.fill(text)  # a long press and Paste: counted as one
        self.n += 1


def test_six_combatants_from_pasted_stat_blocks_in_a_few_taps(phone, site) -> None:
    page, _ = phone
    page.goto(urljoin(site.base, "segments/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    taps = Taps(page)
    open_add_form(page, taps)
    box = page.get_by_label("Paste a stat block", exact=True)
    assert box.evaluate("(e) => e.tagName") == "TEXTAREA"
    taps.paste(box, SIX)
    add = page.get_by_role("button", name="Add all 6 to the fight")
    add.wait_for()
    assert too_small(page, ".cc-paste :is(button, select, textarea), .cc-builtin :is(button, input)") == []
    taps.click(add)
    wait_until(page, "(n) => document.querySelectorAll('.cc-tk-card[data-cc-id]').length === n", 6)
    state = stored(page, "segments")
    assert [c["name"] for c in state["combatants"]] == ["Orcs 1", "Orcs 2", "Orcs 3", "Orcs 4", "Ogre", "Bugbear"]
    assert [c["max"] for c in state["combatants"]] == [7, 5, 4, 3, 25, 16]  # Bugbear: 3d8+3 averaged
    assert all(c["side"] == "foe" for c in state["combatants"])
    assert taps.n <= 3  # the add form is open while the fight is empty: paste, then one tap
    # every recognised field is highlighted and linked to its rule; the rest is named as notes
    preview = page.locator(".cc-paste-preview")
    assert preview.locator("a.cc-paste-link mark[data-cc-field='armor-class']").count() == 3
    href = preview.locator("a.cc-paste-link").first.get_attribute("href")
    assert "/segments/" in href and "#armor-class" in href
    assert "“XP 10”" in preview.inner_text() and "“SZ L”" in preview.inner_text()


def test_an_unreadable_paste_is_a_message_next_to_the_box_and_changes_nothing(phone, site) -> None:
    page, _ = phone
    page.goto(urljoin(site.base, "countup/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    open_add_form(page, Taps(page))
    box = page.get_by_label("Paste a stat block", exact=True)
    box.fill("<img src=x onerror=alert(1)> a kind innkeeper")
    error = page.locator(".cc-paste-error")
    error.wait_for()
    assert "no field of a Countup stat block" in error.inner_text()
    assert box.get_attribute("aria-invalid") == "true"
    assert page.locator(".cc-paste-use").is_disabled()
    assert page.locator(".cc-paste img").count() == 0
    assert page.evaluate("() => localStorage.getItem('cc-tracker-countup')") is None
    # the text's own creatures: one tap each, found by name
    page.get_by_label("The text's own creatures and characters: find by name").fill("orc")
    page.get_by_role("button", name="Add Orc in scale mail").click()
    wait_until(page, "(n) => document.querySelectorAll('.cc-tk-card[data-cc-id]').length === n", 1)
    assert stored(page, "countup")["combatants"][0]["side"] == "foe"


def test_run_in_tracker_opens_the_encounter(phone, site) -> None:
    page, _ = phone
    page.goto(urljoin(site.base, "segments/encounters/"))
    run = page.get_by_role("link", name="Run Claws and arrows in the tracker")
    assert "segments/tracker/#fight=" in run.get_attribute("href")
    run.click()
    wait_until(page, "(n) => document.querySelectorAll('.cc-tk-card[data-cc-id]').length === n", 3)
    state = stored(page, "segments")
    assert [c["name"] for c in state["combatants"]][0] == "Clawed beast"
    assert state["combatants"][0]["max"] == 34  # 4+4 HD: the average of 4d8+16
    assert "#fight=" not in page.url  # a reload does not add them again
    page.get_by_role("button", name="Link to this fight").click()
    field = page.get_by_label("Link to this fight", exact=True)
    field.wait_for(state="visible")  # shown once the roster is packed
    link = field.input_value()
    assert "#fight=" in link
    page.get_by_role("button", name="Players' view").click()
    view = page.get_by_role("region", name="Players' view")
    assert "Clawed beast" in view.inner_text() and "round 0" in view.inner_text()
    assert "HP" not in view.inner_text()  # foes' hit points stay hidden


def test_a_pasted_block_fills_a_calculators_inputs_and_builtins_are_searchable(phone, site) -> None:
    page, _ = phone
    page.goto(urljoin(site.base, "countup/calculators/hit/"))
    page.wait_for_selector(".cc-calc[data-cc-state='done']")
    page.locator(".cc-presets > summary").click()
    page.get_by_label("Paste a stat block", exact=True).fill("Hobgoblin: AC 16, hp 9")
    page.get_by_role("button", name="Use these values").click()
    ac = page.locator('.cc-calc [data-input="ac"]')
    assert ac.input_value() == "16"
    page.get_by_label("Find a preset by name").fill("scale")
    target = page.locator(".cc-preset-role[data-role='target'] select")
    assert target.locator("option").all_inner_texts() == ["Choose a target", "Orc in scale mail"]
    target.select_option(label="Orc in scale mail")
    page.locator(".cc-preset-role[data-role='target']").get_by_role("button", name="Use").click()
    assert ac.input_value() == "14"
    assert page.locator(".cc-preset-role[data-role='target'] a.cc-preset-source").count() == 1
