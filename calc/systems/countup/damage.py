"""Countup damage: dice + Strength + misc (− Hurt), with the damage floor ruling and the effect on a
target; with the hit chance from the same inputs, the expected damage per attack (no critical hits)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import per_attack, result
from calc.answers.format import number, signed
from calc.answers.per_attack import PerAttack
from calc.chains.rounds import chance_of
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.countup.hit import hit
from calc.systems.countup.readers import chosen_bonus

STRENGTH_FACTS = {"melee": "melee_adds_strength", "thrown": "thrown_adds_strength", "ranged": "ranged_adds_strength"}
"""Which fact of the damage rule says whether each kind of attack adds the Strength bonus."""


def damage_dist(expr: dice.DiceExpr, modifier: int, floor: int | None) -> Dist:
    """Dice + modifier, with every total below `floor` counted as `floor` (None: no floor)."""
    raw = expr.dist() + modifier
    return raw if floor is None else raw.clamp_below(floor)


def target_outcomes(
    data: SystemData, damage: Dist, target: str, hp: int, npc_hurt: bool
) -> tuple[list[tuple[str, Fraction]], dict[str, str]]:
    """P(killed), P(Hurt) (when the target can be Hurt) and P(still up) after the hit."""
    uses_hurt = target == "character" or npc_hurt
    if uses_hurt:
        dead_at = data.fact("death", "death_hp")
        hurt_band = data.fact("hurt", "hurt_hp")
        who = "A character" if target == "character" else "An important NPC (the GM uses Hurt)"
        if hp <= dead_at:
            raise InputError("target_hp", f"a target at {number(hp)} hit points or fewer is already dead")
        after = hp - damage
        killed = after.p_le(dead_at)
        hurt = after.p_where(lambda x: hurt_band["min"] <= x <= hurt_band["max"])
        up = after.p_gt(hurt_band["max"])
        rule = "death" if target == "character" else "ruling:npc-death-at-zero"
        text = (
            f"{who} at {number(hp)} hit points is Hurt from {number(hurt_band['max'])} to "
            f"{number(hurt_band['min'])} and dies at {number(dead_at)} or fewer."
        )
        return [("Killed", killed), ("Hurt", hurt), ("Still up, not Hurt", up)], data.step(rule, text)
    dead_at = data.fact("npc-death", "npc_death_hp")
    if hp <= dead_at:
        raise InputError("target_hp", f"an ordinary NPC at {number(hp)} hit points or fewer is already dead")
    after = hp - damage
    killed = after.p_le(dead_at)
    text = f"An ordinary NPC or monster at {number(hp)} hit points dies at {number(dead_at)} or fewer (never Hurt)."
    return [("Killed", killed), ("Still up", 1 - killed)], data.step("npc-death", text)


def composed_expression(expr: dice.DiceExpr, parts: list[tuple[int, str]]) -> str:
    """The typed dice, then every bonus that changes them by name, then the total rolled:
    `1d8+3 +2 (Strength) = 1d8+5`. A reader who typed `1d8+3` sees what was added, and by what."""
    added = [(v, label) for v, label in parts if v]
    if not added:
        return str(expr)
    shown = " ".join(f"{signed(v)} ({label})" for v, label in added)
    return f"{expr} {shown} = {expr.plus(sum(v for v, _ in added))}"


def hit_damage(inputs: dict[str, Any], data: SystemData) -> tuple[Dist, list[dict[str, str]], str]:
    """The damage of one hit (dice + Strength + misc − Hurt, floored by the ruling), its steps and
    the composed expression. The round calculator uses it too."""
    expr: dice.DiceExpr = inputs["dice"]
    attack = inputs["attack"]
    adds_strength = data.fact("damage", STRENGTH_FACTS[attack])
    parts: list[tuple[int, str]] = []
    steps: list[dict[str, str]] = []
    kind = {"melee": "A melee weapon", "thrown": "A thrown weapon or composite bow", "ranged": "This ranged weapon"}
    if adds_strength:
        strength, strength_step = chosen_bonus(
            data, inputs["strength_from"], inputs["strength_score"], inputs["strength_bonus"], "Strength",
            "strength_score",
        )  # fmt: skip
        parts.append((strength, "Strength"))
        steps.append(data.step("damage", f"{kind[attack]} adds the Strength bonus to damage."))
        steps.append(strength_step)
    else:
        steps.append(data.step("damage", f"{kind[attack]} adds no Strength bonus to damage."))
    parts.append((inputs["damage_misc"], "misc"))
    if inputs["hurt"]:
        penalty = data.fact("hurt", "damage_penalty")
        parts.append((penalty, "Hurt"))
        steps.append(data.step("hurt", f"The attacker is Hurt: {signed(penalty)} to damage."))
    modifier = sum(v for v, _ in parts)
    shown = " ".join(f"{signed(v)} ({label})" for v, label in parts)
    steps.insert(0, data.step("damage", f"{expr} {shown} = {expr.plus(modifier)}."))
    composed = composed_expression(expr, parts)

    floor: int | None = None
    raw = expr.dist() + modifier
    if inputs["damage_floor"]:
        floor = data.fact("damage", "minimum")
        if raw.min < floor:
            steps.append(
                data.step(
                    "ruling:damage-floor",
                    f"Totals below {floor} count as {floor}: the total is below {floor} with chance "
                    f"{result.percent(raw.p_lt(floor))}, and that whole chance moves to {floor} damage.",
                )
            )
    elif raw.min < 0:
        steps.append(data.step("ruling:damage-floor", "Option off: totals below 0 are kept as rolled."))
    return damage_dist(expr, modifier, floor), steps, composed


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """The hit chance, the full damage distribution of one hit, the expected damage per attack, and
    optionally the hit's effect on a target: all from one set of inputs."""
    to_hit = hit(inputs, data)
    p_hit = chance_of(to_hit, "Hit")
    dist, steps, composed = hit_damage(inputs, data)
    attack = PerAttack([("Hit", p_hit, dist)])
    steps = [*to_hit["steps"], *steps]
    steps.append(data.step("critical-hits", f"No critical hits: every hit deals this damage, so {attack.formula()}."))

    chances = []
    summary = f"{composed}: {number(dist.min)} to {number(dist.max)} damage, mean {float(dist.mean):.4g}"
    if inputs["target"] != "none":
        outcomes, target_step = target_outcomes(data, dist, inputs["target"], inputs["target_hp"], inputs["npc_hurt"])
        chances += [result.chance(label, p) for label, p in outcomes]
        steps.append(data.step("apply-damage", "Damage comes off the target's current hit points (after a hit)."))
        steps.append(target_step)
        summary += "; a hit leaves it " + ", ".join(f"{label.lower()} {result.percent(p)}" for label, p in outcomes[:2])
    summary = f"{per_attack.summary(attack)}; {summary}"
    chances += [result.chance("Hit", p_hit), result.chance("At least 1 damage", dist.p_ge(1))]
    shown = result.dist_json(dist, "Damage of a hit")
    return {
        "summary": summary,
        "chances": chances,
        "distribution": shown,
        "attack": per_attack.attack_json(attack, (dist, shown)),
        "steps": steps,
    }
