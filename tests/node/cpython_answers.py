"""CPython's answers for the Node smoke test (tests/node/smoke.mjs) to compare Pyodide's against.

Imports `calc` from the built wheel itself (a wheel is a zip, so it is importable as is): both
sides run the very same code and data. Prints JSON: [{"request", "reply", "url", "declaration"}, …] with one
request per calculator of every system at its defaults, one at its `stress` inputs, and one bad
input per system (an integer input pushed past its maximum).
Usage: python tests/node/cpython_answers.py <wheel>
"""

from __future__ import annotations

import json
import sys


def requests() -> list[dict]:
    from calc import data

    out = []
    for system_id in data.system_ids():
        system = data.system(system_id)
        bad_done = False
        for name, decl in system.calculators.items():
            out.append({"system": system_id, "calculator": name, "inputs": {}})
            if decl.get("stress"):
                out.append({"system": system_id, "calculator": name, "inputs": decl["stress"]})
            bounded = [d for d in decl["inputs"] if d["type"] == "integer" and d.get("max") is not None]
            if bounded and not bad_done:
                out.append(
                    {"system": system_id, "calculator": name, "inputs": {bounded[0]["name"]: bounded[0]["max"] + 1}}
                )
                bad_done = True
    return out


def main(wheel: str) -> None:
    sys.path.insert(0, wheel)
    from calc import data
    from calc.browser import evaluate_json

    cases = [
        {
            "request": r,
            "reply": json.loads(evaluate_json(json.dumps(r))),
            "url": data.system(r["system"]).calculator(r["calculator"]).get("url"),
            "declaration": data.system(r["system"]).calculator(r["calculator"]),
        }
        for r in requests()
    ]
    json.dump(cases, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
