"""The turn's action economy (calc/fight/economy.py), as each system's text has it: action-points'
3 AP a turn spent on actions of the text's costs, countup's one Primary (attacks at the attack
rate) and one Secondary Action; an attack with no `kind` follows the fighter values' plan, the
n-th attack at its own damage rule; what is left is in the view; `spent` and `held` are checked
like every other field of a saved state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from calc import fight as engine
from calc.errors import InputError
from calc.fight import economy
from calc.inputs import data as data_mod
from macros.check import loader
from tests.calc.fight_helpers import Fight


def do(f: Fight, action: str, /, **fields: Any) -> Fight:
    """`Fight.do` with a `kind` field (the helper's first argument has that name)."""
    answer = engine.act(f.system, f.state, {"type": action, **fields})
    f.state, f.view, f.steps = answer["state"], answer["view"], answer["steps"]
    return f


def duel(system: str, mine: dict[str, Any], theirs: dict[str, Any] | None = None) -> tuple[Fight, str, str]:
    """Ann (PC) against a sturdy Orc, the first round started: (fight, who acts, the other)."""
    f = Fight(system)
    a = f.add("Ann", "pc", 60, **mine)
    o = f.add("Orc", "foe", 200, **(theirs or {}))
    f.round({}, 10)
    cur = f.view["current"]
    return f, cur, (o if cur == a else a)


def refused(f: Fight, action: str, /, **fields: Any) -> InputError:
    before = f.state
    with pytest.raises(InputError) as err:
        do(f, action, **fields)
    assert f.state is before
    return err.value


# --- action-points: 3 AP, each action at its type's cost (text lines 19-29 and the common actions) --------------

AP_TEXT_COSTS = {  # the text's table: fast 1, standard 2, slow 3, each action's type from its section
    "standard": 2, "quick": 1, "power": 3, "charge": 3, "standard_defense": 2, "quick_defense": 1,
    "move": 2, "run": 3, "step": 1, "spell": 1,
}  # fmt: skip


@pytest.mark.parametrize("kind", list(AP_TEXT_COSTS))
def test_action_points_each_action_costs_its_type_from_the_three_ap_of_a_turn(kind: str) -> None:
    f, me, foe = duel("action-points", {"standard": 0, "quick": 0})
    cost = AP_TEXT_COSTS[kind]
    row = next(r for r in f.view["actions"]["actions"] if r["kind"] == kind)
    assert row["cost"] == {"ap": cost} and row["allowed"]
    attack = row["attack"]
    if attack:
        do(f, "attack", id=me, target=foe, roll=1, kind=kind)  # a miss spends the action as well
    else:
        do(f, "act", id=me, kind=kind)
    assert f.view["actions"]["left"] == [{"pool": "ap", "label": "AP", "amount": 3, "left": 3 - cost}]
    assert f.view["actions"]["text"] == f"{3 - cost} AP left"
    for other, price in AP_TEXT_COSTS.items():
        row = next(r for r in f.view["actions"]["actions"] if r["kind"] == other)
        if price > 3 - cost:
            assert not row["allowed"]
            err = refused(f, "attack" if row["attack"] else "act", id=me, target=foe, roll=1, kind=other)
            assert err.input == "action.kind" and err.reason == row["why"]
            if other != kind or kind not in ("standard_defense", "step"):  # else its limit speaks first
                assert f"costs {price} (Spending action points)" in err.reason
        else:
            assert row["allowed"] or other in ("standard_defense", "step") and other == kind


def test_action_points_a_fourth_quick_attack_and_a_third_attack_after_standard_and_quick_are_refused() -> None:
    f, me, foe = duel("action-points", {"standard": 0, "quick": 3})
    for _ in range(3):
        do(f, "attack", id=me, target=foe, roll=1)
    err = refused(f, "attack", id=me, target=foe, roll=1, kind="quick")
    name = next(c["name"] for c in f.state["combatants"] if c["id"] == me)
    assert err.reason == (
        f"{name} has made the 3 attacks of its Quick attack and has no AP left this turn: Quick attack costs 1 "
        "(Spending action points)"
    )
    f2, me2, foe2 = duel("action-points", {"standard": 1, "quick": 1})  # the defaults: 2 + 1 AP
    do(f2, "attack", id=me2, target=foe2, roll=1)
    do(f2, "attack", id=me2, target=foe2, roll=1)
    assert "0 AP left" in f2.steps[0]["text"]
    err = refused(f2, "attack", id=me2, target=foe2, roll=1)
    assert "has made the attacks its turn plans (1 × Standard attack, 1 × Quick attack)" in err.reason


def test_action_points_a_step_once_a_turn_a_standard_defense_once_a_round() -> None:
    f, me, _ = duel("action-points", {})
    do(f, "act", id=me, kind="step")
    err = refused(f, "act", id=me, kind="step")
    assert "1 a turn (5-foot step)" in err.reason
    do(f, "act", id=me, kind="standard_defense")
    assert f.view["actions"]["left"][0]["left"] == 0
    assert f.state["held"] == {me: {"standard_defense": 1}}  # until its next turn
    do(f, "next_turn")
    assert f.state["held"] == {me: {"standard_defense": 1}}
    f.round({}, 10)  # its next turn begins: the defense ends, the AP come back
    while f.view["current"] != me:
        do(f, "next_turn")
    assert f.state["held"] == {} and f.view["actions"]["left"][0]["left"] == 3


def test_a_turn_is_its_combatants_and_kinds_are_the_datas() -> None:
    f, me, foe = duel("action-points", {})
    err = refused(f, "attack", id=foe, target=me, roll=10, damage=1)
    name = next(c["name"] for c in f.state["combatants"] if c["id"] == me)
    assert err.input == "action.id" and err.reason.startswith(f"it is {name}'s turn: ")
    assert err.reason.endswith("acts on its own turn (Spending action points)")
    assert refused(f, "act", id=foe, kind="move").input == "action.id"
    assert "is an attack" in refused(f, "act", id=me, kind="quick").reason
    assert "makes no attack" in refused(f, "attack", id=me, target=foe, roll=10, kind="move").reason
    assert "must be one of the turn's actions" in refused(f, "act", id=me, kind="dance").reason


def test_next_turn_and_a_new_round_start_the_turn_with_nothing_spent() -> None:
    f, me, foe = duel("action-points", {})
    do(f, "act", id=me, kind="move")
    assert f.state["spent"]["actions"] == {"move": 1}
    do(f, "next_turn")
    assert f.state["spent"]["id"] == foe and f.state["spent"]["actions"] == {}
    assert f.view["actions"]["text"] == "3 AP left"


def test_outside_a_round_an_attack_is_not_counted() -> None:
    f = Fight("action-points")
    a, o = f.add("Ann", "pc", 20), f.add("Orc", "foe", 40)
    for _ in range(5):
        do(f, "attack", id=a, target=o, roll=1)
    assert f.state["spent"] is None and f.view["actions"] is None


# --- the n-th attack of a turn at the n-th planned attack's damage rule --------------------------------


def test_action_points_the_nth_attack_is_the_plans_nth_with_its_own_damage_rule() -> None:
    weapon = {"standard": 0, "quick": 1, "power": 0}
    f, me, foe = duel("action-points", {**weapon}, {"defense": 5})
    hp = next(c for c in f.state["combatants"] if c["id"] == foe)["hp"]
    do(f, "attack", id=me, target=foe, roll=15)  # quick: minimum damage, no dice asked
    quick = hp - next(c for c in f.state["combatants"] if c["id"] == foe)["hp"]
    assert "quick attack" in f.steps[0]["text"] and quick >= 1
    f2, me2, foe2 = duel("action-points", {"standard": 0, "quick": 0, "power": 1}, {"defense": 5})
    with pytest.raises(InputError) as err:  # a power attack rolls the dice twice
        do(f2, "attack", id=me2, target=foe2, roll=15, faces=[1])
    assert err.value.input == "action.faces"
    do(f2, "attack", id=me2, target=foe2, roll=15, faces=[1, 1])
    power_least = 200 - next(c for c in f2.state["combatants"] if c["id"] == foe2)["hp"]
    assert "power attack" in f2.steps[0]["text"]
    assert power_least == quick + 1  # the two least dice deal one more than a single least die


# --- the view and the state ------------------------------------------------------------------------------


def test_the_view_lists_what_is_left_and_why_the_rest_is_refused() -> None:
    f, me, foe = duel("action-points", {"standard": 1, "quick": 0})
    do(f, "attack", id=me, target=foe, roll=1)
    v = f.view["actions"]
    assert v["id"] == me and v["text"] == "1 AP left" and v["target"] == foe and v["attacks_left"] == 0
    rows = {r["kind"]: r for r in v["actions"]}
    assert rows["quick"]["allowed"] and not rows["standard"]["allowed"] and rows["standard"]["taken"] == 1
    assert rows["power"]["why"] == "Ann has only 1 AP left this turn: Power attack costs 3 (Spending action points)"
    assert v["next"] is None  # the plan is made: a Resolve names its kind


def test_a_saved_spent_round_trips_and_a_bad_one_is_refused_or_dropped_by_name() -> None:
    f, me, foe = duel("action-points", {})
    do(f, "act", id=me, kind="quick_defense")
    do(f, "attack", id=me, target=foe, roll=1)
    saved = json.loads(json.dumps(f.state))
    again = engine.act("action-points", None, {"type": "load", "state": saved})
    assert again["state"] == f.state and again["dropped"] == []
    assert engine.act("action-points", saved, {"type": "view"})["view"]["actions"] == f.view["actions"]
    for bad, where in (
        ({"actions": {"dance": 1}}, "spent.actions"),
        ({"actions": {"power": 2}}, "spent.actions"),  # 6 AP of a turn's 3
        ({"actions": {"step": 2}}, "spent.actions.step"),
        ({"attacks": {"quick": 2}}, "spent.attacks.quick"),
        ({"id": "c99"}, "spent.id"),
        ({"round": "two"}, "spent.round"),
        ({"target": 7}, "spent.target"),
    ):
        broken = {**saved, "spent": {**saved["spent"], **bad}}
        with pytest.raises(InputError) as err:
            engine.act("action-points", broken, {"type": "view"})
        assert err.value.input == where
        loaded = engine.act("action-points", None, {"type": "load", "state": broken})
        assert loaded["state"]["spent"] is None and [d["input"] for d in loaded["dropped"]] == [where]
    broken = {**saved, "held": {me: {"move": 1}}}  # a move holds nothing past the turn
    loaded = engine.act("action-points", None, {"type": "load", "state": broken})
    assert loaded["state"]["held"] == {} and loaded["dropped"][0]["input"] == "held." + me


def test_a_system_without_a_turn_declaration_spends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(economy, "declaration", lambda data: None)  # a tracker with no `turn:` (all five have one)
    f = Fight("active-defense")
    a, o = f.add("Ann", "pc", 20), f.add("Orc", "foe", 20)
    f.round({}, 10)
    assert f.view["actions"] is None and f.state["spent"] is None
    saved = {**f.state, "spent": {"round": 1, "turn": 0, "id": a, "actions": {}, "attacks": {}, "target": o}}
    with pytest.raises(InputError) as err:
        engine.act("active-defense", saved, {"type": "view"})
    assert err.value.input == "spent"


# --- the data: the schema and the cross-checks name file, line and field --------------------------------

GOOD = Path(__file__).parent.parent / "data" / "fixtures" / "good"
TURN = """  turn:
    rule: attack
    pools:
      - {id: ap, label: AP, amount: attack.reach, rule: attack}
    actions:
      - {kind: hit, label: Hit, rule: attack, cost: {ap: 2}, attacks: 1}
"""


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "amount: attack.reach",
            "amount: attack.rech",
            "tracker.turn.pools[0].amount: rule 'attack' has no fact 'rech'",
        ),
        ("cost: {ap: 2}", "cost: {mp: 2}", "tracker.turn.actions[0].cost.mp: no pool 'mp'"),
        ("rule: attack, cost", "rule: atack, cost", "tracker.turn.actions[0].rule: no rule 'atack'"),
        ("attacks: 1}", "attacks: rate}", "tracker.turn.actions[0].attacks: 'rate' is no fighter value"),
        ("cost: {ap: 2}", "cost: {ap: two}", "tracker.turn.actions[0].cost.ap"),
        (
            "attacks: 1}",
            "attacks: 1, enters: fled}",
            "tracker.turn.actions[0].enters: enters 'fled', but the tracker declares no fled state",
        ),
    ],
)
def test_bad_turn_data_fails_the_build_naming_file_line_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    shutil.copytree(GOOD, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "rules_data" / "countup" / "calculators.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = "    - {calculator: hit, input: ac}\n"
    assert text.count(anchor) == 1
    path.write_text(text.replace(anchor, anchor + TURN), encoding="utf-8")
    assert [str(p) for p in loader.load(tmp_path).problems] == []
    path.write_text(text.replace(anchor, anchor + TURN.replace(old, new)), encoding="utf-8")
    found = [str(p) for p in loader.load(tmp_path).problems]
    assert len(found) == 1 and "rules_data/countup/calculators.yaml:" in found[0] and expected in found[0]


def test_the_shipped_turns_take_their_numbers_from_the_texts_facts() -> None:
    ap = data_mod.system("action-points")
    assert ap.fact("action-points-per-turn", "ap_gained") == 3
    cu = data_mod.system("countup")
    assert (cu.fact("actions", "primary_per_turn"), cu.fact("actions", "secondary_per_turn")) == (1, 1)


def test_the_odds_dice_are_the_next_attacks_so_a_quick_attack_asks_none() -> None:
    f, me, foe = duel("action-points", {"standard": 1, "quick": 1})
    dice = {t["id"]: t["resolve"]["dice"] for t in f.view["odds"]["targets"] if "resolve" in t}
    assert dice[foe] == "1d8" and f.view["actions"]["next"] == "standard"
    do(f, "attack", id=me, target=foe, roll=15, faces=[3])
    dice = {t["id"]: t["resolve"]["dice"] for t in f.view["odds"]["targets"] if "resolve" in t}
    assert dice[foe] is None and f.view["actions"]["next"] == "quick"
    do(f, "attack", id=me, target=foe, roll=15)  # one tap: nothing else to roll
    assert "(quick attack)" in f.steps[0]["text"] and "0 AP left" in f.steps[0]["text"]


def test_a_round_pool_with_no_fight_rules_counting_it_is_a_data_error() -> None:
    """A `per: round` pool is counted by its system's fight rules (active-defense's complex actions);
    the plain hit-point rules count none, and say so rather than counting nothing."""
    from calc.errors import DataError
    from calc.fight.hit_points import HitPointRules

    countup = data_mod.system("countup")
    pool = {"id": "complex", "label": "complex action", "amount": 1, "rule": "attack", "per": "round"}
    with pytest.raises(DataError):
        HitPointRules().round_pool({"id": "c1"}, pool, countup)
    with pytest.raises(DataError):
        HitPointRules().round_spend({"id": "c1"}, pool, 1, countup)


@pytest.mark.parametrize(
    ("system", "mine", "kinds", "done"),
    [
        ("countup", {"attacks": 1}, [], True),  # the Primary's attack made: a Secondary move changes nothing
        ("action-points", {"standard": 1, "quick": 0}, [], False),  # 1 AP left: a quick attack or defense
        ("action-points", {"standard": 1, "quick": 1}, ["quick"], True),  # 3 AP spent
    ],
)
def test_a_turn_is_done_once_nothing_left_can_change_the_fight(
    system: str, mine: dict[str, Any], kinds: list[str], done: bool
) -> None:
    f, me, foe = duel(system, mine)
    assert f.view["actions"]["done"] is False  # an attack to make
    do(f, "attack", id=me, target=foe, roll=1, faces=[1])
    for kind in kinds:
        do(f, "attack", id=me, target=foe, roll=1, faces=[1], kind=kind)
    assert f.view["actions"]["done"] is done, f.view["actions"]
