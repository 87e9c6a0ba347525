"""In Chromium (phone-sized, touch): a glossary term explains itself on tap and hides again on a
tap elsewhere, keyboard focus shows it too, no page is wider than 360 px, and print drops the
navigation."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
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


# ---- The GM screens: printed on at most two A4 landscape sheets, and readable on a phone ----

PRINT_CHECK_JS = (Path(__file__).parents[1] / "e2e" / "print_check.js").read_text(encoding="utf-8")
A4_LANDSCAPE_PT = (841.92, 594.96)
PRINTABLE_PX = {"width": 1054, "height": 733}  # A4 landscape inside @page cc-gm-screen's 9 mm × 8 mm margins
GM_SYSTEMS = sorted(
    p.name for p in (Path(__file__).parents[2] / "rules_data").iterdir() if (p / "system.yaml").exists()
)
SMALLEST_FONT_JS = """() => Math.min(...[...document.querySelectorAll("article *")]
  .filter((el) => el.getClientRects().length)
  .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .map((el) => parseFloat(getComputedStyle(el).fontSize) * 72 / 96))"""
TOO_TALL_JS = """() => [...document.querySelectorAll(".cc-gm-item")]
  .filter((item) => item.getBoundingClientRect().height > innerHeight)
  .map((item) => [item.querySelector("a")?.textContent, Math.round(item.getBoundingClientRect().height)])"""
SPILL_JS = """() => {
  const root = document.documentElement, edge = root.clientWidth;
  const out = [];
  if (root.scrollWidth > edge) out.push(["page scrolls sideways", root.scrollWidth]);
  for (const el of document.querySelectorAll(".cc-gm-screen :is(table, td, th, p)")) {
    const r = el.getBoundingClientRect();
    const where = el.closest("[data-cc-table]")?.dataset.ccTable || el.tagName;
    if (r.right > edge + 0.5) out.push(["past the right edge", where, r.right]);
  }
  for (const t of document.querySelectorAll(".cc-gm-screen table")) {
    if (t.scrollWidth > t.parentElement.clientWidth + 0.5) out.push(["wider than its column", t.dataset.ccTable]);
  }
  return out;
}"""

BACKGROUND_JS = "() => getComputedStyle(document.querySelector('.cc-gm-grid')).backgroundColor"
WIDER_THAN_COLUMN_JS = """() => [...document.querySelectorAll(".cc-gm-screen table")]
  .filter((t) => t.getBoundingClientRect().width > t.parentElement.getBoundingClientRect().width + 0.5)
  .map((t) => t.dataset.ccTable)"""
TABLE_WORDS_JS = """() => [...document.querySelectorAll(".cc-gm-screen table :is(th, td)")]
  .flatMap((cell) => cell.textContent.split(/\\s+/).filter(Boolean))"""
BOXED_JS = """() => { for (const t of document.querySelectorAll(".cc-gm-screen table")) {
  const box = document.createElement("div");
  box.style.cssText = "overflow: auto; max-width: 60%; max-height: 4em";
  t.replaceWith(box);
  box.append(t);
} }"""
"""A scroll box around each table, as a theme may add: what the checks must catch."""


def _pdf_pages(pdf: bytes) -> tuple[int, list[tuple[float, float]]]:
    sizes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)), [(float(w), float(h)) for w, h in sizes]


def _smallest_printed_text(pdf: bytes) -> float | None:
    """The height (pt) of the smallest word in the PDF, by poppler's pdftotext (None without it)."""
    if shutil.which("pdftotext") is None:
        return None
    boxes = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    heights = [float(b) - float(a) for a, b in re.findall(rb'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', boxes)]
    return round(min(heights), 2)


def _missing_words(pdf: bytes, words: list[str]) -> list[str]:
    """The words that are not on the sheets as often as `words` has them (Chromium leaves out of
    the PDF what a box clips, so pdftotext does not find them)."""
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    printed = Counter(text.decode("utf-8").split())
    return sorted((Counter(words) - printed).elements())


@pytest.fixture(scope="module")
def desk(browser):
    """A page the size of the printable area of an A4 landscape sheet."""
    context = browser.new_context(viewport=PRINTABLE_PX)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("system", GM_SYSTEMS)
def test_gm_screen_prints_on_two_a4_landscape_pages_at_most(site: Path, desk, system: str) -> None:
    desk.goto((site / system / "gm-screen" / "index.html").as_uri())
    desk.emulate_media(media="print")  # what page.pdf() uses anyway; the module's other tests may set screen
    pdf = desk.pdf(format="A4", landscape=True, prefer_css_page_size=True)
    pages, sizes = _pdf_pages(pdf)
    # The stylesheet asks for A4 landscape itself: a reader's own print gets it whatever the default.
    _, own_sizes = _pdf_pages(desk.pdf(prefer_css_page_size=True))
    smallest = desk.evaluate(SMALLEST_FONT_JS)
    printed = _smallest_printed_text(pdf)
    print(f"\n[gm-screen] {system}: {pages} A4 landscape page(s), smallest text {smallest:.2f} pt ({printed})")
    assert 1 <= pages <= 2, pages
    assert all(abs(w - A4_LANDSCAPE_PT[0]) < 1 and abs(h - A4_LANDSCAPE_PT[1]) < 1 for w, h in sizes + own_sizes)
    assert smallest >= 8 - 0.01
    if printed is not None:  # not shrunk to fit either: 8 pt Liberation Sans words are 8.9 pt tall
        assert printed >= 8 * 1.1, printed


@pytest.mark.parametrize("system", GM_SYSTEMS)
def test_gm_screen_print_keeps_words_headers_and_rows_whole(site: Path, desk, system: str) -> None:
    """Under print media at the sheet's printable size: text of 8 pt or more, header rows that
    repeat, no hyphenation and no word broken inside, and every item (a rule, a table) whole and no
    taller than a column, so no table continues into the next column or sheet without its header
    and no row is left alone."""
    desk.goto((site / system / "gm-screen" / "index.html").as_uri())
    desk.emulate_media(media="print")
    assert desk.evaluate(PRINT_CHECK_JS) == []
    assert desk.evaluate(TOO_TALL_JS) == []
    desk.emulate_media(media="screen")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
@pytest.mark.parametrize("system", GM_SYSTEMS)
def test_gm_screen_prints_every_word_of_every_table(site: Path, desk, system: str) -> None:
    """Paper does not scroll: printed to PDF on A4 landscape, every table fits its column and
    every word of it is on the sheets (none clipped by a box), on two sheets at most, no word
    under 8 pt."""
    desk.goto((site / system / "gm-screen" / "index.html").as_uri())
    desk.emulate_media(media="print")
    words = desk.evaluate(TABLE_WORDS_JS)
    assert desk.evaluate(WIDER_THAN_COLUMN_JS) == []
    pdf = desk.pdf(format="A4", landscape=True, prefer_css_page_size=True)
    pages, _ = _pdf_pages(pdf)
    assert words and _missing_words(pdf, words) == []
    assert 1 <= pages <= 2, pages
    assert _smallest_printed_text(pdf) >= 8 * 1.1


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_the_print_checks_catch_a_table_in_a_scroll_box(site: Path, desk) -> None:
    """The checks above fail on what issue #34 saw: tables inside scroll boxes lose words on paper."""
    desk.goto((site / "segments" / "gm-screen" / "index.html").as_uri())
    desk.emulate_media(media="print")
    words = desk.evaluate(TABLE_WORDS_JS)
    desk.evaluate(BOXED_JS)
    found = desk.evaluate(PRINT_CHECK_JS)
    assert any(p[0].startswith("scrolls or clips") for p in found), found
    assert _missing_words(desk.pdf(format="A4", landscape=True, prefer_css_page_size=True), words)
    desk.emulate_media(media="screen")


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_gm_screens_fit_a_phone_in_both_themes(site: Path, browser, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    found = {}
    backgrounds = set()
    try:
        for system in GM_SYSTEMS:
            page.goto((site / system / "gm-screen" / "index.html").as_uri())
            page.evaluate(f"() => document.body.setAttribute('data-md-color-scheme', '{scheme}')")
            backgrounds.add(
                page.evaluate("() => getComputedStyle(document.querySelector('.cc-gm-grid')).backgroundColor")
            )
            found[system] = page.evaluate(SPILL_JS)
    finally:
        context.close()
    assert backgrounds == {"rgb(255, 255, 255)"} if scheme == "default" else "rgb(255, 255, 255)" not in backgrounds
    assert all(not problems for problems in found.values()), found
