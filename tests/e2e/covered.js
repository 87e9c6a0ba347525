// The controls of the tracker's cards a reader sees but cannot tap: for every visible button,
// input and select in the cards (its centre inside the screen and inside every box that clips it),
// what document.elementFromPoint finds at its centre when that is not the control itself (the turn
// bar, the site's header…). Returns {seen, covered: [{control, y, by, bar}]}.
() => {
  const inside = (e, x, y) => {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === "visible") continue;
      const r = a.getBoundingClientRect();
      if (x < r.left || x >= r.right || y < r.top || y >= r.bottom) return false;
    }
    return true;
  };
  const bar = document.querySelector(".cc-tk-bar");
  const covered = [];
  let seen = 0;
  for (const e of document.querySelectorAll(".cc-tk-card :is(button, input, select)")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") continue;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (!inside(e, x, y)) continue;
    seen += 1;
    const hit = document.elementFromPoint(x, y);
    if (hit === e || e.contains(hit) || (e.labels && [...e.labels].some((l) => l.contains(hit)))) continue;
    const name = e.getAttribute("aria-label") || e.textContent.trim() || e.labels?.[0]?.textContent.trim() || e.tagName;
    covered.push({ control: name.slice(0, 40), y: Math.round(y), by: hit ? hit.className || hit.tagName : null, bar: Boolean(hit && bar?.contains(hit)) });
  }
  return { seen, covered };
}
