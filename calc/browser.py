"""The browser's door into `calc`: one JSON text in, one JSON text out.

The Pyodide worker calls `evaluate_json` so that a request crosses the JS/Python boundary as a
plain string (no proxies to convert or leak), and a bad input comes back as data
(`{"error": {"input", "message", "kind"}}`) the page can show next to the field at fault, exactly
like the command line reports it.
"""

from __future__ import annotations

import json

from calc import evaluate
from calc.errors import CalcError


def evaluate_json(request_text: str) -> str:
    """`{"result": evaluate(request)}` or `{"error": {...}}`, as JSON text."""
    try:
        return json.dumps({"result": evaluate(json.loads(request_text))})
    except CalcError as err:
        return json.dumps(err.to_json())
