"""Every cross-check of one system, run in turn: the checks the schema cannot express, one module
for each file they read (`meta` for system.yaml, `screen` for its GM screen, `rules`, `tables`,
`rulings`, `glossary`, `calculators`, `tracker`, `builtins`). Every id a field names exists (with
the nearest known id as a suggestion), every `[[...]]` resolves, every value is one its input
takes, every cell matches its column."""

from __future__ import annotations

from macros.check import builtins, calculators, glossary, meta, rules, rulings, screen, tables, tracker
from macros.load.catalog import Catalog, System
from macros.load.problems import Problem


def check(system: System, catalog: Catalog, *, complete: bool = False) -> list[Problem]:
    """Every cross-reference problem of `system`; `complete` also asks its engine in calc/systems
    for every calculator, table generator and the tracker's `TURNS`.

    When a file broke its schema, a check that trips over the malformed entry is given up (its
    schema problem is already reported) while the other checks still run, so one run reports as
    much as it can.
    """
    out: list[Problem] = []
    checks = [
        lambda: meta.check(system, catalog, out),
        lambda: _check_gm_screen(system, out),
        lambda: rules.check(system, catalog, out),
        lambda: tables.check(system, catalog, out, complete),
        lambda: rulings.check(system, catalog, out),
        lambda: glossary.check(system, catalog, out),
        lambda: calculators.check(system, catalog, out, complete),
        lambda: tracker.check(system, out, complete),
        lambda: calculators.check_roles(system, out),
        lambda: builtins.check(system, out),
    ]
    for run in checks:
        try:
            run()
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            if system.schema_ok:
                raise
    return out


def _check_gm_screen(system: System, out: list[Problem]) -> None:
    where = system.where.get(("system", system.id))
    if where is not None:
        out.extend(screen.check(system, where))
