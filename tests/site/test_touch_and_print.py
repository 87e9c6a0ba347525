"""In Chromium (phone-sized, touch): a glossary term explains itself on tap and hides again on a
tap elsewhere, keyboard focus shows it too, no page is wider than 360 px, and print drops the
navigation."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect


@pytest.fixture
def phone(browser):
    """A 360-px touch screen in pytest-playwright's Chromium (see tests/conftest.py)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


def _term_page(site: Path) -> Path:
    for path in sorted(site.rglob("index.html")):
        if 'class="cc-term"' in path.read_text(encoding="utf-8"):
            return path
    pytest.fail("no page uses a glossary term")


def test_term_explains_itself_on_tap_and_focus(site: Path, phone) -> None:
    phone.goto(_term_page(site).as_uri())
    term = phone.locator(".cc-term").first
    tip = term.locator(".cc-tip")
    expect(tip).to_be_hidden()
    term.tap()
    expect(tip).to_be_visible()
    box = tip.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    phone.locator("h1").tap()
    expect(tip).to_be_hidden()
    term.focus()
    expect(tip).to_be_visible()


@pytest.mark.parametrize("url", ["index.html", "compare/index.html", "segments/attacks/index.html"])
def test_no_page_wider_than_a_phone(site: Path, phone, url: str) -> None:
    phone.goto((site / url).as_uri())
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_print_hides_navigation(site: Path, phone) -> None:
    phone.goto((site / "countup" / "attacks" / "index.html").as_uri())
    phone.emulate_media(media="print")
    expect(phone.locator(".md-header")).to_be_hidden()
    assert not phone.locator(".md-sidebar--primary").is_visible()
    assert phone.locator("h1").is_visible()
    phone.emulate_media(media="screen")
