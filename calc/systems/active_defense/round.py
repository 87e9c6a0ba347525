"""The round calculator: the attacker's complex action (and, with two weapons, the off-hand bonus
action) against a defender holding reserve actions for blocks or dodges; each attack's chances
and damage from the damage calculator; the reserves shared out over the round's attacks (they
do not carry over), then rounds until the target drops."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc import inputs as declared
from calc import rounds
from calc.data import SystemData
from calc.dist import Dist
from calc.systems.active_defense.damage import damage


def _attack(
    inputs: dict[str, Any], data: SystemData, hand: str, dice_input: str
) -> tuple[Fraction, Fraction, Dist, str]:
    """(P beats Passive Defense, P lands when defended, damage when it lands, summary) of one attack."""
    decl = data.calculator("damage")["inputs"]
    own = {d["name"] for d in decl} & set(inputs)
    asked = {k: inputs[k] for k in own} | {
        "attacker_two_weapon": hand,
        "damage_dice": inputs[dice_input],
        "at_least": 1,
    }
    bare = rounds.uncut(damage, declared.validate(decl, asked | {"defense": "none"}), data)
    defended = rounds.uncut(damage, declared.validate(decl, asked), data)
    beats = rounds.chance_of(bare, "Attack lands")
    lands = rounds.chance_of(defended, "Attack lands")
    return beats, lands, rounds.dist_of(defended), defended["summary"]


def round_(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    per_round_actions = data.fact("complex-actions", "per_round")
    hands = (
        [("primary", "damage_dice"), ("off-hand", "off_hand_dice")] if inputs["off_hand"] else [("none", "damage_dice")]
    )
    steps = [
        data.step(
            "complex-actions",
            f"{per_round_actions} complex action a round attacks"
            + (", and two weapons give a bonus complex action for the off hand." if inputs["off_hand"] else "."),
        )
    ]
    if inputs["off_hand"]:
        steps.append(data.step("two-weapon-fighting", "Both hands attack, each with its two-weapon penalty."))
    defended = inputs["defense"] != "none"
    reserves = inputs["reserves"] if defended else 0
    when_hit = inputs["spend_reserve"] == "when-hit"
    if defended:
        steps.append(
            data.step(
                "reserve-actions",
                f"The defender holds {reserves} reserve action(s) this round to {inputs['defense']}; none carry over.",
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
    # the round as a mixture over how many reserves are left: {reserves left: [(probability, damage so far)]}
    states: dict[int, list[tuple[Fraction, Dist]]] = {reserves: [(Fraction(1), Dist.constant(0))]}
    for hand, dice_input in hands:
        beats, lands, dealt, summary = _attack(inputs, data, hand, dice_input)
        steps.append(data.step("attack-roll", f"{'Off-hand' if hand == 'off-hand' else 'Attack'}: {summary}."))
        nxt: dict[int, list[tuple[Fraction, Dist]]] = {}
        for left, parts in states.items():
            if left and defended:
                used = beats if when_hit else Fraction(1)  # chance this attack takes a reserve
                outcomes = [(left - 1, used, lands / used if used else Fraction(0)), (left, 1 - used, Fraction(0))]
            else:
                outcomes = [(left, Fraction(1), beats)]
            for after, q, p_land in outcomes:
                if not q:
                    continue
                one = rounds.attack_damage(p_land, dealt)
                nxt.setdefault(after, []).extend((p * q, so_far + one) for p, so_far in parts)
        states = nxt
    per_round = Dist.mixture([pq for parts in states.values() for pq in parts])
    hp = inputs["target_hp"]
    drops = data.fact("death-and-dying", "drops_at")
    steps.append(data.step("ruling:round-target-drops", f"The target drops at {drops} hit points (ruling)."))
    reached = rounds.track(per_round, [rounds.Threshold("Drops", hp - drops)])
    return rounds.answer(per_round, reached, f"a {hp}-HP foe", steps)
