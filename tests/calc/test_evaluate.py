"""evaluate(), input validation and the command line, on a tiny fake system so these tests do not
depend on any real system's data."""

import json
import sys
import types

import pytest

import calc
from calc import __main__ as cli
from calc.answers import result
from calc.answers.result import dist_probs
from calc.errors import CalcError, InputError, UnknownCalculator, UnknownSystem
from calc.inputs import data
from calc.numbers.dist import Dist

DECL = {
    "title": "Hit chance",
    "rule": "attack",
    "summary": "Chance to hit.",
    "inputs": [
        {"name": "bonus", "type": "integer", "label": "Bonus", "min": -10, "max": 10, "default": 0},
        {"name": "target", "type": "integer", "label": "Target", "min": 1, "max": 30, "default": 11},
        {"name": "mode", "type": "choice", "label": "Mode", "default": "a",
         "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
        {"name": "lucky", "type": "boolean", "label": "Lucky", "default": False},
        {"name": "dice", "type": "dice", "label": "Damage", "default": "1d8+3"},
        {"name": "people", "type": "list", "label": "People", "min_items": 1, "max_items": 3,
         "default": [{"name": "Alice", "modifier": 1}],
         "fields": [{"name": "name", "type": "text", "label": "Name", "max_length": 10, "default": "X"},
                    {"name": "modifier", "type": "integer", "label": "Mod", "min": -5, "max": 5, "default": 0}]},
    ],
}  # fmt: skip


def fake_hit(inputs, system):
    p = Dist.die(20).p_ge(inputs["target"] - inputs["bonus"])
    return {
        "summary": f"Hits {result.percent(p)}",
        "chances": [result.chance("Hit", p)],
        "distribution": result.dist_json(inputs["dice"].dist()),
        "steps": [system.step("attack", "d20 + bonus ≥ target")],
    }


@pytest.fixture
def fake(monkeypatch):
    exported = {
        "version": "test",
        "systems": {
            "fake-sys": {
                "id": "fake-sys",
                "name": "Fake",
                "rules": {"attack": {"id": "attack", "title": "Attack", "url": "fake-sys/a/#attack", "facts": {}}},
                "tables": {},
                "rulings": {},
                "calculators": {"hit": DECL},
            }
        },
    }
    module = types.ModuleType("calc.systems.fake_sys")
    module.CALCULATORS = {"hit": fake_hit}
    monkeypatch.setitem(sys.modules, "calc.systems.fake_sys", module)
    monkeypatch.setattr(data, "load", lambda: exported)
    data.system.cache_clear()
    yield
    data.system.cache_clear()


def test_defaults_fill_and_answer_is_exact(fake):
    answer = calc.evaluate({"system": "fake-sys", "calculator": "hit"})
    assert answer["chances"][0]["p"] == {"fraction": "1/2", "float": 0.5}
    assert answer["inputs"]["dice"] == "1d8+3"
    assert answer["inputs"]["people"] == [{"name": "Alice", "modifier": 1}]
    assert answer["distribution"]["min"] == 4 and answer["distribution"]["max"] == 11
    assert answer["steps"][0]["url"] == "fake-sys/a/#attack"
    assert answer["order"] is None and answer["pairwise"] is None
    total = sum(dist_probs(answer["distribution"]).values())
    assert total == 1


def test_left_out_inputs_still_take_their_default(fake):
    """Only a blank value is refused; an input not given at all (CLI option, URL key, JSON key left
    out) is the declared default, as before."""
    answer = calc.evaluate({"system": "fake-sys", "calculator": "hit", "inputs": {"bonus": 2}})
    assert answer["inputs"]["target"] == 11 and answer["inputs"]["dice"] == "1d8+3"


def test_text_inputs_are_typed(fake):
    answer = calc.evaluate(
        {"system": "fake-sys", "calculator": "hit", "inputs": {"bonus": "+5", "lucky": "yes", "people": "name=Bo"}}
    )
    assert answer["inputs"]["bonus"] == 5
    assert answer["inputs"]["lucky"] is True
    assert answer["inputs"]["people"] == [{"name": "Bo", "modifier": 0}]


@pytest.mark.parametrize(
    ("inputs", "name", "fragment"),
    [
        ({"bonus": 11}, "bonus", "between -10 and 10"),
        ({"bonus": "five"}, "bonus", "whole number"),
        ({"bonus": True}, "bonus", "whole number"),
        ({"mode": "c"}, "mode", "one of a, b"),
        ({"lucky": "maybe"}, "lucky", "true or false"),
        ({"dice": "2x6"}, "dice", "cannot read"),
        ({"people": []}, "people", "between 1 and 3"),
        ({"people": [{"name": "A" * 11}]}, "people[1].name", "at most 10 characters"),
        ({"people": [{"modifier": 9}]}, "people[1].modifier", "between -5 and 5"),
        ({"people": [{"bogus": 1}]}, "people[1].bogus", "is not a field"),
        ({"people": "[{"}, "people", "not valid JSON"),
        ({"nope": 1}, "nope", "is not an input"),
        # A blank field (cleared in the form) is never silently the default: issue 11.
        ({"target": ""}, "target", "is required — the default is 11"),
        ({"bonus": "  "}, "bonus", "is required — the default is 0"),
        ({"dice": ""}, "dice", "is required — the default is 1d8+3"),
        ({"people": [{"name": "A", "modifier": ""}]}, "people[1].modifier", "is required — the default is 0"),
    ],
)
def test_bad_inputs_name_the_input(fake, inputs, name, fragment):
    with pytest.raises(InputError) as err:
        calc.evaluate({"system": "fake-sys", "calculator": "hit", "inputs": inputs})
    assert err.value.input == name
    assert fragment in err.value.reason


def test_unknown_system_and_calculator(fake):
    with pytest.raises(UnknownSystem):
        calc.evaluate({"system": "nope", "calculator": "hit"})
    with pytest.raises(UnknownCalculator):
        calc.evaluate({"system": "fake-sys", "calculator": "nope"})
    with pytest.raises(CalcError) as err:
        calc.evaluate({"system": "fake-sys"})
    assert err.value.input == "calculator"
    assert err.value.to_json()["error"]["input"] == "calculator"


def test_cli_json_is_evaluate(fake, capsys):
    assert cli.main(["fake-sys", "hit", "--bonus", "3", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == calc.evaluate({"system": "fake-sys", "calculator": "hit", "inputs": {"bonus": 3}})


def test_cli_readable_and_errors(fake, capsys):
    assert cli.main(["fake-sys", "hit", "--lucky", "--people", "name=Al,modifier=2; name=Bo"]) == 0
    out = capsys.readouterr().out
    assert "Hit: 50.00% (1/2)" in out and "Why:" in out
    assert cli.main(["fake-sys", "hit", "--bonus", "99"]) == 2
    assert "error: bonus: must be between -10 and 10 (got 99)" in capsys.readouterr().err


def test_cli_help_lists_inputs_from_data(fake, capsys):
    with pytest.raises(SystemExit):
        cli.main(["fake-sys", "hit", "--help"])
    out = capsys.readouterr().out
    assert "--bonus" in out and "(-10 to 10)" in out and "--no-lucky" in out
