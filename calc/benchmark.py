"""Time every calculator on typical inputs (its declared defaults) and limit-sized inputs (its
declared `stress` inputs): `python -m calc.benchmark [--json] [--repeat N]`.

The same function runs under Pyodide for the browser benchmark, so both report the same cases.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from calc import data, evaluate

TARGET_TYPICAL_MS = 20
TARGET_LIMIT_MS = 200


def cases() -> list[tuple[str, str, str, dict[str, Any]]]:
    """(system, calculator, "typical" | "limit", inputs) for every declared calculator."""
    out = []
    for system_id in data.system_ids():
        for name, decl in data.system(system_id).calculators.items():
            out.append((system_id, name, "typical", {}))
            out.append((system_id, name, "limit", dict(decl.get("stress") or {})))
    return out


def run(repeat: int = 5) -> list[dict[str, Any]]:
    """Median, min and max milliseconds of each case over `repeat` runs (after one warm-up)."""
    rows = []
    for system_id, name, kind, inputs in cases():
        request = {"system": system_id, "calculator": name, "inputs": inputs}
        evaluate(request)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            evaluate(request)
            times.append((time.perf_counter() - start) * 1000)
        rows.append(
            {
                "system": system_id,
                "calculator": name,
                "case": kind,
                "median_ms": round(statistics.median(times), 3),
                "min_ms": round(min(times), 3),
                "max_ms": round(max(times), 3),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calc.benchmark", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per case (default 7)")
    args = parser.parse_args(argv)
    rows = run(args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'system':<16}{'calculator':<12}{'case':<9}{'median ms':>10}{'min':>9}{'max':>9}  target")
    for r in rows:
        target = TARGET_TYPICAL_MS if r["case"] == "typical" else TARGET_LIMIT_MS
        verdict = "ok" if r["median_ms"] < target else "SLOW"
        print(
            f"{r['system']:<16}{r['calculator']:<12}{r['case']:<9}{r['median_ms']:>10.2f}"
            f"{r['min_ms']:>9.2f}{r['max_ms']:>9.2f}  < {target} ms {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
