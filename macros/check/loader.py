"""`load()`: `rules_data/` read (`macros.load.reader`) and cross-checked (`macros.check.crossref`),
the catalog with every problem found. Everything that reads the data (the checker, the export, the
site) goes through it, so a problem is reported the same way everywhere: `file:LINE: field.path:
message`.
"""

from __future__ import annotations

from pathlib import Path

from macros.check import crossref
from macros.load.catalog import ROOT, Catalog
from macros.load.reader import read_catalog


def load(root: Path = ROOT, *, complete: bool = False) -> Catalog:
    """Read, schema-check and cross-check `root/rules_data/`. `complete=True` also requires at
    least one system and imports the engines from `calc.systems` (the checks of a finished site
    rather than of work in progress)."""
    catalog = read_catalog(root, complete=complete)
    problems = list(catalog.problems)
    located = {(p.file, p.line, p.field) for p in problems}
    for system in catalog.systems.values():
        if not all(source.usable for source in system.files):
            continue  # a file unread or of the wrong shape: its one problem is the report, not every echo
        # a field whose schema problem is reported needs no second report from the cross-checks
        found = crossref.check(system, catalog, complete=complete)
        problems.extend(p for p in found if (p.file, p.line, p.field) not in located)
    catalog.problems = sorted(set(problems))
    return catalog
