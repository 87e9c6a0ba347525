"""Every system's engine satisfies the contract in calc/systems/contract.py: it is found by the
one lookup `calc.systems.engine`, exposes `CALCULATORS` and `TABLES` as mappings of callables that
take `(inputs, data)` and `(data)`, and has an engine for every calculator and generator its data
declares (and nothing the data does not use). Systems are the folders of rules_data/."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

import pytest

from calc import systems
from calc.errors import UnknownSystem
from calc.fight import resolve_rules
from macros.check import loader
from macros.load import catalog

CATALOG = loader.load()
SYSTEMS = list(CATALOG.systems.values())


def _takes(function, count: int) -> bool:
    try:
        inspect.signature(function).bind(*range(count))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("system", SYSTEMS, ids=[s.id for s in SYSTEMS])
def test_engine_satisfies_the_contract(system: catalog.System) -> None:
    engine = systems.engine(system.id)
    assert isinstance(engine.CALCULATORS, Mapping) and isinstance(engine.TABLES, Mapping)
    for name, calculator in engine.CALCULATORS.items():
        assert callable(calculator) and _takes(calculator, 2), f"CALCULATORS[{name!r}] is not f(inputs, data)"
    for name, generator in engine.TABLES.items():
        assert callable(generator) and _takes(generator, 1), f"TABLES[{name!r}] is not f(data)"
    assert set(engine.CALCULATORS) == set(system.calculators)
    generators = {t["generator"] for t in system.tables.values() if "generator" in t}
    assert set(engine.TABLES) == generators


@pytest.mark.parametrize("system", SYSTEMS, ids=[s.id for s in SYSTEMS])
def test_the_tracker_is_found_through_the_engine(system: catalog.System) -> None:
    """The one lookup gives the round (`TURNS`: the system's `turns` module, which
    tools/check_types.py checks against `Turns`), the fight's rules (`FIGHT`) and the attack's
    Resolve at the table (`RESOLVE`: its `resolve` module's own `Table`, with its round's
    `hit_extra`; checked against `Resolve` by tools/check_types.py)."""
    engine = systems.engine(system.id)
    assert engine.TURNS.__name__ == f"{systems.module_name(system.id)}.turns"
    assert isinstance(engine.TURNS.ROUND_INPUTS, tuple)
    for name in ("health", "damage", "heal", "round_dice", "start_round", "acts_in", "check_extra"):
        assert callable(getattr(engine.FIGHT, name)), name
    resolve = engine.RESOLVE
    assert resolve.__module__ == f"{systems.module_name(system.id)}.resolve"
    assert isinstance(resolve, type) and issubclass(resolve, resolve_rules.Table)
    assert callable(resolve.hit_extra) and resolve.hit_extra is not resolve_rules.Table.hit_extra


def test_unknown_system_has_no_engine() -> None:
    with pytest.raises(UnknownSystem):
        systems.engine("no-such-system")
    with pytest.raises(UnknownSystem):
        systems.engine("../etc")
