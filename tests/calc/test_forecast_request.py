"""calc.fight.forecast_request: the tracker's Forecast panel asks the forecast calculator about
the fight as it stands. Countup's request is compared with one built by hand from the forecast's
own inputs (and evaluated the same); every system's view offers one exactly when its data
declares a forecast calculator."""

from __future__ import annotations

import json

import pytest

from calc import evaluate, fight
from calc.browser import evaluate_json
from calc.errors import InputError
from calc.fight.forecast_request import unique_names
from calc.inputs import data as data_mod
from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]

# The round calculator's attacker inputs at its declared defaults (the forecast's own differ).
ROUND_ATTACKER = {
    "attack": "melee", "attacks": 1, "first_round": "ready", "reload": False, "to_hit": 5,
    "ability_from": "score", "ability_score": 16, "ability_bonus": 2, "misc": 1, "hurt": False,
    "dice": "1d8", "strength_from": "score", "strength_score": 16, "strength_bonus": 2, "damage_misc": 1,
}  # fmt: skip


def built(f: Fight) -> dict:
    """What the Forecast panel's request to the worker answers, less the forecast itself."""
    got = fight.forecast(f.system, f.state)
    return {k: v for k, v in got.items() if k != "result"}


def countup_fight() -> Fight:
    f = Fight("countup")
    f.add("Aria", "pc", 10, to_hit=4, ac=15, modifier=1)
    f.add("Bram", "pc", 8, attack="thrown", dice="1d6", die="d8")
    f.add("Orc", "foe", 9, ac=13, to_hit=1)
    f.add("Goblin", "foe", 4)
    f.damage("Aria", 11)  # −1: Hurt, still fighting
    f.damage("Goblin", 4)  # 0: an ordinary NPC is dead
    f.round()
    return f


def test_countup_request_from_the_fight_as_it_stands_equals_the_hand_built_one() -> None:
    f = countup_fight()
    got = built(f)
    hand = {
        "system": "countup",
        "calculator": "forecast",
        "inputs": {
            "party": [
                {"name": "Aria", "die": "d10", "modifier": 1, **ROUND_ATTACKER, "to_hit": 4, "hurt": True,
                 "ac": 15, "target": "character", "target_hp": -1, "npc_hurt": False},
                {"name": "Bram", "die": "d8", "modifier": 0, **ROUND_ATTACKER, "attack": "thrown", "dice": "1d6",
                 "ac": 14, "target": "character", "target_hp": 8, "npc_hurt": False},
            ],
            "foes": [
                {"name": "Orc", "die": "d10", "modifier": 0, **ROUND_ATTACKER, "to_hit": 1,
                 "ac": 13, "target": "npc", "target_hp": 9, "npc_hurt": False},
            ],
            # the round's order as rolled (count up: Bram's 8, the Orc's 10, Aria's 11), nobody acted yet
            "order": [{"name": "Bram"}, {"name": "Orc"}, {"name": "Aria"}],
            "acted": 0,
            "round_reached": 1,  # the fight's first round: its own rules hold for the rest of it
        },
    }  # fmt: skip
    assert got["request"] == hand
    assert got["left_out"] == [{"name": "Goblin", "state": "Dead"}]
    result = evaluate(got["request"])
    assert result == evaluate(hand)
    # the worker's door answers the same, with the request it asked
    answer = json.loads(evaluate_json(json.dumps({"kind": "forecast", "system": "countup", "state": f.state})))
    assert answer["result"]["request"] == hand and answer["result"]["result"] == json.loads(json.dumps(result))
    chances = {c["label"]: c["p"]["fraction"] for c in result["chances"]}
    assert "Party wins" in chances and "Foes win" in chances and "Aria dies" in chances


def test_countup_the_forecast_follows_the_fight() -> None:
    """More damage to the Orc never lowers the party's chance; the forecast sees the current HP."""
    f = countup_fight()
    before = fight.forecast("countup", f.state)["result"]
    f.damage("Orc", 5)
    after = fight.forecast("countup", f.state)
    assert after["request"]["inputs"]["foes"][0]["target_hp"] == 4
    after = after["result"]

    def wins(result: dict) -> float:
        return next(c["p"]["float"] for c in result["chances"] if c["label"] == "Party wins")

    assert wins(after) > wins(before)


def test_countup_a_fight_past_the_forecasts_limits_is_its_typed_error() -> None:
    f = Fight("countup")
    f.add("Aria", "pc", 10)
    for i in range(7):
        f.add(f"Orc {i + 1}", "foe", 5)
    with pytest.raises(InputError) as err:
        fight.forecast("countup", f.state)
    assert err.value.input == "foes"
    answer = json.loads(evaluate_json(json.dumps({"kind": "forecast", "system": "countup", "state": f.state})))
    assert answer["error"]["input"] == "foes" and "6" in answer["error"]["message"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_forecast_exactly_where_the_data_declares_one(system: str) -> None:
    f = Fight(system)
    f.add("Ann", "pc", 12)
    f.add("Orc", "foe", 9)
    if "forecast" not in data_mod.system(system).calculators:
        with pytest.raises(InputError) as err:
            fight.forecast(system, f.state)
        assert err.value.input == "system"
        return
    got = fight.forecast(system, f.state)
    inputs = got["request"]["inputs"]
    assert [e["name"] for e in inputs["party"]] == ["Ann"] and [e["name"] for e in inputs["foes"]] == ["Orc"]
    assert got["result"] == evaluate(got["request"])
    assert got["result"]["chances"][0]["label"] == "Party wins"


def test_names_are_made_unique_within_the_forecasts_length() -> None:
    assert unique_names(["Orc", "orc", "Orc"], 40) == ["Orc", "orc (2)", "Orc (3)"]
    assert unique_names(["x" * 50, "x" * 45], 40) == ["x" * 40, "x" * 36 + " (2)"]


def test_countup_the_forecast_starts_from_the_current_turn() -> None:
    """Before the first round the forecast starts fresh; mid-round those before the current turn
    have acted (the dead Goblin's turn is no fighter's); the answer is the calculator's for it."""
    fresh = Fight("countup")
    fresh.add("Aria", "pc", 10)
    fresh.add("Orc", "foe", 9)
    assert "order" not in built(fresh)["request"]["inputs"]
    f = countup_fight()
    f.do("next_turn")
    f.do("next_turn")  # Bram and the Orc have acted: Aria's turn
    got = fight.forecast("countup", f.state)
    asked = got["request"]["inputs"]
    assert asked["order"] == [{"name": "Bram"}, {"name": "Orc"}, {"name": "Aria"}] and asked["acted"] == 2
    assert asked["round_reached"] == 1
    assert got["result"] == evaluate(got["request"])
    assert any(s["text"].startswith("Mid-round") and "Aria still to act" in s["text"] for s in got["result"]["steps"])
