"""The encounter tracker of every system, in the browser: a three-combatant, three-round fight with
the table's dice typed in (so the order is known: the page must show exactly what CPython's
`calc.turns.tracker` answers for the same combatants and rolls), whose turn it is, damage, conditions
and the round count; the same fight after a reload and offline (the service worker ready, the
context offline, a reload, and a fourth round computed by the cached Python); a bad import that
changes nothing; undo by key and button; and user text shown as text."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
from pages import FIRST_READY_MS

from calc import fight
from calc.turns import tracker as turns

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
PEOPLE = [("Ann", "pc", 20), ("Orc", "foe", 15), ("Bob", "pc", 12)]
PHONE = {"width": 390, "height": 844}


def settle(page) -> None:
    """Wait for the page's answer to what was just done (the engine answers each action)."""
    page.locator(".cc-tracker:not([data-cc-busy])").wait_for(state="attached")


def tracker(page):
    return page.locator(".cc-tracker")


def stored(page, system: str) -> dict:
    return json.loads(page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}"))


def add_people(page) -> None:
    for name, side, hp in PEOPLE:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Side", exact=True).select_option(side)
        page.locator(".cc-tk-form label:has-text('(full)') + input").fill(str(hp))
        if not page.locator(".cc-tk-add[open]").count():
            page.locator(".cc-tk-add > summary").click()
        page.get_by_role("button", name="Add", exact=True).click()
        settle(page)
        page.locator(f".cc-tk-card[data-cc-id] h3:has-text('{name}')").wait_for()


def typed(dice: str, i: int, round_no: int) -> int:
    """A fixed roll for the i-th die of a round: known in advance, varied across dice and rounds."""
    count, sides = (int(x or 1) for x in dice.lower().split("d"))
    return count + (i * 3 + round_no * 5) % (count * sides - count + 1)


def play_round(page, system: str, round_no: int) -> None:
    """Roll initiative for `round_no` with typed dice (and typed re-rolls when a tie asks for them);
    check the order the page shows against CPython's calc.turns.tracker for the same rolls."""
    root = tracker(page)
    started = f".cc-tracker[data-cc-round='{round_no}']"
    root.locator(".cc-tk-roundbtn").click()
    page.locator(f"{started}, .cc-tk-diceform").first.wait_for()
    asked = 0
    while not page.locator(started).count():
        form = root.locator(".cc-tk-diceform")
        inputs = form.locator("input[data-cc-key]")
        n = inputs.count()
        assert n > 0
        for i in range(n):
            field = inputs.nth(i)
            dice = field.evaluate("(e) => e.labels[0].querySelector('.cc-tk-dicetext').textContent")
            if not field.input_value():
                field.fill(str(typed(dice, i + asked, round_no)))
        asked += n
        form.evaluate("(f) => f.setAttribute('data-test-old', '')")
        form.get_by_role("button", name=f"Start round {round_no}").click()
        page.locator(f"{started}, .cc-tk-diceform:not([data-test-old])").first.wait_for()
    saved = stored(page, system)
    state = saved["present"]
    # CPython replays the step that started the round from the state before it: the same order.
    before = saved["past"][-1]
    step = {"type": "start_round", "rolls": state["rolls"]} if before.get("pending") else {"type": "next_round"}
    replayed = fight.act(system, before, step)["state"]
    assert replayed["round"] == round_no and replayed["order"] == state["order"]
    shown = root.locator(".cc-tk-order > li").evaluate_all("(xs) => xs.map((x) => x.dataset.ccId)")
    assert shown == [t["id"] for t in state["order"]], (system, round_no, state["rolls"])
    whens = root.locator(".cc-tk-order .cc-tk-when").all_inner_texts()
    assert whens == [t["when"] for t in state["order"]]
    if system != "phases":  # there only those who declare acting in a phase roll for it
        people = [{"id": c["id"], "name": c["name"], "side": c["side"], **c["values"]} for c in state["combatants"]]
        want = turns.turn_order(system, people, state["rolls"], round_no)
        assert not want["needs"] and shown == [t["id"] for t in want["turns"]]


def phone_page(browser):
    """A fresh context at phone size and its page, waiting as long as a first Python start."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    return context, page


def open_tracker(page, site, system: str) -> None:
    page.goto(urljoin(site.base, f"{system}/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")


def open_card(page, name: str) -> None:
    """Open a combatant's card (collapsed on a phone: its conditions form, links, Edit, Remove)."""
    toggle = tracker(page).locator(f".cc-tk-card:has(h3:has-text('{name}')) .cc-tk-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def current_id(page) -> str:
    return tracker(page).get_attribute("data-cc-turn")


def bar_text(page) -> str:
    return page.locator(".cc-tk-now").inner_text()


@pytest.mark.parametrize("system", SYSTEMS)
def test_three_round_fight_survives_reload_and_offline(browser, site, system):
    context, page = phone_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_tracker(page, site, system)
        add_people(page)
        ids = {c["name"]: c["id"] for c in stored(page, system)["present"]["combatants"]}
        orc = ids["Orc"]
        dealt = 0
        for round_no in (1, 2, 3):
            play_round(page, system, round_no)
            state = stored(page, system)["present"]
            order = [t["id"] for t in state["order"]]
            for i, who in enumerate(order):
                assert current_id(page) == who
                name = next(n for n, v in ids.items() if v == who)
                assert f"Round {round_no}" in bar_text(page) and name in bar_text(page)
                assert f"({i + 1} of {len(order)})" in bar_text(page)
                if who != orc and i < 3:  # someone hits the orc for 2
                    tracker(page).get_by_label("Amount of damage or healing for Orc").fill("2")
                    tracker(page).get_by_role("button", name="Damage Orc").click()
                    settle(page)
                    dealt += 2
                page.locator("h1").click()  # keys act outside text fields
                page.keyboard.press("n")
                settle(page)
            assert current_id(page) == ""
            assert "round over" in bar_text(page)
        card = tracker(page).locator(f".cc-tk-card[data-cc-id='{orc}']")
        assert card.locator(".cc-tk-left").inner_text() == str(15 - dealt)
        open_card(page, "Orc")
        tracker(page).get_by_label("Condition for Orc (e.g. Hurt)").fill("Hurt")
        tracker(page).get_by_role("button", name="Add condition to Orc").click()
        settle(page)
        assert card.locator(".cc-tk-tags").inner_text().startswith("Hurt")
        page.locator("h1").click()
        page.keyboard.press("p")  # back to the last turn of round 3
        settle(page)
        last = stored(page, system)["present"]
        assert last["round"] == 3 and current_id(page) == last["order"][-1]["id"]

        # The hit calculator link carries values (defenses, hit points left), never names.
        href = card.locator("a.cc-tk-link").first.get_attribute("href")
        query = parse_qs(urlparse(href).query)
        assert "Orc" not in href and query, href

        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        assert stored(page, system)["present"] == last
        assert tracker(page).get_attribute("data-cc-round") == "3"
        assert current_id(page) == last["order"][-1]["id"]
        assert tracker(page).locator(f".cc-tk-card[data-cc-id='{orc}'] .cc-tk-left").inner_text() == str(15 - dealt)

        # Offline: the service worker registered when Python came up and precached the site.
        page.wait_for_selector("html[data-cc-offline=ready]", state="attached")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        assert stored(page, system)["present"] == last
        assert "Hurt" in tracker(page).locator(f".cc-tk-card[data-cc-id='{orc}'] .cc-tk-tags").inner_text()
        page.locator("h1").click()
        page.keyboard.press("n")  # round 3 over
        settle(page)
        play_round(page, system, 4)  # Python from the service worker's cache
        assert not errors, errors
    finally:
        context.set_offline(False)
        context.close()


def test_bad_import_changes_nothing_and_undo_restores(browser, site, tmp_path):
    system = "countup"
    context, page = phone_page(browser)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        open_tracker(page, site, system)
        add_people(page)
        before = page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}")
        status = page.locator(".cc-tk-status")
        for name, text, says in [  # `says`: what this file's refusal names (the last one's is still shown)
            ("broken.json", "{not json", "Not imported"),
            ("other.json", json.dumps({"format": "cc-tracker", "version": 1, "system": "phases"}), "phases"),
            ("bad-side.json", before.replace('"side":"foe"', '"side":"dragon"'), "must be pc or foe"),
        ]:
            if name == "bad-side.json":  # a stored history is not a tracker file: take its present
                data = json.loads(text)["present"]
                text = json.dumps(data)
            (tmp_path / name).write_text(text)
            page.locator(".cc-tk-file").set_input_files(str(tmp_path / name))
            page.locator(f".cc-tk-status.cc-tk-problem:has-text('Not imported'):has-text('{says}')").wait_for()
            assert "Nothing changed" in status.inner_text()
            assert page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}") == before
        assert "must be pc or foe" in status.inner_text()

        # A good file (user text with markup stays text) replaces the fight; Undo brings it back.
        good = json.loads(before)["present"]
        good["combatants"][0]["name"] = "<img src=x onerror=alert(1)>"
        (tmp_path / "good.json").write_text(json.dumps(good))
        page.locator(".cc-tk-file").set_input_files(str(tmp_path / "good.json"))
        page.locator(".cc-tk-status:has-text('Imported good.json')").wait_for()  # not the "Not imported" before
        assert tracker(page).locator("img").count() == 0
        assert "<img src=x onerror=alert(1)>" in tracker(page).locator(".cc-tk-card h3").first.inner_text()
        page.get_by_role("button", name="Undo").click()
        settle(page)
        assert stored(page, system)["present"] == json.loads(before)["present"]

        # Damage, then U undoes it and Y redoes it; Ctrl+Z undoes too.
        tracker(page).get_by_label("Amount of damage or healing for Orc").fill("5")
        tracker(page).get_by_role("button", name="Damage Orc").click()
        settle(page)
        left = tracker(page).locator(".cc-tk-card:has(h3:has-text('Orc')) .cc-tk-left")
        assert left.inner_text() == "10"
        page.locator("h1").click()
        page.keyboard.press("u")
        settle(page)
        assert left.inner_text() == "15"
        page.keyboard.press("y")
        settle(page)
        assert left.inner_text() == "10"
        page.keyboard.press("Control+z")
        settle(page)
        assert left.inner_text() == "15"
        page.reload()  # the undo history survives a reload
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        page.locator("h1").click()
        page.keyboard.press("y")
        settle(page)
        assert tracker(page).locator(".cc-tk-card:has(h3:has-text('Orc')) .cc-tk-left").inner_text() == "10"
        assert not dialogs
    finally:
        context.close()


def test_a_ruling_chosen_in_the_tracker_reaches_the_engine(browser, site, tmp_path):
    """active-defense's initiative-ability ruling (Dexterity modifier or Agility score added to the
    d20), chosen in the tracker's Rulings block, changes who goes first exactly as CPython's
    calc.turns.tracker answers with that option; it is stored with the fight, and a file with a ruling
    value the data does not declare is refused without changing anything."""
    system = "active-defense"
    people = [
        ("Ann", "pc", {"Dexterity modifier": 6, "Agility score": 8}),
        ("Orc", "foe", {"Dexterity modifier": 1, "Agility score": 14}),
    ]
    context, page = phone_page(browser)
    try:
        open_tracker(page, site, system)
        for name, side, values in people:
            page.get_by_label("Name", exact=True).fill(name)
            page.get_by_label("Side", exact=True).select_option(side)
            for label, value in values.items():
                page.locator(".cc-tk-form").get_by_label(label, exact=True).fill(str(value))
            page.get_by_role("button", name="Add", exact=True).click()
            settle(page)
            page.locator(f".cc-tk-card[data-cc-id] h3:has-text('{name}')").wait_for()
        rulings = tracker(page).locator(".cc-tk-rulings")
        rulings.locator("summary").click()
        rulings.get_by_label("Number added to the d20").select_option("agility")
        settle(page)
        state = stored(page, system)["present"]
        assert state["options"] == {"initiative_ability": "agility"}

        root = tracker(page)
        root.locator(".cc-tk-roundbtn").click()
        form = root.locator(".cc-tk-diceform")
        form.locator("input[data-cc-key]").first.wait_for()
        for i in range(form.locator("input[data-cc-key]").count()):
            form.locator("input[data-cc-key]").nth(i).fill("10")
        form.get_by_role("button", name="Start round 1").click()
        page.locator(".cc-tracker[data-cc-round='1'], .cc-tk-problem").first.wait_for()
        assert root.get_attribute("data-cc-round") == "1", page.locator(".cc-tk-status").inner_text()
        state = stored(page, system)["present"]
        engine = [{"id": c["id"], "name": c["name"], "side": c["side"], **c["values"]} for c in state["combatants"]]
        ruled = [t["id"] for t in turns.turn_order(system, engine, state["rolls"], 1, state["options"])["turns"]]
        default = [t["id"] for t in turns.turn_order(system, engine, state["rolls"], 1)["turns"]]
        assert ruled != default  # the ruling matters for these combatants
        shown = root.locator(".cc-tk-order > li").evaluate_all("(xs) => xs.map((x) => x.dataset.ccId)")
        assert shown == ruled

        before = page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}")
        bad = {**state, "options": {"initiative_ability": "luck"}}
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        page.locator(".cc-tk-file").set_input_files(str(tmp_path / "bad.json"))
        page.locator(".cc-tk-status.cc-tk-problem:has-text('Not imported')").wait_for()
        assert "initiative_ability" in page.locator(".cc-tk-status").inner_text()
        assert page.evaluate("(k) => localStorage.getItem(k)", f"cc-tracker-{system}") == before
    finally:
        context.close()


def test_health_states_from_the_rules_show_on_the_card(browser, site):
    """countup's Hurt (0 to -9) and death (-10; most NPCs at 0) show on the card from the rules'
    facts; hit points go below 0 and stop at the lowest state."""
    system = "countup"
    context, page = phone_page(browser)
    try:
        open_tracker(page, site, system)
        add_people(page)
        ann = tracker(page).locator(".cc-tk-card:has(h3:has-text('Ann'))")
        orc = tracker(page).locator(".cc-tk-card:has(h3:has-text('Orc'))")
        assert ann.locator(".cc-tk-state").count() == 0 and ann.get_attribute("data-cc-state") == ""

        def hit(name: str, amount: int) -> None:
            tracker(page).get_by_label(f"Amount of damage or healing for {name}").fill(str(amount))
            tracker(page).get_by_role("button", name=f"Damage {name}").click()
            settle(page)

        hit("Ann", 25)  # 20 hit points: -5
        assert ann.locator(".cc-tk-left").inner_text() == "-5"
        assert ann.locator(".cc-tk-state").inner_text() == "Hurt"
        assert ann.locator(".cc-tk-state a").get_attribute("href").endswith("countup/damage/#hurt")
        hit("Ann", 20)
        assert ann.locator(".cc-tk-left").inner_text() == "-10"
        assert ann.locator(".cc-tk-state").inner_text() == "Dead"
        hit("Orc", 15)  # an NPC dies at 0
        assert orc.locator(".cc-tk-state").inner_text() == "Dead"
        assert (ann.get_attribute("data-cc-state"), orc.get_attribute("data-cc-state")) == ("Dead", "Dead")
        open_card(page, "Ann")
        tracker(page).get_by_label("Condition for Ann (e.g. Hurt)").fill("Prone")  # free text stays
        tracker(page).get_by_role("button", name="Add condition to Ann").click()
        settle(page)
        assert ann.locator(".cc-tk-tags").inner_text().startswith("Prone")
    finally:
        context.close()


def test_a_saved_preset_fills_the_add_form(browser, site):
    """A foe saved in this system's calculators (presets/store.mjs's storage) is offered in the
    add-combatant form; picking it fills name, side, defenses and hit points; Add adds it."""
    system = "countup"
    context, page = phone_page(browser)
    try:
        open_tracker(page, site, system)
        saved = {"attacker": [], "target": [{"name": "Ogre", "values": {"ac": "16", "target_hp": "30", "target": "7"}}]}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"cc-presets:{system}", json.dumps(saved)])
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        picker = page.get_by_label("From a saved preset")
        picker.select_option(label="Ogre")
        assert page.get_by_label("Name", exact=True).input_value() == "Ogre"
        assert page.get_by_label("Side", exact=True).input_value() == "foe"
        assert page.locator(".cc-tk-form").get_by_label("Armor Class", exact=True).input_value() == "16"
        page.get_by_role("button", name="Add", exact=True).click()
        settle(page)
        page.locator(".cc-tk-card h3:has-text('Ogre')").wait_for()
        combatant = stored(page, system)["present"]["combatants"][0]
        assert (combatant["side"], combatant["max"], combatant["values"]["ac"]) == ("foe", 30, 16)
    finally:
        context.close()


def test_a_segments_declaration_is_one_tap_on_the_card_and_stands_until_changed(browser, site):
    """Segments: each card carries its declaration (the action type, and a spell's casting time
    once a spell is declared), changed in one tap without opening the card or an Edit form; the
    engine keeps it, so the next round starts with last round's declarations and no tap."""
    system = "segments"
    context, page = phone_page(browser)
    try:
        open_tracker(page, site, system)
        add_people(page)
        orc = tracker(page).locator(".cc-tk-card:has(h3:has-text('Orc'))")
        action = orc.get_by_label("Action of Orc this round")
        assert action.is_visible() and orc.locator(".cc-tk-toggle").get_attribute("aria-expanded") == "false"
        assert orc.get_by_label("Casting time (segments) of Orc").count() == 0  # only a spell has one
        action.select_option("fast")
        settle(page)
        assert stored(page, system)["present"]["combatants"][1]["values"]["action"] == "fast"
        height = orc.evaluate("(c) => c.getBoundingClientRect().height")
        assert height <= 130, height  # still a short card on a phone
        play_round(page, system, 1)
        orc_when = tracker(page).locator(".cc-tk-order > li").nth(0)
        assert orc_when.get_attribute("data-cc-id") == "c2" and "Fast action" in orc_when.inner_text()
        bob = tracker(page).locator(".cc-tk-card:has(h3:has-text('Bob'))")
        bob.get_by_label("Action of Bob this round").select_option("spell")
        settle(page)
        bob.get_by_label("Casting time (segments) of Bob").fill("3")
        bob.get_by_label("Casting time (segments) of Bob").press("Tab")
        settle(page)
        assert stored(page, system)["present"]["combatants"][2]["values"]["casting_time"] == 3
        while current_id(page):
            page.locator(".cc-tk-bar").get_by_role("button", name="Next turn").click()
            settle(page)
        play_round(page, system, 2)  # Orc's fast action stands; Bob casts
        whens = dict(
            zip(
                tracker(page).locator(".cc-tk-order > li").evaluate_all("(xs) => xs.map((x) => x.dataset.ccId)"),
                tracker(page).locator(".cc-tk-order .cc-tk-when").all_inner_texts(),
                strict=True,
            )
        )
        assert whens["c2"].startswith("Fast action") and whens["c3"].startswith("Spell · segment 3"), whens
        assert orc.get_by_label("Action of Orc this round").input_value() == "fast"
    finally:
        context.close()
