"""Initiative rolled once: `fixed_fight.Rules.round_numbered` numbers a round's states and caches
each group's turns, and each state's end-of-round rolls, by those numbers; `MixedFight` caches,
per order, the chain state each numbered healths makes. A cache that handed back another entry
(another group's turns, another point's rolls, another order's state) would change a round: every
round from a warm build, after every order's round from every healths reached, must equal the same
round from a cold build (nothing cached), exactly."""

from __future__ import annotations

from importlib import import_module
from typing import Any, cast

import pytest

from calc.forecast import chain, fixed_mixture, fixed_order
from calc.inputs import data, declared

AP = import_module("calc.systems.action_points.forecast")  # the module: the package binds `forecast` to its function
AD = import_module("calc.systems.active_defense.forecast")

AD_FIGHT = {
    "party": [{"name": "Hero", "attack_skill": 3, "damage_dice": "1d6", "defense": "block", "block_skill": 2,
               "reserves": 1, "defender_dex": 1, "target_hp": 5}],
    "foes": [{"name": "Orc", "attack_skill": 2, "damage_dice": "1d4", "defender_dex": 0, "target_hp": 3},
             {"name": "Orc 2", "attack_skill": 2, "damage_dice": "1d4", "defender_dex": 2, "target_hp": 3}],
}  # fmt: skip
AP_FIGHT = {
    "party": [{"name": "Hero", "initiative": 1, "standard": 1, "quick": 0, "use_preset": False, "dice": "1d6",
               "ability": 2, "damage_bonus": 1, "defense": 12, "target_hp": 4}],
    "foes": [{"name": "Orc", "standard": 0, "quick": 1, "use_preset": False, "dice": "1d4", "ability": 1,
              "damage_bonus": 1, "defense": 11, "target_hp": 3},
             {"name": "Orc 2", "initiative": 2, "standard": 0, "quick": 1, "use_preset": False, "dice": "1d4",
              "ability": 1, "damage_bonus": 1, "defense": 11, "target_hp": 2}],
    "wounds_rule": True,
}  # fmt: skip
CASES = [(AD, "active-defense", AD_FIGHT), (AP, "action-points", AP_FIGHT)]


def built(module: Any, system: str, extra: dict[str, Any]) -> tuple[Any, ...]:
    values = declared.validate(data.system(system).calculator("forecast")["inputs"], extra)
    return module.build(values, data.system(system))


def reached(module: Any, system: str, extra: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """Every order the rolls can set and every healths the fight's one chain reaches (fight on)."""
    rules, totals, split = built(module, system, extra)
    orders = list(fixed_order.orders(totals, True, split))
    fight = fixed_mixture.MixedFight(rules, fixed_mixture.fold(dict.fromkeys(orders, 1), rules.fighters))
    states, _ = chain.explore_numbered(cast(Any, fight), 10**6)
    healths = list(dict.fromkeys(hs for _, hs in states if not rules.over(hs)))
    return orders, healths


@pytest.mark.parametrize(("module", "system", "extra"), CASES)
def test_a_warm_round_equals_a_cold_one(module, system, extra):
    orders, healths = reached(module, system, extra)
    assert len(orders) > 2 and len(healths) > 10  # enough for the caches to be read again and again
    warm = built(module, system, extra)[0]
    for order in orders:
        for hs in healths:
            warm.round(order, hs)  # every round walked once: every cache filled
    for n, (order, hs) in enumerate((o, h) for o in orders for h in healths):
        if n % 5:
            continue  # a cold build for every fifth (a build per round is the slow part)
        cold = built(module, system, extra)[0]
        assert warm.round(order, hs) == cold.round(order, hs), (order, hs)


@pytest.mark.parametrize(("module", "system", "extra"), CASES)
def test_a_round_from_standing_reserves_is_its_own(module, system, extra):
    """The round's states are numbered with the round states: one begun from other reserves left
    (mid-round) is never read from the fresh one's cache."""
    orders, healths = reached(module, system, extra)
    warm = built(module, system, extra)[0]
    standing = [0] * len(warm.fighters)
    for order in orders:
        for hs in healths[:5]:
            warm.round(order, hs)
            cold = built(module, system, extra)[0]
            assert warm.round(order, hs, standing) == cold.round(order, hs, standing)


@pytest.mark.parametrize(("module", "system", "extra"), CASES)
def test_the_mixed_chain_state_of_a_numbered_healths_is_its_orders(module, system, extra):
    """`MixedFight` keeps, per order, the state each numbered healths makes: every state's moves
    from a fight that has stepped every other state equal those of a fresh fight."""
    rules, totals, split = built(module, system, extra)
    chances = fixed_mixture.fold(fixed_order.orders(totals, True, split), rules.fighters)
    warm = fixed_mixture.MixedFight(rules, chances)
    states, _ = chain.explore_numbered(cast(Any, warm), 10**6)
    assert len({s[0] for s in states}) > 3  # several orders kept
    for n, state in enumerate(reversed(states)):
        if n % 3:
            continue
        cold_rules, _, _ = built(module, system, extra)
        cold = fixed_mixture.MixedFight(cold_rules, chances)
        assert warm.step(state) == cold.step(state), state
