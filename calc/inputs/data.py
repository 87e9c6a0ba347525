"""Read the rules data exported at build time (`calc/rules.json`, made by `python -m macros.export`
from `rules_data/`): the engines take every number from here, so no rule is typed in code."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from calc.errors import DataError, UnknownSystem
from calc.numbers import dice

DATA_FILE = "rules.json"


@cache
def load() -> dict[str, Any]:
    """The whole exported data; read once per process."""
    try:
        text = resources.files("calc").joinpath(DATA_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"calc/{DATA_FILE} is missing: run `make data` to export it from rules_data/") from None
    return json.loads(text)


def system_ids() -> list[str]:
    return list(load()["systems"])


@cache
def system(system_id: str) -> SystemData:
    systems = load()["systems"]
    if system_id not in systems:
        raise UnknownSystem(f"unknown system '{system_id}' (systems: {', '.join(systems)})", "system")
    return SystemData(systems[system_id])


class SystemData:
    """One system's exported data, with lookups that fail loudly on an unknown id."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.id: str = raw["id"]
        self.name: str = raw["name"]

    def rule(self, rule_id: str) -> dict[str, Any]:
        """{id, title, url, summary, facts, …} of a rule."""
        try:
            return self.raw["rules"][rule_id]
        except KeyError:
            raise DataError(f"{self.id}: no rule '{rule_id}' in the data") from None

    def fact(self, rule_id: str, name: str) -> Any:
        """The value of fact `name` of rule `rule_id`."""
        facts = self.rule(rule_id).get("facts", {})
        if name not in facts:
            raise DataError(f"{self.id}: rule '{rule_id}' has no fact '{name}'")
        return facts[name]

    def die_sides(self, rule_id: str, name: str) -> int:
        """The sides of a single-die fact such as `d20` or `1d10` (the one parser of die sizes)."""
        expr = dice.parse(self.fact(rule_id, name), f"{rule_id}.{name}")
        if len(expr.terms) != 1 or expr.terms[0].count != 1 or expr.modifier:
            raise DataError(f"{self.id}: fact {rule_id}.{name} must be a single die, not {expr}")
        return expr.terms[0].sides

    def table(self, table_id: str) -> list[dict[str, Any]]:
        """The rows (dicts keyed by column id) of a data table."""
        try:
            return self.raw["tables"][table_id]["rows"]
        except KeyError:
            raise DataError(f"{self.id}: no data table '{table_id}'") from None

    def table_info(self, table_id: str) -> dict[str, Any]:
        try:
            return self.raw["tables"][table_id]
        except KeyError:
            raise DataError(f"{self.id}: no table '{table_id}'") from None

    def ruling(self, ruling_id: str) -> dict[str, Any]:
        try:
            return self.raw["rulings"][ruling_id]
        except KeyError:
            raise DataError(f"{self.id}: no ruling '{ruling_id}'") from None

    def calculator(self, name: str) -> dict[str, Any]:
        return self.raw["calculators"][name]

    @property
    def calculators(self) -> dict[str, dict[str, Any]]:
        return self.raw.get("calculators", {})

    def step(self, rule_id: str, text: str) -> dict[str, str]:
        """A "why" step citing a rule (or a ruling, as `ruling:<id>`) by id."""
        if rule_id.startswith("ruling:"):
            cited = self.ruling(rule_id.removeprefix("ruling:"))
        else:
            cited = self.rule(rule_id)
        return {"rule": rule_id, "title": cited["title"], "url": cited["url"], "text": text}

    def reading_step(self, ruling_id: str, value: Any) -> dict[str, str]:
        """A "why" step for the reading of a ruling that `value` (its option's input) selects, in
        the ruling's own words from rulings.yaml ("Ruling: …" or "Other reading: …"), linked: a
        ruling's readings are written once, in the data, never again beside a calculator."""
        ruling = self.ruling(ruling_id)
        option = ruling.get("option") or {}
        if "ruling_value" in option and value == option["ruling_value"]:
            text = f"Ruling: {ruling['ruling']}"
        elif "alternative_value" in option and value == option["alternative_value"]:
            text = f"Other reading: {ruling['alternative']}"
        else:
            raise DataError(f"{self.id}: ruling '{ruling_id}' has no reading {value!r}")
        return self.step(f"ruling:{ruling_id}", text)

    def reading_steps(self, calculator: str, inputs: dict[str, Any]) -> list[dict[str, str]]:
        """The reading step (`reading_step`) of every input of `calculator` declared with `ruling:`,
        in declaration order, for the values in `inputs`: a calculator that takes a ruling's option
        cites the reading chosen because its declaration says so, not because its code lists it."""
        return [
            self.reading_step(d["ruling"], inputs[d["name"]])
            for d in self.calculator(calculator)["inputs"]
            if d.get("ruling")
        ]
