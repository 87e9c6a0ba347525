"""The calculators' inputs as declared, read: a choice's options (`options_from` a table's rows),
the tracker's list and its fields, the input a tracker's `{calculator, input}` names, the inputs a
combatant carries as a fighter. Lookups only, on declarations the checks (`macros.check`) judge and
the engine view (`macros.load.engine_view`) exports; none of them reports a problem.
"""

from __future__ import annotations

from macros.load import cells
from macros.load.catalog import System


def resolved_options(system: System, decl: dict) -> list[dict]:
    """A choice's options, with `options_from` read from its table's rows."""
    if "options" in decl:
        return decl["options"]
    spec = decl["options_from"]
    table = system.tables[spec["table"]]
    label_type = next(c["type"] for c in table["columns"] if c["id"] == spec["label"])
    return [{"value": row[spec["value"]], "label": cells.text(label_type, row[spec["label"]])} for row in table["rows"]]


def tracker_fields(system: System) -> tuple[dict | None, dict[str, dict]]:
    """The tracker's initiative list input and its fields by name (None, {} when it names none)."""
    spec = system.tracker or {}
    calc = system.calculators.get(spec.get("calculator", ""))
    listed = next((d for d in (calc or {}).get("inputs", []) if d["name"] == spec.get("list")), None)
    if not listed or listed.get("type") != "list":
        return None, {}
    return listed, {f["name"]: f for f in listed["fields"]}


def calculator_input(system: System, ref: dict) -> dict | None:
    """The declaration a tracker's `{calculator, input}` names, or None."""
    calc = system.calculators.get(ref.get("calculator", ""))
    return next((d for d in (calc or {}).get("inputs", []) if d["name"] == ref.get("input")), None)


def fighter_inputs(system: System, fighter: dict) -> list[dict]:
    """The round calculator's inputs a combatant carries as a fighter: its `role: attacker` and
    `role: target` inputs and the `also:` ones, less those the fight fills itself (health, max,
    side, state, `from`) and the list of several attackers."""
    calc = system.calculators.get(fighter.get("calculator", "")) or {}
    filled = {fighter.get("health"), fighter.get("max"), (fighter.get("side") or {}).get("input"), "attackers"}
    filled |= set(fighter.get("from") or {}) | set(fighter.get("state") or {})
    also = set(fighter.get("also") or [])
    return [
        d
        for d in calc.get("inputs", [])
        if d["name"] not in filled and (d.get("role") in ("attacker", "target") or d["name"] in also)
    ]
