"""Helpers for the browser tests: calculator URLs with inputs, instant navigation, and the
comparison of what a page shows (tests/e2e/shown.js) with what calc.evaluate returned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin

from calc.answers.result import dist_probs

FIRST_READY_MS = 60_000
"""Generous: the first Python start on a busy 2-core machine."""
WASM = "pyodide.asm.wasm.xz"
"""The runtime's wasm as the worker downloads it (compressed by the build: build_site.WASM_XZ)."""
SLOW_LINK = "localStorage.setItem('cc-fast-link-mbps', '1000000')"
"""An init script that makes the worker take any link for slow: no memory snapshot on a first
visit (the knob sets the speed from which one downloads it)."""
FAST_LINK = "localStorage.setItem('cc-fast-link-mbps', '0.001')"
"""The opposite: every link is fast, so a first visit downloads and restores the snapshot."""
SHOWN_JS = (Path(__file__).parent / "shown.js").read_text()
SETTLED = ".cc-calc:not([data-cc-old])[data-cc-state=done], .cc-calc:not([data-cc-old])[data-cc-state=error]"


def param_text(value: Any) -> str:
    """An input value as the page writes it in its URL."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value)
    return str(value)


def calculator_url(base: str, case: dict, inputs: dict | None = None) -> str:
    inputs = case["request"]["inputs"] if inputs is None else inputs
    query = urlencode({name: param_text(v) for name, v in inputs.items()})
    return urljoin(base, case["url"]) + (f"?{query}" if query else "")


def answers(page) -> int:
    """How many answers the current calculator has shown so far."""
    return int(page.eval_on_selector(".cc-calc:not([data-cc-old])", "(c) => c.dataset.ccResults || 0"))


def settle(page, calculator: str | None = None, after: int | None = None, show_all: bool = True) -> dict:
    """Wait until the (new) calculator shows a result or an error (its answer number `after`+1
    or later, when given); return what it shows (every row of a long distribution: `show_all`
    clicks "Show all" when there is one)."""
    selector = SETTLED
    if calculator:
        selector = ", ".join(f"{s.strip()}[data-cc-calculator={calculator}]" for s in SETTLED.split(","))
    try:
        if after is not None:
            wait_until(
                page,
                "([sel, n]) => { const c = document.querySelector(sel); return c && Number(c.dataset.ccResults) > n; }",
                [selector, after],
            )
        root = page.wait_for_selector(selector)
    except Exception as err:
        states = page.evaluate(
            "[...document.querySelectorAll('.cc-calc')].map((c) => [c.dataset.ccCalculator, c.dataset.ccState,"
            " c.querySelector('.cc-status')?.textContent])"
        )
        raise AssertionError(f"no settled calculator at {page.url}: {states}") from err
    main = ".cc-result-body > .cc-distribution"  # not the one attack's folded distribution
    if root.query_selector(f"{main} .cc-show-all") and show_all:
        # A long distribution shows its most likely rows; the comparison needs them all.
        seen = int(root.evaluate("(c) => c.dataset.ccResults || 0"))
        root.query_selector(f"{main} .cc-show-all").click()
        return settle(page, calculator, after=seen, show_all=False)
    tables = ".cc-result-body > .cc-table-block, .cc-result-body > .cc-pairwise"
    button = ", ".join(f"{t.strip()} > .cc-show-all" for t in tables.split(","))
    if root.query_selector(button) and show_all:
        # A long table shows its first rows: the worker sends the rest on request (a new
        # answer), or the page has them and adds them.
        seen = int(root.evaluate("(c) => c.dataset.ccResults || 0"))
        root.query_selector(button).click()
        wait_until(
            page,
            "([sel, n, b]) => { const c = document.querySelector(sel);"
            " return c && (Number(c.dataset.ccResults) > n || !c.querySelector(b)); }",
            [selector, seen, button],
        )
        return settle(page, calculator, show_all=True)
    for part in [main, *tables.split(",")]:
        if root.query_selector(part.strip()):
            root.wait_for_selector(f"{part.strip()}[data-cc-complete]", state="attached")
    return root.evaluate(SHOWN_JS)


def wait_until(page, predicate: str, arg: Any = None, timeout_ms: int = FIRST_READY_MS) -> None:
    """`page.wait_for_function` for pages under the site's Content-Security-Policy: Playwright
    compiles a string predicate with eval in the page, which the policy refuses; `evaluate` is
    compiled by the debugger protocol instead. Polls page state until `predicate(arg)` holds."""
    ok = page.evaluate(
        f"""async (arg) => {{
            const predicate = {predicate};
            const end = performance.now() + {timeout_ms};
            while (!(await predicate(arg))) {{
                if (performance.now() > end) return false;
                await new Promise((resolve) => setTimeout(resolve, 50));
            }}
            return true;
        }}""",
        arg,
    )
    if not ok:
        raise TimeoutError(f"not true within {timeout_ms} ms: {predicate}")


def instant_go(page, href: str, same_page: bool = False) -> None:
    """Follow a link the way a reader does, so Material's instant navigation handles it.
    `same_page`: the link only changes the query, so the calculator stays and follows it."""
    page.evaluate(
        """([href, samePage]) => {
            if (!samePage) document.querySelectorAll(".cc-calc").forEach((c) => c.setAttribute("data-cc-old", ""));
            const a = document.createElement("a");
            a.href = href;
            a.textContent = "next";
            document.querySelector("article").append(a);
            a.click();
        }""",
        [href, same_page],
    )


def frac(p: dict) -> str:
    return p["fraction"]


def expected(reply: dict, base: str) -> dict:
    """What the page must show for calc.evaluate's reply."""
    if "error" in reply:
        err = reply["error"]
        message = err["message"][:1].upper() + err["message"][1:]
        return {"state": "error", "errors": [[err["input"], message]]}
    r = reply["result"]
    d = r["distribution"]
    at_least = {x: str(p) for x, p in dist_probs(d, "at_least").items()} if d else {}
    pmf = {x: str(p) for x, p in dist_probs(d).items()} if d else {}
    return {
        "state": "done",
        "errors": [],
        "summary": r["summary"],
        "chances": [[c["label"], frac(c["p"])] for c in r["chances"]],
        "roll_needed": r["roll_needed"]["text"] if r["roll_needed"] else None,
        "distribution": {
            "mean": frac(d["mean"]),
            "min": str(d["min"]),
            "max": str(d["max"]),
            "rows": [[str(row["x"]), pmf[row["x"]], at_least.get(row["x"])] for row in d["pmf"]],
        }
        if d
        else None,
        "attack": [frac(a["expected"]), frac(a["hit"]), frac(a["on_hit"]["mean"])] if (a := r.get("attack")) else None,
        "order": [[g["rank"], ", ".join(g["names"]), g["tied"]] for g in r["order"]] if r["order"] else None,
        "pairwise": [
            [p["first"], p["second"], frac(p["before"]), frac(p["tied"]), frac(p["after"])] for p in r["pairwise"]
        ]
        if r["pairwise"]
        else None,
        "table": r["table"],
        "steps": [[s["text"], urljoin(base, s["url"]) if s.get("url") else None] for s in r["steps"]],
    }


def too_small(page, selector: str) -> list:
    """Controls of `selector` smaller than a finger (24 px) or past the phone's right edge."""
    return page.eval_on_selector_all(
        selector,
        """(nodes) => nodes.filter((n) => n.offsetParent).map((n) => {
            const r = n.getBoundingClientRect();
            return [n.className || n.tagName, Math.round(r.width), Math.round(r.height), Math.round(r.right)];
        }).filter(([, w, h, right]) => w < 24 || h < 24 || right > innerWidth)""",
    )
