"""Announce every page's JavaScript modules up front: `<link rel="modulepreload">` in the head.

Why: the site ships its browser modules as they are (no bundler), so a page finds them one level
at a time: the HTML names `calculators.mjs`, which names ten more, which name a few more. On a
20 Mbit/s link with 40 ms latency each level is a round trip or more before the form can bind and
the reader's first edit can start Python (measured with `python -m bench`). Listing the whole
static import graph in the head lets the browser fetch it all at once, while the stylesheets
load. Dynamic `import()`s (the tracker, the worker's modules) are not preloaded: they are not
needed on every page. Idempotent, like tools/stamp_site.py: old preload links are replaced.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

MODULE_SCRIPT = re.compile(r'<script src="([^"]*?)(assets/js/[^"/]+\.mjs)" type="module">')
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']""", re.M)
BARE_IMPORT = re.compile(r"""^\s*import\s*["'](\.{1,2}/[^"']+)["']""", re.M)
PRELOAD = re.compile(r'<link rel="modulepreload" href="[^"]*">\n?')


def static_imports(site: Path, module: str) -> list[str]:
    """Every module `module` (a path under `site`) reaches through static imports, itself first."""
    seen: list[str] = []
    todo = [module]
    while todo:
        current = todo.pop(0)
        if current in seen:
            continue
        path = site / current
        if not path.is_file():
            raise FileNotFoundError(f"{current}: imported but not in the site")
        seen.append(current)
        text = path.read_text(encoding="utf-8")
        base = posixpath.dirname(current)
        for spec in STATIC_IMPORT.findall(text) + BARE_IMPORT.findall(text):
            todo.append(posixpath.normpath(posixpath.join(base, spec)))
    return seen


def add_module_preloads(site: Path) -> int:
    """Write the preload links into every page that loads a module script; return how many pages."""
    graphs: dict[str, list[str]] = {}
    stamped = 0
    for page in sorted(site.rglob("*.html")):
        text = PRELOAD.sub("", page.read_text(encoding="utf-8"))
        links = []
        for prefix, module in MODULE_SCRIPT.findall(text):
            if module not in graphs:
                graphs[module] = static_imports(site, module)
            links += [f'<link rel="modulepreload" href="{prefix}{m}">' for m in graphs[module]]
        if links:
            if "</head>" not in text:
                raise ValueError(f"{page}: no </head> to put the module preloads in")
            text = text.replace("</head>", "\n".join(dict.fromkeys(links)) + "\n</head>", 1)
            stamped += 1
        page.write_text(text, encoding="utf-8")
    return stamped
