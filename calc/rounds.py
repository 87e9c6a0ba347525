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

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from operator import mul
from typing import Any

from calc import dice, result
from calc.dice import DiceExpr
from calc.dist import Dist
from calc.errors import InputError

ROUNDS = 10  # rounds shown in the table: a display choice, not a rule


# --- reading the one-attack calculators' exact answers -------------------------------------------
def chance_of(answer: Mapping[str, Any], label: str) -> Fraction:
    """The exact probability a calculator answered under `label` (its first word(s) suffice)."""
    for c in answer["chances"]:
        if c["label"] == label or c["label"].startswith(label):
            return Fraction(c["p"]["fraction"])
    raise KeyError(f"no chance labelled {label!r} in {[c['label'] for c in answer['chances']]}")


def dist_of(answer: Mapping[str, Any]) -> Dist:
    """The exact distribution a calculator answered (its `distribution` pmf)."""
    pmf = answer["distribution"]["pmf"]
    return Dist.from_probs({row["x"]: Fraction(row["p"]["fraction"]) for row in pmf})


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
    """The damage of a round of independent attacks: the sum of their distributions."""
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


def track(per_round: Dist, thresholds: list[Threshold], rounds: int = ROUNDS) -> list[Reached]:
    """Damage only accumulates (the chain over "damage taken so far, capped at the largest
    threshold" moves one way), so P(reached within k) = P(k rounds' total ≥ threshold)."""
    if per_round.min < 0:
        raise ValueError("damage per round must not be negative")
    cap = max(t.damage for t in thresholds)
    step = per_round.map(lambda x: min(x, cap)) if per_round.max > cap else per_round
    taken = Dist.constant(0)
    within: dict[str, list[Fraction]] = {t.label: [] for t in thresholds}
    for _ in range(rounds):
        taken = taken + step
        if taken.max > cap:
            taken = taken.map(lambda x: min(x, cap))
        for t in thresholds:
            within[t.label].append(taken.p_ge(t.damage))
    means = mean_rounds(step, [t.damage for t in thresholds])
    return [Reached(t.label, tuple(within[t.label]), m) for t, m in zip(thresholds, means, strict=True)]


def mean_rounds(per_round: Dist, needs: list[int]) -> list[Fraction | None]:
    """Exact expected rounds until the total reaches each of `needs`: the sum over totals s < need
    of the expected rounds spent at s (a renewal sum), visits(s) = Σ_d p_d visits(s − d) / (1 − p_0).

    Kept in integers over one common denominator q^M (M the largest need, q = T − w_0, with w_d
    the round's integer weights and T their total): V_s = Σ_d w_d V_(s−d) / q, V_0 = T q^(M−1),
    an exact division; the mean for a need N is Σ_(s<N) V_s / q^M. Each step multiplies the big
    V by the small weights only, in one C-level `sum(map(mul, …))`."""
    top = max(needs)
    total = per_round.total
    q = total - dict(per_round.weights()).get(0, 0)
    if q == 0 or top <= 0:
        return [None if n > 0 else Fraction(0) for n in needs]
    dense = [0] * (top - 1)
    for d, w in per_round.weights():
        if 0 < d < top:
            dense[d - 1] = w
    v = [total * q ** (top - 1)]
    for _ in range(1, top):
        v.append(sum(map(mul, dense, reversed(v))) // q)
    denominator = q**top
    prefix = list(accumulate(v))
    return [Fraction(prefix[n - 1], denominator) if n > 0 else Fraction(0) for n in needs]


State = Hashable


class StateChain:
    """A Markov chain given by `step(state) → [(probability, next state), …]` (one round), with
    thresholds as predicates that, once true, stay true (the target never recovers mid-fight)."""

    def __init__(self, start: State, step: Callable[[State], list[tuple[Fraction, State]]]) -> None:
        self.start = start
        self._step = step
        self._cache: dict[State, list[tuple[Fraction, State]]] = {}

    def step(self, state: State) -> list[tuple[Fraction, State]]:
        if state not in self._cache:
            merged: dict[State, Fraction] = {}
            for p, nxt in self._step(state):
                merged[nxt] = merged.get(nxt, 0) + p
            if sum(merged.values()) != 1:
                raise ValueError(f"transitions from {state!r} do not sum to 1")
            self._cache[state] = list((p, s) for s, p in merged.items() if p)
        return self._cache[state]

    def reached(self, label: str, done: Callable[[State], bool], rounds: int = ROUNDS) -> Reached:
        dist: dict[State, Fraction] = {self.start: Fraction(1)}
        within = []
        for _ in range(rounds):
            nxt: dict[State, Fraction] = {}
            for state, p in dist.items():
                if done(state):
                    nxt[state] = nxt.get(state, 0) + p
                    continue
                for q, s in self.step(state):
                    nxt[s] = nxt.get(s, 0) + p * q
            dist = nxt
            within.append(sum((p for s, p in dist.items() if done(s)), Fraction(0)))
        return Reached(label, tuple(within), self.mean(done))

    def mean(self, done: Callable[[State], bool]) -> Fraction | None:
        """Expected rounds until `done`, solved backwards over the reachable states (the chain
        only moves forward apart from staying put; a cycle raises)."""
        order: list[State] = []
        seen: set[State] = set()
        stack: list[tuple[State, bool]] = [(self.start, False)]
        while stack:
            state, expanded = stack.pop()
            if expanded:
                order.append(state)
                continue
            if state in seen:
                continue
            seen.add(state)
            stack.append((state, True))
            if not done(state):
                stack.extend((s, False) for _, s in self.step(state) if s != state and s not in seen)
        expected: dict[State, Fraction | None] = {}
        for state in order:  # successors first
            if done(state):
                expected[state] = Fraction(0)
                continue
            stay = Fraction(0)
            rest = Fraction(1)
            for p, s in self.step(state):
                if s == state:
                    stay += p
                    continue
                if s not in expected:
                    raise ValueError("the round chain has a cycle")
                e = expected[s]
                if e is None:
                    rest = None
                    break
                rest += p * e
            expected[state] = None if rest is None or stay == 1 else rest / (1 - stay)
        return expected[self.start]


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
