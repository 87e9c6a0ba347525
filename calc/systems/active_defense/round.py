"""The round calculator: the attacker's complex action (and, with two weapons, the off-hand bonus
action) against a defender holding reserve actions for blocks or dodges; each attack's chances
and damage from the damage calculator; the reserves shared out over the round's attacks (they
do not carry over), then rounds until the target drops."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import first_attack, round_answer
from calc.chains import rounds
from calc.chains.track import Threshold, track
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.active_defense.damage import damage
from calc.turns import party


def hands(attacker: dict[str, Any]) -> list[tuple[str, str]]:
    """The attacker's attacks of a round, in order, as (hand, its dice input): with two weapons the
    primary hand's complex action and the off hand's bonus one, else the one attack."""
    if attacker["off_hand"]:
        return [("primary", "damage_dice"), ("off-hand", "off_hand_dice")]
    return [("none", "damage_dice")]


def by_hand(attacker: dict[str, Any], hand: str, dice_input: str) -> dict[str, Any]:
    """The attacker's inputs for its attack with `hand`: that hand's two-weapon penalty
    (`attacker_two_weapon`, which `hit_extra` keeps) and its damage dice."""
    return attacker | {"attacker_two_weapon": hand, "damage_dice": attacker[dice_input]}


def _attack(one: dict[str, Any], data: SystemData) -> tuple[Fraction, Fraction, Dist, str]:
    """(P beats Passive Defense, P lands when defended, damage when it lands, summary) of one attack
    (`by_hand`'s inputs)."""
    decl = data.calculator("damage")["inputs"]
    own = {d["name"] for d in decl} & set(one)
    asked = {k: one[k] for k in own} | {"attacker_two_weapon": one["attacker_two_weapon"], "at_least": 1}
    bare = rounds.uncut(damage, declared.validate(decl, asked | {"defense": "none"}), data)
    defended = rounds.uncut(damage, declared.validate(decl, asked), data)
    beats = rounds.chance_of(bare, "Attack lands")
    lands = rounds.chance_of(defended, "Attack lands")
    return beats, lands, rounds.dist_of(defended), defended["summary"]


def whole_round(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    per_round_actions = data.fact("complex-actions", "per_round")
    everyone = party.each(inputs)
    steps = []
    for i, attacker in enumerate(everyone, start=1):
        two = attacker["off_hand"]
        steps.append(
            data.step(
                "complex-actions",
                party.who(inputs, i)
                + f"{per_round_actions} complex action a round attacks"
                + (", and two weapons give a bonus complex action for the off hand." if two else "."),
            )
        )
        if two:
            steps.append(data.step("two-weapon-fighting", "Both hands attack, each with its two-weapon penalty."))
    attacks = [
        (i, by_hand(attacker, hand, dice_input))
        for i, attacker in enumerate(everyone, start=1)
        for hand, dice_input in hands(attacker)
    ]
    most = sum(one["damage_dice"].dist().max + one["damage_strength"] + one["critical_bonus"] for _, one in attacks)
    deepest = inputs["target_hp"] - data.fact("death-and-dying", "drops_at")
    party.track_bounded(len(attacks), most, deepest, party.whole(inputs, "target_hp"))
    defended = inputs["defense"] != "none"
    reserves = inputs["reserves"] if defended else 0
    when_hit = inputs["spend_reserve"] == "when-hit"
    if defended:
        shared = " against all the attackers, in the order they attack" if len(everyone) > 1 else ""
        steps.append(
            data.step(
                "reserve-actions",
                f"The defender holds {reserves} reserve action(s) this round to {inputs['defense']}{shared}; "
                "none carry over.",
            )
        )
        steps.append(
            data.step(
                "ruling:reserve-spending",
                "A reserve is spent only on an attack that beats Passive Defense (ruling)."
                if when_hit
                else "Other reading: reserves go to the first attacks, hit or not.",
            )
        )
    # the round so far, by how many reserves are left: {reserves left: (its chance, the damage so far given it)}
    states: dict[int, tuple[Fraction, Dist]] = {reserves: (Fraction(1), Dist.constant(0))}
    for i, one in attacks:
        beats, lands, dealt, summary = _attack(one, data)
        what = "Off-hand" if one["attacker_two_weapon"] == "off-hand" else "Attack"
        steps.append(data.step("attack-roll", f"{party.who(inputs, i)}{what}: {summary}."))
        nxt: dict[int, list[tuple[Fraction, Dist]]] = {}
        for left, (p, so_far) in states.items():
            if left and defended:
                used = beats if when_hit else Fraction(1)  # chance this attack takes a reserve
                outcomes = [(left - 1, used, lands / used if used else Fraction(0)), (left, 1 - used, Fraction(0))]
            else:
                outcomes = [(left, Fraction(1), beats)]
            for after, q, p_land in outcomes:
                if q:
                    nxt.setdefault(after, []).append((p * q, so_far + rounds.attack_damage(p_land, dealt)))
        states = {left: _merged(parts) for left, parts in nxt.items()}
    per_round = Dist.mixture(list(states.values()))
    hp = inputs["target_hp"]
    drops = data.fact("death-and-dying", "drops_at")
    steps.append(data.step("ruling:round-target-drops", f"The target drops at {drops} hit points (ruling)."))
    reached = track(per_round, [Threshold("Drops", hp - drops)])
    return round_answer.answer(per_round, reached, f"drop a {hp}-HP foe", steps)


def _merged(parts: list[tuple[Fraction, Dist]]) -> tuple[Fraction, Dist]:
    """Paths that leave the same reserves: one chance and one damage distribution (their mixture),
    so the paths never multiply with the attacks."""
    mass = sum((p for p, _ in parts), Fraction(0))
    return mass, Dist.mixture([(p / mass, d) for p, d in parts]) if len(parts) > 1 else parts[0][1]


def one_attack(attacker: dict[str, Any]) -> dict[str, Any]:
    """The round cut to the attacker's first attack: the primary hand (without an off-hand attack
    it is the only one), against the defender's reserves as they stand at the round's start."""
    return attacker | {"off_hand": False}


def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
    """The hand's two-weapon penalty (the one `by_hand` names, else the primary hand's), and no
    active defense without a reserve to spend."""
    hand = attacker.get("attacker_two_weapon") or ("primary" if attacker["off_hand"] else "none")
    return {"attacker_two_weapon": hand} | ({} if attacker["reserves"] else {"defense": "none"})


round_ = first_attack.calculator(whole_round, one_attack, hit_extra)
"""The whole round's answer with the attack at hand (`first_attack`: calc/answers/first_attack.py)."""
