"""The Content-Security-Policy every page carries (tools/stamp_site.py): nothing the site does
violates it, on every page type, across instant navigation, with search in use and a calculator
answering; and the policy is really enforced (a control script it must refuse)."""

from __future__ import annotations

from urllib.parse import urljoin

from pages import FIRST_READY_MS, expected, instant_go, settle, wait_until

RECORD_VIOLATIONS = """
window.__ccViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const text = `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`;
  window.__ccViolations.push(text);
  window.__ccViolation(text);
});
"""


def test_no_policy_violation_on_any_page_type(context, page, site):
    violations: list[str] = []
    errors: list[str] = []
    page.expose_function("__ccViolation", lambda text: violations.append(text))
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(FIRST_READY_MS)

    page.goto(site.base)  # home
    policy = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "unsafe-inline" not in policy

    rule = next(p for p in sorted(site.dir.glob("*/*/index.html")) if "cc-calc" not in p.read_text(encoding="utf-8"))
    glossary = next(site.dir.glob("*/glossary/index.html"))
    targets = [
        ("rule page", rule),
        ("glossary", glossary),
        ("comparison", site.dir / "compare" / "index.html"),
    ]
    for name, path in targets:  # each page type by a full load and by instant navigation
        url = urljoin(site.base, path.relative_to(site.dir).parent.as_posix() + "/")
        page.goto(url)
        page.wait_for_load_state("load")
        page.goto(site.base)
        instant_go(page, url)
        page.wait_for_url(url)
        assert page.evaluate("document.querySelector('article h1') !== null"), name

    case = site.cases[0]  # a calculator page, answering
    instant_go(page, urljoin(site.base, case["url"]))
    assert settle(page, case["request"]["calculator"]) == expected(case["reply"], site.base)
    page.goto(urljoin(site.base, case["url"]))
    assert settle(page, case["request"]["calculator"]) == expected(case["reply"], site.base)

    page.keyboard.press("/")  # search in use: Material's search worker answers a query
    page.keyboard.type("initiative")
    page.wait_for_selector(".md-search-result__item")

    assert violations == [], violations
    assert errors == [], errors

    # The control: an inline script the policy does not list is refused and reported.
    page.evaluate("document.body.append(Object.assign(document.createElement('script'), {text: 'window.__ran = 1'}))")
    wait_until(page, "() => window.__ccViolations.some((v) => v.startsWith('script-src'))")
    assert page.evaluate("window.__ran === undefined")
