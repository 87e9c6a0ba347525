"""The round calculator: every attack of the round's attack routines (normally 1 routine; more
with the multi-attack ability), each hit chance from the hit calculator and each damage from the
damage calculator, summed into a round, then rounds until the target drops."""

from __future__ import annotations

from typing import Any

from calc.answers import first_attack, round_answer
from calc.chains import rounds
from calc.chains.track import Threshold, track
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.segments.damage import hit_damage
from calc.systems.segments.hit import hit
from calc.turns import party

HIT_INPUTS = (
    "attacker", "class_group", "level", "hd", "hd_bonus", "aac0", "ac", "ac_bonus", "table_cap", "star_reading",
)  # fmt: skip


def one_attacker(inputs: dict[str, Any], data: SystemData, at: int) -> tuple[Dist, Dist, list[dict[str, str]]]:
    """(one attacker's damage in a round with its multipliers, without them, its why-steps); `at`
    is its place in `attackers` (1-based), for errors and steps."""
    steps = []
    normal = data.fact("attack-routine", "routines_per_round")
    n = inputs["routines"]
    steps.append(
        data.step(
            "attack-routine",
            f"{n} attack routine{'s' if n > 1 else ''} a round "
            + (f"(normally {normal})" if n == normal else f"(more than the normal {normal}: the multi-attack ability)")
            + f", each of {len(inputs['routine'])} attack(s) at the same target.",
        )
    )
    if n > normal:
        steps.append(
            data.step("action-order", "Multi-attackers make their first routine early and the rest after LOW.")
        )
    plain, multiplied = [], []
    for i, attack in enumerate(inputs["routine"], start=1):
        expr = rounds.attack_dice(attack["dice"], party.where(inputs, at, f"routine[{i}].dice"))
        shown = str(expr.plus(attack["modifier"]))
        hit_inputs = {k: inputs[k] for k in HIT_INPUTS} | {"bonus": inputs["bonus"] + attack["to_hit"]}
        on_hit = hit(hit_inputs, data)
        p = rounds.chance_of(on_hit, "Hit")
        base = {"dice": expr, "modifier": attack["modifier"]}
        if "damage_floor" in inputs:  # the forecast offers the damage calculator's ruling; the round keeps it
            base["damage_floor"] = inputs["damage_floor"]
        dmg, _, _ = hit_damage(base | {"multipliers": []}, data)
        plain.append(rounds.attack_damage(p, dmg))
        steps.append(
            data.step(
                "attack-roll", f"{attack['name']}: {on_hit['summary'].lower()}; a hit deals {shown} (mean {_m(dmg)})."
            )
        )
        if inputs["multipliers"]:
            strong, label, multiplier_steps = hit_damage(base | {"multipliers": inputs["multipliers"]}, data)
            multiplied.append(rounds.attack_damage(p, strong))
            steps += multiplier_steps[1:]
    counted = multiplied or plain
    biggest = max(range(len(counted)), key=lambda j: counted[j].max) + 1  # the attack to make smaller
    where = party.where(inputs, at, f"routine[{biggest}].dice")
    party.bounded(sum(d.max for d in counted) * n, party.MAX_ROUND_DAMAGE, "points of damage a round", where)
    later = rounds.round_total(plain * n)
    first = rounds.round_total(multiplied * n) if multiplied else later
    return first, later, party.named(steps, party.who(inputs, at))


def whole_round(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    firsts, laters, steps = party.rounds_of(inputs, data, one_attacker)
    multiplied = any(attacker["multipliers"] for attacker in party.each(inputs))
    hp = inputs["target_hp"]
    deepest = hp - data.fact("death-and-dying", "drops_at" if inputs["drop_at"] == "zero" else "dead_at")
    attacks = sum(len(a["routine"]) * a["routines"] for a in party.each(inputs))
    party.track_bounded(attacks, sum(d.max for d in firsts), deepest, party.whole(inputs, "target_hp"))
    every = inputs["multiplier_rounds"] == "every"
    per_round = rounds.round_total(firsts if every else laters)
    first = rounds.round_total(firsts) if multiplied and not every else None
    if multiplied:
        steps.append(
            data.step(
                "ruling:round-multiplier-rounds",
                "Other reading: the multipliers hold in every round."
                if every
                else "The multipliers count in the first round only (ruling); later rounds deal plain damage.",
            )
        )
    steps.append(
        data.step("damage-multipliers", f"A round deals {_m(per_round)} on average ({per_round.min}–{per_round.max}).")
    )
    drops = data.fact("death-and-dying", "drops_at")
    thresholds = [Threshold("Drops", hp - drops)]
    if inputs["drop_at"] == "zero":
        steps.append(data.step("ruling:round-drop-at-zero", f"The target drops at {drops} hit points (ruling)."))
    else:
        dead = data.fact("death-and-dying", "dead_at")
        thresholds.append(Threshold("Dead", hp - dead))
        steps.append(
            data.step(
                "ruling:round-drop-at-zero",
                f"Other reading: out of the fight at {drops} hit points, dead at {dead}.",
            )
        )
    reached = track(per_round, thresholds, first=first)
    return round_answer.answer(per_round, reached, f"drop a {hp}-HP foe", steps)


def _m(dist) -> str:
    return f"{float(dist.mean):.2f}".rstrip("0").rstrip(".")


def one_attack(attacker: dict[str, Any]) -> dict[str, Any]:
    """The attacker's round cut to the first attack of its routine; its multipliers hold (the
    attack at hand is its first round's), so the round shown (`distribution`) is that attack's."""
    return attacker | {"routines": 1, "routine": attacker["routine"][:1], "multiplier_rounds": "every"}


def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
    """That attack's own to-hit bonus on the attacker's (as `one_attacker` asks the hit calculator)."""
    return {"bonus": attacker["bonus"] + attacker["routine"][0]["to_hit"]}


round_ = first_attack.calculator(whole_round, one_attack, hit_extra)
"""The whole round's answer with the attack at hand (`first_attack`: calc/answers/first_attack.py)."""
