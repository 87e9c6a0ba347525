// Why a page does not print whole (run by tests/e2e/test_reader.py under print media at A4 width):
// tables past the article's edge, tables clipped by a scroll box, navigation chrome shown.
() => {
  const out = [];
  const article = document.querySelector("article").getBoundingClientRect();
  for (const t of document.querySelectorAll("article table")) {
    const r = t.getBoundingClientRect();
    if (r.right > article.right + 1 || r.left < article.left - 1) out.push(["past the page", t.dataset.ccTable || "", r.right, article.right]);
    for (let box = t.parentElement; box && box.tagName !== "ARTICLE"; box = box.parentElement) {
      const s = getComputedStyle(box);
      if (box.scrollWidth > box.clientWidth + 1 && s.overflowX !== "visible") out.push(["clipped", t.dataset.ccTable || "", box.className]);
      if (box.scrollHeight > box.clientHeight + 1 && s.overflowY !== "visible") out.push(["clipped vertically", t.dataset.ccTable || "", box.className]);
    }
  }
  for (const sel of [".md-header", ".md-sidebar--primary", ".md-footer"]) {
    const el = document.querySelector(sel);
    if (el && el.getBoundingClientRect().height > 0) out.push(["chrome shown", sel]);
  }
  return out;
}
