"""Reading `calc.evaluate` answers in tests: exact probabilities back as Fractions."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import calc
from calc.answers.result import dist_probs


def runner(system: str) -> Callable[..., dict[str, Any]]:
    """`run(calculator, **inputs)` → the answer of `system`'s calculator."""

    def run(calculator: str, **inputs: Any) -> dict[str, Any]:
        return calc.evaluate({"system": system, "calculator": calculator, "inputs": inputs})

    return run


def p(entry: dict[str, Any]) -> Fraction:
    """The exact probability of an entry carrying `{"p": {"fraction": …}}`."""
    return Fraction(entry["p"]["fraction"])


def chance(answer: dict[str, Any], label: str) -> Fraction:
    """The headline chance with this label (exactly one must exist)."""
    (found,) = [c for c in answer["chances"] if c["label"] == label]
    return p(found)


def chance_starting(answer: dict[str, Any], label: str) -> Fraction:
    """The first chance whose label is `label` or starts with it (labels that end in a figure)."""
    for c in answer["chances"]:
        if c["label"] == label or c["label"].startswith(label):
            return p(c)
    raise AssertionError(f"no chance '{label}' in {[c['label'] for c in answer['chances']]}")


def pmf(answer: dict[str, Any]) -> dict[int, Fraction]:
    """The damage distribution as {outcome: probability}."""
    return dist_probs(answer["distribution"])
