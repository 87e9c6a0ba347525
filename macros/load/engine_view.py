"""One system as the engines read it: the per-system part of `calc/rules.json` (format in
CONTRIBUTING.md), made from the catalog alone: rules with their facts' values, tables, rulings
(their texts as plain text), calculators with every choice's options resolved, examples, the
tracker's declaration resolved. The checks hand it to the engines (a stat block read by the
system's grammar, a generated table's columns); `macros.export` adds the built-in presets and
encounters read through it, and writes the file.
"""

from __future__ import annotations

from typing import Any

from macros.load.catalog import System
from macros.load.inputs import calculator_input, fighter_inputs, resolved_options, tracker_fields
from macros.load.markup import plain_text


def rule_url(system: System, rule_id: str) -> str:
    return f"{system.id}/{system.rules[rule_id]['page']}/#{rule_id}"


def fact_value(fact: dict) -> Any:
    """A fact as its bare value (a dice fact as its text, a range as {min, max})."""
    return fact["value"]


def engine_view(system: System) -> dict[str, Any]:
    """One system in the exported shape, without the built-in presets and encounters (which
    `macros.export` reads through it)."""
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
            "inputs": [input_view(system, d) for d in calc["inputs"]],
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
    return {
        "id": system.id,
        "name": system.name,
        "rules": rules,
        "tables": tables,
        "rulings": rulings,
        "calculators": calculators,
        "examples": examples,
        "tracker": tracker_view(system),
        "statblock": system.extra.get("statblock"),
    }


def tracker_view(system: System) -> dict[str, Any] | None:
    """The tracker's declaration with every input resolved to its full declaration (what the
    tracker's forms and `calc.turns.tracker` read), or None when the system declares no tracker."""
    spec = system.tracker
    if not spec:
        return None
    _, fields = tracker_fields(system)

    def resolved(ref: dict) -> dict:
        # the tracker's own label (the combatant's voice, for its card) beside the calculator's
        own = {"card_label": ref["label"]} if "label" in ref else {}
        return {**ref, **input_view(system, calculator_input(system, ref) or {}), **own}

    return {
        "calculator": spec["calculator"],
        "list": spec["list"],
        "max_combatants": spec.get("max_combatants") or (tracker_fields(system)[0] or {}).get("max_items", 20),
        "inputs": [input_view(system, fields[name]) for name in spec["inputs"]],
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
        "fighter": fighter_view(system, spec["fighter"]) if spec.get("fighter") else None,
        "fled": spec.get("fled"),  # the Fled state, where the rules name one (calc/fight/fled.py)
        "turn": spec.get("turn"),  # the turn's action economy, as declared (calc/fight/economy.py)
    }


def fighter_view(system: System, fighter: dict) -> dict[str, Any]:
    """The fighter block with the inputs a combatant carries resolved (`inputs`, each with the
    card's label in the combatant's own voice, `card_label`)."""
    labels = fighter.get("labels") or {}
    carried = [
        {**input_view(system, d), "card_label": labels.get(d["name"]) or card_label(d.get("label", d["name"]))}
        for d in fighter_inputs(system, fighter)
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


def input_view(system: System, decl: dict) -> dict:
    """An input's declaration as the engines read it: a choice's options resolved (`options_from`
    read and dropped), a list's fields likewise."""
    out = {k: v for k, v in decl.items() if k != "options_from"}
    if decl.get("type") == "choice":
        out["options"] = resolved_options(system, decl)
    if decl.get("type") == "list":
        out["fields"] = [input_view(system, f) for f in decl["fields"]]
    return out
