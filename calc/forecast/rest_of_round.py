"""A forecast that starts mid-round: its first round is the rest of the current round, in the order
the table knows (the tracker's), then fresh rounds by the system's own procedure.

The chain is left as it is: `MidRound` wraps a fight (what `calc.forecast.chain` reads of one) and
starts it from a pseudo state `(None, healths)` whose one transition is the rest of the round;
every other state steps as the fight steps. The pseudo state's weights and the fight's are brought
to one total (each times the other's), so the chain still gets integer rows over one total.

The forecast's `order` input lists every fighter (by name) in the order they act this round and
`acted` how many of them have acted: those do not act again this round; the others act in that
order, one at a time, each only if still in the fight when its turn comes (a scripted round may
give its own rest of the round: segments' multi-attackers keep their routines' places). Where
initiative is rolled once for the fight (`calc.forecast.fixed_order`) the order is the fight's
order, every round, and a fighter's round state (the blocks and dodges it has left) may start the
rest of this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from calc.errors import InputError
from calc.forecast import chain, fixed_order
from calc.forecast.around import Around
from calc.forecast.fighters import FOES, PARTY, Health
from calc.forecast.fixed_fight import FixedFight, Rules
from calc.forecast.order import tree_dag, trie
from calc.inputs.data import SystemData

Healths = tuple[Health, ...]
Rest = Callable[[Healths], list[tuple[int, Healths]]]
"""The rest of the round from the start's healths: the healths at its end, integer weights (their
sum is the pseudo state's total: the fighters who have acted need no weight of their own)."""


def known_order(inputs: dict[str, Any]) -> tuple[list[int], int] | None:
    """The round's order (indices into party then foes) and how many of it have acted; None for a
    fresh round (no order given). Every fighter must be in it once, by its name."""
    given = inputs["order"]
    acted = inputs["acted"]
    if not given:
        if acted:
            raise InputError("acted", f"counts fighters of this round's order, and no order is given (got {acted})")
        return None
    names = [item["name"] for item in (*inputs[PARTY], *inputs[FOES])]
    at = {name.casefold(): i for i, name in enumerate(names)}
    order = []
    for n, item in enumerate(given, start=1):
        i = at.get(item["name"].casefold())
        if i is None:
            raise InputError(f"order[{n}].name", f'"{item["name"]}" names no fighter of Party or Foes')
        if i in order:
            raise InputError(f"order[{n}].name", f"{names[i]} is already turn {order.index(i) + 1} of the order")
        order.append(i)
    missing = [names[i] for i in range(len(names)) if i not in order]
    if missing:
        raise InputError("order", f"must list every fighter once; it leaves out {', '.join(missing)}")
    if acted > len(order):
        raise InputError("acted", f"must be at most the {len(order)} fighters of the order (got {acted})")
    return order, acted


class MidRound(Around):
    """`fight` started from `healths` mid-round: the first round is `rest`, the next ones the
    fight's own (not its first round: the rest of the round was it)."""

    def __init__(self, fight: Any, healths: Healths, rest: Rest) -> None:
        super().__init__(fight)
        self.start = (None, healths)
        self._first = [] if fight.over(healths) else rest(healths)
        self.rest_total = sum(w for w, _ in self._first) or 1
        self.total = fight.total * self.rest_total

    def state_bound(self) -> int:
        return self.inner.state_bound() + 1  # type: ignore[no-any-return]  # and the pseudo start

    def step(self, state: tuple[Any, Healths]) -> list[tuple[int, Any]]:
        if state[0] is None:
            if not self._first:
                return [(self.total, state)]
            merged: dict[Healths, int] = {}
            for w, h in self._first:
                merged[h] = merged.get(h, 0) + w
            return [(w * self.inner.total, (False, h)) for h, w in merged.items()]
        return [(w * self.rest_total, s) for w, s in self.inner.step(state)]


# --- the rest of a round, per kind of round ---------------------------------------------------
def walked_rest(
    fight: Any, to_act: Sequence[int], first_round: bool = True, slots: Sequence[Any] | None = None
) -> Rest:
    """The rest of a round of a `round.Fight` (or a `between_rounds.BetweenRounds` around one, or
    around a `scripted_round.ScriptedFight`): `to_act` one at a time, each making its attacks (or,
    for a scripted round, `slots` when given: its own rule of who strikes how often when); the
    first round's own rules (a move and a draw before any attack) only when it is the fight's first."""
    inner = getattr(fight, "inner", fight)
    first = bool(fight.start[0]) and first_round
    scripted = hasattr(inner, "scripts")
    if slots is not None:
        steps = list(slots)
    else:
        steps = [((i, inner.fighters[i].most),) for i in to_act] if scripted else [(i,) for i in to_act]
    graph = tree_dag(trie([(1, steps)]))  # the one order of the rest of the round

    def rest(healths: Healths) -> list[tuple[int, Healths]]:
        out: dict[Healths, int] = {}
        inner._walk(graph, {healths: 1}, first, out)
        if inner is fight:
            return [(w, h) for h, w in out.items()]
        return [(w, h if fight.over(h) else fight._close(h)) for h, w in out.items()]  # the round's end

    return rest


def mid_round(
    fight: Any, inputs: dict[str, Any], slots: Callable[[list[int], int], Sequence[Any]] | None = None
) -> Any:
    """The fight itself for a fresh round; else the fight started from the rest of this one (the
    fight's first round only when `round_reached` says so, where the forecast declares it: a
    system whose first round has rules of its own). `slots(order, acted)`: a scripted round's
    rest of the round by its own rule (segments' multi-attackers), else each still to act in turn."""
    known = known_order(inputs)
    if known is None:
        return fight
    order, acted = known
    first_round = inputs.get("round_reached", 1) == 1
    rest = walked_rest(fight, order[acted:], first_round, None if slots is None else slots(order, acted))
    return MidRound(fight, fight.start[1], rest)


# --- initiative rolled once for the fight ------------------------------------------------------
def fixed_forecast(
    rules: Rules, order: list[int], acted: int, rounds: int, standing: Sequence[Any] | None = None
) -> chain.Forecast:
    """The fight under its known order, every round, started from the rest of this round (its turns
    then the end-of-round rolls); the blocks and dodges a defender holds count from `standing`
    (each fighter's round state now: what it has left this round), fresh when not given, and
    fresh in every later round."""
    fixed_order.check_work(1, rules.state_bound())  # one order, known: the same check as a fresh fight's
    fight = FixedFight(rules, tuple((i,) for i in order))
    rest_of = FixedFight(rules, tuple((i,) for i in order[acted:]))

    def rest(healths: Healths) -> list[tuple[int, Healths]]:
        if standing is None:
            return [(w, s[1]) for w, s in rest_of.step((False, healths))]
        rules.count()
        out, _ = rules.round(rest_of.order, healths, standing)
        return [(w, h) for h, w in out.items()]

    mid = MidRound(fight, fight.start[1], rest)
    return chain.forecast(cast(Any, mid), rounds, bound=max(mid.state_bound(), chain.MAX_STATES))


def fixed_or_mixed(
    rules: Rules, totals: Any, split: fixed_order.Split, strict: bool, inputs: dict[str, Any],
    data: SystemData, standing: Sequence[Any] | None = None,
) -> tuple[chain.Forecast, int, list[dict[str, str]]]:  # fmt: skip
    """Initiative rolled once: the mixture over every order the rolls can set (a fresh fight), or
    the known order (mid-round, this round's own round states from `standing` when given); with
    the number of orders and the mid-round assumption."""
    known = known_order(inputs)
    if known is None:
        result, orders = fixed_order.forecast(rules, totals, split, strict, inputs["rounds"])
    else:
        result, orders = fixed_forecast(rules, *known, inputs["rounds"], standing), 1
    return result, orders, step(inputs, data, "initiative", fixed=True)


def step(inputs: dict[str, Any], data: SystemData, rule: str, fixed: bool = False) -> list[dict[str, str]]:
    """The assumption, with its rule, when the forecast starts mid-round (none for a fresh round)."""
    known = known_order(inputs)
    if known is None:
        return []
    order, acted = known
    names = [item["name"] for item in (*inputs[PARTY], *inputs[FOES])]
    rest = ", ".join(names[i] for i in order[acted:]) or "nobody"
    later = (
        "initiative is rolled once for the fight, so every later round keeps this order"
        if fixed
        else "the rounds after it follow the initiative procedure above"
    )
    return [
        data.step(
            rule,
            f"Mid-round: round 1 of the forecast is the rest of this round ({rest} still to act, in that order; "
            f"a fighter out before its turn does not act; the rest of this round counts as the fight's first); "
            f"{later}.",
        )
    ]
