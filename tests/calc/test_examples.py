"""Every worked example kept in the data (`examples:` of a rule) is a test: its request goes
through `calc.evaluate` and each `expect` path must hold. Rulings with an option must have examples
for both readings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import calc
from macros.check import loader

CATALOG = loader.load()
EXAMPLES = [
    pytest.param(system.id, rule["id"], example, id=f"{system.id}:{rule['id']}:{example.get('title', i)}")
    for system in CATALOG.systems.values()
    for i, (rule, example) in enumerate(system.examples())
    if example.get("calculator")
]


def lookup(answer: Any, path: str) -> Any:
    """Follow a dotted path (`chances.0.p`, `order.1.names`) into an evaluate() result. A
    distribution row (`distribution.pmf.0`) also answers `p`: its exact chance, weight over the
    distribution's denominator (CONTRIBUTING.md)."""
    node = answer
    for part in path.split("."):
        if isinstance(node, dict) and "denominator" in node and part in ("pmf", "at_least"):
            total = int(node["denominator"])
            node = [{**row, "p": {"fraction": str(Fraction(int(row["weight"]), total))}} for row in node[part]]
        elif isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise AssertionError(f"the result has no '{part}' in '{path}'")
    return node


def same(actual: Any, expected: Any) -> bool:
    """Equal; a probability may be expected as its fraction ("3/4") or an exact number."""
    if isinstance(actual, dict) and "fraction" in actual and not isinstance(expected, dict):
        return Fraction(actual["fraction"]) == Fraction(str(expected))
    return actual == expected


@pytest.mark.parametrize(("system_id", "rule_id", "example"), EXAMPLES)
def test_worked_example(system_id, rule_id, example):
    answer = calc.evaluate(
        {"system": system_id, "calculator": example["calculator"], "inputs": example.get("inputs") or {}}
    )
    assert example.get("expect"), "an example with a calculator must say what it expects"
    for path, expected in example["expect"].items():
        actual = lookup(answer, path)
        assert same(actual, expected), f"{path}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("system_id", list(CATALOG.systems))
def test_rulings_with_an_option_have_examples_for_both_readings(system_id):
    system = CATALOG.system(system_id)
    readings = {(ex.get("ruling"), ex.get("reading")) for _, ex in system.examples()}
    missing = [
        f"{ruling_id} ({reading})"
        for ruling_id, ruling in system.rulings.items()
        if ruling.get("option")
        for reading in ("ruling", "alternative")
        if (ruling_id, reading) not in readings
    ]
    assert not missing, f"rulings without a worked example for a reading: {', '.join(missing)}"


@pytest.mark.parametrize("system_id", list(CATALOG.systems))
def test_ruling_examples_use_the_option_value_of_their_reading(system_id):
    """An example that claims a reading must set (or default to) that reading's option value."""
    system = CATALOG.system(system_id)
    for rule, ex in system.examples():
        ruling = system.rulings.get(ex.get("ruling") or "")
        if not ruling or not ruling.get("option") or not ex.get("calculator"):
            continue
        option = ruling["option"]
        if option["calculator"] != ex["calculator"]:
            continue
        answer = calc.evaluate({"system": system_id, "calculator": ex["calculator"], "inputs": ex.get("inputs") or {}})
        wanted = option[f"{ex['reading']}_value"]
        assert answer["inputs"][option["input"]] == wanted, f"{rule['id']}: {ex.get('title')}"
