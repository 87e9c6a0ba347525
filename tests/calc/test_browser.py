"""calc.browser: the JSON door the Pyodide worker calls, and its opt-in row cap."""

from __future__ import annotations

import json

import pytest

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


def every_request():
    from calc.inputs import data

    for system_id in data.system_ids():
        for name, decl in data.system(system_id).calculators.items():
            for inputs in ({}, dict(decl.get("stress") or {})):
                yield {"system": system_id, "calculator": name, "inputs": inputs}


@pytest.mark.parametrize("request_", list(every_request()), ids=lambda r: f"{r['system']}/{r['calculator']}")
def test_a_row_cap_changes_nothing_but_the_rows_sent(request_):
    """Defaults and limit inputs of every calculator: with the page's row cap the answer is
    evaluate's, except that a long distribution keeps only its most likely rows (exact, unchanged)
    plus `rows` and `chart`; a round reads its attacks' distributions uncut."""
    full = evaluate(request_)
    got = json.loads(evaluate_json(json.dumps({**request_, "max_rows": 12})))["result"]
    cut_table, table = got.pop("table"), full.pop("table")
    if table is not None and len(table["rows"]) > 12:
        assert cut_table == {
            **json.loads(json.dumps(table)),
            "rows": table["rows"][:12],
            "total_rows": len(table["rows"]),
        }
    else:
        assert cut_table == json.loads(json.dumps(table))
    pairs = [(got.pop("distribution"), full.pop("distribution"))]
    cut_attack, attack = got.pop("attack", None), full.pop("attack", None)  # a damage result's one attack
    if attack is not None:
        pairs += [(cut_attack.pop(k), attack.pop(k)) for k in ("on_hit", "per_attack")]
        assert cut_attack == json.loads(json.dumps(attack))
    assert got == json.loads(json.dumps(full))
    for d, want in pairs:
        if want is None:
            assert d is None
            continue
        for key in ("pmf", "at_least"):
            rows = {row["x"]: row for row in want[key]}
            assert all(rows[row["x"]] == row for row in d[key])
        if len(want["pmf"]) > 12:
            assert d["rows"] == len(want["pmf"]) and len(d["pmf"]) == 12
            assert min(int(r["weight"]) for r in d["pmf"]) >= max(
                int(r["weight"]) for r in want["pmf"] if r["x"] not in {k["x"] for k in d["pmf"]}
            )
        else:
            assert d == json.loads(json.dumps(want))


def test_max_rows_also_caps_the_attacks_two_distributions():
    """A damage result carries the damage of an attack that lands and of every attack (`attack`):
    both are capped like `distribution`, their exact hit chance and expected damage untouched."""
    full = evaluate(HEAVY)["attack"]
    got = json.loads(evaluate_json(json.dumps({**HEAVY, "max_rows": 40})))["result"]["attack"]
    assert (got["hit"], got["expected"]) == (full["hit"], full["expected"])
    for key in ("on_hit", "per_attack"):
        assert len(full[key]["pmf"]) > 40
        assert len(got[key]["pmf"]) == 40 and got[key]["rows"] == len(full[key]["pmf"])
        assert got[key]["mean"] == full[key]["mean"]


def test_max_rows_caps_every_table_with_its_count():
    """A result's table (active-defense damage: "Damage of at least x", one row per total) is
    cut to its first rows under the page's cap, saying how many there are; whole without it."""
    request = {"system": "active-defense", "calculator": "damage", "inputs": {"damage_dice": "30d20"}}
    full = evaluate(request)["table"]
    assert len(full["rows"]) > 500
    got = json.loads(evaluate_json(json.dumps({**request, "max_rows": 60})))["result"]["table"]
    assert got["rows"] == full["rows"][:60] and got["total_rows"] == len(full["rows"])
    assert "total_rows" not in json.loads(evaluate_json(json.dumps(request)))["result"]["table"]


def door(request: dict) -> dict:
    return json.loads(evaluate_json(json.dumps(request)))


def test_a_forms_request_leaves_out_what_does_not_apply_and_names_what_does():
    """The form sends every field (phases' typed attack target too, while the target comes from
    the ability score): the door answers as without it, and says which inputs apply."""
    form = {"system": "phases", "calculator": "hit", "inputs": {"target_source": "ability", "attack_target": "16"}}
    got = door({**form, "form": True})
    assert got["result"] == evaluate({**form, "inputs": {"target_source": "ability"}})
    assert "attack_target" not in got["applies"] and {"target_source", "ability_score"} <= set(got["applies"])
    # Without `form`, the same inputs are the contradiction calc.inputs.applies refuses (and no `applies`).
    plain = door(form)
    assert plain["error"]["input"] == "attack_target" and "applies" not in plain
    # Direct: the typed target counts, the ability score's bad text is not read.
    direct = {"target_source": "direct", "attack_target": "16", "ability_score": "x"}
    got = door({**form, "inputs": direct, "form": True})
    assert got["result"] == evaluate({**form, "inputs": {"target_source": "direct", "attack_target": 16}})
    assert "attack_target" in got["applies"] and "ability_score" not in got["applies"]


def test_a_forms_error_still_names_what_applies():
    typed = {"target_source": "direct", "attack_target": "x"}
    got = door({"system": "phases", "calculator": "hit", "inputs": typed, "form": True})
    assert got["error"]["input"] == "attack_target" and "attack_target" in got["applies"]
    unknown = door({"system": "nope", "calculator": "hit", "inputs": {}, "form": True})
    assert unknown["error"]["input"] == "system" and "applies" not in unknown


def test_a_forms_list_entries_send_only_their_own_applicable_fields():
    """Phases' round: each attacker's row has its own attack-target source; a row that takes the
    target from the ability score leaves its typed target (even a bad one) out, the other row
    counts its own, and the answer names each row's fields that apply."""
    rows = [
        {"target_source": "ability", "attack_target": "junk", "ability_score": "15", "level": "1"},
        {"target_source": "direct", "attack_target": "12", "ability_score": "junk", "level": "junk"},
    ]
    request = {"system": "phases", "calculator": "round", "inputs": {"attackers": rows}}
    got = door({**request, "form": True})
    first, second = got["cells"]["attackers"]
    assert "attack_target" not in first and {"ability_score", "level"} <= set(first)
    assert "attack_target" in second and not {"ability_score", "level"} & set(second)
    sent = [
        {"target_source": "ability", "ability_score": "15", "level": "1"},
        {"target_source": "direct", "attack_target": "12"},
    ]
    assert got["result"] == evaluate({**request, "inputs": {"attackers": sent}})
    assert "error" in door(request)  # without `form`, the hidden junk is read and refused
