"""What the forecasts' tests share: asking the calculator, reading a chance, the exact forecast
from the engine (a chain's, or a fixed order's mixture), an entry with every field, and the
oracles' round-by-round walk over every initiative order (kept apart from `calc.forecast`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import calc
from calc import data, inputs
from calc.forecast import chain, fixed_order


def run(system_id: str, party: list[dict], foes: list[dict], **extra: Any) -> dict:
    request = {"party": party, "foes": foes, **extra}
    return calc.evaluate({"system": system_id, "calculator": "forecast", "inputs": request})


def chance(answer: dict, label: str) -> Fraction:
    return next(Fraction(c["p"]["fraction"]) for c in answer["chances"] if c["label"] == label)


def chained(system_id: str, module: Any, party: list[dict], foes: list[dict], **extra: Any) -> chain.Forecast:
    """The engine's `Forecast` for a system whose round is one chain (`module.build`)."""
    system = data.system(system_id)
    values = inputs.validate(system.calculator("forecast")["inputs"], {"party": party, "foes": foes, **extra})
    return chain.forecast(module.build(values, system), values["rounds"])


def exact(system_id: str, module: Any, strict: bool, party: list[dict], foes: list[dict], **extra: Any) -> Any:
    """The engine's `Forecast` (exact chances per round, means) for the request."""
    system = data.system(system_id)
    values = inputs.validate(system.calculator("forecast")["inputs"], {"party": party, "foes": foes, **extra})
    rules, totals, split = module.build(values, system)
    return fixed_order.forecast(rules, totals, split, strict, values["rounds"])[0]


def full(system_id: str, f: dict) -> dict:
    """An entry with every field the oracle reads (the declaration's defaults otherwise)."""
    fields = data.system(system_id).calculator("forecast")["inputs"][0]["fields"]
    return {**{d["name"]: d["default"] for d in fields}, **f}


def follow(
    orders: dict[Hashable, Fraction],
    start: tuple,
    one_round: Callable[[tuple, Any], dict[tuple, Fraction]],
    rounds: int,
    tally: Callable[[int, tuple, Fraction], None],
) -> None:
    """Every order with its chance, the fight followed round by round from `start`; `tally(k, healths,
    chance)` for every state after round k (counted from 0)."""
    for order, p_order in orders.items():
        state = {start: Fraction(1)}
        for k in range(rounds):
            nxt: dict[tuple, Fraction] = {}
            for h, p in state.items():
                for c, q in one_round(h, order).items():
                    nxt[c] = nxt.get(c, 0) + p * q
            state = nxt
            for h, p in state.items():
                tally(k, h, p * p_order)
