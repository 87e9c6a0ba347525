"""A system's encounter tracker page: an empty container filled in the browser by
docs/assets/js/tracker/page.mjs, carrying the page's declaration as JSON in a data attribute (the same
reason as calculator blocks: Material's instant navigation would run JSON in a script element).

The declaration is the system's `tracker:` block as exported to calc/rules.json (what a combatant
carries, which inputs are defenses and which is health), flattened into the one list of fields
the page's forms need, plus the hit and round calculators' pages and input names so each
combatant can open them with its values filled in. The initiative order itself is computed by
`calc.turns.tracker` in the worker, never here and never in JavaScript."""

from __future__ import annotations

from html import escape
from typing import Any

from calc.fight.links import linked as linked_calculators
from calc.inputs.data import SystemData
from macros.render.calculator import json_attribute
from macros.render.prose import Prose, md_text, system_heading

FIELD_KEYS = ("name", "type", "label", "card_label", "help", "min", "max", "default", "options", "max_length")


def ruling_inputs(calculator: dict[str, Any]) -> list[dict[str, Any]]:
    """The initiative calculator's inputs that are a ruling's option, with the inputs their `when`
    names (action-points' team_roll needs team_initiative), in the calculator's order and with its
    labels and choices: the tracker's "Rulings" block, sent to calc.turns.tracker as `options`."""
    decls = [d for d in calculator["inputs"] if d["type"] != "list"]
    wanted = {d["name"] for d in decls if d.get("ruling")}
    wanted |= {name for d in decls if d["name"] in wanted for name in d.get("when", {})}
    return [{**_field(d), **{k: d[k] for k in ("ruling", "when") if k in d}} for d in decls if d["name"] in wanted]


def tracker_declaration(system_id: str, exported: dict[str, Any]) -> dict[str, Any] | None:
    """What the tracker page (tracker/page.mjs) reads, or None when the system declares no tracker."""
    spec = exported.get("tracker")
    if not spec:
        return None
    calculators = exported["calculators"]
    fields = [_field(decl) for decl in spec["inputs"]]
    for ref in [*spec.get("defenses", []), *spec.get("status", [])]:
        if all(f["name"] != ref["input"] for f in fields):
            fields.append({**_field({**ref, "name": ref["input"]}), "fills": True})
    health = spec["health"]
    # the calculators a card opens with the whole question (calc/fight/links.py fills them)
    links = {
        name: {
            "url": calculators[name]["url"],
            "title": calculators[name]["title"],
            "inputs": [i["name"] for i in calculators[name]["inputs"]],
        }
        for name in linked_calculators(SystemData(exported))
    }
    forecast = calculators.get("forecast")
    return {
        "system": system_id,
        "fields": fields,
        # as many combatants as the fight's initiative orders (the data's, exported)
        "max_combatants": spec["max_combatants"],
        "health": {
            "input": health["input"],
            "label": own_label(health.get("label", "Hit points").replace("current ", "")),
            "min": health.get("min", 0),
            "max": health.get("max", 100000),
            "default": health.get("default", 10),
        },
        "rolled": spec.get("rolled"),
        "rulings": _rulings(calculators[spec["calculator"]], spec.get("rulings", [])),
        # the round calculator's inputs a combatant carries as a fighter (calc/fight/fighter.py)
        "fighter": [{**_field(d), "role": d.get("role")} for d in (spec.get("fighter") or {}).get("inputs", [])],
        "states": [
            {
                **state,
                "title": exported["rules"][state["rule"]]["title"],
                "url": exported["rules"][state["rule"]]["url"],
            }
            for state in spec.get("states", [])
        ],
        "links": links,
        # the Forecast panel's calculator (tracker/forecast-panel.mjs), where the system has one
        "forecast": {"url": forecast["url"], "title": forecast["title"]} if forecast else None,
        "statblock": bool(exported.get("statblock")),
        "version": exported.get("version"),
        "builtins": exported.get("presets") or [],
    }


def _rulings(initiative: dict[str, Any], fight: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Rulings block: the initiative calculator's ruling inputs, then the fight's own (the
    `rulings:` of the `tracker:` block: how damage, Wounds and death are read), once each."""
    out = ruling_inputs(initiative)
    names = {r["name"] for r in out}
    for ref in fight:
        if ref["input"] not in names:
            names.add(ref["input"])
            out.append({**_field({**ref, "name": ref["input"]}), **{k: ref[k] for k in ("ruling", "when") if k in ref}})
    return out


def _field(decl: dict[str, Any]) -> dict[str, Any]:
    out = {k: decl[k] for k in FIELD_KEYS if k in decl}
    if "label" in out:
        out["label"] = own_label(out["label"])
    return out


def own_label(label: str) -> str:
    """A calculator's label for the target ("Target's Armor Class") as the tracker's card says it
    of the combatant itself ("Armor Class")."""
    rest = label.removeprefix("Target's ")
    return rest[:1].upper() + rest[1:]


def tracker_page(prose: Prose, exported: dict[str, Any]) -> str:
    """The tracker page of `prose.system`."""
    system = prose.system
    declaration = tracker_declaration(system.id, exported)
    parts = [
        system_heading("Encounter tracker", system.name),
        "",
        "Keep a fight at the table: combatants, each round's order by this system's own procedure "
        "(dice rolled here or typed from the table), whose turn it is, damage and conditions. "
        "Everything can be undone, stays in this browser (also offline) and can be exported.",
        "{: .cc-lead }",
        "",
    ]
    spec = exported.get("tracker")
    if spec and spec.get("rule") in system.rules:
        rule = system.rules[spec["rule"]]
        parts += [f"Initiative: [{md_text(rule['title'])}]({prose.rule_href(system, rule['id'])}).", ""]
    if declaration is None:
        parts.append(f"{md_text(system.name)} declares no tracker yet (`tracker:` in its calculators.yaml).")
        return "\n".join(parts) + "\n"
    attrs = {
        "class": "cc-tracker",
        "role": "region",
        "aria-label": "Encounter tracker",
        "data-cc-system": system.id,
    }
    attr_text = " ".join(f'{key}="{escape(str(value), quote=True)}"' for key, value in attrs.items())
    attr_text += " " + json_attribute("data-cc-tracker", declaration)
    parts += [
        f"<div {attr_text}>",
        '<p class="cc-fallback">The tracker runs in your browser and needs JavaScript; the '
        "initiative order is computed by the same Python engine as the initiative calculator.</p>",
        "</div>",
        "",
    ]
    return "\n".join(parts) + "\n"
