"""The round calculator's answer as the GM reads it: `calc.rounds.answer` (the damage distribution,
the rounds table, the chances), with a summary that leads with what a GM opens it for (the rounds
to drop the foe and the chance within 3 rounds: the phone's answer bar shows the summary's first
two lines) and, under `rounds`, every threshold's exact mean and exact chances round by round.
"""

from __future__ import annotations

from typing import Any

from calc import result, rounds
from calc.dist import Dist

HEADLINE_ROUNDS = 3  # "the chance within 3 rounds": the figure, a display choice


def answer(
    per_round: Dist,
    reached: list[rounds.Reached],
    target: str,
    steps: list[dict[str, str]],
    label: str = "Damage per round",
    verb: str = "drops",
    lead: int = 0,
) -> dict[str, Any]:
    """`rounds.answer` with the summary led by `reached[lead]` (the threshold the GM asks about:
    the target drops, or is out of the fight) and the exact `rounds` block."""
    out = rounds.answer(per_round, reached, target, steps, label, verb)
    out["summary"] = summary(per_round, reached[lead], target, verb)
    out["rounds"] = [
        {
            "label": r.label,
            "mean": result.prob(r.mean) if r.mean is not None else None,
            "within": [result.prob(p) for p in r.within],
        }
        for r in reached
    ]
    return out


def summary(per_round: Dist, first: rounds.Reached, target: str, verb: str) -> str:
    """E.g. "Drops a 22-HP foe in 3.4 rounds on average, 61% within 3 rounds; deals 7.5 per round"."""
    deals = f"deals {_num(per_round.mean)} per round on average"
    if first.mean is None:
        return f"Never {verb} {target}: {deals}"
    within = first.within[HEADLINE_ROUNDS - 1]
    return (
        f"{verb[0].upper()}{verb[1:]} {target} in {_num(first.mean)} rounds on average, "
        f"{result.percent(within, 0)} within {HEADLINE_ROUNDS} rounds; {deals}"
    )


def _num(x: Any) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
