// Why a page does not print whole (run under print media: tests/e2e/test_reader.py at A4 width,
// tests/site/test_touch_and_print.py on the GM screens at A4 landscape width): tables past the
// article's edge, tables clipped by a scroll box, navigation chrome shown; and on a GM screen
// (.cc-gm-screen) any box that scrolls or clips what it holds, text under 8 pt, a header row that
// would not repeat, an item that may split between columns, hyphenation or a word broken inside
// ("Primar y hand").
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
  const screen = document.querySelector(".cc-gm-screen");
  if (!screen) return out;
  const MIN_PX = 8 * 96 / 72 - 0.01; // 8 pt
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const name = (el) => (el.closest("[data-cc-table]")?.dataset.ccTable || el.closest("[data-cc-gm-section]")?.dataset.ccGmSection || "") + " " + el.tagName;
  for (const el of document.querySelectorAll("article *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && shown(el) && size < MIN_PX) out.push(["under 8 pt", name(el), (size * 72 / 96).toFixed(2) + " pt", el.textContent.trim().slice(0, 30)]);
  }
  // Paper does not scroll: whatever a box with overflow other than visible cannot show is lost.
  for (const el of [screen, ...screen.querySelectorAll("*")]) {
    const s = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== "visible") out.push(["scrolls or clips sideways", name(el), el.className]);
    if (el.scrollHeight > el.clientHeight + 1 && s.overflowY !== "visible") out.push(["scrolls or clips downwards", name(el), el.className]);
  }
  for (const head of screen.querySelectorAll("thead")) {
    if (getComputedStyle(head).display !== "table-header-group") out.push(["header row not repeated", name(head)]);
  }
  for (const item of screen.querySelectorAll(".cc-gm-item")) {
    if (getComputedStyle(item).breakInside !== "avoid") out.push(["item may split", name(item)]);
  }
  for (const el of [screen, ...screen.querySelectorAll("*")]) {
    const s = getComputedStyle(el);
    if (s.hyphens === "auto" || ["break-all", "break-word"].includes(s.wordBreak) || ["anywhere", "break-word"].includes(s.overflowWrap)) {
      out.push(["may break words", name(el), s.hyphens, s.wordBreak, s.overflowWrap]);
      break;
    }
  }
  // A line break between two letters of one word. In a table cell a word has no break at all; in
  // running text a break after a hyphen, dash or slash is an ordinary line break.
  const walker = document.createTreeWalker(screen, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const rect = (node, i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getClientRects()[0]; };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!shown(node.parentElement)) continue;
    const inCell = !!node.parentElement.closest("td, th");
    const text = node.textContent;
    let prev = null;
    for (let i = 0; i < text.length; i++) {
      if (/\s/.test(text[i])) { prev = null; continue; }
      const r = rect(node, i);
      if (!r) { prev = null; continue; }
      if (prev && r.top > prev.r.bottom - 1 && (inCell || !/[-‐–—/]/.test(prev.ch))) {
        const start = text.lastIndexOf(" ", i) + 1;
        out.push(["word broken", name(node.parentElement), text.slice(start, text.indexOf(" ", i) >= 0 ? text.indexOf(" ", i) : undefined)]);
      }
      prev = { r, ch: text[i] };
    }
  }
  return out;
}
