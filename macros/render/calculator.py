"""The HTML container of one calculator, filled in the browser by docs/assets/js/calculators.mjs.

Pure function, no I/O: the page gets a block carrying data attributes and the input declaration
as inert JSON (`<script type="application/json">`); the form itself is built from that JSON in
the browser, so the declaration in rules_data/ is the only description of the inputs. Without
JavaScript, or until the script runs, a short message says what the block needs.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any


def declaration_json(declaration: dict[str, Any]) -> str:
    """The declaration as JSON that is safe inside a <script> element (no `<`, `>` or `&`)."""
    text = json.dumps(declaration, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def calculator_block(system_id: str, name: str, declaration: dict[str, Any], url: str) -> str:
    """HTML for one calculator: `url` is its own page, relative to the site root."""
    attrs = {
        "class": "cc-calc",
        "data-cc-system": system_id,
        "data-cc-calculator": name,
        "data-cc-url": url,
    }
    title = declaration.get("title", name)
    attr_text = " ".join(f'{key}="{escape(str(value), quote=True)}"' for key, value in attrs.items())
    aria = f'aria-label="{escape(f"{title} calculator", quote=True)}"'
    return (
        f'<div {attr_text} role="group" {aria}>\n'
        f'<script type="application/json" class="cc-declaration">{declaration_json(declaration)}</script>\n'
        '<p class="cc-fallback">This calculator runs Python in your browser and needs JavaScript. '
        "On the first visit it downloads the Python runtime (several megabytes) once; "
        "after that it also works offline.</p>\n"
        "</div>\n"
    )
