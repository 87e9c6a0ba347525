"""The calculators in a real browser: parity with CPython, origin-only traffic, no console
errors, one Python start across instant navigation, offline reloads, and user text that is
shown as text and never run."""

from __future__ import annotations

from urllib.parse import urlencode, urljoin

import pytest
from pages import FIRST_READY_MS, SLOW_LINK, WASM, answers, calculator_url, expected, instant_go, settle, wait_until

from calc import evaluate

XSS = "<img src=x onerror=alert(1)>"


def test_parity_with_cpython_on_every_calculator(watched, site):
    """Defaults, stress inputs and a bad input of every calculator of every system: the page
    shows exactly what calc.evaluate answers in CPython (one Python start, instant navigation)."""
    page, record = watched
    assert site.cases, "no calculator in the data"
    mismatches = []
    pages = list(site.calculator_pages().values())
    cases = [c for c in site.cases if c.get("url")]  # the tracker's turns requests have no page
    for i, case in enumerate(cases):
        url = calculator_url(site.base, case)
        if i == 0:
            page.goto(url)
        else:
            if case["url"] == cases[i - 1]["url"]:  # hop away: a same-page link is not a page load
                hop = next(p for p in pages if p["url"] != case["url"])
                instant_go(page, urljoin(site.base, hop["url"]))
                settle(page, hop["request"]["calculator"])
            instant_go(page, url)
        shown = settle(page, case["request"]["calculator"])
        want = expected(case["reply"], site.base)
        if shown != want:
            mismatches.append((case["request"], want, shown))
    assert not mismatches, "\n\n".join(f"{r}\nexpected {w}\nshown    {s}" for r, w, s in mismatches[:3])
    assert record["external"] == []
    assert record["errors"] == []
    assert sum(u.endswith(WASM) for u in record["requests"]) == 1


def test_requests_stay_on_origin_and_console_is_clean(watched, site):
    page, record = watched
    page.goto(calculator_url(site.base, site.cases[0], {}))
    settle(page)
    page.goto(site.base)  # the home page too
    page.wait_for_load_state("load")
    assert record["external"] == []
    assert record["errors"] == []
    assert record["dialogs"] == []


@pytest.fixture
def context_args_no_sw(browser):
    ctx = browser.new_context(service_workers="block")
    yield ctx
    ctx.close()


def test_instant_navigation_reuses_python(context_args_no_sw, site):
    """A second calculator page reached by a link answers without fetching the runtime again."""
    page = context_args_no_sw.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    wasm = []
    page.on("request", lambda r: wasm.append(r.url) if r.url.endswith(WASM) else None)
    pages = list(site.calculator_pages().values())
    assert len(pages) >= 2, "needs two calculators"
    page.goto(urljoin(site.base, pages[0]["url"]))
    settle(page)
    # The default answer is prerendered: Python starts once the page is idle.
    page.wait_for_selector("html[data-cc-python]", state="attached")
    page.evaluate("window.__sameDocument = true")
    instant_go(page, urljoin(site.base, pages[1]["url"]))
    settle(page, pages[1]["request"]["calculator"])
    assert page.evaluate("window.__sameDocument === true"), "the link did a full reload"
    assert len(wasm) == 1


EARLY_EVENTS = "() => (window.__ccEarlyWorker?.events || []).map((e) => e.data?.type || e.type)"


def test_the_head_starts_the_download_and_python_waits_for_the_page(context_args_no_sw, site):
    """A calculator page's head creates the worker at once (worker-early.mjs): the runtime
    downloads while Python's start is held until the page says "go". Here the page's own
    scripts are kept from loading, so nothing adopts the worker: it downloads, reports that it
    holds, and only starts Python once told to."""
    page = context_args_no_sw.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    page.route("**/assets/js/calculator/calculators.mjs", lambda route: route.abort())
    with context_args_no_sw.expect_event("requestfinished", lambda r: r.url.endswith(WASM)):
        page.goto(urljoin(site.base, next(iter(site.calculator_pages().values()))["url"]))
    # The whole runtime arrived without the page asking; the worker holds before Python starts.
    wait_until(page, f"() => ({EARLY_EVENTS})().includes('held')")
    events = page.evaluate(EARLY_EVENTS)
    assert "ready" not in events and "error" not in events, events
    page.evaluate("window.__ccEarlyWorker.worker.postMessage({ type: 'go' })")
    wait_until(page, f"() => ({EARLY_EVENTS})().includes('ready')")
    assert page.locator("html[data-cc-python]").count() == 0  # no page script ran


def test_a_page_adopts_the_worker_its_head_started(context_args_no_sw, site):
    """The worker the head started is the page's: one worker, one runtime download, and the
    page's first answer to an edit comes from it."""
    page = context_args_no_sw.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    workers, wasm = [], []
    page.on("worker", lambda w: workers.append(w.url))
    page.on("request", lambda r: wasm.append(r.url) if r.url.endswith(WASM) else None)
    page.goto(urljoin(site.base, next(iter(site.calculator_pages().values()))["url"]))
    settle(page)
    page.wait_for_selector("html[data-cc-python]", state="attached")
    assert page.evaluate("window.__ccEarlyWorker") is None, "the page did not adopt the early worker"
    python_workers = [u for u in workers if u.endswith("pyodide-worker.mjs")]
    assert len(python_workers) == 1 and len(wasm) == 1, (python_workers, wasm)


def test_offline_reload_still_computes(context, page, site):
    """A first visit over a slow link (the knob: no link is fast) starts Python the normal way,
    never asks for the memory snapshot, precaches what the calculators need and works offline;
    a later visit stores the rest, and the one after restores the snapshot, offline."""
    context.add_init_script(SLOW_LINK)
    snapshots = []
    page.on("request", lambda r: snapshots.append(r.url) if "/assets/snapshot/" in r.url else None)
    page.set_default_timeout(FIRST_READY_MS)
    case = site.cases[0]
    second = next(  # inputs in the link, so Python computes it (a short answer: no row limit)
        c
        for c in site.cases
        if c["url"] != case["url"]
        and c["request"]["inputs"]
        and "result" in c["reply"]
        and not c["reply"]["result"].get("distribution")
    )
    has_snapshot = any((site.dir / "assets" / "snapshot").glob("*.bin"))
    page.goto(calculator_url(site.base, case))
    settle(page)
    # The service worker registers after the first result, precaches what the calculators need
    # (runtime, wheel, scripts, calculator pages), and only then activates and takes control; the
    # page marks that moment. The rest (other pages, the memory snapshot) waits for a later visit.
    page.wait_for_selector("html[data-cc-offline=ready]", state="attached")
    stored = page.evaluate(
        """async () => Object.fromEntries(await Promise.all((await caches.keys()).map(
            async (n) => [n, (await (await caches.open(n)).keys()).map((r) => r.url)])))"""
    )
    assert not any(urls for name, urls in stored.items() if name.startswith("cc-snapshot-")), stored.keys()
    assert snapshots == []
    assert site.base not in {u for name, urls in stored.items() for u in urls}  # the home page: later
    context.set_offline(True)
    try:
        page.reload()
        assert settle(page) == expected(case["reply"], site.base)
        # No snapshot cached yet: Python starts the normal way, offline.
        page.wait_for_selector("html[data-cc-python]", state="attached")
        assert page.evaluate("document.documentElement.dataset.ccPython") == "normal"
        instant_go(page, calculator_url(site.base, second))
        assert settle(page, second["request"]["calculator"]) == expected(second["reply"], site.base)
    finally:
        context.set_offline(False)
    # A later visit online stores the rest once idle; the next one restores the snapshot, offline.
    page.goto(calculator_url(site.base, case))
    settle(page)
    page.wait_for_selector("html[data-cc-offline=complete]", state="attached")
    context.set_offline(True)
    try:
        page.reload()
        assert settle(page) == expected(case["reply"], site.base)
        page.wait_for_selector("html[data-cc-python]", state="attached")
        assert page.evaluate("document.documentElement.dataset.ccPython") == ("snapshot" if has_snapshot else "normal")
        page.goto(site.base)  # a page without a calculator, from the rest of the site
        assert page.locator("meta[name=cc-build]").count() == 1
    finally:
        context.set_offline(False)


def test_typed_markup_is_text(watched, site):
    """The payload typed into every text field of every calculator is shown as text, runs nothing."""
    page, record = watched
    for i, case in enumerate(site.calculator_pages().values()):
        url = urljoin(site.base, case["url"])
        if i == 0:
            page.goto(url)
        else:
            instant_go(page, url)
        settle(page, case["request"]["calculator"])
        calc = page.locator(".cc-calc:not([data-cc-old])")
        fields = calc.locator("input[type=text][data-input]:enabled")  # form fields, not the preset picker
        for n in range(fields.count()):
            field = fields.nth(n)
            limit = int(field.get_attribute("maxlength") or len(XSS))
            seen = answers(page)
            field.fill(XSS)
            assert field.input_value() == XSS[:limit]
            settle(page, case["request"]["calculator"], after=seen)
            assert calc.locator("img").count() == 0
            assert field.input_value() == XSS[:limit]
            seen = answers(page)
            field.fill("")
            settle(page, case["request"]["calculator"], after=seen)
    assert record["dialogs"] == []
    assert page.locator(".cc-calc img").count() == 0


def test_url_parameters_are_text(watched, site):
    """The payload as every URL parameter (plus a list parameter holding it) runs nothing."""
    page, record = watched
    first = True
    for case in site.calculator_pages().values():
        params = {d["name"]: XSS for d in case["declaration"]["inputs"]}
        url = urljoin(site.base, case["url"]) + "?" + urlencode(params)
        if first:
            page.goto(url)
            first = False
        else:
            instant_go(page, url)
        settle(page, case["request"]["calculator"])
        calc = page.locator(".cc-calc:not([data-cc-old])")
        assert calc.locator("img").count() == 0
        for d in case["declaration"]["inputs"]:
            control = calc.locator(f'[data-input="{d["name"]}"]')
            if d["type"] in {"integer", "dice", "text"}:  # kept in the field, as text
                assert control.input_value() == XSS
            elif d["type"] in {"choice", "boolean"}:  # refused, the refusal quotes it as text
                assert XSS in calc.inner_text()
        lists = [d for d in case["declaration"]["inputs"] if d["type"] == "list"]
        for d in lists:
            names = [f["name"] for f in d["fields"] if f["type"] == "text"]
            item = {name: XSS for name in names}
            seen = answers(page)
            href = urljoin(site.base, case["url"]) + "?" + urlencode({d["name"]: f"[{_json(item)}]"})
            instant_go(page, href, same_page=True)
            shown = settle(page, case["request"]["calculator"], after=seen)
            if shown["state"] == "done" and names:  # accepted: the names are shown, as text
                assert XSS in page.locator(".cc-calc:not([data-cc-old])").inner_text()
            assert page.locator(".cc-calc:not([data-cc-old]) img").count() == 0
    assert record["dialogs"] == []
    assert record["errors"] == []


def _json(obj) -> str:
    import json

    return json.dumps(obj)


def test_rule_page_without_calculator_loads_no_python(watched, site):
    page, record = watched
    rule_pages = [p for p in site.dir.rglob("index.html") if "cc-calc" not in p.read_text(encoding="utf-8")]
    assert rule_pages, "every page holds a calculator?"
    target = rule_pages[0].relative_to(site.dir).parent.as_posix()
    page.goto(urljoin(site.base, "" if target == "." else target + "/"))
    page.wait_for_load_state("networkidle")
    heavy = [
        u for u in record["requests"] if "/assets/pyodide/" in u or "/assets/wheels/" in u or "pyodide-worker" in u
    ]
    assert heavy == []


def test_phone_width_and_keyboard_only(browser, site):
    """At 360 px nothing overflows sideways; the keyboard alone changes an input and the result."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    try:
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        pages = site.calculator_pages()
        case = next((c for (_, name), c in pages.items() if name == "initiative"), next(iter(pages.values())))
        page.goto(urljoin(site.base, case["url"]))
        before = settle(page, case["request"]["calculator"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert answers(page) == 1
        first = page.locator(".cc-calc input, .cc-calc select").first
        first.focus()
        add = page.locator(".cc-calc .cc-add")
        if add.count():
            rows = page.locator(".cc-calc .cc-row").count()
            for _ in range(60):  # Tab forward to the Add button
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('cc-add')"):
                    break
            page.keyboard.press("Enter")
            assert page.locator(".cc-calc .cc-row").count() == rows + 1
            assert page.evaluate("document.activeElement.closest('.cc-row') !== null")
        else:
            page.keyboard.press("Control+a")
            page.keyboard.type("1")
        after = settle(page, after=1)
        assert after["state"] in {"done", "error"} and after != before
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("blocked", "named"),
    [
        ([f"**/{WASM}"], f"the Python runtime ({WASM})"),
        # The standard library and the wheel come as .xz (tools/build_site.py write_stored_xz).
        (["**/python_stdlib_pyc.zip.xz"], "the Python standard library (python_stdlib_pyc.zip.xz)"),
        # The wheel is only fetched when the memory snapshot is not used.
        (["**/assets/wheels/calc-*.whl.xz", "**/assets/snapshot/*"], "the calculators package (calc-"),
    ],
)
def test_load_failure_says_what_failed(browser, site, blocked, named):
    """A runtime file that cannot be fetched gives a status line naming what failed."""
    ctx = browser.new_context(service_workers="block")
    try:
        for pattern in blocked:
            ctx.route(pattern, lambda route: route.fulfill(status=404, body="missing"))
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(urljoin(site.base, site.cases[0]["url"]))
        page.wait_for_selector(".cc-calc[data-cc-state=failed]")
        status = page.locator(".cc-calc .cc-status").inner_text()
        assert status.startswith("Could not load") and named in status, status
    finally:
        ctx.close()


def test_a_failed_fight_package_download_names_the_file(browser, site):
    """The forecast's engines are in the second wheel (calc-fight, calc/packages.py), loaded by the
    worker for the forecast page: a download that fails says which file, as the base wheel's does,
    while a calculator page on the same site still answers (it never asks for that wheel)."""
    forecast = next(
        c
        for c in site.cases
        if c["request"].get("calculator") == "forecast" and c["request"]["inputs"] and c.get("url")
    )
    ctx = browser.new_context(service_workers="block")
    try:
        fight_wheels: list[str] = []

        def missing(route):
            fight_wheels.append(route.request.url)
            route.fulfill(status=404, body="missing")

        ctx.route("**/assets/wheels/calc_fight-*.whl.xz", missing)  # fetched as xz (build_site.write_stored_xz)
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        page.goto(calculator_url(site.base, site.cases[0], {}))
        page.wait_for_selector("html[data-cc-python]", state="attached")
        assert fight_wheels == [], "a calculator page downloaded the fight package"
        page.goto(calculator_url(site.base, forecast))  # its inputs in the URL: answered on arrival
        page.wait_for_selector(".cc-calc[data-cc-state=failed]")
        status = page.locator(".cc-calc .cc-status").inner_text()
        assert status.startswith("Could not load") and "calc-fight package (" in status, status
        assert "calc_fight-" in status, status
    finally:
        ctx.close()


def test_cancel_terminates_and_a_new_worker_answers(browser, site):
    """Cancel while Python is busy (here: held in start-up) stops the worker; the next edit is
    answered by a fresh one."""
    ctx = browser.new_context(service_workers="block")
    held = []
    try:
        ctx.route("**/calc-lock.json", lambda route: held.append(route))  # held: never answered
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        wasm = []
        page.on("request", lambda r: wasm.append(r.url) if r.url.endswith(WASM) else None)
        case = site.cases[0]
        first = case["declaration"]["inputs"][0]
        shared = {first["name"]: first["default"]}  # a shared link: computed at once, not prerendered
        with page.expect_request("**/calc-lock.json"):  # the worker now waits on it
            page.goto(calculator_url(site.base, case, shared))
        page.wait_for_selector(".cc-calc .cc-cancel:enabled")
        ctx.unroute("**/calc-lock.json")
        page.locator(".cc-calc .cc-cancel").click()
        page.wait_for_selector(".cc-calc[data-cc-state=error]")
        assert "Cancelled" in page.locator(".cc-calc .cc-form-error").inner_text()
        page.wait_for_selector(".cc-calc .cc-status:text-is('Ready')")
        seen = answers(page)
        field = page.locator(".cc-calc input[type=text][data-input]").first
        field.fill(field.input_value())  # any edit asks again
        shown = settle(page, after=seen)
        assert shown["state"] == "done"
        assert len(wasm) == 2  # a new worker started Python again
    finally:
        ctx.close()


def test_page_with_several_calculators_keeps_their_inputs_apart(watched, site):
    """On a rule page holding two calculators, URL parameters are prefixed `<calculator>.` and
    each calculator reads only its own; both share the one worker."""
    page, record = watched
    several = [p for p in site.dir.rglob("index.html") if p.read_text(encoding="utf-8").count('class="cc-calc"') > 1]
    if not several:
        pytest.skip("no page holds two calculators")
    path = several[0].relative_to(site.dir).parent.as_posix() + "/"
    page.goto(urljoin(site.base, path))
    roots = page.locator(".cc-calc")
    names = [roots.nth(i).get_attribute("data-cc-calculator") for i in range(roots.count())]
    for name in names:
        page.wait_for_selector(f".cc-calc[data-cc-calculator={name}][data-cc-state=done]")
    # The default answers are prerendered; an edit (here: Reset) computes and writes the URL.
    for name in names:
        page.locator(f".cc-calc[data-cc-calculator={name}] .cc-reset").click()
    page.wait_for_function(
        "(names) => names.every((n) => location.search.includes(`${n}.`))", arg=names, timeout=FIRST_READY_MS
    )
    # A bad value for the first calculator only: it reports it, the others still answer.
    first = page.locator(f".cc-calc[data-cc-calculator={names[0]}] input[type=text][data-input]").first
    param = f"{names[0]}.{first.get_attribute('data-input')}"
    page.goto(urljoin(site.base, path) + "?" + urlencode({param: "not a number"}))
    page.wait_for_selector(f".cc-calc[data-cc-calculator={names[0]}][data-cc-state=error]")
    for name in names[1:]:
        page.wait_for_selector(f".cc-calc[data-cc-calculator={name}][data-cc-state=done]")
    assert sum(u.endswith(WASM) for u in record["requests"]) == 2  # one per page load
    assert record["errors"] == [] and record["external"] == []


def test_bad_snapshot_falls_back_to_a_normal_start(context, page, site):
    """A cached snapshot that is not what the build made (here: junk) is refused; Python starts
    the normal way and answers the same."""
    if not any((site.dir / "assets" / "snapshot").glob("*.bin")):
        pytest.skip("the build made no memory snapshot")
    page.set_default_timeout(FIRST_READY_MS)
    case = site.cases[0]
    page.goto(calculator_url(site.base, case))
    settle(page)
    page.wait_for_selector("html[data-cc-offline=ready]", state="attached")
    page.reload()  # the snapshot is stored by now (a fast first visit brought it, else this one)
    settle(page)
    page.wait_for_selector("html[data-cc-offline=complete]", state="attached")
    page.evaluate(
        """async () => {
            for (const name of await caches.keys()) {
                if (!name.startsWith("cc-snapshot-")) continue;
                const cache = await caches.open(name);
                for (const request of await cache.keys()) await cache.put(request, new Response("junk"));
            }
        }"""
    )
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.reload()
    assert settle(page) == expected(case["reply"], site.base)
    page.wait_for_selector("html[data-cc-python]", state="attached")
    assert page.evaluate("document.documentElement.dataset.ccPython") == "normal"
    assert any("Memory snapshot not used" in w for w in warnings), warnings


def test_a_repeated_name_is_shown_at_the_second_entrys_field(watched, site):
    """Every system's `unique: true` list field: a repeated name is refused by calc/inputs/declared.py and the
    form shows the message under the second entry's field (the error's input path is the field's)."""
    page, record = watched
    first = True
    seen = set()
    for (system, _), case in site.calculator_pages().items():
        for d in case["declaration"]["inputs"]:
            unique = [f["name"] for f in d.get("fields", []) if f.get("unique")]
            if d["type"] != "list" or not unique or system in seen:
                continue
            seen.add(system)
            entries = [dict(e) for e in d["default"]] + [dict(d["default"][0])]
            entries[1][unique[0]] = entries[0][unique[0]]
            url = urljoin(site.base, case["url"]) + "?" + urlencode({d["name"]: _json(entries)})
            if first:
                page.goto(url)
                first = False
            else:
                instant_go(page, url)
            shown = settle(page, case["request"]["calculator"])
            assert shown["state"] == "error", (system, shown)
            calc = page.locator(".cc-calc:not([data-cc-old])")
            control = calc.locator(f'[data-input="{d["name"]}[2].{unique[0]}"]')
            assert control.get_attribute("aria-invalid") == "true", system
            error_id = control.get_attribute("aria-describedby").split()[0]
            message = calc.locator(f"#{error_id}").inner_text()
            assert f'"{entries[0][unique[0]]}" is already' in message and "1's" in message, (system, message)
    assert seen == {c["request"]["system"] for c in site.cases}
    assert record["errors"] == []


def test_default_answer_is_in_the_page_before_python(browser, site):
    """The build puts each calculator's default answer into its page: it shows without
    JavaScript, and with the Python runtime unreachable it is rendered live, marked as the answer
    for the default inputs; once the runtime is back, an edit computes."""
    case = next(c for c in site.cases if not c["request"]["inputs"])
    want = expected(case["reply"], site.base)
    static = browser.new_context(java_script_enabled=False)
    try:
        page = static.new_page()
        page.goto(urljoin(site.base, case["url"]))
        summary = page.locator(".cc-calc .cc-prerendered .cc-summary")
        assert summary.inner_text() == case["reply"]["result"]["summary"]
    finally:
        static.close()

    ctx = browser.new_context(service_workers="block")
    try:
        ctx.route("**/assets/pyodide/**", lambda route: route.abort())
        page = ctx.new_page()
        page.set_default_timeout(FIRST_READY_MS)
        requested = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(urljoin(site.base, case["url"]))
        live = page.locator(".cc-calc .cc-result[data-cc-answer-for=defaults]")
        live.locator(".cc-summary").wait_for()
        # Python is tried only in the background (idle) and cannot start here: the answer stays,
        # and the status line says what failed.
        page.wait_for_selector(".cc-calc[data-cc-state=failed]")
        assert live.locator(".cc-summary").inner_text() == want["summary"]
        assert live.locator(".cc-chances dt").all_inner_texts() == [label for label, _ in want["chances"]]
        assert live.locator(".cc-chances dd .cc-frac").all_inner_texts() == [f"({f})" for _, f in want["chances"]]
        assert "Could not load" in page.locator(".cc-calc .cc-status").inner_text()
        assert not any(u.endswith((".whl", ".whl.xz")) for u in requested)

        ctx.unroute("**/assets/pyodide/**")
        seen = answers(page)
        decl = next(d for d in case["declaration"]["inputs"] if d["type"] == "integer")
        value = decl["default"] + 1 if decl.get("max") is None or decl["default"] < decl["max"] else decl["default"] - 1
        page.locator(f".cc-calc input[data-input='{decl['name']}']").fill(str(value))
        shown = settle(page, after=seen)
        request = {**case["request"], "inputs": {decl["name"]: value}}
        assert shown == expected({"result": evaluate(request)}, site.base)
        assert page.locator(".cc-calc .cc-result[data-cc-answer-for]").count() == 0
    finally:
        ctx.close()
