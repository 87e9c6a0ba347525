"""The fight forecast in Countup: each fighter's attacks are the round calculator's (the hit and
damage calculators', Hurt penalties included) against each foe's Armor Class; initiative is
rolled every round and counted up, players (the party) before NPCs on a tie; a fighter is Hurt
from 0 to −9 hit points (−10 to hit and to damage, still fighting) and dies at −10, an ordinary
NPC at 0. The chain itself is `calc.forecast`."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from calc.chains import rounds
from calc.errors import InputError
from calc.forecast import answer, chain, rest_of_round
from calc.forecast.fighters import PARTY, Fighter, Health, dealt, policies, targets_step
from calc.forecast.inputs import each
from calc.forecast.round import Fight
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.countup.damage import hit_damage
from calc.systems.countup.hit import hit
from calc.systems.countup.initiative import initiative_dice
from calc.systems.countup.round import HIT_INPUTS, attacks_per_round, damage_inputs

BOUNDS = (3_000_000, 24_000_000)
"""Countup's own (work, steps) bounds (`calc.forecast.chain.work_bound`, `steps_bound`): its
healths are bare hit points, so a step of its round costs about 0.1 µs in CPython, a third of
Phases' (`python -m calc.forecast.bench`: 3 against 3, 917 states, 14.9 million steps, about
1.3 s; random fights of up to 3 against 3, at most 22 million steps, 2 s), and the chain's
bounds, set for the dearest steps, would refuse it."""

RULINGS = ("natural_rolls", "damage_floor", "reload_reading")
"""Inputs of the whole forecast that the round calculator reads for every fighter."""


def fighter(side: str, index: int, item: dict[str, Any], inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """One fighter's round-calculator inputs checked, with what the forecast needs of them."""
    merged = {**item, **{k: inputs[k] for k in RULINGS}}
    hurt_top = data.fact("hurt", "hurt_hp")["max"]
    uses_hurt = item["target"] == "character" or item["npc_hurt"]
    dead_at = data.fact("death", "death_hp") if uses_hurt else data.fact("npc-death", "npc_death_hp")
    hp = item["target_hp"]
    if hp <= dead_at:
        raise InputError("target_hp", f"{item['name']} is dead at {hp} hit points (dead at {dead_at} or fewer)")
    if item["hurt"] and hp > hurt_top:
        raise InputError("hurt", f"Hurt means {hurt_top} hit points or fewer; {item['name']} has {hp}")
    steps: list[dict[str, str]] = []
    first_n, n = attacks_per_round(merged, data, steps)
    sides = initiative_dice(data)[item["die"]]
    return {
        "side": side, "inputs": merged, "hp": hp, "dead_at": dead_at, "hurt_at": hurt_top if uses_hurt else None,
        "first": first_n, "n": n, "initiative": Dist.die(sides) + item["modifier"],
    }  # fmt: skip


def per_attack(inputs: dict[str, Any], hurt: bool, ac: int, data: SystemData) -> Dist:
    """One attack's damage (a miss as 0) by the hit and damage calculators, as the round has it."""
    merged = {**inputs, "hurt": hurt, "ac": ac}
    to_hit = {k: merged[k] for k in HIT_INPUTS} | {"attack": "melee" if merged["attack"] == "melee" else "ranged"}
    p = rounds.chance_of(hit(to_hit, data), "Hit")
    on_hit, _, _ = hit_damage(damage_inputs(merged), data)
    if on_hit.min < 0:
        raise InputError(
            "damage_floor",
            f"a hit can total {on_hit.min} without the floor at 0: an attack cannot heal its target here",
        )
    return rounds.attack_damage(p, on_hit)


class Attacks:
    """One fighter's attacks: the damage of one attack against each Armor Class, Hurt or not,
    and what it does to a target's hit points (never below the point where the target dies), as
    integer weights over one `scale` for all its attacks."""

    def __init__(self, spec: dict[str, Any], enemies: list[dict[str, Any]], data: SystemData) -> None:
        self.spec = spec
        hurts = (False, True) if spec["hurt_at"] is not None else (False,)
        self.damage = {(hurt, e["inputs"]["ac"]): per_attack(spec["inputs"], hurt, e["inputs"]["ac"], data)
                       for hurt in hurts for e in enemies}  # fmt: skip
        self.scale = math.lcm(*(d.total for d in self.damage.values())) if self.damage else 1

    def hurt(self, hp: int) -> bool:
        return self.spec["hurt_at"] is not None and hp <= self.spec["hurt_at"]

    def count(self, own: Health, first: bool) -> int:
        return self.spec["first"] if first else self.spec["n"]

    def strike(self, own: Any, target: Fighter, health: Any) -> list[tuple[int, Health]]:
        ac, dead = target.defense
        return dealt(self.damage[(self.hurt(own), ac)], self.scale, health, partial(max, dead))


def build(inputs: dict[str, Any], data: SystemData) -> Fight:
    """The fight from the two lists: every fighter with its attacks, initiative and health."""
    specs = each(inputs, lambda side, i, item: fighter(side, i, item, inputs, data))
    fighters: list[Fighter] = []
    for index, spec in enumerate(specs):
        enemies = [s for s in specs if s["side"] != spec["side"]]
        attacks = Attacks(spec, enemies, data)
        danger = sum((spec["n"] * attacks.damage[(False, e["inputs"]["ac"])].mean for e in enemies), Fraction(0))
        marks: list[tuple[str, Callable[[Health], bool]]] = []
        if spec["hurt_at"] is not None:
            marks.append(("is Hurt or worse", partial(operator.ge, spec["hurt_at"])))
        marks.append(("dies", partial(operator.ge, spec["dead_at"])))
        f = Fighter(
            name=spec["inputs"]["name"],
            side=spec["side"],
            start=spec["hp"],
            hp=spec["hp"],
            initiative=spec["initiative"],
            tie=(0 if spec["side"] == PARTY else 1,) + (() if inputs["ties"] == "together" else (index,)),
            danger=danger / max(len(enemies), 1),
            states=spec["hp"] - spec["dead_at"],
            scale=attacks.scale,
            most=max(spec["first"], spec["n"]),
            attacks=attacks.count,
            strike=attacks.strike,
            out=partial(operator.ge, spec["dead_at"]),
            marks=tuple(marks),
            defense=(spec["inputs"]["ac"], spec["dead_at"]),
        )
        fighters.append(f)
    return Fight(fighters, policies(inputs), high_first=False, bounds=BOUNDS)


def forecast(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    fight = build(inputs, data)
    result = chain.forecast(rest_of_round.mid_round(fight, inputs), inputs["rounds"])
    return answer.answer(
        result, fight.fighters, steps(inputs, data) + rest_of_round.step(inputs, data, "initiative"), data, inputs
    )


def steps(inputs: dict[str, Any], data: SystemData) -> list[dict[str, str]]:
    """Every assumption of the forecast, each with the rule (or ruling) behind it."""
    ties = (
        "tied fighters of one side act together (both act, even if one fells the other)"
        if inputs["ties"] == "together"
        else "tied fighters of one side act in the order listed (the players' choice; for NPCs the GM's)"
    )
    return [
        data.step("initiative", "Every round each fighter rolls its initiative die and adds its modifier."),
        data.step(
            "initiative-count",
            "The count runs up: the lowest total acts first; a fighter down before its turn does not act.",
        ),
        data.step("initiative-ties", f"On the same total the party (players) acts before the foes (NPCs); {ties}."),
        data.step("ruling:initiative-npc-ties", "Two NPCs on one total: the GM's order; choose it under Ties."),
        data.step(
            "primary-action",
            "Each fighter's Primary Action attacks at its attack rate, each attack at its side's current target.",
        ),
        data.step(
            "secondary-action",
            "A first round that needs a move and a draw has no attack (as each fighter's First round says).",
        ),
        targets_step(data, inputs),
        data.step("hurt", "From 0 to −9 hit points a character is Hurt: −10 to hit and to damage, still fighting."),
        data.step("death", "A character (or an important NPC) dies at −10 and leaves the fight."),
        data.step("npc-death", "An ordinary NPC or monster dies at 0 and leaves the fight."),
    ]  # fmt: skip


__all__: Sequence[str] = ("forecast",)
