// Render one `calc.evaluate` result (shape in CONTRIBUTING.md) with DOM APIs only. Every
// probability shows as a percentage AND its exact fraction; the damage chart is a real <table>
// (bars drawn with CSS inside the cells, hidden from screen readers) so it reads as a table.
import { el, siteHref } from "../shared/dom.mjs";

/** A percentage for display: "75%", "12.35%", "<0.01%", ">99.99%". */
export function percent(p) {
  const v = p.float * 100;
  if (p.fraction === "0") return "0%";
  if (p.fraction === "1") return "100%";
  if (v < 0.01) return "<0.01%";
  if (v > 99.99) return ">99.99%";
  return `${Number(v.toFixed(2))}%`;
}

/**
 * A distribution row's exact chance, `{fraction, float}` like every other chance: the result
 * sends rows as integer weights over one common denominator (decimal text: they can have
 * hundreds of digits), and the fraction is reduced here, with BigInt, only for rows shown.
 */
export function rowChance(row, denominator) {
  const total = BigInt(denominator);
  const weight = BigInt(row.weight);
  let [a, b] = [weight, total];
  while (b) [a, b] = [b, a % b];
  const [n, d] = a > 1n ? [weight / a, total / a] : [weight, total];
  return { fraction: d === 1n ? String(n) : `${n}/${d}`, float: row.float };
}

function chanceText(p) {
  return [el("span", { class: "cc-pct" }, percent(p)), " ", el("span", { class: "cc-frac", "data-fraction": p.fraction }, `(${p.fraction})`)];
}

/**
 * `options.showAll`: every distribution row (rendered in chunks); otherwise a long distribution
 * collapses (see ROW_LIMIT). `options.onShowAll()`: asked for by the "Show all" button when the
 * worker sent only the most likely rows. `options.chance(p)`: how a chance of the list shows
 * (the tracker's: its exact fraction a tap away), else its percentage and fraction side by side.
 */
export function renderResult(result, siteRoot, options = {}) {
  const out = el("div", { class: "cc-result-body" });
  if (result.summary) out.append(el("p", { class: "cc-summary" }, result.summary));

  if (result.chances?.length) {
    const chance = options.chance ?? ((p) => chanceText(p));
    out.append(el("dl", { class: "cc-chances" }, ...result.chances.flatMap((c) => [el("dt", {}, c.label), el("dd", {}, chance(c.p))])));
  }
  if (result.roll_needed) {
    const r = result.roll_needed;
    out.append(el("p", { class: "cc-roll-needed" }, "Roll needed on the ", r.die, ": ", el("strong", {}, r.text)));
  }
  if (result.attack) out.append(renderAttack(result.attack, result.distribution, options));
  if (result.distribution) out.append(renderDistribution(result.distribution, options));
  if (result.order) out.append(renderOrder(result.order));
  if (result.pairwise?.length) out.append(renderPairwise(result.pairwise, options));
  if (result.table) out.append(renderTable(result.table, options));
  if (result.steps?.length) out.append(renderSteps(result.steps, siteRoot));
  return out;
}

/** Rows a distribution table shows before it collapses: a bad shared link can have thousands
 * (100d20 with a power attack: 7405 rows, ~140 000 DOM nodes, 8 MB from the worker). The page
 * asks the worker for at most this many (calc/browser.py `max_rows`); a longer table collapses to
 * a chart of the whole range plus its most likely rows, with a "Show all N rows" button. */
export const ROW_LIMIT = 60;
/** Rows added per task when a long table is shown whole, so no task blocks for long. */
const CHUNK_ROWS = 400;

function renderDistribution(d, { showAll = false, onShowAll = null } = {}) {
  const total = d.rows ?? d.pmf.length; // `rows`: the worker sent only the most likely ones
  const collapsed = !showAll && total > ROW_LIMIT;
  const pmf = collapsed ? mostLikely(d.pmf, ROW_LIMIT) : d.pmf;
  const peak = Math.max(...pmf.map((row) => row.float)) || 1;
  const atLeast = new Map(d.at_least.map((row) => [row.x, row]));
  const row = (r) => {
    const bar = el("span", { class: "cc-bar", "aria-hidden": "true" });
    bar.style.width = `${((r.float / peak) * 100).toFixed(1)}%`;
    const ge = atLeast.get(r.x);
    return el(
      "tr",
      {},
      el("th", { scope: "row" }, String(r.x)),
      el("td", { class: "cc-bar-cell" }, el("span", { class: "cc-bar-track" }, bar), el("span", { class: "cc-bar-label" }, ...chanceText(rowChance(r, d.denominator)))),
      el("td", {}, ...(ge ? chanceText(rowChance(ge, d.denominator)) : ["—"])),
    );
  };
  const label = d.label || "Damage";
  const tbody = el("tbody", {});
  const caption = collapsed
    ? `${label}: the ${pmf.length} most likely of ${total} totals, with the chance of at least that total`
    : `${label}: chance of each total and of at least that total`;
  const section = el(
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
    collapsed ? renderSpark(d, label) : null,
    el(
      "div",
      { class: "cc-chart", tabindex: "0", role: "region", "aria-label": `${label} distribution` },
      el(
        "table",
        { class: "cc-dist-table" },
        el("caption", {}, caption),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, label), el("th", { scope: "col" }, "Chance of exactly"), el("th", { scope: "col" }, "Chance of at least (P ≥ x)"))),
        tbody,
      ),
    ),
  );
  if (collapsed) {
    const button = el("button", { type: "button", class: "md-button cc-show-all" }, `Show all ${total} rows`);
    button.addEventListener("click", () => {
      button.disabled = true;
      if (d.rows && onShowAll) onShowAll();
      else section.replaceWith(renderDistribution(d, { showAll: true }));
    });
    section.append(button);
  }
  appendInChunks(section, tbody, pmf, row);
  return section;
}

/** One attack from the form's one set of inputs: the chance it lands, the mean damage when it
 * does, the expected damage per attack, and (folded) the distribution the page does not already
 * show — every attack's damage with misses as 0, or the damage of an attack that lands. */
function renderAttack(a, shown, options) {
  const exactNumber = (v) => [el("span", { class: "cc-mean" }, formatNumber(v.float)), " ", el("span", { class: "cc-frac", "data-fraction": v.fraction }, `(${v.fraction})`)];
  const stats = el(
    "dl",
    { class: "cc-stats cc-attack-stats" },
    el("dt", {}, "Expected damage per attack"),
    el("dd", { class: "cc-expected" }, ...exactNumber(a.expected)),
    el("dt", {}, "Hit chance"),
    el("dd", {}, ...chanceText(a.hit)),
    el("dt", {}, "Mean damage when it lands"),
    el("dd", {}, ...exactNumber(a.on_hit.mean)),
  );
  const samePmf = (x, y) => x && y && x.denominator === y.denominator && x.pmf.length === y.pmf.length && x.pmf.every((r, i) => r.x === y.pmf[i].x && r.weight === y.pmf[i].weight);
  const other = samePmf(shown, a.per_attack) ? a.on_hit : a.per_attack;
  const folded = el("details", { class: "cc-attack-dist" }, el("summary", {}, other.label), renderDistribution(other, options));
  return el("section", { class: "cc-attack", "aria-label": "One attack" }, stats, folded);
}

/** The `n` most likely rows, in order of total (ties: the lower total). */
function mostLikely(pmf, n) {
  const ranked = pmf.map((r, i) => [r.float, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return ranked
    .slice(0, n)
    .map(([, i]) => i)
    .sort((a, b) => a - b)
    .map((i) => pmf[i]);
}

/** Add the rows' <tr>s: the first chunk now, the rest one chunk per task while `section` stays on
 * the page; `data-cc-complete` marks the table whole (a hook for tests). */
function appendInChunks(section, tbody, rows, make) {
  let next = 0;
  const chunk = () => {
    if (next > 0 && !section.isConnected) return; // replaced by a newer answer
    const end = Math.min(rows.length, next + CHUNK_ROWS);
    const frag = document.createDocumentFragment();
    for (; next < end; next++) frag.append(make(rows[next]));
    tbody.append(frag);
    if (next < rows.length) setTimeout(chunk, 0);
    else section.dataset.ccComplete = "true";
  };
  chunk();
}

/** The whole range as at most ~100 bars (the worker's `chart`, else bucketed here): a picture
 * only, summed up in its accessible name; the table holds the numbers. */
function renderSpark(d, label) {
  const bars = d.chart ?? bucket(d.pmf);
  const top = bars.reduce((a, b) => (b.p > a.p ? b : a), bars[0]);
  // One bar far above the rest (a miss is often half the chance, all at 0) would flatten them:
  // scale to the next tallest and draw that one clipped (its title still gives its chance).
  const second = Math.max(0, ...bars.filter((b) => b !== top).map((b) => b.p));
  const clip = second > 0 && top.p > 3 * second;
  const peak = (clip ? second : top.p) || 1;
  const range = top.from === top.to ? String(top.from) : `${top.from}–${top.to}`;
  return el(
    "div",
    { class: "cc-spark", role: "img", "aria-label": `${label} from ${d.min} to ${d.max}; the most likely totals are around ${range}` },
    ...bars.map((b) => {
      const bar = el("span", { class: "cc-spark-bar", title: `${b.from === b.to ? b.from : `${b.from}–${b.to}`}: ${Number((b.p * 100).toFixed(2))}%` });
      bar.style.height = `${Math.min(100, Math.max(1, (b.p / peak) * 100)).toFixed(1)}%`;
      if (clip && b === top) bar.classList.add("cc-spark-clipped");
      return bar;
    }),
  );
}

function bucket(pmf, count = 100) {
  const lo = pmf[0].x;
  const hi = pmf[pmf.length - 1].x;
  const width = Math.ceil((hi - lo + 1) / count);
  const bars = new Map();
  for (const r of pmf) {
    const start = lo + Math.floor((r.x - lo) / width) * width;
    bars.set(start, (bars.get(start) || 0) + r.float);
  }
  return [...bars].map(([x, p]) => ({ from: x, to: Math.min(x + width - 1, hi), p }));
}

function renderOrder(order) {
  return el(
    "section",
    { class: "cc-order" },
    el("p", { class: "cc-subhead" }, "Action order (tied entries share a line)"),
    el(
      "ol",
      { "aria-label": "Action order" },
      ...order.map((g) => {
        // A placeholder score ("—", "?") is not shown: the note says why there is none.
        const scored = g.score !== "" && g.score !== undefined && g.score !== "—" && g.score !== "?";
        return el(
          "li",
          { class: g.tied ? "cc-tied" : null, value: g.rank },
          el("span", { class: "cc-names" }, g.names.join(", ")),
          scored ? el("span", { class: "cc-score" }, ` — ${g.score}`) : null,
          g.tied ? el("span", { class: "cc-tie-badge" }, ` (tied: ${g.names.length})`) : null,
          g.note ? el("span", { class: "cc-note" }, scored || g.tied ? ` · ${g.note}` : `: ${g.note}`) : null,
        );
      }),
    ),
  );
}

/** A section holding a captioned table in a keyboard-scrollable region; rows go in `tbody`. */
function scrolledTable(sectionClass, caption, headers, tbody, tableAttrs = {}) {
  return el(
    "section",
    { class: sectionClass },
    el(
      "div",
      { class: "cc-scroll", tabindex: "0", role: "region", "aria-label": caption },
      el("table", tableAttrs, el("caption", {}, caption), el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { scope: "col" }, h)))), tbody),
    ),
  );
}

function renderPairwise(pairs, options) {
  const tbody = el("tbody", {});
  const section = scrolledTable("cc-pairwise", "Who acts first, pair by pair", ["First", "Second", "First acts before", "Tied", "Second acts before"], tbody);
  const row = (p) => el("tr", {}, el("th", { scope: "row" }, p.first), el("td", {}, p.second), el("td", {}, ...chanceText(p.before)), el("td", {}, ...chanceText(p.tied)), el("td", {}, ...chanceText(p.after)));
  appendCapped(section, tbody, pairs, pairs.length, row, options);
  return section;
}

function renderTable(t, options) {
  const tbody = el("tbody", {});
  const section = scrolledTable("cc-table-block", t.title, t.columns, tbody, { class: "cc-table" });
  const row = (cells) => el("tr", {}, ...cells.map((cell) => el("td", {}, cell)));
  appendCapped(section, tbody, t.rows, t.total_rows ?? t.rows.length, row, options);
  return section;
}

/** Any table other than a distribution, under the same cap: at most ROW_LIMIT rows (the first
 * ones; the worker sends no more when it cut the table: `total` says how many there are), then
 * "Show all N rows", which asks the worker for everything (`onShowAll`) or, when every row is
 * already here, adds the rest. `showAll`: no cap (the reader asked). */
function appendCapped(section, tbody, rows, total, make, { showAll = false, onShowAll = null } = {}) {
  if (showAll || total <= ROW_LIMIT) return appendInChunks(section, tbody, rows, make);
  const first = rows.slice(0, ROW_LIMIT);
  const note = el("p", { class: "cc-table-note" }, `The first ${first.length} of ${total} rows.`);
  const button = el("button", { type: "button", class: "md-button cc-show-all" }, `Show all ${total} rows`);
  button.addEventListener("click", () => {
    button.disabled = true;
    if (rows.length < total && onShowAll) return onShowAll();
    note.remove();
    button.remove();
    delete section.dataset.ccComplete;
    appendInChunks(section, tbody, rows.slice(ROW_LIMIT), make);
  });
  section.append(note, button);
  appendInChunks(section, tbody, first, make);
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
