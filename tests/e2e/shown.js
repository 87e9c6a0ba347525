// What a calculator shows, read from the page's visible text (run by tests/e2e/pages.py).
// Mirrors pages.expected(): the same structure built from calc.evaluate's reply.
(root) => {
  const text = (node) => (node ? node.textContent.trim() : null);
  const frac = (node) => (node ? node.querySelector(".cc-frac").textContent.trim().replace(/^\((.*)\)$/, "$1") : null);
  const all = (sel) => [...root.querySelectorAll(sel)];
  const errors = all(".cc-error:not([hidden])").map((p) => {
    const control = root.querySelector(`[aria-describedby~="${p.id}"]`);
    return [control ? control.getAttribute("data-input") || control.tagName.toLowerCase() : null, text(p)];
  });
  if (root.dataset.ccState !== "done") return { state: root.dataset.ccState, errors };
  return {
    state: "done",
    errors,
    summary: text(root.querySelector(".cc-summary")) || "",
    chances: all(".cc-chances dt").map((dt) => [text(dt), frac(dt.nextElementSibling)]),
    roll_needed: text(root.querySelector(".cc-roll-needed strong")),
    distribution: root.querySelector(".cc-result-body > .cc-distribution")
      ? {
          mean: frac(root.querySelector(".cc-result-body > .cc-distribution .cc-stats dd")),
          min: text(root.querySelector(".cc-result-body > .cc-distribution .cc-min")),
          max: text(root.querySelector(".cc-result-body > .cc-distribution .cc-max")),
          rows: all(".cc-result-body > .cc-distribution .cc-dist-table tbody tr").map((tr) => [text(tr.querySelector("th")), ...[...tr.querySelectorAll("td")].map(frac)]),
        }
      : null,
    // one attack (damage calculators): expected damage per attack, hit chance, mean when it lands
    attack: root.querySelector(".cc-attack") ? all(".cc-attack-stats dd").map(frac) : null,
    order: root.querySelector(".cc-order")
      ? all(".cc-order li").map((li) => [li.value, text(li.querySelector(".cc-names")), li.classList.contains("cc-tied")])
      : null,
    pairwise: root.querySelector(".cc-pairwise")
      ? all(".cc-pairwise tbody tr").map((tr) => [text(tr.querySelector("th")), text(tr.querySelector("td")), ...[...tr.querySelectorAll("td")].slice(1).map(frac)])
      : null,
    table: root.querySelector(".cc-table")
      ? { title: text(root.querySelector(".cc-table caption")), columns: all(".cc-table thead th").map(text), rows: all(".cc-table tbody tr").map((tr) => [...tr.querySelectorAll("td")].map(text)) }
      : null,
    steps: all(".cc-steps li").map((li) => [text(li.querySelector(".cc-step-text")), li.querySelector("a") ? li.querySelector("a").href : null]),
  };
}
