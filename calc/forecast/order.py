"""Who acts when in a round whose initiative is rolled: the exact chance of every order of the
fighters still up, cached per set of fighters.

Each fighter's roll puts it at a point of the count (its total, in the system's direction, then
its tie key); fighters at one point act together, so an order is a sequence of groups, each of
fighters sharing a tie key, at strictly later points. Its weight (in face counts: the product of
the dice's faces is the whole) is a sum over those points, one running sum per group: never an
enumeration of every roll."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate, combinations

from calc.forecast.fighters import Fighter

Group = tuple[int, ...]


@dataclass(eq=False)
class Node:
    """A prefix of orders: the weight of the orders that end here, and the steps that may come next
    (groups acting together; a script's slots in `calc.forecast.scripted_round`)."""

    weight: int = 0
    children: dict[Hashable, Node] = field(default_factory=dict)

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())


@dataclass(frozen=True)
class Dag:
    """A round's orders with their equal parts walked once: every subtree that is another's times a
    whole number is one node here (with 6 fighters on one d20, a round's 9,366 prefixes are 164
    nodes). Node 0 is the root; a node comes before every node it leads to."""

    scale: int
    """The orders are `scale` times the root read here."""
    weights: tuple[int, ...]
    """Per node, the weight of the orders that end there."""
    edges: tuple[tuple[tuple[Hashable, int, int], ...], ...]
    """Per node, its next steps: (step, the node it leads to, times how much)."""

    def size(self) -> int:
        """Its steps: what walking it costs per health state."""
        return sum(map(len, self.edges))


Expand = Callable[[Hashable], tuple[int, Iterable[tuple[Hashable, Hashable, int]]]]
"""A node's key → (the weight of the orders ending there, its next steps: (step, the child's key,
times how much))."""


class TooLarge(Exception):
    """`dag` met more steps than its `limit`."""


def dag(root: Hashable, expand: Expand, limit: int | None = None) -> Dag:
    """The orders below `root`, each node expanded once (by its key), with every subtree that is
    another's whole-number multiple merged into one node (hash-consing, the gcd of each subtree's
    weights taken out); `TooLarge` once more than `limit` steps are found."""
    ids: dict[tuple[int, frozenset], int] = {}
    found: list[tuple[int, tuple[tuple[Hashable, int, int], ...]]] = []  # canonical nodes, children first
    done: dict[Hashable, tuple[int, int]] = {}
    steps = 0

    def canon(key: Hashable) -> tuple[int, int]:
        nonlocal steps
        got = done.get(key)
        if got is not None:
            return got
        weight, nexts = expand(key)
        kids = []
        for step, child, times in nexts:
            at, g = canon(child)
            kids.append((step, at, g * times))
        g = math.gcd(weight, *(scale for _, _, scale in kids)) or 1
        edges = tuple((step, at, scale // g) for step, at, scale in kids)
        node = (weight // g, frozenset(edges))
        at = ids.get(node)
        if at is None:
            at = ids[node] = len(found)
            found.append((weight // g, edges))
            steps += len(edges)
            if limit is not None and steps > limit:
                raise TooLarge
        done[key] = (at, g)
        return at, g

    top, scale = canon(root)
    last = len(found) - 1  # children are found before their parents: read backwards, parents first
    assert top == last, "the root is no other node's multiple"
    return Dag(
        scale,
        tuple(w for w, _ in reversed(found)),
        tuple(tuple((step, last - at, k) for step, at, k in edges) for _, edges in reversed(found)),
    )


def tree_dag(root: Node) -> Dag:
    """A tree of orders (`trie`) as its `Dag`."""
    return dag(root, _tree_expand)


def _tree_expand(node: Hashable) -> tuple[int, list[tuple[Hashable, Hashable, int]]]:
    assert isinstance(node, Node)
    return node.weight, [(step, child, 1) for step, child in node.children.items()]


def trie(orders: Iterable[tuple[int, Iterable[Hashable]]]) -> Node:
    """Orders written out, (weight, steps) each, as one tree of prefixes: a prefix several orders
    share (a multi-attacker's routine before initiative) is walked once."""
    root = Node()
    for weight, steps in orders:
        node = root
        for step in steps:
            node = node.children.setdefault(step, Node())
        node.weight += weight
    return root


@cache
def fubini(n: int) -> int:
    """The orders n fighters can take when equal rolls act together (the ordered set partitions:
    1, 1, 3, 13, 75, 541 …)."""
    return 1 if n == 0 else sum(math.comb(n, k) * fubini(n - k) for k in range(1, n + 1))


class Orders:
    """Every fighter rolls its own initiative each round (`calc.forecast.initiative`): the orders of
    any set of fighters, as a tree of prefixes (shared prefixes are walked once)."""

    def __init__(self, fighters: Sequence[Fighter], high_first: bool) -> None:
        keys = sorted({(-x if high_first else x, f.tie) for f in fighters for x in f.initiative.outcomes()})
        at = {k: n for n, k in enumerate(keys)}
        self.ties = [f.tie for f in fighters]
        self.sides = [f.initiative.total for f in fighters]
        self.faces = 1  # the whole: every fighter's faces
        for n in self.sides:
            self.faces *= n
        self.points: list[list[int]] = []  # fighter → face weight at each point of the count
        for f in fighters:
            row = [0] * len(keys)
            xs, ws = f.initiative.support()
            for x, w in zip(xs, ws, strict=True):
                row[at[(-x if high_first else x, f.tie)]] += w
            self.points.append(row)
        self._trees: dict[int, Node] = {}
        self._graphs: dict[int, Dag] = {}

    def tree(self, up: int) -> Node:
        """Every order of the fighters in the bit mask `up`, weighted over the product of all the
        fighters' faces (a fighter out of the fight counts all its faces: its roll no longer matters)."""
        if up not in self._trees:
            members = [i for i in range(len(self.sides)) if up >> i & 1]
            rest = 1
            for i in range(len(self.sides)):
                if not up >> i & 1:
                    rest *= self.sides[i]
            root = Node()
            self._grow(root, tuple(members), [1] * len(self.points[0]) if self.points else [], rest, first=True)
            self._trees[up] = root
        return self._trees[up]

    def graph(self, up: int) -> Dag:
        """`tree(up)` as its `Dag`, built without the tree: a prefix's orders to come depend only on
        the fighters left and its `ways` (times a whole number), so each such pair is one node."""
        got = self._graphs.get(up)
        if got is None:
            got = self._graphs[up] = self._graph(up, None)
        return got

    def count(self, up: int, limit: int) -> int:
        """How many steps `graph(up)` has, no further than `limit` + 1 (counted before the work is
        bounded: 8 fighters on one d20 have over a million prefixes of orders)."""
        if up in self._graphs:
            return min(self._graphs[up].size(), limit + 1)
        try:
            self._graphs[up] = self._graph(up, limit)
        except TooLarge:
            return limit + 1
        return self._graphs[up].size()

    def _graph(self, up: int, limit: int | None) -> Dag:
        members = tuple(i for i in range(len(self.sides)) if up >> i & 1)
        rest = 1
        for i in range(len(self.sides)):
            if not up >> i & 1:
                rest *= self.sides[i]
        start = (members, (1,) * len(self.points[0]) if self.points else (), True)
        got = dag(start, self._expand, limit)
        return Dag(got.scale * rest, got.weights, got.edges)

    def _expand(self, key: Hashable) -> tuple[int, list[tuple[Hashable, Hashable, int]]]:
        """A `dag` node: (fighters left, the prefix's `ways` over their gcd, the round's start)."""
        left, ways, first = key  # type: ignore[misc]  # a key made by `_graph` or here
        if not left:
            return (1 if first else sum(ways)), []
        out: list[tuple[Hashable, Hashable, int]] = []
        for group, rest, nxt in self._next(left, list(ways), first):
            g = math.gcd(*nxt)
            out.append((group, (rest, tuple(x // g for x in nxt), False), g))
        return 0, out

    def _grow(self, node: Node, left: tuple[int, ...], ways: list[int], factor: int, first: bool) -> None:
        """`ways[p]`: the weight of the prefix with its last group at point p (any point, at the start)."""
        if not left:
            node.weight = factor * (1 if first else sum(ways))
            return
        for group, rest, nxt in self._next(left, ways, first):
            self._grow(node.children.setdefault(group, Node()), rest, nxt, factor, first=False)

    def _next(
        self, left: tuple[int, ...], ways: list[int], first: bool
    ) -> list[tuple[Group, tuple[int, ...], list[int]]]:
        """The groups that can act next after a prefix whose last group is at point p with weight
        `ways[p]`: each with the fighters left after it and its own `ways`."""
        before = [0, *accumulate(ways)][:-1] if not first else ways  # Σ over strictly earlier points
        out = []
        for group in self._groups(left):
            nxt = list(before)
            for i in group:
                nxt = [a * b for a, b in zip(nxt, self.points[i], strict=True)]
            if any(nxt):
                out.append((group, tuple(i for i in left if i not in group), nxt))
        return out

    def _groups(self, left: tuple[int, ...]) -> list[Group]:
        """The groups that may act next: any fighters of `left` sharing a tie key."""
        out: list[Group] = []
        by_tie: dict[tuple[int, ...], list[int]] = {}
        for i in left:
            by_tie.setdefault(self.ties[i], []).append(i)
        for same in by_tie.values():
            for k in range(1, len(same) + 1):
                out.extend(combinations(same, k))
        return out
