"""What a system's engine module (`calc.systems.<id>`) declares, as the checks of a finished site
ask it: its `CALCULATORS` or `TABLES`, or why it cannot be had (as data, never a traceback)."""

from __future__ import annotations

from collections.abc import Mapping

from calc import systems
from macros.load.catalog import System


def engine_attr(system: System, name: str) -> dict | str:
    """The engine module's CALCULATORS or TABLES, or a message saying why it cannot be had."""
    try:
        engine = systems.engine(system.id)
    except Exception as err:  # any import failure is reported as data, not as a traceback
        return f"cannot import {system.module}: {type(err).__name__}: {err}"
    found = getattr(engine, name, None)
    if not isinstance(found, Mapping):
        return f"{system.module} has no {name} mapping"
    return dict(found)
