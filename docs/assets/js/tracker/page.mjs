// The encounter tracker page (macros/render/tracker.py renders its container). Loaded by
// calculators.mjs only on a page that holds a `.cc-tracker`. Everything the page does is an
// action on state.mjs's history, so every change can be undone; the history is kept in
// localStorage (store.mjs: a failed save, another tab's change and an unreadable saved fight are
// all said and kept on screen until resolved; none is overwritten silently). Each round's order
// comes from the Python engine in the worker (calc/turns.py): round.mjs asks which dice the round
// needs, takes them typed or rolls them, and asks for the order. The parts: form.mjs (add, edit,
// rulings), cards.mjs (order and cards), round.mjs (dice), alerts.mjs (problems kept on screen).
import { calcWorker } from "../calc-worker-client.mjs";
import { el, replace } from "../dom.mjs";
import { registerServiceWorker } from "../site-update.mjs";
import { Alerts } from "./alerts.mjs";
import { Cards } from "./cards.mjs";
import { AddForm, Rulings } from "./form.mjs";
import { RoundDice } from "./round.mjs";
import { readStored } from "./salvage.mjs";
import * as S from "./state.mjs";
import { FightStore, historyTexts, storageProblem } from "./store.mjs";
import { button, download, keys, whenIdle } from "./ui.mjs";

class Tracker {
  constructor(root) {
    this.root = root;
    this.system = root.dataset.ccSystem;
    this.decl = JSON.parse(root.dataset.ccTracker);
    this.fields = S.trackerFields(this.decl);
    this.alerts = new Alerts();
    this.holdSaves = false; // an unreadable stored fight not yet kept aside: never write over it
    root.querySelector(".cc-fallback")?.remove();
    this.h = S.history(S.emptyState(this.system));
    this.build();
    this.load();
    this.render();
    root.dataset.ccBound = "true";
    // A returning visitor's service worker keeps this page and Python offline; a first visit
    // registers it once Python is up (not to compete with the first download). Python starts
    // when the page is idle, so the first roll answers at once.
    if (navigator.serviceWorker?.controller) registerServiceWorker();
    whenIdle(() => this.warm());
  }

  get state() {
    return this.h.present;
  }

  // ---- storage: load, save, other tabs -------------------------------------------------
  load() {
    let text;
    try {
      this.store = new FightStore(window.localStorage, this.system);
      text = this.store.read();
    } catch (err) {
      this.store = null;
      this.alerts.set("save", `This browser does not let the tracker keep the fight (${storageProblem(err)}): export it to keep it.`, [["Export JSON", () => this.exportFile()]]);
      return;
    }
    if (text) {
      const got = readStored(text, this.decl, this.system);
      if (got.history) this.h = got.history;
      if (!got.whole) this.keptAside(text, got);
    }
    for (const aside of this.store.aside()) if (!this.alerts.has(aside.key)) this.offerAside(aside);
    this.storageListener = (e) => {
      if (e.key === this.store.key && e.storageArea === window.localStorage) this.fromOtherTab(e.newValue);
    };
    window.addEventListener("storage", this.storageListener);
  }

  /** The stored fight could not be read whole: copy it aside as it was, then say what loaded. */
  keptAside(text, got) {
    const lost = got.dropped.join("; ");
    const loaded = got.history ? `${this.state.combatants.length} combatants, round ${this.state.round} loaded` : "nothing could be loaded";
    const kept = this.store.keepAside(text);
    if (kept.error) {
      this.holdSaves = true;
      this.alerts.set("aside", `The fight saved in this browser could not be read whole (${lost}); ${loaded}. It could not be copied aside (${storageProblem(kept.error)}), so nothing is saved over it until you download it or discard it.`, [
        ["Download it as it was", () => this.releaseAside("aside", text, null)],
        ["Discard it", () => this.releaseAside("aside", null, null)],
      ]);
      return;
    }
    this.offerAside({ key: kept.key, saved: "", text }, `The fight saved in this browser could not be read whole (${lost}); ${loaded}. The fight as it was saved is kept aside:`);
  }

  offerAside(aside, intro = `An unreadable fight${aside.saved ? ` (set aside ${aside.saved.slice(0, 16).replace("T", " ")})` : ""} is kept aside:`) {
    this.alerts.set(aside.key, `${intro} download it to keep it, or discard it.`, [
      ["Download it as it was", () => this.releaseAside(aside.key, aside.text, aside.key)],
      ["Discard it", () => this.releaseAside(aside.key, null, aside.key)],
    ]);
  }

  /** The reader downloaded (`text`) or discarded an unreadable fight: forget it. */
  releaseAside(alertId, text, storeKey) {
    if (text !== null) download(text, `${this.system}-fight-unreadable.json`);
    if (storeKey) this.store.discard(storeKey);
    this.alerts.clear(alertId);
    if (alertId === "aside") {
      this.holdSaves = false;
      this.save();
    }
    this.say(text !== null ? "Downloaded the fight as it was saved." : "Discarded.");
  }

  save({ force = false } = {}) {
    if (!this.store) return;
    if (this.holdSaves) {
      this.alerts.set("save", "Not saved in this browser yet: download or discard the unreadable fight first (it would be overwritten).", [["Export JSON", () => this.exportFile()]]);
      return;
    }
    const r = this.store.save(historyTexts(this.h), { force });
    if (r.ok) {
      this.alerts.clear("save");
      this.alerts.clear("conflict");
      if (r.trimmed) this.say("Saved, with a shorter undo history (this browser's storage is nearly full).");
      return;
    }
    if (r.conflict !== undefined) {
      this.alerts.set("conflict", "Another tab changed this fight since this tab last saved; this tab's change is not saved yet. Which one goes on?", [
        ["Load the other tab's", () => this.adoptOther()],
        ["Keep this tab's", () => this.save({ force: true })],
        ["Export this tab's", () => this.exportFile()],
      ]);
      return;
    }
    this.alerts.set("save", `Not saved in this browser: ${storageProblem(r.error)}. Export the fight to keep it; the tracker tries again at each change.`, [
      ["Export JSON", () => this.exportFile()],
      ["Try again", () => this.save()],
    ]);
  }

  /** Another tab saved `text`: take it, unless this tab has a change of its own not saved. */
  fromOtherTab(text) {
    if (this.alerts.has("conflict") || this.alerts.has("save") || this.holdSaves) {
      this.alerts.set("conflict", "Another tab changed this fight, and this tab has a change not saved. Which one goes on?", [
        ["Load the other tab's", () => this.adoptOther()],
        ["Keep this tab's", () => this.save({ force: true })],
        ["Export this tab's", () => this.exportFile()],
      ]);
      return;
    }
    const got = text ? readStored(text, this.decl, this.system) : null;
    if (!got?.history || !got.whole) {
      this.alerts.set("conflict", "Another tab cleared this fight or saved one this tab cannot read whole; this tab's fight is still here.", [
        ["Keep this tab's", () => this.save({ force: true })],
        ["Export this tab's", () => this.exportFile()],
      ]);
      return;
    }
    this.store.seen(text);
    if (this.dice.open) this.dice.close();
    this.h = got.history;
    this.render();
    this.say("Updated from another tab.");
  }

  /** Take the other tab's fight; this tab's stays one Undo away. */
  adoptOther() {
    let text;
    try {
      text = this.store.read();
    } catch {
      text = null;
    }
    const got = text ? readStored(text, this.decl, this.system) : null;
    if (!got?.history) return this.say("The other tab's fight cannot be read: keep or export this one.", true);
    if (this.dice.open) this.dice.close();
    this.h = { past: [...got.history.past, this.state].slice(-S.HISTORY_LIMIT), present: got.history.present, future: [] };
    this.alerts.clear("conflict");
    this.save({ force: true });
    this.render();
    this.say("Loaded the other tab's fight (Undo brings this tab's back).");
  }

  // ---- the worker ----------------------------------------------------------------------
  warm() {
    if (!this.root.isConnected || this.worker) return;
    this.worker = calcWorker();
    this.worker.onStatus((st) => this.workerStatus(st));
  }

  workerStatus(st) {
    if (st.stage === "ready") registerServiceWorker();
    this.root.dataset.ccPython = st.stage;
    if (st.stage !== "ready" && this.asking) this.say(st.text, st.stage === "failed");
  }

  async ask(op, payload) {
    this.warm();
    if (this.worker.status.stage === "failed") this.worker.restart("Retrying.");
    this.asking = true;
    this.root.dataset.ccBusy = "true";
    const reply = await this.worker.request({ kind: "turns", op, system: this.system, ...payload });
    this.asking = false;
    delete this.root.dataset.ccBusy;
    return reply;
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
    this.form = new AddForm(this);
    this.rulings = new Rulings(this);
    this.roundBtn = button("Roll initiative", () => this.dice.begin(), { "aria-keyshortcuts": "R", class: "md-button md-button--primary cc-tk-roundbtn" });
    this.notes = el("ul", { class: "cc-tk-notes" });
    this.waiting = el("p", { class: "cc-tk-waiting" });
    const roundSection = el(
      "section",
      { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-round" },
      el("h2", { id: "cc-tk-h-round" }, "Round"),
      this.roundBtn,
      this.dice.panel,
      this.cards.orderList,
      this.waiting,
      this.notes,
    );
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
        button("New fight, same combatants", () => this.dispatch({ type: "clear", keepCombatants: true }, "A new fight: round 0, damage and conditions cleared (Undo brings the old one back).")),
        button("Clear everything", () => this.dispatch({ type: "clear", keepCombatants: false }, "Cleared (Undo brings it back).")),
      ),
      el("p", { class: "cc-tk-help cc-tk-keys" }, "Keys (outside text fields): N next turn · P previous · R roll initiative · A add a combatant · U or Ctrl+Z undo · Y or Ctrl+Shift+Z redo."),
    );
    this.root.append(roundSection, people, this.form.details, ...(this.rulings.section ? [this.rulings.section] : []), tools, this.cards.tagList, this.bar);
    this.keyHandler = (e) => this.key(e);
    document.addEventListener("keydown", this.keyHandler);
  }

  // ---- changes ----------------------------------------------------------------------------
  /** Apply an action; true when it was allowed. A refusal is said (in `where` or the status). */
  dispatch(action, said = null, where = null) {
    try {
      this.h = S.apply(this.h, action, this.decl);
    } catch (err) {
      if (!(err instanceof S.TrackerError)) throw err;
      if (where) replace(where, err.message);
      else this.say(err.message, true);
      return false;
    }
    if (where) replace(where);
    this.save();
    this.render();
    if (said) this.say(said);
    return true;
  }

  undo() {
    if (!this.h.past.length) return this.say("Nothing to undo.");
    this.h = S.undo(this.h);
    this.afterHistory("Undone.");
  }

  redo() {
    if (!this.h.future.length) return this.say("Nothing to redo.");
    this.h = S.redo(this.h);
    this.afterHistory("Redone.");
  }

  afterHistory(text) {
    // Dice typed for the next round stay, unless the undone step was a round's start.
    if (this.dice.open && this.dice.pending.round !== this.state.round + 1) this.dice.close();
    this.save();
    this.render();
    this.say(text);
  }

  /** The bar's big button: the next turn, or a new round once this one is over; while the dice
   * form is open it only brings the form back (it never starts a round over typed dice). */
  next() {
    const s = this.state;
    if (this.dice.open) return this.dice.reveal();
    if (!s.order.length || s.turn >= s.order.length) return this.dice.begin();
    this.dispatch({ type: "next" });
    this.showTurn();
  }

  previous() {
    if (this.dispatch({ type: "previous" })) this.showTurn();
  }

  /** Say whose turn it is, and bring the acting combatant's card into view (the next one follows
   * it: cards are in the round's order). */
  showTurn() {
    const s = this.state;
    const now = S.current(s);
    if (now) this.cards.card$(now.id)?.scrollIntoView({ block: "start" });
    if (now) this.say(`${now.name}'s turn.`);
    else if (s.round) this.say(`Round ${s.round} is over: Next round rolls initiative for round ${s.round + 1}.`);
  }

  say(text, problem = false) {
    this.status.classList.toggle("cc-tk-problem", problem);
    // The same words again are still news (e.g. a second "Undone."): change the node.
    replace(this.status, text);
  }

  // ---- drawing the state -------------------------------------------------------------------
  render() {
    const focusKey = document.activeElement?.dataset?.tkFocus;
    const s = this.state;
    const now = S.current(s);
    const upcoming = s.order.slice(s.turn + 1).find((t) => t.id !== now?.id);
    const next = upcoming ? s.combatants.find((c) => c.id === upcoming.id) : null;
    this.root.dataset.ccRound = String(s.round);
    this.root.dataset.ccTurn = now ? now.id : "";
    replace(this.roundLabel, s.round ? `Round ${s.round}` : "No round yet");
    if (this.dice.open) replace(this.turnLabel, `· dice for round ${this.dice.pending.round}`);
    else if (now) replace(this.turnLabel, "· ", el("strong", {}, now.name), `'s turn (${s.turn + 1} of ${s.order.length})`, next ? el("span", { class: "cc-tk-next" }, ` · next: ${next.name}`) : null);
    else if (s.round && s.turn >= s.order.length) replace(this.turnLabel, "· round over", keys(": N rolls the next one"));
    else replace(this.turnLabel, s.combatants.length ? keys("· R rolls initiative") : "· add combatants below");
    this.prevBtn.disabled = s.turn === 0 || this.dice.open;
    this.undoBtn.disabled = !this.h.past.length;
    this.redoBtn.disabled = !this.h.future.length;
    replace(this.nextBtn, this.dice.open ? `Dice for round ${this.dice.pending.round}` : now ? "Next turn" : s.round ? "Next round" : "Roll initiative");
    replace(this.roundBtn, s.round ? `Roll initiative for round ${s.round + 1}` : "Roll initiative for round 1");
    this.roundBtn.hidden = this.dice.open;

    this.cards.render(s, now);
    const inOrder = new Set(s.order.map((t) => t.id));
    const outside = s.round ? s.combatants.filter((c) => !inOrder.has(c.id)).map((c) => c.name) : [];
    replace(this.waiting, outside.length ? `Not in this round's order (they join when the next round is rolled): ${outside.join(", ")}.` : "");
    replace(this.notes, (s.notes || []).map((n) => el("li", {}, n.text)));
    if (!s.combatants.length) this.form.details.open = true;
    this.rulings.render(s);
    // What scrolls into view stops above the sticky turn bar and below the site's header.
    document.documentElement.style.scrollPaddingBottom = `${this.bar.offsetHeight + 8}px`;
    document.documentElement.style.scrollPaddingTop = `${(document.querySelector(".md-header")?.offsetHeight ?? 48) + 8}px`;
    if (focusKey) this.focusKey(focusKey);
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
    download(S.exportText(this.state), `${this.system}-fight-round-${this.state.round}.json`);
    this.say("Exported.");
  }

  async importFile() {
    const file = this.importInput.files?.[0];
    this.importInput.value = "";
    if (!file) return;
    if (file.size > 1e6) return this.say(`${file.name} is too large for a tracker file (nothing changed).`, true);
    const got = S.parseImport(await file.text(), this.decl, this.system);
    if (got.error) return this.say(`Not imported: ${got.error} Nothing changed.`, true);
    this.dispatch({ type: "replace", state: got.state }, `Imported ${file.name}: ${got.state.combatants.length} combatants, round ${got.state.round} (Undo returns to the previous fight).`);
  }

  dispose() {
    document.removeEventListener("keydown", this.keyHandler);
    if (this.storageListener) window.removeEventListener("storage", this.storageListener);
    document.documentElement.style.scrollPaddingBottom = "";
    document.documentElement.style.scrollPaddingTop = "";
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
      live.add(new Tracker(root));
    } catch (err) {
      root.append(el("p", { class: "cc-error" }, `The tracker could not be set up: ${err.message}`));
    }
  }
}
