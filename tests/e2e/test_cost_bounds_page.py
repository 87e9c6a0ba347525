"""Issue 19, item 1, in the page: a shared link past a cost limit (calc/numbers/bounds.py) is refused
with the message next to the field it names (a list entry's cell too), the status says to check
the highlighted input only because one is highlighted, and no "Internal error" is shown."""

from __future__ import annotations

from urllib.parse import urlencode, urljoin

from pages import instant_go, param_text, settle

from calc.benchmark import REFUSALS


def _case(system: str, calculator: str) -> dict:
    return next(c for c in REFUSALS if c.get("system") == system and c.get("calculator") == calculator)


def test_a_link_past_a_cost_limit_highlights_the_input_it_names(watched, site):
    page, record = watched
    pages = site.calculator_pages()
    first = True
    for case in (_case("countup", "round"), _case("segments", "round")):
        url = urljoin(site.base, pages[(case["system"], case["calculator"])]["url"])
        url += "?" + urlencode({k: param_text(v) for k, v in case["inputs"].items()})
        if first:
            page.goto(url)
            first = False
        else:
            instant_go(page, url)
        shown = settle(page, case["calculator"])
        assert shown["state"] == "error", shown
        calc = page.locator(".cc-calc:not([data-cc-old])")
        control = calc.locator(f'[data-input="{case["input"]}"]')
        assert control.get_attribute("aria-invalid") == "true", case["name"]
        error_id = next(i for i in control.get_attribute("aria-describedby").split() if i.endswith("-error"))
        assert "limit" in calc.locator(f"#{error_id}").inner_text()  # the bound that refused names its limit
        assert calc.locator(".cc-status").inner_text() == "Ready — check the highlighted input"
        body = calc.inner_text()
        assert "Internal error" not in body and "ValueError" not in body
    assert record["errors"] == []
