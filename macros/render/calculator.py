"""The HTML container of one calculator, filled in the browser by docs/assets/js/calculators.mjs.

Pure function, no I/O: the page gets a block whose data attributes carry the system, the
calculator, its own page and its input declaration as JSON; the form is built from that JSON in
the browser, so the declaration in rules_data/ stays the only description of the inputs. Without
JavaScript, or until the script runs, a short message says what the block needs.

Why a data attribute and not `<script type="application/json">`: Material's instant navigation
re-creates every inline <script> of the new page WITHOUT its `type`, so JSON in a script element
would be run as JavaScript (a syntax error) and lost after the first navigation.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any


def declaration_json(declaration: dict[str, Any]) -> str:
    """The declaration as compact JSON without `<`, `>` or `&` (safe in any HTML context)."""
    text = json.dumps(declaration, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def calculator_block(system_id: str, name: str, declaration: dict[str, Any], url: str) -> str:
    """HTML for one calculator: `url` is its own page, relative to the site root."""
    title = declaration.get("title", name)
    attrs = {
        "class": "cc-calc",
        "role": "group",
        "aria-label": f"{title} calculator",
        "data-cc-system": system_id,
        "data-cc-calculator": name,
        "data-cc-url": url,
        "data-cc-declaration": declaration_json(declaration),
    }
    attr_text = " ".join(f'{key}="{escape(str(value), quote=True)}"' for key, value in attrs.items())
    return (
        f"<div {attr_text}>\n"
        '<p class="cc-fallback">This calculator runs Python in your browser and needs JavaScript. '
        "On the first visit it downloads the Python runtime (several megabytes) once; "
        "after that it also works offline.</p>\n"
        "</div>\n"
    )
