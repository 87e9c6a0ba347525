// The tracker's Forecast panel: the fight as it stands (the roster with its current hit points and
// states, the round and turn reached) sent to the system's `forecast` calculator, on demand (a forecast can
// take a few seconds: Active Defense 2 against 2 is about 2 s in CPython, 3 s in Pyodide). The request is Python's: the page
// sends the fight's state
// (`{"kind": "forecast"}`, calc/browser.py), calc/fight/forecast_request.py builds the forecast's
// request from it and answers it with the request; the page shows the answer as the forecast
// calculator's page does (calc-results.mjs: "Party wins" first, the rounds table, each assumption
// linked to its rule). A fight past the forecast's bound answers with the typed error's message,
// which names what to reduce. Shown only for a system whose data declares a forecast calculator.
import { el, replace, siteHref } from "../shared/dom.mjs";
import { renderResult } from "../calculator/calc-results.mjs";
import { button, engineProblem, figure, SITE_ROOT } from "./ui.mjs";

export class ForecastPanel {
  constructor(tk) {
    this.tk = tk;
    this.calculator = tk.decl.forecast || null; // {url, title}: the forecast calculator's page
    this.asked = null; // the JSON text of the request whose answer is shown
    this.askBtn = button("Forecast the fight from here", () => this.ask(), { class: "md-button md-button--primary cc-tk-forecast-ask" });
    this.status = el("p", { class: "cc-tk-forecast-status", role: "status", "aria-live": "polite" });
    this.output = el("div", { class: "cc-tk-forecast-answer cc-result", "aria-busy": "false" });
    this.leftOut = el("p", { class: "cc-tk-help cc-tk-forecast-out", hidden: true });
    const page = this.calculator && siteHref(this.calculator.url, SITE_ROOT);
    this.section = el(
      "section",
      { class: "cc-tk-section cc-tk-forecast", "aria-labelledby": "cc-tk-h-forecast", hidden: true },
      el("h2", { id: "cc-tk-h-forecast" }, "Forecast"),
      el(
        "p",
        { class: "cc-tk-help" },
        "Who wins from here, who falls and how long it lasts, exactly: every combatant with its hit points and state now, from the current turn (the rest of this round in its order, then round after round).",
        page ? [" ", el("a", { href: page }, `The ${this.calculator.title.toLowerCase()} calculator`), " says how."] : null,
      ),
      el("div", { class: "cc-tk-row" }, this.askBtn),
      this.leftOut,
      this.status,
      this.output,
    );
  }

  /** Shown when this system has a forecast and the fight has combatants; an answer for an
   * older fight is marked as such. */
  render(view) {
    this.section.hidden = !(this.calculator && view?.combatants?.length);
    if (this.asked === null) return;
    const stale = JSON.stringify(this.tk.state) !== this.asked;
    this.output.classList.toggle("cc-stale", stale);
    this.section.dataset.ccStale = String(stale);
    if (stale && !this.busy) replace(this.status, "The fight has changed since this forecast: forecast again for the fight as it stands.");
  }

  async ask() {
    const state = this.tk.state;
    if (!state || this.busy) return;
    const asked = JSON.stringify(state);
    const round = this.tk.view?.round ?? 0;
    this.busy = true;
    this.askBtn.disabled = true;
    this.output.setAttribute("aria-busy", "true");
    this.section.dataset.ccState = "busy";
    replace(this.status, "Forecasting…");
    const engine = this.tk.engine;
    engine.warm();
    if (engine.worker.status.stage === "failed") engine.worker.restart("Retrying.");
    // Python builds the forecast's request from the fight (calc/fight/forecast_request.py).
    const reply = await engine.worker.request({ kind: "forecast", system: this.tk.system, state });
    this.busy = false;
    this.askBtn.disabled = false;
    this.output.setAttribute("aria-busy", "false");
    this.asked = asked;
    this.output.classList.remove("cc-stale");
    this.section.dataset.ccStale = "false";
    if (reply.error) {
      this.section.dataset.ccState = "error";
      delete this.output.dataset.ccRequest;
      this.leftOut.hidden = true;
      replace(this.output, el("p", { class: "cc-error" }, engineProblem(reply.error)));
      replace(this.status, "No forecast for this fight as it stands (see below).");
      return;
    }
    const { request, left_out: out = [], result } = reply.result;
    this.output.dataset.ccRequest = JSON.stringify(request); // the exact request (as calc.evaluate takes it)
    this.leftOut.hidden = !out.length;
    replace(this.leftOut, out.length ? `Out of the fight, left out: ${out.map((c) => (c.state ? `${c.name} (${c.state})` : c.name)).join(", ")}.` : "");
    this.section.dataset.ccState = "done";
    const ms = Number.isFinite(reply.ms) ? ` (${Math.round(reply.ms)} ms)` : "";
    replace(this.output, renderResult(result, SITE_ROOT, { chance: (p) => figure(p) })); // exact fractions a tap away, as on the cards
    const mid = request.inputs.order?.length ? request.inputs : null; // from the current turn (calc/fight/forecast_request.py)
    replace(this.status, mid ? `Forecast from round ${round}, turn ${mid.acted + 1} of ${mid.order.length}, on${ms}.` : `Forecast from round ${round + 1} on${ms}.`);
    this.render(this.tk.view); // a change made meanwhile marks it at once
  }
}
