"""Every state the fight accepts is one its rules can reach (issue #38 item 3): hit points within
the system's floor and the combatant's maximum whether added, edited, loaded or sent, and every
saved die face one its die shows; a lenient `load` drops what it cannot keep and names it.

The floor is never typed here: it is what the rules themselves reach, a blow of every hit point
under each reading of the system's rulings."""

from __future__ import annotations

import pytest

from calc import fight
from calc.errors import InputError
from calc.fight import rulings
from calc.fight import state as st
from calc.inputs import data
from tests.calc.fight_helpers import Fight

SYSTEMS = data.system_ids()


def ruling_choices(system: str) -> list[dict[str, str]]:
    """Each choice of each ruling of the fight, one at a time (the others at their default)."""
    out: list[dict[str, str]] = [{}]
    for decl in rulings.ruling_declarations(data.system(system)):
        if decl["type"] == "choice":
            out += [{decl["name"]: o["value"]} for o in decl["options"] if o["value"] != decl.get("default")]
    return out


def reached_floor(system: str, side: str) -> int:
    """The lowest hit points a blow of every hit point leaves a combatant of `side` at, under any ruling."""
    lows = []
    for options in ruling_choices(system):
        f = Fight(system, options)
        f.add("Victim", side, 10)
        f.damage("Victim", st.HEALTH_MAX)
        lows.append(f.who("Victim")["hp"])
    return min(lows)


def adding(system: str, side: str, hp: int, top: int = 10) -> dict:
    return fight.act(system, None, {"type": "add", "combatant": {"name": "A", "side": side, "max": top, "hp": hp}})


def test_countup_refuses_a_combatant_at_minus_30_naming_the_field_and_the_floor() -> None:
    with pytest.raises(InputError) as err:
        adding("countup", "pc", -30)
    assert err.value.input == "action.combatant.hp"
    assert "-10" in err.value.reason and "-30" in err.value.reason


@pytest.mark.parametrize("side", ["pc", "foe"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_hit_points_from_the_floor_the_rules_reach_to_the_maximum(system: str, side: str) -> None:
    low = reached_floor(system, side)
    assert adding(system, side, low)["state"]["combatants"][0]["hp"] == low
    assert adding(system, side, 10)["state"]["combatants"][0]["hp"] == 10
    for bad in (low - 1, 11):
        with pytest.raises(InputError) as err:
            adding(system, side, bad)
        assert err.value.input == "action.combatant.hp", err.value


def test_the_floors_are_the_texts() -> None:
    # countup and action-points: dead at −10; segments: −10 under the other reading of drop_at;
    # active-defense Down at 0 (no dying rules); phases: Wounds below 0 Hit Points
    assert {s: reached_floor(s, "pc") for s in SYSTEMS} == {
        "countup": -10,
        "action-points": -10,
        "segments": -10,
        "active-defense": 0,
        "phases": 0,
    }


def test_edit_refuses_hit_points_below_the_floor_and_a_lower_maximum_stops_at_it() -> None:
    f = Fight("countup")
    f.add("Hero", "pc", 10)
    with pytest.raises(InputError) as err:
        f.do("edit", id=f.ident("Hero"), changes={"hp": -30})
    assert err.value.input == "action.changes.hp"
    f.damage("Hero", 15)  # at −5
    f.do("edit", id=f.ident("Hero"), changes={"max": 2})  # 15 damage taken would be −13
    assert f.who("Hero")["hp"] == -10


def test_load_drops_a_combatant_below_the_floor_and_a_request_refuses_it() -> None:
    f = Fight("countup")
    f.add("Hero", "pc", 10)
    f.add("Orc", "foe", 10)
    saved = {**f.state, "combatants": [{**f.state["combatants"][0], "hp": -30}, f.state["combatants"][1]]}
    loaded = fight.act("countup", None, {"type": "load", "state": saved})
    assert [d["input"] for d in loaded["dropped"]] == ["combatants[1].hp"]
    assert [c["name"] for c in loaded["state"]["combatants"]] == ["Orc"]
    with pytest.raises(InputError) as err:
        fight.act("countup", saved, {"type": "view"})
    assert err.value.input == "combatants[1].hp"


def test_segments_load_drops_a_pending_d6_showing_2000() -> None:
    f = Fight("segments")
    f.add("Hero", "pc", 10)
    f.add("Orc", "foe", 10)
    f.do("next_round")
    die = next(d for d in f.view["pending"]["dice"] if d["key"] == "side:pc")
    assert die["max"] == 6
    saved = {**f.state, "pending": {**f.state["pending"], "rolls": {"side:pc": 2000, "side:foe": 3}}}
    loaded = fight.act("segments", None, {"type": "load", "state": saved})
    assert loaded["dropped"] == [{"input": "pending.rolls.side:pc", "message": "1d6 shows 1 to 6 (got 2000)"}]
    assert loaded["state"]["pending"]["rolls"] == {"side:foe": 3}
    with pytest.raises(InputError) as err:
        fight.act("segments", saved, {"type": "view"})
    assert err.value.input == "pending.rolls.side:pc"


def test_kept_initiative_faces_are_held_to_their_die() -> None:
    f = Fight("action-points")  # rolls once: round 1's faces are kept for every round
    f.add("Hero", "pc", 10)
    f.add("Orc", "foe", 10)
    f.round()
    key = next(iter(f.state["rolls"]))
    saved = {**f.state, "rolls": {**f.state["rolls"], key: 50}}
    loaded = fight.act("action-points", None, {"type": "load", "state": saved})
    assert [d["input"] for d in loaded["dropped"]] == [f"rolls.{key}"]
    assert "1d20 shows 1 to 20" in loaded["dropped"][0]["message"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_state_the_rules_reached_loads_whole(system: str) -> None:
    f = Fight(system, ruling_choices(system)[-1])
    f.add("Hero", "pc", 10)
    f.add("Orc", "foe", 10)
    f.round()
    f.damage("Orc", st.HEALTH_MAX)
    f.do("next_round")
    loaded = fight.act(system, None, {"type": "load", "state": f.state})
    assert loaded["dropped"] == [] and loaded["state"] == f.state
