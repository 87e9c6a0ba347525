"""Stamp a built site: a Content-Security-Policy and a build id in every page, the build id in
assets/js/boot/runtime.mjs too.

Why post-processing and not a theme override: the policy must list the sha256 of every inline
script Material writes (they differ by page depth: `__md_scope=new URL("../..",location)`), which
only the built HTML knows; and the build id is a hash of the built files. One policy for the
whole site (the union of the hashes), because Material's instant navigation keeps the first
page's policy and re-runs the next page's inline scripts under it. Idempotent: stamping a stamped
site replaces the old tags (tests post-process a built site into a second deploy).
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?')
BUILD_META = re.compile(r'<meta name="cc-build" content="[^"]*">\n?')
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", re.S)
RUNTIME_BUILD = re.compile(r'"build": (null|"[0-9a-f]*")')
CHARSET = '<meta charset="utf-8">'

POLICY = (
    "default-src 'self'",
    # Pyodide compiles WebAssembly (in its worker, which a page's <meta> policy does not govern;
    # listed for the page in case it ever runs there). No 'unsafe-inline', no 'unsafe-eval'.
    "script-src 'self' 'wasm-unsafe-eval' {hashes}",
    "worker-src 'self'",  # the Python worker and Material's search worker
    "connect-src 'self'",  # instant navigation, search index, runtime files
    "img-src 'self' data:",  # Material's icons are data: SVGs in its stylesheets
    "style-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def inline_script_hashes(html: str) -> set[str]:
    """CSP source expressions for the executable inline scripts (JSON data blocks do not run)."""
    found = set()
    for attrs, body in INLINE_SCRIPT.findall(html):
        if "application/json" in attrs:
            continue
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
        found.add(f"'sha256-{digest}'")
    return found


def policy(hashes: set[str]) -> str:
    return "; ".join(POLICY).replace("{hashes}", " ".join(sorted(hashes)))


def build_id(site: Path) -> str:
    """A hash of every file of the site (sw.js aside, which is written from this id)."""
    h = hashlib.sha256()
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and rel != "sw.js":
            h.update(rel.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]


def stamp(site: Path) -> str:
    """Write the policy and the build id into every page and runtime.mjs; return the build id."""
    texts = {p: BUILD_META.sub("", CSP_META.sub("", p.read_text(encoding="utf-8"))) for p in pages(site)}
    hashes: set[str] = set()
    for text in texts.values():
        hashes |= inline_script_hashes(text)
    csp = f'<meta http-equiv="Content-Security-Policy" content="{policy(hashes)}">'
    for path, text in texts.items():
        if CHARSET not in text:
            raise ValueError(f"{path}: no {CHARSET} to put the Content-Security-Policy after")
        # Right after the charset: a <meta> policy governs only what comes after it.
        path.write_text(text.replace(CHARSET, f"{CHARSET}\n{csp}", 1), encoding="utf-8")
    runtime = site / "assets" / "js" / "boot" / "runtime.mjs"
    runtime.write_text(RUNTIME_BUILD.sub('"build": null', runtime.read_text(encoding="utf-8")), encoding="utf-8")
    build = build_id(site)
    for path in texts:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(csp, f'{csp}\n<meta name="cc-build" content="{build}">', 1), encoding="utf-8")
    runtime.write_text(RUNTIME_BUILD.sub(f'"build": "{build}"', runtime.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"[build] stamped {len(texts)} pages: build {build}, {len(hashes)} inline-script hashes", flush=True)
    return build
