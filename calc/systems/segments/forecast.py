"""The fight forecast in Segments: each fighter's attack routine is the round calculator's (every
attack of one routine at the same target, hit by the attack tables, damage with its multipliers)
against each foe's descending AC; every round each side rolls its group d6: the higher is HIGH and
acts first, a tie puts both sides in HIGH, where the action type (missile, melee) and then the
weapon speed order them, equal speeds striking together (the initiative calculator's own order);
a multi-attacker's first routine comes before group initiative, the rest after LOW. A fighter
drops at 0 hit points (out of the fight), or, under the other reading, drops at 0 and is dead at
−10. The chain itself is `calc.forecast`."""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from calc.errors import InputError
from calc.forecast import answer, chain, half_rounds, rest_of_round
from calc.forecast.fighters import FOES, PARTY, Fighter, Health, dealt, policies, targets_step
from calc.forecast.inputs import each, entry
from calc.forecast.scripted_round import Script, ScriptedFight, Slot
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.segments.initiative import actors, first_before_initiative, in_melee, round_order, turns_of
from calc.systems.segments.round import one_attacker

RULINGS = ("table_cap", "star_reading", "damage_floor")
"""Inputs of the whole forecast that the round calculator reads for every fighter."""
ATTACKS = ("missile", "melee")
RULE = "death-and-dying"


def fighter(side: str, index: int, item: dict[str, Any], inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """One fighter's round-calculator inputs checked, with its place in the round's order."""
    if item["action"] not in ATTACKS:
        raise InputError("action", f"the forecast follows attacks: a missile or a melee attack, not {item['action']}")
    merged = {**item, **{k: inputs[k] for k in RULINGS}, "routines": 1}
    try:  # the initiative calculator reads the weapon's speed and the activities before it
        combatant = {**item, "group": side, "minor_after": 0, "delayed": False, "casting_time": 0}
        request = {"groups": [{"name": side}], "combatants": [combatant], "activity_timing": "before"}
        (actor,) = actors(request, data)[1]
    except InputError as e:
        raise InputError(e.input.split(".", 1)[-1], e.reason) from None
    return {"side": side, "index": index, "inputs": merged, "routines": item["routines"], "actor": actor}


class Routines:
    """One fighter's attack routine against each foe's AC (the round calculator's round of one
    routine, with its multipliers and without), and what it does to a target's hit points, as
    integer weights over one `scale`."""

    def __init__(self, spec: dict[str, Any], enemies: list[dict[str, Any]], every: bool, data: SystemData) -> None:
        self.damage: dict[tuple[bool, int, int], Dist] = {}
        for e in enemies:
            ac = (e["inputs"]["ac"], e["inputs"]["ac_bonus"])
            first, later, _ = one_attacker({**spec["inputs"], "ac": ac[0], "ac_bonus": ac[1]}, data, 1)
            self.damage[(True, *ac)] = first
            self.damage[(False, *ac)] = first if every else later
        self.scale = math.lcm(*(d.total for d in self.damage.values())) if self.damage else 1

    def strike(self, floor: Callable[[int], int], own: Health, first: bool, target: Fighter, health: Health):
        return dealt(self.damage[(first, *target.defense)], self.scale, health, floor)


def _floor(drops: int, dead: int | None, h: int) -> int:
    """Hit points past the fight's interest are one state: dropped (and dead, under −10)."""
    if dead is not None and h <= dead:
        return dead
    return drops if h <= drops else h


def scripts(specs: list[dict[str, Any]], inputs: dict[str, Any], data: SystemData) -> list[Script]:
    """Every order a round can take, with its weight over the two sides' d6 rolls: the initiative
    calculator's order (`initiative.round_order`) for each pair of rolls, a multi-attacker's first
    routine before group initiative when it is in melee (the multi-attack-in-melee ruling), else in
    its side's initiative, and the rest after LOW."""
    sides = data.die_sides("group-initiative", "die")
    early_ones = set(_early(inputs))
    people = [
        s["actor"].__class__(
            **{**vars(s["actor"]), "name": str(i), "group": 0 if s["side"] == PARTY else 1, "routines": 1}
        )
        for i, s in enumerate(specs)
        if i not in early_ones
    ]
    multi = [i for i, s in enumerate(specs) if s["routines"] > 1]
    early: Slot = tuple((i, 1) for i in sorted(early_ones))
    late: Slot = tuple((i, specs[i]["routines"] - 1) for i in multi)
    asked = {"weapon_phases": inputs["weapon_phases"], "spell_ties": "high-first"}
    counted: Counter[tuple[Slot, ...]] = Counter()
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            turns = turns_of([a, b], "highest-high")
            order, _, _ = round_order(asked, data, ["party", "foes"], people, turns)
            slots = [tuple((int(n), 1) for n in rank["names"]) for rank in order]
            counted[tuple(s for s in (early, *slots, late) if s)] += 1
    common = math.gcd(*counted.values())
    return [Script(w // common, slots) for slots, w in counted.items()]


def _early(inputs: dict[str, Any]) -> list[int]:
    """The fighters (by index, party then foes) whose first routine comes before group initiative:
    the round-order calculator's rule (a forecast's fighter is never delayed)."""
    items = [*inputs[PARTY], *inputs[FOES]]
    return [
        i for i, item in enumerate(items) if first_before_initiative(inputs, item["action"], item["routines"], False)
    ]


def build(inputs: dict[str, Any], data: SystemData) -> ScriptedFight:
    specs = each(inputs, lambda side, i, item: fighter(side, i, item, inputs, data))
    drops = data.fact(RULE, "drops_at")
    dead = data.fact(RULE, "dead_at") if inputs["drop_at"] == "minus-ten" else None
    every = inputs["multiplier_rounds"] == "every"
    floor = partial(_floor, drops, dead)
    fighters, strikes = [], []
    for spec in specs:
        enemies = [s for s in specs if s["side"] != spec["side"]]
        with entry(spec["side"], spec["index"]):  # an attack of its routine against some foe's AC
            routines = Routines(spec, enemies, every, data)
        later = [routines.damage[(False, e["inputs"]["ac"], e["inputs"]["ac_bonus"])] for e in enemies]
        danger = sum((d.mean for d in later), Fraction(0)) * spec["routines"] / max(len(enemies), 1)
        marks: list[tuple[str, Callable[[Health], bool]]] = [("drops", partial(operator.ge, drops))]
        if dead is not None:
            marks.append(("dies", partial(operator.ge, dead)))
        hp = spec["inputs"]["target_hp"]
        fighters.append(
            Fighter(
                name=spec["inputs"]["name"],
                side=spec["side"],
                start=hp,
                hp=hp,
                initiative=Dist.constant(0),
                tie=(),
                danger=danger,
                states=hp,
                scale=routines.scale,
                most=spec["routines"],
                attacks=lambda own, first, n=spec["routines"]: n,
                strike=lambda own, t, h, r=routines: r.strike(floor, own, False, t, h),
                out=partial(operator.ge, drops),
                marks=tuple(marks),
                defense=(spec["inputs"]["ac"], spec["inputs"]["ac_bonus"]),
            )  # fmt: skip
        )
        strikes.append(partial(routines.strike, floor))
    first_differs = not every and any(s["inputs"]["multipliers"] for s in specs)
    outs = [1 if dead is None else 2] * len(fighters)
    scripted = scripts(specs, inputs, data)
    return ScriptedFight(fighters, policies(inputs), scripted, strikes, outs, first_differs, reads_own=False)


def rest_slots(fight: ScriptedFight, inputs: dict[str, Any], order: list[int], acted: int) -> list[Slot]:
    """The rest of a round begun, by the rule the fresh round's scripts follow (`scripts`): the
    first routine of the multi-attackers in melee before group initiative (still to come only while
    nobody of this round's order has acted), those of the order still to act one at a time (one
    in melee has no turn in HIGH or LOW; another multi-attacker makes its first routine there),
    then every multi-attacker's remaining routines after LOW."""
    multi = [i for i, f in enumerate(fight.fighters) if f.most > 1]
    in_melee_now = _early(inputs)
    early: Slot = tuple((i, 1) for i in in_melee_now) if not acted else ()
    late: Slot = tuple((i, fight.fighters[i].most - 1) for i in multi)
    return [s for s in (early, *(((i, 1),) for i in order[acted:] if i not in in_melee_now), late) if s]


def forecast(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    fight = build(inputs, data)
    mid = rest_of_round.mid_round(fight, inputs, partial(rest_slots, fight, inputs))
    if half_rounds.applies(mid):  # the same answers, the round never multiplied out
        result = half_rounds.forecast(mid, inputs["rounds"])
    else:
        result = chain.forecast(mid, inputs["rounds"])  # type: ignore[arg-type]  # the chain reads the round's interface
    said = steps(inputs, data) + rest_of_round.step(inputs, data, "group-initiative")
    if inputs["order"] and any(f.most > 1 for f in fight.fighters):
        said.append(
            data.step(
                "combat-round-sequence",
                "Mid-round, a multi-attacker's routines keep their places in the round (in melee, the first before "
                "group initiative; the rest after LOW), wherever this round's order lists it: once anyone of the "
                "order has acted, the first routine of one in melee counts as made, the rest still to come; one not "
                "in melee makes its first at its place in the order.",
            )
        )
    return answer.answer(result, fight.fighters, said, data, inputs)


def steps(inputs: dict[str, Any], data: SystemData) -> list[dict[str, str]]:
    """Every assumption of the forecast, each with the rule (or ruling) behind it."""
    sides = data.die_sides("group-initiative", "die")
    return [
        data.step(
            "group-initiative",
            f"Every round each side rolls a d{sides}: the higher acts in HIGH, the lower in LOW; "
            "a tie puts both sides in HIGH.",
        ),
        data.step(
            "action-order",
            "Inside an initiative, action types go in order (missile and melee as chosen below); a fighter "
            "dropped before its turn does not act; fighters of one side in one slot strike together.",
        ),
        data.step(
            "weapon-speed",
            "Tied sides making the same type of attack: the lower weapon speed (plus 1 per 1-segment activity "
            "before the attack) strikes first; equal speeds strike together, both blows landing.",
        ),
        data.step(
            "attack-routine",
            "Each fighter makes its attack routine every round, every attack of it at one target; a "
            "multi-attacker in melee makes its first routine before group initiative, and every multi-attacker "
            "the rest after LOW.",
        ),
        targets_step(data, inputs),
        *_multi_step(inputs, data),
    ]


def _multi_step(inputs: dict[str, Any], data: SystemData) -> list[dict[str, str]]:
    """Which multi-attackers are in melee, when the fight has any."""
    if not any(item["routines"] > 1 for item in (*inputs[PARTY], *inputs[FOES])):
        return []
    text = (
        "A multi-attacker is in melee when it makes a melee attack; with a missile attack it makes its first "
        "routine in its side's initiative."
        if len(in_melee(inputs)) == 1
        else "A multi-attacker is in melee when it makes a melee or a missile attack (the other reading)."
    )
    return [data.step("ruling:multi-attack-in-melee", text)]


__all__: Sequence[str] = ("forecast",)
