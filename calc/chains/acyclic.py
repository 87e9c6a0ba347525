"""A chain where no two states lead to each other (each perhaps looping to itself: the usual one,
where damage only accumulates), given over the positions of its states in an order where every
state comes after the states that lead to it: P(each threshold reached within k rounds) and the
exact mean rounds until it, in integers over one denominator, by forward passes that pull each
state's value from the states leading to it in one C-level dot product of big integers.

`reach` does both answers in one pass (one dot product per state, not two); `means` is the mean
alone (`StateChain.mean`), over smaller numbers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from operator import add, floordiv, mul
from typing import NamedTuple


class Graph(NamedTuple):
    """A chain over the positions 0…n−1 of its states (`StateChain._indexed`): each state's moves
    to the others and their weights, its weight of staying, and the moves turned around (`sources`,
    `factors`: the states that lead to each, with which weights)."""

    targets: list[list[int]]
    weights: list[list[int]]
    stay: list[int]
    sources: list[list[int]]
    factors: list[list[int]]


def graph(targets: list[list[int]], weights: list[list[int]], stay: list[int]) -> Graph:
    sources: list[list[int]] = [[] for _ in targets]
    factors: list[list[int]] = [[] for _ in targets]
    for i, (js, ws) in enumerate(zip(targets, weights, strict=True)):
        for j, w in zip(js, ws, strict=True):
            sources[j].append(i)
            factors[j].append(w)
    return Graph(targets, weights, stay, sources, factors)


def reach(
    g: Graph, start: int, flags: Sequence[tuple[bool, ...]], scale: int, rounds: int
) -> tuple[list[tuple[Fraction, ...]], list[Fraction | None]]:
    """For each threshold (`flags[j][k]`: state j is past threshold k), P(reached within 1, 2, …
    `rounds` rounds) and the expected rounds until it (None when it may never come).

    Within k rounds: H_s[r] = P(at s after r rounds) × scale^r is an integer ≤ scale^r, so a
    state's whole history packs into one big integer (slot r = H_s[r], Kronecker substitution):
    H_s[r] = [s is the start, r = 0] + Σ w·H_t[r − 1] over the states t that lead to s +
    stay_s·H_s[r − 1]: one dot product per state, then the sum's slots move one round on through a
    running sum for staying. Slot r is as wide as the dot product's slot r can grow
    (Σ w·H_t[r] ≤ scale^(r+1)), not as wide as the last round's (Segments 4 against 4: 3,855 bits,
    not 6,501).

    The mean (see `means`) rides in the same big integer above the slots, so both answers cost
    one dot product per state, over the moves' weights divided by the gcd g_t of the state t
    they leave: t's slots are stored times g_t (H_t[r]·g_t ≤ scale^(r+1) fits its slot), so
    Σ (w/g_t)·(g_t·H_t[r]) = Σ w·H_t[r] as before (Segments 4 against 4: 10,307 bits once, not
    3,855 and then 6,452 bits)."""
    slots = rounds + 1
    places, masks, place = layout(scale, rounds)
    low = (1 << place) - 1  # the slots; the mean's value lies above them
    moves = list(zip(places[:-1], masks[:-1], places[1:], strict=True))  # slot r of the sum → slot r + 1
    stay, common, leave, bases, factors = _reduced(g, scale)
    sources = g.sources
    n = len(flags[start])
    never = never_reached(leave, flags, n)
    denominator = _denominator(sources, leave)
    packed = [0] * len(leave)  # g_t·H_t in the slots, N(t)/f_t above them
    history = [0] * len(leave)  # H_t in the slots
    spent: dict[tuple[bool, ...], int] = {}  # D·Σ V(s), grouped by the thresholds s has reached
    for j in range(len(leave) - 1, -1, -1):  # every state after the ones leading to it
        total = sum(map(mul, map(packed.__getitem__, sources[j]), factors[j]))
        inflow, entries = total & low, total >> place
        history[j] = total = packed_history(inflow, j == start, stay[j], moves)
        total *= common[j]
        f = leave[j]
        if f:  # a state never left carries nothing on and is past, or counted in `never`
            if j == start:
                entries += denominator
            per = entries // f
            key = flags[j]
            spent[key] = spent.get(key, 0) + per * bases[j]
            total |= per << place
        packed[j] = total
    within = []
    for k in range(n):
        reached = sum(p for p, f in zip(history, flags, strict=True) if f[k])
        within.append(tuple(Fraction((reached >> places[r]) & masks[r], scale**r) for r in range(1, slots)))
    return within, exact_totals(spent, denominator, never)


def layout(scale: int, rounds: int) -> tuple[list[int], list[int], int]:
    """Where each slot r = 0…`rounds` of a packed history starts, its mask (as wide as scale^(r+1)
    and a bit), and the width of them all."""
    places: list[int] = []
    masks: list[int] = []
    place = 0
    for r in range(rounds + 1):
        bits = (scale ** (r + 1)).bit_length() + 1
        places.append(place)
        masks.append((1 << bits) - 1)
        place += bits
    return places, masks, place


def packed_history(inflow: int, start: bool, stay: int, moves: list[tuple[int, int, int]]) -> int:
    """A state's history packed (`reach`): H[0] = [the start], H[r + 1] = A[r] + stay × H[r], with
    A[r] what flows in during round r + 1 (slot r of `inflow`); `moves`: (slot r's place, its mask,
    slot r + 1's place)."""
    run = total = 1 if start else 0
    if inflow or run:
        for came, mask, goes in moves:
            run = ((inflow >> came) & mask) + stay * run
            total |= run << goes
    return total


def means(g: Graph, start: int, flags: Sequence[tuple[bool, ...]], scale: int) -> list[Fraction | None]:
    """The expected rounds until each threshold: one forward pass of expected visits, shared by
    every threshold, all in integers over one denominator.

    The expected rounds until a threshold is the expected number of rounds spent in the
    states where it is not yet reached: E = Σ_(s not done) V(s), V(s) = entries(s)·scale/f_s
    with f_s = scale − (weight of staying at s), entries(s) = [s is the start] +
    Σ_(t → s) entries(t)·w/f_t. Each f_t and its moves' w are first divided by their gcd g_t
    (a smaller f to build D from). Each f is split into factors (`prime_factors`: its small primes,
    then what is left); with c(s) = the most times each factor divides the product of the f_u
    along one path from the start to s (s included), D = Π factor^max c makes N(s) =
    D·entries(s) an integer divisible by f_s: N(s) = [start]·D + Σ N(t)/f_t · w, exact integer
    divisions. Counting prime factors rather than whole values of f keeps D small (Segments 4
    against 4: 6,452 bits, not 26,301: every move's product is that much cheaper). One value per
    state, whatever the number of thresholds (a backward pass needs one per threshold)."""
    _, _, leave, bases, factors = _reduced(g, scale)
    never = never_reached(leave, flags, len(flags[start]))
    sources = g.sources
    denominator = _denominator(sources, leave)
    per: list[int] = [0] * len(leave)  # N(s)/f_s: what each move out of s carries, per unit of w
    spent: dict[tuple[bool, ...], int] = {}  # D·Σ V(s), grouped by the thresholds s has reached
    for j in range(len(leave) - 1, -1, -1):
        f = leave[j]
        if not f:
            continue  # never left: past every threshold, or counted in `never`
        entries = sum(map(mul, map(per.__getitem__, sources[j]), factors[j]))
        if j == start:
            entries += denominator
        per[j] = q = entries // f
        key = flags[j]
        spent[key] = spent.get(key, 0) + q * bases[j]
    return exact_totals(spent, denominator, never)


def _reduced(g: Graph, scale: int) -> tuple[list[int], list[int], list[int], list[int], list[list[int]]]:
    """Each state's weight of staying, the gcd g_s of scale, f_s = scale − stay and its moves'
    weights, f_s / g_s, scale / g_s, and each move's weight over the g of the state it leaves."""
    common: list[int] = []  # g_s
    leave: list[int] = []  # f_s / g_s
    bases: list[int] = []  # scale / g_s
    for ws, kept in zip(g.weights, g.stay, strict=True):
        f = scale - kept
        d = math.gcd(scale, f, *ws)
        common.append(d)
        leave.append(f // d)
        bases.append(scale // d)
    if any(d > 1 for d in common):  # each move's w / g of the state it leaves, in C
        factors = [
            list(map(floordiv, ws, map(common.__getitem__, src))) for src, ws in zip(g.sources, g.factors, strict=True)
        ]
    else:
        factors = g.factors
    return g.stay, common, leave, bases, factors


def never_reached(leave: list[int], flags: Sequence[tuple[bool, ...]], n: int) -> list[bool]:
    """A state never left (f = 0) and not past a threshold: that threshold never comes."""
    return [any(not f and not flag[i] for f, flag in zip(leave, flags, strict=True)) for i in range(n)]


def exact_totals(spent: dict[tuple[bool, ...], int], denominator: int, never: list[bool]) -> list[Fraction | None]:
    """Each threshold's expected rounds until it, as one Fraction (the summed integers over
    `denominator`), or None where it may never come: the one place the integers become a Fraction."""
    return [
        None if never[i] else Fraction(sum(v for key, v in spent.items() if not key[i]), denominator)
        for i in range(len(never))
    ]


def _denominator(sources: list[list[int]], leave: list[int]) -> int:
    """D = Π factor^(the most times it divides the product of the f along one path from the start,
    the state's own included): c(s), one row of exponents over every factor met, from the start
    down (every state's sources come before it), the elementwise max of its sources' distinct
    rows, in C. A state never left (f = 0) adds nothing and carries nothing on."""
    split = {f: prime_factors(f) for f in set(leave) if f > 1}
    primes = sorted({k for parts in split.values() for k in parts})
    if not primes:
        return 1
    at = {k: place for place, k in enumerate(primes)}
    own: dict[int, list[int]] = {}
    for f, parts in split.items():
        row = [0] * len(primes)
        for k, times in parts.items():
            row[at[k]] = times
        own[f] = row
    zero = [0] * len(primes)
    counts: list[list[int]] = [zero] * len(leave)  # c(s) as one row over `primes`
    for j in range(len(leave) - 1, -1, -1):
        f = leave[j]
        if not f:
            continue
        rows = list({id(c): c for c in map(counts.__getitem__, sources[j])}.values())
        mine = rows[0] if len(rows) == 1 else list(map(max, *rows)) if rows else zero
        counts[j] = list(map(add, mine, own[f])) if f > 1 else mine  # rows are shared, never changed
    most = list(map(max, zero, *counts))
    return math.prod(k**times for k, times in zip(primes, most, strict=True))


_SMALL_PRIMES = [p for p in range(2, 1000) if all(p % q for q in range(2, math.isqrt(p) + 1))]


def prime_factors(n: int) -> dict[int, int]:
    """`n` (> 1) as {factor: times}: its primes below 1,000, then what is left as one factor (a
    prime, or a product of larger primes: still a valid factor, only perhaps not the smallest)."""
    out: dict[int, int] = {}
    for p in _SMALL_PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            n //= p
            out[p] = out.get(p, 0) + 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out
