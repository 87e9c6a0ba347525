"""Random fights (Hypothesis): any sequence of actions, in every system, either answers or is
refused with an `InputError` naming a field, and every answer keeps the fight's invariants: the
state reads back whole, hit points lie between the floor and the maximum, the current turn is
one whom the rules let act, the dice of a pending round are within their dice."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc import fight
from calc.errors import InputError

SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]

ACTIONS = st.one_of(
    st.tuples(st.just("damage"), st.integers(1, 4), st.integers(1, 15), st.booleans()),
    st.tuples(st.just("heal"), st.integers(1, 4), st.integers(1, 15)),
    st.tuples(st.just("next_turn")),
    st.tuples(st.just("previous_turn")),
    st.tuples(st.just("round"), st.integers(0, 50)),
    st.tuples(st.just("stabilize"), st.integers(1, 4)),
    st.tuples(
        st.just("declare"), st.integers(1, 4), st.booleans(), st.sampled_from(["melee", "ranged", "spell", "none"])
    ),
    st.tuples(st.just("remove"), st.integers(1, 4)),
)


def _action(step: tuple, state: dict) -> list[dict]:
    """The requests one random step sends (a round: next_round, then its dice, then start)."""
    kind = step[0]
    if kind == "damage":
        return [{"type": "damage", "id": f"c{step[1]}", "amount": step[2], "critical": step[3]}]
    if kind == "heal":
        return [{"type": "heal", "id": f"c{step[1]}", "amount": step[2]}]
    if kind in ("stabilize", "remove"):
        return [{"type": kind, "id": f"c{step[1]}"}]
    if kind == "declare":
        return [{"type": "declare", "id": f"c{step[1]}", "declaration": {"move": step[2], "action": step[3]}}]
    if kind == "round":
        return [{"type": "next_round", "salt": step[1]}]
    return [{"type": kind}]


def _check(answer: dict, system: str, moved: bool = False) -> None:
    """`moved`: the answer to next_turn or start_round, whose current turn is one who acts (a
    combatant who drops during its own turn keeps it until the GM moves on)."""
    state, view = answer["state"], answer["view"]
    again = fight.act(system, None, {"type": "load", "state": json.loads(json.dumps(state))})
    assert again["dropped"] == [] and again["state"] == state
    for c in view["combatants"]:
        assert c["floor"] <= c["hp"] <= c["max"] or c["hp"] == c["floor"]
    assert 0 <= view["turn"] <= len(view["order"])
    if moved and view["current"] is not None:
        assert next(c for c in view["combatants"] if c["id"] == view["current"])["acts"]
    for d in (view["pending"] or {}).get("dice", []):
        assert d["value"] is None or d["min"] <= d["value"] <= d["max"]


@pytest.mark.parametrize("system", SYSTEMS)
@settings(max_examples=60)
@given(steps=st.lists(ACTIONS, min_size=1, max_size=12))
def test_any_sequence_of_actions_keeps_the_fight_whole(system: str, steps: list[tuple]) -> None:
    answer = fight.act(system, None, {"type": "view"})
    for name, side, hp in [("A", "pc", 6), ("B", "pc", 3), ("C", "foe", 5), ("D", "foe", 1)]:
        values = {"hd": 1} if system == "phases" and side == "foe" else {}
        combatant = {"name": name, "side": side, "max": hp, "values": values}
        answer = fight.act(system, answer["state"], {"type": "add", "combatant": combatant})
    steps = [("round", 0), *steps]  # most sequences then act within a round
    for step in steps:
        for action in _action(step, answer["state"]):
            salt = action.pop("salt", 0)
            try:
                answer = fight.act(system, answer["state"], action)
            except InputError as err:
                assert err.input and err.reason
                continue
            started = action["type"] == "next_round" and answer["view"]["pending"] is None
            _check(answer, system, moved=action["type"] == "next_turn" or started)
            pending = answer["view"]["pending"]
            while pending is not None:  # roll every die asked (a tie's re-rolls too) and start
                rolls = {
                    d["key"]: d["min"] + (salt + i * 7) % (d["max"] - d["min"] + 1)
                    for i, d in enumerate(pending["dice"])
                    if d["value"] is None and not d["optional"]
                }
                try:
                    answer = fight.act(system, answer["state"], {"type": "start_round", "rolls": rolls})
                except InputError as err:
                    assert err.input and err.reason
                    answer = fight.act(system, answer["state"], {"type": "cancel_round"})
                _check(answer, system, moved=answer["view"]["pending"] is None)
                pending = answer["view"]["pending"]
                salt += 1
