"""The HTML container of one calculator, filled in the browser by docs/assets/js/calculator/calculators.mjs.

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


def html_safe_json(declaration: Any, sort_keys: bool = True) -> str:
    """Compact JSON without `<`, `>` or `&` (JSON escapes instead): safe in any HTML context."""
    text = json.dumps(declaration, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_attribute(name: str, data: Any, sort_keys: bool = True) -> str:
    """`name='…'`: JSON in a single-quoted attribute, where its many double quotes need no
    escaping (as `&quot;` they were a sixth of a calculator page's bytes); `'` is the one
    character escaped, and `<`, `>`, `&` never occur (html_safe_json)."""
    value = html_safe_json(data, sort_keys).replace("'", "&#39;")
    return f"{name}='{value}'"


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
    }
    attr_text = " ".join(f'{key}="{escape(str(value), quote=True)}"' for key, value in attrs.items())
    attr_text += " " + json_attribute("data-cc-declaration", declaration)
    return (
        f"<div {attr_text}>\n"
        '<p class="cc-fallback">This calculator runs Python in your browser and needs JavaScript. '
        "On the first visit it downloads the Python runtime (several megabytes) once; "
        "after that it also works offline.</p>\n"
        "</div>\n"
    )
