"""A target (or a whole fight) whose state has more to it than damage taken (wounds, wounds that
expire, dying checks, every fighter's health), followed round by round as an exact Markov chain
given by its one-round step: P(threshold reached within k rounds) by one forward pass, the exact
mean by strongly connected components (`calc.chains.solve`), never by iterating to convergence."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from itertools import compress
from operator import itemgetter, mul
from typing import Any

from calc.chains import acyclic as chain_acyclic
from calc.chains import solve as chain_solve
from calc.chains.reached import ROUNDS, Reached
from calc.numbers import bounds

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
        bounds of its own (the fight forecast: `calc.forecast.chain.explore_numbered`)."""
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
            # the step's own list where no weight is 0 (the fight forecast's rows): no second copy
            # of every move (Active Defense 2 against 2 keeps 733,574 of them)
            own = moves if all(weights) and isinstance(moves, list) else None
            self._cache[state] = own if own is not None else list(compress(zip(weights, nexts, strict=True), weights))
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
        components = chain_solve.components(self.start, lambda s: [] if s in past else [t for _, t in self._cache[s]])
        scale = self._scale or 1
        if all(len(c) == 1 for c in components):
            order = [c[0] for c in components]  # successors first
            at_order = [flags[s] for s in order]
            graph = self._indexed(order, past)
            within, means = chain_acyclic.reach(graph, order.index(self.start), at_order, scale, rounds)
            return [Reached(label, within[i], means[i]) for i, (label, _) in enumerate(thresholds)]
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

    def _indexed(self, order: list[State], past: set[State]) -> chain_acyclic.Graph:
        """The chain over the positions of `order` (no tuple hashing per transition after this):
        for each state, the other states it moves to, with which weights, and its weight of
        staying (a state past every threshold stays for good); and the same moves turned around,
        the states that lead to each (`chain_acyclic.graph`)."""
        scale = self._scale or 1
        at: Any = {s: i for i, s in enumerate(order)}
        if all(type(s) is int for s in at) and len(at) == len(order) and set(at) == set(range(len(order))):
            places = [0] * len(order)  # states numbered 0…n−1 (the fight forecast's): a list, not a dict
            for s, i in at.items():
                places[s] = i
            at = places
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
        return chain_acyclic.graph(targets, weights, stay)

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
            components = chain_solve.components(
                self.start, lambda s: [] if s in past else [t for _, t in self._cache[s]]
            )
        if all(len(c) == 1 for c in components):
            order = [c[0] for c in components]
            marks = [flags[s] for s in order]
            return chain_acyclic.means(self._indexed(order, past), order.index(self.start), marks, scale)
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
                    for s, e in zip(component, chain_solve.solve(component, self._cache, known, scale), strict=True):
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
