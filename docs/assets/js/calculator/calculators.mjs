// Entry point (extra_javascript, loaded on every page; tiny). Binds every calculator container
// rendered by macros/render/calculator.py, on first load and after each Material instant
// navigation (document$). The Python worker is created only when a page holds a calculator, and
// it outlives instant navigation, so the next calculator page answers at once. A block built
// with its default answer (tools/prerender.py: `data-cc-answer`) shows it at once and starts
// Python only when the reader edits or the page is idle; a shared link's inputs are computed.
import { calcWorker } from "../boot/calc-worker-client.mjs";
import { CalcForm } from "./calc-form.mjs";
import { renderResult, ROW_LIMIT } from "./calc-results.mjs";
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { knob } from "../shared/knobs.mjs";
import { pageBuildMismatch, registerServiceWorker } from "../boot/site-update.mjs";
import { AnswerLine } from "./answer-line.mjs";
import { nameMaterialWidgets } from "../shared/page-a11y.mjs";
import { FighterAndFoe } from "./preset-picker.mjs";
import { readParams, withParams } from "./url-state.mjs";
import { FROM_PARAM, trackerNotice } from "./from-tracker.mjs";

const SITE_ROOT = new URL("../../../", import.meta.url);
const DEBOUNCE_MS = knob("debounce-ms", 120);
const live = new Set(); // calculators bound on the current page

class Calculator {
  constructor(root) {
    this.root = root;
    this.system = root.dataset.ccSystem;
    this.name = root.dataset.ccCalculator;
    this.declaration = JSON.parse(root.dataset.ccDeclaration);
    this.latest = 0;
    this.timer = null;
    this.key = uid("calc"); // tags this calculator's requests to the worker
    root.querySelector(".cc-fallback")?.remove();
    // The build's answer for the default inputs (tools/prerender.py); its static copy made first
    // paint and is now rendered again, live, by the same renderer.
    this.prebuilt = root.dataset.ccAnswer ? JSON.parse(root.dataset.ccAnswer) : null;
    const prerendered = root.querySelector(".cc-prerendered");

    this.status = el("p", { class: "cc-status", role: "status", "aria-live": "polite" });
    this.title = this.declaration.title || this.name;
    this.form = new CalcForm(root, this.declaration, (reason) => this.changed(reason));
    // The fighter and foe: carried from the reader's last calculator of the system, and presets.
    this.fighters = new FighterAndFoe(this);
    this.form.form.before(this.fighters.notice, ...(this.fighters.picker ? [this.fighters.picker] : []));
    const copy = el("button", { type: "button", class: "md-button cc-copy" }, "Copy link");
    copy.addEventListener("click", () => this.copyLink());
    const reset = el("button", { type: "button", class: "md-button cc-reset" }, "Reset");
    reset.addEventListener("click", () => {
      this.fighters.forget(); // the system's other calculators open with their defaults too
      this.form.reset();
    });
    this.cancel = el("button", { type: "button", class: "md-button cc-cancel", disabled: true }, "Cancel");
    this.cancel.addEventListener("click", () => this.worker?.restart("Cancelled: change an input to calculate again."));
    const own = root.dataset.ccUrl ? siteHref(root.dataset.ccUrl, SITE_ROOT) : null;
    const ownLink = own && new URL(own).pathname !== location.pathname ? el("a", { href: own, class: "cc-own-page" }, "Open on its own page") : null;
    this.actions = el("div", { class: "cc-actions" }, copy, reset, this.cancel, ownLink);
    this.linkBox = el("p", { class: "cc-linkbox", hidden: true });
    this.progressBar = el("progress", { "aria-label": "Downloading the Python runtime" });
    this.progressText = el("span", { class: "cc-progress-text" });
    this.progress = el("div", { class: "cc-progress", hidden: true }, this.progressBar, this.progressText);
    this.retry = el("button", { type: "button", class: "md-button cc-retry", hidden: true }, "Retry");
    this.retry.addEventListener("click", () => retryAll(this.worker));
    this.output = el("div", { class: "cc-result", "aria-busy": "false" });
    this.answer = new AnswerLine(this.output);
    // The result side: beside the form on a wide screen, below it (answer line pinned) on a phone.
    const side = el("div", { class: "cc-side" }, this.answer.node, this.status, this.progress, this.retry, this.output);
    root.append(this.actions, this.linkBox, side);
    prerendered?.remove();
    root.dataset.ccBound = "true";
    root.dataset.ccState = "loading";
  }

  start(getWorker, paramPrefix) {
    this.getWorker = getWorker;
    this.prefix = paramPrefix;
    this.page = location.pathname;
    const params = readParams(this.prefix, this.declaration, location.search);
    this.form.load(params);
    // A link from the tracker carries the whole question (the rest are the defaults) and says so;
    // elsewhere a link's values win and the reader's current attacker and target fill the rest.
    const fromTracker = trackerNotice(this.declaration, params, location.search);
    if (fromTracker) {
      this.trackerNote = el("p", { class: "cc-from-tracker", role: "note" }, fromTracker);
      this.form.form.before(this.trackerNote);
    }
    const carried = fromTracker ? 0 : this.fighters.carryIn(params);
    if (this.prebuilt && !Object.keys(params).length && !carried) {
      this.show(this.prebuilt);
      this.output.dataset.ccAnswerFor = "defaults";
      this.root.dataset.ccResults = "1"; // answers shown so far (tests and the bench count them)
      whenIdle(() => this.attach());
    } else {
      this.compute();
    }
  }

  /** The tab's worker, started on first need (an edit, or an idle page after a prerendered
   * answer). A worker whose start failed in the background is started again for an edit. */
  attach(forEdit = false) {
    if (!this.worker) {
      this.worker = this.getWorker();
      this.unsubscribe = this.worker.onStatus((s) => this.showStatus(s));
    }
    if (forEdit && this.worker.status.stage === "failed") this.worker.restart("Retrying.");
    return this.worker;
  }

  show(result, options = {}) {
    this.form.clearErrors();
    this.output.classList.remove("cc-stale");
    replace(this.output, renderResult(result, SITE_ROOT, options));
    this.answer.result(result);
    this.readyText = result.summary ? `Ready — ${result.summary}` : "Ready";
    replace(this.status, this.readyText);
    this.root.dataset.ccState = "done";
  }

  showStatus(s) {
    if (s.stage === "ready") registerServiceWorker(); // precache once Python is up (reuses its downloads)
    if (s.stage === "failed") {
      this.root.dataset.ccState = "failed";
      this.status.classList.add("cc-failed");
    } else {
      this.status.classList.remove("cc-failed");
    }
    // The same text again must not make a screen reader repeat it (progress comes often). Once
    // Python is ready, a calculation still waiting for its answer is what goes on: no line may
    // stay on a stage of the start that has ended.
    const calculating = s.stage === "ready" && this.busy;
    const text = calculating ? "Calculating…" : s.stage === "ready" ? this.readyText || s.text : s.text;
    if (this.status.textContent !== text) replace(this.status, text);
    // A shown answer (the prerendered default) stays in the answer line while Python starts.
    if (this.busy || !this.readyText) this.answer.waiting(s.stage === "ready" && !this.busy ? "Ready" : text);
    this.showProgress(s);
    this.retry.hidden = s.stage !== "failed";
  }

  /** A bar with real bytes while the runtime downloads ("3.1 of 15.7 MB"); gone afterwards.
   * Outside the live region: the bar is there to look at, not to be read out every 100 ms. */
  showProgress(s) {
    if (s.stage !== "download" || !s.total) {
      this.progress.hidden = true;
      return;
    }
    this.progress.hidden = false;
    this.progressBar.max = s.total;
    this.progressBar.value = s.loaded;
    this.progressText.textContent = `${mb(s.loaded)} of ${mb(s.total)} MB`;
  }

  /** The reader changed the form (`reason` "input", "submit" or "reset"): their values become the
   * system's current attacker and target (a reset does not: it forgets them), then compute. */
  changed(reason) {
    if (this.trackerNote) this.leftTracker();
    if (reason !== "reset") this.fighters.remember();
    this.schedule();
  }

  /** The first edit after a link from the tracker: the values are no longer all the fight's, and
   * the URL (a copied link) stops saying so. */
  leftTracker() {
    replace(this.trackerNote, "Opened from the encounter tracker, then changed here: the inputs are yours now.");
    this.trackerNote = null;
    const url = new URL(location.href);
    url.searchParams.delete(FROM_PARAM);
    history.replaceState(history.state, "", url.href);
  }

  /** Values were put in by a preset: as an edit. */
  edited() {
    this.changed("preset");
  }

  schedule() {
    this.attach(true); // an edit: start Python now if the page has not yet
    clearTimeout(this.timer);
    this.root.dataset.ccPending = "true"; // an edit waits for its debounce (a hook for tests)
    this.timer = setTimeout(() => {
      this.timer = null;
      delete this.root.dataset.ccPending;
      this.compute();
    }, DEBOUNCE_MS);
  }

  /** Drop an edit still waiting for its debounce (the reader is leaving this page). */
  cancelPending() {
    clearTimeout(this.timer);
    this.timer = null;
    delete this.root.dataset.ccPending;
  }

  /** Still on the page this calculator lives on? Instant navigation changes `location` before
   * it swaps the page, so a late debounce must neither write its inputs into another page's URL
   * (the next calculator would read them) nor compute for a page that is gone. */
  onItsPage() {
    return this.root.isConnected && location.pathname === this.page;
  }

  /** `showAll`: every row of a long distribution (the reader asked); otherwise the worker sends
   * at most ROW_LIMIT of them, so a huge result never crosses to this thread. */
  async compute({ showAll = false } = {}) {
    if (!this.onItsPage()) return this.cancelPending();
    this.attach(true);
    delete this.output.dataset.ccAnswerFor;
    const inputs = this.form.read();
    writeParams(this.prefix, this.form.state());
    this.search = location.search;
    const id = ++this.latest;
    this.busy = true;
    this.answer.calculating(this.worker.status.stage === "ready" ? "Calculating…" : this.worker.status.text);
    this.root.dataset.ccState = this.worker.status.stage === "ready" ? "computing" : "loading";
    this.output.setAttribute("aria-busy", "true");
    this.cancel.disabled = false;
    // Say "Calculating…" only when it takes a noticeable time (no chatter on every keystroke).
    const slow = setTimeout(() => {
      if (this.worker.status.stage === "ready" && id === this.latest) replace(this.status, "Calculating…");
    }, 300);
    performance.mark("cc:request");
    // `form`: every field is sent; Python leaves out those that do not apply and names the rest.
    const request = { system: this.system, calculator: this.name, inputs, form: true, ...(showAll ? {} : { max_rows: ROW_LIMIT }) };
    // Keyed by calculator: a newer request supersedes an older one still queued or running.
    const reply = await this.worker.request(request, undefined, { key: this.key });
    performance.mark("cc:reply");
    clearTimeout(slow);
    if (id !== this.latest) return; // a newer edit is on its way
    if (reply.applies) this.form.showApplicable(reply.applies, reply.cells); // before the answer is counted as shown
    this.root.dataset.ccResults = String(Number(this.root.dataset.ccResults || 0) + 1);
    this.busy = false;
    this.cancel.disabled = true;
    this.output.setAttribute("aria-busy", "false");
    if (reply.error) {
      this.root.dataset.ccState = reply.error.kind === "LoadFailure" ? "failed" : "error";
      this.output.classList.add("cc-stale");
      if (reply.error.kind === "Cancelled") this.answer.stopped(reply.error.message);
      else this.answer.problem(reply.error);
      if (reply.error.kind === "LoadFailure") {
        replace(this.status, reply.error.message);
      } else {
        this.form.clearErrors();
        const highlighted = this.form.showError(reply.error);
        // Never "check the highlighted input" when nothing is highlighted (an error of no input).
        if (reply.error.kind !== "Cancelled") replace(this.status, highlighted ? "Ready — check the highlighted input" : "Ready — see the message above the inputs");
      }
      return;
    }
    this.show(reply.result, { showAll, onShowAll: () => this.compute({ showAll: true }) });
    performance.mark("cc:rendered");
    registerServiceWorker();
  }

  async copyLink() {
    const href = location.href;
    try {
      await navigator.clipboard.writeText(href);
      replace(this.status, "Link copied");
    } catch {
      const box = el("input", { type: "text", readonly: true, "aria-label": "Link to these inputs", value: href });
      replace(this.linkBox, box);
      this.linkBox.hidden = false;
      box.focus();
      box.select();
      replace(this.status, "Copy the selected link");
    }
  }

  /** A link to this same page with other inputs: Material changes the URL but not the page. */
  followLink(url) {
    if (url.pathname !== this.page) return this.leave(); // the edit stays here
    if (url.search === this.search) return;
    this.form.reset();
    this.form.load(readParams(this.prefix, this.declaration, url.search));
    this.schedule();
  }

  /** The reader leaves this page (Material keeps the tab's worker): an edit waiting for its
   * debounce is dropped, and a calculation on its way or running is cancelled, so the next
   * page's calculators do not wait for it. */
  leave() {
    this.cancelPending();
    if (!this.busy) return;
    this.latest += 1; // its reply, if any, is for a page that is gone
    this.busy = false;
    this.worker?.abandon(this.key);
  }

  dispose() {
    this.leave();
    this.unsubscribe?.();
  }
}

function mb(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** After a failed start (a download that stalled or failed): a fresh worker, and every
 * calculator on the page asks again. */
function retryAll(worker) {
  worker.restart("Retrying.");
  for (const calc of live) if (calc.onItsPage()) calc.compute();
}

/** Run `fn` once the page has loaded and the browser is idle (Python's start is heavy work). */
function whenIdle(fn) {
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => fn(), { timeout: 5000 }) : setTimeout(fn, 1000));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}

/** URL parameter names: the input's name, prefixed `<calculator>.` when a page holds several. */
function writeParams(prefix, state) {
  const href = withParams(location.href, prefix, state);
  if (href !== location.href) history.replaceState(history.state, "", href);
}

function bind() {
  performance.mark("cc:bind");
  nameMaterialWidgets();
  for (const calc of [...live]) {
    if (!calc.root.isConnected) {
      calc.dispose();
      live.delete(calc);
    }
  }
  if (document.querySelector(".cc-tracker:not([data-cc-bound])") && !pageBuildMismatch()) {
    // The encounter tracker (its own module, fetched only on its page).
    import("../tracker/page.mjs").then((m) => m.bindTrackers());
  }
  const roots = [...document.querySelectorAll(".cc-calc:not([data-cc-bound])")];
  if (!roots.length || pageBuildMismatch()) return;
  const several = document.querySelectorAll(".cc-calc").length > 1;
  for (const root of roots) {
    try {
      const calc = new Calculator(root);
      live.add(calc);
      calc.start(calcWorker, several ? `${calc.name}.` : "");
    } catch (err) {
      root.append(el("p", { class: "cc-error" }, `This calculator could not be set up: ${err.message}`));
    }
  }
}

if (window.location$) {
  window.location$.subscribe((url) => {
    for (const calc of live) if (calc.root.isConnected) calc.followLink(url);
  });
}
if (window.document$) window.document$.subscribe(bind);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
else bind();
