"""The odds of the attack at hand on the acting combatant's card (issue 21), in every system, on a
phone: shown on arrival at a turn (taps counted: 0), `.cc-tk-odds[data-cc-request]` holding the
exact request sent, whose answer in CPython (`calc.evaluate`) gives the figures shown; one tap
changes the target; Resolve applies the damage by the hit rules and Undo restores it."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from test_reader import AXE, AXE_TAGS
from test_tracker import PHONE, add_people, current_id, open_tracker, play_round, settle, stored, tracker

from calc import evaluate
from calc.browser import evaluate_json
from calc.fight import fighter
from calc.inputs import data as data_mod

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
THEME = {"countup": "light", "segments": "dark", "action-points": "light", "phases": "dark", "active-defense": "dark"}
TAPS = {}  # system → taps from "it is X's turn" to the odds of X's attack (reported)
RESOLVE_TAPS = {}  # system → taps from the acting card to the damage applied (reported)


def panel(page):
    return tracker(page).locator(f".cc-tk-card[data-cc-id='{current_id(page)}'] .cc-tk-odds")


def shown_fractions(page) -> list[Fraction | None]:
    """The figures on the panel, in order, as the exact fractions a tap away ("never": None)."""
    box = panel(page)
    box.locator(".cc-tk-figures").wait_for()
    return box.locator(".cc-tk-figures dd").evaluate_all(
        "(dds) => dds.map((d) => d.querySelector('.cc-frac')?.dataset.fraction ?? null)"
    )


def _plan(page, system: str, target: str) -> dict:
    """What the page rolls to resolve the acting combatant's attack on `target`, from CPython's view
    of the stored fight (calc/fight/resolve.py `plan`)."""
    from calc import fight

    state = stored(page, system)["present"]
    odds = fight.act(system, state, {"type": "view"})["view"]["odds"]
    return next(t for t in odds["targets"] if t["id"] == target)["resolve"]


def expected(answer: dict, before: dict) -> list[str | None]:
    """The card's figures: its request's answer, and "before it acts again" from the answer to its
    `data-cc-before` request (every foe of the target acting before its turn: calc/fight/before_turn.py)."""
    fa, lead = answer["first_attack"], answer["rounds"][0]
    within = lead["within"]
    return [
        fa["hit"]["fraction"],
        fa["expected"]["fraction"],
        fa["drops"][0]["p"]["fraction"],
        before["result"]["p"]["fraction"] if "result" in before else None,
        lead["mean"]["fraction"] if lead["mean"] else None,
        within[2]["fraction"],
    ]


def assert_axe_clean(page, within: str) -> None:
    """axe-core on `within` (a JS expression: `document`, or a selector in quotes): nothing serious."""
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        f"async (tags) => (await axe.run({within}, {{runOnly: {{type: 'tag', values: tags}}}})).violations.map("
        "(v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))",
        AXE_TAGS,
    )
    assert not [v for v in violations if v["impact"] in ("serious", "critical")], violations


def check_panel(page, system: str) -> dict:
    """The panel's request: the acting combatant's, against the target's current hit points; the
    figures shown are its answer's. Returns the request."""
    box = panel(page)
    box.wait_for()
    request = json.loads(box.get_attribute("data-cc-request"))
    assert request["system"] == system and request["calculator"] == "round"
    state = stored(page, system)["present"]
    target = next(c for c in state["combatants"] if c["name"] in box.get_attribute("aria-label").split(" on ")[-1])
    health = fighter.declaration(data_mod.system(system))["health"]
    assert request["inputs"][health] == target["hp"]
    box.locator("xpath=self::*[@data-cc-before-state]").wait_for(state="attached")
    asked = json.loads(box.get_attribute("data-cc-before"))
    assert asked["kind"] == "before" and asked["state"] == state and asked["attacker"] == current_id(page)
    before = json.loads(evaluate_json(box.get_attribute("data-cc-before")))
    assert box.get_attribute("data-cc-before-state") == ("done" if "result" in before else "error")
    assert shown_fractions(page) == expected(evaluate(request), before)
    if "result" in before:  # the focus-fire assumption beside its ruling
        assert box.locator(".cc-tk-assume a[href*='forecast-targets']").count() == 1
    return request


@pytest.mark.parametrize("system", SYSTEMS)
def test_odds_on_the_acting_card_one_tap_to_retarget_resolve_and_undo(browser, site, system):
    # both themes across the systems; bypass_csp: axe is injected as an inline script
    context = browser.new_context(viewport=PHONE, color_scheme=THEME[system], bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    taps = 0
    try:
        open_tracker(page, site, system)
        add_people(page)
        play_round(page, system, 1)
        # "It is X's turn": the odds are on X's card with no tap.
        clicks_before = page.evaluate("() => (window.__taps = 0)")
        page.evaluate("() => document.addEventListener('click', () => window.__taps++, true)")
        first = check_panel(page, system)
        taps = page.evaluate("() => window.__taps") - clicks_before
        TAPS[system] = taps
        assert taps == 0

        # axe-core on the page with the odds showing (light or dark scheme)
        assert_axe_clean(page, "document")

        # One tap changes the target.
        other = panel(page).locator(".cc-tk-target[aria-pressed='false']").first
        name = other.inner_text().split(" (")[0]
        other.click()
        panel(page).locator(f".cc-tk-target[aria-pressed='true']:has-text('{name}')").wait_for()
        second = check_panel(page, system)
        assert f"on {name}" in panel(page).get_attribute("aria-label")
        assert second["inputs"] != first["inputs"] or name in panel(page).get_attribute("aria-label")

        # Resolve: a natural 20 and 3 damage typed hit by every system's hit rules; Undo restores.
        before = stored(page, system)["present"]
        target = next(c for c in before["combatants"] if c["name"] == name)
        box = panel(page)
        kept = box.get_by_label("Roll (d20)").get_attribute("readonly") is not None  # phases: the phase's own d20
        if not kept:
            box.get_by_label("Roll (d20)").fill("20")
        box.get_by_label("Damage", exact=True).fill("3")
        box.get_by_role("button", name="Resolve").click()
        settle(page)
        after = stored(page, system)["present"]
        hit = next(c for c in after["combatants"] if c["id"] == target["id"])
        said = tracker(page).locator(".cc-tk-status").inner_text()
        if kept and "a hit" not in said:  # the kept roll missed: nothing dealt
            assert hit["hp"] == target["hp"] and after != before, (system, said)
        else:
            assert hit["hp"] < target["hp"], (system, target, hit)
            assert "a hit, 3 damage (typed)" in said
        tracker(page).get_by_role("button", name="Undo").click()
        settle(page)
        assert stored(page, system)["present"] == before
        # Resolve with the damage rolled by the page: Roll d20 is typed 20, "Roll all" rolls the
        # damage dice (and the defender's roll) with the fair die, Resolve: three taps; the target
        # loses the damage the status line reports (phases: from the roll, no dice).
        box = panel(page)
        plan = _plan(page, system, target["id"])
        if not kept:
            box.get_by_label("Roll (d20)").fill("20")
        taps_before = page.evaluate("() => window.__taps")
        box.get_by_role("button", name="Roll all").click()
        faces = box.locator("[data-tk-focus^='faces-']")
        if plan["dice"]:
            rolled = [int(x) for x in faces.evaluate_all("(fs) => fs.map((f) => f.value)")]  # a field per die
            assert len(rolled) == sum(d["count"] for d in plan["roll"]), (plan, rolled)
        else:
            assert not faces.count()
        # the Resolve rows fit the phone: nothing wider than its box, nor the page than the screen
        fit = box.locator(".cc-tk-resolve").evaluate(
            "(r) => [r.scrollWidth, r.clientWidth, r.getBoundingClientRect().right, "
            "document.documentElement.scrollWidth]"
        )
        assert fit[0] <= fit[1] and fit[2] <= PHONE["width"] and fit[3] <= PHONE["width"], fit
        print(f"\nResolve rows ({system}): {fit[0]} px in a box of {fit[1]} px, right edge {fit[2]:.0f} px")
        box.get_by_role("button", name="Resolve").click()
        settle(page)
        RESOLVE_TAPS[system] = page.evaluate("() => window.__taps") - taps_before
        assert RESOLVE_TAPS[system] == 2  # Roll all, Resolve (a typed attack roll is no tap)
        said = tracker(page).locator(".cc-tk-status").inner_text()
        dealt = int(re.search(r"a hit, (\d+) damage", said).group(1))
        hit = next(c for c in stored(page, system)["present"]["combatants"] if c["id"] == target["id"])
        assert hit["hp"] == target["hp"] - dealt, (system, said, target, hit)
        print(f"\nResolve ({system}): {said}")
        tracker(page).get_by_role("button", name="Undo").click()
        settle(page)
        assert stored(page, system)["present"] == before
        # the rolled die: the tracker's fair die fills the roll
        panel(page).get_by_role("button", name="Roll all").click()
        rolled = panel(page).locator(".cc-tk-resolve input").first.input_value()
        assert 1 <= int(rolled) <= 20
        assert not errors, errors
    finally:
        context.close()
    print(f"\ntaps to the odds ({system}): {taps}; Resolve, rolled to applied: {RESOLVE_TAPS.get(system)}")


# Resolve's other dice (calc/fight/resolve.py `plan`'s `rolls`): a fight built in CPython at Ann's
# turn, with the value that calls for the die, stored as the tracker keeps it; "Roll all" fills the
# die beside the attack's, Resolve applies what Python reads from the same faces, Undo restores.
EXTRA = {  # the attacker's values, the target's, the die's label on the card, the key it is sent under
    "action-points": ({}, {"defense": 12, "miss_chance": 20}, "Miss chance 20% (d100)", "miss_roll"),
    "phases": ({"roll_mode": "advantage"}, {"defense": 3}, "Second roll, advantage (d20)", "second_roll"),
    "active-defense": ({}, {"defense": "block", "reserves": 1}, "Block (d20)", "defense_roll"),
}


@pytest.mark.parametrize("system", list(EXTRA))
def test_resolve_rolls_the_other_dice_in_two_taps(browser, site, system, tmp_path):
    from calc import fight
    from tests.calc.fight_helpers import Fight

    mine, theirs, label, key = EXTRA[system]
    built = Fight(system)
    ann, orc = built.add("Ann", "pc", 30, **mine), built.add("Orc", "foe", 40, **theirs)
    built.round()
    while built.view["current"] != ann:
        built.do("next_turn")
    theme = "dark" if system == "phases" else "light"
    context = browser.new_context(viewport=PHONE, color_scheme=theme, bypass_csp=True)
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
        box = panel(page)
        box.locator(".cc-tk-figures").wait_for()  # Python's answer is in (a known one as the panel is built)
        box.locator("xpath=self::*[@data-cc-before-state]").wait_for(state="attached")
        box.get_by_label(label).wait_for()
        # axe on the whole page after a reload, which lands on the acting card: the page scrolls
        # above the turn bar, so no button of the card is under it (target-size)
        assert_axe_clean(page, "document")
        before = stored(page, system)["present"]
        face = (built.view["actions"] or {}).get("roll")
        roll = box.get_by_label("Roll (d20)")
        if face is None:
            face = 20
            roll.fill("20")
        else:  # phases: the phase's d20 is the attack's own roll (the view's actions.roll), shown, not typed
            assert roll.input_value() == str(face) and not roll.is_editable()
        page.evaluate("() => { window.__taps = 0; document.addEventListener('click', () => window.__taps++, true); }")
        box.get_by_role("button", name="Roll all").click()
        extra = box.get_by_label(label).input_value()
        assert 1 <= int(extra) <= int(label.split("(d")[-1].rstrip(")")), extra
        fit = box.locator(".cc-tk-resolve").evaluate(
            "(r) => [r.scrollWidth, r.clientWidth, document.documentElement.scrollWidth]"
        )
        assert fit[0] <= fit[1] and fit[2] <= PHONE["width"], fit
        box.screenshot(path=str(tmp_path / f"resolve-{system}-{theme}.png"))  # to look at
        sent = {"type": "attack", "id": ann, "target": orc, "roll": face, key: extra}
        faces = box.locator("[data-tk-focus^='faces-']")
        if faces.count():  # a field per die
            sent["faces"] = " ".join(faces.evaluate_all("(fs) => fs.map((f) => f.value)"))
        box.get_by_role("button", name="Resolve").click()
        settle(page)
        assert page.evaluate("() => window.__taps") == 2
        expected = fight.act(system, before, sent)  # what CPython reads from the same faces
        said = expected["steps"][0]["text"]
        left = expected["view"]["actions"]
        if left and not left["next"] and not any(r["allowed"] and r["cost"] for r in left["actions"]):
            expected = fight.act(system, expected["state"], {"type": "next_turn"})  # a spent turn: the page moves on
        assert stored(page, system)["present"] == expected["state"]
        status = tracker(page).locator(".cc-tk-status").inner_text()
        assert said in status, (status, said)
        print(f"\nResolve ({system}, {label} {extra}): {status}")
        if system == "active-defense":  # the reserve spent: no block asked
            assert expected["state"]["combatants"][1]["reserves_spent"] == 1
            panel(page).locator(".cc-tk-resolve").wait_for()
            assert panel(page).get_by_label(label).count() == 0
        tracker(page).get_by_role("button", name="Undo").click()
        settle(page)
        assert stored(page, system)["present"] == before
        assert not errors, errors
    finally:
        context.close()


def test_a_multi_attackers_two_turns_each_show_the_odds_of_one_routine(browser, site, tmp_path):
    """Segments' multi-attacker in melee (steps 4 and 6 of the round): on a phone, its first turn
    comes before group initiative, its second (after the Hero's turn: Next turn, one tap each) after
    LOW, each labelled in the order; at both its card's odds ask with its whole round (2 routines:
    the rounds to drop the Hero count both, this attack's figures are one attack's), and "drops
    before it acts again" counts the routines of the turns before the Hero's."""
    from tests.calc.fight_helpers import Fight

    built = Fight("segments")
    built.add("Hero", "pc", 12, action="melee", weapon="long sword", level=3)
    beast = built.add("Beast", "foe", 20, action="melee", routines=2, ac=6)
    built.round({"side:pc": 5, "side:foe": 2})
    assert built.order() == ["Beast", "Hero", "Beast"] and built.view["current"] == beast
    context = browser.new_context(viewport=PHONE, color_scheme="dark", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_tracker(page, site, "segments")
        saved = json.dumps({"past": [], "present": built.state, "future": [], "view": built.view})
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["cc-tracker-segments", saved])
        page.reload()
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        settle(page)
        for label in ("Multi-attack, first routine", "Multi-attack, other routines"):
            assert current_id(page) == beast
            when = tracker(page).locator(".cc-tk-order [aria-current='step'] .cc-tk-when").inner_text()
            assert when.startswith(label), when
            request = check_panel(page, "segments")
            assert request["inputs"]["routines"] == 2, request
            page.screenshot(path=str(tmp_path / f"multi-attack-{label.split()[-2]}.png"))
            if label.endswith("first routine"):
                bar = tracker(page).locator(".cc-tk-bar")
                bar.get_by_role("button", name="Next turn").click()
                settle(page)
                bar.get_by_role("button", name="Next turn").click()
                settle(page)
        assert not errors, errors
    finally:
        context.close()
