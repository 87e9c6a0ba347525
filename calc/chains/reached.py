"""When a target reaches a threshold, round by round: the answer every round chain gives (the
track of damage taken, `calc.chains.track`; a chain over richer states, `calc.chains.state_chain`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ROUNDS = 10  # rounds shown in the table: a display choice, not a rule


@dataclass(frozen=True)
class Reached:
    """When a threshold is reached: P(within k rounds) for k = 1…ROUNDS and the exact mean (None
    when it can never be reached)."""

    label: str
    within: tuple[Fraction, ...]
    mean: Fraction | None

    def in_round(self, k: int) -> Fraction:
        """P(reached in round k exactly), k ≥ 1."""
        return self.within[k - 1] - (self.within[k - 2] if k > 1 else 0)
