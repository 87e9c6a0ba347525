"""The round calculator: how a turn's AP are spent on attacks (standard, quick, power, charge;
each priced by its action type), each attack's whole damage (misses as 0, criticals, miss chance,
weakness and resistance) from the damage calculator, summed into the turn; then rounds until the
target falls below 0 hit points (unconscious, dying) and until it reaches the dead threshold."""

from __future__ import annotations

from typing import Any

from calc import inputs as declared
from calc import rounds
from calc.data import SystemData
from calc.errors import InputError
from calc.systems.action_points.attack import damage

STYLES = {"standard": "standard-attack", "quick": "quick-attack", "power": "power-attack", "charge": "charge"}


def round_(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    budget = data.fact("action-points-per-turn", "ap_gained")
    plan, spent = [], 0
    for style, rule in STYLES.items():
        kind = data.fact(rule, "action_type")
        cost = data.fact("action-types", f"{kind}_ap")
        plan.append((style, rule, kind, cost, inputs[style]))
        spent += cost * inputs[style]
    if spent > budget:
        worst = max((s for s in plan if s[4]), key=lambda s: s[3])
        shown = ", ".join(f"{n} {style} ({cost} AP)" for style, _, _, cost, n in plan if n)
        raise InputError(worst[0], f"{shown} cost {spent} AP: a turn has only {budget} AP")
    if not spent:
        raise InputError("standard", "choose at least one attack for the turn")
    steps = [data.step("action-points-per-turn", f"A turn has {budget} AP; the attacks chosen spend {spent}.")]
    own = {d["name"] for d in data.calculator("damage")["inputs"]} & set(inputs)
    attacks = []
    for style, rule, kind, cost, n in plan:
        if not n:
            continue
        asked = {k: inputs[k] for k in own} | {"attack": style, "outcome": "attack"}
        answer = damage(declared.validate(data.calculator("damage")["inputs"], asked), data)
        one = rounds.dist_of(answer)
        attacks += [one] * n
        steps.append(data.step("action-types", f"{n} × {style} attack: a {kind} action, {cost} AP each."))
        steps.append(data.step(rule, f"{style.capitalize()} attack: {answer['summary']}."))
    per_round = rounds.round_total(attacks)
    hp = inputs["target_hp"]
    below = data.fact("dying", "dying_below")
    dead = data.fact("dead", "dead_at")
    thresholds = [rounds.Threshold("Unconscious", hp - below + 1), rounds.Threshold("Dead", hp - dead)]
    steps.append(data.step("dying", f"Below {below} hit points the target is unconscious and dying."))
    steps.append(
        data.step("dead", f"At {dead} it is dead (counting only these attacks, not its own failed dying checks).")
    )
    reached = rounds.track(per_round, thresholds)
    return rounds.answer(per_round, reached, f"a {hp}-HP foe", steps, "Damage per turn", "knocks out")
