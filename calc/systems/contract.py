"""The engine contract: what a system's module under `calc.systems` must expose.

A system is one data folder (`rules_data/<id>/`) plus one engine module
(`calc.systems.<id with - as _>`, a module or a package) satisfying `Engine`. `calc.systems.engine()`
is the one lookup from a system id to its engine; the site build, the data checks and `evaluate()`
all go through it. Checked for every system by tests/calc/test_contract.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from calc.data import SystemData


class Calculator(Protocol):
    """`calculator(inputs, data) -> result`: `inputs` already validated against the calculator's
    declaration and filled with defaults (calc.inputs); the result is the partial result dict
    that `calc.result.complete` fills in (see CONTRIBUTING.md)."""

    def __call__(self, inputs: dict[str, Any], data: SystemData, /) -> dict[str, Any]: ...


class TableGenerator(Protocol):
    """`generator(data) -> {"columns": [...], "rows": [[...]], "caption": str | None}`."""

    def __call__(self, data: SystemData, /) -> dict[str, Any]: ...


class Engine(Protocol):
    """A system's engine module: its calculators and table generators by name (the names the
    system's calculators.yaml and tables.yaml declare)."""

    @property
    def CALCULATORS(self) -> Mapping[str, Calculator]: ...  # noqa: N802 - a module constant

    @property
    def TABLES(self) -> Mapping[str, TableGenerator]: ...  # noqa: N802 - a module constant
