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
