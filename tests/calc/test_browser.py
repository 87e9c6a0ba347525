"""calc.browser: the JSON door the Pyodide worker calls, and its opt-in row cap."""

from __future__ import annotations

import json

from calc import evaluate
from calc.browser import CHART_BARS, evaluate_json

HEAVY = {
    "system": "action-points",
    "calculator": "damage",
    "inputs": {"use_preset": False, "dice": "20d20", "attack": "power"},
}


def test_without_max_rows_the_result_is_evaluates_own():
    assert json.loads(evaluate_json(json.dumps(HEAVY))) == {"result": evaluate(HEAVY)}


def test_max_rows_keeps_the_most_likely_rows_in_order_and_a_chart_of_the_whole_range():
    full = evaluate(HEAVY)["distribution"]
    assert len(full["pmf"]) > 40
    got = json.loads(evaluate_json(json.dumps({**HEAVY, "max_rows": 40})))["result"]["distribution"]
    assert got["rows"] == len(full["pmf"])
    assert (got["mean"], got["min"], got["max"]) == (full["mean"], full["min"], full["max"])
    xs = [row["x"] for row in got["pmf"]]
    assert len(xs) == 40 and xs == sorted(xs)
    assert [row["x"] for row in got["at_least"]] == xs
    assert got["denominator"] == full["denominator"]
    shown = min(int(row["weight"]) for row in got["pmf"])
    left_out = [row for row in full["pmf"] if row["x"] not in set(xs)]
    assert all(int(row["weight"]) <= shown for row in left_out)  # nothing more likely was dropped
    by_x = {row["x"]: row for row in full["pmf"]}
    assert all(by_x[row["x"]] == row for row in got["pmf"])  # kept rows are exact and unchanged
    at_least = {row["x"]: row for row in full["at_least"]}
    assert all(at_least[row["x"]] == row for row in got["at_least"])
    bars = got["chart"]
    assert len(bars) <= CHART_BARS
    assert bars[0]["from"] == full["min"] and bars[-1]["to"] == full["max"]
    assert abs(sum(b["p"] for b in bars) - 1) < 1e-9


def test_short_distributions_and_errors_are_untouched_by_max_rows():
    short = {"system": "action-points", "calculator": "damage", "inputs": {}}
    assert json.loads(evaluate_json(json.dumps({**short, "max_rows": 500}))) == {"result": evaluate(short)}
    bad = json.loads(evaluate_json(json.dumps({**HEAVY, "inputs": {"dice": "d"}, "max_rows": 5})))
    assert "error" in bad
