"""The loaded rules data: a `Catalog` of `System`s, each indexed by id with where every entry was
declared. `macros/load/reader.py` fills it and `macros/check/` adds the cross-checks' problems;
this module only models it, for every stage after it to read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calc import systems
from macros.load.problems import DataProblems, Problem
from macros.load.yamlsource import Path_, Source

ROOT = Path(__file__).resolve().parents[2]
# A system.yaml `comparison` aspect names a rule by its id, or a ruling as `ruling:<id>`.
RULING_PREFIX = "ruling:"


def sources_dir(root: Path = ROOT) -> Path:
    """The source texts: `$CODEX_SOURCES`, else `../shared/sources/` beside the checkout."""
    return Path(os.environ.get("CODEX_SOURCES", root.parent / "shared" / "sources"))


@dataclass
class Where:
    """Where an entry was declared: its file and its path in that file."""

    source: Source
    path: Path_

    def problem(self, message: str, *sub: str | int, line: int | None = None) -> Problem:
        return self.source.problem((*self.path, *sub), message, line)


@dataclass
class System:
    """One system's data, merged over its files and indexed by id (in file order)."""

    id: str
    folder: Path
    meta: dict[str, Any] = field(default_factory=dict)
    sections: dict[str, dict] = field(default_factory=dict)
    rules: dict[str, dict] = field(default_factory=dict)
    tables: dict[str, dict] = field(default_factory=dict)
    rulings: dict[str, dict] = field(default_factory=dict)
    terms: dict[str, dict] = field(default_factory=dict)
    calculators: dict[str, dict] = field(default_factory=dict)
    tracker: dict | None = None
    """The encounter tracker's declaration (`tracker:` in calculators.yaml), if any."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Files read whole (`reader.WHOLE_FILES`): statblock, presets, encounters."""
    # calculator name → how many of its inputs come first from its `inputs_from` calculator
    inherited: dict[str, int] = field(default_factory=dict)
    where: dict[tuple[str, str], Where] = field(default_factory=dict)
    files: list[Source] = field(default_factory=list)
    schema_ok: bool = True

    @property
    def name(self) -> str:
        return self.meta.get("name", self.id)

    @property
    def order(self) -> int:
        """Where the system comes in menus and tables (`order` in system.yaml)."""
        order = self.meta.get("order")
        return order if isinstance(order, int) and not isinstance(order, bool) else 1_000_000

    @property
    def module(self) -> str:
        """The engine's module name (`calc.systems.<id with - as _>`)."""
        return systems.module_name(self.id)

    @property
    def pages(self) -> list[dict]:
        return [p for p in self.meta.get("pages", []) if isinstance(p, dict)]

    def page_title(self, page_id: str) -> str:
        return next((p.get("title", page_id) for p in self.pages if p.get("id") == page_id), page_id)

    def rules_on(self, page_id: str) -> list[dict]:
        return [r for r in self.rules.values() if r.get("page") == page_id]

    def tables_of(self, rule_id: str) -> list[dict]:
        return [t for t in self.tables.values() if t.get("rule") == rule_id]

    def rulings_for(self, rule_id: str) -> list[dict]:
        return [r for r in self.rulings.values() if rule_id in r.get("applies_to", [])]

    def calculators_of(self, rule_id: str) -> list[tuple[str, dict]]:
        return [(n, c) for n, c in self.calculators.items() if c.get("rule") == rule_id]

    def examples(self) -> list[tuple[dict, dict]]:
        """(rule, example) for every worked example, in file order."""
        return [(r, ex) for r in self.rules.values() for ex in r.get("examples", []) or [] if isinstance(ex, dict)]


@dataclass
class Catalog:
    """All systems found under `rules_data/`, and every problem of the data."""

    root: Path
    systems: dict[str, System]
    problems: list[Problem]

    def system(self, system_id: str) -> System:
        return self.systems[system_id]

    def raise_problems(self) -> None:
        if self.problems:
            raise DataProblems(self.problems)
