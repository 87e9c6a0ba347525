"""A target that only loses hit points, followed round by round: the chain over "damage taken so
far" moves one way, so P(threshold reached within k rounds) is P(k rounds' total ≥ threshold) and
the mean a renewal sum, both exact in integers; `track_cost` bounds the numbers' digits before any
is computed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from operator import mul

from calc.chains.reached import ROUNDS, Reached
from calc.numbers import bounds
from calc.numbers.dist import Dist, _convolve


@dataclass(frozen=True)
class Threshold:
    """A point on the target's track: `label` ("Drops", "Dead") and the total damage that reaches it."""

    label: str
    damage: int


def track(
    per_round: Dist, thresholds: list[Threshold], rounds: int = ROUNDS, first: Dist | None = None
) -> list[Reached]:
    """Damage only accumulates (the chain over "damage taken so far" moves one way), so
    P(reached within k) = P(k rounds' total ≥ threshold), and the mean is a renewal sum
    (`mean_rounds`). `first` is the first round's damage when it differs from the others (fewer
    attacks fit in it)."""
    if per_round.min < 0 or (first is not None and first.min < 0):
        raise ValueError("damage per round must not be negative")
    needs = [t.damage for t in thresholds]
    track_cost(per_round, needs, rounds, first)
    if first is None:
        within = _within(per_round, needs, rounds)
        means = mean_rounds(per_round, needs)
    elif first.min == first.max:  # a first round of fixed damage c (none: no attack fits)
        c = first.min
        later = [need - c for need in needs]
        rest = _within(per_round, later, rounds - 1) if rounds > 1 else [[] for _ in needs]
        within = [[Fraction(int(c >= need)), *r] for need, r in zip(needs, rest, strict=True)]
        means = [_mean_after(first, per_round, need) for need in needs]
    else:
        within = _within_after(first, per_round, needs, rounds)
        means = [_mean_after(first, per_round, need) for need in needs]
    return [Reached(t.label, tuple(w), m) for t, w, m in zip(thresholds, within, means, strict=True)]


def track_cost(per_round: Dist, needs: list[int], rounds: int = ROUNDS, first: Dist | None = None) -> None:
    """Refuse (`bounds.CostError`) a track whose exact numbers would pass `bounds.MAX_DIGITS`,
    from the arithmetic alone, before any of it: P(within k rounds) has the denominator T^k (T
    the round's total weight; the first round's own), and the mean the denominator q^K
    (`mean_rounds`: q = T − the weight of no damage, K = ⌊(M − 1) / L⌋ + 1 for the largest need M
    and the least damage L a round can deal)."""
    per = bounds.digits(per_round.total)
    within = per * (rounds - 1) + bounds.digits((first or per_round).total)
    advice = "use fewer or smaller dice, or fewer attacks"
    bounds.check_digits(within, f"chances over {rounds} rounds", advice)
    top = max(needs, default=0)
    xs, ws = per_round.support()
    hurts = [x for x in xs if 0 < x < top]
    if top > 0 and hurts:
        q = per_round.total - (ws[0] if xs[0] == 0 else 0)
        mean = ((top - 1) // hurts[0] + 1) * bounds.digits(q)
        more = f"{advice}, more damage a hit, or a target with fewer hit points"
        bounds.check_digits(mean, "mean number of rounds", more)


def _below(d: Dist, top: int) -> list[int]:
    """`d`'s integer weights (over its `total`) of the outcomes 0…top−1, as a dense list of `top`
    (mass at or past `top` left out: reaching `top` is all that counts there)."""
    out = [0] * top
    xs, ws = d.support()
    for x, w in zip(xs, ws, strict=True):
        if x >= top:
            break
        out[x] = w
    return out


def _within(per_round: Dist, needs: list[int], rounds: int) -> list[list[Fraction]]:
    """P(k rounds' total ≥ need) for k = 1…`rounds`, for each need, exactly.

    With F_j the weights of j rounds' total below the largest need (over T^j, T the round's
    total weight), P(S_k < N) = Σ_(t<N) F_a(t) · P(S_b ≤ N − 1 − t) for any a + b = k: so only
    F_1…F_h (h = ⌈rounds/2⌉) are convolved (h − 1 products, all truncated below the largest
    need), and every later k is one dot product per need of two of them."""
    top = max(needs)
    if top <= 0:
        return [[Fraction(1)] * rounds for _ in needs]
    total = per_round.total
    half = (rounds + 1) // 2
    powers = [[1] + [0] * (top - 1), _below(per_round, top)]  # F_0, F_1
    for j in range(2, half + 1):
        a, b = powers[j // 2], powers[j - j // 2]
        powers.append(_convolve(tuple(a), tuple(b))[:top] if any(a) and any(b) else [0] * top)
    cumulative = [list(accumulate(f)) for f in powers]
    out: list[list[Fraction]] = [[] for _ in needs]
    for k in range(1, rounds + 1):
        den = total**k
        for i, need in enumerate(needs):
            if need <= 0:
                out[i].append(Fraction(1))
                continue
            if k <= half:
                below = cumulative[k][need - 1]
            else:
                a = powers[k - half]
                below = sum(map(mul, a[:need], reversed(cumulative[half][:need])))
            out[i].append(Fraction(den - below, den))
    return out


def _within_after(first: Dist, per_round: Dist, needs: list[int], rounds: int) -> list[list[Fraction]]:
    """`_within` when round 1 deals `first` and every later round `per_round`: round by round,
    the total capped at the largest need (everything past it counts as reached)."""
    cap = max(needs)
    step = per_round.clamp_above(cap)
    taken = first.clamp_above(cap)
    out: list[list[Fraction]] = [[] for _ in needs]
    for k in range(rounds):
        if k:
            taken = (taken + step).clamp_above(cap)
        for i, need in enumerate(needs):
            out[i].append(taken.p_ge(need))
    return out


def _mean_after(first: Dist, step: Dist, need: int, mean: Callable[..., list] | None = None) -> Fraction | None:
    """Expected rounds to reach `need` when round 1 deals `first` and every later round `step`:
    1 + Σ_d P(first = d) · (mean rounds for the rest, need − d). `mean` is `mean_rounds` (a
    test passes the implementation it replaced)."""
    if need <= 0:
        return Fraction(0)
    rest = (mean or mean_rounds)(step, list(range(1, need + 1)))
    total = Fraction(1)
    for d, p in first.items():
        if d >= need:
            continue
        m = rest[need - d - 1]
        if m is None:
            return None
        total += p * m
    return total


def mean_rounds(per_round: Dist, needs: list[int]) -> list[Fraction | None]:
    """Exact expected rounds until the total reaches each of `needs`: the sum over totals s < need
    of the expected rounds spent at s (a renewal sum), visits(s) = Σ_d p_d visits(s − d) / (1 − p_0).

    Kept in integers over one common denominator q^K (q = T − w_0, with w_d the round's integer
    weights and T their total): a total s < M (the largest need) is reached in at most
    ⌊s / L⌋ rounds that deal damage (L the least damage above 0), each dividing by q once, and
    the visit's own 1/(1 − p_0) is one more, so K = ⌊(M − 1) / L⌋ + 1 makes every
    V_s = visits(s) · q^K an integer: V_0 = T q^(K−1), V_s = Σ_d w_d V_(s−d) / q (an exact
    division); the mean for a need N is Σ_(s<N) V_s / q^K. (K is the most rounds, not M: with
    3d10+10 per hit the numbers are 13 times shorter.) Each step multiplies the big V by the
    small weights only, in one C-level `sum(map(mul, …))`."""
    top = max(needs)
    total = per_round.total
    xs, ws = per_round.support()
    q = total - (ws[0] if xs[0] == 0 else 0)
    if q == 0 or top <= 0:
        return [None if n > 0 else Fraction(0) for n in needs]
    hurts = [(d, w) for d, w in zip(xs, ws, strict=True) if 0 < d < top]  # what a total below top can step by
    if not hurts:  # any round that deals damage reaches every need: the rounds until one does
        return [Fraction(total, q) if n > 0 else Fraction(0) for n in needs]
    least, most = hurts[0][0], hurts[-1][0]
    backwards = [0] * (most - least + 1)  # backwards[i]: the weight of damage most − i
    for d, w in hurts:
        backwards[most - d] = w
    power = (top - 1) // least + 1
    v = [total * q ** (power - 1)]
    for s in range(1, top):
        if s < least:
            v.append(0)
            continue
        lo = max(0, s - most)  # V_lo … V_(s−least), each with the weight of damage s − t
        v.append(sum(map(mul, backwards[most - s + lo : most - least + 1], v[lo : s - least + 1])) // q)
    denominator = q**power
    prefix = list(accumulate(v))
    return [Fraction(prefix[n - 1], denominator) if n > 0 else Fraction(0) for n in needs]
