"""Several attackers on one target: the round calculator's list input `attackers`.

Each entry holds the inputs one attacker has (the calculator's own attacker inputs, under the same
names: `fields_from` in calculators.yaml). Given, it lists every attacker in the order they meet the
target and the top-level attacker inputs do not apply; empty, the request is one attacker, the
top-level inputs, as before. The target's inputs and the rulings' readings stay top-level: one
target, one reading of the rules, for the whole party.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from calc.numbers.bounds import CostError
from calc.numbers.dist import Dist

LIST = "attackers"

MAX_ROUND_DAMAGE = 4_000
"""The most damage one round of all the attackers may deal: the round's distribution spans every
total from 0 up."""
MAX_TRACK = 1_200
"""The most attacks a round times the damage the chain follows (to the deepest threshold): the
exact chain's integers grow with both (measured: 1,200 take about 0.05–0.12 s in CPython)."""


def each(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """Every attacker's full inputs (the request's, with that attacker's entry over them), in order."""
    listed = inputs.get(LIST) or []
    if not listed:
        return [inputs]
    return [inputs | entry for entry in listed]


def rounds_of(
    inputs: dict[str, Any], data: Any, one: Callable[[dict[str, Any], Any, int], tuple[Dist, Dist, list]]
) -> tuple[list[Dist], list[Dist], list[dict[str, str]]]:
    """Every attacker's damage in the first round and in each later one, and their why-steps, by
    `one(attacker's inputs, data, place)`: for rounds whose attacks simply add up."""
    firsts, laters, steps = [], [], []
    for i, attacker in enumerate(each(inputs), start=1):
        first, later, own = one(attacker, data, i)
        firsts.append(first)
        laters.append(later)
        steps += own
    return firsts, laters, steps


def where(inputs: dict[str, Any], i: int, name: str) -> str:
    """The name an error gives an attacker's input: `attackers[2].dice`, or `dice` for one attacker."""
    return f"{LIST}[{i}].{name}" if inputs.get(LIST) else name


def who(inputs: dict[str, Any], i: int) -> str:
    """How a why-step names attacker i (1-based): "" for one attacker, else "Attacker 2: "."""
    return f"Attacker {i}: " if inputs.get(LIST) else ""


def named(steps: list[dict[str, str]], prefix: str) -> list[dict[str, str]]:
    """Steps with `prefix` ("Attacker 2: ") before their text."""
    return [s | {"text": prefix + s["text"]} for s in steps] if prefix else steps


def whole(inputs: dict[str, Any], single: str) -> str:
    """The input a bound on the whole round names: `attackers` when several are given, else the one
    attacker's input at fault (`single`)."""
    return LIST if inputs.get(LIST) else single


def bounded(count: int, limit: int, what: str, name: str) -> None:
    """Refuse, before computing, a request whose chain would take more than `limit` states (or
    outcomes): a typed `CostError` (an InputError) naming the input at fault and the count."""
    if count > limit:
        raise CostError(
            name,
            f"would follow about {count:,} {what}, past the limit of {limit:,} this calculator computes exactly "
            "in time: fewer attackers, fewer or smaller dice, or a target with fewer hit points",
        )


def track_bounded(attacks: int, most: int, deepest: int, name: str) -> None:
    """The bounds of a round whose target only loses hit points (`calc.chains.track.track`): `attacks` a
    round dealing at most `most`, followed to `deepest` damage."""
    bounded(most, MAX_ROUND_DAMAGE, "points of damage a round", name)
    bounded(attacks * max(deepest, 1), MAX_TRACK, "attack × hit-point steps (attacks a round × damage followed)", name)
