"""The fight forecast in Action Points: initiative (1d20 + bonus, highest first, ties rolled again)
is rolled once and holds for the whole encounter, so the forecast is the mixture over the orders
it can set (`calc.forecast.fixed_order`); each turn spends 3 AP on the attacks the fighter lists, as
the round calculator spends them, each read from the damage calculator against the defense of its
side's current target. Below 0 hit points a fighter is unconscious and dying (out of the fight,
no longer attacked); with the ruling its Constitution check at each round's end costs 1 more on a
failure; at −10 it is dead. Under the optional wounds rule a hit of the target's wound threshold
gives it a wound: −1 to its AC and SR and to its own attack rolls from then on, dead past 15."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from calc.forecast import answer, fixed_fight, fixed_order, rest_of_round
from calc.forecast.fighters import policies, targets_step
from calc.forecast.fixed_fight import Actor, Blow
from calc.forecast.inputs import each
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.action_points.attack import damage_parts, resolve_attack, wound_needed
from calc.systems.action_points.dying import passes
from calc.systems.action_points.initiative import deft_bonus
from calc.systems.action_points.round import turn_plan

RULINGS = ("miss_chance_reading", "threat_range", "multiply", "power_bonuses", "quick_critical", "wound_rounding")
"""Inputs of the whole forecast that the damage calculator reads for every attack."""

TARGET = ("defense", "miss_chance", "weakness", "resistance")
"""A fighter's inputs read when it is the target of an attack."""


class Rules:
    """The system's numbers the forecast reads, once."""

    def __init__(self, inputs: dict[str, Any], data: SystemData) -> None:
        self.below = data.fact("dying", "dying_below")
        self.dead = data.fact("dead", "dead_at")
        self.most_wounds = data.fact("wounds", "max_wounds")
        self.per_wound = data.fact("wounds", "penalty_per_wound")
        self.wounds = bool(inputs["wounds_rule"])
        self.checks = inputs["dying_checks"] == "counted"
        self.meets = inputs["dc_ties"] == "meets"
        self.die = data.die_sides("dying", "check_die")
        self.dc_base = data.fact("dying", "check_dc_base")
        self.loss = data.fact("dying", "failed_check_damage")

    def settle(self, hp: int, wounds: int) -> tuple[int, int]:
        """A health as the chain keeps it: dead (at −10, or past the most wounds) is one state; a
        dying fighter keeps its hit points only while its checks count; wounds only in the fight."""
        if hp <= self.dead or wounds > self.most_wounds:
            return (self.dead, 0)
        if hp < self.below:
            return (hp, 0) if self.checks else (self.below - 1, 0)
        return (hp, wounds)

    def final(self, h: tuple[int, int]) -> tuple[int, int]:
        """Once the fight is over a dying fighter's checks stop: only dying or dead is kept."""
        return (self.below - 1, 0) if self.down(h) and not self.dead_(h) else h

    def down(self, h: tuple[int, int]) -> bool:
        return h[0] < self.below

    def dead_(self, h: tuple[int, int]) -> bool:
        return h[0] <= self.dead

    def check(self, con: int, h: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
        """The dying check at a round's end: d20 + Constitution against 15 + the hit points below 0."""
        hp = h[0]
        if not self.checks or not self.down(h) or self.dead_(h):
            return [(self.die, h)]
        dc = self.dc_base + (self.below - hp)
        fail = sum(1 for face in range(1, self.die + 1) if not passes(face + con, dc, self.meets))
        out = [(fail, self.settle(hp - self.loss, 0)), (self.die - fail, h)]
        return [(w, s) for w, s in out if w]


def spec(side: str, index: int, item: dict[str, Any], inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """One fighter's entry checked as the round calculator checks it, with its turn's attacks."""
    merged = {**item, **{k: inputs[k] for k in RULINGS}}
    plan, _ = turn_plan(merged, data, index)
    styles = [style for style, _, _, _, n in plan for _ in range(n)]
    need = wound_needed(merged, data)[0] if inputs["wounds_rule"] else 0
    return {"side": side, "inputs": merged, "styles": styles, "need": need}


class Attacks:
    """One fighter's attacks, each style's damage against every enemy at every wound count of the
    two (the attack roll's odds change with them, a hit's damage never), as integer weights over
    one scale for all of them."""

    def __init__(self, me: dict[str, Any], levels: dict[int, range], enemies: dict[int, dict[str, Any]],
                 rules: Rules, data: SystemData) -> None:  # fmt: skip
        decl = data.calculator("damage")["inputs"]
        own = {d["name"] for d in decl}
        self.rules = rules
        self.odds: dict[tuple[str, int, int, int], tuple[Fraction, Fraction, Fraction]] = {}
        self.hits: dict[tuple[str, int], tuple[Dist, Dist]] = {}
        mine = levels[me["index"]]
        for style in dict.fromkeys(me["styles"]):
            for j, enemy in enemies.items():
                asked = {k: me["inputs"][k] for k in own & set(me["inputs"])}
                asked |= {k: enemy["inputs"][k] for k in TARGET} | {"attack": style, "outcome": "attack"}
                typed = declared.validate(decl, asked)
                _, regular, critical, _, _ = damage_parts(typed, data)
                self.hits[(style, j)] = (regular, critical)
                for w in mine:
                    for tw in levels[j]:
                        ac = typed["defense"] + (rules.per_wound * tw if rules.wounds else 0)
                        o = resolve_attack(typed | {"wounds": w, "defense": max(ac, 0)}, data).outcomes
                        self.odds[(style, w, j, tw)] = (o.miss, o.regular, o.critical)
        den = math.lcm(*(p.denominator for trio in self.odds.values() for p in trio))
        self.scale = den * math.lcm(*(d.total for pair in self.hits.values() for d in pair))
        self._weights: dict[tuple[str, int, int, int], list[tuple[int, int]]] = {}

    def weights(self, style: str, w: int, j: int, tw: int) -> list[tuple[int, int]]:
        """(damage, weight over `scale`) of one attack, a miss as 0."""
        key = (style, w, j, tw)
        got = self._weights.get(key)
        if got is None:
            miss, reg, crit = self.odds[key]
            regular, critical = self.hits[(style, j)]
            out: dict[int, int] = {0: int(miss * self.scale)} if miss else {}
            for part, dist in ((reg, regular), (crit, critical)):
                if part:
                    k = int(part * self.scale) // dist.total
                    for x, wx in dist.weights():
                        out[x] = out.get(x, 0) + k * wx
            got = self._weights[key] = [(x, k) for x, k in out.items() if k]
        return got

    def alike(self, styles: Sequence[str]) -> tuple[Any, ...] | None:
        """Everything the turn's blows read, when they never read the attacker's own health (its
        wounds, which change only under the wounds rule): equal for two fighters whose blows are
        the same (`fixed_fight.Actor.alike`)."""
        if self.rules.wounds:
            return None
        hits = tuple(
            (k, r.total, tuple(r.weights()), c.total, tuple(c.weights())) for k, (r, c) in sorted(self.hits.items())
        )
        return tuple(styles), self.scale, tuple(sorted(self.odds.items())), hits

    def hit(self, style: str, own: Any, target: Actor, health: Any, r: Any) -> list[tuple[int, Any, Any]]:
        j, need = target.defense
        hp, tw = health
        out: dict[Any, int] = {}
        for x, k in self.weights(style, own[1], j, tw):
            after = self.rules.settle(hp - x, tw + (1 if self.rules.wounds and x >= need else 0))
            out[after] = out.get(after, 0) + k
        return [(k, h, r) for h, k in out.items()]


def build(inputs: dict[str, Any], data: SystemData) -> tuple[fixed_fight.Rules, list[Dist], fixed_order.Split]:
    """The fight's actors, their initiative totals and how a tie among them is settled."""
    rules = Rules(inputs, data)
    specs = each(inputs, lambda side, i, item: spec(side, i, item, inputs, data))
    levels: dict[int, range] = {}
    for n, s in enumerate(specs):
        s["index"] = n
        w = s["inputs"]["wounds"]
        hp = s["inputs"]["target_hp"]
        top = min(rules.most_wounds, w + hp // s["need"]) if rules.wounds else w
        levels[n] = range(w, top + 1)
    sides = data.die_sides("initiative", "initiative_die")
    deft = deft_bonus(data)
    actors, totals = [], []
    for s in specs:
        enemies = {o["index"]: o for o in specs if o["side"] != s["side"]}
        attacks = Attacks(s, levels, enemies, rules, data)
        blows = tuple(Blow(attacks.scale, partial(attacks.hit, style)) for style in s["styles"])
        item = s["inputs"]
        start = (item["target_hp"], item["wounds"])
        danger = sum(
            (Dist.from_weights(dict(attacks.weights(style, item["wounds"], j, levels[j][0]))).mean
             for style in s["styles"] for j in enemies),
            Fraction(0),
        ) / len(enemies)  # fmt: skip
        initiative = Dist.die(sides) + item["initiative"] + (deft if item["deft"] else 0)
        totals.append(initiative)
        actors.append(
            Actor(
                name=item["name"],
                side=s["side"],
                start=start,
                hp=item["target_hp"],
                initiative=initiative,
                danger=danger,
                states=(item["target_hp"] + 1) * len(levels[s["index"]]),
                out_states=(-rules.dead if rules.checks else 2),
                blows=blows,
                out=rules.down,
                marks=(("goes down", rules.down), ("dies", rules.dead_)),
                defense=(s["index"], s["need"]),
                end=(rules.die, partial(rules.check, item["target_con"])) if rules.checks else None,
                final=rules.final,
                alike=attacks.alike(s["styles"]),
            )
        )
    split = fixed_order.rerolled(totals, True) if inputs["tie_reroll"] == "with_bonus" else fixed_order.evenly
    return fixed_fight.Rules(actors, policies(inputs)), totals, split


def forecast(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    rules, totals, split = build(inputs, data)
    result, orders, mid = rest_of_round.fixed_or_mixed(rules, totals, split, True, inputs, data)
    return answer.answer(result, rules.fighters, steps(inputs, data, orders) + mid, data, inputs)  # type: ignore[arg-type]


def steps(inputs: dict[str, Any], data: SystemData, orders: int) -> list[dict[str, str]]:
    """Every assumption of the forecast, each with the rule (or ruling) behind it."""
    out = [
        data.step(
            "initiative",
            "Each fighter rolls 1d20 + its initiative bonus (+2 with a Deft weapon) once; turns run from the "
            f"highest total down, the same order every round: the forecast weighs all {orders:,} orders.",
        ),
        data.step("initiative-ties", "Tied totals are rolled again among the tied fighters only."),
        data.step(
            "action-points-per-turn",
            "Each turn spends 3 AP on the attacks the fighter lists (as the round calculator), each at its "
            "side's current target as the fight stands then.",
        ),
        targets_step(data, inputs, "it is down (below 0 hit points)"),
        data.step("dying", "Below 0 hit points a fighter is unconscious and dying: it no longer acts nor is attacked."),
        data.step("dead", "At −10 hit points it is dead."),
    ]
    if inputs["dying_checks"] == "counted":
        out.append(data.step("dying", "A dying fighter's checks stop when the fight ends."))
    if inputs["wounds_rule"]:
        out.append(
            data.step(
                "wounds",
                "A hit of at least the target's wound threshold gives it a wound: −1 to its AC and SR and to its own "
                "attack rolls from then on; a wound past 15 kills.",
            )
        )
    return out


__all__: Sequence[str] = ("forecast",)
