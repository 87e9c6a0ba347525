"""The round calculator: a Primary Action's attacks at the attacker's attack rate (the Secondary
Action moves, reloads or draws, and cannot attack), each hit chance from the hit calculator and
each hit's damage from the damage calculator, summed into a round; then rounds until the target
is Hurt and dead (characters, important NPCs) or dead at 0 (ordinary NPCs and monsters)."""

from __future__ import annotations

from typing import Any

from calc import rounds
from calc.data import SystemData
from calc.systems.countup.damage import damage
from calc.systems.countup.hit import hit

HIT_INPUTS = ("to_hit", "ability_from", "ability_score", "ability_bonus", "misc", "hurt", "ac", "natural_rolls")
DAMAGE_INPUTS = ("attack", "dice", "strength_from", "strength_score", "strength_bonus", "hurt", "damage_floor")


def round_(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    n = inputs["attacks"]
    primary = data.fact("actions", "primary_per_turn")
    steps = [
        data.step(
            "actions",
            f"{primary} Primary and {data.fact('actions', 'secondary_per_turn')} Secondary Action a turn; "
            "only the Primary Action attacks.",
        ),
        data.step("primary-action", f"The Primary Action attacks at the attack rate: {n} attack(s) this round."),
    ]
    to_hit = {k: inputs[k] for k in HIT_INPUTS} | {"attack": "melee" if inputs["attack"] == "melee" else "ranged"}
    hit_answer = hit(to_hit, data)
    p = rounds.chance_of(hit_answer, "Hit")
    steps += hit_answer["steps"]
    harm = {k: inputs[k] for k in DAMAGE_INPUTS} | {
        "misc": inputs["damage_misc"],
        "target": "none",
        "target_hp": inputs["target_hp"],
        "npc_hurt": False,
    }
    dmg_answer = damage(harm, data)
    on_hit = rounds.dist_of(dmg_answer)
    steps += dmg_answer["steps"]
    per_round = rounds.round_total([rounds.attack_damage(p, on_hit)] * n)
    hp = inputs["target_hp"]
    uses_hurt = inputs["target"] == "character" or inputs["npc_hurt"]
    if uses_hurt:
        hurt_top = data.fact("hurt", "hurt_hp")["max"]
        dead_at = data.fact("death", "death_hp")
        thresholds = [rounds.Threshold("Hurt", hp - hurt_top), rounds.Threshold("Dead", hp - dead_at)]
        rule = "death" if inputs["target"] == "character" else "ruling:npc-death-at-zero"
        steps.append(data.step(rule, f"At {hurt_top} hit points or fewer the target is Hurt; dead at {dead_at}."))
        verb = "makes Hurt"
    else:
        dead_at = data.fact("npc-death", "npc_death_hp")
        thresholds = [rounds.Threshold("Dead", hp - dead_at)]
        steps.append(data.step("npc-death", f"An ordinary NPC or monster dies at {dead_at} hit points or fewer."))
        verb = "kills"
    reached = rounds.track(per_round, thresholds)
    return rounds.answer(per_round, reached, f"a {hp}-HP foe", steps, verb=verb)
