"""Put each calculator's default answer into its built page, so it shows at first paint.

The reader of a calculator page usually looks at the default inputs first; that answer does not
need Python in the browser. At build time `calc.evaluate` answers every calculator's default
request in CPython, tools/prerender.mjs renders it with the browser's own renderer
(docs/assets/js/calculator/calc-results.mjs) and this module writes both into every `.cc-calc` block:

* the rendered HTML, in `<div class="cc-result cc-prerendered" data-cc-answer-for="defaults">`,
  for first paint (and readers without JavaScript);
* the result as JSON in `data-cc-answer` (single-quoted: macros/render/calculator.py), which
  docs/assets/js/calculator/calculators.mjs renders again live (same renderer) and keeps while the inputs
  are the defaults; Pyodide then starts only when the reader edits or the page is idle. A
  shared link with inputs is computed in the browser.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from tools/: the project's packages, once
    sys.path.insert(0, str(ROOT))

from macros.render.calculator import json_attribute  # noqa: E402  (the same attribute form as the block's)

RENDERER = ROOT / "docs" / "assets" / "js" / "calculator" / "calc-results.mjs"
PLACEHOLDER_ROOT = "https://prerender.invalid/site/"
"""Site root the renderer sees; its links are rewritten relative to each page."""
BLOCK = re.compile(
    r'(?P<open><div class="cc-calc"[^>]*?data-cc-system="(?P<system>[^"]+)"'
    r' data-cc-calculator="(?P<name>[^"]+)"[^>]*?)>'
    r'(?P<body>\s*<p class="cc-fallback">.*?</p>)',
    re.S,
)


def default_answers() -> dict[str, dict]:
    """{"system/calculator": result} for every calculator's default request, in CPython."""
    from calc import evaluate  # here: calc/rules.json is exported by the build first
    from calc.inputs import data

    return {
        f"{s}/{name}": evaluate({"system": s, "calculator": name, "inputs": {}})
        for s in data.system_ids()
        for name in data.system(s).calculators
    }


def render(results: dict[str, dict]) -> dict[str, str]:
    """The renderer's HTML for each result (tools/prerender.mjs)."""
    done = subprocess.run(
        ["node", str(ROOT / "tools" / "prerender.mjs"), str(RENDERER), PLACEHOLDER_ROOT],
        input=json.dumps(results),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"tools/prerender.mjs failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def inject(page: Path, site: Path, results: dict[str, dict], html: dict[str, str]) -> int:
    """Write the answers into every calculator block of one built page; returns how many."""
    text = page.read_text(encoding="utf-8")
    depth = len(page.relative_to(site).parts) - 1
    to_root = "../" * depth or "./"
    count = 0

    def fill(match: re.Match) -> str:
        nonlocal count
        key = f"{match['system']}/{match['name']}"
        if key not in results:
            return match[0]
        count += 1
        answer = json_attribute("data-cc-answer", results[key], sort_keys=False)
        rendered = html[key].replace(PLACEHOLDER_ROOT, to_root)
        return (
            f"{match['open']} {answer}>{match['body']}\n"
            f'<div class="cc-result cc-prerendered" data-cc-answer-for="defaults">{rendered}</div>'
        )

    new = BLOCK.sub(fill, text)
    if count:
        page.write_text(new, encoding="utf-8")
    return count


def prerender_site(site: Path) -> int:
    """Prerender every calculator block of the built site; returns the number of blocks."""
    results = default_answers()
    html = render(results)
    return sum(inject(page, site, results, html) for page in sorted(site.rglob("*.html")))
