"""Initiative rolled once (Action Points, Active Defense): every order followed as one chain, the
orders alike once a fighter is out merged (`fixed_mixture`), and orders that differ only by
swapping alike fighters of one side acting one after the other one chain from the start
(`fixed_order.fold`). The forecast must equal the mixture of every order's own chain, exactly;
fighters that differ in what their blows do (or whose blows read their own health) are never
folded; alike fighters with another's turn between them are never swapped (the two orders are
different fights)."""

from __future__ import annotations

from importlib import import_module
from typing import Any, cast

import pytest

from calc.forecast import chain, fixed_fight, fixed_mixture, fixed_order
from calc.inputs import data, declared

AP = import_module("calc.systems.action_points.forecast")  # the module: the package binds `forecast` to its function
AD = import_module("calc.systems.active_defense.forecast")

AP_HERO = {"name": "Hero", "initiative": 1, "standard": 1, "quick": 0, "use_preset": False, "dice": "1d6",
           "ability": 2, "damage_bonus": 1, "defense": 12, "target_hp": 4}  # fmt: skip
AP_ORC = {"name": "Orc", "standard": 0, "quick": 1, "use_preset": False, "dice": "1d4", "ability": 1,
          "damage_bonus": 1, "defense": 11, "target_hp": 5}  # fmt: skip
AD_HERO = {"name": "Hero", "attack_skill": 3, "attack_ability": 2, "damage_dice": "1d6", "defender_dex": 1,
           "target_hp": 4}  # fmt: skip
AD_ORC = {"name": "Orc", "attack_skill": 2, "attack_ability": 1, "damage_dice": "1d4", "defender_dex": 0,
          "target_hp": 6}  # fmt: skip


def built(module: Any, system: str, extra: dict[str, Any]) -> tuple[Any, ...]:
    values = declared.validate(data.system(system).calculator("forecast")["inputs"], extra)
    return module.build(values, data.system(system))


def both(module: Any, system: str, strict: bool, extra: dict[str, Any]) -> tuple[chain.Forecast, chain.Forecast]:
    """The forecast with the fold and without it, each from its own fresh build (no shared caches)."""
    out = []
    for folded in (True, False):
        rules, totals, split = built(module, system, extra)
        out.append(fixed_order.forecast(rules, totals, split, strict, 12, folded=folded)[0])
    return out[0], out[1]


def same_answers(a: chain.Forecast, b: chain.Forecast) -> None:
    assert (a.party, a.foes, a.over, a.fighters, a.sides) == (b.party, b.foes, b.over, b.fighters, b.sides)


def chains(module: Any, system: str, extra: dict[str, Any]) -> tuple[int, int]:
    """(orders, chains followed once folded)."""
    rules, totals, split = built(module, system, extra)
    every = fixed_order.orders(totals, True, split)
    return len(every), len(fixed_mixture.fold(every, rules.fighters))


AP_ALIKE = {"party": [AP_HERO, {**AP_HERO, "name": "Twin", "initiative": 0}], "foes": [AP_ORC]}
AD_ALIKE = {"party": [AD_HERO, {**AD_HERO, "name": "Twin", "defender_dex": 0}], "foes": [AD_ORC]}
AD_FOES_ALIKE = {"party": [{**AD_HERO, "target_hp": 7}],
                 "foes": [{**AD_ORC, "target_hp": 3}, {**AD_ORC, "name": "Orc 2", "target_hp": 3}]}  # fmt: skip


@pytest.mark.parametrize(
    ("module", "system", "strict", "extra"),
    [(AP, "action-points", True, AP_ALIKE), (AD, "active-defense", False, AD_ALIKE),
     (AD, "active-defense", False, AD_FOES_ALIKE)],
)  # fmt: skip
def test_alike_fighters_folded_give_the_same_answers_exactly(module, system, strict, extra):
    orders, folded = chains(module, system, extra)
    assert folded < orders  # the fold is taken…
    with_fold, without = both(module, system, strict, extra)
    same_answers(with_fold, without)  # …and changes no answer
    assert with_fold.states < without.states


@pytest.mark.parametrize(
    ("module", "system", "extra"),
    [
        (AP, "action-points", {**AP_ALIKE, "party": [AP_HERO, {**AP_HERO, "name": "Twin", "damage_bonus": 2}]}),
        (AP, "action-points", {**AP_ALIKE, "wounds_rule": True}),  # a wound changes its own attack rolls
        (AD, "active-defense", {**AD_ALIKE, "party": [AD_HERO, {**AD_HERO, "name": "Twin", "attack_skill": 4}]}),
        (AD, "active-defense", {**AD_ALIKE, "party": [AD_HERO, {**AD_HERO, "name": "Twin", "damage_dice": "1d8"}]}),
        (AD, "active-defense", {**AD_ALIKE, "party": [AD_HERO, {**AD_HERO, "name": "Twin", "damage_strength": 1}]}),
    ],
)
def test_fighters_whose_blows_differ_are_not_folded(module, system, extra):
    orders, folded = chains(module, system, extra)
    assert folded == orders


def test_orders_alike_once_a_fighter_is_out_are_followed_once():
    """No alike fighters (nothing folded), yet the mixture follows fewer states than the orders'
    own chains together: once a fighter is out, the orders that differed only in its place merge."""
    extra = {**AD_ALIKE, "party": [AD_HERO, {**AD_HERO, "name": "Other", "attack_skill": 4}]}
    orders, folded = chains(AD, "active-defense", extra)
    assert folded == orders
    mixed, apart = both(AD, "active-defense", False, extra)
    same_answers(mixed, apart)
    assert mixed.states < apart.states
    rules, totals, split = built(AD, "active-defense", extra)
    fight = fixed_mixture.MixedFight(rules, fixed_order.orders(totals, True, split))
    states = chain.explore(cast(Any, fight))
    some_out = [(o, hs) for o, hs in states if o and any(f.out(h) for f, h in zip(rules.fighters, hs, strict=True))]
    assert some_out  # the fight goes on with a fighter out…
    assert all(not rules.fighters[i].out(hs[i]) for o, hs in some_out for g in o for i in g)  # …kept without it
    with_all = {o for o, hs in some_out if len({i for g in o for i in g}) == 2}
    assert len(with_all) < folded  # fewer orders of the two left than of the three


def test_alike_fighters_with_another_turn_between_them_are_different_fights():
    """Hero (attacked first) acting before the orc and its twin after it is not the fight where the
    twin acts first: the fold must not swap them, while two adjacent turns may be."""
    rules, _, _ = built(AD, "active-defense", AD_ALIKE)

    def run(order: fixed_fight.Order) -> chain.Forecast:
        return chain.forecast(cast(Any, fixed_fight.FixedFight(rules, order)), 12)

    apart, swapped = run(((0,), (2,), (1,))), run(((1,), (2,), (0,)))
    assert apart.party != swapped.party
    assert fixed_mixture.canonical(((1,), (2,), (0,)), rules.fighters) == ((1,), (2,), (0,))
    side_by_side = run(((1,), (0,), (2,)))
    same_answers(run(((0,), (1,), (2,))), side_by_side)
    assert fixed_mixture.canonical(((1,), (0,), (2,)), rules.fighters) == ((0,), (1,), (2,))
