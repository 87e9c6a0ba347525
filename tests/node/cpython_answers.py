"""CPython's answers for the Node smoke test (tests/node/smoke.mjs) to compare Pyodide's against.

Imports `calc` from the built wheel with sources (a wheel is a zip, so it is importable as is),
the one the browser's sourceless wheel is compiled from: both sides run the same code and data.
Prints JSON: [{"request", "reply", "url", "declaration"}, …] with one
request per calculator of every system at its defaults, one at its `stress` inputs, and one bad
input per system (an integer input pushed past its maximum); then the encounter tracker's requests
(`{"kind": "turns", …}`, `turns_requests`) and pasted stat blocks (`{"kind": "statblock"}`).
Usage: python tests/node/cpython_answers.py <source wheel>. The wheel of the second package,
`calc-fight` (calc/packages.py: the forecast and the tracker's fight), beside it is unpacked with it.
"""

from __future__ import annotations

import json
import sys
import tempfile
import zipfile
from pathlib import Path


def requests() -> list[dict]:
    from calc.inputs import data

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
    return out + turns_requests() + statblock_requests()


PASTE = "Orcs (2): AC 5, HD 2+1, hp 9, 7; Dmg 1d8; MELEE: 2 claws (1d4/1d4); Str 14; XP 20"


def statblock_requests() -> list[dict]:
    """Pasted stat blocks (`calc.inputs.statblock`) per system with a grammar: printed, rolled from given
    faces, and text no field of the grammar reads."""
    from calc.inputs import data

    out: list[dict] = []
    for system_id in data.system_ids():
        if not data.system(system_id).raw.get("statblock"):
            continue
        base = {"kind": "statblock", "system": system_id, "text": PASTE}
        out += [base, {**base, "hp": "rolled", "rolls": [1, 2, 3, 4, 5, 6]}, {**base, "text": "a kind innkeeper"}]
    return out


def turns_requests() -> list[dict]:
    """The encounter tracker's requests (`calc.turns.tracker`) per system: the dice of round 1 for a PC and
    a foe at their declared defaults, the order from the highest face of each, and a bad roll."""
    from calc.inputs import data
    from calc.turns import tracker as turns

    out: list[dict] = []
    people = [{"id": "p", "name": "Hero", "side": "pc"}, {"id": "f", "name": "Foe", "side": "foe"}]
    for system_id in data.system_ids():
        if not data.system(system_id).raw.get("tracker"):
            continue
        base = {"kind": "turns", "system": system_id, "combatants": people, "round": 1}
        needed = [e for e in turns.dice_needed(system_id, people, 1) if not e["optional"]]
        rolls = {e["key"]: int(e["dice"].split("d")[1]) for e in needed}
        out.append({**base, "op": "dice"})
        out.append({**base, "op": "order", "rolls": rolls})
        out.append({**base, "op": "order", "rolls": {**rolls, needed[0]["key"]: 0}})
    return out


def unpacked(wheel: str) -> str:
    """A folder holding `wheel` and its `calc-fight` companion unpacked together: one `calc`
    package split across two zips would not import as one."""
    base = Path(wheel)
    folder = tempfile.mkdtemp(prefix="cc-wheels-")
    for each in [base, base.with_name(base.name.replace("calc-", "calc_fight-", 1))]:
        if each.is_file():
            with zipfile.ZipFile(each) as whl:
                whl.extractall(folder)
    return folder


def main(wheel: str) -> None:
    sys.path.insert(0, unpacked(wheel))
    from calc.browser import evaluate_json
    from calc.inputs import data

    cases = [
        {
            "request": r,
            "reply": json.loads(evaluate_json(json.dumps(r))),
            "url": data.system(r["system"]).calculator(r["calculator"]).get("url") if "calculator" in r else None,
            "declaration": data.system(r["system"]).calculator(r["calculator"]) if "calculator" in r else None,
        }
        for r in requests()
    ]
    json.dump(cases, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
