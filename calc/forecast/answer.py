"""The forecast calculator's result: who wins, who falls, how long the fight lasts (median, 90th
percentile, the whole table and the exact mean round), the assumptions beside the numbers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.forecast.chain import Forecast
from calc.forecast.fighters import Fighter
from calc.inputs.data import SystemData


def quantile(over: tuple[Fraction, ...], share: Fraction) -> int | None:
    """The first round by which the fight is over with chance `share` or more (None: not within
    the rounds followed)."""
    return next((k for k, p in enumerate(over, start=1) if p >= share), None)


def length_text(k: int | None, rounds: int) -> str:
    return str(k) if k is not None else f"more than {rounds}"


def mean_text(mean: Fraction | None) -> str:
    """The exact mean round, `7/2 (3.5)`; a fight that may never end has none."""
    if mean is None:
        return "none (the fight may never end)"
    if mean.denominator == 1:
        return str(mean.numerator)
    return f"{mean} ({float(mean):.3g})"


CALCULATOR = "forecast"
"""The calculator of calculators.yaml whose `ruling:` inputs the answer cites."""


def answer(
    f: Forecast, fighters: tuple[Fighter, ...], steps: list[dict[str, str]], data: SystemData, inputs: dict[str, Any]
) -> dict[str, Any]:
    """The result: `steps` (the system's own assumptions) then the reading chosen of every ruling the
    forecast declares an input for (`data.reading_steps`), so no ruling goes uncited on the page."""
    r = f.rounds
    party, foes, over = f.party.within, f.foes.within, f.over.within
    both = over[-1] - party[-1] - foes[-1]
    chances = [
        result.chance("Party wins", party[-1]),
        result.chance("Foes win", foes[-1]),
    ]
    if both:
        chances.append(result.chance("Both sides fall", both))
    chances.append(result.chance(f"Fight still on after {r} rounds", 1 - over[-1]))
    for side in f.sides:
        chances.append(result.chance(side.label, side.within[-1]))
    for fighter, marks in zip(fighters, f.fighters, strict=True):
        for mark in marks:
            chances.append(result.chance(f"{fighter.name} {mark.label}", mark.within[-1]))
    median = quantile(over, Fraction(1, 2))
    p90 = quantile(over, Fraction(9, 10))
    rows = []
    for k in range(1, r + 1):
        rows.append(
            [
                str(k),
                _pct(f.over.in_round(k)),
                _pct(over[k - 1]),
                _pct(party[k - 1]),
                _pct(foes[k - 1]),
            ]
        )
    rows.append([f"more than {r}", _pct(1 - over[-1]), "—", "—", "—"])
    title = (
        f"Fight length in rounds (median {length_text(median, r)}, 90th percentile {length_text(p90, r)}, "
        f"expected {mean_text(f.over.mean)}; {f.states:,} states)"
    )
    table = result.table(
        title, ["Round", "Ends in this round", "Over within k rounds", "Party has won", "Foes have won"], rows
    )
    summary = (
        f"Party wins {result.percent(party[-1])}, foes win {result.percent(foes[-1])} within {r} rounds; "
        f"the fight lasts {length_text(median, r)} rounds at the median "
        f"(90%: {length_text(p90, r)}; expected {_short(f.over.mean)})"
    )
    return {
        "summary": summary,
        "chances": chances,
        "table": table,
        "steps": [*steps, *data.reading_steps(CALCULATOR, inputs)],
    }


def _short(mean: Fraction | None) -> str:
    return "none (the fight may never end)" if mean is None else f"{float(mean):.3g}"


def _pct(p: Fraction) -> str:
    return result.percent(p, 2)
