"""The real data under rules_data/: every file valid against its schema, every reference resolved,
ids unique, and every line and number of each source text covered (per system, so a failure
names the system)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from macros.check import coverage, loader
from macros.load import catalog, schema

CATALOG = loader.load(complete=True)
SOURCES = catalog.sources_dir(CATALOG.root)
SYSTEM_IDS = sorted(p.parent.name for p in (CATALOG.root / "rules_data").glob("*/system.yaml"))


def _mine(system_id: str) -> list[str]:
    return [str(p) for p in CATALOG.problems if p.file.startswith(f"rules_data/{system_id}/")]


@pytest.mark.parametrize("kind", schema.KINDS)
def test_schema_is_a_valid_json_schema(kind: str) -> None:
    Draft202012Validator.check_schema(json.loads((schema.SCHEMA_DIR / f"{kind}.schema.json").read_text()))


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_system_data_is_valid_and_references_resolve(system_id: str) -> None:
    assert system_id in CATALOG.systems, f"rules_data/{system_id}/ is missing"
    assert _mine(system_id) == []


def test_no_problem_outside_the_systems() -> None:
    assert [str(p) for p in CATALOG.problems if p.file.count("/") < 2] == []


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_ids_unique(system_id: str) -> None:
    """Read straight from the files (not the index, which keeps the first of two)."""
    system = CATALOG.systems.get(system_id)
    if system is None:
        pytest.fail(f"rules_data/{system_id}/ is missing")
    for key in ("sections", "rules", "tables", "rulings", "terms"):
        ids = [e.get("id") for s in system.files if isinstance(s.data, dict) for e in s.data.get(key) or []]
        dups = [i for i, n in Counter(ids).items() if n > 1]
        assert dups == [], f"{system_id}: duplicate {key} ids {dups}"
    anchors = Counter([*system.rules, *system.tables])
    assert [a for a, n in anchors.items() if n > 1] == [], "rule and table ids share one page's anchors"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_source_text_fully_covered(system_id: str) -> None:
    if not SOURCES.is_dir():
        pytest.skip(f"source texts not found at {SOURCES} (set CODEX_SOURCES)")
    system = CATALOG.systems.get(system_id)
    if system is None:
        pytest.fail(f"rules_data/{system_id}/ is missing")
    assert system.sections, f"{system_id} declares no sections"
    assert [str(p) for p in coverage.check(system, SOURCES)] == []


def test_shared_schema_parts_live_once_and_resolve_from_the_files_as_editors_do() -> None:
    """The per-file schemas refer to defs.schema.json instead of copying `id`/`text`/`name`/`dice`,
    and a validator that only knows file URLs (like yaml-language-server following a data file's
    `$schema=../schema/<kind>.schema.json` line) resolves them and accepts the real data."""
    from urllib.parse import urlparse

    import yaml
    from referencing import Registry, Resource

    def retrieve(uri: str) -> Resource:
        return Resource.from_contents(json.loads(Path(urlparse(uri).path).read_text()))

    for kind in schema.KINDS:
        path = schema.SCHEMA_DIR / f"{kind}.schema.json"
        text = path.read_text()
        assert "defs.schema.json#/$defs/" in text, kind
        assert not set(json.loads(text).get("$defs", {})) & {"id", "text", "name", "dice"}, kind
        contents = {**json.loads(text), "$id": path.as_uri()}  # as an editor loads it: by its URL
        validator = Draft202012Validator(contents, registry=Registry(retrieve=retrieve))
        name = {"rules": "rules.yaml", "system": "system.yaml", "calculators": "calculators.yaml"}.get(kind)
        data_file = CATALOG.root / "rules_data" / "countup" / (name or f"{kind}.yaml")
        first_lines = data_file.read_text().splitlines()[:3]
        assert f"# yaml-language-server: $schema=../schema/{kind}.schema.json" in first_lines
        assert list(validator.iter_errors(yaml.safe_load(data_file.read_text()))) == []
