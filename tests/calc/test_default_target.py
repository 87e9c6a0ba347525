"""The acting combatant's default target (issue #35 item 2, calc/fight/aim.py): the one it last
attacked while that one still stands, else the first its side's focus fire picks (the forecast's
`*_targets` policy: lowest hit points first by default) among the enemies that stand; never an
ally, never a downed, dead or fled one. The state's `last_target` is checked like any other field."""

from __future__ import annotations

import pytest

from calc import fight as engine
from calc.errors import InputError
from calc.fight import aim
from calc.inputs import data as data_mod
from tests.calc.fight_helpers import Fight

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
PEOPLE = [("Ann", "pc", 20), ("Bob", "pc", 14), ("Orc", "foe", 15), ("Gob", "foe", 7), ("Ogre", "foe", 30)]


def started(system: str) -> Fight:
    f = Fight(system)
    for name, side, hp in PEOPLE:
        f.add(name, side, hp)
    f.round({}, 10)
    return f


def acting(f: Fight) -> dict:
    return f.who(f.current() or "")


def turn_of(f: Fight, name: str) -> None:
    """Next turn until `name` acts (a new round if its turn is gone)."""
    for _ in range(40):
        if f.current() == name:
            return
        if f.view["current"] is None:
            f.round({}, 10)
        else:
            f.do("next_turn")
    raise AssertionError(f"{name} never acts")


def scratch(f: Fight, who: str, target: str) -> None:
    """`who` attacks `target` for 1 damage at most: a roll of 1, or the turn's kept roll where the
    rules make a roll of the round the attack's (phases' phase roll: the view's `actions.roll`)."""
    kept = (f.view.get("actions") or {}).get("roll")
    f.do("attack", id=who, target=target, roll=1 if kept is None else kept, damage=1)


def standing_enemies(f: Fight, who: dict) -> dict[str, int]:
    return {c["id"]: c["hp"] for c in f.view["combatants"] if c["side"] != who["side"] and c["acts"]}


@pytest.mark.parametrize("system", SYSTEMS)
def test_with_no_last_target_the_default_is_the_standing_enemy_its_side_attacks_first(system: str) -> None:
    f = started(system)
    for _ in range(len(PEOPLE)):
        me = acting(f)
        odds = f.view["odds"]
        foes = standing_enemies(f, me)
        assert aim.policy(data_mod.system(system), {}, me["side"]) == "lowest-hp"
        assert odds["default_target"] == min(foes, key=lambda i: foes[i])  # the lowest hit points first
        assert odds["target"] == odds["default_target"]
        f.do("next_turn")
        if f.view["current"] is None:
            break


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_last_target_stays_the_default_while_it_stands_then_focus_fire_again(system: str) -> None:
    f = started(system)
    turn_of(f, "Ann")
    ann, ogre = f.ident("Ann"), f.ident("Ogre")
    scratch(f, ann, ogre)  # a miss or a scratch: Ogre stands
    assert f.state["last_target"] == {ann: ogre}
    assert f.view["odds"]["default_target"] == ogre
    f.do("next_turn")
    turn_of(f, "Ann")  # its next turn, the next round
    assert f.view["odds"]["default_target"] == ogre
    f.damage("Ogre", 500)  # down, dead or out: no longer standing
    assert not f.who("Ogre")["acts"]
    default = f.view["odds"]["default_target"]
    assert default == min(standing_enemies(f, f.who("Ann")).items(), key=lambda kv: kv[1])[0]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_default_is_never_an_ally_nor_a_downed_or_fled_one(system: str) -> None:
    f = started(system)
    turn_of(f, "Ann")
    f.damage("Gob", 500)
    f.damage("Orc", 500)
    if f.who("Ogre").get("fled") is False:  # the rules name a Fled state: Ogre flees, nobody stands
        f.do("flee", id=f.ident("Ogre"))
        assert f.view["odds"]["default_target"] is None
        f.do("return", id=f.ident("Ogre"))
    assert f.view["odds"]["default_target"] == f.ident("Ogre")  # the one enemy standing
    f.damage("Ogre", 500)
    assert f.view["odds"]["default_target"] is None  # no enemy stands: nothing preselected


def test_an_ally_attacked_on_purpose_stays_the_default_while_it_stands() -> None:
    """The GM's own pick wins over focus fire: the last target is whoever was attacked."""
    f = started("countup")
    turn_of(f, "Ann")
    bob = f.ident("Bob")
    scratch(f, f.ident("Ann"), bob)
    assert f.view["odds"]["default_target"] == bob


def test_the_listed_policy_takes_the_first_standing_enemy_in_the_fights_order() -> None:
    f = started("countup")
    me = acting(f)
    foes = [c["id"] for c in f.view["combatants"] if c["side"] != me["side"] and c["acts"]]
    targets = f.view["odds"]["targets"]
    acts = {c["id"]: c["acts"] for c in f.view["combatants"]}
    options = {aim.POLICY_INPUT[me["side"]]: "listed"}
    assert aim.default_target(f.state, me, targets, acts, data_mod.system("countup"), options) == foes[0]


def test_removing_a_combatant_drops_it_from_the_last_targets() -> None:
    f = started("countup")
    turn_of(f, "Ann")
    scratch(f, f.ident("Ann"), f.ident("Ogre"))
    f.do("remove", id=f.ident("Ogre"))
    assert f.state["last_target"] == {}
    f.do("next_turn")  # the state still reads whole


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ("Ogre", "last_target"),
        ({"c1": "c99"}, "last_target.c1"),
        ({"c99": "c1"}, "last_target.c99"),
        ({"c1": "c1"}, "last_target.c1"),
        ({"c1": 3}, "last_target.c1"),
    ],
)
def test_a_bad_last_target_is_refused_naming_it_and_dropped_by_a_lenient_load(bad: object, field: str) -> None:
    f = started("countup")
    state = {**f.state, "last_target": bad}
    with pytest.raises(InputError) as err:
        engine.act("countup", state, {"type": "view"})
    assert err.value.input == field
    loaded = engine.act("countup", None, {"type": "load", "state": state})
    assert loaded["state"]["last_target"] == {}
    assert [d["input"] for d in loaded["dropped"]] == [field]
