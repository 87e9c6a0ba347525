"""The shared frame of each system's Resolve at the table (calc/fight/resolve.py): from the attack at
hand's inputs (the round calculator's, as `calc.fight.fighter` maps the two combatants, cut to the
first attack by the system's own `one_attack`), what the rolled faces decide and what they deal, by
the engines' own code run on the faces (`calc.numbers.dice.Rolled`): no rule is written again here.

Each system's rules are its own: its `resolve` module's `Resolve`, a `Table`, reached through the
engine lookup as `systems.engine(id).RESOLVE` (calc/systems/contract.py `Resolve`), so a new system
brings its own and nothing here names one. A `Resolve(attacker inputs, data, needed)` says the dice
a hit rolls for damage (`dice()`: None when nothing is rolled, as a phases margin), the other dice
the attack rolls (`rolls()`: active-defense's block or dodge, action-points' d% of a miss chance,
phases' second d20 of advantage), each under the `attack` action's key; for given faces
`used(face, rolls)` → the attack face the rule keeps (phases' advantage) and how it was read,
`outcome(face, rolls)` → (lands, critical, what decided it), `amount(face, rolled dice, critical)`
→ the damage of that hit, and `spends(face, rolls)` → whether the defender spent a reserve action
on it (active-defense); `Resolve.hit_extra(attacker)` is the round's `hit_extra`, the hit
calculator's inputs of the attack at hand beyond those of the same name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.errors import InputError
from calc.fight import fighter
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dice import DiceExpr
from calc.turns import party

Outcome = tuple[bool, bool, str]
"""(the attack lands, it is a critical hit for the fight's damage rules, the sentence saying why)."""


def attacker_inputs(fight: dict, who: str, aim: str, data: SystemData, options: dict, states: dict) -> dict[str, Any]:
    """The round calculator's typed inputs for `who` attacking `aim` (one attacker)."""
    calculator = str(fighter.declaration(data)["calculator"])  # type: ignore[index]
    raw = fighter.inputs_for(fight, who, aim, calculator, data, options, states)
    typed = declared.validate(data.calculator(calculator)["inputs"], raw)
    return party.each(typed)[0] | {party.LIST: []}


def value(dist: Any) -> int:
    """The one total of a distribution of rolled dice."""
    assert dist.min == dist.max, "rolled dice give one total"
    return max(0, int(dist.min))  # a total below 0 (a floor ruling off) deals nothing: no hit heals


class Table:
    """By the hit calculator's roll needed: a face at least the value hits (countup, segments);
    the die's top face is the card's "damage from a natural 20"."""

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        self.a, self.data, self.needed = attacker, data, needed  # needed(): the hit calculator's roll_needed

    @staticmethod
    def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
        """The system's round `hit_extra` (asked before any table is made: `needed` reads it)."""
        raise NotImplementedError

    @staticmethod
    def nth_attack(attacker: dict[str, Any], action: dict[str, Any], made: int) -> dict[str, Any]:
        """The attacker's inputs for an attack of the turn's `action` (its declaration in the data's
        `turn:`), `made` of them made before it this turn: by default the round's own first attack
        (every attack of the turn alike, as countup's at the attack rate)."""
        return attacker

    def die(self) -> str:
        """The attack die, "d20"."""
        return str(self.needed()["die"])

    def defense(self) -> dict[str, Any] | None:
        return None

    def rolls(self) -> list[dict[str, Any]]:
        """The dice besides the attack die and the damage: `[{"key", "kind", "label", "die"}]`."""
        return []

    def used(self, face: int, rolls: dict[str, int]) -> tuple[int, str]:
        """The attack face the rule keeps, and the words for the roll."""
        return face, f"{face} on the {self.die()}"

    def dice(self) -> DiceExpr | None:
        raise NotImplementedError

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        rule = self.needed()
        lands = rule["value"] is not None and face >= rule["value"]
        return lands, face == int(rule["die"].lstrip("d")), f"needs {rule['text']}"

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        raise NotImplementedError

    def spends(self, face: int, rolls: dict[str, int]) -> bool:
        """Whether the defender spends a reserve action on this attack (none here)."""
        return False


def asked(rolls: dict[str, int], roll: dict[str, Any], why: str) -> int:
    """A face of one of the table's other dice, or the error asking for it."""
    if roll["key"] not in rolls:
        raise InputError(f"action.{roll['key']}", f"{why}: roll the {roll['label']} ({roll['die']})")
    return rolls[roll["key"]]
