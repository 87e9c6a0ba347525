"""Where to spend a reserve: the round's attacks come in order; the defender holds reserve actions
for blocks or dodges. Under the ruling the defender sees each attack's total before choosing
(a block answers a roll already made), so the choice is by total; under the other reading it is
made before the roll. Backward induction over (attack, reserves left) gives the least expected
damage exactly, and the plan that reaches it; a forward pass gives the damage distribution."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import gcd
from operator import add
from typing import Any

from calc.answers.format import signed
from calc.answers.result import chance, dist_json, percent, table
from calc.chains import rounds
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist, _convolve
from calc.systems.active_defense.hit import Exchange, exchange
from calc.systems.active_defense.readers import num

Policy = Callable[[int, int, int | None], bool]
"""(attack index, reserves left, attack total or None before the roll) → spend a reserve?"""


@dataclass
class Incoming:
    name: str
    ex: Exchange
    dealt: Dist  # damage when it lands

    @property
    def mean(self) -> Fraction:
        return self.dealt.mean

    @cached_property
    def roll_total(self) -> int:
        """The defender's roll weights' total (1 with no defense roll)."""
        return self.ex.defense.total if self.ex.defense is not None else 1

    @cached_property
    def totals(self) -> list[tuple[int, int, int]]:
        """(attack total, its weight, weight of the defender's rolls that negate it), lowest total first."""
        d = self.ex.defense
        rolls = list(d.weights()) if d is not None else []
        out = []
        for t, w in self.ex.attack.weights():
            neg = sum(x for v, x in rolls if (v >= t if self.ex.defender_wins_ties else v > t))
            out.append((t, w, neg))
        return out


def incoming(inputs: dict[str, Any], data: SystemData, steps: list[dict[str, str]]) -> list[Incoming]:
    """Each attack's total against Passive Defense and the defender's roll, and its damage."""
    base = declared.validate(data.calculator("hit")["inputs"], {})
    floor = int(inputs["damage_floor"])
    out = []
    for i, attack in enumerate(inputs["attacks"], start=1):
        expr = rounds.attack_dice(attack["dice"], f"attacks[{i}].dice")
        asked = base | {k: inputs[k] for k in base if k in inputs}
        asked |= {"attack_skill": attack["bonus"], "attack_ability": 0, "attack_modifier": 0}
        own: list[dict[str, str]] = []
        ex = exchange(asked, data, own)
        if i == 1:  # the defender's side is the same for every attack
            steps += [s for s in own if s["rule"] not in ("attack-bonus", "attack-roll")]
        flat = attack["strength"] - inputs["armor"]
        dealt = (expr.dist() + flat).clamp_below(floor)
        steps.append(
            data.step(
                "attack-roll",
                f"{attack['name']}: 1d20 {signed(attack['bonus'])} beats Passive Defense {num(ex.passive_defense)} "
                f"{percent(ex.p_beats_passive())}; damage {expr} {signed(attack['strength'])} − armour "
                f"{inputs['armor']} (at least {floor}), mean {num(dealt.mean)}.",
            )
        )
        out.append(Incoming(attack["name"], ex, dealt))
    return out


def plan(attacks: list[Incoming], reserves: int, see_total: bool) -> tuple[list[list[Fraction]], Policy]:
    """Least expected damage V[i][r] from attack i on with r reserves, and the policy reaching it
    (a reserve is spent only when it saves strictly more than keeping it is worth)."""
    n = len(attacks)
    value = [[Fraction(0)] * (reserves + 1) for _ in range(n + 1)]
    blocked: dict[tuple[int, int], frozenset[int] | bool] = {}
    for i in range(n - 1, -1, -1):
        a, later = attacks[i], value[i + 1]
        pd, m, roll, whole = a.ex.passive_defense, a.mean, a.roll_total, a.ex.attack.total
        miss = sum(w for t, w, _ in a.totals if t < pd)
        for r in range(reserves + 1):
            if see_total:
                # block a total t when the damage it saves, neg/roll × m, beats what the reserve is worth later
                gap = later[r - 1] - later[r] if r else None
                spent = frozenset(t for t, _, neg in a.totals if t >= pd and gap is not None and neg * m > roll * gap)
                open_w = sum(w for t, w, _ in a.totals if t >= pd and t not in spent)
                block_w = sum(w for t, w, _ in a.totals if t in spent)
                through = sum(w * (roll - neg) for t, w, neg in a.totals if t in spent)
                total = (miss * later[r] + open_w * (m + later[r])) / whole
                if spent:
                    total += (Fraction(through, roll) * m + block_w * later[r - 1]) / whole
                value[i][r], blocked[i, r] = total, spent
            else:
                unblocked = a.ex.p_beats_passive() * m + later[r]
                block = a.ex.p_lands() * m + later[r - 1] if r else None
                use = block is not None and block < unblocked
                value[i][r], blocked[i, r] = (block if use else unblocked), use

    def policy(i: int, r: int, t: int | None) -> bool:
        chosen = blocked[i, r]
        return chosen if isinstance(chosen, bool) else t in chosen

    return value, policy


def play(attacks: list[Incoming], reserves: int, policy: Policy, see_total: bool) -> Dist:
    """The exact damage of the round when the defender follows `policy`: per reserves left, the
    damage so far as integer weights over one common denominator (no fractions in the loop)."""
    states: dict[int, tuple[int, list[int]]] = {reserves: (0, [1])}
    for i, a in enumerate(attacks):
        roll = a.roll_total
        dealt_lo, dealt_w = a.dealt.min, [w for _, w in a.dealt.weights()]
        dealt_total = a.dealt.total
        nxt: dict[int, tuple[int, list[int]]] = {}
        for r, (lo, w) in states.items():
            # (reserves after) → [weight of no damage, weight of damage], over attack total × defender's roll
            branches: dict[int, list[int]] = {}
            committed = bool(r) and not see_total and policy(i, r, None)  # spent before the roll, hit or not
            for t, wt, neg in a.totals:
                if t < a.ex.passive_defense:
                    branches.setdefault(r - 1 if committed else r, [0, 0])[0] += wt * roll
                elif committed or (r and see_total and policy(i, r, t)):
                    b = branches.setdefault(r - 1, [0, 0])
                    b[0] += wt * neg
                    b[1] += wt * (roll - neg)
                else:
                    branches.setdefault(r, [0, 0])[1] += wt * roll
            moved = _convolve(tuple(w), tuple(dealt_w))
            for after, (none, hit) in branches.items():
                parts = []
                if none:
                    parts.append((lo, [none * dealt_total * x for x in w]))
                if hit:
                    parts.append((lo + dealt_lo, [hit * x for x in moved]))
                if after in nxt:
                    parts.append(nxt[after])
                nxt[after] = _merge(parts)
        # every state was scaled by the same factor (attack × roll × damage totals): still one
        # denominator, so a factor common to every weight can go
        g = gcd(*(x for _, ws in nxt.values() for x in ws))
        states = {r: (lo, [x // g for x in ws]) for r, (lo, ws) in nxt.items()} if g > 1 else nxt
    lo, w = _merge(list(states.values()))
    return Dist._trusted(lo, w)


def _merge(parts: list[tuple[int, list[int]]]) -> tuple[int, list[int]]:
    """Add weight lists that start at different outcomes."""
    lo = min(p[0] for p in parts)
    hi = max(p[0] + len(p[1]) for p in parts)
    out = [0] * (hi - lo)
    for start, ws in parts:
        a = start - lo
        out[a : a + len(ws)] = map(add, out[a : a + len(ws)], ws)
    return lo, out


def follow(attacks: list[Incoming], reserves: int, policy: Policy, see_total: bool) -> tuple[Fraction, Fraction]:
    """(expected damage, P(no damage)) of the round under `policy`, worked back over (attack,
    reserves left) without building the distribution."""
    mean = [Fraction(0)] * (reserves + 1)
    zero = [Fraction(1)] * (reserves + 1)
    for i in range(len(attacks) - 1, -1, -1):
        a = attacks[i]
        m, p0, roll, whole = a.mean, a.dealt.p(0), a.roll_total, a.ex.attack.total
        new_mean, new_zero = [Fraction(0)] * (reserves + 1), [Fraction(0)] * (reserves + 1)
        for r in range(reserves + 1):
            committed = bool(r) and not see_total and policy(i, r, None)
            # The totals' integer weights summed by branch first, then a few exact products per
            # (attack, reserves): missed (w_miss), defended (w_def, and Σ w·neg: the defence
            # roll's part that stops it), taken (w_take). Through = 1 − neg/roll.
            w_miss = w_def = w_def_neg = w_take = 0
            for t, w, neg in a.totals:
                if t < a.ex.passive_defense:
                    w_miss += w
                elif committed or (r and see_total and policy(i, r, t)):
                    w_def += w
                    w_def_neg += w * neg
                else:
                    w_take += w
            after = r - 1 if committed else r
            em = Fraction(w_miss, whole) * mean[after] + Fraction(w_take, whole) * (m + mean[r])
            ez = Fraction(w_miss, whole) * zero[after] + Fraction(w_take, whole) * p0 * zero[r]
            if w_def:
                through = Fraction(w_def * roll - w_def_neg, whole * roll)  # Σ q·through
                em += through * m + Fraction(w_def, whole) * mean[r - 1]
                ez += (Fraction(w_def, whole) - through + through * p0) * zero[r - 1]
            new_mean[r], new_zero[r] = em, ez
        mean, zero = new_mean, new_zero
    return mean[reserves], zero[reserves]


def first_hits(attacks: list[Incoming], see_total: bool) -> Policy:
    """The plain rule: spend on the first attacks that beat Passive Defense (or the first attacks)."""

    def policy(i: int, r: int, t: int | None) -> bool:
        return r > 0 and (t is None or t >= attacks[i].ex.passive_defense)

    return policy


def _span(totals: list[int]) -> str:
    """Totals as runs: "12–19, 30"."""
    runs: list[list[int]] = []
    for t in sorted(totals):
        if runs and t == runs[-1][-1] + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(num(r[0]) if len(r) == 1 else f"{num(r[0])}–{num(r[-1])}" for r in runs)


def block_plan(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    attacks = incoming(inputs, data, steps)
    reserves = inputs["reserves"]
    see_total = inputs["spend_reserve"] == "when-hit"
    steps.insert(
        0,
        data.step(
            "reserve-actions",
            f"You hold {reserves} reserve action(s) to {inputs['defense']}; each attack may take one; none carry over.",
        ),
    )
    steps.insert(
        1,
        data.step(
            "ruling:reserve-spending",
            "You choose after seeing the attack's total (ruling)." if see_total else "You choose before the roll.",
        ),
    )
    value, best = plan(attacks, reserves, see_total)
    steps.append(
        data.step(
            "ruling:block-plan-objective",
            f"Plan: least expected damage, worked back from the last attack: {num(value[0][reserves])}.",
        )
    )
    taken = play(attacks, reserves, best, see_total)
    plain_mean, plain_zero = follow(attacks, reserves, first_hits(attacks, see_total), see_total)
    none_mean, none_zero = follow(attacks, 0, first_hits(attacks, see_total), see_total)
    rows = []
    for i, a in enumerate(attacks):
        cells = []
        for r in range(reserves, 0, -1):
            if see_total:
                totals = [t for t, _ in a.ex.attack.items() if best(i, r, t)]
                cells.append(f"{r} left: " + (f"totals {_span(totals)}" if totals else "let it come"))
            else:
                cells.append(f"{r} left: " + ("block" if best(i, r, None) else "let it come"))
        rows.append(
            [
                a.name,
                percent(a.ex.p_beats_passive()),
                percent(a.ex.p_lands()),
                num(a.mean),
                "; ".join(cells),
            ]
        )
    saved = plain_mean - taken.mean
    summary = (
        f"Expected damage {num(taken.mean)} with the best plan, {num(plain_mean)} if you spend on the first "
        f"{'attacks that beat Passive Defense' if see_total else 'attacks'}, {num(none_mean)} with none"
    )
    if saved:
        summary += f" (the plan saves {num(saved)})"
    return {
        "summary": summary,
        "chances": [
            chance("No damage this round (best plan)", taken.p(0)),
            chance("No damage this round (blocking the first attacks)", plain_zero),
            chance("No damage this round (no block)", none_zero),
        ],
        "distribution": dist_json(taken, "Damage taken this round (best plan)"),
        "table": table(
            "When to spend a reserve",
            ["Attack", "Beats Passive Defense", f"Lands if you {inputs['defense']}", "Mean damage", "Spend a reserve"],
            rows,
        ),
        "steps": steps,
    }
