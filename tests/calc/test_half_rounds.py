"""The scripted round's chain solved slot by slot (`calc.forecast.half_rounds`) against the whole
round multiplied out (`calc.forecast.chain.forecast`: every order walked to the round's end, then
`calc.chains.state_chain`), an independent computation of the same answers, and against the brute-force
oracle of `test_segments_forecast` for tiny fights; that the Segments engine takes it; its bound."""

from __future__ import annotations

import importlib
import random
from functools import partial

import pytest

import calc.systems.segments  # noqa: F401  (the package shadows its forecast module's name)
from calc.errors import InputError
from calc.forecast import chain, half_rounds
from calc.forecast.bench import TYPICAL
from calc.inputs import data, declared
from tests.calc import forecast_cases as cases
from tests.calc.test_segments_forecast import HERO, ORC, oracle

FORECAST = importlib.import_module("calc.systems.segments.forecast")
hero, foe = TYPICAL["segments"]
run = partial(cases.run, "segments")


def fight(party: list[dict], foes: list[dict], **extra):
    system = data.system("segments")
    values = declared.validate(system.calculator("forecast")["inputs"], {"party": party, "foes": foes, **extra})
    return FORECAST.build(values, system), values["rounds"]


def named(base: dict, n: int, prefix: str, **change) -> list[dict]:
    return [{**base, "name": f"{prefix} {i + 1}", **change} for i in range(n)]


FIGHTS = [
    pytest.param(named(hero, 2, "Hero"), named(foe, 2, "Foe"), {}, id="typical 2 against 2"),
    pytest.param(named(hero, 3, "Hero"), named(foe, 2, "Foe"), {"rounds": 6}, id="3 against 2, 6 rounds"),
    pytest.param(  # one side's slot first, the other's, or (equal speeds, a tie) both in one slot
        named(hero, 2, "Hero"), named({**foe, "weapon": "long sword"}, 2, "Foe"), {}, id="equal speeds"
    ),
    pytest.param(  # three slots a script, the first shared by every script (the tree's shared prefix)
        named(hero, 2, "Hero"), [{**foe, "name": "Beast", "routines": 2, "target_hp": 9}], {}, id="multi-attacker"
    ),
    pytest.param(  # two out healths per fighter, a "dies" mark each
        named(hero, 2, "Hero", target_hp=5), named(foe, 2, "Foe"), {"drop_at": "minus-ten"}, id="dead at -10"
    ),
    pytest.param(  # a fighter that never hurts anyone: states never left, means that never come
        [{**hero, "name": "Hero", "routine": [{"name": "Poke", "dice": "1d2", "modifier": -5, "to_hit": -20}]}],
        named(foe, 1, "Foe", target_hp=30),
        {},
        id="harmless",
    ),
]


@pytest.mark.parametrize(("party", "foes", "extra"), FIGHTS)
def test_slot_by_slot_equals_the_round_multiplied_out(party, foes, extra):
    built, rounds = fight(party, foes, **extra)
    assert half_rounds.applies(built)
    got = half_rounds.forecast(built, rounds)
    again, _ = fight(party, foes, **extra)  # a fresh fight: no cache shared between the two
    assert got == chain.forecast(again, rounds)


@pytest.mark.parametrize(
    ("party", "foes", "rounds"),
    [([HERO], [ORC], 3), ([HERO, {**HERO, "name": "Hero 2"}], [ORC], 3), ([HERO], [ORC, {**ORC, "name": "Orc 2"}], 2)],
)
def test_tiny_fights_equal_the_brute_force_oracle(party, foes, rounds):
    built, _ = fight(party, foes, rounds=rounds)
    got = half_rounds.forecast(built, rounds)
    assert [(got.party.within[k], got.foes.within[k]) for k in range(rounds)] == oracle(party, foes, rounds)


def test_a_first_round_of_its_own_is_left_to_the_whole_round():
    """Multipliers on the first round only: that round differs, so the fight is not one this
    solves (its chain is the whole round's)."""
    thief = {**hero, "name": "Thief", "multipliers": [{"source": "back stab", "factor": 2}]}
    built, _ = fight([thief], [foe], multiplier_rounds="first")
    assert built.first_differs and not half_rounds.applies(built)


def test_the_segments_engine_solves_a_fresh_round_slot_by_slot(monkeypatch):
    used = []
    solve = half_rounds.forecast
    monkeypatch.setattr(half_rounds, "forecast", lambda *a, **k: used.append(1) or solve(*a, **k))
    run(named(hero, 2, "Hero"), named(foe, 2, "Foe"))
    assert used


def test_past_the_bound_is_refused_naming_the_states():
    built, rounds = fight(named(hero, 3, "Hero"), named(foe, 3, "Foe"))
    with pytest.raises(InputError, match="more than the 50 followed exactly"):
        half_rounds.forecast(built, rounds, bound=50)


def test_packed_rows_max_equals_the_elementwise_max():
    """`Most` (the max of rows packed one exponent every WIDTH bits) against max() field by field."""
    rng = random.Random(22)
    most = half_rounds.Most(7)
    for _ in range(300):
        rows = [
            tuple(rng.randrange(0, 1 << (half_rounds.WIDTH - 1)) for _ in range(7)) for _ in range(rng.randint(1, 6))
        ]
        packed = {sum(e << (half_rounds.WIDTH * i) for i, e in enumerate(row)) for row in rows}
        got = most(packed)
        fields = [(got >> (half_rounds.WIDTH * i)) & ((1 << half_rounds.WIDTH) - 1) for i in range(7)]
        assert fields == [max(col) for col in zip(*rows, strict=True)]
    assert most(set()) == 0
