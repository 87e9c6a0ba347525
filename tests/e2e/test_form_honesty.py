"""What you see is what is computed (issue 11, item 5): the countup damage form adds no bonus the
reader did not choose and says what it added, a cleared field is reported as missing (never
silently the default), `-1d8` is refused at its field, and signed number fields get the digits
keyboard plus a ± button."""

from __future__ import annotations

from urllib.parse import urljoin

from pages import answers, settle


def damage_line(answer: dict) -> str:
    """The damage part of a damage summary, after its head "Expected … damage per attack (hits …); "."""
    head, _, rest = answer["summary"].partition("; ")
    assert head.startswith("Expected ") and "damage per attack" in head, answer["summary"]
    return rest


def open_damage(page, site):
    page.goto(urljoin(site.base, site.calculator_pages()[("countup", "damage")]["url"]))
    settle(page, "damage")
    return page.locator(".cc-calc:not([data-cc-old])[data-cc-calculator=damage]")


def field_of(root, name: str):
    """The field (label, control, help, error) holding input `name`."""
    return root.locator(".cc-field", has=root.page.locator(f'[data-input="{name}"]'))


def edit(page, control, text: str) -> dict:
    seen = answers(page)
    control.fill(text)
    return settle(page, "damage", after=seen)


def test_typed_dice_are_what_is_rolled_and_added_bonuses_are_named(watched, site):
    page, record = watched
    root = open_damage(page, site)
    dice = root.locator('[data-input="dice"]')
    hint = field_of(root, "dice").locator(".cc-range")
    assert hint.text_content().strip() == f"(e.g. {dice.input_value()})"  # the example is the default
    shown = edit(page, dice, "1d8+3")
    assert damage_line(shown).startswith("1d8+3: 4 to 11 damage"), shown
    shown = edit(page, root.locator('[data-input="strength_score"]'), "16")
    assert damage_line(shown).startswith("1d8+3 +2 (Strength) = 1d8+5: 6 to 13 damage"), shown
    assert record["errors"] == [] and record["external"] == []


def test_a_cleared_field_is_missing_not_the_default(watched, site):
    page, record = watched
    root = open_damage(page, site)
    misc = root.locator('[data-input="damage_misc"]')
    shown = edit(page, misc, "")
    assert shown["state"] == "error"
    assert ["damage_misc", "Is required — the default is 0"] in shown["errors"], shown
    assert misc.get_attribute("aria-invalid") == "true"
    shown = edit(page, misc, "0")
    assert shown["state"] == "done" and shown["errors"] == []


def test_a_negative_dice_expression_is_refused_at_its_field(watched, site):
    page, record = watched
    root = open_damage(page, site)
    shown = edit(page, root.locator('[data-input="dice"]'), "-1d8")
    assert shown["state"] == "error"
    (message,) = [text for name, text in shown["errors"] if name == "dice"]
    assert message.startswith("Starts with a minus before '1d8'")


def test_signed_fields_get_digits_keyboard_and_a_sign_button(watched, site):
    page, record = watched
    root = open_damage(page, site)
    misc = root.locator('[data-input="damage_misc"]')  # min −30: signed
    score = root.locator('[data-input="strength_score"]')  # min 1: never negative
    assert misc.get_attribute("inputmode") == score.get_attribute("inputmode") == "numeric"
    assert field_of(root, "strength_score").locator(".cc-sign").count() == 0
    sign = field_of(root, "damage_misc").locator("button.cc-sign")
    assert sign.get_attribute("aria-label") == "Change the sign of Miscellaneous damage bonus"
    box = sign.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    shown = edit(page, misc, "2")
    assert "+2 (misc)" in shown["summary"]
    seen = answers(page)
    sign.click()
    assert misc.input_value() == "-2"
    shown = settle(page, "damage", after=seen)
    assert "\u22122 (misc)" in shown["summary"], shown
    seen = answers(page)
    sign.click()
    assert misc.input_value() == "2"
    assert record["errors"] == []


def test_an_old_damage_link_still_opens_with_its_damage_bonus(watched, site):
    """Before the merged form countup damage's `misc` was the damage bonus; it is `damage_misc` now
    (`was: misc`), and `misc` is the to-hit bonus. A link made before opens as it meant."""
    page, record = watched
    url = urljoin(site.base, site.calculator_pages()[("countup", "damage")]["url"])
    page.goto(url + "?dice=1d8&misc=2")
    shown = settle(page, "damage")
    root = page.locator(".cc-calc:not([data-cc-old])[data-cc-calculator=damage]")
    assert root.locator('[data-input="damage_misc"]').input_value() == "2"
    assert root.locator('[data-input="misc"]').input_value() == "1"  # the to-hit default
    assert damage_line(shown).startswith("1d8 +2 (misc) = 1d8+2: 3 to 10 damage"), shown
    assert "damage_misc=2" in page.url  # the page rewrites the link with the new names
    assert record["errors"] == [] and record["external"] == []
