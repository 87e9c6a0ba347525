"""One Python worker per page and honest words about it (issue 19 item 2): a shared link's first
visit downloads each runtime file once whichever of the page's scripts runs first; a stalled
download is named within 15 s of its last byte and Retry makes a fresh attempt; leaving a page
cancels its calculation; the status and the answer line never describe a stage that has ended.
The figures each test measures are printed (pytest -s) for the performance notes."""

from __future__ import annotations

import time
from urllib.parse import urljoin

import pytest
from pages import FAST_LINK, FIRST_READY_MS, WASM, answers, instant_go, settle, wait_until

SHARED = ("countup", "hit", "?ac=15")  # a shared link: the page computes these inputs at once
RUNTIME_FILES = {"wasm": WASM, "stdlib": "python_stdlib", "snapshot": "/assets/snapshot/"}
# The status and answer texts of the start's stages (calc-worker-client.mjs, pyodide-worker.mjs).
START_STAGES = (
    "Preparing the calculator",
    "Downloading the Python runtime",
    "Starting Python",
    "Loading the calculators",
)

RECORD_TEXTS = """
window.__texts = [];
new MutationObserver(() => {
  for (const [where, sel] of [["status", ".cc-calc .cc-status"], ["answer", ".cc-calc .cc-answer-text"]]) {
    const node = document.querySelector(sel);
    const text = node ? node.textContent : null;
    const last = window.__texts.filter((t) => t[0] === where).pop();
    const at = performance.timeOrigin + performance.now();
    if (text && (!last || last[1] !== text)) window.__texts.push([where, text, at]);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def shared_url(base: str, site) -> str:
    system, calculator, query = SHARED
    return urljoin(base, site.calculator_pages()[(system, calculator)]["url"]) + query


def release(page, handler, when: str) -> None:
    """Once the module the server holds (`handler.held`) has been asked for and `when` (a
    predicate in the page) holds, let the server send it."""
    assert handler.held_asked.wait(FIRST_READY_MS / 1000), f"{handler.held} never requested"
    wait_until(page, when)
    handler.unhold.set()


CALCULATOR_ASKED = "() => Boolean(document.querySelector('.cc-calc[data-cc-state=loading]'))"
"""The calculator has computed a shared link, so it has asked for a worker."""


def open_calculator_first(ctx, handler, url: str):
    """A page at `url` whose calculator asks for a worker before the head's early start runs
    (the order that made two workers): the server holds worker-early.mjs until then."""
    handler.held = ("worker-early.mjs",)
    page = ctx.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    page.goto(url, wait_until="commit")
    release(page, handler, CALCULATOR_ASKED)
    return page


def fetched(handler, site) -> dict:
    """How many times the server sent each runtime file, and the bytes of everything it sent."""
    counts = {kind: sum(part in p for p in handler.requests) for kind, part in RUNTIME_FILES.items()}
    root = site.dir.parent
    files = [root / p.split("?")[0].lstrip("/") for p in handler.requests]
    counts["bytes"] = sum(f.stat().st_size for f in files if f.is_file())
    return counts


@pytest.mark.parametrize("first", ["calculator", "head"])
def test_a_shared_link_downloads_the_runtime_once_whatever_runs_first(browser, site, controlled, first):
    """The calculator computes a shared link at once; the head's early start (worker-early.mjs)
    is an async module. Each is held back in turn until the other has asked for a worker: the
    server sends the wasm, the standard library and the snapshot at most once each, and the page
    has one worker."""
    handler, base = controlled
    handler.held = ("worker-early.mjs",) if first == "calculator" else ("calculators.mjs",)
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script(FAST_LINK)  # loopback is fast: a first visit restores the snapshot
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(shared_url(base, site), wait_until="commit")
        release(page, handler, CALCULATOR_ASKED if first == "calculator" else "() => Boolean(window.__ccEarlyWorker)")
        assert settle(page)["state"] == "done"
        workers = [w for w in page.workers if "pyodide-worker" in w.url]
        counts = fetched(handler, site)
        print(f"\n{first} first: {counts}")
        assert counts["wasm"] == 1 and counts["stdlib"] <= 1 and counts["snapshot"] <= 1, counts
        assert counts["stdlib"] + counts["snapshot"] >= 1, counts
        assert len(workers) == 1, [w.url for w in page.workers]
    finally:
        ctx.close()


FAILED_AT = """
new MutationObserver(() => {
  if (!window.__failedAt && document.querySelector(".cc-calc[data-cc-state=failed]"))
    window.__failedAt = performance.timeOrigin + performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-cc-state"] });
"""
"""Records (ms since the epoch) when the page first shows a failed start."""


def test_a_stall_is_named_within_15_s_and_retry_is_a_fresh_attempt(browser, site, controlled):
    """The production threshold (no knob): the server sends half of the wasm and hangs; within
    15 s of that last byte the page names the file and offers Retry. The server recovers; Retry
    makes a new attempt (not the old worker's failure replayed) and the answer comes promptly.
    The 15 s run from the server's last byte to the moment the page itself showed the failure
    (its own clock): the time Playwright takes to notice and report it back is not the page's."""
    handler, base = controlled
    handler.mode = "stall"
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script(FAST_LINK)
    ctx.add_init_script(FAILED_AT)
    try:
        page = open_calculator_first(ctx, handler, shared_url(base, site))
        assert handler.stalled.wait(FIRST_READY_MS / 1000), "the wasm was never requested"
        page.wait_for_selector(".cc-calc[data-cc-state=failed]", timeout=40_000)
        detected = (page.evaluate("window.__failedAt") - handler.last_byte_at) / 1000
        status = page.locator(".cc-calc .cc-status").inner_text()
        assert WASM in status and "stalled" in status, status
        retry = page.locator(".cc-calc .cc-retry")
        assert retry.is_visible()
        handler.mode = "normal"
        handler.release.set()
        seen = answers(page)
        clicked = time.monotonic()
        retry.click()
        wait_until(
            page,
            "(n) => { const c = document.querySelector('.cc-calc');"
            " return c.dataset.ccState === 'done' && Number(c.dataset.ccResults) > n; }",
            seen,
            timeout_ms=20_000,
        )
        answered = time.monotonic() - clicked
        print(f"\nstall reported {detected:.1f} s after the last byte; Retry answered in {answered:.1f} s")
        assert detected <= 15, detected
        assert not retry.is_visible()
    finally:
        ctx.close()


def test_leaving_a_page_cancels_its_calculation(browser, site):
    """A calculation that takes a minute (the `cc-busy-ms` knob) runs when the reader follows a
    link to another calculator: an edit there is answered without waiting for the abandoned one
    (a restart takes seconds even on a loaded machine; the abandoned calculation 40 s or more)."""
    pages = site.calculator_pages()
    here, there = pages[("action-points", "damage")], pages[("action-points", "hit")]
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script("localStorage.setItem('cc-busy-ms', '60000')")
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(urljoin(site.base, here["url"]) + "?misc=1")  # a shared link: computes at once
        page.wait_for_selector("html[data-cc-python]", state="attached")  # Python is ready
        page.wait_for_timeout(500)  # and the calculation, sent before, runs
        page.evaluate("localStorage.removeItem('cc-busy-ms')")  # the next worker calculates at once
        instant_go(page, urljoin(site.base, there["url"]))
        settle(page, "hit")
        seen = answers(page)
        edited = time.monotonic()
        page.locator(".cc-calc input[data-input=misc]").fill("2")
        settle(page, "hit", after=seen)
        waited = time.monotonic() - edited
        print(f"\nthe next page's edit answered in {waited:.2f} s")
        assert waited < 30, waited
    finally:
        ctx.close()


def stage_texts(texts: list, after: float) -> list:
    return [t for t in texts if t[2] > after and any(s in t[1] for s in START_STAGES)]


def test_no_line_describes_a_stage_that_has_ended(browser, site, controlled):
    """A shared link's first visit: "Downloading…" is gone within 2 s of the runtime's
    last byte (the wasm's and the standard library's; the small wheel comes while Python starts),
    and once Python is ready neither line names a stage of its start; the answer follows."""
    handler, base = controlled
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script("localStorage.setItem('cc-fast-link-mbps', '1000000')")  # the normal start
    ctx.add_init_script(RECORD_TEXTS)
    try:
        page = open_calculator_first(ctx, handler, shared_url(base, site))
        assert settle(page)["state"] == "done"
        (worker,) = [w for w in page.workers if "pyodide-worker" in w.url]
        last_byte = worker.evaluate(
            """() => Math.max(...performance.getEntriesByType("resource")
                .filter((e) => /pyodide\\.asm\\.wasm|python_stdlib/.test(e.name))
                .map((e) => performance.timeOrigin + e.responseEnd))"""
        )
        ready = page.evaluate("performance.timeOrigin + performance.getEntriesByName('cc:python-ready')[0].startTime")
        texts = page.evaluate("window.__texts")
        replaced = []
        for where in ("status", "answer"):
            line = [t for t in texts if t[0] == where]
            last = max((i for i, t in enumerate(line) if "Downloading" in t[1]), default=None)
            if last is not None and last + 1 < len(line):
                replaced.append(line[last + 1][2])
        assert replaced, texts
        late = max(replaced) - last_byte
        print(f"\n'Downloading' replaced {late:.0f} ms after the last runtime byte")
        assert late < 2000, (last_byte, texts)
        assert not stage_texts(texts, ready + 50), texts
    finally:
        ctx.close()


def test_after_cancel_no_line_says_python_is_still_starting(browser, site, controlled):
    """Cancel while the runtime downloads (a stalled server): once the worker has started again and
    the status says Ready, the answer line says the calculation was cancelled, not a stage.
    The new worker asks the server for the wasm again and never needs the stalled connection to
    end: Chromium cancels a terminated worker's request some time after `terminate`, and a request
    for the same file made before that joined its HTTP cache entry, got half the file and then the
    stalled download's error (issue 34: "not Ready in 60 s", 2 runs of this file in 5 on a loaded
    machine; calc-worker-client.mjs `restart` now starts it `fresh`, past the HTTP cache)."""
    handler, base = controlled
    handler.mode = "stall"
    ctx = browser.new_context(service_workers="block")
    ctx.add_init_script("localStorage.setItem('cc-fast-link-mbps', '1000000')")
    ctx.add_init_script(RECORD_TEXTS)
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(shared_url(base, site))
        assert handler.stalled.wait(FIRST_READY_MS / 1000), "the wasm was never requested"
        page.wait_for_selector(".cc-calc .cc-progress:not([hidden])")
        handler.mode = "normal"  # the next worker's downloads go through; the stalled one stays stalled
        page.locator(".cc-calc .cc-cancel").click()
        try:
            wait_until(page, "() => document.querySelector('.cc-calc .cc-status').textContent.startsWith('Ready')")
        except TimeoutError as err:
            # Say what the lines went through and what the server sent last (a CI log's clue).
            texts = [t[:2] for t in page.evaluate("window.__texts")]
            raise TimeoutError(f"{err}\nlines: {texts}\nserver, last: {handler.requests[-12:]}") from err
        wasm = [p for p in handler.requests if WASM in p]
        assert len(wasm) == 2, wasm  # the stalled one and the new worker's own
        line = page.locator(".cc-calc .cc-answer-text").inner_text()
        assert not any(s in line for s in START_STAGES), line
        assert "Cancelled" in line, line
    finally:
        ctx.close()


def test_the_worker_hides_jspi_from_pyodide(browser, site):
    """Chromium has JSPI and, with Pyodide on it, now and then crashed the whole renderer when a
    page was left while its worker started Python (pyodide-worker.mjs): the worker hides it, and
    the calculators still answer."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(shared_url(site.base, site))
        settle(page, SHARED[1])
        assert page.evaluate("'Suspending' in WebAssembly"), "this Chromium has no JSPI: the test shows nothing"
        python = [w for w in page.workers if "pyodide-worker" in w.url]
        assert len(python) == 1, [w.url for w in page.workers]
        assert python[0].evaluate("['Suspending', 'promising', 'Suspender'].filter((n) => n in WebAssembly)") == []
    finally:
        ctx.close()
