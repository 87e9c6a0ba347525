"""The fight (`calc.fight`): the roster, health states by hit points (countup, segments,
active-defense, from the data's `tracker.states`), turns that pass over those the rules keep from
acting (they stay listed and come back when healed), saved states read whole or leniently, and
the worker's `{"kind": "fight"}` request. Action-points' dying and phases' Wounds have their own
files."""

from __future__ import annotations

import json

import pytest
from fight_helpers import Fight

from calc import browser, evaluate, fight
from calc.errors import InputError
from calc.fight import state as fight_state


def test_a_new_fight_is_empty_and_its_view_lists_fields_and_rulings() -> None:
    f = Fight("countup").do("view")
    assert f.state["round"] == 0 and f.state["combatants"] == []
    assert {d["name"] for d in f.view["fields"]} >= {"die", "modifier", "ac", "npc_hurt"}
    phases = Fight("phases").do("view")
    names = {r["name"] for r in phases.view["rulings"]}
    assert names >= {"ties", "movement_order", "wound_damage", "instant_death", "count_reading", "critical_wound"}
    assert all(r["url"] for r in phases.view["rulings"] if r.get("ruling"))


def test_add_fills_declared_defaults_and_checks_fields_by_name() -> None:
    f = Fight("countup")
    f.add("Orc", hp=5)
    orc = f.state["combatants"][0]
    assert orc["values"]["die"] == "d10" and orc["hp"] == 5 and orc["id"] == "c1"
    with pytest.raises(InputError) as err:
        f.add("Gob", die="d12")
    assert err.value.input == "action.combatant.values.die"
    with pytest.raises(InputError) as err:
        f.add("orc")
    assert err.value.input == "action.combatant.name"


def test_a_fight_holds_forty_combatants_and_initiative_orders_them_all() -> None:
    f = Fight("countup")
    for i in range(40):
        f.add(f"Orc {i + 1}", hp=5)
    with pytest.raises(InputError):
        f.add("One too many")
    f.round()
    assert len(f.view["order"]) == 40


def test_a_bad_field_in_a_state_is_named_and_load_keeps_the_rest() -> None:
    f = Fight("countup")
    f.add("Aria", side="pc", hp=12)
    f.add("Orc", hp=5)
    saved = json.loads(json.dumps(f.state))
    saved["combatants"][1]["values"]["die"] = "d12"
    with pytest.raises(InputError) as err:
        fight.act("countup", saved, {"type": "view"})
    assert err.value.input == "combatants[2].values.die"
    answer = fight.act("countup", None, {"type": "load", "state": saved})
    assert [c["name"] for c in answer["state"]["combatants"]] == ["Aria"]
    assert answer["dropped"][0]["input"] == "combatants[2].values.die"


def test_countup_hurt_then_dead_for_a_character() -> None:
    f = Fight("countup")
    f.add("Aria", side="pc", hp=5)
    f.damage("Aria", 5)
    assert (f.who("Aria")["hp"], f.who("Aria")["state"], f.who("Aria")["acts"]) == (0, "Hurt", True)
    f.damage("Aria", 9)
    assert (f.who("Aria")["hp"], f.who("Aria")["state"]) == (-9, "Hurt")
    f.damage("Aria", 5)  # stops at −10, the lowest the rules count
    assert (f.who("Aria")["hp"], f.who("Aria")["state"], f.who("Aria")["acts"]) == (-10, "Dead", False)
    with pytest.raises(InputError):
        f.damage("Aria", 1)


def test_countup_npc_dies_at_zero_by_the_ruling_and_is_hurt_when_important() -> None:
    f = Fight("countup")
    f.add("Orc", hp=5)
    f.add("Chief", hp=5, npc_hurt=True)
    f.damage("Orc", 5).damage("Chief", 5)
    assert f.who("Orc")["state"] == "Dead" and f.who("Orc")["state_rule"] == "npc-death"
    assert f.who("Chief")["state"] == "Hurt" and f.who("Chief")["acts"]


def test_segments_down_at_zero_and_dead_at_minus_ten_only_under_the_other_reading() -> None:
    ruling = Fight("segments")
    ruling.add("Orc", hp=6)
    ruling.damage("Orc", 16)
    assert (ruling.who("Orc")["hp"], ruling.who("Orc")["state"]) == (0, "Down")
    other = Fight("segments", {"drop_at": "minus-ten"})
    other.add("Orc", hp=6)
    other.damage("Orc", 11)
    assert (other.who("Orc")["hp"], other.who("Orc")["state"]) == (-5, "Down")
    other.damage("Orc", 5)
    assert (other.who("Orc")["hp"], other.who("Orc")["state"]) == (-10, "Dead")


def test_active_defense_down_at_zero() -> None:
    f = Fight("active-defense")
    f.add("Bandit", hp=8)
    f.damage("Bandit", 8)
    assert (f.who("Bandit")["state"], f.who("Bandit")["acts"]) == ("Down", False)


def test_healing_brings_one_back_up_to_its_maximum() -> None:
    f = Fight("active-defense")
    f.add("Bandit", hp=8)
    f.damage("Bandit", 10).heal("Bandit", 20)
    assert (f.who("Bandit")["hp"], f.who("Bandit")["state"]) == (8, "")


def test_countup_the_dead_roll_no_die_and_take_no_turn_next_round() -> None:
    f = Fight("countup")
    for name in ("Aria", "Bo"):
        f.add(name, side="pc", hp=10)
    f.add("Orc", hp=5)
    f.round()
    f.damage("Orc", 5)
    f.do("next_round")
    assert [d["key"] for d in f.view["pending"]["dice"]] == ["init:c1", "init:c2"]
    f.do("start_round", rolls={"init:c1": 3, "init:c2": 4})
    assert f.order() == ["Aria", "Bo"] and f.turns_taken() == ["Aria", "Bo"]
    # the GM's correction (an NPC dead at 0 stays dead when healed): back in the next round
    f.do("edit", id="c3", changes={"hp": 5}).round()
    assert "Orc" in f.order()


@pytest.mark.parametrize("system", ["action-points", "active-defense"])
def test_once_rolled_the_down_stay_listed_are_passed_over_and_act_again_when_healed(system: str) -> None:
    f = Fight(system)
    for name in ("A", "B", "C"):
        f.add(name, hp=10)
    f.round(faces={"init:c1": 15, "init:c2": 10, "init:c3": 5})
    assert f.order() == ["A", "B", "C"] and f.current() == "A"
    f.damage("B", 12)
    f.do("next_turn")
    assert f.current() == "C"
    entry = next(e for e in f.view["order"] if e["name"] == "B")
    assert entry["acts"] is False and entry["hp"] == (-2 if system == "action-points" else 0)
    assert entry["state"] == ("Dying" if system == "action-points" else "Down")
    f.round()  # round 2: nobody rolls again (no die asked), B still passed over
    assert f.state["round"] == 2 and f.order() == ["A", "B", "C"]
    assert f.turns_taken() == ["A", "C"]
    f.heal("B", 12).round()
    assert f.turns_taken() == ["A", "B", "C"]


def test_next_turn_skips_one_who_drops_mid_round_and_previous_goes_back() -> None:
    f = Fight("segments")
    for name in ("A", "B", "C"):
        f.add(name, side="pc", hp=5)
    f.round(faces={"side:pc": 4, "side:foe": 2})
    first = f.current()
    rest = [n for n in f.order() if n != first]
    f.damage(rest[0], 5)
    f.do("next_turn")
    assert f.current() == rest[1]
    f.do("previous_turn")
    assert f.current() == first


def test_remove_keeps_the_turn_on_the_same_combatant() -> None:
    f = Fight("active-defense")
    for name in ("A", "B", "C"):
        f.add(name, hp=10)
    f.round(faces={"init:c1": 15, "init:c2": 10, "init:c3": 5})
    f.do("next_turn").do("next_turn")
    assert f.current() == "C"
    f.do("remove", id=f.ident("A"))
    assert f.current() == "C" and f.order() == ["B", "C"]


def test_a_round_needs_every_die_and_rolls_are_checked_against_their_dice() -> None:
    f = Fight("countup")
    f.add("Orc", hp=5)
    f.do("next_round")
    with pytest.raises(InputError) as err:
        f.do("start_round")
    assert err.value.input == "rolls.init:c1"
    with pytest.raises(InputError) as err:
        f.do("roll", rolls={"init:c1": 11})
    assert err.value.input == "action.rolls.init:c1"
    f.do("roll", rolls={"init:c1": 7})
    assert f.view["pending"]["ready"] and f.view["pending"]["dice"][0]["value"] == 7
    f.do("start_round")
    assert f.state["round"] == 1 and f.state["pending"] is None


def test_rulings_are_kept_only_when_they_differ_from_the_default() -> None:
    f = Fight("segments", {"drop_at": "minus-ten"})
    assert f.state["options"] == {"drop_at": "minus-ten"}
    f.do("option", name="drop_at", value="zero")
    assert f.state["options"] == {}
    with pytest.raises(InputError) as err:
        f.do("option", name="drop_at", value="never")
    assert err.value.input == "action.drop_at"


def test_new_fight_keeping_the_roster_heals_everyone() -> None:
    f = Fight("countup")
    f.add("Orc", hp=5)
    f.round()
    f.damage("Orc", 3).do("new", keep_combatants=True)
    assert f.state["round"] == 0 and f.who("Orc")["hp"] == 5


def test_the_worker_request_answers_state_and_view_or_an_error_naming_the_field() -> None:
    request = {"kind": "fight", "system": "countup", "state": None, "action": {"type": "view"}}
    answer = json.loads(browser.evaluate_json(json.dumps(request)))
    assert answer["result"]["state"]["format"] == fight_state.FORMAT
    request["action"] = {"type": "damage", "id": "c9", "amount": 1}
    assert json.loads(browser.evaluate_json(json.dumps(request)))["error"]["input"] == "action.id"
    request["extra"] = 1
    assert json.loads(browser.evaluate_json(json.dumps(request)))["error"]["input"] == "extra"


def test_load_reads_a_fight_saved_by_the_old_tracker() -> None:
    old = {
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
                "name": "Aria",
                "side": "pc",
                "values": {"die": "d10", "modifier": 0},
                "max": 12,
                "damage": 4,
                "tags": [],
            },
            {"id": "c2", "name": "Orc", "side": "foe", "values": {"die": "d12"}, "max": 5, "damage": 0, "tags": []},
        ],
        "nextId": 3,
        "options": {},
    }
    answer = fight.act("countup", None, {"type": "load", "state": old})
    assert [(c["name"], c["hp"]) for c in answer["state"]["combatants"]] == [("Aria", 8)]
    assert answer["dropped"][0]["input"] == "combatants[2].values.die"
    assert answer["state"]["next_id"] == 3 and answer["view"]["limits"]["combatants"] == 40
    whole = fight.act("countup", None, {"type": "load", "state": answer["state"]})
    assert whole["dropped"] == []


def test_next_round_while_the_dice_form_is_open_is_refused() -> None:
    f = Fight("countup")
    f.add("Orc", hp=5)
    f.do("next_round").do("roll", rolls={"init:c1": 4})
    with pytest.raises(InputError):
        f.do("next_round")
    assert f.state["pending"]["rolls"] == {"init:c1": 4}


def test_the_tracker_skips_the_chance_tables_only_inside_its_own_requests() -> None:
    f = Fight("countup")
    for name in ("A", "B", "C"):
        f.add(name, hp=5)
    f.round()
    assert f.state["order"][0]["why"]  # the order and its reasons are there
    answer = evaluate({"system": "countup", "calculator": "initiative", "inputs": {}})
    assert answer["pairwise"] and all(c["p"]["fraction"] != "0" for c in answer["chances"])


def test_numbers_typed_as_text_are_read_and_bad_text_is_named() -> None:
    f = Fight("countup")
    f.do("add", combatant={"name": "Orc", "side": "foe", "max": "12", "values": {"modifier": "2"}})
    assert (f.who("Orc")["max"], f.who("Orc")["values"]["modifier"]) == (12, 2)
    with pytest.raises(InputError) as err:
        f.do("add", combatant={"name": "Gob", "side": "foe", "max": 5, "values": {"modifier": "two"}})
    assert err.value.input == "action.combatant.values.modifier"
    f.do("next_round")
    entry = f.view["pending"]["dice"][0]
    assert (entry["count"], entry["sides"], entry["min"], entry["max"]) == (1, 10, 1, 10)
    with pytest.raises(InputError) as err:
        f.do("roll", rolls={"init:c1": "x"})
    assert err.value.input == "action.rolls.init:c1"
    f.do("roll", rolls={"init:c1": "7"}).do("damage", id="c1", amount="3")
    assert f.view["pending"]["dice"][0]["value"] == 7 and f.who("Orc")["hp"] == 9


def test_a_newcomer_to_a_once_rolled_fight_rolls_once_next_round() -> None:
    f = Fight("active-defense")
    f.add("A", hp=10)
    f.round(faces={"init:c1": 12})
    late = f.add("B", hp=10)
    f.do("next_round")
    assert [d["key"] for d in f.view["pending"]["dice"]] == [f"init:{late}"]
    f.do("start_round", rolls={f"init:{late}": 20})
    assert f.order() == ["B", "A"]
    f.do("next_round")  # round 3: nobody new, no die, the round starts at once
    assert f.state["round"] == 3 and f.state["pending"] is None and f.order() == ["B", "A"]


def test_the_command_line_runs_one_action_on_a_saved_state(tmp_path, capsys) -> None:
    from calc.__main__ import main

    assert (
        main(
            [
                "countup",
                "fight",
                "--json",
                "--action",
                '{"type": "add", "combatant": {"name": "Orc", "side": "foe", "max": 5}}',
            ]
        )
        == 0
    )
    saved = tmp_path / "fight.json"
    saved.write_text(json.dumps(json.loads(capsys.readouterr().out)["state"]))
    assert (
        main(["countup", "fight", "--state", str(saved), "--action", '{"type": "damage", "id": "c1", "amount": 5}'])
        == 0
    )
    assert "Orc (foe): 0/5 HP Dead" in capsys.readouterr().out
    assert (
        main(["countup", "fight", "--state", str(saved), "--action", '{"type": "damage", "id": "c9", "amount": 1}'])
        == 2
    )
    assert "action.id" in capsys.readouterr().err


@pytest.mark.parametrize("system", ["countup", "segments", "action-points", "phases", "active-defense"])
def test_the_tracker_orders_its_cap_though_the_calculator_form_keeps_its_own(system: str) -> None:
    """Forty combatants are ordered (initiative without its chance tables); the initiative
    calculator's form, which works out every pair's chances, keeps its smaller cap (segments',
    which has none, takes the tracker's: test_segments_initiative_takes_the_trackers_cap)."""
    f = Fight(system)
    most = f.do("view").view["limits"]["combatants"]
    assert most == 40
    for i in range(most):
        f.add(f"C{i + 1}", side="pc" if i % 2 else "foe", hp=5)
    f.round()
    assert len({e["id"] for e in f.view["order"]}) == most
    people = [{"name": f"C{i}"} for i in range(most)]
    if system == "segments":
        return
    with pytest.raises(InputError):
        evaluate({"system": system, "calculator": "initiative", "inputs": {"combatants": people}})


def test_segments_initiative_takes_the_trackers_cap() -> None:
    """Segments' round order has no chances of every pair: its form takes as many combatants as
    the tracker holds, and one more is refused naming the list."""
    most = Fight("segments").do("view").view["limits"]["combatants"]
    people = [{"name": f"C{i}", "group": "AB"[i % 2]} for i in range(most + 1)]
    groups = [{"name": "A", "roll": 3}, {"name": "B", "roll": 5}]
    answer = evaluate(
        {"system": "segments", "calculator": "initiative", "inputs": {"groups": groups, "combatants": people[:most]}}
    )
    assert sum(len(g["names"]) for g in answer["order"]) == most
    with pytest.raises(InputError) as err:
        evaluate({"system": "segments", "calculator": "initiative", "inputs": {"groups": groups, "combatants": people}})
    assert err.value.input == "combatants"
