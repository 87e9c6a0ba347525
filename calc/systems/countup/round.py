"""The round calculator: which attacks fit in each round under the Primary and Secondary Actions
of a turn (the Primary attacks at the attack rate; the one Secondary moves, draws or reloads and
cannot attack, so a weapon reloaded after each shot fires once a round (ruling), and a first
round that needs both a move and a draw has no attack), each hit chance from the hit calculator
and each hit's damage from the damage calculator, summed into a round; then rounds until the
target is Hurt and dead (characters, important NPCs) or dead at 0 (ordinary NPCs and monsters)."""

from __future__ import annotations

from typing import Any

from calc.answers import first_attack, round_answer
from calc.answers.format import number
from calc.chains import rounds
from calc.chains.track import Threshold, track
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.countup.damage import hit_damage
from calc.systems.countup.hit import hit
from calc.turns import party

HIT_INPUTS = ("to_hit", "ability_from", "ability_score", "ability_bonus", "misc", "hurt", "ac", "natural_rolls")
DAMAGE_INPUTS = (
    "attack", "dice", "strength_from", "strength_score", "strength_bonus", "damage_misc", "hurt", "damage_floor",
)  # fmt: skip


def attacks_per_round(inputs: dict[str, Any], data: SystemData, steps: list[dict[str, str]]) -> tuple[int, int]:
    """(attacks in the first round, attacks in each later round) under the turn's actions."""
    rate = inputs["attacks"]
    primary = data.fact("actions", "primary_per_turn")
    secondary = data.fact("actions", "secondary_per_turn")
    steps.append(
        data.step(
            "actions",
            f"{primary} Primary and {secondary} Secondary Action a turn; only the Primary Action attacks.",
        )
    )
    steps.append(data.step("primary-action", f"The Primary Action attacks at the attack rate: {rate} attack(s)."))
    n = rate
    if inputs["attack"] == "ranged" and inputs["reload"]:
        if inputs["reload_reading"] == "one-shot":
            n = 1
            steps.append(
                data.step(
                    "ruling:round-reload",
                    f"The weapon is reloaded after each shot, and reloading is the turn's {secondary} Secondary "
                    "Action: it starts loaded and fires once a round (the Secondary reloads it for the next).",
                )
            )
        else:
            steps.append(
                data.step(
                    "ruling:round-reload",
                    f"Other reading: reloading between shots is part of attacking at the attack rate: {rate} shot(s).",
                )
            )
    first = inputs["first_round"]
    jobs = {"ready": [], "move": ["move into reach"], "draw": ["draw the weapon"]}.get(
        first, ["move into reach", "draw the weapon"]
    )
    if not jobs:
        return n, n
    if len(jobs) <= secondary:
        steps.append(
            data.step(
                "secondary-action",
                f"First round: the Secondary Action is spent to {jobs[0]}; the Primary still attacks.",
            )
        )
        return n, n
    steps.append(
        data.step(
            "secondary-action",
            f"First round: to {' and '.join(jobs)} are {len(jobs)} Secondary Actions and a turn has {secondary}; "
            "the other takes the Primary Action (or waits a turn), so the first round has no attack.",
        )
    )
    return 0, n


def damage_inputs(inputs: dict[str, Any]) -> dict[str, Any]:
    """The damage calculator's inputs of one attacker: a melee attack's Strength bonus is the one
    that goes to hit (entered once); a thrown weapon's comes from its own Strength inputs."""
    own = {k: inputs[k] for k in DAMAGE_INPUTS}
    if inputs["attack"] == "melee":
        own |= {"strength_from": inputs["ability_from"], "strength_score": inputs["ability_score"]}
        own |= {"strength_bonus": inputs["ability_bonus"]}
    return own


def one_attacker(inputs: dict[str, Any], data: SystemData, at: int) -> tuple[Dist, Dist, list[dict[str, str]]]:
    """(one attacker's damage in the first round, in each later round, its why-steps); `at` is its
    place in `attackers` (1-based), for errors and steps."""
    steps: list[dict[str, str]] = []
    first_n, n = attacks_per_round(inputs, data, steps)
    to_hit = {k: inputs[k] for k in HIT_INPUTS} | {"attack": "melee" if inputs["attack"] == "melee" else "ranged"}
    hit_answer = hit(to_hit, data)
    p = rounds.chance_of(hit_answer, "Hit")
    steps += hit_answer["steps"]
    on_hit, damage_steps, _ = hit_damage(damage_inputs(inputs), data)
    if on_hit.min < 0:
        raise InputError(
            "damage_floor",
            f"a hit can total {on_hit.min} without the floor at 0: a round cannot heal the target, "
            "so keep damage below 0 counting as 0 here",
        )
    steps += damage_steps
    one = rounds.attack_damage(p, on_hit)
    party.bounded(on_hit.max * n, party.MAX_ROUND_DAMAGE, "points of damage a round", party.where(inputs, at, "dice"))
    return rounds.round_total([one] * first_n), rounds.round_total([one] * n), party.named(steps, party.who(inputs, at))


def whole_round(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    firsts, laters, steps = party.rounds_of(inputs, data, one_attacker)
    same = all(f.min == g.min and f.max == g.max for f, g in zip(firsts, laters, strict=True))
    hp = inputs["target_hp"]
    uses_hurt = inputs["target"] == "character" or inputs["npc_hurt"]
    if uses_hurt:
        hurt = data.fact("hurt", "hurt_hp")
        dead_at = data.fact("death", "death_hp")
        already = hp <= hurt["max"]  # a Hurt target (0 to −9): only its death is still to come
        thresholds = [] if already else [Threshold(HURT, hp - hurt["max"])]
        thresholds.append(Threshold("Dead", hp - dead_at))
        rule = "death" if inputs["target"] == "character" else "ruling:npc-death-at-zero"
        if already:
            steps.append(
                data.step(
                    "hurt",
                    f"At {number(hp)} hit points the target is already Hurt ({number(hurt['min'])} to "
                    f"{number(hurt['max'])}); the table counts only its death.",
                )
            )
        else:
            steps.append(
                data.step(
                    "hurt",
                    f"Hurt is {hurt['min']} to {hurt['max']} hit points; a blow that takes the target from "
                    f"above {hurt['max']} to {dead_at} or fewer kills it without it ever being Hurt, so the "
                    f'table counts "{HURT}": at {hurt["max"]} hit points or fewer, dead included.',
                )
            )
        steps.append(data.step(rule, f"Dead at {dead_at} hit points or fewer."))
        who = inputs["target"] if inputs["target"] == "character" else "NPC"
        if already:
            aim = f"kill a {number(hp)}-HP {who}, already Hurt (dead at {number(dead_at)})"
        else:
            aim = f"take a {hp}-HP {who} to 0 HP or below ({HURT})"
    else:
        dead_at = data.fact("npc-death", "npc_death_hp")
        if hp <= dead_at:
            raise InputError(
                "target_hp",
                f"an ordinary NPC or monster is dead at {dead_at} hit points or fewer; only a character "
                f"or an important NPC (Hurt from {number(data.fact('hurt', 'hurt_hp')['min'])}) has {number(hp)}",
            )
        thresholds = [Threshold("Dead", hp - dead_at)]
        steps.append(data.step("npc-death", f"An ordinary NPC or monster dies at {dead_at} hit points or fewer."))
        aim = f"kill a {hp}-HP foe"
    attacks = sum(a["attacks"] for a in party.each(inputs))
    most = sum(d.max for d in laters)
    party.track_bounded(attacks, most, max(t.damage for t in thresholds), party.whole(inputs, "target_hp"))
    per_round = rounds.round_total(laters)
    first = None if same else rounds.round_total(firsts)  # fewer attacks fit in the first round
    reached = track(per_round, thresholds, first=first)
    return round_answer.answer(per_round, reached, aim, steps)


HURT = "Hurt or worse"


def one_attack(attacker: dict[str, Any]) -> dict[str, Any]:
    """The attacker's round cut to its first attack, made now (ready: it is its turn)."""
    return attacker | {"attacks": 1, "first_round": "ready"}


def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
    """A thrown weapon hits as a ranged attack (as `one_attacker` asks the hit calculator)."""
    return {"attack": "melee" if attacker["attack"] == "melee" else "ranged"}


round_ = first_attack.calculator(whole_round, one_attack, hit_extra)
"""The whole round's answer with the attack at hand (`first_attack`: calc/answers/first_attack.py)."""
