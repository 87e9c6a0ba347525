"""Browser tests of the built site: Debian's Chromium driven by Playwright over loopback.

The site is built ONCE per session into a temporary folder with
SITE_URL=http://127.0.0.1:<port>/sub/ (Material's instant navigation only works when the served
URL is `site_url`), and served under /sub/ so GitHub-Pages-style project paths are exercised.
CPython's answers for every calculator (defaults, stress inputs, a bad input) come from the very
wheel the site ships. Set CC_E2E_BUILD to a command with `{dir}` to build some other way.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pages import FIRST_READY_MS, WASM

ROOT = Path(__file__).resolve().parents[2]
SUBPATH = "sub"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib signature)
        pass


HOLD_PATH = "__hold-worker"  # answered by ControlledHandler once the test releases it


@dataclass
class Site:
    base: str  # http://127.0.0.1:<port>/sub/
    dir: Path  # the built site
    cases: list[dict]  # [{"request", "reply", "url", "declaration"}]

    @property
    def origin(self) -> str:
        return self.base.split(f"/{SUBPATH}/")[0]

    def calculator_pages(self) -> dict[tuple[str, str], dict]:
        """(system, calculator) → {"url", "declaration"} for every calculator (the smoke cases
        also hold the tracker's `turns` requests, which name no calculator and have no page)."""
        return {(c["request"]["system"], c["request"]["calculator"]): c for c in self.cases if c.get("url")}


E2E_DIR = Path(__file__).resolve().parent
RETRIES = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run again, up to RETRIES times, as Playwright's own test
    runner does on CI: a real Chromium on a loaded 2-core machine has timing no test controls
    (service-worker updates, network stacks, schedulers), and one such hiccup among ~150 browser
    tests refused whole submissions. A retried test is listed as RERUN in the summary, with the
    count ("N rerun"), so a flaky test stays visible; one that fails every time still fails."""
    for item in items:
        if E2E_DIR in Path(item.path).parents:
            item.add_marker(pytest.mark.flaky(reruns=RETRIES))


def pytest_terminal_summary(terminalreporter) -> None:
    """What each retried browser test failed on first (pytest-rerunfailures lists only names):
    the end of its error, so a flake seen in CI can be chased without reproducing it."""
    reruns = terminalreporter.stats.get("rerun", [])
    if not reruns:
        return
    terminalreporter.section("why browser tests were retried")
    for report in reruns:
        lines = str(report.longrepr).strip().splitlines()
        terminalreporter.write_line(f"{report.nodeid}:")
        for line in lines[-20:]:
            terminalreporter.write_line(f"    {line}")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = tmp_path_factory.mktemp("e2e-site")
    site_dir = root / SUBPATH
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(root)))
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}/{SUBPATH}/"
    command = os.environ.get("CC_E2E_BUILD", f"{sys.executable} tools/build_site.py --site-dir {{dir}}")
    env = {**os.environ, "SITE_URL": base, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(shlex.split(command.format(dir=site_dir)), cwd=ROOT, env=env, check=True)
    wheels = sorted((site_dir / "assets" / "wheels").glob("calc-*.whl"))
    assert len(wheels) == 1, f"expected one calc wheel in the site, found {wheels}"
    # The site's wheel is sourceless bytecode for Pyodide's Python: CPython's answers come from
    # the wheel with sources it was compiled from (tools/build_site.py source_wheel).
    source = ROOT / "build" / "wheels" / "plain" / wheels[0].name
    assert source.is_file(), f"the build left no wheel with sources at {source}"
    answers = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "node" / "cpython_answers.py"), str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # the calculators' cases (the same answers also hold the tracker's `turns` requests, no page)
        cases = [c for c in json.loads(answers.stdout) if "calculator" in c["request"]]
        yield Site(base=base, dir=site_dir, cases=cases)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def watched(context, page, site: Site):
    """A page whose off-origin requests are refused and recorded, with console errors, page
    errors and dialogs (any dialog is a failure: nothing typed may run) collected."""
    record = {"external": [], "errors": [], "dialogs": [], "requests": []}

    def route(route):
        url = route.request.url
        if url.startswith(site.origin + "/"):
            route.continue_()
        else:
            record["external"].append(url)
            route.abort()

    context.route("**/*", route)
    page.on("request", lambda r: record["requests"].append(r.url))
    page.on("console", lambda m: record["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: record["errors"].append(str(e)))
    page.on("dialog", lambda d: (record["dialogs"].append(d.message), d.dismiss()))
    page.set_default_timeout(FIRST_READY_MS)
    return page, record


class ControlledHandler(QuietHandler):
    """Serves the site; `mode` decides how the wasm (pages.WASM) goes: "normal", "stall" (headers and
    half the file, then nothing until `release` is set) or "slow" (small chunks with pauses).
    A request for HOLD_PATH is answered (empty) once `release` is set; `holding` says it came.
    `requests` lists every path asked for, in order; `last_byte_at` (time.time(), in ms since the
    epoch: the page's clock, performance.timeOrigin + now, counts the same) is when a
    stalled wasm download sent its last byte. A file named in `held` (e.g. "worker-early.mjs")
    is sent only once `unhold` is set; `held_asked` says it was asked for."""

    mode = "normal"
    release = threading.Event()
    stalled = threading.Event()
    holding = threading.Event()
    held: tuple[str, ...] = ()

    def do_GET(self) -> None:  # noqa: D102 (http.server's hook)
        type(self).requests.append(self.path)
        if self.held and self.path.split("?")[0].endswith(tuple("/" + h for h in self.held)):
            type(self).held_asked.set()
            type(self).unhold.wait(120)
        if self.path.split("?")[0].endswith(HOLD_PATH):
            type(self).holding.set()
            type(self).release.wait(120)
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def copyfile(self, source, outputfile) -> None:  # noqa: D102 (http.server's hook)
        if not self.path.split("?")[0].endswith(WASM) or self.mode == "normal":
            return super().copyfile(source, outputfile)
        data = source.read()
        if self.mode == "stall":
            outputfile.write(data[: len(data) // 2])
            outputfile.flush()
            if type(self).last_byte_at is None:  # the first stalled download's
                type(self).last_byte_at = time.time() * 1000
            type(self).stalled.set()
            type(self).release.wait(120)
            self.close_connection = True
            return None
        for i in range(0, len(data), 256 * 1024):
            outputfile.write(data[i : i + 256 * 1024])
            outputfile.flush()
            time.sleep(0.05)  # the server side of a slow link
        return None


@pytest.fixture
def controlled(site):
    """The built site on a second server whose wasm download the test controls."""
    fresh = {
        "mode": "normal",
        "release": threading.Event(),
        "stalled": threading.Event(),
        "holding": threading.Event(),
        "requests": [],
        "last_byte_at": None,
        "held_asked": threading.Event(),
        "unhold": threading.Event(),
    }
    handler = type("Handler", (ControlledHandler,), fresh)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site.dir.parent)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/{SUBPATH}/"
    try:
        yield handler, base
    finally:
        handler.release.set()
        handler.unhold.set()
        server.shutdown()
        server.server_close()
