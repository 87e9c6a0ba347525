"""Active Defense's fight forecast: tiny fights against a brute-force oracle (initiative rolled once,
equal totals together or by Dexterity, reserves shared over the round's attacks), one against one
against the round calculator's duel, symmetry, monotonicity, the text's reserve example in a fight
(both readings), the bound."""

from __future__ import annotations

import importlib
from functools import partial

import pytest

import calc
import calc.systems.active_defense  # noqa: F401  (the package shadows its forecast module's name)
from calc.forecast import fixed_fight, fixed_order
from calc.inputs import data, declared
from tests.calc import forecast_cases as cases
from tests.calc.ad_fight_oracle import initiative_orders, oracle

FORECAST = importlib.import_module("calc.systems.active_defense.forecast")
SYSTEM = data.system("active-defense")

HERO = {"name": "Hero", "attack_skill": 3, "attack_ability": 2, "damage_dice": "1d6", "defender_dex": 1,
        "target_hp": 5}  # fmt: skip
ORC = {"name": "Orc", "attack_skill": 2, "attack_ability": 1, "damage_dice": "1d4", "defender_dex": 0, "target_hp": 4}
HARMLESS = {"name": "Dummy", "attack_skill": 0, "attack_ability": -10, "attack_modifier": -40, "damage_dice": "1d2",
            "damage_strength": -10, "defender_dex": 0, "target_hp": 12}  # fmt: skip
"""Its blows (1d2 − 10, floored at 0) never hurt, even on a natural 20."""


run = partial(cases.run, "active-defense")
chance = cases.chance
exact = partial(cases.exact, "active-defense", FORECAST, False)
full = partial(cases.full, "active-defense")


@pytest.mark.parametrize("ties", ["tied", "dexterity"])
def test_the_orders_chances_equal_rolling_every_die(ties):
    values = declared.validate(
        SYSTEM.calculator("forecast")["inputs"],
        {"party": [HERO, {**HERO, "name": "B", "defender_dex": 0}], "foes": [ORC], "initiative_ties": ties},
    )
    _, totals, split = FORECAST.build(values, SYSTEM)
    got = fixed_order.orders(totals, True, split)
    assert got == initiative_orders([1, 0, 0], ties)


@pytest.mark.parametrize(
    ("party", "foes", "extra"),
    [
        ([HERO], [ORC], {}),
        ([{**HERO, "defense": "block", "block_skill": 2, "reserves": 1}], [{**ORC, "off_hand": True}], {}),
        ([{**HERO, "defense": "dodge", "dodge_skill": 2, "reserves": 1}], [{**ORC, "off_hand": True}],
         {"spend_reserve": "each-attack"}),
        ([HERO, {**HERO, "name": "Ally", "target_hp": 2, "defender_dex": 0}], [ORC], {"initiative_ties": "dexterity"}),
        ([{**HERO, "defense": "block", "block_skill": 3, "reserves": 1}],
         [ORC, {**ORC, "name": "Orc 2", "target_hp": 2}], {}),
    ],
)  # fmt: skip
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, extra):
    rounds = 3
    got = exact(party, foes, rounds=rounds, **extra)
    want = oracle([full(f) for f in party], [full(f) for f in foes], rounds, extra)
    assert list(got.party.within) == want["party"]
    assert list(got.foes.within) == want["foes"]
    for i, marks in enumerate(got.fighters):
        assert list(marks[0].within) == want["down"][i]


def test_one_against_one_equals_the_round_calculators_duel():
    """A foe that cannot hurt: the party wins within k rounds when the round calculator's target
    (blocking with one reserve) drops within k rounds."""
    hero = {**HERO, "off_hand": True, "damage_dice": "1d8", "off_hand_dice": "1d6", "damage_strength": 2}
    foe = {**HARMLESS, "target_hp": 15, "defense": "block", "block_skill": 4, "reserves": 1, "armor": 1}
    got = exact([hero], [foe], rounds=10)
    keys = {d["name"] for d in SYSTEM.calculator("round")["inputs"]}
    asked = {k: v for k, v in full(hero).items() if k in keys and k not in FORECAST.TARGET and k != "reserves"}
    asked |= {k: v for k, v in full(foe).items() if k in FORECAST.TARGET or k in ("reserves", "target_hp")}
    answer = calc.evaluate({"system": "active-defense", "calculator": "round", "inputs": asked})
    labels = [c["label"] for c in answer["chances"]]
    assert got.party.within[0] == chance(answer, labels[0])
    assert got.party.within[9] == chance(answer, next(x for x in labels if "10 rounds" in x))


def test_two_identical_fighters_win_with_equal_chance():
    """Equal totals act together (the ruling): two identical fighters win with equal chance, and
    both may fall in one exchange."""
    a = {**HERO, "target_hp": 4}
    answer = run([a], [{**a, "name": "Twin"}], rounds=6)
    assert chance(answer, "Party wins") == chance(answer, "Foes win")
    assert chance(answer, "Both sides fall") > 0


def test_the_reserve_is_shared_over_every_attacker():
    """One reserve block against two attackers: the second attack in a round meets no block, so a
    blocking hero is hurt more by two orcs than one orc twice as tough would suggest; under the other
    reading the reserve goes to the first attack, hit or not, and the hero drops more often."""
    hero = {**HARMLESS, "name": "Hero", "target_hp": 6, "defense": "block", "block_skill": 6, "reserves": 1}
    orcs = [{**ORC, "attack_skill": 5}, {**ORC, "name": "Orc 2", "attack_skill": 5}]
    when_hit = chance(run([hero], orcs, rounds=3), "Hero drops")
    each = chance(run([hero], orcs, rounds=3, spend_reserve="each-attack"), "Hero drops")
    none = chance(run([{**hero, "reserves": 0}], orcs, rounds=3), "Hero drops")
    assert when_hit < each < none


@pytest.mark.parametrize("mid_round", [False, True])
def test_the_fixed_order_chains_keep_their_own_steps_bound(mid_round, monkeypatch):
    """The fixed-order chains count their steps in their own unit (`fixed_fight.MAX_STEPS`), not the
    rolled rounds' (`chain.MAX_STEPS`), also when the fight starts mid-round (wrapped)."""
    extra = {"order": [{"name": "Hero"}, {"name": "Orc"}], "acted": 1} if mid_round else {}
    assert run([HERO], [ORC], **extra)["chances"]
    monkeypatch.setattr(fixed_fight, "MAX_STEPS", 50)
    with pytest.raises(calc.errors.InputError) as err:
        run([HERO], [ORC], **extra)
    assert "more than 50 steps" in err.value.reason


def test_the_moves_the_solve_reads_are_bounded(monkeypatch):
    """The chain's moves (what its solve costs and holds) are counted as the states are found:
    past `chain.moves_bound` (`MAX_MOVE_BITS` over the bits of the round's weights) a refusal that
    names the bound and what to reduce, before any solve."""
    from calc.forecast import chain

    assert run([HERO], [ORC])["chances"]
    monkeypatch.setattr(chain, "MAX_MOVE_BITS", 5_000)  # 777 moves of 19 bits here: 263 kept at most
    with pytest.raises(calc.errors.InputError) as err:
        run([HERO], [ORC])
    limit = int(err.value.reason.split("more than ")[1].split(" moves")[0].replace(",", ""))
    assert limit == 5_000 // 19
    assert "moves from one state to another" in err.value.reason
    assert "try fewer fighters" in err.value.reason


def test_the_moves_kept_are_bounded_by_the_bits_of_the_rounds_weight():
    """The solve's cost grows with the moves and with the width of their weights: 55-bit weights
    keep 909,090 moves, 133-bit ones 375,939 (`chain.MAX_MOVE_BITS`, 50 million)."""
    from types import SimpleNamespace

    from calc.forecast import chain

    assert chain.moves_bound(SimpleNamespace(total=2**54)) == 50_000_000 // 55 == 909_090
    assert chain.moves_bound(SimpleNamespace(total=2**132 + 1)) == 50_000_000 // 133 == 375_939


def test_a_fixed_order_fight_is_never_refused_by_the_rolled_rounds_work_check(monkeypatch):
    """The fixed-order chains walk one order a round, their work bounded by their own checks
    (`fixed_order.MAX_WORK`): a state bound past the rolled rounds' work bound (here lowered to 10)
    must not turn into a refusal for walking "more than 0 steps"."""
    from calc.forecast import chain

    monkeypatch.setattr(chain, "MAX_WORK", 10)
    assert chance(run([HERO], [ORC]), "Party wins") > 0
