"""What the tracker shows of a fight, computed from its state (never stored): the order with each
entry's hit points, state and whether the rules let it act (its reasons stay in the state's
`order[i].why`, not sent twice), whose turn it is and whose is next,
ties (and which of them act at the same time), the dice the pending round needs, each
combatant's health, and the rulings and fields the page offers."""

from __future__ import annotations

import json
from typing import Any

from calc.errors import CalcError
from calc.fight import economy, fighter, links, resolve, rounds, rulings
from calc.fight import state as st
from calc.inputs.data import SystemData
from calc.turns.helpers import max_combatants, tracker

LIMITS = {
    "name": st.NAME_MAX,
    "tag": st.TAG_MAX,
    "tags": st.MAX_TAGS,
    "health": st.HEALTH_MAX,
}
"""What the engine accepts, for the page's forms (never typed again in JS)."""

SIMULTANEOUS = {"ties": "simultaneous"}
"""The ruling under which tied entries act at the same time (phases' phase-ties): an
initiative option and its value. Elsewhere a tie is an order the table settles."""


def view(fight: dict, data: SystemData, rules: Any, options: dict) -> dict[str, Any]:
    health = {c["id"]: rules.health(c, data, options) for c in fight["combatants"]}
    by_id = {c["id"]: c for c in fight["combatants"]}
    ranks: dict[tuple[str | None, int], int] = {}
    for t in fight["order"]:
        key = (t.get("phase"), t["rank"])
        ranks[key] = ranks.get(key, 0) + 1
    at_once = all(options.get(k) == v for k, v in SIMULTANEOUS.items())
    turn = fight["turn"]
    nxt = rounds.step(fight, turn, 1, data, rules, options) if turn < len(fight["order"]) else len(fight["order"])
    order = []
    for i, t in enumerate(fight["order"]):
        c = by_id[t["id"]]
        h = health[t["id"]]
        tied = ranks[(t.get("phase"), t["rank"])] > 1
        order.append(
            {
                "id": t["id"],
                "name": c["name"],
                "side": c["side"],
                "when": t["when"],
                "rank": t["rank"],
                "phase": t.get("phase"),
                "position": i + 1,
                "hp": c["hp"],
                "max": c["max"],
                "state": h["state"],
                "state_url": h["url"],
                "acts": h["acts"],
                "current": i == turn,
                "done": i < turn,
                "tied": tied,
                "simultaneous": tied and at_once,
            }
        )
    current = fight["order"][turn]["id"] if turn < len(fight["order"]) else None
    following = fight["order"][nxt]["id"] if nxt < len(fight["order"]) else None
    pending = None
    if fight["pending"] is not None:
        dice = rounds.pending_dice(fight, data, rules, options)
        ready = all(d["optional"] or d["value"] is not None for d in dice)
        pending = {"round": fight["pending"]["round"], "dice": dice, "ready": ready}
    now = resolve.standing(fight, data, rules)  # this round's values (active-defense: reserves left)
    odds = _odds(now, data, options, health)
    return {
        "round": fight["round"],
        "turn": turn,
        "round_over": fight["round"] > 0 and turn >= len(fight["order"]),
        "current": current,
        "next": following,
        "pending": pending,
        "order": order,
        "phases": _phases(fight, data),
        "combatants": _with_links(
            [_combatant(c, health[c["id"]], rules, data, options) for c in fight["combatants"]],
            links.card_links(now, data, options, {i: h["state"] for i, h in health.items()}, links.known(odds, data)),
        ),
        "notes": fight["notes"],
        "rulings": _rulings(data, options),
        "fields": st.fields(data),
        "rolled": tracker(data)["rolled"],
        "limits": {"combatants": max_combatants(data), **LIMITS},
        "odds": odds,
        "actions": _turn_actions(fight, data, health),
    }


def _turn_actions(fight: dict, data: SystemData, health: dict) -> dict[str, Any] | None:
    """What the acting combatant may still do this turn (calc/fight/economy.py `view`)."""
    return economy.view(fight, data, {ident: h["acts"] for ident, h in health.items()})


PLANS_KEPT = 512
_PLANS: dict[str, dict[str, Any]] = {}
"""Resolve plans by system, rulings and the round request's inputs but the target's hit points:
all a plan reads (the attacker's and the target's values, the rulings), so targets alike share
one, and the actions of a turn (damage, heal, …) do not work them out again."""


def _odds(fight: dict, data: SystemData, options: dict, health: dict) -> dict[str, Any] | None:
    """The acting combatant's odds (`fighter.odds`), and for each target what its Resolve rolls
    (`resolve.plan`: the attack die, the damage dice, the defender's roll) or why it cannot;
    `die`: the default target's attack die."""
    odds = fighter.odds(fight, data, options, health)
    if not odds:
        return odds
    states = {ident: h["state"] for ident, h in health.items()}
    hp = fighter.health_input(data, str(fighter.declaration(data)["calculator"]))  # type: ignore[index]
    rulings = json.dumps(fight["options"], sort_keys=True)
    nth = economy.next_attack(fight, data)  # the turn's next attack (a quick attack rolls no damage dice)
    rulings += "" if nth is None else f"|{nth[0]['kind']}:{nth[1]}"
    for t in odds["targets"]:
        if "request" not in t:
            continue
        asked = {k: v for k, v in t["request"]["inputs"].items() if k != hp}
        key = f"{data.id}|{rulings}|{json.dumps(asked, sort_keys=True)}"
        if key not in _PLANS:
            if len(_PLANS) >= PLANS_KEPT:
                _PLANS.clear()
            try:
                _PLANS[key] = resolve.plan(fight, odds["attacker"], t["id"], data, options, states, nth)
            except CalcError as err:
                _PLANS[key] = {"error": {"input": err.input, "message": err.reason}}
        t["resolve"] = _PLANS[key]
    default = next((t for t in odds["targets"] if t["id"] == odds["target"]), None)
    odds["die"] = (default or {}).get("resolve", {}).get("die")
    return odds


def _combatant(c: dict, h: dict, rules: Any, data: SystemData, options: dict) -> dict[str, Any]:
    out = {
        "id": c["id"],
        "name": c["name"],
        "side": c["side"],
        "hp": c["hp"],
        "max": c["max"],
        "floor": rules.floor(c, data, options),
        "state": h["state"],
        "state_rule": h["rule"],
        "state_title": h["title"],
        "state_url": h["url"],
        "acts": h["acts"],
        "effects": h["effects"],
        "values": c["values"],
        "tags": c["tags"],
        "declaration": rules.declaration(c, data),  # what the card offers to declare (phases, segments)
    }
    out.update(rules.shown_extra(c, data, options))
    return out


def _with_links(shown: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each combatant with its card's calculator links (calc/fight/links.py)."""
    for c in shown:
        c["links"] = by_id[c["id"]]
    return shown


def _phases(fight: dict, data: SystemData) -> list[dict[str, Any]] | None:
    """The round's phases with the order entries (indexes) of each, for a system of phases."""
    if not any("phase" in t for t in fight["order"]):
        return None
    out: list[dict[str, Any]] = []
    for i, t in enumerate(fight["order"]):
        if not out or out[-1]["id"] != t["phase"]:
            out.append({"id": t["phase"], "entries": []})
        out[-1]["entries"].append(i)
    names = {row["id"]: row for row in data.table("phases")} if "phases" in data.raw.get("tables", {}) else {}
    for p in out:
        row = names.get(p["id"], {})
        p["n"], p["name"] = row.get("n"), row.get("name", p["id"])
    return out


def _rulings(data: SystemData, options: dict) -> list[dict[str, Any]]:
    out = []
    for d in rulings.ruling_declarations(data):
        entry = {k: d[k] for k in ("name", "label", "type", "options", "ruling", "when", "help") if k in d}
        entry["value"] = options[d["name"]]
        entry["default"] = d.get("default")
        if d.get("ruling"):
            ruling = data.ruling(d["ruling"])
            entry["url"] = ruling["url"]
            entry["title"] = ruling["title"]
        out.append(entry)
    return out
