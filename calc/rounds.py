"""Whole rounds: one round's damage as an exact distribution, then the target followed round by round
as a Markov chain over what it has left (absorbing once it drops), never simulated.

Two chains: `TrackChain` for a target that only loses hit points (the state is the damage taken so
far, capped at the largest threshold, so every threshold of one track is read from the same
chain), and `StateChain` for targets whose state has more to it (wounds, wounds that expire), given
as a step function. Both answer P(threshold reached within k rounds) for k = 1…`ROUNDS`, the
exact distribution of the round it is reached in, and its exact mean.

The engines build each attack's damage from their own hit and damage calculators; `chance_of` and
`dist_of` read those calculators' exact answers back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate, compress, repeat
from operator import floordiv, itemgetter, mul
from typing import Any

from calc import bounds, dice, result
from calc.dice import DiceExpr
from calc.dist import Dist, _convolve
from calc.errors import InputError

ROUNDS = 10  # rounds shown in the table: a display choice, not a rule


# --- reading the one-attack calculators' exact answers -------------------------------------------
def chance_of(answer: Mapping[str, Any], label: str) -> Fraction:
    """The exact probability a calculator answered under `label` (its first word(s) suffice)."""
    for c in answer["chances"]:
        if c["label"] == label or c["label"].startswith(label):
            return Fraction(c["p"]["fraction"])
    raise KeyError(f"no chance labelled {label!r} in {[c['label'] for c in answer['chances']]}")


def uncut(calculator: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """A calculator's answer with every row of its distribution, even while the page's request
    asks for a cut one (`result.row_limit`): a round reads its attacks' distributions back."""
    with result.row_limit(None):
        return calculator(*args)


def dist_of(answer: Mapping[str, Any]) -> Dist:
    """The exact distribution a calculator answered (its `distribution` pmf; get the answer
    through `uncut`)."""
    d = answer["distribution"]
    if "rows" in d:
        raise RuntimeError("a distribution cut to its most likely rows cannot be read back: use rounds.uncut")
    return Dist.from_weights({row["x"]: int(row["weight"]) for row in d["pmf"]})


MAX_ATTACK_DICE = 10  # dice typed for one attack of a round: keeps the exact chain fast
MAX_ATTACK_SIDES = 100


def attack_dice(text: str, where: str) -> DiceExpr:
    """One attack's damage dice typed as text, within the round calculator's limits."""
    expr = dice.parse(text, where)
    if sum(t.count for t in expr.terms) > MAX_ATTACK_DICE or any(t.sides > MAX_ATTACK_SIDES for t in expr.terms):
        raise InputError(where, f"at most {MAX_ATTACK_DICE} dice of up to {MAX_ATTACK_SIDES} sides per attack")
    return expr


def attack_damage(p_hit: Fraction, on_hit: Dist) -> Dist:
    """One attack's damage: 0 on a miss, `on_hit` with probability `p_hit`."""
    return Dist.mixture([(1 - p_hit, Dist.constant(0)), (p_hit, on_hit)])


def round_total(attacks: Iterable[Dist]) -> Dist:
    """The damage of a round of independent attacks: the sum of their distributions (its size,
    the last product's, bounded before the first: `bounds.check_product`)."""
    attacks = list(attacks)
    if len(attacks) > 1:  # one attack is no product
        bounds.check_product(sum(a.max - a.min for a in attacks) + 1, sum(a.total.bit_length() for a in attacks))
    total = Dist.constant(0)
    for attack in attacks:
        total = total + attack
    return total


# --- the chains ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Threshold:
    """A point on the target's track: `label` ("Drops", "Dead") and the total damage that reaches it."""

    label: str
    damage: int


@dataclass(frozen=True)
class Reached:
    """When a threshold is reached: P(within k rounds) for k = 1…ROUNDS and the exact mean (None
    when it can never be reached)."""

    label: str
    within: tuple[Fraction, ...]
    mean: Fraction | None

    def in_round(self, k: int) -> Fraction:
        """P(reached in round k exactly), k ≥ 1."""
        return self.within[k - 1] - (self.within[k - 2] if k > 1 else 0)


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


State = Hashable
Step = Callable[[State], list[tuple[Any, State]]]


class StateChain:
    """A Markov chain given by `step(state) → [(chance, next state), …]` (one round), with
    thresholds as predicates that, once true, stay true along every path (the target never
    recovers from them mid-fight).

    Chances are exact: `Fraction`s summing to 1, or, when `total` is given, integer weights summing
    to `total` (the engines' natural form: face counts of the round's dice; it keeps the whole
    propagation in integers). States may cycle (a Wound that expires brings a state back), so the
    mean is solved component by component (Tarjan's strongly connected components, each a small
    exact linear system), never by iterating to convergence."""

    def __init__(self, start: State, step: Step, total: int | None = None, bounded: bool = True) -> None:
        """`bounded=False` only for a caller whose states and moves are already explored within
        bounds of its own (the fight forecast: `calc.forecast.chain.explore`)."""
        self.start = start
        self._step = step
        self._total = total
        self._cache: dict[State, list[tuple[int, State]]] = {}
        self._scale: int | None = None  # the common denominator of every cached transition
        self._moves = 0  # transitions the step function has given so far
        self._bounded = bounded

    # --- transitions --------------------------------------------------------------------------
    def _weights(self, state: State) -> list[tuple[int, State]]:
        """The state's transitions as integer weights over `self._scale`, merged by next state."""
        if state in self._cache:
            return self._cache[state]
        moves = self._step(state)
        self._moves += len(moves)  # what the chain costs: counted against bounds.MAX_MOVES
        nexts = list(map(itemgetter(1), moves))
        if self._total is not None and len(set(nexts)) == len(nexts):
            # integer weights to distinct states (the usual case): nothing to merge, checked in C
            weights = list(map(itemgetter(0), moves))
            if sum(weights) != self._total:
                raise ValueError(f"weights from {state!r} do not sum to {self._total}")
            self._cache[state] = list(compress(zip(weights, nexts, strict=True), weights))
            self._scales[state] = self._total
            return self._cache[state]
        merged: dict[State, Any] = {}
        get = merged.get
        for p, nxt in moves:
            if p:
                merged[nxt] = get(nxt, 0) + p
        if self._total is not None:
            if sum(merged.values()) != self._total:
                raise ValueError(f"weights from {state!r} do not sum to {self._total}")
            scale = self._total
            out = [(w, s) for s, w in merged.items()]  # integer weights, none zero
        else:
            probs = {s: Fraction(p) for s, p in merged.items()}
            if sum(probs.values()) != 1:
                raise ValueError(f"transitions from {state!r} do not sum to 1")
            scale = math.lcm(*(p.denominator for p in probs.values()))
            out = [(p.numerator * (scale // p.denominator), s) for s, p in probs.items()]
        self._cache[state] = [(w, s) for w, s in out if w]
        self._scales[state] = scale
        return self._cache[state]

    _scales: dict[State, int]

    def _explore(self, stop: Callable[[State], bool]) -> list[State]:
        """Every state reachable from the start without passing a `stop` state (those are kept but
        not expanded); fixes one common denominator for all their transitions."""
        self._scales = {}
        self._cache.clear()
        seen = {self.start}
        todo = [self.start]
        while todo:
            state = todo.pop()
            if stop(state):
                continue
            new = set(map(itemgetter(1), self._weights(state))) - seen  # in C: no Python step per move
            seen |= new
            todo += new
            if self._bounded and (len(seen) > bounds.MAX_STATES or self._moves > bounds.MAX_MOVES):  # before solving
                bounds.check_states(len(seen), self._moves)
        scale = math.lcm(*self._scales.values()) if self._scales else 1
        for state, own in self._scales.items():
            if own != scale:
                f = scale // own
                self._cache[state] = [(w * f, s) for w, s in self._cache[state]]
        self._scale = scale
        return list(seen)

    def step(self, state: State) -> list[tuple[Fraction, State]]:
        """One round from `state` as exact probabilities, merged by next state."""
        merged: dict[State, Fraction] = {}
        for p, nxt in self._step(state):
            q = Fraction(p, self._total) if self._total is not None else Fraction(p)
            merged[nxt] = merged.get(nxt, Fraction(0)) + q
        return [(p, s) for s, p in merged.items() if p]

    # --- answers --------------------------------------------------------------------------------
    def reach_all(self, thresholds: list[tuple[str, Callable[[State], bool]]], rounds: int = ROUNDS) -> list[Reached]:
        """For each (label, done) threshold, when it is reached: one forward propagation of the
        whole chain in integers (a state past every threshold is no longer expanded), then every
        threshold's exact mean in one pass over the chain's components."""
        dones = [done for _, done in thresholds]
        states = self._explore(lambda s: all(done(s) for done in dones))
        flags = {s: tuple(done(s) for done in dones) for s in states}
        past = {s for s, f in flags.items() if all(f)}
        components = _components(self.start, lambda s: [] if s in past else [t for _, t in self._cache[s]])
        if all(len(c) == 1 for c in components):
            order = [c[0] for c in components]  # successors first
            graph = self._indexed(order, past)
            within = self._within_acyclic(order, graph, flags, rounds)
            means = self._means_acyclic(order, graph, flags)
            return [Reached(label, within[i], means[i]) for i, (label, _) in enumerate(thresholds)]
        scale = self._scale or 1
        at = {s: i for i, s in enumerate(states)}  # states as indices: no tuple hashing per transition
        moves = [[(scale, i)] if s in past else [(q, at[t]) for q, t in self._cache[s]] for i, s in enumerate(states)]
        weights = [0] * len(states)
        weights[at[self.start]] = 1
        marks = [[i for i, s in enumerate(states) if flags[s][k]] for k in range(len(thresholds))]
        within: list[list[Fraction]] = [[] for _ in thresholds]
        den = 1
        # Pull, not push: each state's next weight is one dot product over the states that lead
        # to it (gathered and multiplied in C), not a Python step per transition.
        sources: list[list[int]] = [[] for _ in states]
        factors: list[list[int]] = [[] for _ in states]
        for i, out in enumerate(moves):
            for q, j in out:
                sources[j].append(i)
                factors[j].append(q)
        incoming = list(zip(sources, factors, strict=True))
        for _ in range(rounds):
            get = weights.__getitem__
            weights = [sum(map(mul, map(get, src), fs)) for src, fs in incoming]
            den *= scale
            for k, marked in enumerate(marks):
                within[k].append(Fraction(sum(weights[i] for i in marked), den))
        means = self._means(flags, past, components)
        return [Reached(label, tuple(within[i]), means[i]) for i, (label, _) in enumerate(thresholds)]

    def _indexed(self, order: list[State], past: set[State]) -> tuple[list[list[int]], list[list[int]], list[int]]:
        """The chain over the positions of `order` (no tuple hashing per transition after this):
        for each state, the other states it moves to, with which weights, and its weight of
        staying (a state past every threshold stays for good)."""
        scale = self._scale or 1
        at = {s: i for i, s in enumerate(order)}
        targets: list[list[int]] = []
        weights: list[list[int]] = []
        stay: list[int] = []
        for i, s in enumerate(order):
            if s in past:
                targets.append([])
                weights.append([])
                stay.append(scale)
                continue
            own = self._cache[s]
            js = list(map(at.__getitem__, map(itemgetter(1), own)))
            ws = list(map(itemgetter(0), own))
            moving = list(map(i.__ne__, js))
            targets.append(list(compress(js, moving)))
            weights.append(list(compress(ws, moving)))
            stay.append(sum(compress(ws, map(i.__eq__, js))))
        return targets, weights, stay

    def _within_acyclic(
        self,
        order: list[State],
        graph: tuple[list[list[int]], list[list[int]], list[int]],
        flags: Mapping[State, tuple[bool, ...]],
        rounds: int,
    ) -> list[tuple[Fraction, ...]]:
        """P(each threshold reached within 1, 2, … `rounds` rounds) when no two states lead to
        each other (`order`: every state after the states it leads to), all rounds at once.

        H_s[r] = P(at s after r rounds) × scale^r is an integer ≤ scale^rounds, so a state's
        whole history packs into one big integer (slot r = H_s[r], Kronecker substitution:
        H_s(z) = Σ H_s[r] z^r). Then H_s(z) (1 − stay_s z) = [s is the start] + z Σ w·H_t(z) over
        the states t that lead to s: one C-level dot product of packed integers per state, where
        a round-by-round propagation takes a step per transition per round; dividing by
        (1 − stay_s z) is a running sum over the slots."""
        scale = self._scale or 1
        targets, weights, stay = graph
        width = (scale**rounds).bit_length() + 1
        slots = rounds + 1
        keep = (1 << (width * slots)) - 1
        mask = (1 << width) - 1
        sources: list[list[int]] = [[] for _ in order]
        factors: list[list[int]] = [[] for _ in order]
        for i, (js, ws) in enumerate(zip(targets, weights, strict=True)):
            for j, w in zip(js, ws, strict=True):
                sources[j].append(i)
                factors[j].append(w)
        packed = [0] * len(order)
        start = order.index(self.start)
        for j in range(len(order) - 1, -1, -1):  # every state after the ones leading to it
            inflow = (sum(map(mul, map(packed.__getitem__, sources[j]), factors[j])) << width) & keep
            if j == start:
                inflow += 1
            if stay[j] and inflow:
                q, run, total = stay[j], 0, 0
                for r in range(slots):  # H[r] = A[r] + stay × H[r − 1]
                    run = ((inflow >> (r * width)) & mask) + q * run
                    total |= run << (r * width)
                inflow = total
            packed[j] = inflow
        out = []
        for k in range(len(flags[self.start])):
            reached = sum(p for p, s in zip(packed, order, strict=True) if flags[s][k])
            out.append(tuple(Fraction((reached >> (r * width)) & mask, scale**r) for r in range(1, slots)))
        return out

    def reached(self, label: str, done: Callable[[State], bool], rounds: int = ROUNDS) -> Reached:
        return self.reach_all([(label, done)], rounds)[0]

    def mean(self, done: Callable[[State], bool]) -> Fraction | None:
        """Expected rounds until `done` (None when it may never come)."""
        states = self._explore(done)
        flags = {s: (done(s),) for s in states}
        return self._means(flags, {s for s, f in flags.items() if f[0]})[0]

    def _means(
        self, flags: Mapping[State, tuple[bool, ...]], past: set[State], components: list[list[State]] | None = None
    ) -> list[Fraction | None]:
        """For each threshold, E(s) = 1 + Σ p(s→t) E(t), E = 0 once done; solved over the strongly
        connected components in reverse topological order (successors first, as Tarjan emits
        them): a component is a small exact linear system; one that cannot leave itself, or can
        reach a state that never finishes, never finishes either (None). A threshold, once
        reached, stays reached, so a component is wholly done or not for each threshold."""
        scale = self._scale or 1
        n = len(flags[self.start])
        if components is None:
            components = _components(self.start, lambda s: [] if s in past else [t for _, t in self._cache[s]])
        if all(len(c) == 1 for c in components):
            order = [c[0] for c in components]
            return self._means_acyclic(order, self._indexed(order, past), flags)
        expected: list[dict[State, Fraction | None]] = [{} for _ in range(n)]
        for component in components:
            inside = set(component)
            for i in range(n):
                done = {flags[s][i] for s in component}
                if len(done) > 1:
                    raise ValueError("a threshold that is reached must stay reached")
                if done.pop():
                    for s in component:
                        expected[i][s] = Fraction(0)
                    continue
                known = expected[i]
                never = False
                leaves = False
                for s in component:
                    for _, t in self._cache[s]:
                        if t not in inside:
                            leaves = True
                            never = never or known[t] is None
                if never or not leaves:
                    for s in component:
                        known[s] = None
                    continue
                if len(component) > 1:
                    for s, e in zip(component, _solve(component, self._cache, known, scale), strict=True):
                        known[s] = e
                    continue
                (s,) = component
                stay = 0
                by_den: dict[int, int] = {1: scale}  # Σ w·E(t) grouped by E(t)'s denominator: few gcds
                for w, t in self._cache[s]:
                    if t == s:
                        stay += w
                    else:
                        e = known[t]
                        d = e.denominator  # type: ignore[union-attr]
                        by_den[d] = by_den.get(d, 0) + w * e.numerator  # type: ignore[union-attr]
                common = math.lcm(*by_den)
                rest = sum(k * (common // d) for d, k in by_den.items())
                known[s] = Fraction(rest, common * (scale - stay))
        return [expected[i][self.start] for i in range(n)]

    def _means_acyclic(
        self,
        order: list[State],
        graph: tuple[list[list[int]], list[list[int]], list[int]],
        flags: Mapping[State, tuple[bool, ...]],
    ) -> list[Fraction | None]:
        """`_means` when no two states lead to each other (every component is one state, with
        perhaps a loop to itself: the usual chain, where damage only accumulates), all in
        integers over one denominator D instead of a Fraction per state (whose ever-longer
        denominators, one lcm per state, were most of the time).

        E(s) = (scale + Σ_(t≠s) w·E(t)) / f_s with f_s = scale − (weight of staying at s) (all
        three divided by their gcd first, which keeps D small). With
        e(s) = the most times each value f occurs as f_u along a path from s, D = Π f^e(start)
        makes every D·E(s) an integer (by induction from the last states: D(t) divides D(s)/f_s),
        so N(s) = D·E(s) = (scale·D + Σ w·N(t)) / f_s is an exact integer division."""
        scale = self._scale or 1
        targets, moved, stay = graph
        leave: list[int] = []  # f_s / g_s
        bases: list[int] = []  # scale / g_s
        weights: list[list[int]] = []  # w / g_s
        for ws, kept in zip(moved, stay, strict=True):
            f = scale - kept
            # E(s) = (scale + Σ w·E(t)) / f, every term divided by their common factor g_s first:
            # a smaller f to build D from (f = scale, no loop, is common and shares much with w)
            g = math.gcd(scale, f, *ws)
            leave.append(f // g)
            bases.append(scale // g)
            weights.append(list(map(floordiv, ws, repeat(g))) if g > 1 else ws)
        # e(s) as a list over the distinct f values: the most along any path, taken in C
        index = {f: k for k, f in enumerate(sorted(set(leave) - {0}))}
        counts: list[list[int]] = []
        for f, js in zip(leave, targets, strict=True):
            mine = list(map(max, zip(*map(counts.__getitem__, js), strict=True))) if js else [0] * len(index)
            if f:
                mine[index[f]] += 1
            counts.append(mine)
        start = order.index(self.start)
        denominator = math.prod(f**k for f, k in zip(index, counts[start], strict=True))
        # Every threshold at once: E(s) ≤ scale/f + max E(t) (the moves' weights sum to f), so
        # N_i(s) ≤ D × scale × (states) and a slot's sum before the division (≤ scale × that)
        # fits in `width` bits: each threshold gets a slot in one integer per state, one product
        # per transition for all of them. Each slot is exactly divisible by f, so is their sum.
        n = len(flags[self.start])
        width = denominator.bit_length() + 2 * scale.bit_length() + len(order).bit_length() + 2
        never = [[False] * len(order) for _ in range(n)]  # it never leaves, or can reach a state that never finishes
        live_masks: list[int] = []  # the slots still to work out at each state
        for j, (s, f, js) in enumerate(zip(order, leave, targets, strict=True)):
            live = 0
            for i in range(n):
                if flags[s][i]:
                    continue
                if not f or any(map(never[i].__getitem__, js)):
                    never[i][j] = True
                else:
                    live |= 1 << i
            live_masks.append(live)
        one = {live: sum(1 << (i * width) for i in range(n) if live >> i & 1) for live in set(live_masks)}
        mask = {live: ((1 << width) - 1) * one[live] for live in one}
        value: list[int] = []
        for f, js, ws, base, live in zip(leave, targets, weights, bases, live_masks, strict=True):
            if not live:
                value.append(0)
                continue
            inflow = sum(map(mul, ws, map(value.__getitem__, js))) & mask[live]
            value.append((base * denominator * one[live] + inflow) // f)
        got = value[start]
        return [
            None if never[i][start] else Fraction((got >> (i * width)) & ((1 << width) - 1), denominator)
            for i in range(n)
        ]


def _components(start: State, successors: Callable[[State], list[State]]) -> list[list[State]]:
    """Tarjan's strongly connected components of the states reachable from `start`, iteratively,
    in reverse topological order (every component after the ones it leads to)."""
    index: dict[State, int] = {}
    low: dict[State, int] = {}
    on_stack: set[State] = set()
    stack: list[State] = []
    out: list[list[State]] = []
    work: list[tuple[State, Iterator[State]]] = [(start, iter(successors(start)))]
    index[start] = low[start] = 0
    stack.append(start)
    on_stack.add(start)
    counter = 1
    while work:
        state, children = work[-1]
        for child in children:
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(successors(child))))
                break
            if child in on_stack:
                low[state] = min(low[state], index[child])
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[state])
            if low[state] == index[state]:
                component = []
                while True:
                    s = stack.pop()
                    on_stack.discard(s)
                    component.append(s)
                    if s == state:
                        break
                out.append(component)
    return out


def _solve(
    component: list[State],
    cache: Mapping[State, list[tuple[int, State]]],
    known: Mapping[State, Fraction | None],
    scale: int,
) -> list[Fraction]:
    """(scale·I − W) E = scale + Σ W_out E_out over one component, by exact Gauss–Jordan."""
    at = {s: i for i, s in enumerate(component)}
    n = len(component)
    rows: list[list[Fraction]] = []
    for s in component:
        row = [Fraction(0)] * (n + 1)
        row[at[s]] += scale
        row[n] = Fraction(scale)
        for w, t in cache[s]:
            if t in at:
                row[at[t]] -= w
            else:
                row[n] += w * known[t]  # type: ignore[operator]
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] for i in range(n)]


# --- the result -----------------------------------------------------------------------------------------
def answer(
    per_round: Dist,
    reached: list[Reached],
    hp_text: str,
    steps: list[dict[str, str]],
    label: str = "Damage per round",
    verb: str = "drops",
) -> dict[str, Any]:
    """The round calculator's result: the damage distribution, the rounds-to-threshold table,
    the headline chances and a one-line summary."""
    columns = ["Rounds"]
    for r in reached:
        columns += [f"{r.label}: in round k", f"{r.label}: within k rounds"]
    rows = []
    for k in range(1, len(reached[0].within) + 1):
        row = [str(k)]
        for r in reached:
            row += [_pct(r.in_round(k)), _pct(r.within[k - 1])]
        rows.append(row)
    later = [f"more than {len(reached[0].within)}"]
    for r in reached:
        later += [_pct(1 - r.within[-1]), "—"]
    rows.append(later)
    chances = []
    for r in reached:
        chances.append(result.chance(f"{r.label} in 1 round", r.within[0]))
        chances.append(result.chance(f"{r.label} within 3 rounds", r.within[2]))
        chances.append(result.chance(f"{r.label} within {len(r.within)} rounds", r.within[-1]))
    first = reached[0]
    summary = f"Deals {_num(per_round.mean)} per round on average; "
    if first.mean is None:
        summary += f"never {verb} {hp_text}"
    else:
        summary += (
            f"{verb} {hp_text} in {_num(first.mean)} rounds on average "
            f"(P within 3 rounds: {result.percent(first.within[2], 0)})"
        )
    table = result.table("Rounds until the target drops", columns, rows)
    if any(r.mean is not None for r in reached):
        means = "; ".join(f"{r.label}: {_num(r.mean) if r.mean is not None else 'never'}" for r in reached)
        table["title"] += f" (mean rounds: {means})"
    return {
        "summary": summary,
        "chances": chances,
        "distribution": result.dist_json(per_round, label),
        "table": table,
        "steps": steps,
    }


def _pct(p: Fraction) -> str:
    return result.percent(p, 2)


def _num(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
