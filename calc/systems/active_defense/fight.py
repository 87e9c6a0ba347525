"""Active Defense's fight: health by hit points alone, as the data's `tracker.states` say: Down
at 0 (the site's ruling: the chapter has no rules for dying).

Reserve actions: a combatant "is considered to be holding all of his allotment of complex actions
for a given round in reserve until the start of his turn" (reserve-actions): a block or dodge
spends one, before its turn or after it; on its turn the complex actions left pay for its attack,
its off-hand attack or its feint (the turn's `complex` pool, `per: round`: calc/fight/economy.py),
and what the turn does not use stays in reserve for the rest of the round. They "do not carry
over into the following round". Each combatant counts the round's complex actions spent, on
blocks and dodges and on its turn (`reserves_spent`, back to 0 as a round starts); this round's
odds and Resolve read the reserves left (`standing`): its Reserve actions value less those spent.
A fight saved before the count was kept reads as none spent.
"""

from __future__ import annotations

from typing import Any

from calc.errors import InputError
from calc.fight.hit_points import HitPointRules
from calc.inputs import declared
from calc.inputs.data import SystemData

RESERVES = "reserves"
"""The round calculator's input: the reserve actions a defender holds this round."""
SPENT = "reserves_spent"
"""A combatant's key: the reserve actions it has spent this round."""


OFF_HAND = "off_hand"
"""The round calculator's input: it also attacks with the off hand (two weapons' bonus complex action)."""


def _declared(data: SystemData, name: str = RESERVES) -> dict[str, Any]:
    return next(d for d in data.calculator("round")["inputs"] if d["name"] == name)


def _flag(c: dict[str, Any], data: SystemData, name: str) -> bool:
    """A boolean value of `c` (its own, else the declared default)."""
    return bool(declared.value(_declared(data, name), c["values"].get(name), name))


def held(c: dict[str, Any], data: SystemData) -> int:
    """The reserve actions `c` holds each round (its value, else the declared default)."""
    decl = _declared(data)
    return int(declared.value(decl, c["values"].get(RESERVES), RESERVES))


class ReserveRules(HitPointRules):
    ROUND_VALUES = ((RESERVES, SPENT, "reserve-actions"),)  # held afresh each round, none carried over

    def check_extra(self, raw: Any, where: str, data: SystemData) -> dict[str, Any]:
        spent = raw.get(SPENT, 0)
        most = int(_declared(data)["max"])
        if isinstance(spent, bool) or not isinstance(spent, int) or not 0 <= spent <= most:
            raise InputError(f"{where}.{SPENT}", f"must be a whole number from 0 to {most}")
        return {SPENT: spent}

    def fresh(self, c: dict[str, Any]) -> dict[str, Any]:
        return {**super().fresh(c), SPENT: 0}

    def shown_extra(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        left, most = self.left(c, data), held(c, data)
        note = f"Reserve actions left this round: {left} of {most}." if most else None
        return {"reserves_left": left, "reserves_held": most, "reserves_note": note}

    def left(self, c: dict[str, Any], data: SystemData) -> int:
        return max(0, held(c, data) - c.get(SPENT, 0))

    def standing(self, c: dict[str, Any], data: SystemData) -> dict[str, Any]:
        """The reserve actions left this round as its `reserves`."""
        if not c.get(SPENT):
            return c
        return {**c, "values": {**c["values"], RESERVES: self.left(c, data)}}

    def spend_reserve(self, c: dict[str, Any], data: SystemData) -> tuple[dict[str, Any], list[dict]]:
        left = self.left(c, data)
        if not left:
            raise InputError("action.target", f"{c['name']} has no reserve action left this round")
        text = f"{c['name']} spends a reserve action to defend ({left - 1} of {held(c, data)} left this round)."
        return {**c, SPENT: c.get(SPENT, 0) + 1}, [data.step("reserve-actions", text)]

    def round_pool(self, c: dict[str, Any], pool: dict[str, Any], data: SystemData) -> tuple[int, int]:
        """The complex actions `c` holds this round and has spent (economy's round pool): the text's
        one a round (`pool`'s amount) and the two-weapon bonus when it attacks with the off hand, or
        its Reserve actions value when that counts more (a talent, a shield's bonus block); a value of
        0 keeps none for blocks, the turn's complex action is still there."""
        bonus = data.fact("two-weapon-fighting", "bonus_complex_actions") if _flag(c, data, OFF_HAND) else 0
        return max(held(c, data), int(pool["amount"]) + int(bonus)), int(c.get(SPENT, 0))

    def round_spend(self, c: dict[str, Any], pool: dict[str, Any], n: int, data: SystemData) -> dict[str, Any]:
        """Complex actions its turn takes: no longer held in reserve for the rest of the round."""
        return {**c, SPENT: int(c.get(SPENT, 0)) + n}

    def start_round(
        self, c: dict[str, Any], rolls: dict[str, int], round_no: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        """Reserve actions do not carry over: none spent as the round starts."""
        return ({**c, SPENT: 0} if c.get(SPENT) else c), []


FIGHT = ReserveRules()
