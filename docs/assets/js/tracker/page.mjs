// The encounter tracker page (macros/render/tracker.py renders its container). Loaded by
// calculators.mjs only on a page that holds a `.cc-tracker`. The fight's rules are Python's
// (`calc.fight` in the worker, engine.mjs): each change is an action sent with the present state,
// answered by the new state and its view, which the page shows; the page keeps the states on an
// undo stack (state.mjs) and in localStorage with the last view (store.mjs: a failed save,
// another tab's change and a saved fight that cannot be read whole are said and kept on screen
// until resolved; none is overwritten silently). The parts: form.mjs (add, edit, rulings),
// cards.mjs (order and cards), round.mjs (dice), alerts.mjs (problems kept on screen).
import { el, replace } from "../shared/dom.mjs";
import { registerServiceWorker } from "../boot/site-update.mjs";
import { isPlayersLink } from "../fight/link.mjs";
import { Alerts } from "./alerts.mjs";
import { cardFromHash, rememberCards } from "./back-to-card.mjs";
import { Cards } from "./cards.mjs";
import { FightEngine } from "./engine.mjs";
import { ForecastPanel } from "./forecast-panel.mjs";
import { Odds } from "./odds.mjs";
import { AddForm, Rulings } from "./form.mjs";
import { RoundDice } from "./round.mjs";
import { showPlayers } from "./players.mjs";
import { linkFights, pasteIntoTracker } from "./setup.mjs";
import * as S from "./state.mjs";
import { Sync } from "./sync.mjs";
import { button, download, engineProblem, keys, whenIdle } from "./ui.mjs";

class Tracker {
  constructor(root) {
    this.root = root;
    this.system = root.dataset.ccSystem;
    this.decl = JSON.parse(root.dataset.ccTracker);
    this.fields = this.decl.fields || [];
    this.alerts = new Alerts();
    this.engine = new FightEngine(
      this.system,
      (st) => this.workerStatus(st),
      (busy) => (busy ? (root.dataset.ccBusy = "true") : delete root.dataset.ccBusy),
    );
    this.h = S.history(null);
    this.view = null; // the engine's view of the present state (null until it has answered)
    root.querySelector(".cc-fallback")?.remove();
    this.backTo = cardFromHash(location.hash); // Back from a card's calculator link (back-to-card.mjs)
    this.toTurn = true; // a reload mid-fight lands on the acting combatant's card (backToCard)
    this.build();
    rememberCards(root);
    this.sync = new Sync(this);
    this.sync.load();
    this.render();
    pasteIntoTracker(this.form.details, { system: this.system, decl: this.decl, dispatch: (a, said) => this.act(a, said, this.form.error) });
    linkFights(root, { system: this.system, decl: this.decl, state: () => this.state, view: () => this.view, dispatch: (a, said) => this.act(a, said), say: (t, bad) => this.say(t, bad) });
    root.dataset.ccBound = "true";
    // A returning visitor's service worker keeps this page and Python offline; a first visit
    // registers it once Python is up (not to compete with the first download). Python starts
    // when the page is idle, so the first action answers at once.
    if (navigator.serviceWorker?.controller) registerServiceWorker();
    whenIdle(() => this.root.isConnected && this.engine.warm());
  }

  get state() {
    return this.h.present;
  }

  workerStatus(st) {
    if (st.stage === "ready") registerServiceWorker();
    this.root.dataset.ccPython = st.stage;
    if (st.stage !== "ready" && this.asking) this.say(st.text, st.stage === "failed");
  }

  // ---- building the page ---------------------------------------------------------------
  build() {
    this.status = el("p", { class: "cc-tk-status", role: "status", "aria-live": "polite" });
    this.roundLabel = el("span", { class: "cc-tk-round" });
    this.turnLabel = el("span", { class: "cc-tk-turn" });
    this.prevBtn = button("Previous", () => this.previous(), { "aria-keyshortcuts": "P" });
    this.nextBtn = button("Next turn", () => this.next(), { "aria-keyshortcuts": "N", class: "md-button md-button--primary" });
    this.undoBtn = button("Undo", () => this.undo(), { "aria-keyshortcuts": "U Control+Z" });
    this.redoBtn = button("Redo", () => this.redo(), { "aria-keyshortcuts": "Y Control+Shift+Z" });
    this.bar = el(
      "div",
      { class: "cc-tk-bar", role: "group", "aria-label": "Turn" },
      this.alerts.node,
      this.status,
      el("p", { class: "cc-tk-now" }, this.roundLabel, " ", this.turnLabel),
      el("div", { class: "cc-tk-bar-buttons" }, this.prevBtn, this.nextBtn, this.undoBtn, this.redoBtn),
    );
    this.dice = new RoundDice(this);
    this.cards = new Cards(this);
    this.odds = new Odds(this); // the acting card's odds (odds.mjs)
    this.form = new AddForm(this);
    this.rulings = new Rulings(this);
    this.roundBtn = button("Roll initiative", () => this.dice.begin(), { "aria-keyshortcuts": "R", class: "md-button md-button--primary cc-tk-roundbtn" });
    this.notes = el("ul", { class: "cc-tk-notes" });
    const roundSection = el("section", { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-round" }, el("h2", { id: "cc-tk-h-round" }, "Round"), this.roundBtn, this.dice.panel, this.cards.orderList, this.notes);
    const people = el("section", { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-people" }, el("h2", { id: "cc-tk-h-people" }, "Combatants"), this.cards.list);
    this.importInput = el("input", { type: "file", accept: "application/json,.json", class: "cc-tk-file", "aria-label": "Import a fight from a JSON file" });
    this.importInput.addEventListener("change", () => this.importFile());
    const tools = el(
      "section",
      { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-tools" },
      el("h2", { id: "cc-tk-h-tools" }, "Save, load, start over"),
      el(
        "div",
        { class: "cc-tk-row" },
        button("Export JSON", () => this.exportFile()),
        el("label", { class: "md-button cc-tk-import" }, "Import JSON", this.importInput),
        button("New fight, same combatants", () => this.act({ type: "new", keep_combatants: true }, "A new fight: round 0, damage, wounds and conditions cleared (Undo brings the old one back).")),
        button("Clear everything", () => this.act({ type: "new", keep_combatants: false }, "Cleared (Undo brings it back).")),
      ),
      el("p", { class: "cc-tk-help cc-tk-keys" }, "Keys (outside text fields): N next turn · P previous · R roll initiative · A add a combatant · U or Ctrl+Z undo · Y or Ctrl+Shift+Z redo."),
    );
    this.forecast = new ForecastPanel(this);
    this.root.append(roundSection, people, this.forecast.section, this.form.details, this.rulings.section, tools, this.cards.tagList, this.bar);
    // The page scrolls above the bar (tracker.css): it keeps the bar's real height, as it changes.
    // rounded up, and a pixel more: the bar's top is fractional (131.3 px tall), and a tap on the
    // scrolling box's last pixel row is hit-tested against the bar
    this.barSize = new ResizeObserver(() => document.documentElement.style.setProperty("--cc-tk-bar-h", `${Math.ceil(this.bar.getBoundingClientRect().height) + 1}px`));
    this.barSize.observe(this.bar);
    this.keyHandler = (e) => this.key(e);
    document.addEventListener("keydown", this.keyHandler);
  }

  // ---- changes: one action at a time, through the engine ------------------------------------
  /** Send `action` on the present state; on an answer the new state becomes the present (one
   * Undo away) and its view is shown. Resolves to the answer, or null when refused (said in
   * `where` or the status line). `said`: a sentence, or a function of the answer. */
  act(action, said = null, where = null, then = null) {
    return this.engine.run(async (ask) => {
      this.asking = true;
      const reply = await ask(this.state, action);
      if (reply.error) {
        this.asking = false;
        const text = engineProblem(reply.error);
        if (where) replace(where, text);
        this.say(text, true);
        return null;
      }
      if (where) replace(where);
      let answer = reply.result;
      const what = typeof said === "function" ? said(answer) : said;
      const rules = S.steps(answer.steps).map((s) => s.text);
      // `then`: a follow-up the answer's view calls for (Resolve's last attack: the next turn),
      // sent on the new state; one Undo takes both back
      const more = then && then(answer);
      if (more) {
        const after = await ask(answer.state, more.action);
        if (!after.error) {
          answer = after.result;
          rules.push(...[more.said, ...S.steps(answer.steps).map((s) => s.text)].filter(Boolean));
        }
      }
      this.asking = false;
      this.h = S.push(this.h, answer.state);
      this.view = answer.view;
      this.root.dataset.ccAnsweredMs = String(Math.round(this.engine.lastMs ?? -1));
      this.sync.save();
      this.render();
      if (more) this.showTurn(false);
      if (what || rules.length) this.say([what, ...rules].filter(Boolean).join(" "));
      return answer;
    });
  }

  /** Show `state` as the present (Undo, Redo, another tab): the engine reads it (leniently, as a
   * stored state) and answers its view. */
  show(h, said) {
    return this.engine.run(async (ask) => {
      const reply = await ask(null, { type: "load", state: h.present });
      if (reply.error) return this.say(`That step cannot be read (${engineProblem(reply.error)}).`, true);
      this.h = { ...h, present: reply.result.state };
      this.view = reply.result.view;
      this.sync.save();
      this.render();
      if (said) this.say(said);
    });
  }

  undo() {
    if (!this.h.past.length) return this.say("Nothing to undo.");
    this.show(S.undo(this.h), "Undone.");
  }

  redo() {
    if (!this.h.future.length) return this.say("Nothing to redo.");
    this.show(S.redo(this.h), "Redone.");
  }

  /** The bar's big button: the next turn, or the next round once this one is over; while the
   * round's dice are being typed it only brings the dice form back (never wipes them). */
  next() {
    const v = this.view;
    if (v?.pending) return this.dice.reveal();
    if (!v || !v.order.length || v.round_over) return this.dice.begin();
    this.act({ type: "next_turn" }).then((a) => a && this.showTurn());
  }

  previous() {
    this.act({ type: "previous_turn" }).then((a) => a && this.showTurn());
  }

  /** Say whose turn it is, and bring the acting combatant's card into view (the next one follows
   * it: cards are in the round's order, and the bar names the next). */
  showTurn(saying = true) {
    const v = this.view;
    const now = v.current && v.combatants.find((c) => c.id === v.current);
    if (now) this.cards.showActing(now.id);
    if (!saying) return;
    if (now) this.say(`${now.name}'s turn.`);
    else if (v.round) this.say(`Round ${v.round} is over: Next round rolls initiative for round ${v.round + 1}.`);
  }

  say(text, problem = false) {
    this.status.classList.toggle("cc-tk-problem", problem);
    // The same words again are still news (e.g. a second "Undone."): change the node.
    replace(this.status, text);
  }

  // ---- drawing the view ---------------------------------------------------------------------
  render() {
    const focusKey = document.activeElement?.dataset?.tkFocus;
    const v = this.view || { round: 0, turn: 0, round_over: false, current: null, next: null, pending: null, order: [], combatants: [], notes: [], rulings: [] };
    const byId = new Map(v.combatants.map((c) => [c.id, c]));
    const now = byId.get(v.current) || null;
    const next = byId.get(v.next) || null;
    const acting = v.order.filter((t) => t.acts).length;
    const at = v.order.filter((t, i) => t.acts && i <= v.turn).length;
    this.root.dataset.ccRound = String(v.round);
    this.root.dataset.ccTurn = now ? now.id : "";
    replace(this.roundLabel, v.round ? `Round ${v.round}` : "No round yet");
    if (v.pending) replace(this.turnLabel, `· dice for round ${v.pending.round}`);
    else if (now) replace(this.turnLabel, "· ", el("strong", {}, now.name), `'s turn (${at} of ${acting})`, next ? el("span", { class: "cc-tk-next" }, ` · next: ${next.name}`) : null);
    else if (v.round && v.round_over) replace(this.turnLabel, "· round over", keys(": N rolls the next one"));
    else replace(this.turnLabel, v.combatants.length ? keys("· R rolls initiative") : "· add combatants below");
    this.prevBtn.disabled = Boolean(v.pending) || !v.round || (now && at <= 1);
    this.undoBtn.disabled = !this.h.past.length;
    this.redoBtn.disabled = !this.h.future.length;
    replace(this.nextBtn, v.pending ? `Dice for round ${v.pending.round}` : now ? "Next turn" : v.round ? "Next round" : "Roll initiative");
    replace(this.roundBtn, v.round ? `Roll initiative for round ${v.round + 1}` : "Roll initiative for round 1");
    this.roundBtn.hidden = Boolean(v.pending);
    this.dice.render(v.pending);
    if (this.backTo) this.cards.openIds.add(this.backTo);
    this.cards.render(v, this.state);
    this.forecast.render(this.view);
    replace(this.notes, S.steps(v.notes).map((n) => el("li", {}, n.text)));
    if (!v.combatants.length) this.form.details.open = true;
    if (this.view) this.rulings.render(v.rulings || []);
    this.form.limit(v.limits);
    if (focusKey) this.focusKey(focusKey);
    this.backToCard();
  }

  /** Back from a calculator: the card its link was opened from, in view; otherwise, on arrival
   * mid-fight, the acting combatant's (again on each render until the engine has answered: the
   * stored view comes first, the engine's reading after). */
  backToCard() {
    const id = this.backTo || (this.toTurn && this.view?.current);
    if (id && !this.backTo) this.cards.showActing(id);
    else if (id) this.cards.card$(id)?.scrollIntoView({ block: "start" });
    if (this.engine.lastMs !== null && this.view) this.backTo = this.toTurn = null;
  }

  focusKey(key) {
    const node = [...this.root.querySelectorAll("[data-tk-focus]")].find((n) => n.dataset.tkFocus === key);
    if (node && !node.disabled) node.focus({ preventScroll: true });
  }

  // ---- keyboard -------------------------------------------------------------------------------
  key(e) {
    if (e.defaultPrevented || !this.root.isConnected || e.altKey) return;
    const t = e.target;
    const typing = t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
    if (typing) return;
    const k = e.key.toLowerCase();
    const ctrl = e.ctrlKey || e.metaKey;
    let act = null;
    if (ctrl && k === "z") act = e.shiftKey ? () => this.redo() : () => this.undo();
    else if (ctrl && k === "y") act = () => this.redo();
    else if (!ctrl && !e.shiftKey) act = { n: () => this.next(), p: () => this.previous(), u: () => this.undo(), y: () => this.redo(), r: () => this.dice.begin(), a: () => this.form.open() }[k];
    if (!act) return;
    // Material binds N and P to the next and previous page (on window): the tracker's own keys win.
    e.preventDefault();
    e.stopPropagation();
    act();
  }

  // ---- files --------------------------------------------------------------------------------------
  exportFile() {
    if (!this.state) return this.say("Nothing to export yet.");
    download(S.exportText(this.state), `${this.system}-fight-round-${this.state.round}.json`);
    this.say("Exported.");
  }

  async importFile() {
    const file = this.importInput.files?.[0];
    this.importInput.value = "";
    if (!file) return;
    if (file.size > 1e6) return this.say(`${file.name} is too large for a tracker file (nothing changed).`, true);
    let raw;
    try {
      raw = JSON.parse(await file.text());
    } catch (err) {
      return this.say(`Not imported: this file is not JSON (${err.message}). Nothing changed.`, true);
    }
    await this.engine.run(async (ask) => {
      const reply = await ask(null, { type: "load", state: raw });
      if (reply.error) return this.say(`Not imported: ${engineProblem(reply.error)}. Nothing changed.`, true);
      const dropped = S.droppedText(reply.result.dropped, raw);
      if (dropped.length) return this.say(`Not imported: ${dropped.join("; ")}. Nothing changed.`, true);
      this.h = S.push(this.h, reply.result.state);
      this.view = reply.result.view;
      this.sync.save();
      this.render();
      this.say(`Imported ${file.name}: ${this.view.combatants.length} combatants, round ${this.view.round} (Undo returns to the previous fight).`);
    });
  }

  dispose() {
    document.removeEventListener("keydown", this.keyHandler);
    this.sync.dispose();
    this.barSize.disconnect();
    document.documentElement.style.removeProperty("--cc-tk-bar-h");
  }
}

const live = new Set();

/** Bind every tracker on the page (first load and after each instant navigation). */
export function bindTrackers() {
  for (const t of [...live]) {
    if (!t.root.isConnected) {
      t.dispose();
      live.delete(t);
    }
  }
  for (const root of document.querySelectorAll(".cc-tracker:not([data-cc-bound])")) {
    try {
      if (isPlayersLink(location.hash)) showPlayers(root, location.hash); // read-only: no Tracker
      else live.add(new Tracker(root));
    } catch (err) {
      root.append(el("p", { class: "cc-error" }, `The tracker could not be set up: ${err.message}`));
    }
  }
}
