"""Who acts when in a round whose initiative is rolled: the exact chance of every order of the
fighters still up, cached per set of fighters.

Each fighter's roll puts it at a point of the count (its total, in the system's direction, then
its tie key); fighters at one point act together, so an order is a sequence of groups, each of
fighters sharing a tie key, at strictly later points. Its weight (in face counts: the product of
the dice's faces is the whole) is a sum over those points, one running sum per group: never an
enumeration of every roll."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate, combinations

from calc.forecast.fighters import Fighter

Group = tuple[int, ...]


@dataclass
class Node:
    """A prefix of orders: the weight of the orders that end here, and the steps that may come next
    (groups acting together; a script's slots in `calc.forecast.scripted_round`)."""

    weight: int = 0
    children: dict[Hashable, Node] = field(default_factory=dict)

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())


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

    def count(self, up: int, limit: int) -> int:
        """How many prefixes `tree(up)` has, counted without building it and no further than
        `limit` + 1 (the bound is checked before the work: 8 fighters have over 100,000)."""
        if up in self._trees:
            return min(self._trees[up].size(), limit + 1)
        members = tuple(i for i in range(len(self.sides)) if up >> i & 1)
        seen = 0
        todo = [(members, [1] * len(self.points[0]) if self.points else [], True)]
        while todo and seen <= limit:
            left, ways, first = todo.pop()
            seen += 1
            todo.extend((rest, nxt, False) for _, rest, nxt in self._next(left, ways, first))
        return min(seen, limit + 1)

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
