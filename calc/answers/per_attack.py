"""One attack from the reader's one set of inputs: the chance it lands, the damage of an attack
that lands, and the expected damage per attack with the damage of every attack (a miss deals 0).

Every damage calculator builds one `PerAttack` from the ways its attack lands (a regular hit, a
critical hit, each margin of success …), each with its exact chance and damage, so the hit chance,
the two distributions and the expected damage always agree. The result carries it as `attack`
(shape in CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from calc.answers import result
from calc.numbers.dist import Dist


@dataclass(frozen=True)
class PerAttack:
    """`landing`: (label, exact chance, damage) of every way the attack lands; the rest misses."""

    landing: Sequence[tuple[str, Fraction, Dist]]

    @property
    def hit(self) -> Fraction:
        return sum((p for _, p, _ in self.landing), Fraction(0))

    @property
    def expected(self) -> Fraction:
        """Σ P(way) × mean damage of that way: a miss adds 0."""
        return sum((p * d.mean for _, p, d in self.landing), Fraction(0))

    @cached_property
    def on_hit(self) -> Dist:
        """The damage of an attack that lands (the first way's damage when none can land)."""
        hit = self.hit
        if not hit or len([p for _, p, _ in self.landing if p]) == 1:
            return next((d for _, p, d in self.landing if p), self.landing[0][2])
        return Dist.mixture([(p / hit, d) for _, p, d in self.landing])

    @cached_property
    def per_attack(self) -> Dist:
        """The damage of one attack, misses as 0."""
        return Dist.mixture([(1 - self.hit, Dist.constant(0)), *((p, d) for _, p, d in self.landing)])

    def formula(self) -> str:
        """How the expected damage is reached, in exact numbers, for a why-step:
        P(lands) × mean damage of an attack that lands (a miss adds 0)."""
        hit = self.hit
        mean = self.on_hit.mean
        return (
            f"expected damage per attack = P(lands) {hit} × mean of an attack that lands {mean_text(mean)} "
            f"= {mean_text(self.expected)}; a miss deals 0"
        )


def mean_text(value: Fraction) -> str:
    """An exact value as its fraction, with a short decimal when it is not whole: `15/2 (7.5)`."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value} ({float(value):.4g})"


def attack_json(attack: PerAttack, shown: tuple[Dist, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The result's `attack` entry. `shown`: the result's `distribution` (its Dist and JSON), reused
    when it is one of the two (turning a long distribution into JSON is most of the engine's time)."""

    def as_json(dist: Dist, label: str) -> dict[str, Any]:
        if shown is not None and shown[0] == dist:
            return {**shown[1], "label": label}
        return result.dist_json(dist, label)

    return {
        "hit": result.prob(attack.hit),
        "expected": result.prob(attack.expected),
        "on_hit": as_json(attack.on_hit, "Damage of an attack that lands"),
        "per_attack": as_json(attack.per_attack, "Damage per attack (a miss deals 0)"),
    }


def summary(attack: PerAttack, lands: str = "hits") -> str:
    """`Expected 5.62 damage per attack (hits 75%)`: the head of a damage calculator's summary (a
    phone's folded answer line shows the head first)."""
    return f"Expected {float(attack.expected):.3g} damage per attack ({lands} {result.percent(attack.hit)})"
