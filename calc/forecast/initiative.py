"""How a round's order is decided: the initiative procedures a fight's round can follow.

A procedure gives, for the fighters up at a round's start (a bit mask), the tree of the orders the
round can take (`calc.forecast.order.Node`: sequences of groups, a group acting together, each
order with an integer weight), the weights summing to `faces` whatever the mask (so every state's
round has one total). The orders hold only the fighters of the mask; one who falls during the
round stays in them and does not act when its group comes.

* `calc.forecast.order.Orders`: every fighter rolls its own initiative each round (the default).
* `Sequences`: the orders written out, for procedures whose orders are few (one roll per side, a
  fixed order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from calc.forecast.order import Dag, Group, Node, tree_dag, trie


class Initiative(Protocol):
    """What `calc.forecast.round.Fight` asks of an initiative procedure."""

    faces: int
    """The weight of one round's orders, the same from every state."""

    def tree(self, up: int) -> Node:
        """The orders of a round starting with the fighters in the bit mask `up` in the fight."""
        ...

    def graph(self, up: int) -> Dag:
        """`tree(up)` as the `Dag` a round walks."""
        ...

    def count(self, up: int, limit: int) -> int:
        """The steps of `graph(up)` (what a round's work grows with), at most `limit` + 1: counted
        before the work is bounded, so cheaply."""
        ...


Order = tuple[int, Sequence[Group]]
"""(weight, the groups in the order they act)."""


class Sequences:
    """A procedure given as its orders: `orders(up)` lists them with integer weights summing to
    `faces` (fighters out of the fight at the round's start, outside `up`, are taken out of the
    groups here). For example one roll
    per side each round, the side that wins acting first: `[(wins, [party, foes]), (loses, [foes,
    party])]`, or a fixed order: `[(1, [(i,) for i in order])]` with `faces` 1."""

    def __init__(self, faces: int, orders: Callable[[int], Sequence[Order]]) -> None:
        self.faces = faces
        self._orders = orders
        self._trees: dict[int, Node] = {}
        self._graphs: dict[int, Dag] = {}

    def count(self, up: int, limit: int) -> int:
        return min(self.graph(up).size(), limit + 1)

    def graph(self, up: int) -> Dag:
        got = self._graphs.get(up)
        if got is None:
            got = self._graphs[up] = tree_dag(self.tree(up))
        return got

    def tree(self, up: int) -> Node:
        got = self._trees.get(up)
        if got is None:
            orders = self._orders(up)
            total = sum(weight for weight, _ in orders)
            if total != self.faces:
                raise ValueError(f"the orders weigh {total}, not the procedure's {self.faces}")
            got = self._trees[up] = trie((weight, _members(groups, up)) for weight, groups in orders)
        return got


def _members(groups: Sequence[Group], up: int) -> list[Group]:
    """The groups with only the fighters of the bit mask `up`, empty ones left out."""
    kept = (tuple(i for i in group if up >> i & 1) for group in groups)
    return [group for group in kept if group]
