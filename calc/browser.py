"""The browser's door into `calc`: one JSON text in, one JSON text out.

The Pyodide worker calls `evaluate_json` so that a request crosses the JS/Python boundary as a
plain string (no proxies to convert or leak), and a bad input comes back as data
(`{"error": {"input", "message", "kind"}}`) the page can show next to the field at fault, exactly
like the command line reports it.

A request may carry `"max_rows": n` (the page sends it; the command line never does): a damage
distribution longer than that is sent as its `n` most likely rows plus a coarse `chart` of the
whole range. A shared link such as 100d20 with a power attack has 7000+ rows of 130-digit
weights (megabytes of JSON); the page shows a few dozen of them unless the reader asks for all.

`{"kind": "turns", …}` is the encounter tracker's request (`turns_request`): the dice a round
needs, or the round's order from its rolls, by `calc.turns`.
"""

from __future__ import annotations

import json
from calc import evaluate, turns
from calc.errors import CalcError, InputError

CHART_BARS = 100
"""How many bars the coarse chart of a trimmed distribution has at most."""


def evaluate_json(request_text: str) -> str:
    """`{"result": evaluate(request)}` or `{"error": {...}}`, as JSON text."""
    try:
        request = json.loads(request_text)
        if isinstance(request, dict) and request.get("kind") == "turns":
            return json.dumps({"result": turns_request(request)})
        max_rows = request.pop("max_rows", None) if isinstance(request, dict) else None
        result = evaluate(request)
        if isinstance(max_rows, int) and not isinstance(max_rows, bool) and max_rows > 0:
            result = trim_distribution(result, max_rows)
        return json.dumps({"result": result})
    except CalcError as err:
        return json.dumps(err.to_json())


TURNS_KEYS = {"kind", "op", "system", "combatants", "rolls", "round", "options"}


def turns_request(request: dict) -> dict | list:
    """The encounter tracker's request `{"kind": "turns", "op": "dice" | "order", "system",
    "combatants", "round", "rolls" (order; for dice, the rolls kept so far, optional), "options"
    (optional)}` → `calc.turns`' answer."""
    unknown = sorted(set(request) - TURNS_KEYS)
    if unknown:
        raise InputError(unknown[0], f"is not part of a turns request ({', '.join(sorted(TURNS_KEYS))})")
    system_id = request.get("system")
    if not isinstance(system_id, str) or not system_id:
        raise InputError("system", "is required")
    op = request.get("op")
    args = (system_id, request.get("combatants"))
    if op == "dice":
        return turns.dice_needed(*args, request.get("round", 1), request.get("options"), request.get("rolls"))
    if op == "order":
        return turns.turn_order(*args, request.get("rolls"), request.get("round", 1), request.get("options"))
    raise InputError("op", "must be dice or order")


def trim_distribution(result: dict, max_rows: int) -> dict:
    """`result` with a distribution of more than `max_rows` rows cut to its `max_rows` most likely
    totals (in order of total), plus `rows` (how many there are) and `chart` (the whole range in
    at most CHART_BARS bars: `{"from", "to", "p"}` with a float `p`, for drawing only).
    Mean, minimum and maximum stay exact and complete."""
    d = result.get("distribution")
    if not d or len(d["pmf"]) <= max_rows:
        return result
    pmf = d["pmf"]
    # One common denominator: the exact order of the chances is the order of the integer weights.
    likely = sorted(range(len(pmf)), key=lambda i: (-int(pmf[i]["weight"]), pmf[i]["x"]))
    keep = sorted(likely[:max_rows])
    xs = {pmf[i]["x"] for i in keep}
    trimmed = {
        **d,
        "pmf": [pmf[i] for i in keep],
        "at_least": [row for row in d["at_least"] if row["x"] in xs],
        "rows": len(pmf),
        "chart": chart(pmf),
    }
    return {**result, "distribution": trimmed}


def chart(pmf: list[dict]) -> list[dict]:
    """The distribution's whole range in at most CHART_BARS equal-width bars of summed chance."""
    lo, hi = pmf[0]["x"], pmf[-1]["x"]
    width = -(-(hi - lo + 1) // CHART_BARS)  # ceiling division
    bars: dict[int, float] = {}
    for row in pmf:
        start = lo + (row["x"] - lo) // width * width
        bars[start] = bars.get(start, 0.0) + row["float"]
    return [{"from": x, "to": min(x + width - 1, hi), "p": p} for x, p in sorted(bars.items())]
