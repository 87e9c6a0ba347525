"""What the tracker page is given (macros/render/tracker.py `tracker_declaration`): card labels in
the combatant's own voice (a card says "Armor Class", never "Target AC", "Enemy's Defense" or
"Your wounds": issue 20), the combatant cap the fight's engine (and its initiative) takes, and every ruling the
fight's engine offers."""

from __future__ import annotations

import re

import pytest

from calc.fight import act
from calc.inputs import data as calc_data
from macros.render.tracker import tracker_declaration

SYSTEMS = calc_data.system_ids()
BORROWED = re.compile(r"^Target\b|\b(target|enemy|defender|attacker)'s\b|\byour\b", re.IGNORECASE)


def declaration(system: str) -> dict:
    return tracker_declaration(system, calc_data.load()["systems"][system])


@pytest.mark.parametrize("system", SYSTEMS)
def test_labels_speak_of_the_combatant_itself(system: str) -> None:
    # the form keeps the calculators' labels (outside tests find the fields by them); the card
    # shows each value under its own label
    labels = [f.get("card_label") or f.get("label", f["name"]) for f in declaration(system)["fields"]]
    borrowed = [label for label in labels if BORROWED.search(label)]
    assert not borrowed, (system, borrowed)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_cap_is_the_one_the_engine_takes(system: str) -> None:
    limits = act(system, None, {"type": "view"})["view"]["limits"]
    assert declaration(system)["max_combatants"] == limits["combatants"] == 40


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_ruling_the_engine_offers_has_its_help(system: str) -> None:
    offered = {r["name"] for r in act(system, None, {"type": "view"})["view"]["rulings"]}
    declared = {r["name"] for r in declaration(system)["rulings"]}
    assert offered - declared <= {"team_initiative"}, offered - declared  # a `when` input, not a ruling
