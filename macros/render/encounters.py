"""A system's Encounters page: the ready-made fights of its `encounters.yaml`, each with its foes
and a "Run in tracker" link that opens the tracker with them (`#fight=`, read by
docs/assets/js/fight/link.mjs). Pure: data in, Markdown out.

The fragment is the roster as JSON, deflated (raw DEFLATE, what the browser's
DecompressionStream("deflate-raw") reads) and base64url-encoded:
`{"v": 1, "d": <rules-data version>, "s": <system>, "c": [{"n": name, "s": "pc"|"foe", "v": {input: value}}]}`.
"""

from __future__ import annotations

import base64
import json
import zlib
from html import escape
from typing import Any

from macros.render.prose import Prose, doc_path, md_text, system_heading

FORMAT = 1


def fight_fragment(system_id: str, version: str, foes: list[dict[str, Any]]) -> str:
    """`#fight=…` for a roster of `{name, side, values}`."""
    body = {
        "v": FORMAT,
        "d": version,
        "s": system_id,
        "c": [{"n": f["name"], "s": f["side"], "v": f["values"]} for f in foes],
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text) + packer.flush()
    return "#fight=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def encounters_page(prose: Prose, exported: dict[str, Any], version: str) -> str:
    """The Encounters page of `prose.system`."""
    system = prose.system
    encounters = exported.get("encounters") or []
    parts = [system_heading("Encounters", system.name), ""]
    if encounters:
        lead = "Ready-made fights: open one in the encounter tracker with one tap, foes and all."
        parts += [lead, "{: .cc-lead }", ""]
    if exported.get("encounters_note"):
        parts += [prose.expand(exported["encounters_note"]), "{: .cc-encounters-note }", ""]
        if not encounters:
            parts += [f"[Open the encounter tracker]({prose.href(doc_path(system.id, 'tracker'))})", ""]
    elif not encounters:
        parts.append(f"{md_text(system.name)} has no encounters yet (`encounters.yaml` in its data).")
    for enc in encounters:
        parts += [f"## {md_text(enc['title'])} {{#{enc['id']}}}", ""]
        if enc.get("text"):
            parts += [prose.expand(enc["text"]), ""]
        if enc.get("rule"):
            parts += [f"Rule: [{md_text(enc['rule']['title'])}]({prose.rule_href(system, enc['rule']['id'])}).", ""]
        for foe in enc["foes"]:
            side = "PC" if foe["side"] == "pc" else "Foe"
            parts.append(f"- {md_text(foe['name'])} ({side})")
        href = "../tracker/" + fight_fragment(system.id, version, enc["foes"])
        label = f"Run {enc['title']} in the tracker"
        parts += [
            "",
            f'<p><a class="md-button md-button--primary cc-run-encounter" href="{escape(href, quote=True)}" '
            f'aria-label="{escape(label, quote=True)}" data-cc-encounter="{escape(enc["id"], quote=True)}">'
            "Run in tracker</a></p>",
            "",
        ]
    return "\n".join(parts) + "\n"
