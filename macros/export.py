"""`python -m macros.export`: write `calc/rules.json`, the data the engines read (format in
CONTRIBUTING.md), from `rules_data/`.

Systems with data problems are left out and their problems printed; the command then exits 1, so
`make data` fails, but the valid systems are still exported for whoever is working on them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from macros import builtins, crossref, loader
from macros import catalog as catalog_mod
from macros.catalog import Catalog, System
from macros.crossref import resolved_options
from macros.render.prose import plain_text

OUTPUT = catalog_mod.ROOT / "calc" / "rules.json"


def rule_url(system: System, rule_id: str) -> str:
    return f"{system.id}/{system.rules[rule_id]['page']}/#{rule_id}"


def fact_value(fact: dict) -> Any:
    """A fact as its bare value (a dice fact as its text, a range as {min, max})."""
    return fact["value"]


def export_system(system: System, *, with_presets: bool = True) -> dict[str, Any]:
    """One system in the exported shape (`with_presets=False`: without the built-in presets,
    which are read through the rest of it)."""
    rules = {
        rid: {
            "id": rid,
            "title": rule["title"],
            "page": rule["page"],
            "url": rule_url(system, rid),
            "summary": rule["summary"],
            "facts": {name: fact_value(f) for name, f in (rule.get("facts") or {}).items()},
        }
        for rid, rule in system.rules.items()
    }
    tables = {}
    for tid, table in system.tables.items():
        out = {
            "id": tid,
            "title": table["title"],
            "rule": table["rule"],
            "url": f"{system.id}/{system.rules[table['rule']]['page']}/#{tid}",
        }
        for key in ("ruling", "caption", "generator", "columns", "rows"):
            if key in table:
                out[key] = table[key]
        tables[tid] = out
    rulings = {
        rid: {
            "id": rid,
            "title": r["title"],
            "url": f"{system.id}/rulings/#{rid}",
            "applies_to": r["applies_to"],
            "option": r.get("option"),
            **(
                {"ruling": plain_text(system, r["ruling"]), "alternative": plain_text(system, r.get("alternative"))}
                if r.get("option")
                else {}
            ),
        }
        for rid, r in system.rulings.items()
    }
    calculators = {}
    for name, calc in system.calculators.items():
        calculators[name] = {
            "title": calc["title"],
            "rule": calc["rule"],
            "summary": calc["summary"],
            "url": f"{system.id}/calculators/{name}/",
            "inputs": [_input(system, d) for d in calc["inputs"]],
            **({"inputs_from": calc["inputs_from"]} if "inputs_from" in calc else {}),
            "stress": calc.get("stress") or {},
            **({"stress_party": calc["stress_party"]} if "stress_party" in calc else {}),
        }
    examples = [
        {
            "rule": rule["id"],
            **{k: ex[k] for k in ("title", "calculator", "inputs", "expect", "ruling", "reading") if k in ex},
        }
        for rule, ex in system.examples()
        if "calculator" in ex
    ]
    out = {
        "id": system.id,
        "name": system.name,
        "rules": rules,
        "tables": tables,
        "rulings": rulings,
        "calculators": calculators,
        "examples": examples,
        "tracker": export_tracker(system),
        "statblock": system.extra.get("statblock"),
    }
    if with_presets:
        out["presets"] = builtins.presets(system, out)
        out["encounters"] = builtins.encounters(system, out, out["presets"])
        out["encounters_note"] = system.extra.get("encounters_note")
    return out


def export_tracker(system: System) -> dict[str, Any] | None:
    """The tracker's declaration with every input resolved to its full declaration (what the
    tracker's forms and `calc.turns.tracker` read), or None when the system declares no tracker."""
    spec = system.tracker
    if not spec:
        return None
    _, fields = crossref.tracker_fields(system)

    def resolved(ref: dict) -> dict:
        # the tracker's own label (the combatant's voice, for its card) beside the calculator's
        own = {"card_label": ref["label"]} if "label" in ref else {}
        return {**ref, **_input(system, crossref.calculator_input(system, ref) or {}), **own}

    return {
        "calculator": spec["calculator"],
        "list": spec["list"],
        "max_combatants": spec.get("max_combatants") or (crossref.tracker_fields(system)[0] or {}).get("max_items", 20),
        "inputs": [_input(system, fields[name]) for name in spec["inputs"]],
        "side": spec.get("side"),
        "rolled": spec["rolled"],
        "rule": spec["rule"],
        "health": resolved(spec["health"]),
        "defenses": [resolved(r) for r in spec["defenses"]],
        "status": [resolved(r) for r in spec.get("status") or []],
        "rulings": [resolved(r) for r in spec.get("rulings") or []],
        "states": [
            {**state, "value": system.rules[state["rule"]]["facts"][state["fact"]]["value"]}
            for state in spec.get("states") or []
        ],
        "fighter": export_fighter(system, spec["fighter"]) if spec.get("fighter") else None,
    }


def export_fighter(system: System, fighter: dict) -> dict[str, Any]:
    """The fighter block with the inputs a combatant carries resolved (`inputs`, each with the
    card's label in the combatant's own voice, `card_label`)."""
    labels = fighter.get("labels") or {}
    carried = [
        {**_input(system, d), "card_label": labels.get(d["name"]) or card_label(d.get("label", d["name"]))}
        for d in crossref.fighter_inputs(system, fighter)
    ]
    return {k: v for k, v in fighter.items() if k != "labels"} | {"inputs": carried}


SPOKEN_OF = ("Target's ", "Defender's ", "Attacker's ", "Attacker: ", "Defender: ", "Enemy's ", "Your ", "Target ")
"""How a calculator's label speaks of the target or the reader; the card speaks of the combatant."""


def card_label(label: str) -> str:
    """A calculator's label as a combatant's card says it ("Target's Armor Class" → "Armor Class")."""
    for prefix in SPOKEN_OF:
        if label.startswith(prefix):
            rest = label[len(prefix) :]
            return rest[:1].upper() + rest[1:]
    return label


def _input(system: System, decl: dict) -> dict:
    out = {k: v for k, v in decl.items() if k != "options_from"}
    if decl.get("type") == "choice":
        out["options"] = resolved_options(system, decl)
    if decl.get("type") == "list":
        out["fields"] = [_input(system, f) for f in decl["fields"]]
    return out


def exported(cat: Catalog, skip: set[str] = frozenset()) -> dict[str, Any]:
    """The whole export, versioned by a hash of its content."""
    systems = {sid: export_system(s) for sid, s in cat.systems.items() if sid not in skip}
    body = json.dumps(systems, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return {"version": hashlib.sha256(body.encode()).hexdigest()[:12], "systems": systems}


def write(output: Path = OUTPUT) -> tuple[Catalog, dict[str, Any], set[str]]:
    """Export the systems without problems to `output` (rewritten only when it changes)."""
    cat = loader.load()
    broken = {sid for sid in cat.systems if any(p.file.startswith(f"rules_data/{sid}/") for p in cat.problems)}
    data = exported(cat, broken)
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"
    if not output.exists() or output.read_text(encoding="utf-8") != text:
        output.write_text(text, encoding="utf-8")
    return cat, data, broken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    cat, data, broken = write(args.output)
    for problem in cat.problems:
        print(problem)
    shown = ", ".join(data["systems"]) or "none"
    print(f"wrote {args.output} (systems: {shown}; version {data['version']})", file=sys.stderr)
    if cat.problems:
        print(f"left out because of data problems: {', '.join(sorted(broken)) or '—'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
