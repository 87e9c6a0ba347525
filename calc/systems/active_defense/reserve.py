"""Where to spend a reserve: the round's attacks come in order; the defender holds reserve actions
for blocks or dodges. Under the ruling the defender sees each attack's total before choosing
(a block answers a roll already made), so the choice is by total; under the other reading it is
made before the roll. Backward induction over (attack, reserves left) gives the least expected
damage exactly, and the plan that reaches it; a forward pass gives the damage distribution."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from calc import inputs as declared
from calc import rounds
from calc.data import SystemData
from calc.dist import Dist
from calc.format import signed
from calc.result import chance, dist_json, percent, table
from calc.systems.active_defense.hit import Exchange, exchange
from calc.systems.active_defense.readers import num

Policy = Callable[[int, int, int | None], bool]
"""(attack index, reserves left, attack total or None before the roll) → spend a reserve?"""


@dataclass(frozen=True)
class Incoming:
    name: str
    ex: Exchange
    dealt: Dist  # damage when it lands

    @property
    def mean(self) -> Fraction:
        return self.dealt.mean


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
    for i in range(n - 1, -1, -1):
        a, later = attacks[i], value[i + 1]
        for r in range(reserves + 1):
            keep_worth = later[r - 1] - later[r] if r else None
            if see_total:
                total = Fraction(0)
                for t, p in a.ex.attack.items():
                    if t < a.ex.passive_defense:
                        total += p * later[r]
                        continue
                    take = a.mean + later[r]
                    if r and a.ex.p_negated_at(t) * a.mean > keep_worth:
                        take = (1 - a.ex.p_negated_at(t)) * a.mean + later[r - 1]
                    total += p * take
                value[i][r] = total
            else:
                unblocked = a.ex.p_beats_passive() * a.mean + later[r]
                blocked = a.ex.p_lands() * a.mean + later[r - 1] if r else None
                value[i][r] = blocked if blocked is not None and blocked < unblocked else unblocked

    def policy(i: int, r: int, t: int | None) -> bool:
        if not r:
            return False
        a, later = attacks[i], value[i + 1]
        if see_total:
            assert t is not None
            return t >= a.ex.passive_defense and a.ex.p_negated_at(t) * a.mean > later[r - 1] - later[r]
        return a.ex.p_lands() * a.mean + later[r - 1] < a.ex.p_beats_passive() * a.mean + later[r]

    return value, policy


def play(attacks: list[Incoming], reserves: int, policy: Policy, see_total: bool) -> Dist:
    """The exact damage of the round when the defender follows `policy`."""
    states: dict[int, tuple[Fraction, Dist]] = {reserves: (Fraction(1), Dist.constant(0))}
    for i, a in enumerate(attacks):
        parts: dict[int, list[tuple[Fraction, Dist]]] = {}
        for r, (q, so_far) in states.items():
            # (reserves after, P(no damage), P(damage)) branches of this attack
            branches: dict[int, list[Fraction]] = {}
            if see_total:
                for t, p in a.ex.attack.items():
                    if t < a.ex.passive_defense:
                        branches.setdefault(r, [Fraction(0), Fraction(0)])[0] += p
                    elif policy(i, r, t):
                        neg = a.ex.p_negated_at(t)
                        b = branches.setdefault(r - 1, [Fraction(0), Fraction(0)])
                        b[0] += p * neg
                        b[1] += p * (1 - neg)
                    else:
                        branches.setdefault(r, [Fraction(0), Fraction(0)])[1] += p
            elif policy(i, r, None):
                branches[r - 1] = [1 - a.ex.p_lands(), a.ex.p_lands()]
            else:
                branches[r] = [1 - a.ex.p_beats_passive(), a.ex.p_beats_passive()]
            for after, (none, hit) in branches.items():
                if none:
                    parts.setdefault(after, []).append((q * none, so_far))
                if hit:
                    parts.setdefault(after, []).append((q * hit, so_far + a.dealt))
        states = {}
        for r, mix in parts.items():
            weight = sum((w for w, _ in mix), Fraction(0))
            states[r] = (weight, Dist.mixture([(w / weight, d) for w, d in mix]))
    return Dist.mixture(list(states.values()))


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
    plain = play(attacks, reserves, first_hits(attacks, see_total), see_total)
    none = play(attacks, 0, first_hits(attacks, see_total), see_total)
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
    saved = plain.mean - taken.mean
    summary = (
        f"Expected damage {num(taken.mean)} with the best plan, {num(plain.mean)} blocking the first "
        f"{'attacks that beat Passive Defense' if see_total else 'attacks'}, {num(none.mean)} with no block"
    )
    if saved:
        summary += f" (the plan saves {num(saved)})"
    return {
        "summary": summary,
        "chances": [
            chance("No damage this round (best plan)", taken.p(0)),
            chance("No damage this round (blocking the first attacks)", plain.p(0)),
            chance("No damage this round (no block)", none.p(0)),
        ],
        "distribution": dist_json(taken, "Damage taken this round (best plan)"),
        "table": table(
            "When to spend a reserve",
            ["Attack", "Beats Passive Defense", f"Lands if you {inputs['defense']}", "Mean damage", "Spend a reserve"],
            rows,
        ),
        "steps": steps,
    }
