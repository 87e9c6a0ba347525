"""The fight's chain: its states bounded before anything is computed, then every answer exact.

The bound is checked twice: first against the most states the fight can have (`Fight.state_bound`,
known from the fighters alone), then while the states are found; past it the answer is an
`InputError` that names the count and what to reduce, never an approximation. The answers come
from `calc.chains.state_chain.StateChain` (one forward pass for P(within k rounds), exact means by components).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from calc.chains.reached import Reached
from calc.chains.state_chain import StateChain
from calc.errors import InputError
from calc.forecast.fighters import FOES, PARTY
from calc.forecast.round import Fight, State

MAX_STATES = 40_000
"""The most fight states followed exactly (memory grows with them)."""

MAX_WORK = 800_000
"""The most (states × steps of the round's orders walked from each, `calc.forecast.order.Dag`),
checked before computing: the steps are counted no further than this allows (4 against 4 on one
d20 has over a million prefixes of orders, and still thousands of steps once merged)."""

MAX_STEPS = 4_000_000
"""The most healths met and made while walking the rounds (`Fight.steps`), checked as the states
are found: wide damage and many attacks widen every round. About 0.2 to 0.25 µs a step in CPython
for Phases, the dearest (2 against 2: 3.2 million steps walked in 0.77 s), so about 1 s of walk at
most, the solve after it (Phases' random fights near the bound: about 2 s in all); a fight whose
steps are cheaper carries its own bound (`steps_bound`)."""

MAX_MOVE_BITS = 50_000_000
"""The most (one-round moves between states kept for the solve × the bits of the round's total
weight), counted as the states are found: the solve does one big-integer product a move, and its
time and the moves' memory grow with both (about 27 to 30 ns a move and bit in CPython: Active
Defense 2 against 2, 733,574 moves of 55 bits, 1.2 s; Action Points 2 against 2, 693,321 moves
of 133 bits, 2.4 s; so about 1.5 s at most), past what the states and the walk's steps bound."""

REDUCE = "fewer fighters or fewer hit points"
REDUCE_STEPS = "fewer fighters, fewer attacks a round, or fewer hit points"


@dataclass(frozen=True)
class Forecast:
    """`party`, `foes`, `over`: when the party has won, the foes have won, the fight is over (each
    P(within k rounds) for k = 1…rounds, with the exact mean round); `fighters[i]`: each of that
    fighter's marks, when reached; `states`: how many states the chain followed."""

    rounds: int
    party: Reached
    foes: Reached
    over: Reached
    fighters: tuple[tuple[Reached, ...], ...]
    states: int
    sides: tuple[Reached, ...] = ()
    """The `extra` thresholds of the whole fight (Phases' "Foes break by morale"), in their order."""


def explore(fight: Fight, bound: int = MAX_STATES) -> dict[State, list[tuple[int, State]]]:
    """Every state the fight can reach, with its one-round transitions (integer weights over
    `fight.total`); an InputError past `bound`."""
    states, moves = explore_numbered(fight, bound)
    return {states[i]: [(w, states[j]) for w, j in out] for i, out in enumerate(moves)}


def check_bound(fight: Fight, bound: int) -> int:
    """The most states `fight` can have, refused with an InputError before any work when past
    `bound`, or when a round walks too many steps of its orders from each of them."""
    most = fight.state_bound()
    if most > bound:
        raise InputError(
            "foes", f"this fight has up to {most:,} states, more than the {bound:,} followed exactly: try {REDUCE}"
        )
    work = work_bound(fight)
    limit = max(work // most, 1)  # one order a round (the fixed-order chains) is never past it
    walked = fight.orders_walked(limit)
    if walked > limit:
        raise InputError(
            "foes",
            f"this fight has up to {most:,} states, each round walking more than {limit:,} steps of its orders "
            f"of who acts when: more than the {work:,} followed exactly: try {REDUCE}",
        )
    return most


def explore_numbered(fight: Fight, bound: int = MAX_STATES) -> tuple[list[State], list[list[tuple[int, int]]]]:
    """`explore` with every state numbered (`states[n]`, the start 0) and each one-round move
    `(weight, n)`: the chain then hashes small integers, not nested tuples of healths, for every
    one of its transitions."""
    most = check_bound(fight, bound)
    states: list[State] = [fight.start]
    number = {fight.start: 0}
    moves: list[list[tuple[int, int]]] = [[]]
    todo = [0]
    done = 0
    most_steps = steps_bound(fight)
    most_moves = moves_bound(fight)
    kept = 0
    while todo:
        at = todo.pop()
        out = fight.step(states[at])
        done += 1
        if fight.steps > most_steps:
            raise InputError(
                "foes",
                f"this fight needs more than {most_steps:,} steps to follow exactly ({done:,} of up to "
                f"{most:,} states done): try {REDUCE_STEPS}",
            )
        row = []
        get = number.get
        for w, nxt in out:
            n = get(nxt)
            if n is None:
                n = number[nxt] = len(states)
                states.append(nxt)
                moves.append([])
                todo.append(n)
                if len(states) > bound:
                    raise InputError("foes", f"this fight reaches more than {bound:,} states: try {REDUCE}")
            row.append((w, n))
        moves[at] = row
        kept += len(row)
        if kept > most_moves:
            raise InputError(
                "foes",
                f"this fight has more than {most_moves:,} moves from one state to another to follow exactly "
                f"({done:,} of up to {most:,} states done): try {REDUCE_STEPS}",
            )
    return states, moves


def steps_bound(fight: Any) -> int:
    """The most steps `fight` may take: its own `max_steps` where its steps cost another time (the
    fixed-order chains count healths met per group; Countup's steps are cheaper), else `MAX_STEPS`."""
    own = getattr(fight, "max_steps", None)
    return MAX_STEPS if own is None else int(own)


def moves_bound(fight: Any) -> int:
    """The most moves `fight`'s chain may keep: `MAX_MOVE_BITS` over the bits of its round's total
    weight (Active Defense's 55 bits: 909,090 moves; Action Points' 133: 375,939)."""
    return MAX_MOVE_BITS // max(int(fight.total).bit_length(), 1)


def work_bound(fight: Any) -> int:
    """The most work (states × the round's steps) `fight` may start: its own `max_work` where its
    steps cost another time, else `MAX_WORK`."""
    own = getattr(fight, "max_work", None)
    return MAX_WORK if own is None else int(own)


def _marked(i: int, mark: Callable[[Any], bool], healths: Any) -> bool:
    return mark(healths[i])


def forecast(
    fight: Fight,
    rounds: int,
    bound: int = MAX_STATES,
    extra: Sequence[tuple[str, Callable[[Any], bool]]] = (),
) -> Forecast:
    """The exact forecast of `fight` over `rounds` rounds (the mean over the whole fight); `extra`:
    thresholds of the whole fight, each a test of every fighter's health (once met, met for good)."""
    with _no_cycle_collection():
        return _forecast(fight, rounds, bound, extra)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The cycle collector off while the chain is built and solved: its hundreds of thousands of
    tuples and lists, all freed by reference counting, would otherwise have it walk every live one
    again and again (a tenth or more of Segments 4 against 4's time); on again as it was after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _forecast(fight: Fight, rounds: int, bound: int, extra: Sequence[tuple[str, Callable[[Any], bool]]]) -> Forecast:
    states, moves = explore_numbered(fight, bound)
    step: Any = moves.__getitem__
    chain = StateChain(0, step, total=fight.total, bounded=False)  # bounded by explore_numbered()
    healths = [s[1] for s in states]  # the chain's states are their numbers
    tests = thresholds(fight, extra)
    reached = chain.reach_all([(label, partial(_at, healths, test)) for label, test in tests], rounds)
    return assemble(fight, rounds, reached, len(states))


def _at(healths: list[Any], test: Callable[[Any], bool], n: int) -> bool:
    return test(healths[n])


def thresholds(
    fight: Fight, extra: Sequence[tuple[str, Callable[[Any], bool]]] = ()
) -> list[tuple[str, Callable[[Any], bool]]]:
    """Every threshold the forecast answers, each a test of every fighter's health: the sides'
    wins, the fight over, each fighter's marks in order, then `extra`."""
    tests: list[tuple[str, Callable[[Any], bool]]] = [
        ("Party wins", lambda h: fight.side_out(FOES, h) and not fight.side_out(PARTY, h)),
        ("Foes win", lambda h: fight.side_out(PARTY, h) and not fight.side_out(FOES, h)),
        ("Over", fight.over),
    ]
    for i, f in enumerate(fight.fighters):
        for label, mark in f.marks:
            tests.append((label, partial(_marked, i, mark)))
    tests.extend(extra)
    return tests


def assemble(fight: Fight, rounds: int, reached: Sequence[Reached], states: int) -> Forecast:
    """The `Forecast` from every threshold's answer, in `thresholds`' order."""
    marks: list[tuple[Reached, ...]] = []
    at = 3
    for f in fight.fighters:
        marks.append(tuple(reached[at : at + len(f.marks)]))
        at += len(f.marks)
    return Forecast(rounds, reached[0], reached[1], reached[2], tuple(marks), states, tuple(reached[at:]))
