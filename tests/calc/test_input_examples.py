"""Every example an input error shows is made from the declaration it explains and parses back:
for every list input (and every dice input) of every calculator of every system, provoke the error,
take the example out of its message and send it back as that input: it must be answered."""

from __future__ import annotations

import re

import pytest

import calc
from calc.errors import InputError
from calc.inputs import data

INPUTS = [
    (system, name, decl)
    for system in data.system_ids()
    for name, calculator in data.system(system).calculators.items()
    for decl in calculator["inputs"]
    if decl["type"] in ("list", "dice")
]
BAD = {"list": "not an entry", "dice": 5}
EXAMPLE = {"list": re.compile(r"\(e\.g\. (.+)\)$"), "dice": re.compile(r"such as (\S+)")}


@pytest.mark.parametrize(("system", "name", "decl"), INPUTS, ids=lambda v: v["name"] if isinstance(v, dict) else v)
def test_the_example_in_an_input_error_parses_back(system: str, name: str, decl: dict) -> None:
    request = {"system": system, "calculator": name}
    with pytest.raises(InputError) as err:
        calc.evaluate({**request, "inputs": {decl["name"]: BAD[decl["type"]]}})
    assert err.value.input == decl["name"]
    found = EXAMPLE[decl["type"]].search(err.value.reason)
    assert found, f"no example in {err.value.reason!r}"
    example = found.group(1)
    if decl["type"] == "dice":
        assert example == decl["default"], "the example is the input's own default"
    answer = calc.evaluate({**request, "inputs": {decl["name"]: example}})
    if decl["type"] == "list":
        fields = {f["name"] for f in decl["fields"]}
        named = {pair.split("=")[0] for entry in example.split(";") for pair in entry.split(",")}
        assert {n.strip() for n in named} <= fields, f"{example!r} names fields {decl['name']} does not have"
        assert len(answer["inputs"][decl["name"]]) == example.count(";") + 1


def test_segments_multipliers_example_names_source_and_factor() -> None:
    """Issue 14: the example showed name=Alice,modifier=2 for fields `source` and `factor`."""
    with pytest.raises(InputError) as err:
        calc.evaluate({"system": "segments", "calculator": "damage", "inputs": {"multipliers": "back stab"}})
    assert "source=" in err.value.reason and "factor=" in err.value.reason
    assert "name=" not in err.value.reason and "modifier=" not in err.value.reason
