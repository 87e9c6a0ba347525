"""Active-defense's Resolve at the table (calc/fight/resolve_rules.py `Table`): the total against
Passive Defense, then the defender's block or dodge while it holds a reserve action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.chains import rounds
from calc.fight.resolve_rules import Outcome, Table, asked, value
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dice import DiceExpr
from calc.systems.active_defense import round as ad_round
from calc.systems.active_defense.damage import damage as ad_damage
from calc.systems.active_defense.hit import exchange as ad_exchange

OFF_HAND = "off_hand"
"""The turn's action (tracker: turn:) that is the off hand's attack, the two-weapon bonus complex action."""


class Resolve(Table):
    """The attack total against Passive Defense, then the defender's block or dodge when it holds
    a reserve (hit.py `exchange` on the faces); a landing hit's dice + Strength − armour, floored
    (active_defense/damage.py). A natural 20 only counts as a higher total: no critical damage."""

    hit_extra = staticmethod(ad_round.hit_extra)

    @staticmethod
    def nth_attack(attacker: dict[str, Any], action: dict[str, Any], made: int) -> dict[str, Any]:
        """The turn's attack of `action` by its hand, as the round makes it (round.py `by_hand`):
        the off-hand attack (the bonus complex action) at the off hand's dice and penalty, the
        attack with the primary hand (no penalty without two weapons)."""
        first, *rest = ad_round.hands(attacker)
        return ad_round.by_hand(attacker, *(rest[0] if action["kind"] == OFF_HAND and rest else first))

    def __init__(self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]]) -> None:
        super().__init__(attacker, data, needed)
        one = ad_round.one_attack(attacker)
        decls = data.calculator("damage")["inputs"]
        given = {k: one[k] for k in {d["name"] for d in decls} & set(one)} | {"at_least": 1}
        self.typed = declared.validate(decls, given | ad_round.hit_extra(attacker))  # the hand's penalty, as `needed`

    def die(self) -> str:
        return f"d{self.data.die_sides('attack-roll', 'die')}"

    def defense(self) -> dict[str, Any] | None:
        kind = self.typed["defense"]
        if kind == "none":
            return None
        return {"kind": kind, "label": kind.capitalize(), "die": f"d{self.data.die_sides(kind, 'die')}"}

    def rolls(self) -> list[dict[str, Any]]:
        said = self.defense()
        return [] if said is None else [{"key": "defense_roll", **said}]

    def dice(self) -> DiceExpr | None:
        return self.typed["damage_dice"]

    def _beats(self, face: int) -> bool:
        return ad_exchange(self.typed, self.data, [], (face, 1)).p_beats_passive() == 1

    def spends(self, face: int, rolls: dict[str, int]) -> bool:
        """A reserve held is spent on an attack that beats Passive Defense (the ruling), or on
        each attack in turn until none is left (the other reading of `spend_reserve`)."""
        if self.defense() is None:
            return False
        return self.a["spend_reserve"] == "each-attack" or self._beats(face)

    def outcome(self, face: int, rolls: dict[str, int]) -> Outcome:
        beats = self._beats(face)
        said = self.defense()
        if not beats or said is None:
            return beats, False, "beats Passive Defense" if beats else "short of Passive Defense"
        defense_face = asked(rolls, self.rolls()[0], "the attack beats Passive Defense")
        lands = ad_exchange(self.typed, self.data, [], (face, defense_face)).p_lands() == 1
        return (
            lands,
            False,
            f"beats Passive Defense; the {said['kind']} ({defense_face}) " + ("fails" if lands else "negates it"),
        )

    def amount(self, face: int, rolled: DiceExpr | None, critical: bool) -> int:
        answer = rounds.uncut(ad_damage, self.typed | {"damage_dice": rolled}, self.data)
        return value(rounds.dist_of(answer))
