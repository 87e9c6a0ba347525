"""Time every calculator on typical inputs (its declared defaults) and limit-sized inputs (its
declared `stress` inputs), the encounter tracker's round (`calc.turns`, as calculator "turns")
and every action of a 40-combatant fight (`calc.fight_bench`, as "fight:<action>": median and
worst over a scripted fight): `python -m calc.benchmark [--json] [--repeat N] [--rounds]`
(`--rounds`: what a round of a six-combatant fight costs, in actions and dice).

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

from calc import data, evaluate, fight_bench, turn_helpers, turns
from calc.browser import evaluate_json

TARGET_TYPICAL_MS = 10
TARGET_LIMIT_MS = 50
PAGE_MAX_ROWS = 60
"""The row cap the page sends (ROW_LIMIT in docs/assets/js/calc-results.mjs)."""


def cases() -> list[tuple[str, str, str, dict[str, Any]]]:
    """(system, calculator, "typical" | "limit", inputs) for every declared calculator."""
    out = []
    for system_id in data.system_ids():
        for name, decl in data.system(system_id).calculators.items():
            out.append((system_id, name, "typical", {}))
            out.append((system_id, name, "limit", dict(decl.get("stress") or {})))
    return out


def turns_cases() -> list[tuple[str, str, list[dict[str, Any]], int]]:
    """(system, "typical" | "limit", combatants, face) for the encounter tracker's round
    (`calc.turns`: the dice, then the order): four combatants on varied faces, and the most
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
    args = parser.parse_args(argv)
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
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'system':<16}{'calculator':<12}{'case':<9}{'median ms':>10}{'min':>9}{'max':>9}{'page':>9}  target")
    for r in rows:
        target = TARGET_TYPICAL_MS if r["case"] == "typical" else TARGET_LIMIT_MS
        worst = r["max_ms"] if r["calculator"].startswith("fight:") else r["median_ms"]  # every action counts
        verdict = "ok" if max(worst, r["page_median_ms"]) < target else "SLOW"
        print(
            f"{r['system']:<16}{r['calculator']:<12}{r['case']:<9}{r['median_ms']:>10.2f}"
            f"{r['min_ms']:>9.2f}{r['max_ms']:>9.2f}{r['page_median_ms']:>9.2f}  < {target} ms {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
