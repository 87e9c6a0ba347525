"""Validate a YAML source against its JSON Schema in `rules_data/schema/`, as located problems.

Each schema has a relative `$id` (its file name), so its `$ref`s to the shared parts
(`defs.schema.json#/$defs/id`, …) resolve the same way here (a `referencing.Registry` of the
schema folder) and in editors (relative to the schema file the `yaml-language-server` line names).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from macros.load.problems import Problem, suggest
from macros.load.yamlsource import Source

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "rules_data" / "schema"
KINDS = ("system", "rules", "tables", "rulings", "glossary", "calculators", "statblock", "presets", "encounters")

_PATTERNS = {
    "^[a-z0-9]+(-[a-z0-9]+)*$": "must be a lower-case kebab-case id (like 'attack-melee')",
    "^[a-z][a-z0-9_]*$": "must be a snake_case name (like 'attack_die')",
}


@cache
def registry() -> Registry:
    """Every schema of the folder, by its `$id` (the file name)."""
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(contents)
        resources.append((contents.get("$id", path.name), Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def validator(kind: str) -> Draft202012Validator:
    schema = registry().contents(f"{kind}.schema.json")
    return Draft202012Validator(schema, registry=registry())


def validate(source: Source, kind: str) -> list[Problem]:
    """Every schema violation of `source`, each at the line of the field it concerns."""
    problems = []
    for error in validator(kind).iter_errors(source.data):
        if error.validator == "type" and set(_listed(error.validator_value)) & {"array", "object"}:
            source.misshapen = True
        problems.extend(_located(source, error))
    return problems


def _located(source: Source, error: jsonschema.ValidationError) -> list[Problem]:
    path = tuple(error.absolute_path)
    schema: Any = error.schema
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {})) if isinstance(schema, dict) else []
        extras = [k for k in error.instance if k not in allowed]
        return [source.problem((*path, key), f"unknown field '{key}'{suggest(str(key), allowed)}") for key in extras]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [source.problem(path, f"missing required field '{missing}'")]
    if error.validator == "pattern" and error.validator_value in _PATTERNS:
        return [source.problem(path, f"{error.instance!r} {_PATTERNS[error.validator_value]}")]
    if error.validator == "type" and error.instance is None and not path:
        return [source.problem(path, "the file holds no data")]
    if error.validator == "type" and error.instance is None:
        return [source.problem(path, f"is empty; expected {_types(error.validator_value)}")]
    if schema is False or error.validator is None:
        return [source.problem(path, "is not allowed here")]
    if error.validator == "dependentRequired":
        return [source.problem(path, error.message.replace("is a dependency of", "is needed with"))]
    return [source.problem(path, error.message)]


def _listed(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _types(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)
