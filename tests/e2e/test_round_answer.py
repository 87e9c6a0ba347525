"""Issue 21: on a phone the round calculator's answer bar shows the number a GM opened it for — the
rounds to drop the foe and the chance within 3 rounds — on arrival and after an edit, without
"More" (the bar folds to two lines; those words must be inside the two)."""

from __future__ import annotations

from urllib.parse import urljoin

import pytest
from pages import FIRST_READY_MS, answers, settle

PHONE = {"width": 390, "height": 844}
SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
# The end of "within 3" in the folded text: shown when its last character's box lies inside
# the text's own (clipped) box.
SHOWN_UNFOLDED = """(t) => {
  const node = t.firstChild, words = 'within 3', at = node.textContent.indexOf(words);
  if (at < 0) return {found: false, text: node.textContent};
  const range = document.createRange();
  range.setStart(node, at + words.length - 1);
  range.setEnd(node, at + words.length);
  const last = range.getBoundingClientRect(), box = t.getBoundingClientRect();
  return {found: true, inside: last.bottom <= box.bottom + 0.5 && last.height > 0, text: node.textContent};
}"""


@pytest.mark.parametrize("system", SYSTEMS)
def test_phone_answer_bar_leads_with_rounds_to_drop(browser, site, system):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(FIRST_READY_MS)
    try:
        page.goto(urljoin(site.base, site.calculator_pages()[(system, "round")]["url"]))
        settle(page, "round")
        text = page.locator(".cc-calc .cc-answer .cc-answer-text")
        assert page.locator(".cc-calc .cc-answer .cc-answer-more").get_attribute("aria-expanded") == "false"
        arrival = text.evaluate(SHOWN_UNFOLDED)
        assert arrival["found"] and arrival["inside"], arrival
        assert " rounds · " in arrival["text"].split("within 3")[0]
        seen = answers(page)
        page.locator(".cc-calc [data-input=target_hp]").fill("13")
        settle(page, "round", after=seen)
        edited = text.evaluate(SHOWN_UNFOLDED)
        assert edited["found"] and edited["inside"], edited
        assert "13-HP" in edited["text"], edited
    finally:
        context.close()
