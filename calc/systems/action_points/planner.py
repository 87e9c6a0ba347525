"""The AP planner: every way to spend the turn's AP on attacks (standard, quick, power and, when
possible, a charge), each attack's whole damage from the damage calculator, summed over the plan
and ranked by exact expected damage. Only plans that leave no AP for another attack are listed:
adding an attack never lowers the damage."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.chains import rounds
from calc.errors import InputError
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.action_points.attack import adjust, hit_damage, resolve_attack
from calc.systems.action_points.round import STYLES


def plans(costs: dict[str, int], budget: int) -> list[tuple[str, ...]]:
    """Every multiset of attacks costing at most `budget` that leaves too few AP for one more."""
    styles = list(costs)
    cheapest = min(costs.values())
    out: list[tuple[str, ...]] = []

    def grow(i: int, left: int, chosen: tuple[str, ...]) -> None:
        if i == len(styles):
            if chosen and left < cheapest:
                out.append(chosen)
            return
        style = styles[i]
        n = 0
        while n * costs[style] <= left:
            grow(i + 1, left - n * costs[style], chosen + (style,) * n)
            n += 1

    grow(0, budget, ())
    return out


def attack_dist(inputs: dict[str, Any], data: SystemData) -> Dist:
    """One attack's whole damage (misses as 0) by the damage calculator's own engine functions:
    the same outcomes, hit and critical damage, weakness and resistance as `attack.damage`."""
    attack = resolve_attack(inputs, data)
    regular, critical, _, _ = hit_damage(inputs, data, attack.weapon)
    floor = data.fact("attack-damage", "minimum_damage")
    w, r = inputs["weakness"], inputs["resistance"]
    o = attack.outcomes
    return Dist.mixture(
        [
            (o.miss, Dist.constant(0)),
            (o.regular, adjust(regular, w, r, floor)),
            (o.critical, adjust(critical, w, r, floor)),
        ]
    )


def describe(plan: tuple[str, ...]) -> str:
    parts = []
    for style in dict.fromkeys(plan):
        n = plan.count(style)
        parts.append(f"{n} × {style}" if n > 1 else style)
    return " + ".join(parts)


def ap_plan(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    budget = data.fact("action-points-per-turn", "ap_gained")
    keep = inputs["keep_ap"]
    if keep >= budget:
        raise InputError("keep_ap", f"a turn has only {budget} AP: keep fewer to attack at all")
    spend = budget - keep
    steps = [data.step("action-points-per-turn", f"A turn has {budget} AP; {keep} kept, {spend} for attacks.")]
    decl = data.calculator("damage")["inputs"]
    own = {d["name"] for d in decl} & set(inputs)
    costs, dists = {}, {}
    for style, rule in STYLES.items():
        if style == "charge" and not inputs["can_charge"]:
            continue
        kind = data.fact(rule, "action_type")
        cost = data.fact("action-types", f"{kind}_ap")
        if cost > spend:
            continue
        asked = {k: inputs[k] for k in own} | {"attack": style, "outcome": "attack"}
        costs[style], dists[style] = cost, attack_dist(declared.validate(decl, asked), data)
        one = dists[style]
        steps.append(
            data.step(
                rule,
                f"{style.capitalize()} attack ({cost} AP, a {kind} action): {_dec(one.mean)} damage on average "
                f"({one.min} to {one.max}), misses as 0.",
            )
        )
    if not inputs["can_charge"]:
        steps.append(data.step("charge", "No charge: it needs a straight move of at least 10 feet to the target."))
    if not costs:
        raise InputError("keep_ap", f"{spend} AP left pay for no attack")
    below = data.fact("dying", "dying_below")
    drop = inputs["target_hp"] - below + 1
    ranked = []
    for plan in plans(costs, spend):
        total = rounds.round_total(dists[s] for s in plan)
        ranked.append((total.mean, plan, total))
    ranked.sort(key=lambda r: (-r[0], sum(costs[s] for s in r[1]), r[1]))
    best_mean, best, best_dist = ranked[0]
    steps.append(
        data.step("dying", f"Knocking out a {inputs['target_hp']}-HP target takes it below {below}: {drop}+ damage.")
    )
    rows = []
    for mean, plan, total in ranked:
        rows.append(
            [
                describe(plan),
                str(sum(costs[s] for s in plan)),
                _dec(mean),
                result.percent(total.p_ge(1)),
                result.percent(total.p_ge(drop)),
            ]
        )
    ties = [describe(p) for m, p, _ in ranked[1:] if m == best_mean]
    summary = f"Best: {describe(best)}, {_dec(best_mean)} damage on average"
    if ties:
        summary += f" (tied with {', '.join(ties)})"
    elif len(ranked) > 1:
        summary += f" ({_dec(best_mean - ranked[1][0])} more than {describe(ranked[1][1])})"
    chances = [
        result.chance(f"Best plan knocks the target out ({drop}+ damage)", best_dist.p_ge(drop)),
        result.chance("Best plan deals any damage", best_dist.p_ge(1)),
    ]
    likeliest = max(ranked, key=lambda r: (r[2].p_ge(drop), r[0]))
    if likeliest[1] != best:
        chances.append(result.chance(f"Most likely to knock it out: {describe(likeliest[1])}", likeliest[2].p_ge(drop)))
    return {
        "summary": summary,
        "chances": chances,
        "distribution": result.dist_json(best_dist, f"Damage of the best plan ({describe(best)})"),
        "table": result.table(
            "Plans by expected damage",
            ["Plan", "AP", "Mean damage", "Deals damage", f"Knocks out ({drop}+)"],
            rows,
        ),
        "steps": steps,
    }


def _dec(x: Any) -> str:
    return f"{float(x):.3f}".rstrip("0").rstrip(".")
