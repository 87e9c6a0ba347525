"""The generic fight chain (`calc.forecast`) on toy fighters: symmetry of a simultaneous round, the
weights of the orders, targeting, the state bound, and the chain against round-by-round brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from calc.errors import InputError
from calc.forecast import chain
from calc.forecast.fighters import FOES, PARTY, Fighter, focus_bound, target_order
from calc.forecast.initiative import Sequences
from calc.forecast.order import Orders, fubini, tree_dag, trie
from calc.forecast.round import Fight
from calc.numbers.dist import Dist


def toy(name: str, side: str, hp: int, tie: tuple[int, ...], die: int = 4, hit: int = 1, of: int = 2, init: int = 6,
        attacks: int = 1) -> Fighter:  # fmt: skip
    """Hits `hit` times in `of` for 1…die damage; dies at 0."""
    scale = of * die

    def strike(own: int, target: Fighter, health: int) -> list[tuple[int, int]]:
        out = {health: (of - hit) * die}
        for d in range(1, die + 1):
            h = max(health - d, 0)
            out[h] = out.get(h, 0) + hit
        return [(w, h) for h, w in out.items()]

    return Fighter(
        name=name, side=side, start=hp, hp=hp, initiative=Dist.die(init), tie=tie,
        danger=Fraction(hit * (die + 1), 2 * of),
        states=hp, scale=scale, most=attacks, attacks=lambda own, first: attacks, strike=strike,
        out=lambda h: h <= 0, marks=(("dies", lambda h: h <= 0),),
    )  # fmt: skip


def policies(p: str = "lowest-hp", f: str = "lowest-hp") -> dict[str, str]:
    return {PARTY: p, FOES: f}


def test_two_identical_fighters_in_a_simultaneous_round_win_with_equal_chance():
    fight = Fight([toy("A", PARTY, 6, (0,)), toy("B", FOES, 6, (0,))], policies(), high_first=True)
    got = chain.forecast(fight, 10)
    assert got.party.within == got.foes.within
    assert got.over.within[-1] - got.party.within[-1] - got.foes.within[-1] > 0  # both can fall at once


def test_a_side_that_acts_first_on_ties_is_favoured():
    fight = Fight([toy("A", PARTY, 6, (0,)), toy("B", FOES, 6, (1,))], policies(), high_first=True)
    got = chain.forecast(fight, 10)
    assert got.party.within[-1] > got.foes.within[-1]


@pytest.mark.parametrize("ties", [[(0,), (1,), (2,)], [(0,), (0,), (1,)], [(0,), (0,), (0,)]])
def test_the_orders_weigh_every_roll_once(ties):
    fighters = [toy("A", PARTY, 3, ties[0], init=4), toy("B", PARTY, 3, ties[1], init=6), toy("C", FOES, 3, ties[2])]
    orders = Orders(fighters, high_first=False)
    leaves: dict[tuple, int] = {}

    def walk(node, prefix):
        if node.weight:
            leaves[prefix] = node.weight
        for group, child in node.children.items():
            walk(child, (*prefix, group))

    walk(orders.tree(0b111), ())
    brute: dict[tuple, int] = {}
    for rolls in product(range(1, 5), range(1, 7), range(1, 7)):
        keys = sorted({(r, t) for r, t in zip(rolls, ties, strict=True)})
        order = tuple(tuple(i for i in range(3) if (rolls[i], ties[i]) == k) for k in keys)
        brute[order] = brute.get(order, 0) + 1
    assert leaves == brute
    # a fighter out of the fight counts all its faces
    walk_one = orders.tree(0b001)
    assert walk_one.children[(0,)].weight == 4 * 6 * 6


def test_targeting_orders():
    fs = [toy("A", PARTY, 5, (0,)), toy("B", FOES, 7, (1,)), toy("C", FOES, 3, (2,), hit=2), toy("D", FOES, 3, (3,))]
    assert target_order([1, 2, 3], fs, "lowest-hp") == (2, 3, 1)
    assert target_order([1, 2, 3], fs, "dangerous") == (2, 1, 3)
    assert target_order([1, 2, 3], fs, "listed") == (1, 2, 3)


@pytest.mark.parametrize(
    ("states", "outs"), [([3, 2, 4, 1], [1, 1, 1, 1]), ([3, 2, 4, 2], [2, 3, 1, 2]), ([5, 1, 2, 3], [1, 2, 2, 1])]
)
def test_the_focus_fire_bound_counts_every_healths_a_side_can_be_left_in(states, outs):
    """Brute force over every health of every fighter (any in-fight state, or any out one): a side
    attacked down its list is some out, then at most one hurt, then the rest at their start."""
    targets = {PARTY: (2, 3), FOES: (1, 0)}  # the party attacks fighters 2 and 3, the foes 1 then 0

    def ways(aims: tuple[int, ...]) -> int:
        kinds = [[("in", k) for k in range(states[i])] + [("out", k) for k in range(outs[i])] for i in aims]
        count = 0
        for hs in product(*kinds):
            left = [h for h in hs if h[0] == "in"]
            out_first = all(h[0] == "out" for h in hs[: len(hs) - len(left)])
            count += out_first and all(h == ("in", 0) for h in left[1:])
        return count

    assert focus_bound(targets, states, outs) == ways(targets[PARTY]) * ways(targets[FOES])


def test_orders_written_out_share_their_prefixes_and_sum_the_same_order():
    root = trie([(2, ["a", "b"]), (3, ["a", "c"]), (1, ["a", "b"]), (4, [])])
    assert root.weight == 4 and list(root.children) == ["a"]
    a = root.children["a"]
    assert (a.weight, a.children["b"].weight, a.children["c"].weight) == (0, 3, 3)
    assert root.size() == 4


@pytest.mark.parametrize("n", range(6))
def test_the_orders_with_ties_together_are_the_ordered_set_partitions(n):
    """Brute force: label each fighter with its group's rank; a labelling is an order when its
    ranks are exactly 0 … k-1 for some k."""
    count = sum(set(ranks) == set(range(max(ranks, default=-1) + 1)) for ranks in product(range(n), repeat=n))
    assert fubini(n) == count


def test_the_state_bound_is_checked_before_any_state_is_computed():
    fight = Fight([toy("A", PARTY, 50, (0,)), toy("B", FOES, 50, (1,))], policies(), high_first=True)
    assert fight.state_bound() == 2 * 51 * 51
    with pytest.raises(InputError) as err:
        chain.forecast(fight, 10, bound=1000)
    assert "5,202 states" in err.value.reason and "fewer" in err.value.reason


def brute(fighters: list[Fighter], high_first: bool, rounds: int) -> list[Fraction]:
    """P(party has won after k rounds) by enumerating every roll and every attack, Fractions only."""
    sides = {s: [i for i, f in enumerate(fighters) if f.side == s] for s in (PARTY, FOES)}
    state = {tuple(f.start for f in fighters): Fraction(1)}
    out = []
    for _ in range(rounds):
        nxt: dict[tuple, Fraction] = {}
        for h, p in state.items():
            if any(all(h[i] <= 0 for i in sides[s]) for s in sides):
                nxt[h] = nxt.get(h, 0) + p
                continue
            faces = [range(1, f.initiative.max + 1) for f in fighters]
            n = 1
            for f in fighters:
                n *= f.initiative.max
            for rolls in product(*faces):
                keys = sorted({(-r if high_first else r, f.tie) for r, f in zip(rolls, fighters, strict=True)})
                dist = {h: Fraction(p, n)}
                for k in keys:
                    group = [i for i, f in enumerate(fighters) if ((-rolls[i] if high_first else rolls[i]), f.tie) == k]
                    new: dict[tuple, Fraction] = {}
                    for cur, q in dist.items():
                        sub = {cur: q}
                        for i in group:
                            if cur[i] <= 0:
                                continue
                            enemy = sides[FOES if fighters[i].side == PARTY else PARTY]
                            s2: dict[tuple, Fraction] = {}
                            for c, r in sub.items():
                                t = min((j for j in enemy if c[j] > 0), key=lambda j: (fighters[j].hp, j), default=None)
                                if t is None:
                                    s2[c] = s2.get(c, 0) + r
                                    continue
                                moves = fighters[i].strike(c[i], fighters[t], c[t])
                                total = sum(w for w, _ in moves)
                                for w, health in moves:
                                    c2 = (*c[:t], health, *c[t + 1 :])
                                    s2[c2] = s2.get(c2, 0) + r * Fraction(w, total)
                            sub = s2
                        for c, r in sub.items():
                            new[c] = new.get(c, 0) + r
                    dist = new
                for c, q in dist.items():
                    nxt[c] = nxt.get(c, 0) + q
        state = nxt
        out.append(sum((p for h, p in state.items() if all(h[i] <= 0 for i in sides[FOES])), Fraction(0)))
    return out


@pytest.mark.slow  # brute force over every roll sequence: seconds each
@pytest.mark.parametrize("high_first", [True, False])
def test_two_against_one_equals_brute_force(high_first):
    fighters = [toy("A", PARTY, 3, (0, 0)), toy("B", PARTY, 2, (0, 1), die=2), toy("C", FOES, 4, (1,), hit=3, of=4)]
    got = chain.forecast(Fight(fighters, policies(), high_first), 3)
    assert list(got.party.within) == brute(fighters, high_first, 3)


@pytest.mark.slow
@pytest.mark.parametrize(("hp", "high_first"), [((2, 1, 2, 1, 2, 2), True), ((1, 2, 2, 2, 1, 1), False)])
def test_three_against_three_equals_brute_force(hp, high_first):
    """Six fighters with two-sided initiative: ties within a side broken by the listed order."""
    fighters = [toy(f"P{i}", PARTY, hp[i], (0, i), init=2, hit=1 + i % 2, of=3, die=2) for i in range(3)]
    fighters += [toy(f"F{i}", FOES, hp[3 + i], (1, i), init=2, die=2 + i % 2) for i in range(3)]
    got = chain.forecast(Fight(fighters, policies(), high_first), 2)
    assert list(got.party.within) == brute(fighters, high_first, 2)


@pytest.mark.slow
def test_four_against_four_equals_brute_force():
    """Eight fighters, each side acting together on a tied roll of its two-sided initiative die."""
    fighters = [toy(f"P{i}", PARTY, 1, (0,), init=2, hit=1 + i % 2, of=3, die=2) for i in range(4)]
    fighters += [toy(f"F{i}", FOES, 1, (1,), init=2, hit=1, of=2 + i % 2, die=2) for i in range(4)]
    got = chain.forecast(Fight(fighters, policies(), high_first=False), 2)
    assert list(got.party.within) == brute(fighters, False, 2)


def test_four_against_four_are_symmetric_when_the_round_is_simultaneous():
    """Both sides alike and acting together on every tied total: neither side is favoured."""
    fighters = [toy(f"{s}{i}", s, 1, (0,), init=2, hit=1 + i % 2, of=3) for s in (PARTY, FOES) for i in range(4)]
    got = chain.forecast(Fight(fighters, policies(), high_first=True), 4)
    assert got.party.within == got.foes.within
    assert got.party.within[-1] > 0


def test_a_procedure_given_as_its_orders_equals_the_rolled_one():
    """One roll per side (d6 each, highest first, the party on a tie): 21 rolls in 36 the party acts
    first. With one fighter a side, the same as each fighter rolling its own d6."""
    fighters = [toy("A", PARTY, 5, (0,)), toy("B", FOES, 6, (1,), hit=2, of=3)]
    rolled = chain.forecast(Fight(fighters, policies(), high_first=True), 6)
    by_side = Sequences(36, lambda up: [(21, [(0,), (1,)]), (15, [(1,), (0,)])])
    given = chain.forecast(Fight(fighters, policies(), high_first=True, initiative=by_side), 6)
    assert given == rolled


def test_a_procedures_orders_must_weigh_its_faces():
    fighters = [toy("A", PARTY, 2, (0,)), toy("B", FOES, 2, (1,))]
    wrong = Sequences(36, lambda up: [(20, [(0,), (1,)]), (15, [(1,), (0,)])])
    with pytest.raises(ValueError, match="35"):
        chain.forecast(Fight(fighters, policies(), high_first=True, initiative=wrong), 2)


def test_a_fixed_order_takes_out_the_fighters_already_down():
    """A fixed order naming every fighter: one out of the fight at the start is left out of it,
    and the round weighs as much as from any other state."""
    fighters = [toy("A", PARTY, 3, (0,)), toy("B", PARTY, 0, (0,)), toy("C", FOES, 3, (1,))]
    fixed = Sequences(1, lambda up: [(1, [(2,), (0,), (1,)])])
    fight = Fight(fighters, policies(), high_first=True, initiative=fixed)
    assert fixed.tree(0b101).children == {(2,): fixed.tree(0b101).children[(2,)]}
    assert list(fixed.tree(0b101).children[(2,)].children) == [(0,)]
    assert sum(w for w, _ in fight.step(fight.start)) == fight.total


def test_the_orders_are_counted_without_building_them_and_no_further_than_needed():
    """`count` reads the round's `Dag` built straight from the fighters: as many steps as the tree
    of orders, built and merged, has; past the limit it stops and keeps nothing."""
    fighters = [toy(f"P{i}", PARTY, 3, (0, i)) for i in range(3)] + [toy("F", FOES, 3, (1,), init=4)]
    orders = Orders(fighters, high_first=False)
    size = tree_dag(orders.tree(0b1111)).size()
    assert size < orders.tree(0b1111).size() - 1  # equal suffixes merged
    fresh = Orders(fighters, high_first=False)
    assert fresh.count(0b1111, size - 1) == size
    assert fresh._graphs == {} and fresh._trees == {}  # noqa: SLF001  (stopped, nothing kept, no tree)
    assert fresh.count(0b1111, 10**6) == size
    assert fresh._trees == {}  # noqa: SLF001  (counted, never built)


def test_eight_fighters_are_refused_before_their_orders_are_built():
    """4 against 4 rolling every round: over 100,000 orders; refused after counting a few."""
    fighters = [toy(f"{s}{i}", s, 6, (0 if s == PARTY else 1, i), init=10) for s in (PARTY, FOES) for i in range(4)]
    fight = Fight(fighters, policies(), high_first=True)
    with pytest.raises(InputError) as err:
        chain.forecast(fight, 10)
    assert "orders of who acts when" in err.value.reason and "fewer fighters" in err.value.reason
    assert fight.orders._trees == {}  # noqa: SLF001
