"""What the non-attack rolls of `phases` share (avoiding an opportunity attack, grapple, shove,
feint, rally): a d20 that must reach a number, and the margin of success it leaves.

The phase d20 is both the order roll and the action roll, but under advantage the action uses
the better (or worse) of it and a second d20, so the order and the action face are enumerated
together (`phase_and_action`) when another combatant's action races yours."""

from __future__ import annotations

from typing import Any

from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.phases.attack_roll import kept_face, phase_die, used_roll

Step = dict[str, str]


def check_roll(inputs: dict[str, Any], data: SystemData, steps: list[Step], phase_roll: int = 0) -> Dist:
    """The d20 face a check uses (advantage and its ruling as for attacks), no natural-roll rule:
    the text gives natural 20 and natural 1 effects to attack rolls only."""
    return used_roll({**inputs, "phase_roll": phase_roll}, data, steps)


def phase_and_action(inputs: dict[str, Any], data: SystemData) -> dict[tuple[int, int], int]:
    """(phase roll, face the action uses) → integer weight (all weights over one common total)."""
    die = phase_die(data)
    known = inputs.get("phase_roll", 0)
    phase = Dist.constant(known) if known else die
    mode = inputs["roll_mode"]
    out: dict[tuple[int, int], int] = {}
    for a, wa in phase.weights():
        if mode == "normal":
            seconds = [(a, die.total)]  # same weight scale as the two-die cases
        else:
            reading = inputs["advantage_reading"]
            seconds = [(kept_face(a, b, mode, reading), wb) for b, wb in die.weights()]
        for face, wb in seconds:
            out[(a, face)] = out.get((a, face), 0) + wa * wb
    return out


def margin_step(data: SystemData, rule: str, number: int, what: str) -> Step:
    return data.step(
        rule,
        f"The roll succeeds at {number} or more; {what} is the margin of success, the roll − {number}.",
    )
