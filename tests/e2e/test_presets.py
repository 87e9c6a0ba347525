"""One fighter and one target, filled in once (issue 11 item 6) and presets (issue 13 item 3): the
inputs declared with a `role` carry from one calculator of a system to its others (never across
systems), a link's values win over the stored ones, named presets are saved, picked in another
calculator, exported and imported; a bad import says why next to the control and changes
nothing; names are text, never markup; the picker works by keyboard and at phone size."""

from __future__ import annotations

import json
import os
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
from pages import answers, instant_go, settle, too_small, wait_until

PHONE = {"width": 390, "height": 844}
HOSTILE = '<img src=x onerror="alert(1)">Bruiser & <b>co</b>'
BOUND = ".cc-calc:not([data-cc-old])[data-cc-bound]"


def url_of(site, system: str, calculator: str, query: str = "") -> str:
    return urljoin(site.base, site.calculator_pages()[(system, calculator)]["url"]) + query


def declaration(site, system: str, calculator: str) -> dict:
    return site.calculator_pages()[(system, calculator)]["declaration"]


def role_inputs(decl: dict) -> dict[str, dict]:
    return {d["name"]: d for d in decl["inputs"] if d.get("role")}


def value_of(page, name: str) -> str:
    return page.eval_on_selector(
        f'{BOUND} [data-input="{name}"]', "(c) => c.type === 'checkbox' ? String(c.checked) : c.value"
    )


def another_value(decl: dict, current: str) -> str | None:
    """A value the input takes other than `current` (None for lists and dice: left alone)."""
    if decl["type"] == "integer":
        n = int(current)
        return str(n + 1 if n + 1 <= decl["max"] else n - 1)
    if decl["type"] == "boolean":
        return "false" if current == "true" else "true"
    return None


def fits(decl: dict, text: str) -> bool:
    """A changed integer or boolean fits an input of the same name there (its own range)."""
    if decl["type"] == "integer":
        return decl["min"] <= int(text) <= decl["max"]
    return decl["type"] == "boolean"


def set_value(page, name: str, text: str) -> None:
    control = page.locator(f'{BOUND} [data-input="{name}"]')
    if control.get_attribute("type") == "checkbox":
        control.set_checked(text == "true")
    else:
        control.fill(text)


def open_picker(page):
    picker = page.locator(f"{BOUND} .cc-presets")
    if not picker.evaluate("(d) => d.open"):
        picker.locator("summary").click()
    return picker


def storage(page) -> dict:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith('cc-')))")


def edit_shown(page, name: str, text: str) -> None:
    seen = answers(page)
    set_value(page, name, text)
    settle(page, after=seen)


@pytest.mark.parametrize("system", ["countup", "segments", "action-points", "phases", "active-defense"])
def test_fighter_filled_on_hit_opens_on_the_other_calculators(watched, site, system):
    """Every attacker and target input shown on hit gets another value; each other calculator of
    the system that has an input of that name and role opens with it, and says so."""
    page, record = watched
    page.goto(url_of(site, system, "hit"))
    settle(page, "hit")
    hit = role_inputs(declaration(site, system, "hit"))
    given = {}
    for name, decl in hit.items():
        if not page.locator(f'{BOUND} [data-input="{name}"]').is_visible():
            continue  # its `when` does not hold
        text = another_value(decl, value_of(page, name))
        if text is not None:
            set_value(page, name, text)
            given[name] = text
    assert given, f"{system} hit has no attacker or target input to fill"
    others = [c for (s, c) in site.calculator_pages() if s == system and c not in ("hit", "initiative")]
    shared_somewhere = False
    for calculator in others:
        instant_go(page, url_of(site, system, calculator))
        page.wait_for_selector(f"{BOUND}[data-cc-calculator={calculator}]")
        theirs = role_inputs(declaration(site, system, calculator))
        shared = {n: t for n, t in given.items() if n in theirs and fits(theirs[n], t)}
        shown = {n: value_of(page, n) for n in shared}
        assert shown == shared, (calculator, shown, shared)
        if shared:
            shared_somewhere = True
            note = page.locator(f"{BOUND} .cc-carried")
            assert note.is_visible() and f"({declaration(site, system, 'hit')['title']})" in note.inner_text()
    assert shared_somewhere, f"no calculator of {system} shares an input with hit"
    # never across systems
    other_system = "segments" if system != "segments" else "countup"
    instant_go(page, url_of(site, other_system, "hit"))
    page.wait_for_selector(f"{BOUND}[data-cc-calculator=hit]")
    assert page.locator(f"{BOUND} .cc-carried").is_hidden()
    assert record["errors"] == [] and record["external"] == []


def test_hit_to_damage_to_round_and_the_answer_uses_them(watched, site):
    """countup: the hit's to-hit bonus and AC reach the round calculator, which computes with them
    (its link then carries them), and Hurt reaches damage too; "Use the defaults" forgets them."""
    page, record = watched
    page.goto(url_of(site, "countup", "hit"))
    settle(page, "hit")
    edit_shown(page, "to_hit", "8")
    edit_shown(page, "ac", "17")
    set_value(page, "hurt", "true")
    instant_go(page, url_of(site, "countup", "damage"))
    settle(page, "damage")
    assert value_of(page, "hurt") == "true"
    instant_go(page, url_of(site, "countup", "round"))
    shown = settle(page, "round")
    assert (value_of(page, "to_hit"), value_of(page, "ac"), value_of(page, "hurt")) == ("8", "17", "true")
    assert shown["state"] == "done"
    query = parse_qs(urlparse(page.url).query)
    assert query["to_hit"] == ["8"] and query["ac"] == ["17"] and query["hurt"] == ["true"]
    seen = answers(page)
    page.locator(f"{BOUND} .cc-carried-reset").click()
    settle(page, "round", after=seen)
    assert value_of(page, "to_hit") == "5" and page.locator(f"{BOUND} .cc-carried").is_hidden()
    instant_go(page, url_of(site, "countup", "hit"))
    settle(page, "hit")
    assert value_of(page, "to_hit") == "5"  # forgotten for the system
    assert record["errors"] == [] and record["external"] == []


def test_a_link_value_wins_over_the_stored_one(watched, site):
    page, record = watched
    page.goto(url_of(site, "countup", "hit"))
    settle(page, "hit")
    edit_shown(page, "to_hit", "8")
    edit_shown(page, "ac", "17")
    page.goto(url_of(site, "countup", "round", "?to_hit=3"))
    settle(page, "round")
    assert value_of(page, "to_hit") == "3"  # the link's
    assert value_of(page, "ac") == "17"  # the link did not say: the reader's
    query = parse_qs(urlparse(page.url).query)
    assert query["to_hit"] == ["3"] and query["ac"] == ["17"]
    assert record["errors"] == []


def test_save_reload_and_pick_in_another_calculator(watched, site):
    page, record = watched
    page.goto(url_of(site, "countup", "hit"))
    settle(page, "hit")
    edit_shown(page, "to_hit", "9")
    picker = open_picker(page)
    attacker = picker.locator(".cc-preset-role[data-role=attacker]")
    attacker.locator(".cc-preset-name").fill(HOSTILE)
    attacker.locator(".cc-preset-save").click()
    assert "Saved as" in attacker.locator(".cc-preset-status").inner_text()
    page.reload()
    settle(page, "hit")
    picker = open_picker(page)
    options = picker.locator(".cc-preset-role[data-role=attacker] option").all_inner_texts()
    assert HOSTILE in options  # the name as typed, as text
    assert page.locator(".cc-presets img, .cc-presets b").count() == 0
    # back to the defaults, then pick the preset on the round calculator
    page.locator(f"{BOUND} .cc-reset").click()
    instant_go(page, url_of(site, "countup", "round"))
    settle(page, "round")
    assert value_of(page, "to_hit") == "5"
    attacker = open_picker(page).locator(".cc-preset-role[data-role=attacker]")
    attacker.locator(".cc-preset-pick").select_option(label=HOSTILE)
    seen = answers(page)
    attacker.locator(".cc-preset-use").click()
    settle(page, "round", after=seen)
    assert value_of(page, "to_hit") == "9"
    assert "Using" in attacker.locator(".cc-preset-status").inner_text()
    assert "Bruiser" not in page.url and parse_qs(urlparse(page.url).query)["to_hit"] == ["9"]
    assert record["dialogs"] == [] and record["errors"] == [] and record["external"] == []


def test_rename_delete_and_undo(watched, site):
    page, record = watched
    page.goto(url_of(site, "countup", "round"))
    settle(page, "round")
    target = open_picker(page).locator(".cc-preset-role[data-role=target]")
    target.locator(".cc-preset-name").fill("Ogre")
    target.locator(".cc-preset-save").click()
    target.locator(".cc-preset-name").fill("Cave ogre")
    target.locator(".cc-preset-rename").click()
    saved = ".cc-preset-pick option:not([data-cc-builtin])"  # the text's own creatures are listed too
    assert target.locator(saved).all_inner_texts()[1:] == ["Cave ogre"]
    target.locator(".cc-preset-name").fill("")
    target.locator(".cc-preset-rename").click()
    error = target.locator(".cc-error")
    assert error.is_visible() and "name" in error.inner_text()
    target.locator(".cc-preset-delete").click()
    assert target.locator(saved).all_inner_texts() == ["Choose a target"]
    assert target.locator(".cc-preset-pick option[data-cc-builtin]").all_inner_texts() == ["Orc in scale mail"]
    target.locator(".cc-preset-undo").click()
    assert target.locator(saved).all_inner_texts()[1:] == ["Cave ogre"]
    assert record["errors"] == []


def test_export_then_import_in_a_fresh_browser(browser, watched, site, tmp_path):
    page, record = watched
    page.goto(url_of(site, "countup", "hit"))
    settle(page, "hit")
    edit_shown(page, "to_hit", "7")
    picker = open_picker(page)
    for role, name in (("attacker", HOSTILE), ("target", "Ogre")):
        box = picker.locator(f".cc-preset-role[data-role={role}]")
        box.locator(".cc-preset-name").fill(name)
        box.locator(".cc-preset-save").click()
    with page.expect_download() as download:
        picker.locator(".cc-preset-export").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == "combat-codex-countup-presets.json"
    data = json.loads(path.read_text())
    assert data["system"] == "countup" and data["presets"]["attacker"][0]["name"] == HOSTILE

    context = browser.new_context()
    try:
        fresh = context.new_page()
        fresh.goto(url_of(site, "countup", "round"))
        settle(fresh, "round")
        picker = open_picker(fresh)
        picker.locator(".cc-preset-file").set_input_files(str(path))
        status = picker.locator(".cc-preset-files .cc-preset-status")
        done = "(sel) => document.querySelector(sel)?.textContent.includes('Imported')"
        wait_until(fresh, done, f"{BOUND} .cc-preset-files .cc-preset-status")
        assert status.inner_text() == "Imported 2 new presets."
        attacker = picker.locator(".cc-preset-role[data-role=attacker]")
        attacker.locator(".cc-preset-pick").select_option(label=HOSTILE)
        seen = answers(fresh)
        attacker.locator(".cc-preset-use").click()
        settle(fresh, "round", after=seen)
        assert value_of(fresh, "to_hit") == "7"
        # the same file on another system's page is refused
        fresh.goto(url_of(site, "segments", "hit"))
        settle(fresh, "hit")
        picker = open_picker(fresh)
        before = storage(fresh)
        picker.locator(".cc-preset-file").set_input_files(str(path))
        error = picker.locator(".cc-preset-files .cc-error")
        error.wait_for(state="visible")
        assert "“countup”, not “segments”" in error.inner_text()
        assert storage(fresh) == before
    finally:
        context.close()
    assert record["errors"] == [] and record["external"] == []


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{not json", "not JSON"),
        (
            json.dumps(
                {
                    "format": "combat-codex-presets",
                    "version": 1,
                    "system": "countup",
                    "presets": {"attacker": [{"name": "", "values": {}}]},
                }
            ),
            "presets.attacker[1].name",
        ),
    ],
    ids=["not-json", "blank-name"],
)
def test_a_bad_import_says_why_and_changes_nothing(watched, site, tmp_path, content, why):
    page, record = watched
    page.goto(url_of(site, "countup", "hit"))
    settle(page, "hit")
    picker = open_picker(page)
    box = picker.locator(".cc-preset-role[data-role=target]")
    box.locator(".cc-preset-name").fill("Orc")
    box.locator(".cc-preset-save").click()
    before = storage(page)
    options = box.locator(".cc-preset-pick option").all_inner_texts()
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    picker.locator(".cc-preset-file").set_input_files(str(bad))
    error = picker.locator(".cc-preset-files .cc-error")
    error.wait_for(state="visible")
    assert "Nothing imported from “bad.json”" in error.inner_text() and why in error.inner_text()
    assert picker.locator(".cc-preset-import").get_attribute("aria-describedby") == error.get_attribute("id")
    assert storage(page) == before
    assert box.locator(".cc-preset-pick option").all_inner_texts() == options
    assert record["errors"] == []


def test_picker_by_keyboard_and_at_phone_size(browser, site):
    """Open, name and save with the keyboard only; every control of the open picker is at least
    24×24 px and inside a 390 px wide screen, in light and dark."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto(url_of(site, "countup", "round"))
            settle(page, "round")
            page.locator(f"{BOUND} .cc-presets summary").focus()
            page.keyboard.press("Enter")
            assert page.locator(f"{BOUND} .cc-presets").evaluate("(d) => d.open")
            name = page.locator(f"{BOUND} .cc-preset-role[data-role=attacker] .cc-preset-name")
            name.focus()
            page.keyboard.type("Keyboard knight")
            page.keyboard.press("Enter")
            options = page.locator(f"{BOUND} .cc-preset-role[data-role=attacker] option").all_inner_texts()
            assert "Keyboard knight" in options
            small = too_small(
                page,
                f"{BOUND} .cc-presets :is(button, select, input:not([type=file]), summary), {BOUND} .cc-carried button",
            )
            assert small == [], (scheme, small)
            if os.environ.get("CC_SCREENSHOTS"):  # a folder to look at the picker in
                page.locator(f"{BOUND} .cc-presets").scroll_into_view_if_needed()
                page.screenshot(path=os.path.join(os.environ["CC_SCREENSHOTS"], f"presets-phone-{scheme}.png"))
        finally:
            context.close()
