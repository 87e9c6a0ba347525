"""The chance the target drops before it acts again, counting every foe of the target who acts
before the target's next turn, all of them on the target (focus fire, stated with its ruling).

Who attacks before the target's next turn: the acting combatant, then the rest of this round in the
tracker's order up to the target's turn; if the target has acted this round, also the next round's
fighters before it: the same order where initiative is rolled once for the fight, else every order
the next round's initiative can take, with its exact chance (the system's forecast builds them:
`calc.forecast.order`, a scripted round's scripts). Each distinct list of attackers is one round
calculator request with `attackers` (in the order they meet the target), read in its first round;
the chances mix them. With nobody between, the request is the card's own (one attacker). A system
whose fight has values held afresh each round (`ROUND_VALUES`: active-defense's reserve actions)
asks a list that runs into the next round as two requests: this round's attackers against what the
target has left (`resolve.standing`), the next round's against what it holds afresh, the two
rounds' damage added exactly.

Bounded before computing: the next round's orders walked (`MAX_ORDERS` prefixes) and the distinct
lists of attackers (`MAX_LISTS`), each a round calculator request whose own bounds apply.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from fractions import Fraction
from importlib import import_module
from itertools import accumulate
from typing import Any

from calc import evaluate, systems
from calc.answers import result
from calc.chains import rounds
from calc.errors import InputError
from calc.fight import fighter
from calc.fight.forecast_request import SIDES, forecast_request
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

MAX_ORDERS = 5_000
"""The most prefixes of the next round's orders walked."""
MAX_LISTS = 24
"""The most distinct lists of attackers (one round calculator request each)."""

Turn = tuple[str, tuple[tuple[str, int], ...]]
"""An attacker's turn: its id and the values that turn carries over its own (segments: a
multi-attacker's routines before group initiative or after LOW), as sorted pairs."""
Seq = tuple[Turn, ...]


def _turn(t: Mapping[str, Any]) -> Turn:
    return t["id"], tuple(sorted((t.get("inputs") or {}).items()))


def _add(seq: list[Turn], turn: Turn) -> None:
    """A turn that carries values of its own is an attack apart (a multi-attacker's second
    routine); a combatant's other turns count once (phases' several phases of one attack)."""
    if turn[1] or all(ident != turn[0] for ident, _ in seq):
        seq.append(turn)


def _this_round(fight: Mapping[str, Any], target: Mapping[str, Any], acts: Mapping[str, bool]):
    """The attackers' turns from the current turn on, and whether the target's turn comes this round."""
    order = fight["order"]
    seq = [_turn(order[fight["turn"]])]
    for t in order[fight["turn"] + 1 :]:
        if t["id"] == target["id"]:
            return seq, True
        if _foe(fight, t["id"], target) and acts[t["id"]]:
            _add(seq, _turn(t))
    return seq, False


def _foe(fight: Mapping[str, Any], ident: str, target: Mapping[str, Any]) -> bool:
    c = next(c for c in fight["combatants"] if c["id"] == ident)
    return bool(c["side"] != target["side"])


def _fixed_next(fight: Mapping[str, Any], target: Mapping[str, Any], acts: Mapping[str, bool]) -> list[Turn]:
    """Initiative rolled once: next round's fighters before the target are this round's."""
    out: list[Turn] = []
    for t in fight["order"]:
        if t["id"] == target["id"]:
            break
        if _foe(fight, t["id"], target) and acts[t["id"]]:
            _add(out, _turn(t))
    return out


def _rolled_next(fight: Mapping[str, Any], data: SystemData, options: Mapping[str, Any], health: Mapping[str, Any],
                 target: Mapping[str, Any]) -> dict[Seq, Fraction]:  # fmt: skip
    """Initiative rolled each round: every order the next round can take (the system's forecast
    round, for the fighters still in the fight), cut at the target's turn, with its chance."""
    built = forecast_request(fight, data, options, health)
    if built is None:
        raise InputError("target", f"{data.name} has no forecast round to draw the next round's order from")
    asked = dict(built["request"]["inputs"])
    health_input = str(fighter.declaration(data)["health"])  # type: ignore[index]
    for side in SIDES.values():  # the orders need no hit points: 1 at most keeps the forecast's bound away
        asked[side] = [{**e, health_input: min(e[health_input], 1)} for e in asked[side]]
    decls = data.calculator("forecast")["inputs"]
    values = declared.validate(decls, {**asked, "order": [], "acted": 0})
    module = import_module(f"{systems.engine(data.id).__name__}.forecast")
    fight_model = module.build(values, data)
    ids = [c["id"] for side in SIDES for c in fight["combatants"] if c["side"] == side and health[c["id"]]["acts"]]
    inner = getattr(fight_model, "inner", fight_model)
    me = ids.index(target["id"])
    out: dict[Seq, int] = {}
    share = getattr(systems.engine(data.id).TURNS, "TURN_INPUT", None)
    if hasattr(inner, "orders"):
        # the target's allies never change which of its foes come before it, nor their order
        # (everyone rolls apart): only the target and its foes are walked
        members = tuple(i for i, ident in enumerate(ids) if i == me or _foe(fight, ident, target))
        _rolled(inner.orders, me, members, out)
    else:  # a scripted round's slot gives each fighter's share of its attacks there
        _walk(inner.tree, bool(share), me, (), out, [0])
    whole = sum(out.values())

    def turn(point: Any) -> Turn:
        i, n = point if isinstance(point, tuple) else (point, 0)
        return ids[i], ((share, n),) if share and n else ()

    named = {k: tuple(turn(p) for p in k if _foe(fight, ids[_index(p)], target)) for k in out}
    mixed: dict[Seq, Fraction] = {}
    for k, w in out.items():
        mixed[named[k]] = mixed.get(named[k], Fraction(0)) + Fraction(w, whole)
    return mixed


def _index(point: Any) -> int:
    """The fighter of a point of a walked order: its index, or (index, share) in a scripted round."""
    return int(point[0]) if isinstance(point, tuple) else int(point)


def _rolled(orders: Any, me: int, members: tuple[int, ...], out: dict) -> None:
    """Each fighter's own roll (`calc.forecast.order.Orders`): the orders' prefixes walked only up
    to the target's group, the weight of all their completions summed in closed form (everyone
    left comes at a later point of the count than the target's group)."""
    tails = [[sum(row[q + 1 :]) for q in range(len(row))] for row in orders.points]
    seen = [0]

    def grow(left: tuple[int, ...], ways: list[int], first: bool, before: tuple[int, ...]) -> None:
        for group, rest, nxt in orders._next(left, ways, first):
            seen[0] += 1
            if seen[0] > MAX_ORDERS:
                raise InputError("target", f"the next round can take more than {MAX_ORDERS:,} orders: fewer combatants")
            if me in group:
                weight = 0
                for p, w in enumerate(nxt):
                    for j in rest:
                        w *= tails[j][p]
                    weight += w
                if weight:
                    out[before] = out.get(before, 0) + weight
            else:
                grow(rest, nxt, False, before + group)

    grow(members, [1] * len(orders.points[0]), True, ())


def _walk(node: Any, shares: bool, me: int, before: tuple, out: dict, seen: list[int]) -> None:
    """Every path down the tree of orders to the target's group (those before it), with the
    weight of the orders below. A step is a slot of (fighter, share of its attacks) pairs: with
    `shares` each pair is kept (a multi-attacker's routines before group initiative and after LOW are two
    attacks), otherwise each fighter once, by index."""
    seen[0] += 1
    if seen[0] > MAX_ORDERS:
        raise InputError("target", f"the next round can take more than {MAX_ORDERS:,} orders: fewer combatants")
    if node.weight:
        out[before] = out.get(before, 0) + node.weight  # an order without the target (never here)
    for step, child in node.children.items():
        if any(i == me for i, _ in step):
            out[before] = out.get(before, 0) + _weight(child)
            continue
        added = tuple(step) if shares else tuple(i for i, _ in step if i not in before)
        _walk(child, shares, me, before + added, out, seen)


def _weight(node: Any) -> int:
    return int(node.weight) + sum(_weight(c) for c in node.children.values())


def before_turn(fight: Mapping[str, Any], data: SystemData, options: Mapping[str, Any],
                health: Mapping[str, Mapping[str, Any]], target_id: str,
                now: Mapping[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """`{"p", "label", "lists": [{"names", "p", "drops"}], "steps"}`: the chance the target drops
    before its next turn, every foe of it who acts before then attacking it, in the order they
    act, from the current turn on (the one acting first). `now`: the fight with this round's
    values (`resolve.standing`: active-defense's reserves left), which this round's attackers
    meet; those of the next round meet the values a round starts with. A system whose fight has
    values held afresh each round (`ROUND_VALUES`) has a list that runs into the next round asked
    as two requests, this round's and the next's, their damage added (independent: nothing carries
    over); otherwise one request serves the list."""
    spec = fighter.declaration(data)
    if spec is None or fight["turn"] >= len(fight["order"]):
        raise InputError("attacker", "nobody is acting now")
    target = next((c for c in fight["combatants"] if c["id"] == target_id), None)
    if target is None:
        raise InputError("target", "names no combatant of the fight")
    acts = {ident: bool(h["acts"]) for ident, h in health.items()}
    seq, comes = _this_round(fight, target, acts)
    later: dict[Seq, Fraction]  # the next round's attackers before the target, with their chance
    if comes or not acts[target_id]:
        later = {(): Fraction(1)}
    elif tracker(data).get("rolled") == "once":
        later = {tuple(_fixed_next(fight, target, acts)): Fraction(1)}
    else:
        later = _rolled_next(fight, data, options, health, target)
    if len(later) > MAX_LISTS:
        raise InputError(
            "target", f"{len(later)} different lists of attackers, more than {MAX_LISTS}: fewer combatants"
        )
    rules = systems.engine(data.id).FIGHT
    apart = bool(rules.ROUND_VALUES)
    states = {ident: str(h["state"]) for ident, h in health.items()}
    names = {c["id"]: c["name"] for c in fight["combatants"]}
    calculator = str(spec["calculator"])

    def ask(standing: Mapping[str, Any], ids: Seq) -> dict[str, Any]:
        with result.row_limit(None):  # its distribution is read back whole when a round is added
            return evaluate(_request(standing, data, options, states, ids, target_id, calculator), first_attack=False)

    here = ask(now or fight, tuple(seq)) if apart else None
    total, label, shown = Fraction(0), "", []
    for k, p in sorted(later.items(), key=lambda kv: -kv[1]):
        if here is None:  # one request: no value of the round differs in the next
            answer = ask(now or fight, tuple(seq) + k)
            q = _first(answer)
        elif not k:
            answer = here
            q = _first(here)
        else:
            answer = here
            q = _across(here, ask(fight, k), _need(target, data, options, rules))
        label = answer["rounds"][0]["label"]
        total += p * q
        shown.append({"names": [names[i] for i, _ in (*seq, *k)], "p": result.prob(p), "drops": result.prob(q)})
    rule = tracker(data)["rule"]
    step = data.step(
        "ruling:forecast-targets",
        "Focus fire: every foe of the target who acts before its next turn attacks it, in the order they act.",
    )
    steps = [step, data.step(rule, _order_text(data))]
    if apart and any(later):
        steps += [
            data.step(where, f"The target's {name.replace('_', ' ')} do not carry over: this round's attackers meet "
                      "what it has left, the next round's what it holds afresh.")
            for name, _, where in rules.ROUND_VALUES
        ]  # fmt: skip
    return {"p": result.prob(total), "label": label, "lists": shown, "steps": steps}


def _first(answer: Mapping[str, Any]) -> Fraction:
    """The round calculator's chance the target drops in its first round."""
    return Fraction(answer["rounds"][0]["within"][0]["fraction"])


def _need(target: Mapping[str, Any], data: SystemData, options: Mapping[str, Any], rules: Any) -> int:
    """The damage that drops the target from its hit points now: the least that leaves it where
    the fight's rules no longer let it act (`_across` checks the round calculator agrees)."""
    for x in range(1, target["hp"] - rules.floor(target, data, options) + 1):
        if not rules.health({**target, "hp": target["hp"] - x}, data, options)["acts"]:
            return x
    raise RuntimeError(f"{target['name']} never drops by damage")  # every system's Down has a floor


def _across(here: Mapping[str, Any], there: Mapping[str, Any], need: int) -> Fraction:
    """P(this round's damage plus the next round's reaches `need`): the two rounds independent
    (the values held afresh are the only link, and they reset), every pair of totals summed."""
    first, second = rounds.dist_of(here), rounds.dist_of(there)
    if first.p_ge(need) != _first(here):
        raise RuntimeError("the round calculator drops the target at other hit points than the fight")
    xs, ws = first.support()
    ys, vs = second.support()
    tails = list(accumulate(reversed(vs)))[::-1]  # tails[j]: the weight of the next round's ≥ ys[j]
    low, ahead = ys[0], len(ys)
    reached = 0
    for x, w in zip(xs, ws, strict=True):
        j = bisect_left(ys, need - x) if need - x > low else 0
        reached += w * tails[j] if j < ahead else 0
    return Fraction(reached, first.total * second.total)


def _order_text(data: SystemData) -> str:
    once = tracker(data).get("rolled") == "once"
    return (
        "Who acts before the target: the rest of this round in the tracker's order, then, if the target has "
        + ("acted, the same order next round (initiative is rolled once)." if once else "acted, every order the "
           "next round's initiative can take, each with its exact chance.")
    )  # fmt: skip


def _request(fight: Mapping[str, Any], data: SystemData, options: Mapping[str, Any], states: Mapping[str, str],
             seq: Seq, target: str, calculator: str) -> dict[str, Any]:  # fmt: skip
    """The round calculator's request: the first attacker's inputs, and with others, `attackers`
    (each turn with the values it carries: a multi-attacker's routines there)."""

    def own(turn: Turn) -> dict[str, Any]:
        ident, values = turn
        return fighter.inputs_for(fighter.with_values(fight, ident, dict(values)), ident, target, calculator, data,
                                  options, states)  # fmt: skip

    first = own(seq[0])
    if len(seq) == 1:
        return {"system": data.id, "calculator": calculator, "inputs": first}
    decl = next(d for d in data.calculator(calculator)["inputs"] if d["name"] == fighter.ATTACKERS)
    fields = {f["name"] for f in decl["fields"]}
    if len(seq) > decl["max_items"]:
        raise InputError("target", f"{len(seq)} attackers before its turn, more than the round's {decl['max_items']}")
    listed = []
    for turn in seq:
        listed.append({k: v for k, v in own(turn).items() if k in fields})
    return {"system": data.id, "calculator": calculator, "inputs": {**first, fighter.ATTACKERS: listed}}
