"""Shared by every test: export calc/rules.json from rules_data/ before collection, so the engines
and the tests read the data under test. Systems with data problems are left out of the export;
tests/data/ names their problems."""

from __future__ import annotations

from macros import export


def pytest_sessionstart(session) -> None:
    export.write()
