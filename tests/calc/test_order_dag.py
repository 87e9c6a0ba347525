"""A round's orders walked as a `Dag` (equal subtrees merged) weigh every order as the tree does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from hypothesis import given, settings
from hypothesis import strategies as st

from calc.forecast.fighters import FOES, PARTY
from calc.forecast.order import Dag, Orders, tree_dag, trie
from tests.calc.test_fight_core import toy


def tree_orders(orders: list[tuple[int, tuple[Hashable, ...]]]) -> Counter:
    out: Counter = Counter()
    for weight, steps in orders:
        out[steps] += weight
    return out


def dag_orders(graph: Dag) -> Counter:
    """Every path of the graph, written out, with its weight: the scales along it times its end's."""
    out: Counter = Counter()

    def down(at: int, steps: tuple, times: int) -> None:
        if graph.weights[at]:
            out[steps] += times * graph.weights[at]
        for step, child, k in graph.edges[at]:
            down(child, (*steps, step), times * k)

    down(0, (), graph.scale)
    return out


orders_lists = st.lists(
    st.tuples(st.integers(1, 6), st.lists(st.sampled_from("abc"), min_size=1, max_size=4).map(tuple)),
    min_size=1,
    max_size=12,
)


@given(orders_lists)
@settings(max_examples=200, deadline=None)
def test_any_tree_of_orders_keeps_every_order_and_weight(orders):
    assert dag_orders(tree_dag(trie(orders))) == tree_orders(orders)


def test_equal_suffixes_are_walked_once():
    """Two orders sharing their last step, one twice the other's weight: that step is one node."""
    graph = tree_dag(trie([(1, ("a", "c")), (2, ("b", "c"))]))
    assert graph.size() == 3  # a, b, then one c reached from both
    assert dag_orders(graph) == Counter({("a", "c"): 1, ("b", "c"): 2})


def test_the_graph_built_from_the_dice_is_the_trees():
    """`Orders.graph` (never building the tree) has the tree's orders and weights, for fighters on
    one die (ties together) and on different dice (ties broken by side)."""
    same = [toy(f"P{i}", PARTY, 3, ()) for i in range(2)] + [toy(f"F{i}", FOES, 3, ()) for i in range(2)]
    mixed = [toy("P", PARTY, 3, (0,), init=6), toy("Q", PARTY, 3, (0,), init=4), toy("F", FOES, 3, (1,), init=8)]
    for fighters in (same, mixed):
        orders = Orders(fighters, high_first=True)
        for up in (0b111, 0b101, (1 << len(fighters)) - 1):
            built = Orders(fighters, high_first=True).graph(up)
            assert dag_orders(built) == dag_orders(tree_dag(orders.tree(up)))
            assert sum(dag_orders(built).values()) == orders.faces
            assert built.size() == tree_dag(orders.tree(up)).size()


def test_six_fighters_on_one_die_walk_few_steps():
    """Six fighters on one d20, equal rolls together: 9,365 steps of the tree, far fewer merged."""
    fighters = [toy(f"P{i}", PARTY, 3, (), init=20) for i in range(6)]
    orders = Orders(fighters, high_first=True)
    assert orders.tree(0b111111).size() == 9366
    assert orders.graph(0b111111).size() < 9366 // 5
