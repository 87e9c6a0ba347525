"""What the forecasts' tests share: asking the calculator, reading a chance, the exact forecast
from the engine (a chain's, or a fixed order's mixture), an entry with every field, and the
oracles' round-by-round walk over every initiative order (kept apart from `calc.forecast`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import Any

import calc
from calc.forecast import chain, fixed_order
from calc.inputs import data, declared


def run(system_id: str, party: list[dict], foes: list[dict], **extra: Any) -> dict:
    request = {"party": party, "foes": foes, **extra}
    return calc.evaluate({"system": system_id, "calculator": "forecast", "inputs": request})


def chance(answer: dict, label: str) -> Fraction:
    return next(Fraction(c["p"]["fraction"]) for c in answer["chances"] if c["label"] == label)


def chained(system_id: str, module: Any, party: list[dict], foes: list[dict], **extra: Any) -> chain.Forecast:
    """The engine's `Forecast` for a system whose round is one chain (`module.build`)."""
    system = data.system(system_id)
    values = declared.validate(system.calculator("forecast")["inputs"], {"party": party, "foes": foes, **extra})
    return chain.forecast(module.build(values, system), values["rounds"])


def exact(system_id: str, module: Any, strict: bool, party: list[dict], foes: list[dict], **extra: Any) -> Any:
    """The engine's `Forecast` (exact chances per round, means) for the request."""
    system = data.system(system_id)
    values = declared.validate(system.calculator("forecast")["inputs"], {"party": party, "foes": foes, **extra})
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


def rolled_each_round(
    start: tuple,
    orders: dict[tuple, Fraction],
    sides: list[list[int]],
    aims: list[list[int]],
    out: Callable[[Any], bool],
    blows: Callable[[int, int, Any], Iterable[tuple[Any, Fraction]]],
    rounds: int,
) -> list[tuple[Fraction, Fraction]]:
    """[(P(party has won), P(foes have won)) after round k] of a focus-fire fight whose round takes
    one of `orders` afresh each round, with their chances: each group acts together (everyone of it
    still in the fight when it begins strikes), each strike at its side's first target in `aims`
    not `out`; `blows(i, t, health)` gives the target's next healths with their chances."""
    side_of = {i: s for s in (0, 1) for i in sides[s]}

    def side_out(h: tuple, s: int) -> bool:
        return all(out(h[i]) for i in sides[s])

    def one_round(h: tuple) -> dict[tuple, Fraction]:
        if side_out(h, 0) or side_out(h, 1):
            return {h: Fraction(1)}
        ends: dict[tuple, Fraction] = {}
        for order, p_order in orders.items():
            dist = {h: p_order}
            for group in order:
                nxt: dict[tuple, Fraction] = {}
                for cur, p in dist.items():
                    states = {cur: p}
                    for i in group:
                        if out(cur[i]):  # out when its group began: no blow
                            continue
                        after: dict[tuple, Fraction] = {}
                        for s, q in states.items():
                            t = next((j for j in aims[side_of[i]] if not out(s[j])), None)
                            if t is None:
                                after[s] = after.get(s, 0) + q
                                continue
                            for health, r in blows(i, t, s[t]):
                                hit = (*s[:t], health, *s[t + 1 :])
                                after[hit] = after.get(hit, 0) + q * r
                        states = after
                    for s, q in states.items():
                        nxt[s] = nxt.get(s, 0) + q
                dist = nxt
            for s, q in dist.items():
                ends[s] = ends.get(s, 0) + q
        return ends

    state = {start: Fraction(1)}
    answers = []
    for _ in range(rounds):
        nxt: dict[tuple, Fraction] = {}
        for h, p in state.items():
            for s, q in one_round(h).items():
                nxt[s] = nxt.get(s, 0) + p * q
        state = nxt
        won = [
            sum((p for h, p in state.items() if side_out(h, 1 - s) and not side_out(h, s)), Fraction(0)) for s in (0, 1)
        ]
        answers.append((won[0], won[1]))
    return answers
