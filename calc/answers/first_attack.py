"""The attack at hand, in a round calculator's answer: `first_attack`, the first attack of the
first attacker (the one the tracker's odds are about): its chance to hit (the system's hit
calculator, same inputs by name), its expected damage (misses as 0) and the chance it alone
drops the target, for every threshold of the round (`rounds`' labels, same order).

"Drops with this attack" is the round calculator itself run on that one attack (the first
attacker alone, its round cut to that attack by the system's `one_attack`), so each system's own
chain (hit points, Wounds, dying, reserves) decides it, and read in its first round: exact, and
never a second rule. When the request already is one attack (phases: one action a round), the
answer's own first round is it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc import systems
from calc.answers import result
from calc.chains import rounds
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns import party

Inputs = dict[str, Any]


ALONE: dict[Callable[..., Any], Callable[[Inputs, SystemData], dict[str, Any]]] = {}
"""Each round calculator (as `calculator` makes it) → its round alone, without `first_attack`."""


def calculator(
    round_fn: Callable[[Inputs, SystemData], dict[str, Any]],
    one_attack: Callable[[Inputs], Inputs],
    hit_inputs: Callable[[Inputs], Inputs],
) -> Callable[[Inputs, SystemData], dict[str, Any]]:
    """A system's round calculator: `round_fn`'s answer with `first_attack`; the round alone stays
    reachable (`ALONE`, `calc.evaluate(..., first_attack=False)`) for a figure that reads only the
    rounds (the odds card's "before it acts again": a third of its time was the first attack)."""

    def round_calculator(inputs: Inputs, data: SystemData) -> dict[str, Any]:
        return with_first_attack(round_fn(inputs, data), inputs, data, round_fn, one_attack, hit_inputs)

    ALONE[round_calculator] = round_fn
    return round_calculator


def with_first_attack(
    answer: dict[str, Any],
    inputs: Inputs,
    data: SystemData,
    round_fn: Callable[[Inputs, SystemData], dict[str, Any]],
    one_attack: Callable[[Inputs], Inputs],
    hit_inputs: Callable[[Inputs], Inputs],
) -> dict[str, Any]:
    """`answer` (`round_fn`'s, for `inputs`) with `first_attack`:
    `{"hit", "expected", "drops": [{"label", "p"}]}` (exact numbers as `result.prob`).
    `one_attack(attacker)`: that attacker's inputs cut to its first attack of the round;
    `hit_inputs(attacker)`: the hit calculator's inputs of that attack beyond those of the same name."""
    first = party.each(inputs)[0] | {party.LIST: []}
    one = one_attack(first)
    if one == inputs:
        alone = answer  # already one attack: its first round is the attack
    else:
        alone = round_fn(one, data)
    dealt = alone["distribution"]
    hit, hit_steps = hit_chance(first, data, hit_inputs)
    cited = [s for s in alone["steps"] if s.get("url")]
    damage = next((s for s in cited if "damage" in s["rule"]), None)
    answer["first_attack"] = {
        "hit": result.prob(hit),
        "expected": dealt["mean"],
        "drops": [{"label": r["label"], "p": r["within"][0]} for r in alone["rounds"]],
        # the rule each figure comes from: the hit calculator's first reason, the damage rule, and
        # the round's last reason (when the target drops)
        "rules": {
            "hit": _rule(hit_steps[0]) if hit_steps else None,
            "damage": _rule(damage) if damage else None,
            "drops": _rule(cited[-1]) if cited else None,
        },
    }
    return answer


def _rule(step: dict[str, str]) -> dict[str, str]:
    return {k: step[k] for k in ("rule", "title", "url")}


def hit_chance(attacker: Inputs, data: SystemData, extra: Callable[[Inputs], Inputs]) -> tuple[Any, list[dict]]:
    """The first attack's chance to hit and the hit calculator's reasons: that calculator on the
    attacker's inputs of the same names (and `extra`'s), its first chance ("Hit", "Attack lands")."""
    decls = data.calculator("hit")["inputs"]
    raw = {d["name"]: attacker[d["name"]] for d in decls if d["name"] in attacker} | extra(attacker)
    answer = systems.engine(data.id).CALCULATORS["hit"](declared.validate(decls, raw), data)
    cited = [s for s in answer["steps"] if s.get("url")]
    return rounds.chance_of(answer, answer["chances"][0]["label"]), cited
