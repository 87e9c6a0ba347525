"""The round calculator's answer as the GM reads it: `calc.chains.rounds.answer` (the damage distribution,
the rounds table, the chances), with a summary that leads with what a GM opens it for (the rounds
to drop the foe and the chance within 3 rounds: the phone's answer bar shows the summary's first
two lines) and, under `rounds`, every threshold's exact mean and exact chances round by round.
"""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.chains import rounds
from calc.chains.reached import Reached
from calc.numbers.dist import Dist

HEADLINE_ROUNDS = 3  # "the chance within 3 rounds": the figure, a display choice


def answer(
    per_round: Dist,
    reached: list[Reached],
    aim: str,
    steps: list[dict[str, str]],
    label: str = "Damage per round",
    lead: int = 0,
) -> dict[str, Any]:
    """`rounds.answer` with the summary led by `reached[lead]` (the threshold the GM asks about;
    `aim` says it: "kill a 22-HP foe", "take a 6-HP monster out of the fight") and the exact
    `rounds` block."""
    out = rounds.answer(per_round, reached, aim, steps, label)
    out["summary"] = summary(per_round, reached[lead], aim)
    out["rounds"] = [
        {
            "label": r.label,
            "mean": result.prob(r.mean) if r.mean is not None else None,
            "within": [result.prob(p) for p in r.within],
        }
        for r in reached
    ]
    return out


def summary(per_round: Dist, first: Reached, aim: str) -> str:
    """E.g. "3.4 rounds · 61% within 3 · to drop a 22-HP foe; deals 7.5 per round on average": the
    two figures first, short enough for the two folded lines of a phone's answer bar (about 20
    characters each)."""
    deals = f"deals {_num(per_round.mean)} per round on average"
    if first.mean is None:
        return f"{unreached(first, aim)}; {deals}"
    within = result.percent(first.within[HEADLINE_ROUNDS - 1], 0)
    return f"{_num(first.mean)} rounds · {within} within {HEADLINE_ROUNDS} · to {aim}; {deals}"


def unreached(first: Reached, aim: str) -> str:
    """The words for a threshold with no mean: "Cannot" only when no round shown reaches it; else
    the chance shown and why there is no mean (it may never come: the target may be left where it
    can no longer get there, e.g. wounded, held by morale and out of reach of a death)."""
    if not first.within[-1]:
        return f"Cannot {aim} within {len(first.within)} rounds"
    within = result.percent(first.within[HEADLINE_ROUNDS - 1], 0)
    cap = result.percent(first.within[-1], 0)
    return (
        f"No mean (it may never come) · {within} within {HEADLINE_ROUNDS}, {cap} within {len(first.within)} · to {aim}"
    )


def _num(x: Any) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
