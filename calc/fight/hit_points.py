"""Health by hit points alone, as the data's `tracker.states` name it (countup, segments,
action-points and active-defense build on it; phases, with its Wounds, has its own).

A state (`{label, rule, fact, when, value, side?, acts?, unless?}`, gravest first) applies to a
combatant whose hit points are `within` the fact's range, `below` or `at-or-below` its number, on
its `side` if it names one, unless the combatant's boolean field `unless` is set. The first that applies is
the combatant's state; `acts` says whether the rules still let it act (Hurt: yes; Down, Dying,
Dead: no); `final` that the text makes it final (countup's and action-points' Dead: healing is
refused, the GM corrects a mistake by editing the hit points). Hit points go no lower than the
lowest state that can apply (0 when none is below 0).

Fled (the data's `tracker.fled`, `{label, rule}`: phases' morale, segments' Flee): a combatant that
has fled is out of the fight, neither acting nor a target, until the GM brings it back
(`calc.fight.fled`); a final state (Dead) still shows over it.
"""

from __future__ import annotations

from typing import Any

from calc.errors import DataError, InputError
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker


class HitPointRules:
    """A system's fight rules when its hit points alone say how a combatant fares."""

    ROUND_VALUES: tuple[tuple[str, str, str], ...] = ()
    """(input, the combatant's key counting those spent this round, rule id) of each value a
    combatant spends within a round and holds afresh as the next starts (`standing` gives what is
    left): none here. The odds' attacks counted across a round's end meet them apart
    (calc/fight/before_turn.py); the forecast request carries the count (forecast_request.py)."""

    def check_extra(self, raw: Any, where: str, data: SystemData) -> dict[str, Any]:
        """The system's own keys of a combatant, read from a state (here: `fled`, where declared)."""
        return self.fled_extra(raw, where, data)

    # --- fled ---------------------------------------------------------------------------------
    def fled_extra(self, raw: Any, where: str, data: SystemData) -> dict[str, Any]:
        """`{"fled": bool}` where the system declares a fled state (a saved fight without it: not
        fled), else nothing: a combatant of a system that has none never carries the key."""
        if not fled_state(data):
            return {}
        fled = raw.get("fled", False)
        if not isinstance(fled, bool):
            raise InputError(f"{where}.fled", "must be true or false")
        return {"fled": fled}

    def fled_health(self, c: dict[str, Any], data: SystemData) -> dict[str, Any] | None:
        """The Fled state of `c` when it has fled (None otherwise): it does not act, and `fled`
        keeps it out of the targets."""
        spec = fled_state(data)
        if not spec or not c.get("fled"):
            return None
        rule = data.rule(spec["rule"])
        said = f"Fled: out of the fight, no turns and no target, until the GM brings it back. {rule['summary']}"
        return {
            "state": spec["label"],
            "rule": spec["rule"],
            "title": rule["title"],
            "url": rule["url"],
            "acts": False,
            "fled": True,
            "effects": [said],
        }

    def side_values(self, side: str) -> dict[str, Any]:
        """Field values a combatant of `side` has when they are not given (none here)."""
        return {}

    def shown_extra(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        """What the view shows of the system's own keys (here: `fled`, where declared)."""
        return {"fled": c["fled"]} if "fled" in c else {}

    def fresh(self, c: dict[str, Any]) -> dict[str, Any]:
        """The combatant at full health (and back if it fled), for a new fight that keeps the roster."""
        return {**c, "hp": c["max"], "tags": [], **({"fled": False} if "fled" in c else {})}

    def standing(self, c: dict[str, Any], data: SystemData) -> dict[str, Any]:
        """The combatant with its values as they stand in this round (here: as carried)."""
        return c

    def holding(
        self, c: dict[str, Any], held: dict[str, Any], data: SystemData, options: dict[str, Any]
    ) -> dict[str, Any]:
        """`c` as a target while it holds the turn's actions `held` (`{kind: count | [face, ...]}`,
        calc/fight/economy.py) until its next turn (calc/fight/fighter.py `holding`): here as carried."""
        return c

    def spend_reserve(self, c: dict[str, Any], data: SystemData) -> tuple[dict[str, Any], list[dict]]:
        """A reserve action spent on a defence: no system here holds any."""
        raise InputError("action.target", f"{data.name} has no reserve actions to spend")

    def round_pool(self, c: dict[str, Any], pool: dict[str, Any], data: SystemData) -> tuple[int, int]:
        """What `c` holds of a `per: round` pool of the turn and has spent (calc/fight/economy.py): a
        system that declares one counts it in its own rules (active-defense's complex actions)."""
        raise DataError(f"{data.id}: the turn's round pool '{pool['id']}' has no fight rules counting it")

    def round_spend(self, c: dict[str, Any], pool: dict[str, Any], n: int, data: SystemData) -> dict[str, Any]:
        """`c` with `n` more of a `per: round` pool spent (see `round_pool`)."""
        raise DataError(f"{data.id}: the turn's round pool '{pool['id']}' has no fight rules counting it")

    # --- health -------------------------------------------------------------------------------
    def states(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> list[dict[str, Any]]:
        """The data's states that can apply to `c` under the chosen rulings."""
        out = []
        for s in tracker(data).get("states", []):
            if s.get("side") and s["side"] != c["side"]:
                continue
            if s.get("unless") and c["values"].get(s["unless"]):
                continue
            out.append(s)
        return out

    def floor(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> int:
        """The lowest hit points the rules count for `c`."""
        lows = [_lowest(s) for s in self.states(c, data, options)]
        return min([0, *lows])

    def lowest(self, c: dict[str, Any], data: SystemData) -> int:
        """The lowest hit points the rules bring `c` to under any ruling: a combatant added, edited
        or loaded below it is one no damage reaches (countup's −30, under Dead at −10). No ruling
        moves the floor here."""
        return self.floor(c, data, {})

    def health(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        """`{"state": label or "", "rule": id or "", "url", "title", "acts": bool, "effects": [text],
        "final"?: true (healing does not lift it), "fled"?: true (out of the fight)}`."""
        hp = c["hp"]
        for s in self.states(c, data, options):
            if _holds(s, hp):
                if not s.get("final"):
                    fled = self.fled_health(c, data)
                    if fled:
                        return fled
                rule = data.rule(s["rule"])
                return {
                    "state": s["label"],
                    "rule": s["rule"],
                    "title": rule["title"],
                    "url": rule["url"],
                    "acts": bool(s.get("acts", False)),
                    "effects": [rule["summary"]] if s.get("acts") else [],
                    **({"final": True} if s.get("final") else {}),
                }
        fled = self.fled_health(c, data)
        if fled:
            return fled
        return {"state": "", "rule": "", "title": "", "url": "", "acts": True, "effects": []}

    # --- changes ------------------------------------------------------------------------------
    def damage(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any], critical: bool, round_no: int
    ) -> tuple[dict[str, Any], list[dict]]:
        """`c` after `amount` damage, and the steps that say why (hit points stop at the floor)."""
        low = self.floor(c, data, options)
        if c["hp"] <= low:
            raise InputError("action.amount", f"{c['name']} is at {c['hp']} hit points: the lowest the rules count")
        hp = max(low, c["hp"] - amount)
        return {**c, "hp": hp}, []

    def heal(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        """`c` after `amount` healing, up to its maximum; refused when its state is final (the
        dead stay dead where the text says so)."""
        refuse_final(c, self.health(c, data, options))
        return {**c, "hp": min(c["max"], c["hp"] + amount)}, []

    # --- rounds -------------------------------------------------------------------------------
    def round_dice(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> list[dict]:
        """Dice `c` rolls as a round starts, beyond initiative (action-points' dying check)."""
        return []

    def due_dice(self, people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> dict:
        """Optional dice the rules call for in round `round_no` (phases' morale roll), by key: the
        step that says why."""
        return {}

    def start_round(
        self, c: dict[str, Any], rolls: dict[str, int], round_no: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        """`c` as round `round_no` starts, with the steps that say what happened."""
        return c, []

    def acts_in(self, c: dict[str, Any], data: SystemData) -> list[str] | None:
        """The phases `c` declared to act in this round (phases), or None: the system has no phases."""
        return None

    def declaration(self, c: dict[str, Any], data: SystemData) -> list[dict[str, Any]]:
        """This round's declaration as the card offers it: each field that applies now (a
        declaration: name, label, type, options…) with its `value`, kept from the last round
        until changed (`declare`); [] in a system that declares nothing."""
        return []

    def declare(self, c: dict[str, Any], raw: Any, data: SystemData) -> dict[str, Any]:
        """`c` with this round's declaration (phases, segments); other systems have none to make."""
        raise InputError("action.type", f"{data.name} has no declarations to make")

    def special(self, action: dict[str, Any], c: dict[str, Any], data: SystemData, options: dict) -> dict[str, Any]:
        """A system's own action on one combatant (stabilize, remove_wound)."""
        raise InputError("action.type", f"'{action.get('type')}' is no action of {data.name}'s fights")


def fled_state(data: SystemData) -> dict[str, Any] | None:
    """The system's declared fled state (`tracker.fled`: `{label, rule}`), or None: it has none."""
    return tracker(data).get("fled")


def refuse_final(c: dict[str, Any], health: dict[str, Any]) -> None:
    """Refuse healing a combatant whose state is final, in the GM's words, naming the rule."""
    if health.get("final"):
        raise InputError(
            "action.id",
            f"{c['name']} is {health['state'].lower()}: healing does not bring the dead back ({health['title']}); "
            "to correct a mistake, edit its hit points",
        )


def _lowest(s: dict[str, Any]) -> int:
    if s["when"] == "within":
        return int(s["value"]["min"])
    if s["when"] == "below":
        return int(s["value"]) - 1
    return int(s["value"])


def _holds(s: dict[str, Any], hp: int) -> bool:
    if s["when"] == "within":
        return bool(s["value"]["min"] <= hp <= s["value"]["max"])
    if s["when"] == "below":
        return bool(hp < s["value"])
    return bool(hp <= s["value"])
