"""The encounter tracker's fight, by each system's rules: given the fight's state (plain JSON,
kept by the browser with its undo stack) and one action, the new state and what to show.

`act(system_id, state, action)` → `{"state", "view", "steps"}` (`steps`: what the rules did, e.g.
"6 damage: 1 below 0 Hit Points: a Wound, Bleeding out"; `dropped` too for `load`). The system's
health rules are its engine's `FIGHT` (`calc.systems.contract.Fight`), found through the one
engine lookup; the round's order comes from `calc.turns.tracker`. The engine never rolls a die: the page
rolls them, or the GM types the table's dice. See CONTRIBUTING.md, "The fight".
"""

from __future__ import annotations

from typing import Any

from calc import evaluate, systems
from calc.errors import InputError
from calc.fight import before_turn, forecast_request, legacy, resolve, rulings
from calc.fight import state as st
from calc.fight.actions import ACTIONS
from calc.fight.view import view
from calc.inputs import data as data_mod
from calc.inputs import declared

__all__ = ["ACTIONS", "act", "before", "forecast"]


class Remembered:
    """The system's rules with each combatant's health worked out once per request (the order,
    the turns and the view all ask it; a combatant that changes is a new dict)."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules
        self._health: dict[int, tuple[dict, dict, dict]] = {}
        self.memo: dict[tuple, tuple[Any, Any]] = {}
        """Other answers worked out once a request (a round's dice), by the ids of what they
        depend on, each kept with those objects so that no id is reused meanwhile."""

    def health(self, c: dict[str, Any], data: Any, options: dict[str, Any]) -> dict[str, Any]:
        known = self._health.get(id(c))
        if known is None or known[0] is not c or known[1] is not options:
            known = (c, options, self._rules.health(c, data, options))
            self._health[id(c)] = known
        return known[2]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def act(system_id: str, state: Any, action: Any) -> dict[str, Any]:
    """Apply `action` to `state` (None: a new fight) of system `system_id`."""
    data = data_mod.system(system_id)
    rules = Remembered(systems.engine(system_id).FIGHT)
    if not isinstance(action, dict):
        raise InputError("action", "must be an object with a type")
    kind = action.get("type")
    if not isinstance(kind, str) or (kind not in ACTIONS and kind != "load"):
        raise InputError("action.type", f"must be one of {', '.join(sorted([*ACTIONS, 'load']))}")
    dropped: list[dict] = []
    if kind == "load":
        fight, dropped = st.checked(data, legacy.upgraded(action.get("state")), rules, lenient=True)
        kind = "view"
    elif state is None:
        fight = st.empty(system_id)
    else:
        fight, _ = st.checked(data, state, rules)
    options = rulings.typed_options(data, fight["options"])
    chosen = fight["options"]
    done = ACTIONS[kind](fight, action, data, rules, options)
    fight, steps = done if isinstance(done, tuple) else (done, [])
    if fight["options"] != chosen:
        options = rulings.typed_options(data, fight["options"])
    answer = {"state": fight, "view": view(fight, data, rules, options), "steps": steps}
    if action.get("type") == "load":
        answer["dropped"] = dropped
    return answer


def forecast(system_id: str, state: Any) -> dict[str, Any]:
    """The tracker's Forecast panel: the system's forecast calculator asked about `state` as it
    stands (`calc.fight.forecast_request`) → `{"request", "left_out", "result"}`; the forecast's
    own typed error (too many fighters, past its state bound) is raised as it is."""
    data = data_mod.system(system_id)
    rules = Remembered(systems.engine(system_id).FIGHT)
    fight, _ = st.checked(data, state, rules)
    options = rulings.typed_options(data, fight["options"])
    health = {c["id"]: rules.health(c, data, options) for c in fight["combatants"]}
    built = forecast_request.forecast_request(fight, data, options, health)
    if built is None:
        raise InputError("system", f"{data.name} has no fight forecast (no `forecast` calculator in its data)")
    return {**built, "result": evaluate(built["request"])}


def before(system_id: str, state: Any, attacker: Any, target: Any) -> dict[str, Any]:
    """The acting combatant's odds card: the chance `target` drops before it acts again, every foe
    of it who acts before its next turn attacking it (`calc.fight.before_turn`)."""
    data = data_mod.system(system_id)
    rules = Remembered(systems.engine(system_id).FIGHT)
    fight, _ = st.checked(data, state, rules)
    options = rulings.typed_options(data, fight["options"])
    health = {c["id"]: rules.health(c, data, options) for c in fight["combatants"]}
    if fight["turn"] >= len(fight["order"]) or fight["order"][fight["turn"]]["id"] != attacker:
        raise InputError("attacker", "is not the combatant whose turn it is")
    if not isinstance(target, str):  # an id is text (str() of a huge number would raise)
        raise InputError("target", f"must be the id of a combatant (got {declared.shown(target)})")
    now = resolve.standing(fight, data, rules)
    return before_turn.before_turn(fight, data, options, health, target, now)
