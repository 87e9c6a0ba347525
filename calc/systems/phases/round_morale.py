"""Morale as an outcome of the round: a target that fails its morale roll on its first Wound flees
(or gives up) and is out of the fight, as surely as one that is down or dead.

The morale rule: the first Wound a monster takes usually calls for a 2d6 morale roll, and a roll
above its Morale score makes it flee (`ruling:morale-above`, its other reading: equal or above).
When the roll comes is a ruling (`ruling:round-morale`): in the next round's morale phase, the
round's first phase (the text's order), or at once, when the Wound lands.

The chain is the round calculator's own (same step, same states) with the morale on top: not yet
wounded, wounded with the roll still to come, wounded and held; out of the fight is absorbing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from calc.chains.reached import Reached
from calc.chains.state_chain import StateChain
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.systems.phases.order import flees

OUT = "out"
NOT_YET, PENDING, HELD = 0, 1, 2


def flee_weight(inputs: dict[str, Any], data: SystemData) -> tuple[int, int]:
    """(the morale dice's faces that make the target flee, all their faces)."""
    roll = dice.parse(data.fact("morale", "morale_dice")).dist()
    fled = sum(w for total, w in roll.weights() if flees(total, inputs["morale"], inputs["morale_reading"]))
    return fled, roll.total


def out_of_fight(
    step: Callable[[Any], list[tuple[int, Any]]],
    start: Hashable,
    total: int,
    inputs: dict[str, Any],
    data: SystemData,
    steps: list[dict[str, str]],
) -> Reached:
    """When the target is out of the fight: down, dead, or fled on its first Wound's morale roll."""
    fled, faces = flee_weight(inputs, data)
    at_once = inputs["morale_when"] == "at-once"
    score = inputs["morale"]
    reading = "above" if inputs["morale_reading"] == "above" else "equal to or above"
    steps.append(
        data.step(
            "morale",
            f"Morale {score}: its first Wound calls for a {data.fact('morale', 'morale_dice')} morale roll, and a "
            f"roll {reading} {score} makes it flee ({fled}/{faces}): out of the fight, as if down.",
        )
    )
    steps.append(
        data.step(
            "ruling:morale-above",
            "A roll above the score flees (ruling)."
            if inputs["morale_reading"] == "above"
            else "Other reading: a roll equal to the score flees too.",
        )
    )
    steps.append(
        data.step(
            "ruling:round-morale",
            "Other reading: the roll comes at once, when the Wound lands."
            if at_once
            else "The roll comes in the next round's morale phase, the round's first (ruling): a target wounded "
            "this round may still be downed before it.",
        )
    )
    held = faces - fled

    def morale_step(state: Any) -> list[tuple[int, Any]]:
        if state == OUT:
            return [(total * faces, OUT)]
        s, m = state
        out: list[tuple[int, Any]] = []
        keep = faces
        if m == PENDING:  # the morale phase opens the round
            out.append((fled * total, OUT))
            keep, m = held, HELD
        for w, t in step(s):
            if t[4] or t[5]:  # down or dead
                out.append((w * keep, OUT))
            elif m == NOT_YET and t[3]:  # its first Wound
                if at_once:
                    out.append((w * fled, OUT))
                    out.append((w * held, (t, HELD)))
                else:
                    out.append((w * keep, (t, PENDING)))
            else:
                out.append((w * keep, (t, m)))
        return out

    chain = StateChain((start, NOT_YET), morale_step, total=total * faces)
    (out,) = chain.reach_all([("Out of the fight", lambda s: s == OUT)])
    return out
