"""The acyclic chain's exact means (`calc.chains.acyclic`: one pass in integers over a common
denominator built from the prime factors of each state's leave weight) against an independent
backward solve in Fractions, on random chains whose weights share and do not share factors."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from calc.chains.acyclic import prime_factors
from calc.chains.state_chain import StateChain


def backward(moves: dict[int, list[tuple[int, int]]], total: int, done: set[int], start: int) -> Fraction | None:
    """E(s) = (1 + Σ_{t≠s} p(s→t) E(t)) / (1 − p(s→s)), E = 0 once done; None when never done."""
    memo: dict[int, Fraction | None] = {}

    def e(s: int) -> Fraction | None:
        if s in done:
            return Fraction(0)
        if s not in memo:
            stay = sum(w for w, t in moves[s] if t == s)
            if stay == total:
                memo[s] = None
                return None
            rest = Fraction(1)
            for w, t in moves[s]:
                if t != s:
                    got = e(t)
                    if got is None:
                        memo[s] = None
                        return None
                    rest += Fraction(w, total) * got
            memo[s] = rest / (1 - Fraction(stay, total))
        return memo[s]

    return e(start)


def random_chain(rng: random.Random, total: int, n: int) -> dict[int, list[tuple[int, int]]]:
    """States 0…n−1, each moving only to itself or later states (acyclic but for self-loops)."""
    moves: dict[int, list[tuple[int, int]]] = {}
    for s in range(n):
        later = list(range(s, n))
        picks = rng.sample(later, min(len(later), rng.randint(1, 4)))
        cuts = sorted(rng.randint(0, total) for _ in range(len(picks) - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        merged: dict[int, int] = {}
        for t, w in zip(picks, parts, strict=True):
            merged[t] = merged.get(t, 0) + w
        moves[s] = [(w, t) for t, w in merged.items()]
    return moves


@pytest.mark.parametrize("total", [360, 7 * 11 * 13, 2**10, 1_000_003 * 6])
@pytest.mark.parametrize("seed", range(12))
def test_acyclic_means_equal_the_backward_solve(total, seed):
    rng = random.Random(seed * 1000 + total)
    n = rng.randint(3, 25)
    moves = random_chain(rng, total, n)
    marks = [set(rng.sample(range(1, n), rng.randint(1, max(1, n // 3)))) for _ in range(3)]
    closed = []
    for mark in marks:  # once reached, stays reached: every state after a marked one is marked
        reach = set(mark)
        for s in range(n):
            if s in reach:
                reach |= {t for _, t in moves[s]}
        closed.append(reach)
    chain = StateChain(0, moves.__getitem__, total=total)
    got = chain.reach_all([(f"m{k}", m.__contains__) for k, m in enumerate(closed)], 5)
    for k, m in enumerate(closed):
        assert got[k].mean == backward(moves, total, m, 0)


@pytest.mark.parametrize("n", [2, 12, 360, 1_000_003, 1_000_003 * 1_000_033 * 4, 999_983**2])
def test_factors_multiply_back(n):
    parts = prime_factors(n)
    product = 1
    for k, times in parts.items():
        assert k > 1
        product *= k**times
    assert product == n


def forward(moves: dict[int, list[tuple[int, int]]], total: int, done: set[int], rounds: int) -> list[Fraction]:
    """P(in `done` after 1…rounds rounds), round by round in Fractions (a done state stays done)."""
    at = {0: Fraction(1)}
    out = []
    for _ in range(rounds):
        nxt: dict[int, Fraction] = {}
        for s, p in at.items():
            for w, t in moves[s]:
                nxt[t] = nxt.get(t, Fraction(0)) + p * Fraction(w, total)
        at = nxt
        out.append(sum((p for s, p in at.items() if s in done), Fraction(0)))
    return out


@pytest.mark.parametrize("total", [360, 7 * 11 * 13, 1_000_003 * 6])
@pytest.mark.parametrize("seed", range(8))
def test_acyclic_within_and_the_mean_alone_equal_independent_solves(total, seed):
    """The one-pass answer (P within k rounds packed with the mean, `chain_acyclic.reach`) against
    a round-by-round propagation, and `StateChain.mean` (the mean alone, `chain_acyclic.means`)
    against the backward solve."""
    rng = random.Random(seed * 7919 + total)
    n = rng.randint(3, 25)
    moves = random_chain(rng, total, n)
    mark = set(rng.sample(range(1, n), rng.randint(1, max(1, n // 3))))
    for s in range(n):  # once reached, stays reached
        if s in mark:
            mark |= {t for _, t in moves[s]}
    got = StateChain(0, moves.__getitem__, total=total).reach_all([("m", mark.__contains__)], 7)[0]
    assert list(got.within) == forward(moves, total, mark, 7)
    assert StateChain(0, moves.__getitem__, total=total).mean(mark.__contains__) == backward(moves, total, mark, 0)
