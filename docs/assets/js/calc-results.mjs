// Render one `calc.evaluate` result (shape in CONTRIBUTING.md) with DOM APIs only. Every
// probability shows as a percentage AND its exact fraction; the damage chart is a real <table>
// (bars drawn with CSS inside the cells, hidden from screen readers) so it reads as a table.
import { el, siteHref } from "./dom.mjs";

/** A percentage for display: "75%", "12.35%", "<0.01%", ">99.99%". */
export function percent(p) {
  const v = p.float * 100;
  if (p.fraction === "0") return "0%";
  if (p.fraction === "1") return "100%";
  if (v < 0.01) return "<0.01%";
  if (v > 99.99) return ">99.99%";
  return `${Number(v.toFixed(2))}%`;
}

function chanceText(p) {
  return [el("span", { class: "cc-pct" }, percent(p)), " ", el("span", { class: "cc-frac", "data-fraction": p.fraction }, `(${p.fraction})`)];
}

export function renderResult(result, siteRoot) {
  const out = el("div", { class: "cc-result-body" });
  if (result.summary) out.append(el("p", { class: "cc-summary" }, result.summary));

  if (result.chances?.length) {
    out.append(el("dl", { class: "cc-chances" }, ...result.chances.flatMap((c) => [el("dt", {}, c.label), el("dd", {}, ...chanceText(c.p))])));
  }
  if (result.roll_needed) {
    const r = result.roll_needed;
    out.append(el("p", { class: "cc-roll-needed" }, "Roll needed on the ", r.die, ": ", el("strong", {}, r.text)));
  }
  if (result.distribution) out.append(renderDistribution(result.distribution));
  if (result.order) out.append(renderOrder(result.order));
  if (result.pairwise?.length) out.append(renderPairwise(result.pairwise));
  if (result.table) out.append(renderTable(result.table));
  if (result.steps?.length) out.append(renderSteps(result.steps, siteRoot));
  return out;
}

function renderDistribution(d) {
  const peak = Math.max(...d.pmf.map((row) => row.p.float)) || 1;
  const atLeast = new Map(d.at_least.map((row) => [row.x, row.p]));
  const rows = d.pmf.map((row) => {
    const bar = el("span", { class: "cc-bar", "aria-hidden": "true" });
    bar.style.width = `${((row.p.float / peak) * 100).toFixed(1)}%`;
    const ge = atLeast.get(row.x);
    return el(
      "tr",
      {},
      el("th", { scope: "row" }, String(row.x)),
      el("td", { class: "cc-bar-cell" }, el("span", { class: "cc-bar-track" }, bar), el("span", { class: "cc-bar-label" }, ...chanceText(row.p))),
      el("td", {}, ...(ge ? chanceText(ge) : ["—"])),
    );
  });
  const label = d.label || "Damage";
  return el(
    "section",
    { class: "cc-distribution" },
    el(
      "dl",
      { class: "cc-stats" },
      el("dt", {}, `Mean ${label.toLowerCase()}`),
      el("dd", {}, el("span", { class: "cc-mean" }, formatNumber(d.mean.float)), " ", el("span", { class: "cc-frac", "data-fraction": d.mean.fraction }, `(${d.mean.fraction})`)),
      el("dt", {}, "Minimum"),
      el("dd", { class: "cc-min" }, String(d.min)),
      el("dt", {}, "Maximum"),
      el("dd", { class: "cc-max" }, String(d.max)),
    ),
    el(
      "div",
      { class: "cc-chart", tabindex: "0", role: "region", "aria-label": `${label} distribution` },
      el(
        "table",
        { class: "cc-dist-table" },
        el("caption", {}, `${label}: chance of each total and of at least that total`),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, label), el("th", { scope: "col" }, "Chance of exactly"), el("th", { scope: "col" }, "Chance of at least (P ≥ x)"))),
        el("tbody", {}, ...rows),
      ),
    ),
  );
}

function renderOrder(order) {
  return el(
    "section",
    { class: "cc-order" },
    el("p", { class: "cc-subhead" }, "Action order (tied entries share a line)"),
    el(
      "ol",
      { "aria-label": "Action order" },
      ...order.map((g) =>
        el(
          "li",
          { class: g.tied ? "cc-tied" : null, value: g.rank },
          el("span", { class: "cc-names" }, g.names.join(", ")),
          g.score !== "" && g.score !== undefined ? el("span", { class: "cc-score" }, ` — ${g.score}`) : null,
          g.tied ? el("span", { class: "cc-tie-badge" }, ` (tied: ${g.names.length})`) : null,
          g.note ? el("span", { class: "cc-note" }, ` ${g.note}`) : null,
        ),
      ),
    ),
  );
}

function renderPairwise(pairs) {
  return el(
    "section",
    { class: "cc-pairwise" },
    el(
      "div",
      { class: "cc-scroll", tabindex: "0", role: "region", "aria-label": "Who acts first, pair by pair" },
      el(
        "table",
        {},
        el("caption", {}, "Who acts first, pair by pair"),
        el("thead", {}, el("tr", {}, ...["First", "Second", "First acts before", "Tied", "Second acts before"].map((h) => el("th", { scope: "col" }, h)))),
        el(
          "tbody",
          {},
          ...pairs.map((p) => el("tr", {}, el("th", { scope: "row" }, p.first), el("td", {}, p.second), el("td", {}, ...chanceText(p.before)), el("td", {}, ...chanceText(p.tied)), el("td", {}, ...chanceText(p.after)))),
        ),
      ),
    ),
  );
}

function renderTable(t) {
  return el(
    "div",
    { class: "cc-scroll", tabindex: "0", role: "region", "aria-label": t.title },
    el(
      "table",
      { class: "cc-table" },
      el("caption", {}, t.title),
      el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col" }, c)))),
      el("tbody", {}, ...t.rows.map((row) => el("tr", {}, ...row.map((cell) => el("td", {}, cell))))),
    ),
  );
}

function renderSteps(steps, siteRoot) {
  return el(
    "details",
    { class: "cc-steps", open: true },
    el("summary", {}, "Why"),
    el(
      "ol",
      {},
      ...steps.map((s) => {
        const href = s.url ? siteHref(s.url, siteRoot) : null;
        const cite = href ? el("a", { href }, s.title || s.rule) : el("span", {}, s.title || s.rule || "");
        return el("li", {}, el("span", { class: "cc-step-text" }, s.text), " ", el("span", { class: "cc-cite" }, "(", cite, ")"));
      }),
    ),
  );
}

function formatNumber(x) {
  return Number(x.toFixed(3)).toString();
}
