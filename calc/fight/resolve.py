"""Resolve an attack in the tracker (the fight action `attack`): the attack roll and the damage,
rolled at the table or on the page, applied to the target. The engine decides hit or miss by the
system's hit rules: its hit calculator, asked with the attacker's and the target's values
(`calc.fight.fighter`), says the natural roll needed (`roll_needed`: that value or more hits, as
each engine works it out with its naturals and thresholds); a hit's damage is applied as the
`damage` action applies it (a critical hit, as each system's rules name one, counts as the card's
"damage from a natural 20").

The damage: the dice the system's rule rolls for a hit (`plan`, shown by the page, which rolls them
with its fair die or takes the faces typed) turned into damage by that rule
(calc/fight/resolve_rules.py, the engines' own code), or a total typed. The other dice the rules
roll (`plan`'s `rolls`): active-defense's defender rolls its block or dodge while it holds a
reserve action this round (each one spent is counted on the target, `reserves_spent`, until the
next round starts: calc/systems/active_defense/fight.py); action-points' d% of a miss chance;
phases' second d20 of advantage or disadvantage. The action carries every face, so the state it
gives is the same however often it is applied:
`{"type": "attack", "id": attacker, "target": id, "roll": face, "defense_roll" | "miss_roll" |
"second_roll": face, "faces": [face, ...] (one per damage die) | "damage": amount (typed)}`.
"""

from __future__ import annotations

from typing import Any

from calc import systems
from calc.errors import InputError
from calc.fight import aim as targeting
from calc.fight import economy, resolve_rules
from calc.fight import state as st
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers import dice

HIT_CALCULATOR = "hit"

Nth = tuple[dict[str, Any], int]
"""The attack at hand as the turn counts it (calc/fight/economy.py): the turn action's declaration
and how many attacks of it were made before this one this turn. None: the round's first attack."""


def _inputs(
    fight: dict, who: str, aim: str, data: SystemData, options: dict, states: dict, nth: Nth | None
) -> dict[str, Any]:
    """The round calculator's inputs of `who` on `aim`, cut to the turn's attack at hand (the
    system's `Resolve.nth_attack`: action-points' quick attack, the routine's n-th attack)."""
    a = resolve_rules.attacker_inputs(fight, who, aim, data, options, states)
    if nth is None:
        return a
    return systems.engine(data.id).RESOLVE.nth_attack({**a, **nth[0].get("inputs", {})}, *nth)


def needed(
    fight: dict, attacker: str, target: str, data: SystemData, options: dict, states: dict, nth: Nth | None = None
) -> dict[str, Any]:
    """The hit calculator's `roll_needed` for this attacker against this target, with its reasons:
    asked as the odds' chance to hit is (calc/answers/first_attack.py `hit_chance`), with the round
    calculator's inputs of the same names and the system's `hit_extra` (segments' routine attack's
    own to-hit bonus, countup's thrown weapon hitting as ranged, …)."""
    a = _inputs(fight, attacker, target, data, options, states, nth)
    decls = data.calculator(HIT_CALCULATOR)["inputs"]
    raw = {d["name"]: a[d["name"]] for d in decls if d["name"] in a} | systems.engine(data.id).RESOLVE.hit_extra(a)
    answer = systems.engine(data.id).CALCULATORS[HIT_CALCULATOR](declared.validate(decls, raw), data)
    if not answer.get("roll_needed"):
        raise InputError("action.roll", f"{data.id}'s hit calculator names no roll needed")
    return {"roll_needed": answer["roll_needed"], "steps": answer["steps"], "summary": answer["summary"]}


def _whole(action: dict, key: str, low: int, high: int) -> int:
    value = action.get(key)
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"action.{key}", f"must be a whole number from {low} to {high} (got {declared.shown(value)})")
    return value


def table(
    fight: dict,
    who: str,
    aim: str,
    data: SystemData,
    options: dict,
    states: dict,
    asked: dict | None = None,
    nth: Nth | None = None,
) -> resolve_rules.Table:
    """The system's Resolve rules for `who` attacking `aim` (its engine's `RESOLVE`: calc/fight/resolve_rules.py);
    `asked`: `needed`'s answer when already known (else asked only if the rules need it)."""
    known = [asked] if asked else []

    def roll_needed() -> dict[str, Any]:
        if not known:
            known.append(needed(fight, who, aim, data, options, states, nth))
        return dict(known[0]["roll_needed"])

    a = _inputs(fight, who, aim, data, options, states, nth)
    return systems.engine(data.id).RESOLVE(a, data, roll_needed)


def plan(
    fight: dict, who: str, aim: str, data: SystemData, options: dict, states: dict, nth: Nth | None = None
) -> dict[str, Any]:
    """What the page rolls to resolve `who`'s attack on `aim` (the view's `odds.targets[].resolve`):
    `{"die": "d20", "dice": "2d6" | None (the damage dice of a hit; None: nothing
    to roll, the attack roll decides the damage), "roll": [{"count", "sides"}], "defense":
    {"kind", "label", "die"} | None (the defender's roll), "rolls": [{"key", "kind", "label",
    "die"}] (every other die, the defender's roll among them, under its action key)}`."""
    rules = table(fight, who, aim, data, options, states, nth=nth)
    expr = rules.dice()
    return {
        "die": rules.die(),
        "dice": None if expr is None else str(dice.DiceExpr(expr.terms)),
        "roll": [] if expr is None else [{"count": t.count, "sides": t.sides} for t in expr.terms],
        "defense": rules.defense(),
        "rolls": rules.rolls(),
    }


def _faces(action: dict) -> list[Any] | None:
    """The damage faces as sent: a list, or text of whole numbers ("3 5", "3,5"); None: not given."""
    faces = action.get("faces")
    if faces is None or faces == "" or faces == []:
        return None
    if isinstance(faces, str):
        parts = faces.replace(",", " ").split()
        return [int(p) if p.isdigit() and p.isascii() else p for p in parts]
    return faces


def _typed(action: dict) -> int | None:
    """The damage total typed (None: none; the faces decide), checked whether the attack hits or not."""
    return None if action.get("damage") in (None, "") else _whole(action, "damage", 0, st.HEALTH_MAX)


def _damage(action: dict, rules: resolve_rules.Table, face: int, critical: bool) -> tuple[int, str]:
    """The hit's damage: the typed total, else the rolled faces by the system's rule; and how."""
    typed = _typed(action)
    if typed is not None:
        return typed, f"{typed} damage (typed)"
    expr = rules.dice()
    faces = _faces(action)
    if expr is None:
        if faces is not None:
            raise InputError("action.faces", "this attack rolls no damage dice: its roll decides the damage")
        amount = rules.amount(face, None, critical)
        return amount, f"{amount} damage"
    if faces is None:
        raise InputError("action.faces", f"roll the damage dice ({dice.DiceExpr(expr.terms)}) or type the damage")
    rolled = dice.rolled(expr, faces, "action.faces")
    amount = rules.amount(face, rolled, critical)
    shown = " + ".join(str(f) for f in faces)
    return amount, f"{amount} damage ({dice.DiceExpr(expr.terms)}: {shown})"


def attack(fight: dict, action: dict, data: SystemData, rules: Any, options: dict) -> tuple[dict, list[dict]]:
    ids = {c["id"]: i for i, c in enumerate(fight["combatants"])}
    who, aim = action.get("id"), action.get("target")
    for key, ident in (("id", who), ("target", aim)):
        if not isinstance(ident, str) or ident not in ids:
            raise InputError(f"action.{key}", f"no combatant has the id {declared.shown(ident)}")
    if who == aim:
        raise InputError("action.target", "a combatant does not attack itself here")
    who, aim = str(who), str(aim)
    counted = economy.for_attack(fight, fight["combatants"][ids[who]], action.get("kind"), data)
    nth: Nth | None = None
    if counted is not None:  # a round runs: the turn's next attack, its action taken if it needs one
        fight, turn_action, made = counted
        nth = (turn_action, made)
    states = {c["id"]: rules.health(c, data, options)["state"] for c in fight["combatants"]}
    now = standing(fight, data, rules)
    asked = needed(now, who, aim, data, options, states, nth)
    system = table(now, who, aim, data, options, states, asked, nth)
    kept = economy.turn_roll(fight, data, fight["combatants"][ids[who]], action.get("roll")) if nth else None
    face = kept[0] if kept else _whole(action, "roll", 1, int(system.die().lstrip("d")))
    _typed(action)
    rolls = {
        r["key"]: _whole(action, r["key"], 1, int(r["die"].lstrip("d")))
        for r in system.rolls()
        if action.get(r["key"]) not in (None, "")
    }
    used, rolled = system.used(face, rolls)
    rolled += f", {kept[1]}," if kept else ""
    hits, critical, why = system.outcome(used, rolls)
    attacker, target = fight["combatants"][ids[who]], fight["combatants"][ids[aim]]
    amount, how = _damage(action, system, used, critical) if hits else (0, "")
    cited = [s for s in asked["steps"] if s.get("url")][:1]
    named = "" if nth is None else f" ({nth[0]['label'].lower()})"
    said = f"{attacker['name']}{named} rolls {rolled} against {target['name']} ({why})"
    fight = targeting.recorded(fight, who, aim)  # the default target of its next attack while it stands
    people = list(fight["combatants"])
    spent: list[dict] = []
    if system.spends(used, rolls):
        people[ids[aim]], spent = rules.spend_reserve(target, data)
    if nth is not None:
        fight = economy.attacked(fight, nth[0], aim)
        text = economy.left_text(data, economy.as_turn(fight, attacker), fight["spent"], economy.phase_of(fight))
        left = f" {text}." if text else ""
    else:
        left = ""
    if not hits or not amount:
        what = "a miss" if not hits else "a hit for no damage"
        head = {**(cited[0] if cited else {}), "text": f"{said}: {what}.{left}"}
        return {**fight, "combatants": people}, [head, *spent]
    after, steps = rules.damage(people[ids[aim]], amount, data, options, critical, fight["round"])
    people[ids[aim]] = after
    head = {**(cited[0] if cited else {}), "text": f"{said}: a hit, {how}.{left}"}
    return {**fight, "combatants": people}, [head, *spent, *steps]


def standing(fight: dict, data: SystemData, rules: Any) -> dict:
    """The fight as the round stands: each combatant's values as the rules read them now
    (active-defense: the reserve actions left this round), for this round's odds and Resolve."""
    return {**fight, "combatants": [rules.standing(c, data) for c in fight["combatants"]]}
