"""Whole rounds: one round's damage as an exact distribution, then the target followed round by round
as a Markov chain over what it has left (absorbing once it drops), never simulated.

This module reads the one-attack calculators' exact answers back (`chance_of`, `dist_of`), sums a
round's attacks and writes the round calculator's result (`answer`). The chains live by concept:
`calc.chains.track` (a target that only loses hit points: `track`, `Threshold`, `mean_rounds`),
`calc.chains.state_chain` (`StateChain`, for states with more to them; its exact means by components in
`calc.chains.solve`) and `calc.chains.reached` (`Reached`, their answer); their names are kept here too,
so `rounds.track(...)`, `rounds.StateChain(...)` read as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from calc.answers import result

# the chains' names, kept here for `rounds.…` readers (explicit re-exports)
from calc.chains.reached import ROUNDS as ROUNDS
from calc.chains.reached import Reached as Reached
from calc.chains.state_chain import State as State
from calc.chains.state_chain import StateChain as StateChain
from calc.chains.state_chain import Step as Step
from calc.chains.track import Threshold as Threshold
from calc.chains.track import mean_rounds as mean_rounds
from calc.chains.track import track as track
from calc.chains.track import track_cost as track_cost
from calc.errors import InputError
from calc.numbers import bounds, dice
from calc.numbers.dice import DiceExpr
from calc.numbers.dist import Dist


# --- reading the one-attack calculators' exact answers -------------------------------------------
def chance_of(answer: Mapping[str, Any], label: str) -> Fraction:
    """The exact probability a calculator answered under `label` (its first word(s) suffice)."""
    for c in answer["chances"]:
        if c["label"] == label or c["label"].startswith(label):
            return Fraction(c["p"]["fraction"])
    raise KeyError(f"no chance labelled {label!r} in {[c['label'] for c in answer['chances']]}")


def uncut(calculator: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """A calculator's answer with every row of its distribution, even while the page's request
    asks for a cut one (`result.row_limit`): a round reads its attacks' distributions back."""
    with result.row_limit(None):
        return calculator(*args)


def dist_of(answer: Mapping[str, Any]) -> Dist:
    """The exact distribution a calculator answered (its `distribution` pmf; get the answer
    through `uncut`)."""
    d = answer["distribution"]
    if "rows" in d:
        raise RuntimeError("a distribution cut to its most likely rows cannot be read back: use rounds.uncut")
    return Dist.from_weights({row["x"]: int(row["weight"]) for row in d["pmf"]})


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
    """The damage of a round of independent attacks: the sum of their distributions (its size,
    the last product's, bounded before the first: `bounds.check_product`)."""
    attacks = list(attacks)
    if len(attacks) > 1:  # one attack is no product
        bounds.check_product(sum(a.max - a.min for a in attacks) + 1, sum(a.total.bit_length() for a in attacks))
    total = Dist.constant(0)
    for attack in attacks:
        total = total + attack
    return total


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
        summary += never_text(first, f"{verb} {hp_text}")
    else:
        summary += (
            f"{verb} {hp_text} in {_num(first.mean)} rounds on average "
            f"(P within 3 rounds: {result.percent(first.within[2], 0)})"
        )
    table = result.table("Rounds until the target drops", columns, rows)
    if any(r.mean is not None for r in reached):
        means = "; ".join(f"{r.label}: {_num(r.mean) if r.mean is not None else _no_mean(r)}" for r in reached)
        table["title"] += f" (mean rounds: {means})"
    return {
        "summary": summary,
        "chances": chances,
        "distribution": result.dist_json(per_round, label),
        "table": table,
        "steps": steps,
    }


def never_text(r: Reached, what: str) -> str:
    """A threshold with no mean in words: "never" only when no round shown reaches it; with a
    chance, why there is no mean."""
    if not r.within[-1]:
        return f"never {what} within {len(r.within)} rounds"
    return f"may never {what} (no mean; {result.percent(r.within[-1], 0)} within {len(r.within)} rounds)"


def _no_mean(r: Reached) -> str:
    """The table title's word for a threshold with no mean."""
    return "never" if not r.within[-1] else "none, it may never come"


def _pct(p: Fraction) -> str:
    return result.percent(p, 2)


def _num(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
