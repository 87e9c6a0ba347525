"""A scripted round's chain solved slot by slot: the round's transition is never multiplied out.

A `ScriptedFight`'s round is a tree of slots (`fight.tree`: the scripts' shared prefixes), each
slot a sparse move of the healths. Multiplied out, a state of Segments 4 against 4 has about 119
ends per script (11 after one side's slot × 11 after the other's); kept apart, the chain's points
are (node of the tree, healths): the round-start states (the root) and the half-round states
after a slot, each with about 11 moves. The round count advances only at a script's end (a node
with weight: back to the root, same healths).

Both answers are the `calc.chains.acyclic` ones over the round-start states, computed exactly the
same way but pulled through the half-round points: every move only lowers hit points, so the one
way back to the same healths is the round that changes nothing (every slot's "no change" move),
whose weight is the round-start state's weight of staying; everything else comes from healths
already done. A half-round point's value is first summed without its own round-start state
(`V'`), the round-start state's value is solved from it (`H[r + 1] = A[r] + stay × H[r]`, or
`entries // f` for the mean), then added back times the product of the "no change" weights from
the root (`V = V' + D × H`), for the healths below to pull.

Only for fights whose healths are tuples of integers that never rise (Segments' hit points), whose
first round is like the others (`first_differs` false); `applies` says so."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import mul
from typing import Any

from calc.chains.acyclic import exact_totals, layout, never_reached, packed_history, prime_factors
from calc.chains.reached import Reached
from calc.errors import InputError
from calc.forecast import chain
from calc.forecast.scripted_round import ScriptedFight

MAX_MOVES = 1_000_000
"""The most moves between the half-round chain's points, checked as they are found (about 1.5 µs
each in CPython): its own measure of work, apart from the round walk's `chain.MAX_STEPS`."""


def applies(fight: Any) -> bool:
    """Whether `fight` is a fresh scripted round (not wrapped mid-round) the same every round."""
    return isinstance(fight, ScriptedFight) and not fight.first_differs and not fight.tree.weight


class Points:
    """The chain's points, numbered from the start (0): `node[p]`, `health[p]`, `depth[p]` (0: a
    round-start state), the moves into each (`sources`, `factors`), each point's one move from its
    parent node at the same healths (`kept[p]`: (that point, weight), or None) and the points
    whose round is over (`over`: round-start states never left)."""

    def __init__(self, fight: ScriptedFight, bound: int) -> None:
        chain.check_bound(fight, bound)
        nodes, kids, weights = [fight.tree], [], []
        at = 0
        while at < len(nodes):  # the tree, breadth first: every child after its parent
            kids.append([])
            weights.append(nodes[at].weight)
            for slot, child in nodes[at].children.items():
                kids[at].append((slot, len(nodes)))
                nodes.append(child)
            at += 1
        ends = [w if not out else 0 for w, out in zip(weights, kids, strict=True)]
        depths = [0] * len(nodes)
        for at, out in enumerate(kids):
            for _, c in out:
                depths[c] = depths[at] + 1
        start = fight.start[1]
        self.node, self.health, self.depth = [0], [start], [0]
        self.sources: list[list[int]] = [[]]
        self.factors: list[list[int]] = [[]]
        self.kept: list[tuple[int, int] | None] = [None]
        self.over: set[int] = set()
        self.roots = 1
        numbers: list[dict[Any, int]] = [{} for _ in nodes]  # each node's points by their healths
        numbers[0][start] = 0
        self.sums = [sum(start)]
        acts: dict[Any, dict[Any, list[tuple[int, Any]]]] = {}
        moves = 0
        todo = [0]
        sources, factors, sums = self.sources, self.factors, self.sums
        while todo:
            p = todo.pop()
            n, h = self.node[p], self.health[p]
            if n == 0 and fight.over(h):
                self.over.add(p)
                continue
            low = sums[p]
            for slot, c in kids[n]:
                cache = acts.get(slot)
                if cache is None:
                    cache = acts[slot] = {}
                got = cache.get(h)
                if got is None:
                    got = cache[h] = fight._act(h, slot, False)
                moves += len(got)
                end = ends[c]  # a script's last slot: straight to the next round's start, times its weight
                to = 0 if end else c
                number = numbers[to]
                get = number.get
                for x, after in got:
                    q = get(after)
                    if q is None:
                        q = self._point(number, to, after, depths[to], todo, bound)
                    sources[q].append(p)
                    factors[q].append(x * end if end else x)
                    if after == h:
                        if not end:
                            self.kept[q] = (p, x)
                    elif sums[q] >= low:
                        raise ValueError(f"a slot raised the healths {h!r} to {after!r}")
            if weights[n]:  # a script ends here: the round's end, at the same healths
                q = numbers[0].get(h)
                if q is None:
                    q = self._point(numbers[0], 0, h, 0, todo, bound)
                self.sources[q].append(p)
                self.factors[q].append(weights[n])
            if moves > MAX_MOVES:
                raise InputError(
                    "foes",
                    f"this fight needs more than {MAX_MOVES:,} steps to follow exactly ({self.roots:,} "
                    f"states met): try {chain.REDUCE_STEPS}",
                )

    def _point(self, number: dict[Any, int], n: int, h: Any, depth: int, todo: list[int], bound: int) -> int:
        """A new point: node `n` of the tree at healths `h` (`number`: that node's points)."""
        q = number[h] = len(self.node)
        self.node.append(n)
        self.health.append(h)
        self.sums.append(sum(h))
        self.depth.append(depth)
        self.sources.append([])
        self.factors.append([])
        self.kept.append(None)
        todo.append(q)
        if not depth:
            self.roots += 1
            if self.roots > bound:
                raise InputError("foes", f"this fight reaches more than {bound:,} states: try {chain.REDUCE}")
        return q

    def groups(self) -> list[tuple[list[int], int | None]]:
        """The points by healths, most hit points first (every move from a healths leads lower):
        each group's half-round points by depth, and its round-start state (None: never one)."""
        order = sorted(range(len(self.node)), key=lambda p: (-self.sums[p], self.health[p], self.depth[p]))
        out: list[tuple[list[int], int | None]] = []
        last: Any = object()
        for p in order:
            h = self.health[p]
            if h != last:
                out.append(([], None))
                last = h
            if self.depth[p]:
                out[-1][0].append(p)
            else:
                out[-1] = (out[-1][0], p)
        return out


def forecast(
    fight: ScriptedFight, rounds: int, bound: int = chain.MAX_STATES, extra: Sequence[tuple[str, Callable]] = ()
) -> chain.Forecast:
    """`chain.forecast(fight, rounds, bound, extra)`, the same answers, solved slot by slot."""
    with chain._no_cycle_collection():
        points = Points(fight, bound)
        tests = chain.thresholds(fight, extra)
        roots = [p for p in range(len(points.node)) if not points.depth[p]]
        flags = {p: tuple(bool(test(points.health[p])) for _, test in tests) for p in roots}
        groups = points.groups()
        stay, kept = _kept(points, groups, fight.total)
        within = _within(points, groups, stay, kept, flags, fight.total, rounds, len(tests))
        means = _means(points, groups, stay, kept, flags, fight.total, len(tests))
        reached = [Reached(label, within[k], means[k]) for k, (label, _) in enumerate(tests)]
        return chain.assemble(fight, rounds, reached, points.roots)


def _kept(points: Points, groups: list[tuple[list[int], int | None]], scale: int) -> tuple[dict[int, int], list[int]]:
    """Each round-start state's weight of staying (a round that changes nothing: `scale` once the
    fight is over), and each point's product of "no change" weights from its round-start state."""
    kept = [0] * len(points.node)
    stay: dict[int, int] = {}
    for half, root in groups:
        if root is None:
            continue
        if root in points.over:
            stay[root] = scale
            continue
        kept[root] = 1
        q = 0
        for p in half:  # by depth: each parent before its child
            own = points.kept[p]
            if own is not None:
                kept[p] = kept[own[0]] * own[1]
        level = points.sums[root]  # a move from other healths lowers the sum: these are the same healths
        for p, w in zip(points.sources[root], points.factors[root], strict=True):
            if points.sums[p] == level:
                q += kept[p] * w
        stay[root] = q
    return stay, kept


def _within(
    points: Points, groups: list, stay: dict[int, int], kept: list[int], flags: dict, scale: int, rounds: int, n: int
) -> list[tuple[Fraction, ...]]:
    """P(each threshold reached within 1…`rounds` rounds): `chain_acyclic.reach`'s packing of a
    point's whole history in one big integer (slot r: its weight after r rounds, times scale^r),
    a half-round point's slot r the weight of the round r + 1 so far (never more than scale^(r+1))."""
    places, masks, _ = layout(scale, rounds)
    shifts = list(zip(places[:-1], masks[:-1], places[1:], strict=True))
    value = [0] * len(points.node)
    get = value.__getitem__
    sources, factors = points.sources, points.factors
    for half, root in groups:
        for p in half:
            value[p] = sum(map(mul, map(get, sources[p]), factors[p]))
        if root is None:
            continue
        inflow = sum(map(mul, map(get, sources[root]), factors[root]))
        value[root] = total = packed_history(inflow, root == 0, stay[root], shifts)
        if total:
            for p in half:
                if kept[p]:
                    value[p] += kept[p] * total
    out = []
    for k in range(n):
        reached = sum(value[p] for p, f in flags.items() if f[k])
        out.append(tuple(Fraction((reached >> places[r]) & masks[r], scale**r) for r in range(1, rounds + 1)))
    return out


def _means(
    points: Points, groups: list, stay: dict[int, int], kept: list[int], flags: dict, scale: int, n: int
) -> list[Fraction | None]:
    """The expected rounds until each threshold: `chain_acyclic.means` (expected visits of every
    round-start state, in integers over one denominator D), pulled through the half-round points."""
    roots = [root for _, root in groups if root is not None]
    leave = {root: scale - stay[root] for root in roots}
    denominator = _denominator(points, groups, leave)
    per = [0] * len(points.node)  # N(s)/f_s at a round-start state, Σ of them along moves at a half-round point
    get = per.__getitem__
    sources, factors = points.sources, points.factors
    spent: dict[tuple[bool, ...], int] = {}
    for half, root in groups:
        for p in half:
            per[p] = sum(map(mul, map(get, sources[p]), factors[p]))
        if root is None:
            continue
        f = leave[root]
        if not f:
            continue  # never left: carries nothing on
        entries = sum(map(mul, map(get, sources[root]), factors[root]))
        if root == 0:
            entries += denominator
        q, rest = divmod(entries, f)
        if rest:
            raise ArithmeticError("the common denominator does not cover a state's rounds")
        per[root] = q
        key = flags[root]
        spent[key] = spent.get(key, 0) + q * scale
        if q:
            for p in half:
                if kept[p]:
                    per[p] += kept[p] * q
    ordered = [(leave[r], flags[r]) for r in roots]
    never = never_reached([f for f, _ in ordered], [fl for _, fl in ordered], n)
    return exact_totals(spent, denominator, never)


WIDTH = 16
"""Bits of one exponent in a row packed as one integer (its top bit kept clear: a guard)."""


def _denominator(points: Points, groups: list, leave: dict[int, int]) -> int:
    """`chain_acyclic._denominator` through the half-round points: each prime's most times along
    one path of round-start states from the start, as one row of exponents per point, the
    elementwise max of the rows leading to it. A row is one integer, an exponent every `WIDTH`
    bits, and the max of two is a handful of integer operations over the whole row (`Most`)."""
    split = {f: prime_factors(f) for f in set(leave.values()) if f > 1}
    primes = sorted({k for parts in split.values() for k in parts})
    if not primes:
        return 1
    at = {k: i for i, k in enumerate(primes)}
    own: dict[int, int] = {}
    for f, parts in split.items():
        own[f] = sum(times << (WIDTH * at[k]) for k, times in parts.items())
    most = Most(len(primes))
    rows = [0] * len(points.node)
    get = rows.__getitem__
    sources = points.sources
    top = 0
    for half, root in groups:
        for p in half:
            rows[p] = most(set(map(get, sources[p])))
        if root is None:
            continue
        f = leave[root]
        if not f:
            continue
        mine = most(set(map(get, sources[root])))
        if f > 1:
            mine += own[f]
            if mine & most.guards:
                raise ArithmeticError("an exponent outgrew its place in the packed row")
        rows[root] = mine
        top = most({top, mine})
        for p in half:
            if points.kept[p] is not None:
                rows[p] = most({rows[p], mine})
    mask = (1 << WIDTH) - 1
    return math.prod(k ** ((top >> (WIDTH * i)) & mask) for i, k in enumerate(primes))


class Most:
    """The elementwise max of rows packed `WIDTH` bits an exponent: for two rows a and b, a
    field's guard bit survives (a | guards) − b exactly where a's exponent ≥ b's."""

    def __init__(self, fields: int) -> None:
        self.guards = sum(1 << (WIDTH * i + WIDTH - 1) for i in range(fields))

    def __call__(self, rows: set[int]) -> int:
        if not rows:
            return 0
        it = iter(rows)
        best = next(it)
        guards = self.guards
        shift = WIDTH - 1
        for b in it:
            keep = ((best | guards) - b) & guards  # a guard bit where best ≥ b
            keep -= keep >> shift  # that field's low bits all set
            best = b ^ ((best ^ b) & keep)
        return best
