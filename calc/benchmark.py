"""Time every calculator on typical inputs (its declared defaults) and limit-sized inputs (its
declared `stress` inputs), the encounter tracker's round (`calc.turns.tracker`, as calculator "turns")
and every action of a 40-combatant fight (`calc.fight_bench`, as "fight:<action>": median and
worst over a scripted fight): `python -m calc.benchmark [--json] [--repeat N] [--rounds] [--caps]`
(`--rounds`: what a round of a six-combatant fight costs, in actions and dice; `--caps`: the
initiative calculator at its list's cap and at the tracker's); then the cost
limits of `calc.numbers.bounds` and the time each worst case (`REFUSALS`) takes to be refused.

The same function runs under Pyodide for the browser benchmark, so both report the same cases.
Each calculator case is timed twice: `evaluate` (every row of a distribution, as the command line
gets it) and `calc.browser.evaluate_json` with the page's row cap (what a reader waits for: JSON
text in and out, a long distribution cut to its most likely rows).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from calc import evaluate, fight_bench
from calc.browser import evaluate_json
from calc.inputs import data
from calc.numbers import bounds, dice
from calc.turns import helpers as turn_helpers
from calc.turns import tracker as turns

TARGET_TYPICAL_MS = 10
TARGET_LIMIT_MS = 50
TARGET_PARTY_MS = 50
TARGET_PARTY_LIMIT_MS = 300
PARTY = 4
"""The typical party: four attackers on one foe, each with the round calculator's defaults."""
TARGET_REFUSAL_MS = 2000
"""Issue 19: a request past a cost limit is refused in under 2 s (here: CPython; the browser
benchmark runs the same function under Pyodide)."""
PAGE_MAX_ROWS = 60
"""The row cap the page sends (ROW_LIMIT in docs/assets/js/calculator/calc-results.mjs)."""


REFUSALS: list[dict[str, Any]] = [
    {"name": "issue 19: countup round, 4 attacks of 50d20-50d20", "system": "countup", "calculator": "round",
     "inputs": {"attacks": 4, "dice": "50d20-50d20"}, "input": "dice"},
    {"name": "issue 19: the same, natural rolls, a 200-HP NPC", "system": "countup", "calculator": "round",
     "inputs": {"attacks": 4, "dice": "50d20-50d20", "natural_rolls": True, "target_hp": 200}, "input": "dice"},
    {"name": "countup round, 4 attacks of 100d20 at a character", "system": "countup", "calculator": "round",
     "inputs": {"attacks": 4, "dice": "100d20", "target": "character", "target_hp": 200}, "input": "dice"},
    {"name": "segments round, 2 routines of 4 x 10d100-50", "system": "segments", "calculator": "round",
     "inputs": {"routines": 2, "target_hp": 100, "drop_at": "minus-ten",
                "routine": [{"name": f"A{i}", "dice": "10d100", "modifier": -50} for i in range(4)]},
     "input": "routine[1].dice"},
    {"name": "active-defense round, two hands of 50d20-50d20", "system": "active-defense", "calculator": "round",
     "inputs": {"damage_dice": "50d20-50d20", "off_hand": True, "off_hand_dice": "50d20-50d20", "target_hp": 200},
     "input": "damage_dice"},
    {"name": "action-points round, a power attack of 2d1000, dying checks", "system": "action-points",
     "calculator": "round", "inputs": {"use_preset": False, "dice": "2d1000", "target_hp": 200, "standard": 0,
     "quick": 0, "power": 1, "dying_checks": "counted", "target_con": -5}, "input": "target_hp"},
    {"name": "issue 19: tracker, combatants nested 30,000 deep", "kind": "turns", "system": "countup",
     "text": "[" * 30_000 + "]" * 30_000, "input": "request"},  # the whole request: issue 34 names it
    {"name": "a list typed as JSON nested 100,000 deep", "system": "countup", "calculator": "initiative",
     "inputs": {"combatants": "[" * 100_000 + "]" * 100_000}, "input": "combatants"},
]  # fmt: skip
"""The worst requests found (issue 19 and the limit-seeking property of
tests/calc/test_cost_bounds.py): each must be refused (`bounds.CostError`) naming `input`, within
a fraction of the 2 s ceiling; `refusals()` times them. The tracker's case goes through the
browser's door as JSON text (the page's request), where the whole text's nesting is bounded."""


def refusal_text(case: dict[str, Any]) -> str:
    """A `REFUSALS` case as the JSON text the page sends the worker (the tracker's nesting in the
    text itself, a calculator's request with the page's row cap)."""
    if case.get("kind") == "turns":
        request = {"kind": "turns", "op": "dice", "system": case["system"], "combatants": None}
        return json.dumps(request).replace("null", case["text"])
    request = {"system": case["system"], "calculator": case["calculator"], "inputs": case["inputs"]}
    return json.dumps({**request, "max_rows": PAGE_MAX_ROWS})


def _refuse(case: dict[str, Any]) -> str:
    """Send a `REFUSALS` case as the page does and return the error's message (raises if it was
    answered)."""
    reply = json.loads(evaluate_json(refusal_text(case)))
    if "error" not in reply:
        raise AssertionError(f"{case['name']}: answered, not refused")
    error = reply["error"]
    return f"{error['input']}: {error['message']}" if error["input"] else error["message"]


def refusals(repeat: int = 3) -> list[dict[str, Any]]:
    """Median and max milliseconds to refuse each worst case, with the message."""
    rows = []
    for case in REFUSALS:
        times = _time(lambda c=case: _refuse(c), repeat)
        rows.append(
            {
                "case": case["name"],
                "median_ms": round(statistics.median(times), 3),
                "max_ms": round(max(times), 3),
                "message": _refuse(case),
            }
        )
    return rows


def limits() -> dict[str, int]:
    """The cost limits of `calc.numbers.bounds` (and the dice parser's), as the benchmark prints them."""
    return {
        "digits of an exact number": bounds.MAX_DIGITS,
        "digits of one product of distributions": bounds.MAX_PRODUCT_DIGITS,
        "states of a round chain": bounds.MAX_STATES,
        "transitions of a round chain": bounds.MAX_MOVES,
        "nesting of JSON text": bounds.MAX_JSON_DEPTH,
        "characters of JSON text": bounds.MAX_JSON_TEXT,
        "dice in an expression": dice.MAX_DICE,
        "sides of a die": dice.MAX_SIDES,
        "totals of an expression": dice.MAX_TOTALS,
    }


def cases() -> list[tuple[str, str, str, dict[str, Any]]]:
    """(system, calculator, "typical" | "limit" | "party" | "party-limit", inputs) for every declared
    calculator: its defaults, its `stress` inputs, and for a round calculator four default
    attackers and its declared `stress_party`."""
    out = []
    for system_id in data.system_ids():
        for name, decl in data.system(system_id).calculators.items():
            out.append((system_id, name, "typical", {}))
            out.append((system_id, name, "limit", dict(decl.get("stress") or {})))
            if any(d["name"] == "attackers" for d in decl["inputs"]):  # several attackers on one target
                out.append((system_id, name, "party", {"attackers": [{}] * PARTY}))
            if "stress_party" in decl:
                out.append((system_id, name, "party-limit", dict(decl["stress_party"])))
    return out


def turns_cases() -> list[tuple[str, str, list[dict[str, Any]], int]]:
    """(system, "typical" | "limit", combatants, face) for the encounter tracker's round
    (`calc.turns.tracker`: the dice, then the order): four combatants on varied faces, and the most
    combatants the tracker holds (`max_combatants`) all on the same face (every tie at once)."""
    out = []
    for system_id in data.system_ids():
        system = data.system(system_id)
        if not system.raw.get("tracker"):
            continue
        most = turn_helpers.max_combatants(system)
        few = [{"id": f"c{i}", "name": f"C{i}", "side": "pc" if i % 2 else "foe"} for i in range(4)]
        many = [{"id": f"c{i}", "name": f"C{i}", "side": "pc" if i % 2 else "foe"} for i in range(most)]
        out.append((system_id, "typical", few, 0))
        out.append((system_id, "limit", many, 1))
    return out


def _round(system_id: str, people: list[dict[str, Any]], face: int) -> None:
    """One round of the tracker: its dice, rolled (varied faces, or all `face`), and the order."""
    needed = turns.dice_needed(system_id, people, 1)
    rolls = {e["key"]: face or 1 + i % int(e["dice"].split("d")[1]) for i, e in enumerate(needed)}
    turns.turn_order(system_id, people, rolls, 1)


def _time(call: Any, repeat: int) -> list[float]:
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def caps(repeat: int = 3) -> list[dict[str, Any]]:
    """Each system's initiative calculator as its form asks it (every pair's chances, the page's
    row cap), with unrolled combatants at its list's cap (`max_items`) and at the tracker's
    (`max_combatants`), the cap raised for the measure: the data keeps the calculator's cap under
    the tracker's only where the larger one answers slowly (the comment at each `max_items`)."""
    rows = []
    for system_id in data.system_ids():
        system = data.system(system_id)
        if not system.raw.get("tracker"):
            continue
        decl = turn_helpers.list_declaration(system)
        declared = decl["max_items"]
        for n in sorted({declared, turn_helpers.max_combatants(system)}):
            request = {"system": system_id, "calculator": "initiative", "max_rows": PAGE_MAX_ROWS}
            text = json.dumps({**request, "inputs": {decl["name"]: [{"name": f"C{i}"} for i in range(n)]}})
            decl["max_items"] = max(declared, n)
            try:
                times = _time(lambda t=text: evaluate_json(t), repeat)
            finally:
                decl["max_items"] = declared
            rows.append({"system": system_id, "combatants": n, "cap": declared, "min_ms": round(min(times), 2),
                         "median_ms": round(statistics.median(times), 2)})  # fmt: skip
    return rows


def run(repeat: int = 5, only: str = "") -> list[dict[str, Any]]:
    """Median, min and max milliseconds of each case over `repeat` runs (after one warm-up);
    `only`: just the cases whose "system/calculator/case" contains that text."""
    rows = []
    timed = []
    for system_id, name, kind, inputs in cases():
        if only not in f"{system_id}/{name}/{kind}":
            continue
        request = {"system": system_id, "calculator": name, "inputs": inputs}
        text = json.dumps({**request, "max_rows": PAGE_MAX_ROWS})
        times = _time(lambda r=request: evaluate(r), repeat)
        page = _time(lambda t=text: evaluate_json(t), repeat)
        timed.append((system_id, name, kind, times, page))
    for system_id, kind, people, face in turns_cases():
        if only not in f"{system_id}/turns/{kind}":
            continue
        times = _time(lambda s=system_id, p=people, f=face: _round(s, p, f), repeat)
        timed.append((system_id, "turns", kind, times, times))  # the tracker has no row cap
    fights = fight_bench.run(min(max(1, repeat), 5), only)
    for system_id, name, kind, times, page in timed:
        rows.append(
            {
                "system": system_id,
                "calculator": name,
                "case": kind,
                "median_ms": round(statistics.median(times), 3),
                "min_ms": round(min(times), 3),
                "max_ms": round(max(times), 3),
                "page_median_ms": round(statistics.median(page), 3),
                "page_min_ms": round(min(page), 3),
            }
        )
    return rows + fights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calc.benchmark", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per case (default 7)")
    parser.add_argument("--only", default="", help='just the cases whose "system/calculator/case" contains this')
    parser.add_argument("--rounds", action="store_true", help="what a round of a six-combatant fight costs")
    parser.add_argument("--caps", action="store_true", help="the initiative calculator at its cap and the tracker's")
    args = parser.parse_args(argv)
    if args.caps:
        print(f"{'system':<16}{'combatants':>11}{'least ms':>10}{'median':>9}  calculator's cap")
        for r in caps(args.repeat):
            print(f"{r['system']:<16}{r['combatants']:>11}{r['min_ms']:>10.2f}{r['median_ms']:>9.2f}  {r['cap']}")
        return 0
    if args.rounds:
        costs = [fight_bench.per_round(s) for s in data.system_ids() if data.system(s).raw.get("tracker")]
        print(
            json.dumps(costs, indent=2)
            if args.json
            else "\n".join(
                f"{c['system']:<16}{c['actions']:>6.1f} actions{c['dice']:>6.1f} dice per round" for c in costs
            )
        )
        return 0
    rows = run(args.repeat, args.only)
    refused = [] if args.only else refusals(max(1, min(args.repeat, 3)))
    if args.json:
        print(json.dumps(rows if args.only else {"cases": rows, "refusals": refused, "limits": limits()}, indent=2))
        return 0
    print(f"{'system':<16}{'calculator':<12}{'case':<9}{'median ms':>10}{'min':>9}{'max':>9}{'page':>9}  target")
    for r in rows:
        target = {"typical": TARGET_TYPICAL_MS, "party": TARGET_PARTY_MS, "party-limit": TARGET_PARTY_LIMIT_MS}.get(
            r["case"], TARGET_LIMIT_MS
        )
        worst = r["max_ms"] if r["calculator"].startswith("fight:") else r["median_ms"]  # every action counts
        verdict = "ok" if max(worst, r["page_median_ms"]) < target else "SLOW"
        print(
            f"{r['system']:<16}{r['calculator']:<12}{r['case']:<9}{r['median_ms']:>10.2f}"
            f"{r['min_ms']:>9.2f}{r['max_ms']:>9.2f}{r['page_median_ms']:>9.2f}  < {target} ms {verdict}"
        )
    fights = fight_bench.table(rows, f"CPython {sys.version.split()[0]}")
    if fights:
        print(f"\n{fights}")
    if refused:
        print(f"\nCost limits (calc.numbers: bounds, dice): refused before the work, in < {TARGET_REFUSAL_MS} ms")
        for what, limit in limits().items():
            print(f"  {what:<42}{limit:>10,}")
        print(f"\n{'worst case refused':<58}{'median ms':>10}{'max':>9}  target")
        for r in refused:
            verdict = "ok" if r["max_ms"] < TARGET_REFUSAL_MS else "SLOW"
            print(f"{r['case']:<58}{r['median_ms']:>10.2f}{r['max_ms']:>9.2f}  < {TARGET_REFUSAL_MS} ms {verdict}")
            print(f"    {r['message'][:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
