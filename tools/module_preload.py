"""Start what a page needs from its head: `<link rel="modulepreload">` for its JavaScript modules,
and on pages that run Python (a calculator or a tracker) the early start of the Python worker.

Why: the site ships its browser modules as they are (no bundler), so a page finds them one level
at a time: the HTML names `calculators.mjs`, which names ten more, which name a few more. On a
20 Mbit/s link with 40 ms latency each level is a round trip or more before the form can bind and
the reader's first edit can start Python (measured with `python -m bench`). Listing the whole
static import graph in the head lets the browser fetch it all at once, while the stylesheets
load. Dynamic `import()`s (the tracker, the worker's modules) are not preloaded: they are not
needed on every page.

The same holds for the Python runtime, the biggest download: on a page that runs Python, an
async module in the head (`assets/js/boot/worker-early.mjs`) creates the worker as the page starts
loading; the worker downloads the runtime at once and holds Python's start until the page asks
for it (the reader's edit, or an idle page), as before. That script and its own static graph go
first in the head, before the stylesheets and the page's other modules: over HTTP/1.1 a browser
opens at most six connections to a host, and behind the page's thirty-odd requests the worker was
created ~0.4 s after navigation at 40 ms latency (`python -m bench`). Idempotent, like
tools/stamp_site.py: old links and scripts are replaced.

A page that will certainly need a Python package beyond `calc` (the tracker, a forecast
calculator: `calc.packages.page_packages`) names it in a `<meta name="cc-python-packages">` before
that script, so the worker loads it right after its start (docs/assets/js/boot/worker-spec.mjs).
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from calc import packages  # noqa: E402

MODULE_SCRIPT = re.compile(r'<script src="([^"]*?)(assets/js/[^"]+\.mjs)" type="module">')
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']""", re.M)
BARE_IMPORT = re.compile(r"""^\s*import\s*["'](\.{1,2}/[^"']+)["']""", re.M)
PRELOAD = re.compile(r'<link rel="modulepreload" href="[^"]*">\n?')
EARLY_WORKER = "assets/js/boot/worker-early.mjs"
EARLY_SCRIPT = re.compile(r'<script async src="[^"]*worker-early\.mjs" type="module"></script>\n?')
RUNS_PYTHON = re.compile(r'\bdata-cc-(?:calculator|tracker)="')
CALCULATOR = re.compile(r'\bdata-cc-calculator="([^"]*)"')
PACKAGES_META = re.compile(r'<meta name="cc-python-packages" content="[^"]*">\n?')


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


FIRST_IN_HEAD = re.compile(r"<link\b|<script\b|</head>")


def add_module_preloads(site: Path) -> int:
    """Write the preload links into every page that loads a module script (and the worker's early
    start, first in the head, into pages that run Python); return how many pages."""
    graphs: dict[str, list[str]] = {}
    stamped = 0
    for page in sorted(site.rglob("*.html")):
        text = PACKAGES_META.sub("", EARLY_SCRIPT.sub("", PRELOAD.sub("", page.read_text(encoding="utf-8"))))
        links: list[str] = []
        early: list[str] = []
        for prefix, module in MODULE_SCRIPT.findall(text):
            for m in (module, EARLY_WORKER):
                if m not in graphs and (m == module or (site / m).is_file()):
                    graphs[m] = static_imports(site, m)
            links += [f'<link rel="modulepreload" href="{prefix}{m}">' for m in graphs[module]]
            if RUNS_PYTHON.search(text) and EARLY_WORKER in graphs:
                needs = packages.page_packages("data-cc-tracker=" in text, CALCULATOR.findall(text))
                if needs:
                    early.append(f'<meta name="cc-python-packages" content="{" ".join(needs)}">')
                early.append(f'<script async src="{prefix}{EARLY_WORKER}" type="module"></script>')
                early += [f'<link rel="modulepreload" href="{prefix}{m}">' for m in graphs[EARLY_WORKER][1:]]
        if links:
            if "</head>" not in text:
                raise ValueError(f"{page}: no </head> to put the module preloads in")
            early = list(dict.fromkeys(early))
            rest = [x for x in dict.fromkeys(links) if x not in early]
            text = text.replace("</head>", "\n".join(rest) + "\n</head>", 1)
            if early:
                first = FIRST_IN_HEAD.search(text)
                assert first is not None  # </head> at least
                text = text[: first.start()] + "\n".join(early) + "\n" + text[first.start() :]
            stamped += 1
        page.write_text(text, encoding="utf-8")
    return stamped
