"""Inputs that apply only when another input has a value (`when:` in calculators.yaml) are hidden
until then and not sent: phases' typed attack target shows once the target is to be entered, and
then changes the answer (it used to be ignored silently)."""

from __future__ import annotations

from urllib.parse import urljoin

from pages import answers, settle

import calc


def chances(inputs: dict) -> list[list[str]]:
    answer = calc.evaluate({"system": "phases", "calculator": "hit", "inputs": inputs})
    return [[c["label"], c["p"]["fraction"]] for c in answer["chances"]]


def test_attack_target_field_shows_when_it_applies(watched, site):
    page, record = watched
    url = urljoin(site.base, site.calculator_pages()[("phases", "hit")]["url"])
    page.goto(url)
    shown = settle(page, "hit")
    root = page.locator(".cc-calc[data-cc-calculator=hit]")

    def field(name: str):
        return root.locator(f'[data-input="{name}"]')

    assert shown["chances"] == chances({})
    assert field("attack_target").is_hidden() and field("attack_target").is_disabled()
    assert field("ability_score").is_visible() and field("level").is_visible()

    seen = answers(page)
    field("target_source").select_option("direct")
    settle(page, "hit", after=seen)
    assert field("attack_target").is_visible() and field("attack_target").is_enabled()
    assert field("ability_score").is_hidden() and field("level").is_hidden()

    seen = answers(page)
    field("attack_target").fill("16")
    shown = settle(page, "hit", after=seen)
    assert shown["chances"] == chances({"target_source": "direct", "attack_target": 16})
    assert shown["chances"] != chances({})

    # The link keeps it: a reload shows the field with the typed target and the same answer.
    assert "attack_target=16" in page.url and "target_source=direct" in page.url
    page.reload()
    shown = settle(page, "hit")
    assert field("attack_target").is_visible() and field("attack_target").input_value() == "16"
    assert shown["chances"] == chances({"target_source": "direct", "attack_target": 16})

    # Back to the ability score: the typed target is hidden again and no longer counts.
    seen = answers(page)
    field("target_source").select_option("ability")
    shown = settle(page, "hit", after=seen)
    assert field("attack_target").is_hidden()
    assert shown["chances"] == chances({})
    assert shown["errors"] == []
    assert record["errors"] == [] and record["external"] == []


def test_each_attackers_row_shows_its_own_fields(watched, site):
    """A list entry's fields apply by that entry's own values (calc.inputs.applies.cells): one attacker
    of phases' round enters its attack target directly, the other takes it from the ability score;
    each row shows only its own, and a row's hidden field is not sent (junk there is no error)."""
    page, record = watched
    page.goto(urljoin(site.base, site.calculator_pages()[("phases", "round")]["url"]))
    settle(page, "round")
    root = page.locator(".cc-calc[data-cc-calculator=round]")

    def cell(row: int, name: str):
        return root.locator(f'[data-input="attackers[{row}].{name}"]')

    for _ in range(2):
        seen = answers(page)
        root.get_by_role("button", name="Add Attacker").click()
        settle(page, "round", after=seen)
    for row in (1, 2):
        assert cell(row, "attack_target").is_hidden() and cell(row, "ability_score").is_visible()

    seen = answers(page)
    cell(2, "target_source").select_option("direct")
    settle(page, "round", after=seen)
    assert cell(2, "attack_target").is_visible() and cell(2, "ability_score").is_hidden()
    assert cell(1, "attack_target").is_hidden() and cell(1, "ability_score").is_visible()

    seen = answers(page)
    cell(2, "attack_target").fill("12")
    shown = settle(page, "round", after=seen)
    assert shown["errors"] == []
    # Back to the ability score with junk left in the typed target: hidden, not sent, no error.
    seen = answers(page)
    cell(2, "attack_target").fill("junk")
    cell(2, "target_source").select_option("ability")
    shown = settle(page, "round", after=seen)
    assert cell(2, "attack_target").is_hidden() and shown["errors"] == []
    assert record["errors"] == [] and record["external"] == []
