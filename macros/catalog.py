"""Load `rules_data/`: read every YAML file with its line map, schema-check it, index it by id,
and cross-check the references; the result is a `Catalog` plus every problem found.

Everything that reads the data (the checker, the export, the site) goes through `load()`, so a
problem is reported the same way everywhere: `file:LINE: field.path: message`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from macros import schema
from macros.problems import DataProblems, Problem
from macros.yamlsource import Path_, Source, read

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_IDS = ("countup", "segments", "action-points", "phases", "active-defense")
CALCULATORS = ("hit", "damage", "initiative", "round")
# A system.yaml `comparison` aspect names a rule by its id, or a ruling as `ruling:<id>`.
RULING_PREFIX = "ruling:"
# Files other than rules*.yaml: name → schema kind. A missing optional file means "none".
OPTIONAL_FILES = {"tables.yaml": "tables", "rulings.yaml": "rulings", "glossary.yaml": "glossary"}


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
    where: dict[tuple[str, str], Where] = field(default_factory=dict)
    files: list[Source] = field(default_factory=list)
    schema_ok: bool = True

    @property
    def name(self) -> str:
        return self.meta.get("name", self.id)

    @property
    def module(self) -> str:
        return self.id.replace("-", "_")

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


def load(root: Path = ROOT, *, complete: bool = False) -> Catalog:
    """Read, schema-check and cross-check `root/rules_data/`.

    `complete=True` also requires all five systems and the page stubs in `docs/`, and imports the
    table generators from `calc.systems` (the checks of a finished site rather than of work in
    progress).
    """
    from macros import crossref  # the cross-checks need the indexed catalog

    data_dir = root / "rules_data"
    problems: list[Problem] = []
    systems: dict[str, System] = {}
    folders = sorted(p for p in data_dir.iterdir() if p.is_dir() and p.name != "schema") if data_dir.is_dir() else []
    for folder in folders:
        shown = f"rules_data/{folder.name}"
        if folder.name not in SYSTEM_IDS:
            problems.append(Problem(shown, 1, "", f"unknown system folder (systems: {', '.join(SYSTEM_IDS)})"))
            continue
        system = _load_system(folder, root, problems)
        systems[system.id] = system
    if complete:
        for missing in (s for s in SYSTEM_IDS if s not in systems):
            problems.append(Problem(f"rules_data/{missing}/system.yaml", 1, "", "missing: every system needs its data"))
    catalog = Catalog(root, {s: systems[s] for s in SYSTEM_IDS if s in systems}, problems)
    located = {(p.file, p.line, p.field) for p in problems}
    for system in catalog.systems.values():
        if not all(source.usable for source in system.files):
            continue  # a file unread or of the wrong shape: its one problem is the report, not every echo
        # a field whose schema problem is reported needs no second report from the cross-checks
        found = crossref.check(system, catalog, complete=complete)
        problems.extend(p for p in found if (p.file, p.line, p.field) not in located)
    catalog.problems = sorted(set(problems))
    return catalog


def _read(path: Path, root: Path, kind: str, system: System, problems: list[Problem]) -> Source:
    source = read(path, path.relative_to(root).as_posix())
    system.files.append(source)
    problems.extend(source.problems)
    if source.problems:
        system.schema_ok = False
        return source
    found = schema.validate(source, kind)
    if found:
        system.schema_ok = False
        problems.extend(found)
    return source


def _load_system(folder: Path, root: Path, problems: list[Problem]) -> System:
    system = System(folder.name, folder)
    meta_path = folder / "system.yaml"
    if meta_path.exists():
        meta = _read(meta_path, root, "system", system, problems)
        if isinstance(meta.data, dict):
            system.meta = meta.data
            system.where[("system", system.id)] = Where(meta, ())
    else:
        problems.append(Problem(f"rules_data/{folder.name}/system.yaml", 1, "", "missing file"))
        system.schema_ok = False
    rule_files = sorted(folder.glob("rules*.yaml"), key=lambda p: (p.name != "rules.yaml", p.name))
    if not rule_files:
        problems.append(Problem(f"rules_data/{folder.name}/rules.yaml", 1, "", "missing file"))
    for path in rule_files:
        source = _read(path, root, "rules", system, problems)
        _index(system, source, "sections", "section", system.sections, problems)
        _index(system, source, "rules", "rule", system.rules, problems)
    for name, kind in OPTIONAL_FILES.items():
        if (folder / name).exists():
            source = _read(folder / name, root, kind, system, problems)
            key = {"glossary": "terms"}.get(kind, kind)
            _index(
                system,
                source,
                key,
                kind.rstrip("s") if kind != "glossary" else "term",
                {"tables": system.tables, "rulings": system.rulings, "glossary": system.terms}[kind],
                problems,
            )
    calc_path = folder / "calculators.yaml"
    if calc_path.exists():
        source = _read(calc_path, root, "calculators", system, problems)
        calcs = source.data.get("calculators") if isinstance(source.data, dict) else None
        if isinstance(calcs, dict):
            for name, calc in calcs.items():
                if isinstance(calc, dict):
                    system.calculators[name] = calc
                    system.where[("calculator", name)] = Where(source, ("calculators", name))
    else:
        problems.append(Problem(f"rules_data/{folder.name}/calculators.yaml", 1, "", "missing file"))
    for other in folder.glob("*.yaml"):
        known = other.name in OPTIONAL_FILES or other.name in ("system.yaml", "calculators.yaml")
        if not known and not other.name.startswith("rules"):
            shown = other.relative_to(root).as_posix()
            problems.append(Problem(shown, 1, "", "unknown file (see rules_data/README.md for the file names)"))
    return system


def _index(system: System, source: Source, key: str, kind: str, into: dict[str, dict], problems: list[Problem]) -> None:
    entries = source.data.get(key) if isinstance(source.data, dict) else None
    if not isinstance(entries, list):
        return
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        ident = entry["id"]
        if ident in into:
            first = system.where[(kind, ident)]
            line = first.source.line(first.path)
            problems.append(
                source.problem((key, i, "id"), f"duplicate {kind} id '{ident}' (first at {first.source.file}:{line})")
            )
            continue
        into[ident] = entry
        system.where[(kind, ident)] = Where(source, (key, i))
