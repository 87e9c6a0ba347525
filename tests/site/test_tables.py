"""Every generated table on the site, recomputed independently by the system's oracle
(`tests/site/oracles/<module>.py`, `ORACLES[generator](data)` → body rows) and compared cell by
cell with the rendered HTML table. Tables without an oracle are listed by an explicit xfail."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from site_html import html_tables, page_html

from calc.inputs.data import SystemData
from macros.check import loader
from macros.export import export_system
from macros.load import catalog

CATALOG = loader.load()
ORACLE_DIR = Path(__file__).parent / "oracles"
GENERATED = [
    (system, table) for system in CATALOG.systems.values() for table in system.tables.values() if "generator" in table
]


def _oracles(module: str) -> dict:
    path = ORACLE_DIR / f"{module}.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location(f"oracles_{module}", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return getattr(loaded, "ORACLES", {})


def _norm(cell: str) -> str:
    return " ".join(str(cell).replace("\N{MINUS SIGN}", "-").split())


WITH_ORACLE = [(s, t) for s, t in GENERATED if t["generator"] in _oracles(s.id.replace("-", "_"))]
WITHOUT_ORACLE = [
    f"{s.id}:{t['id']} ({t['generator']})"
    for s, t in GENERATED
    if t["generator"] not in _oracles(s.id.replace("-", "_"))
]


@pytest.mark.parametrize(("system", "table"), WITH_ORACLE, ids=[f"{s.id}:{t['id']}" for s, t in WITH_ORACLE])
def test_generated_table_matches_its_oracle(site: Path, system: catalog.System, table: dict) -> None:
    expected = _oracles(system.id.replace("-", "_"))[table["generator"]](SystemData(export_system(system)))
    page = system.rules[table["rule"]]["page"]
    rendered = html_tables(page_html(site, f"{system.id}/{page}/"))[table["id"]]
    assert len(rendered) == len(expected), "row count"
    for r, (got_row, want_row) in enumerate(zip(rendered, expected, strict=True)):
        assert [_norm(c) for c in got_row] == [_norm(c) for c in want_row], f"row {r + 1}"


def test_generated_tables_without_an_oracle() -> None:
    if WITHOUT_ORACLE:
        pytest.xfail("no oracle yet for: " + ", ".join(WITHOUT_ORACLE))


def test_static_tables_render_every_row(site: Path) -> None:
    for system in CATALOG.systems.values():
        for table in system.tables.values():
            if "rows" in table:
                page = system.rules[table["rule"]]["page"]
                assert len(html_tables(page_html(site, f"{system.id}/{page}/"))[table["id"]]) == len(table["rows"])
