"""The rules engines, one module per system: `calc.systems.<id with - as _>`.

Each module exposes `CALCULATORS` (name → function(inputs, data) → result) and `TABLES`
(generator name → function(data) → table), as CONTRIBUTING.md describes.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from calc.errors import UnknownSystem


def module(system_id: str) -> ModuleType:
    """The engine module of a system id."""
    name = system_id.replace("-", "_")
    if not name.replace("_", "").isalnum():
        raise UnknownSystem(f"unknown system '{system_id}'", "system")
    try:
        return import_module(f"calc.systems.{name}")
    except ModuleNotFoundError as err:
        if err.name == f"calc.systems.{name}":
            raise UnknownSystem(f"system '{system_id}' has no engine", "system") from None
        raise
