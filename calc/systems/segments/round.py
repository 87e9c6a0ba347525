"""The round calculator: every attack of the round's attack routines (normally 1 routine; more
with the multi-attack ability), each hit chance from the hit calculator and each damage from the
damage calculator, summed into a round, then rounds until the target drops."""

from __future__ import annotations

from typing import Any

from calc import rounds
from calc.data import SystemData
from calc.systems.segments.damage import hit_damage
from calc.systems.segments.hit import hit

HIT_INPUTS = (
    "attacker", "class_group", "level", "hd", "hd_bonus", "aac0", "ac", "ac_bonus", "table_cap", "star_reading",
)  # fmt: skip


def round_(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
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
    steps.append(data.step("weapon-speed", "Weapon speed only orders tied attacks; it does not change the damage."))
    attacks = []
    for i, attack in enumerate(inputs["routine"], start=1):
        expr = rounds.attack_dice(attack["dice"], f"routine[{i}].dice")
        shown = str(expr.plus(attack["modifier"]))
        hit_inputs = {k: inputs[k] for k in HIT_INPUTS} | {"bonus": inputs["bonus"] + attack["to_hit"]}
        on_hit = hit(hit_inputs, data)
        p = rounds.chance_of(on_hit, "Hit")
        dmg, _, _ = hit_damage({"dice": expr, "modifier": attack["modifier"], "multipliers": []}, data)
        attacks.append(rounds.attack_damage(p, dmg))
        steps.append(
            data.step(
                "attack-roll", f"{attack['name']}: {on_hit['summary'].lower()}; a hit deals {shown} (mean {_m(dmg)})."
            )
        )
    per_round = rounds.round_total(attacks * n)
    steps.append(
        data.step("damage-multipliers", f"A round deals {_m(per_round)} on average ({per_round.min}–{per_round.max}).")
    )
    hp = inputs["target_hp"]
    drops = data.fact("death-and-dying", "drops_at")
    thresholds = [rounds.Threshold("Drops", hp - drops)]
    if inputs["drop_at"] == "zero":
        steps.append(data.step("ruling:round-drop-at-zero", f"The target drops at {drops} hit points (ruling)."))
    else:
        dead = data.fact("death-and-dying", "dead_at")
        thresholds.append(rounds.Threshold("Dead", hp - dead))
        steps.append(
            data.step(
                "ruling:round-drop-at-zero",
                f"Other reading: out of the fight at {drops} hit points, dead at {dead}.",
            )
        )
    reached = rounds.track(per_round, thresholds)
    return rounds.answer(per_round, reached, f"a {hp}-HP foe", steps)


def _m(dist) -> str:
    return f"{float(dist.mean):.2f}".rstrip("0").rstrip(".")
