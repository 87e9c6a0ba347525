"""Exact probability distributions over integers.

A `Dist` holds integer weights over a dense range of outcomes, so every probability is an exact
`Fraction` and adding distributions is a polynomial product. The product is done by Kronecker
substitution (pack the weights into one big integer, multiply, unpack): CPython's big-integer
multiplication runs in C, which keeps a 100-dice sum in the low milliseconds in Pyodide too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from itertools import accumulate, compress, repeat
from math import comb, gcd, lcm
from operator import add, mul

from calc.numbers import bounds


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    """Coefficients of the product of two polynomials with non-negative integer coefficients."""
    if len(a) == 1 or len(b) == 1:
        (k,), other = (a, b) if len(a) == 1 else (b, a)
        return [k * w for w in other]
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 1
    width = (bits + 7) // 8
    bounds.check_product(len(a) + len(b) - 1, width * 8)  # before the multiplication it bounds

    def pack(ws: tuple[int, ...]) -> int:
        return int.from_bytes(b"".join(map(int.to_bytes, ws, repeat(width), repeat("little"))), "little")

    size = len(a) + len(b) - 1
    end = size * width
    raw = (pack(a) * pack(b)).to_bytes(end, "little")
    # every coefficient's bytes cut and read in C: no Python step per coefficient
    cuts = map(slice, range(0, end, width), range(width, end + width, width))
    return list(map(int.from_bytes, map(raw.__getitem__, cuts), repeat("little")))


_FEW_DICE = 6
"""Up to this many dice, `_dice_prefix_sums` (count passes in C) beats `_dice_recurrence` (one
Python step per coefficient); measured crossover in CPython between 6 and 8 dice."""


def _dice_prefix_sums(count: int, sides: int, half: int) -> list[int]:
    """The first `half` coefficients of (1 + x + … + x^(s-1))^n, as
    (1 - x^s)^n / (1 - x)^n: the numerator has n + 1 binomial terms, and dividing by (1 - x) is
    a prefix sum, so n passes of `accumulate` (in C) over the first half (a prefix sum of it needs
    nothing of the rest). Cost: n × half big-integer additions."""
    weights = [0] * half
    for k in range(min(count, (half - 1) // sides) + 1):
        weights[k * sides] = -comb(count, k) if k & 1 else comb(count, k)
    for _ in range(count):
        weights = list(accumulate(weights))
    return weights


def _dice_recurrence(count: int, sides: int, half: int) -> list[int]:
    """The first `half` coefficients p_m of f^n, f = 1 + x + … + x^(s-1), by the power recurrence
    (from P' f = n f' P with f_0 = 1): m p_m = Σ_{k=1}^{s-1} ((n + 1) k − m) p_{m−k}. Both sums
    it needs, S0 = Σ p_{m−k} and S1 = Σ k p_{m−k} over k = 1…s−1, slide along in O(1) each, so
    one step per coefficient whatever the sides (the division is exact): 200d10 in ~0.8 ms
    (CPython) against ~11 ms for `_dice_prefix_sums`."""
    n1, s = count + 1, sides
    w = [1] * half
    s0 = s1 = 0
    prev = 1  # p_{m-1}
    for m in range(1, half):
        gone = w[m - s] if m >= s else 0  # p_{m-s} leaves the window
        s1 += s0 + prev - s * gone
        s0 += prev - gone
        prev = (n1 * s1 - m * s0) // m
        w[m] = prev
    return w


class Dist:
    """An immutable, exact distribution of integer outcomes.

    Build one with `Dist.die(6)`, `Dist.constant(3)`, `Dist.from_weights({1: 1, 2: 3})` or
    `Dist.mixture([(p, dist), ...])`; combine with `+`, `-`, `.map(f)`, `.binary(other, f)`,
    `.times(n)`; read with `.p(x)`, `.p_ge(x)`, `.mean`, `.items()`.
    """

    __slots__ = ("__dict__", "_lo", "_w")

    def __init__(self, lo: int, weights: Iterable[int]) -> None:
        w = list(weights)
        if any(x < 0 for x in w):
            raise ValueError("weights must be non-negative")
        while w and w[-1] == 0:
            w.pop()
        start = 0
        while start < len(w) and w[start] == 0:
            start += 1
        w = w[start:]
        if not w:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        g = gcd(*w)
        self._lo = lo + start
        self._w = tuple(x // g for x in w) if g > 1 else tuple(w)

    @classmethod
    def _trusted(cls, lo: int, w: list[int], total: int | None = None, mean: Fraction | None = None) -> Dist:
        """From weights this module computed itself (never negative): skips the check, which is
        a Python-level pass over thousands of big integers on limit-sized inputs. `total` (the
        sum of `w`) and `mean`, when the caller knows them, are kept rather than summed again."""
        end = len(w)
        while end and not w[end - 1]:
            end -= 1
        start = 0
        while start < end and not w[start]:
            start += 1
        if start == end:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        w = w[start:end]
        g = gcd(*w)  # in C, and it stops taking gcds once it reaches 1
        self = object.__new__(cls)
        self._lo = lo + start
        self._w = tuple(w) if g == 1 else tuple(x // g for x in w)
        if total is not None:
            self.__dict__["total"] = total // g
        if mean is not None:
            self.__dict__["mean"] = mean
        return self

    def _known(self, name: str) -> Fraction | None:
        """A cached property's value if it was already worked out, else None (never computes)."""
        return self.__dict__.get(name)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die numbered 1..sides."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return cls(1, [1] * sides)

    @classmethod
    def dice(cls, count: int, sides: int) -> Dist:
        """The sum of `count` fair dice numbered 1..sides, exact (integer weights): see
        `_dice_prefix_sums` and `_dice_recurrence` for how."""
        if sides < 1 or count < 0:
            raise ValueError("dice need at least one side and a non-negative count")
        if count == 0 or sides == 1:
            return cls.constant(count)
        # The sum is symmetric (w[j] = w[size - 1 - j]): both routines compute the first half
        # only, which is then mirrored.
        size = (sides - 1) * count + 1
        half = (size + 1) // 2
        build = _dice_prefix_sums if count <= _FEW_DICE else _dice_recurrence
        weights = build(count, sides, half)
        weights += weights[size - half - 1 :: -1]
        return cls._trusted(count, weights, sides**count, Fraction(count * (sides + 1), 2))

    @classmethod
    def constant(cls, value: int) -> Dist:
        return cls(value, [1])

    @classmethod
    def from_weights(cls, weights: Mapping[int, int]) -> Dist:
        """From a mapping outcome → non-negative integer weight."""
        keys = [k for k, v in weights.items() if v]
        if not keys:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        lo, hi = min(keys), max(keys)
        dense = [0] * (hi - lo + 1)
        for k, v in weights.items():
            dense[k - lo] += v
        return cls(lo, dense)

    @classmethod
    def from_probs(cls, probs: Mapping[int, Fraction]) -> Dist:
        """From a mapping outcome → probability; the probabilities must sum to exactly 1."""
        if sum(probs.values()) != 1:
            raise ValueError("probabilities must sum to 1")
        denom = lcm(*(Fraction(p).denominator for p in probs.values()))
        return cls.from_weights({k: int(Fraction(p) * denom) for k, p in probs.items()})

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction | int, Dist]]) -> Dist:
        """Pick one distribution with the given probabilities (which must sum to 1), then roll it."""
        parts = [(Fraction(p), d) for p, d in parts if p]
        if sum(p for p, _ in parts) != 1:
            raise ValueError("mixture probabilities must sum to 1")
        denom = lcm(*(p.denominator * d.total for p, d in parts))
        scales = [p.numerator * (denom // (p.denominator * d.total)) for p, d in parts]
        common = gcd(*scales)  # divided out now, not from every weight afterwards
        denom //= common
        lo = min(d.min for _, d in parts)
        hi = max(d.max for _, d in parts)
        dense = [0] * (hi - lo + 1)
        for (_, d), scale in zip(parts, scales, strict=True):
            scale //= common
            a = d._lo - lo
            b = a + len(d._w)
            dense[a:b] = map(add, dense[a:b], map(mul, repeat(scale), d._w))
        # The weights sum to denom (Σ p = 1); the mean is Σ p × mean when the parts' are known
        # (a long mixture's own would be a pass over all its big weights).
        means = [d._known("mean") for _, d in parts]
        mean = None if None in means else sum((p * m for (p, _), m in zip(parts, means, strict=True)), Fraction(0))
        return cls._trusted(lo, dense, denom, mean)

    # --- reading ------------------------------------------------------------------------------
    @cached_property
    def total(self) -> int:
        """The sum of the weights: every probability is weight / total."""
        return sum(self._w)

    @property
    def min(self) -> int:
        return self._lo

    @property
    def max(self) -> int:
        return self._lo + len(self._w) - 1

    def weights(self) -> Iterator[tuple[int, int]]:
        """(outcome, integer weight) for every possible outcome, in increasing order."""
        return zip(*self.support(), strict=True)

    def support(self) -> tuple[Sequence[int], list[int]]:
        """(outcomes, their integer weights) of every possible outcome, in increasing order, as
        two sequences built in C (no tuple per outcome; a range when no outcome in between is
        impossible)."""
        w = self._w
        ws = list(filter(None, w))
        span = range(self._lo, self._lo + len(w))
        return (span if len(ws) == len(w) else list(compress(span, w))), ws

    def items(self) -> Iterator[tuple[int, Fraction]]:
        """(outcome, probability) for every possible outcome, in increasing order."""
        t = self.total
        return ((x, Fraction(w, t)) for x, w in self.weights())

    def outcomes(self) -> list[int]:
        return [x for x, _ in self.weights()]

    def p(self, x: int) -> Fraction:
        i = x - self._lo
        return Fraction(self._w[i], self.total) if 0 <= i < len(self._w) else Fraction(0)

    def p_ge(self, x: int) -> Fraction:
        i = max(0, x - self._lo)
        return Fraction(sum(filter(None, self._w[i:])), self.total)

    def p_gt(self, x: int) -> Fraction:
        return self.p_ge(x + 1)

    def p_le(self, x: int) -> Fraction:
        return 1 - self.p_gt(x)

    def p_lt(self, x: int) -> Fraction:
        return 1 - self.p_ge(x)

    def p_where(self, pred: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(w for x, w in self.weights() if pred(x)), self.total)

    @cached_property
    def mean(self) -> Fraction:
        w = self._w
        xs = compress(range(self._lo, self._lo + len(w)), w)  # skip the zeros of a sparse range
        return Fraction(sum(map(mul, xs, filter(None, w))), self.total)

    # --- combining ----------------------------------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):  # a shift: the weights, already checked and reduced, stay
            shifted = object.__new__(Dist)
            shifted._lo, shifted._w = self._lo + other, self._w
            if "total" in self.__dict__:
                shifted.__dict__["total"] = self.total
            if "mean" in self.__dict__:
                shifted.__dict__["mean"] = self.mean + other
            return shifted
        means = self._known("mean"), other._known("mean")
        mean = None if None in means else means[0] + means[1]
        return Dist._trusted(self._lo + other._lo, _convolve(self._w, other._w), self.total * other.total, mean)

    __radd__ = __add__

    def __neg__(self) -> Dist:
        known = self._known("mean")
        return Dist._trusted(-self.max, self._w[::-1], self.total, None if known is None else -known)

    def __sub__(self, other: Dist | int) -> Dist:
        return self + (-other)

    def __rsub__(self, other: int) -> Dist:
        return (-self) + other

    def times(self, n: int) -> Dist:
        """The sum of n independent copies (n ≥ 0), by repeated squaring."""
        if n < 0:
            raise ValueError("n must be non-negative")
        result, base = Dist.constant(0), self
        while n:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def scale(self, factor: int) -> Dist:
        """The distribution of outcome × factor (same as `.map(lambda x: x * factor)`, without a
        Python call per outcome)."""
        if factor == 0:
            return Dist.constant(0)
        if factor < 0:
            return (-self).scale(-factor)
        dense = [0] * ((len(self._w) - 1) * factor + 1)
        dense[::factor] = self._w
        # mostly zeros: its mean is the (factor times shorter) original's, times factor
        return Dist._trusted(self._lo * factor, dense, self.total, self.mean * factor)

    def clamp_below(self, floor: int) -> Dist:
        """The distribution of max(floor, outcome): every outcome below `floor` becomes `floor`."""
        cut = floor - self._lo
        if cut <= 0:
            return self
        if cut >= len(self._w):
            return Dist.constant(floor)
        return Dist._trusted(floor, [sum(self._w[: cut + 1]), *self._w[cut + 1 :]], self.total)

    def clamp_above(self, ceiling: int) -> Dist:
        """The distribution of min(ceiling, outcome): every outcome above `ceiling` becomes it."""
        keep = ceiling - self._lo + 1
        if keep >= len(self._w):
            return self
        if keep <= 0:
            return Dist.constant(ceiling)
        return Dist._trusted(self._lo, [*self._w[: keep - 1], sum(self._w[keep - 1 :])], self.total)

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of f(outcome)."""
        out: dict[int, int] = {}
        for x, w in self.weights():
            y = f(x)
            out[y] = out.get(y, 0) + w
        return Dist.from_weights(out)

    def binary(self, other: Dist, f: Callable[[int, int], int]) -> Dist:
        """The distribution of f(a, b) for independent a ~ self, b ~ other."""
        out: dict[int, int] = {}
        for x, wx in self.weights():
            for y, wy in other.weights():
                z = f(x, y)
                out[z] = out.get(z, 0) + wx * wy
        return Dist.from_weights(out)

    def condition(self, pred: Callable[[int], bool]) -> Dist:
        """The distribution given that pred(outcome) holds."""
        kept = {x: w for x, w in self.weights() if pred(x)}
        if not kept:
            raise ValueError("conditioning on an impossible event")
        return Dist.from_weights(kept)

    def compare(self, other: Dist) -> tuple[Fraction, Fraction, Fraction]:
        """(P(self < other), P(self == other), P(self > other)) for independent rolls."""
        # Σ_x P(self = x) × P(other > x, = x, < x): both on one range, three dot products in C
        # (no convolution: that is quadratic, and this runs for every pair of an initiative).
        lo, hi = min(self._lo, other._lo), max(self.max, other.max)
        mine = [*repeat(0, self._lo - lo), *self._w, *repeat(0, hi - self.max)]
        theirs = [*repeat(0, other._lo - lo), *other._w, *repeat(0, hi - other.max)]
        below = list(accumulate(theirs, initial=0))  # below[i]: other's weight under lo + i
        t_other = below.pop()
        above = [t_other - b - w for b, w in zip(below, theirs, strict=True)]
        total = self.total * t_other
        less = sum(map(mul, mine, above))
        equal = sum(map(mul, mine, theirs))
        return Fraction(less, total), Fraction(equal, total), Fraction(total - less - equal, total)

    # --- identity -----------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._lo == other._lo and self._w == other._w

    def __hash__(self) -> int:
        return hash((self._lo, self._w))

    def __repr__(self) -> str:
        shown = ", ".join(f"{x}: {p}" for x, p in list(self.items())[:8])
        more = ", …" if len(self._w) > 8 else ""
        return f"Dist({{{shown}{more}}})"
