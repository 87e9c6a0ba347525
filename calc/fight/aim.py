"""Whom the acting combatant attacks by default in the tracker (issue #35 item 2): the one it last
attacked while that one still stands, else the first the forecast's focus fire would pick for its
side (`calc.forecast.fighters`: an enemy that still acts, by the side's `*_targets` policy), so
that Resolve is one tap on most turns.

The state keeps each attacker's last target (`last_target`: attacker id → target id), recorded
when an `attack` resolves and checked like every other field of a saved state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from calc.errors import InputError
from calc.inputs.data import SystemData

FORECAST = "forecast"
POLICY_INPUT = {"pc": "party_targets", "foe": "foes_targets"}
"""The forecast's input naming each side's targeting policy."""


def policy(data: SystemData, options: Mapping[str, Any], side: str) -> str:
    """The focus-fire order `side` follows: the fight's ruling of that name if it holds one, else
    the forecast calculator's declared default ("listed" where the system has no forecast)."""
    name = POLICY_INPUT[side]
    if name in options:
        return str(options[name])
    if FORECAST not in data.calculators:
        return "listed"
    decl = next((d for d in data.calculator(FORECAST)["inputs"] if d["name"] == name), {})
    return str(decl.get("default", "listed"))


def _standing_foes(attacker: Mapping[str, Any], targets: Sequence[Mapping[str, Any]], acts: Mapping[str, bool]) -> list:
    """The attacker's enemies that still act (down, dead and fled ones do not), those with odds first."""
    foes = [t for t in targets if t["side"] != attacker["side"] and acts.get(t["id"])]
    return sorted(foes, key=lambda t: "error" in t)


def default_target(
    fight: Mapping[str, Any],
    attacker: Mapping[str, Any],
    targets: Sequence[Mapping[str, Any]],
    acts: Mapping[str, bool],
    data: SystemData,
    options: Mapping[str, Any],
) -> str | None:
    """The id of the target preselected for `attacker` among `targets` (the odds' targets, in the
    fight's listed order), or None when it has no last target standing and no enemy stands.
    `acts`: whether each combatant still acts (stands). The forecast's "most dangerous" order
    weighs each fighter by its system's forecast; here it falls back to the listed order."""
    last = (fight.get("last_target") or {}).get(attacker["id"])
    ids = {t["id"] for t in targets}
    if last in ids and acts.get(last):
        return str(last)
    foes = _standing_foes(attacker, targets, acts)
    if not foes:
        return None
    hp = {c["id"]: c["hp"] for c in fight["combatants"]}
    if policy(data, options, attacker["side"]) == "lowest-hp":  # the forecast's order: hit points, then listed
        foes = sorted(foes, key=lambda t: ("error" in t, hp[t["id"]]))
    return str(foes[0]["id"])


def recorded(fight: dict[str, Any], attacker: str, target: str) -> dict[str, Any]:
    """The fight with `target` as `attacker`'s last target (an `attack` resolved on its own turn;
    one resolved outside a round, or out of turn, leaves the defaults as they were)."""
    turn, order = fight["turn"], fight["order"]
    if not fight["round"] or turn >= len(order) or order[turn]["id"] != attacker:
        return fight
    return {**fight, "last_target": {**(fight.get("last_target") or {}), attacker: target}}


def removed(fight: dict[str, Any], ident: str) -> dict[str, Any]:
    """The fight without combatant `ident` among the last targets (as attacker or target)."""
    kept = {a: t for a, t in (fight.get("last_target") or {}).items() if ident not in (a, t)}
    return {**fight, "last_target": kept}


def checked(raw: Any, people: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """A saved `last_target`: an object of attacker ids to target ids, each a combatant of the
    fight, none its own target."""
    if raw is None:
        return {}
    ids = {c["id"] for c in people}
    if not isinstance(raw, Mapping) or len(raw) > len(ids):
        raise InputError("last_target", "must be an object of attacker ids to the id each last attacked")
    for attacker, target in raw.items():
        if attacker not in ids or not isinstance(target, str) or target not in ids:
            raise InputError(f"last_target.{str(attacker)[:40]}", "names no combatant of the fight")
        if attacker == target:
            raise InputError(f"last_target.{attacker}", "a combatant does not attack itself")
    return dict(raw)
