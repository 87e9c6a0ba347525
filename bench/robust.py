"""Hostile-link benchmark (issue 9 items 4 and 6): what a bad shared link costs the page.

`python -m bench.robust --root DIR --port P [--path sub/]` serves DIR (a site built with
SITE_URL=http://127.0.0.1:P/<path>) on loopback and, in headless Debian Chromium, prints:
  bytes   — the JSON the worker hands the page for the heavy link (CPython's calc.browser, with
            and without the row cap the page asks for);
  freeze  — the heavy link opened cold: longest main-thread task, long-task total after the
            reply, DOM elements on the page, rows rendered;
  supersede — on a 50d20 power link: one edit from idle (normal time), then ten edits 200 ms
            apart: time from the last edit to its answer on screen;
  leak    — edits made just before following a link, N tries: how many left foreign inputs in
            the next page's URL or form.
Figures only; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

from bench.__main__ import CHROMIUM, CHROMIUM_ARGS
from bench.server import serve
from calc.browser import evaluate_json

HEAVY = {"use_preset": "false", "dice": "100d20", "attack": "power", "multiplier": "10"}
PAGE = "action-points/calculators/damage/"
OTHER = "countup/calculators/hit/"
LONG_TASKS = """
window.__long = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
  .observe({ type: "longtask", buffered: true });
"""
DONE = ".cc-calc[data-cc-state=done]"


def result_bytes() -> dict:
    inputs = {"use_preset": False, "dice": "100d20", "attack": "power", "multiplier": 10}
    request = {"system": "action-points", "calculator": "damage", "inputs": inputs}
    full = len(evaluate_json(json.dumps(request)).encode())
    capped = len(evaluate_json(json.dumps({**request, "max_rows": 60})).encode())
    return {"full_bytes": full, "capped_bytes": capped}


def answers(page) -> int:
    return int(page.eval_on_selector(".cc-calc", "(c) => c.dataset.ccResults || 0"))


def freeze_and_supersede(browser, base: str) -> dict:
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script(LONG_TASKS)
    page = ctx.new_page()
    page.set_default_timeout(300_000)
    page.goto(base + PAGE + "?" + urlencode(HEAVY))
    page.wait_for_selector(DONE)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_timeout(500)  # let any chunked rendering and layout finish (a benchmark, not a test)
    out = page.evaluate(
        """() => {
            const reply = performance.getEntriesByName("cc:reply").pop();
            const after = window.__long.filter(([s]) => reply && s >= reply.startTime - 1);
            return {
              longest_task_ms: Math.round(Math.max(0, ...window.__long.map(([, d]) => d))),
              long_tasks_after_reply_ms: Math.round(after.reduce((a, [, d]) => a + d, 0)),
              dom_elements: document.getElementsByTagName("*").length,
              rows_rendered: document.querySelectorAll(".cc-dist-table tbody tr").length,
            };
        }"""
    )
    # Superseding: a lighter heavy link (50d20), so the old page's queue finishes in minutes.
    page.goto(base + PAGE + "?" + urlencode({**HEAVY, "dice": "50d20"}))
    page.wait_for_selector(DONE)
    field = page.locator(".cc-calc input[data-input=damage_bonus]")

    def edit_and_wait(values: list[int], gap_ms: int) -> float:
        seen = answers(page)
        for i, v in enumerate(values):
            field.fill(str(v))
            if i < len(values) - 1:
                page.wait_for_timeout(gap_ms)
        t0 = time.perf_counter()
        page.wait_for_function(
            "([n, v]) => { const c = document.querySelector('.cc-calc');"
            " return Number(c.dataset.ccResults) > n && c.dataset.ccState === 'done'"
            " && new URLSearchParams(location.search).get('damage_bonus') === String(v); }",
            arg=[seen, values[-1]],
            polling=20,
        )
        return round((time.perf_counter() - t0) * 1000)

    out["one_heavy_edit_ms"] = edit_and_wait([4], 0)
    out["latest_after_10_superseded_ms"] = edit_and_wait(list(range(10, 21)), 200)
    ctx.close()
    return out


def leak(browser, base: str, tries: int) -> dict:
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    leaked = 0
    for _ in range(tries):
        page.goto(base + PAGE)
        page.wait_for_selector(DONE)
        page.locator(".cc-calc input[data-input=damage_bonus]").fill("77")
        page.wait_for_timeout(10)
        page.evaluate(
            """(href) => { const a = document.createElement("a"); a.href = href; a.textContent = "x";
                 document.querySelector("article").append(a); a.click(); }""",
            base + OTHER,
        )
        page.wait_for_url("**/" + OTHER + "**")
        page.wait_for_selector(".cc-calc[data-cc-system=countup][data-cc-state=done]")
        page.wait_for_timeout(400)  # past any late debounce of the page left behind
        if "damage_bonus" in page.evaluate("location.search"):
            leaked += 1
    ctx.close()
    return {"tries": tries, "leaked": leaked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True, help="folder served at /")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="sub/", help="the site's path under the root")
    parser.add_argument("--leak-tries", type=int, default=6)
    args = parser.parse_args()
    server = serve(args.root, args.port, {})
    base = f"http://127.0.0.1:{args.port}/{args.path}"
    figures = {"bytes": result_bytes()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        figures["freeze_and_supersede"] = freeze_and_supersede(browser, base)
        figures["leak"] = leak(browser, base, args.leak_tries)
        browser.close()
    server.shutdown()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
