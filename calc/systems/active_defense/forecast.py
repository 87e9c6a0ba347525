"""The fight forecast in Active Defense: initiative (1d20 + Dexterity modifier, highest first) is
rolled once for the encounter, so the forecast is the mixture over the orders it can set
(`calc.forecast.fixed_order`); equal totals act together (ruling) or by the higher Dexterity. Each
turn is the round calculator's: the complex action's attack (and the off hand's with two weapons),
each at its side's current target; a target holds its reserve actions to block or dodge and shares
them out over every attack against it in the round, in the order they come (the round calculator's
`attackers`), none carried over. A fighter drops at 0 hit points (ruling: the chapter has no dying)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from calc.chains.rounds import attack_damage
from calc.errors import InputError
from calc.forecast import answer, fixed_fight, fixed_order, rest_of_round
from calc.forecast.fighters import policies, targets_step
from calc.forecast.fixed_fight import Actor, Blow
from calc.forecast.inputs import each
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.active_defense import round as ad_round
from calc.systems.active_defense.round import _attack

RULINGS = ("damage_floor", "two_weapon_reading", "natural_rolls_on_defense", "defense_ties", "spend_reserve")
"""Inputs of the whole forecast that the round calculator reads for every attack."""

TARGET = ("armor", "defender_dex", "defense", "block_skill", "defender_str", "dodge_skill", "defender_modifier",
          "defender_ranged", "defender_two_weapon", "defender_light", "defender_training", "defender_mastery",
          "defender_shield")  # fmt: skip
"""A fighter's inputs read when it is the target of an attack (its reserves and hit points apart)."""


def spec(side: str, index: int, item: dict[str, Any], inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """One fighter's entry checked as the round calculator checks it, with its turn's hands."""
    merged = {**item, **{k: inputs[k] for k in RULINGS}}
    if item["critical_bonus"] and not item["critical_penalty"]:
        raise InputError("critical_bonus", "applies only to a critical attack: set a critical attack penalty too")
    hands = ad_round.hands(item)
    return {"side": side, "inputs": merged, "hands": hands}


class Hands:
    """One fighter's attacks against every enemy: each outcome (reserve spent or not, damage) as
    integer weights over one scale per hand, read from the round calculator's attack."""

    def __init__(self, me: dict[str, Any], enemies: dict[int, dict[str, Any]], data: SystemData) -> None:
        when_hit = me["inputs"]["spend_reserve"] == "when-hit"
        self.outcomes: dict[tuple[int, int, bool], list[tuple[Fraction, int, bool]]] = {}
        self.mean: dict[int, Fraction] = {}
        for h, (hand, dice_input) in enumerate(me["hands"]):
            for j, enemy in enemies.items():
                asked = {**me["inputs"], **{k: enemy["inputs"][k] for k in TARGET}}
                beats, lands, dealt, _ = _attack(ad_round.by_hand(asked, hand, dice_input), data)
                defended = enemy["inputs"]["defense"] != "none"
                self.mean[j] = self.mean.get(j, Fraction(0)) + beats * dealt.mean
                self.outcomes[(h, j, False)] = _split(Fraction(1), beats, dealt, False)
                if defended:
                    used = beats if when_hit else Fraction(1)
                    spent = _split(used, lands / used if used else Fraction(0), dealt, True)
                    self.outcomes[(h, j, True)] = spent + ([(1 - used, 0, False)] if used != 1 else [])
                else:
                    self.outcomes[(h, j, True)] = self.outcomes[(h, j, False)]
        self.scales = []
        for h in range(len(me["hands"])):
            dens = [p.denominator for (hh, _, _), outs in self.outcomes.items() if hh == h for p, _, _ in outs]
            self.scales.append(math.lcm(*dens))

    def alike(self) -> tuple[Any, ...]:
        """Everything `hit` reads (never the attacker's own health): equal for two fighters whose
        blows are the same (`fixed_fight.Actor.alike`)."""
        return tuple(self.scales), tuple((k, tuple(v)) for k, v in sorted(self.outcomes.items()))

    def hit(self, h: int, own: Any, target: Actor, health: int, left: int) -> list[tuple[int, int, int]]:
        """One attack of hand `h` at `target`, which holds `left` reserves this round."""
        out: dict[tuple[int, int], int] = {}
        for p, x, spent in self.outcomes[(h, target.defense, left > 0)]:
            key = (max(health - x, 0), left - 1 if spent else left)
            out[key] = out.get(key, 0) + int(p * self.scales[h])
        return [(w, hp, r) for (hp, r), w in out.items() if w]


def _split(p: Fraction, p_land: Fraction, dealt: Dist, spent: bool) -> list[tuple[Fraction, int, bool]]:
    """(chance, damage, a reserve spent) of one attack that takes this branch with chance `p`."""
    d = attack_damage(p_land, dealt)
    return [(p * Fraction(w, d.total), x, spent) for x, w in d.weights() if w]


def build(inputs: dict[str, Any], data: SystemData) -> tuple[fixed_fight.Rules, list[Dist], fixed_order.Split]:
    """The fight's actors, their initiative totals and how a tie among them is settled."""
    specs = each(inputs, lambda side, i, item: spec(side, i, item, inputs, data))
    for n, s in enumerate(specs):
        s["index"] = n
    sides = data.die_sides("initiative", "die")
    by_agility = inputs["initiative_ability"] == "agility"
    drops = data.fact("death-and-dying", "drops_at")
    actors, totals = [], []
    for s in specs:
        enemies = {o["index"]: o for o in specs if o["side"] != s["side"]}
        hands = Hands(s, enemies, data)
        item = s["inputs"]
        blows = tuple(Blow(hands.scales[h], partial(hands.hit, h)) for h in range(len(s["hands"])))
        initiative = Dist.die(sides) + (item["agility"] if by_agility else item["defender_dex"])
        totals.append(initiative)
        held = item["reserves"] if item["defense"] != "none" else 0
        actors.append(
            Actor(
                name=item["name"],
                side=s["side"],
                start=item["target_hp"],
                hp=item["target_hp"],
                initiative=initiative,
                danger=sum(hands.mean.values(), Fraction(0)) / len(enemies),
                states=item["target_hp"] - drops,
                out_states=1,
                blows=blows,
                out=partial(_dropped, drops),
                marks=(("drops", partial(_dropped, drops)),),
                defense=s["index"],
                fresh=partial(_held, held),
                alike=hands.alike(),
            )
        )
    if inputs["initiative_ties"] == "dexterity":
        split = fixed_order.by_key([-s["inputs"]["defender_dex"] for s in specs], fixed_order.together)
    else:
        split = fixed_order.together
    return fixed_fight.Rules(actors, policies(inputs)), totals, split


def _dropped(drops: int, hp: int) -> bool:
    return hp <= drops


def _held(reserves: int, hp: int) -> int:
    return reserves


def left(inputs: dict[str, Any]) -> tuple[int, ...] | None:
    """Each fighter's reserve actions left this round (held less `reserves_spent`), party then
    foes; None when none is spent (the rest of the round meets them fresh). Spent ones count only
    mid-round (this round's order given) and never more than the fighter holds."""
    mid = bool(inputs["order"])

    def one(side: str, index: int, item: dict[str, Any]) -> int:
        spent = item["reserves_spent"]
        if spent and not mid:
            raise InputError("reserves_spent", "counts this round's, and no order of this round is given")
        if spent > item["reserves"]:
            raise InputError("reserves_spent", f"must be at most the {item['reserves']} reserve action(s) held")
        return item["reserves"] - spent if item["defense"] != "none" else 0

    out = tuple(each(inputs, one))
    spent = any(item["reserves_spent"] for side in ("party", "foes") for item in inputs[side])
    return out if spent else None


def forecast(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    rules, totals, split = build(inputs, data)
    standing = left(inputs)
    result, orders, mid = rest_of_round.fixed_or_mixed(rules, totals, split, False, inputs, data, standing)
    if standing is not None:
        now = ", ".join(
            f"{f.name} {n} of {f.fresh(f.start)}"
            for f, n in zip(rules.fighters, standing, strict=True)
            if f.fresh(f.start)
        )
        mid.append(
            data.step(
                "reserve-actions",
                f"Mid-round: the rest of this round starts from the reserve actions left ({now}); "
                "every later round from all of them (none carry over).",
            )
        )
    return answer.answer(result, rules.fighters, steps(inputs, data, orders) + mid, data, inputs)  # type: ignore[arg-type]


def steps(inputs: dict[str, Any], data: SystemData, orders: int) -> list[dict[str, str]]:
    """Every assumption of the forecast, each with the rule (or ruling) behind it."""
    by_agility = inputs["initiative_ability"] == "agility"
    return [
        data.step(
            "initiative",
            f"Each fighter rolls 1d20 + its {'Agility score' if by_agility else 'Dexterity modifier'} once; "
            f"turns run from the highest total down, the same order every round: the forecast weighs all "
            f"{orders:,} orders.",
        ),
        data.step("initiative", "Fighters still tied act together: each of them acts, even one felled by another."),
        data.step(
            "complex-actions",
            "Each turn is the round calculator's: the complex action attacks, and with two weapons the off hand too, "
            "each attack at its side's current target as the fight stands then.",
        ),
        targets_step(data, inputs, "it drops"),
        data.step(
            "reserve-actions",
            "A fighter with a block or dodge holds its reserve actions every round and shares them out over every "
            "attack against it that round, in the order they come; none carry over.",
        ),
        data.step("ruling:round-target-drops", "A fighter drops at 0 hit points and leaves the fight (ruling)."),
    ]


__all__: Sequence[str] = ("forecast",)
