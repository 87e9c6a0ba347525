"""The rules engines, one module (or package) per system: `calc.systems.<id with - as _>`.

Each satisfies `calc.systems.contract.Engine` (`CALCULATORS`: name → function(inputs, data) →
result; `TABLES`: generator name → function(data) → table), as CONTRIBUTING.md describes.
`engine(system_id)` is the one lookup from a system id to its engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import cast

from calc.errors import UnknownSystem
from calc.systems.contract import Calculator, Engine, TableGenerator

__all__ = ["Calculator", "Engine", "TableGenerator", "engine", "module_name"]


def module_name(system_id: str) -> str:
    """The engine's module name of a system id: `action-points` → `calc.systems.action_points`."""
    return f"calc.systems.{system_id.replace('-', '_')}"


def engine(system_id: str) -> Engine:
    """The engine of a system id; `UnknownSystem` when there is none."""
    name = module_name(system_id)
    if not name.removeprefix("calc.systems.").replace("_", "").isalnum():
        raise UnknownSystem(f"unknown system '{system_id}'", "system")
    try:
        return cast(Engine, import_module(name))
    except ModuleNotFoundError as err:
        if err.name == name:
            raise UnknownSystem(f"system '{system_id}' has no engine", "system") from None
        raise
