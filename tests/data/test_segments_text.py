"""Checks of the Segments text rules that the shared data tests do not make: the split of the
source between rules.yaml and rules-mechanics.yaml, facts that must agree with the source's own
arithmetic and lines, and the glossary terms and comparison rules the site promises."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules_data" / "segments"
SOURCE = ROOT.parent / "shared" / "sources" / "001_aab75c09f093bb2c.txt"

# Source lines that belong to the engine's file (rules-mechanics.yaml), never to rules.yaml.
MECHANICS_LINES = {*range(9, 15), 44, *range(62, 76)}

NUMBER_WORDS = {"one": 1, "single": 1, "two": 2}


def _load(name: str) -> dict[str, Any]:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def text_rules() -> dict[str, Any]:
    return _load("rules.yaml")


def _rule(text_rules: dict[str, Any], rule_id: str) -> dict[str, Any]:
    return next(r for r in text_rules["rules"] if r["id"] == rule_id)


def _fact(text_rules: dict[str, Any], rule_id: str, name: str) -> Any:
    return _rule(text_rules, rule_id)["facts"][name]["value"]


def test_text_sections_leave_the_mechanics_lines_to_the_engine_file(text_rules: dict[str, Any]) -> None:
    for section in text_rules["sections"]:
        first, last = section["lines"]
        clash = MECHANICS_LINES & set(range(first, last + 1))
        assert not clash, f"section {section['id']} takes lines {sorted(clash)} of rules-mechanics.yaml"


def test_a_round_of_segments_lasts_the_round_length(text_rules: dict[str, Any]) -> None:
    segments = _fact(text_rules, "round", "segments_per_round")
    seconds = _fact(text_rules, "round", "seconds_per_segment")
    minutes = _fact(text_rules, "round", "round_minutes")
    assert segments * seconds == minutes * 60


def test_the_round_has_as_many_steps_as_the_body_lists(text_rules: dict[str, Any]) -> None:
    rule = _rule(text_rules, "combat-round-sequence")
    listed = re.findall(r"^(\d+)\. ", rule["body"], flags=re.MULTILINE)
    assert [int(n) for n in listed] == list(range(1, rule["facts"]["steps"]["value"] + 1))


@pytest.mark.skipif(not SOURCE.exists(), reason="the shared source texts are not beside the checkout")
def test_every_nonzero_number_fact_is_written_in_its_source_lines(text_rules: dict[str, Any]) -> None:
    """A fact's number must come from the lines its rule cites, in digits or as a word ("only one
    spell"); 0 stands for "no time" and is not looked up."""
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    sections = {s["id"]: s["lines"] for s in text_rules["sections"]}
    for rule in text_rules["rules"]:
        if not rule["sources"]:
            # A rule the text is silent on (sources: []) holds only numbers of the rulings it
            # links to; those cannot be in the source, so the rule must name its ruling.
            numbers = [f for f in rule.get("facts", {}).values() if f["kind"] in {"number", "percent", "threshold"}]
            assert not numbers or "[[ruling:" in rule["body"], f"{rule['id']} cites no source and names no ruling"
            continue
        cited = "\n".join("\n".join(lines[a - 1 : b]) for a, b in (sections[s] for s in rule["sources"]))
        written = set(re.findall(r"\d+", cited))
        written |= {str(n) for word, n in NUMBER_WORDS.items() if re.search(rf"\b{word}\b", cited, re.IGNORECASE)}
        for name, fact in rule.get("facts", {}).items():
            if fact["kind"] in {"number", "percent", "threshold"} and fact["value"] != 0:
                assert str(fact["value"]) in written, (
                    f"{rule['id']}.{name} = {fact['value']} is not in its source lines"
                )


def test_the_promised_glossary_terms_exist() -> None:
    terms = {t["id"] for t in _load("glossary.yaml")["terms"]}
    promised = {
        "ac", "aac0", "hd", "enhanced-hit-dice", "segment", "round", "major-action", "minor-action",
        "immediate-action", "simple-activity", "delaying-activity", "complex-activity", "delayed",
        "high", "low", "weapon-speed", "attack-routine", "free-attack", "immediate-attack",
        "incantation", "invocation", "line-of-effect", "line-of-sight",
    }  # fmt: skip
    assert promised <= terms, f"missing glossary terms: {sorted(promised - terms)}"
