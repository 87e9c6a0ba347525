"""Several attackers on one target: the round calculator's list input `attackers`.

Each entry holds the inputs one attacker has (the calculator's own attacker inputs, under the same
names: `fields_from` in calculators.yaml). Given, it lists every attacker in the order they meet the
target and the top-level attacker inputs do not apply; empty, the request is one attacker, the
top-level inputs, as before. The target's inputs and the rulings' readings stay top-level: one
target, one reading of the rules, for the whole party.
"""

from __future__ import annotations

from typing import Any

from calc.errors import InputError

LIST = "attackers"


def each(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """Every attacker's full inputs (the request's, with that attacker's entry over them), in order."""
    listed = inputs.get(LIST) or []
    if not listed:
        return [inputs]
    return [inputs | entry for entry in listed]


def where(inputs: dict[str, Any], i: int, name: str) -> str:
    """The name an error gives an attacker's input: `attackers[2].dice`, or `dice` for one attacker."""
    return f"{LIST}[{i}].{name}" if inputs.get(LIST) else name


def who(inputs: dict[str, Any], i: int) -> str:
    """How a why-step names attacker i (1-based): "" for one attacker, else "Attacker 2: "."""
    return f"Attacker {i}: " if inputs.get(LIST) else ""


def named(steps: list[dict[str, str]], prefix: str) -> list[dict[str, str]]:
    """Steps with `prefix` ("Attacker 2: ") before their text."""
    return [s | {"text": prefix + s["text"]} for s in steps] if prefix else steps


def bounded(count: int, limit: int, what: str, inputs: dict[str, Any], fallback: str) -> None:
    """Refuse, before computing, a request whose chain would have more than `limit` states (or
    outcomes): an InputError naming `attackers` when several are given, else `fallback`."""
    if count > limit:
        name = LIST if inputs.get(LIST) else fallback
        raise InputError(
            name,
            f"would follow about {count:,} {what}, more than the {limit:,} this calculator computes exactly "
            "in time: fewer attackers, fewer or smaller dice, or a target with fewer hit points",
        )
