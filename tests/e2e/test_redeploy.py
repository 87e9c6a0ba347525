"""A returning reader across a redeploy (issue 9), and what a first visit downloads (issue 12).

The server here serves one of two builds under /sub/ (a symlink switched in one step, as a
deploy replaces a site), sends `Cache-Control: max-age=600` like GitHub Pages, counts the bytes
of every response and can cut chosen files off halfway. v1 is the session's build; v2 is v1
deployed again with a wheel of another data version (what a data change deploys): the wheel, the
lock, the memory snapshot (when the build makes one), runtime.mjs, every page's build id and sw.js
change, and v1's wheel and snapshot are gone from the server. v2 is made by running the build's
own install step (tools/build_site.install_runtime) on a copy of v1, which costs a few seconds
instead of a second full build.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from pages import FIRST_READY_MS, calculator_url, expected, settle, wait_until

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402  (tools/ is not a package)
import wheel_backend  # noqa: E402


class DeployHandler(SimpleHTTPRequestHandler):
    """Serves the current deploy with GitHub Pages' caching; logs bytes; aborts chosen files."""

    def handle(self) -> None:
        if self.server.state.offline:  # type: ignore[attr-defined]
            return  # the connection closes unanswered: a network error, for the service worker too
        super().handle()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        path = unquote(urlsplit(self.path).path)
        state: DeployServer = self.server.state  # type: ignore[attr-defined]
        if any(path.endswith(end) for end in state.aborts):
            outputfile.write(data[: len(data) // 2])  # then the connection closes: a cut download
            self.close_connection = True
            state.log.append((path, "cut", len(data) // 2))
            return
        outputfile.write(data)
        state.log.append((path, self.headers.get("Sec-Fetch-Dest", ""), len(data)))

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib signature)
        pass


@dataclass
class DeployServer:
    root: Path  # holds `sub`, a symlink to the deployed build
    builds: dict[str, Path]
    base: str = ""
    aborts: set[str] = field(default_factory=set)
    offline: bool = False  # Playwright's set_offline does not reach the service worker's fetches
    log: list[tuple[str, str, int]] = field(default_factory=list)

    def deploy(self, name: str) -> None:
        link = self.root / "sub.new"
        link.unlink(missing_ok=True)
        link.symlink_to(self.builds[name], target_is_directory=True)
        os.replace(link, self.root / "sub")  # one step, as a deploy

    def build_id(self, name: str) -> str:
        html = (self.builds[name] / "index.html").read_text(encoding="utf-8")
        return re.search(r'<meta name="cc-build" content="([0-9a-f]+)">', html).group(1)

    def file_for(self, url: str) -> Path | None:
        """The file of the deployed v2 build that `url` names (pages: their index.html)."""
        rel = unquote(urlsplit(url).path).removeprefix("/sub/")
        path = self.builds["v2"] / rel
        return path / "index.html" if rel == "" or rel.endswith("/") else path


def retag_wheel(wheel: Path, out_dir: Path) -> Path:
    """The same engine under another data version: a new wheel name and sha256, its rules.json
    and metadata saying the new version, RECORD rewritten to match."""
    old = wheel.name.split("-")[1]  # 0.1.0+<data version>
    old_data = old.split("+")[1]
    new_data = hashlib.sha256(old_data.encode()).hexdigest()[:12]
    new = old.replace(old_data, new_data)
    entries = []
    with zipfile.ZipFile(wheel) as zin:
        for info in zin.infolist():
            name = info.filename.replace(f"-{old}.dist-info", f"-{new}.dist-info")
            data = zin.read(info)
            if name.endswith(("METADATA", "rules.json")):
                assert old_data.encode() in data, name
                data = data.replace(old_data.encode(), new_data.encode())
            entries.append((info, name, data))
    out = out_dir / wheel.name.replace(old, new)
    with zipfile.ZipFile(out, "w") as zout:
        record = [wheel_backend._record_line(n, d) for _, n, d in entries if not n.endswith("RECORD")]
        for info, name, data in entries:
            if name.endswith("RECORD"):
                data = ("\n".join([*record, f"{name},,"]) + "\n").encode()
            copy = zipfile.ZipInfo(name, date_time=info.date_time)
            copy.compress_type, copy.external_attr = info.compress_type, info.external_attr
            zout.writestr(copy, data)
    return out


@pytest.fixture(scope="module")
def deploys(site, tmp_path_factory):
    root = tmp_path_factory.mktemp("deploys")
    v1, v2 = root / "v1", root / "v2"
    shutil.copytree(site.dir, v1, symlinks=True)
    shutil.copytree(site.dir, v2, symlinks=True)
    wheel = next((v1 / "assets" / "wheels").glob("calc-*.whl"))
    fight_wheel = next((v1 / "assets" / "wheels").glob("calc_fight-*.whl"))  # calc-fight (calc/packages.py)
    snapshot = any((v1 / "assets" / "snapshot").glob("*.bin"))
    saved = os.environ.get("CC_SNAPSHOT")
    os.environ["CC_SNAPSHOT"] = "1" if snapshot else "0"
    try:
        version = build_site.pinned_pyodide_version()
        # v2 keeps v1's trimmed standard library: the retagged wheel imports the same modules.
        stdlib = v1 / "assets" / "pyodide" / version / build_site.PYC_STDLIB
        build_site.install_runtime(v2, [retag_wheel(w, root) for w in (wheel, fight_wheel)], version, stdlib)
    finally:
        if saved is None:
            os.environ.pop("CC_SNAPSHOT")
        else:
            os.environ["CC_SNAPSHOT"] = saved
    state = DeployServer(root=root, builds={"v1": v1, "v2": v2})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(DeployHandler, directory=str(root)))
    server.state = state  # type: ignore[attr-defined]
    state.base = f"http://127.0.0.1:{server.server_address[1]}/sub/"
    state.deploy("v1")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def test_v2_really_differs(deploys):
    """The second deploy renames what a data change renames (else the test below proves little)."""
    names = {
        b: {p.name for p in (d / "assets").rglob("*") if p.suffix in {".whl", ".bin"}}
        for b, d in deploys.builds.items()
    }  # noqa: E501
    assert names["v1"] and names["v1"].isdisjoint(names["v2"]), names
    assert deploys.build_id("v1") != deploys.build_id("v2")


CACHED = """async () => {
    const out = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const body = await (await cache.match(request)).arrayBuffer();
            const digest = await crypto.subtle.digest("SHA-256", body);
            const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
            out.push([name, request.url, hex]);
        }
    }
    return out;
}"""


def first_visit(page, deploys, case) -> None:
    page.goto(calculator_url(deploys.base, case))
    assert settle(page) == expected(case["reply"], deploys.base)
    page.wait_for_selector("html[data-cc-offline=ready]", state="attached")


def shown_build(page) -> str:
    return page.get_attribute('meta[name="cc-build"]', "content")


def visit(page, deploys, case, clear_http_cache=None) -> bool:
    """One visit; True when the calculator answered (and answered right)."""
    if clear_http_cache:
        clear_http_cache.send("Network.clearBrowserCache")  # Cache Storage stays
    page.goto(calculator_url(deploys.base, case))
    try:
        return settle(page) == expected(case["reply"], deploys.base)
    except AssertionError:
        return False


def wait_for_build(page, build: str) -> None:
    """Until the active service worker is `build`'s (asked through the page's controller)."""
    wait_until(
        page,
        """(build) => new Promise((resolve) => {
            const sw = navigator.serviceWorker;
            if (!sw.controller) return resolve(false);
            sw.addEventListener("message", (e) => e.data?.type === "cc-build" && resolve(e.data.build === build));
            sw.controller.postMessage({ type: "cc-build?" });
            setTimeout(() => resolve(false), 1000);
        })""",
        build,
    )


def reported_build(page) -> str | None:
    """The build the page's controlling service worker reports (None: none answers in 1 s)."""
    return page.evaluate(
        """() => new Promise((resolve) => {
            const sw = navigator.serviceWorker;
            if (!sw.controller) return resolve(null);
            const listen = (e) => {
                if (e.data?.type !== "cc-build") return;
                sw.removeEventListener("message", listen);
                resolve(e.data.build);
            };
            sw.addEventListener("message", listen);
            sw.controller.postMessage({ type: "cc-build?" });
            setTimeout(() => resolve(null), 1000);
        })"""
    )


REGISTRATION = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const say = (w) => w && `${w.state} ${w.scriptURL}`;
    return reg && { installing: say(reg.installing), waiting: say(reg.waiting), active: say(reg.active) };
}"""


def installs_settled(page, deploys) -> None:
    """Until the update check this visit made is over (site-update.mjs: `data-cc-update-check`)
    and the page's registration then has no worker installing or waiting and its active one is
    activated (an install it started has ended, and a new build has taken the page over).
    Polling the registration alone raced the check: before update() had found the new sw.js
    there was nothing installing yet, so the wait passed before the install it meant had begun.
    If it never settles, say what the registration holds and what the server sent last."""
    try:
        page.wait_for_selector("html[data-cc-update-check=done]", state="attached")
        wait_until(
            page,
            """async () => {
                const reg = await navigator.serviceWorker.getRegistration();
                return Boolean(reg) && !reg.installing && !reg.waiting && reg.active?.state === "activated";
            }""",
        )
    except TimeoutError as err:
        tail = deploys.log[-15:]
        raise TimeoutError(f"{err}\nregistration: {page.evaluate(REGISTRATION)}\nserver, last: {tail}") from err


@contextlib.contextmanager
def returning_reader(browser, deploys, site):
    """A reader who visited a calculator of build v1 (offline-ready); yields (context, page, case)."""
    deploys.deploy("v1")
    case = site.cases[0]
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        first_visit(page, deploys, case)
        assert shown_build(page) == deploys.build_id("v1")
        yield ctx, page, case
    finally:
        deploys.aborts = set()
        ctx.close()


def test_returning_reader_survives_a_redeploy(browser, deploys, site):
    with returning_reader(browser, deploys, site) as (ctx, page, case):
        deploys.deploy("v2")  # v1's wheel and snapshot are gone from the server
        cdp = ctx.new_cdp_session(page)
        answered = [visit(page, deploys, case)]  # the HTTP cache still holds v1's files (max-age)
        # Meanwhile v2 installed in the background; the v1 page offers a reload.
        page.wait_for_selector("html[data-cc-update=installed]", state="attached")
        page.wait_for_selector(".cc-update button")
        answered += [visit(page, deploys, case, clear_http_cache=cdp) for _ in range(3)]
        print(f"\nredeploy: visits answered {answered}")
        assert answered == [True, True, True, True]
        assert shown_build(page) == deploys.build_id("v2")
        assert page.evaluate("document.documentElement.dataset.ccUpdate") is None  # no notice on v2

        wait_for_build(page, deploys.build_id("v2"))
        # v2's snapshot and other pages are stored on a visit v2's worker controls from its start.
        visit(page, deploys, case)
        page.wait_for_selector("html[data-cc-offline=complete]", state="attached")
        cached = page.evaluate(CACHED)
        assert cached
        stale = []
        for cache, url, digest in cached:
            path = deploys.file_for(url)
            if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                stale.append((cache, url))
        assert stale == [], f"{len(stale)} cached files are not v2's: {stale[:5]}"
        # What the worker fetches: the wheel as .xz (its stored zip is not precached).
        v2_files = {p for p in deploys.builds["v2"].rglob("*") if p.name.endswith((".whl.xz", ".bin"))}
        assert {deploys.file_for(u) for _, u, _ in cached} >= v2_files


def test_offline_during_the_deploy_keeps_v1_working(browser, deploys, site):
    with returning_reader(browser, deploys, site) as (ctx, page, case):
        deploys.deploy("v2")
        cdp = ctx.new_cdp_session(page)
        ctx.set_offline(True)
        deploys.offline = True
        try:
            for _ in range(2):
                assert visit(page, deploys, case, clear_http_cache=cdp)
                assert shown_build(page) == deploys.build_id("v1")
        finally:
            ctx.set_offline(False)
            deploys.offline = False
        # Back online: the next visit still answers with v1 and installs v2 meanwhile.
        assert visit(page, deploys, case, clear_http_cache=cdp)
        page.wait_for_selector("html[data-cc-update=installed]", state="attached")
        assert visit(page, deploys, case, clear_http_cache=cdp)
        assert shown_build(page) == deploys.build_id("v2")


def test_an_interrupted_install_leaves_v1_and_a_later_visit_completes_v2(browser, deploys, site):
    """Every visit checks for an update (site-update.mjs), so the check that ran into the cut and
    the one that completes v2 are each a visit's; the test waits for each install to end (state,
    not time) and allows a few visits for v2, since which visit's check first runs after the
    network recovered depends on timing. Each visit must answer, with v1 until v2 is whole."""
    wheel_v2 = next((deploys.builds["v2"] / "assets" / "wheels").glob("calc-*.whl.xz")).name
    with returning_reader(browser, deploys, site) as (ctx, page, case):
        deploys.aborts = {wheel_v2}
        deploys.deploy("v2")
        cdp = ctx.new_cdp_session(page)
        assert visit(page, deploys, case, clear_http_cache=cdp)
        installs_settled(page, deploys)  # the install of v2 failed on the cut wheel: nothing left waiting
        assert any(status == "cut" for _, status, _ in deploys.log)
        assert page.evaluate("document.documentElement.dataset.ccUpdate") is None
        assert reported_build(page) == deploys.build_id("v1")
        assert visit(page, deploys, case, clear_http_cache=cdp)  # v1 still whole
        assert shown_build(page) == deploys.build_id("v1")
        installs_settled(page, deploys)  # the check this visit made may still be failing on the cut

        deploys.aborts = set()  # the network recovers: a later visit completes v2
        builds = []
        for _ in range(4):
            assert visit(page, deploys, case, clear_http_cache=cdp)
            installs_settled(page, deploys)
            builds.append(reported_build(page))
            if builds[-1] == deploys.build_id("v2"):
                break
        tail = [(path, status) for path, status, _ in deploys.log[-12:]]
        assert builds[-1] == deploys.build_id("v2"), (builds, tail)
        assert visit(page, deploys, case, clear_http_cache=cdp)
        assert shown_build(page) == deploys.build_id("v2")


def test_first_visit_downloads_each_file_once(browser, deploys, site):
    """A first visit, until the service worker has precached everything: no file twice (the
    worker's runtime downloads are handed to the precache). Prints what went over the wire."""
    deploys.deploy("v2")
    deploys.log.clear()
    case = site.cases[0]
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        first_visit(page, deploys, case)
        wait_for_build(page, deploys.build_id("v2"))
        log = list(deploys.log)
    finally:
        ctx.close()
    counts: dict[str, int] = {}
    for path, _, _ in log:
        counts[path] = counts.get(path, 0) + 1
    total = sum(size for _, _, size in log)
    heavy = {p: n for p, n in counts.items() if p.endswith((".wasm", ".zip", ".whl", ".xz", ".bin", ".mjs"))}
    print(f"\nfirst visit: {len(log)} requests, {total / 1e6:.2f} MB; runtime files: {json.dumps(heavy)}")
    twice = {p: n for p, n in counts.items() if n > 1}
    assert twice == {}, twice
