"""The browser's door into `calc`: one JSON text in, one JSON text out.

The Pyodide worker calls `evaluate_json` so that a request crosses the JS/Python boundary as a
plain string (no proxies to convert or leak), and a bad input comes back as data
(`{"error": {"input", "message", "kind"}}`) the page can show next to the field at fault, exactly
like the command line reports it.

A request may carry `"max_rows": n` (the page sends it; the command line never does): a damage
distribution longer than that is sent as its `n` most likely rows plus a coarse `chart` of the
whole range (`calc.answers.result.row_limit`: the rows left out are never written out). A shared link
such as 100d20 with a power attack has 7000+ rows of 130-digit weights (megabytes of JSON); the
page shows a few dozen of them unless the reader asks for all.

A calculator's form sends `"form": true` with every field as typed: the inputs whose `when:` does
not hold among those values are left out, and the answer (result or error) carries `"applies"`,
the names of the inputs that apply, and `"cells"`, those of each list entry's fields that apply to
it; the form shows them and no others (`calc.inputs.applies`: the one reading of `when`, the browser has
none).

`{"kind": "fight", "system", "state", "action"}` is the encounter tracker's request
(`fight_request`): the fight's new state and view after one action, by `calc.fight`.
`{"kind": "turns", …}` (`turns_request`) answers the dice a round needs, or the round's order
from its rolls, by `calc.turns.tracker` alone.
`{"kind": "forecast", "system", "state"}` (`forecast_request`) is the tracker's Forecast panel:
the system's forecast calculator asked about the fight as it stands (`calc.fight.forecast`).
`{"kind": "before", "system", "state", "attacker", "target"}` (`before_request`) is the odds card's
"drops before it acts again", every foe of the target acting before its turn on it (`calc.fight.before`).
`{"kind": "statblock", "system", "text", "hp", "rolls"}` reads pasted stat blocks into fighters
(`calc.inputs.statblock.parse`).

The fight, turns, forecast and before requests, and the `forecast` calculator, need the second
browser package, `calc-fight` (`calc.packages`): `package_needed` says so of a request's text, and
the worker loads that package before it sends the request here. `calc.fight` and `calc.turns.tracker` are
imported at their first request, never by a calculator page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from calc import evaluate, packages
from calc.answers.result import CHART_BARS, row_limit
from calc.errors import CalcError, InputError
from calc.inputs import applies, data, statblock
from calc.numbers import bounds

__all__ = [
    "CHART_BARS",
    "KINDS",
    "before_request",
    "evaluate_json",
    "fight_request",
    "forecast_request",
    "form_request",
    "package_needed",
    "statblock_request",
    "turns_request",
]


def evaluate_json(request_text: str) -> str:
    """`{"result": evaluate(request)}` or `{"error": {...}}`, as JSON text (with `"applies"` for a
    form's request)."""
    shown: dict[str, Any] = {}
    try:
        request = _request(request_text)
        kind = _kind(request)
        if kind:
            handler, _package = KINDS[kind]
            return json.dumps({"result": handler(request)})
        max_rows = request.pop("max_rows", None) if isinstance(request, dict) else None
        if not (isinstance(max_rows, int) and not isinstance(max_rows, bool) and max_rows > 0):
            max_rows = None
        if isinstance(request, dict) and request.pop("form", False) is True:
            request, shown = form_request(request)
        with row_limit(max_rows):
            result = evaluate(request)
        return json.dumps({"result": result, **shown})
    except CalcError as err:
        return json.dumps({**err.to_json(), **shown})


def _request(request_text: Any) -> Any:
    """The request read from its JSON text, its nesting bounded before it is read; a text that
    is no JSON (or no text) is an error naming the request."""
    if not isinstance(request_text, str):
        raise InputError("request", f"must be JSON text (got {type(request_text).__name__})")
    return bounds.loads(request_text, "request", bounds.MAX_REQUEST_TEXT)


def package_needed(request_text: str) -> str:
    """The package (`calc.packages.PACKAGES`) a request's JSON text needs beyond `calc`, or `calc`:
    the worker loads it first. A text that does not parse needs `calc` only (it is refused there)."""
    try:
        request = _request(request_text)
    except CalcError:
        return packages.BASE
    kind = _kind(request)
    if kind:
        return KINDS[kind][1]
    if isinstance(request, dict) and request.get("calculator") in packages.FIGHT_CALCULATORS:
        return packages.FIGHT
    return packages.BASE


def _kind(request: Any) -> str | None:
    """The request's `kind` when it is one of `KINDS` (else a calculator request, or refused)."""
    kind = request.get("kind") if isinstance(request, dict) else None
    return kind if isinstance(kind, str) and kind in KINDS else None


def fight() -> Any:
    """`calc.fight`, imported at the first tracker request (it is in `calc-fight`)."""
    return import_module("calc.fight")


def turns() -> Any:
    """`calc.turns.tracker`, imported at the tracker's first turns request (it is in `calc-fight`)."""
    return import_module("calc.turns.tracker")


def form_request(request: dict) -> tuple[dict, dict[str, Any]]:
    """A form's calculator request without the inputs (and list entries' fields) that do not
    apply, and `{"applies": names, "cells": {list: [names per entry]}}`; a request naming no known
    calculator is left whole, for `evaluate` to refuse."""
    system_id, name, raw = request.get("system"), request.get("calculator"), request.get("inputs", {})
    try:
        declarations = data.system(system_id).calculator(name)["inputs"]
    except (CalcError, KeyError, TypeError):
        return request, {}
    if not isinstance(raw, Mapping):
        return request, {}
    kept, shown = applies.only_applicable(declarations, raw)
    return {**request, "inputs": kept}, shown


def _system_of(request: dict, keys: set[str], kind: str) -> str:
    """The system a request of `kind` names, once its keys are all known ones."""
    unknown = sorted(set(request) - keys)
    if unknown:
        raise InputError(unknown[0], f"is not part of a {kind} request ({', '.join(sorted(keys))})")
    system_id = request.get("system")
    if not isinstance(system_id, str) or not system_id:
        raise InputError("system", "is required")
    return system_id


STATBLOCK_KEYS = {"kind", "system", "text", "hp", "rolls"}


def statblock_request(request: dict) -> dict:
    """`{"kind": "statblock", "system", "text", "hp" (printed | average | rolled; optional),
    "rolls" (die faces for rolled hit points; optional)}` → `calc.inputs.statblock.parse`'s answer."""
    system_id = _system_of(request, STATBLOCK_KEYS, "statblock")
    return statblock.parse(system_id, request.get("text"), hp=request.get("hp", "printed"), rolls=request.get("rolls"))


TURNS_KEYS = {"kind", "op", "system", "combatants", "rolls", "round", "options"}


def turns_request(request: dict) -> dict | list:
    """The encounter tracker's request `{"kind": "turns", "op": "dice" | "order", "system",
    "combatants", "round", "rolls" (order; for dice, the rolls kept so far, optional), "options"
    (optional)}` → `calc.turns.tracker`' answer."""
    system_id = _system_of(request, TURNS_KEYS, "turns")
    op = request.get("op")
    args = (system_id, request.get("combatants"))
    if op == "dice":
        return turns().dice_needed(*args, request.get("round", 1), request.get("options"), request.get("rolls"))
    if op == "order":
        return turns().turn_order(*args, request.get("rolls"), request.get("round", 1), request.get("options"))
    raise InputError("op", "must be dice or order")


FIGHT_KEYS = {"kind", "system", "state", "action"}


def fight_request(request: dict) -> dict:
    """The encounter tracker's request `{"kind": "fight", "system", "state" (null: a new fight),
    "action"}` → `calc.fight.act`'s answer `{"state", "view", "steps"}`."""
    system_id = _system_of(request, FIGHT_KEYS, "fight")
    return fight().act(system_id, request.get("state"), request.get("action"))


FORECAST_KEYS = {"kind", "system", "state"}


def forecast_request(request: dict) -> dict:
    """The tracker's Forecast panel `{"kind": "forecast", "system", "state"}` →
    `calc.fight.forecast`'s answer `{"request", "left_out", "result"}`."""
    system_id = _system_of(request, FORECAST_KEYS, "forecast")
    return fight().forecast(system_id, request.get("state"))


BEFORE_KEYS = {"kind", "system", "state", "attacker", "target"}


def before_request(request: dict) -> dict:
    """The odds card's `{"kind": "before", "system", "state", "attacker", "target"}` →
    `calc.fight.before`'s answer `{"p", "label", "lists", "steps"}`."""
    system_id = _system_of(request, BEFORE_KEYS, "before")
    return fight().before(system_id, request.get("state"), request.get("attacker"), request.get("target"))


KINDS: dict[str, tuple[Callable[[dict], Any], str]] = {
    "turns": (turns_request, packages.FIGHT),
    "statblock": (statblock_request, packages.BASE),
    "fight": (fight_request, packages.FIGHT),
    "forecast": (forecast_request, packages.FIGHT),
    "before": (before_request, packages.FIGHT),
}
"""The request kinds beside calculator requests: each one's handler (`evaluate_json` dispatches on
it) and the browser package it needs (`package_needed`, `calc.packages`), listed once. The
handlers of `calc-fight` import it at their call, so this table imports none of it."""
