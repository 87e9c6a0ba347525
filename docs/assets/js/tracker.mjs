// The encounter tracker page (macros/render/tracker.py renders its container). Loaded by
// calculators.mjs only on a page that holds a `.cc-tracker`. Everything the page does is an
// action on tracker-state.mjs's history, so every change can be undone; the history is kept in
// localStorage under `cc-tracker-<system>` (offline too: the service worker precaches the page).
// Each round's order comes from the Python engine in the worker (calc/turns.py, the same engine
// and data as the initiative calculator): this page asks which dice the round needs, rolls them
// (crypto.getRandomValues) or takes the table's dice as typed, and asks for the order. No user
// text is ever parsed as HTML: every node is built with dom.mjs `el()`.
import { calcWorker } from "./boot/calc-worker-client.mjs";
import { el, replace, siteHref, uid } from "./dom.mjs";
import { openPresets, ROLES } from "./presets.mjs";
import { registerServiceWorker } from "./boot/site-update.mjs";
import * as S from "./tracker-state.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);
const SIDE_LABEL = { pc: "PC", foe: "Foe" };

function uint32() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

class Tracker {
  constructor(root) {
    this.root = root;
    this.system = root.dataset.ccSystem;
    this.decl = JSON.parse(root.dataset.ccTracker);
    this.fields = S.trackerFields(this.decl);
    this.storageKey = `cc-tracker-${this.system}`;
    this.pendingDice = null; // the round being rolled: {round, dice: [...], rolls: {}}
    root.querySelector(".cc-fallback")?.remove();
    let stored;
    let storedText = null;
    try {
      storedText = localStorage.getItem(this.storageKey);
      stored = S.loadHistory(storedText, this.decl, this.system);
    } catch {
      stored = null;
    }
    this.h = stored || S.history(S.emptyState(this.system));
    this.build();
    this.render();
    if (storedText && !stored) this.say("The fight saved in this browser could not be read; a new one starts (the old one is left in storage until you change something).", true);
    root.dataset.ccBound = "true";
    // A returning visitor's service worker keeps this page and Python offline; a first visit
    // registers it once Python is up (not to compete with the first download). Python starts
    // when the page is idle, so the first roll answers at once.
    if (navigator.serviceWorker?.controller) registerServiceWorker();
    whenIdle(() => this.warm());
  }

  /** Start the worker (Python) ahead of the first roll. */
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

  get state() {
    return this.h.present;
  }

  // ---- building the page ---------------------------------------------------------------
  build() {
    this.status = el("p", { class: "cc-tk-status", role: "status", "aria-live": "polite" });
    this.roundLabel = el("span", { class: "cc-tk-round" });
    this.turnLabel = el("span", { class: "cc-tk-turn" });
    this.prevBtn = button("Previous", () => this.previous(), { "aria-keyshortcuts": "P", title: "Previous turn (P)" });
    this.nextBtn = button("Next turn", () => this.next(), { "aria-keyshortcuts": "N", title: "Next turn (N)", class: "md-button md-button--primary" });
    this.undoBtn = button("Undo", () => this.undo(), { "aria-keyshortcuts": "U Control+Z", title: "Undo (U)" });
    this.redoBtn = button("Redo", () => this.redo(), { "aria-keyshortcuts": "Y Control+Shift+Z", title: "Redo (Y)" });
    this.bar = el(
      "div",
      { class: "cc-tk-bar", role: "group", "aria-label": "Turn" },
      this.status,
      el("p", { class: "cc-tk-now" }, this.roundLabel, " ", this.turnLabel),
      el("div", { class: "cc-tk-bar-buttons" }, this.prevBtn, this.nextBtn, this.undoBtn, this.redoBtn),
    );

    this.roundBtn = button("Roll initiative", () => this.beginRound(), { "aria-keyshortcuts": "R", class: "md-button md-button--primary cc-tk-roundbtn" });
    this.dicePanel = el("div", { class: "cc-tk-dice", hidden: true });
    this.notes = el("ul", { class: "cc-tk-notes" });
    this.orderList = el("ol", { class: "cc-tk-order", "aria-label": "Order of this round" });
    this.waiting = el("p", { class: "cc-tk-waiting" });
    const roundSection = el(
      "section",
      { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-round" },
      el("h2", { id: "cc-tk-h-round" }, "Round"),
      this.roundBtn,
      this.dicePanel,
      this.orderList,
      this.waiting,
      this.notes,
    );

    this.list = el("ul", { class: "cc-tk-combatants" });
    const people = el(
      "section",
      { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-people" },
      el("h2", { id: "cc-tk-h-people" }, "Combatants"),
      this.list,
    );

    this.addSection = this.buildForm();
    this.rulingsSection = this.buildRulings();

    const exportBtn = button("Export JSON", () => this.exportFile());
    this.importInput = el("input", { type: "file", accept: "application/json,.json", class: "cc-tk-file", "aria-label": "Import a fight from a JSON file" });
    this.importInput.addEventListener("change", () => this.importFile());
    const importLabel = el("label", { class: "md-button cc-tk-import" }, "Import JSON", this.importInput);
    const newFight = button("New fight, same combatants", () => this.dispatch({ type: "clear", keepCombatants: true }, "A new fight: round 0, damage and conditions cleared (Undo brings the old one back)."));
    const clearAll = button("Clear everything", () => this.dispatch({ type: "clear", keepCombatants: false }, "Cleared (Undo brings it back)."));
    const tools = el(
      "section",
      { class: "cc-tk-section", "aria-labelledby": "cc-tk-h-tools" },
      el("h2", { id: "cc-tk-h-tools" }, "Save, load, start over"),
      el("div", { class: "cc-tk-row" }, exportBtn, importLabel, newFight, clearAll),
      el(
        "p",
        { class: "cc-tk-help" },
        "Keys (outside text fields): N next turn · P previous · R roll initiative · A add a combatant · U or Ctrl+Z undo · Y or Ctrl+Shift+Z redo.",
      ),
    );
    this.root.append(roundSection, people, this.addSection, ...(this.rulingsSection ? [this.rulingsSection] : []), tools, this.bar);
    this.keyHandler = (e) => this.key(e);
    document.addEventListener("keydown", this.keyHandler);
  }

  buildForm() {
    this.editing = null;
    this.formTitle = el("summary", {}, "Add a combatant");
    this.nameInput = el("input", { type: "text", id: uid("tk-name"), maxlength: S.NAME_MAX, autocomplete: "off", required: true });
    this.sideInput = el("select", { id: uid("tk-side") }, el("option", { value: "pc" }, "PC (player character)"), el("option", { value: "foe" }, "Foe (NPC or monster)"));
    const h = this.decl.health;
    this.maxInput = el("input", { type: "number", inputmode: "numeric", id: uid("tk-max"), min: 1, max: S.HEALTH_MAX, value: h.default ?? 10, required: true });
    // A fighter or foe saved in this system's calculators (presets.mjs), read when the list opens.
    this.presetInput = el("select", { id: uid("tk-preset"), "data-tk-focus": "preset" });
    this.presetInput.addEventListener("focus", () => this.listPresets());
    this.presetInput.addEventListener("change", () => this.usePreset());
    this.listPresets();
    const rows = [
      labelled("From a saved preset", this.presetInput, "Fighters and foes saved in this system's calculators; fills the form, then Add."),
      labelled("Name", this.nameInput),
      labelled("Side", this.sideInput),
      labelled(`${h.label} (full)`, this.maxInput),
    ];
    this.fieldInputs = {};
    for (const f of this.fields) {
      const input = fieldInput(f);
      this.fieldInputs[f.name] = input;
      rows.push(labelled(f.label || f.name, input, f.help));
    }
    this.formError = el("p", { class: "cc-tk-error", role: "alert" });
    this.submitBtn = el("button", { type: "submit", class: "md-button md-button--primary" }, "Add");
    this.cancelEdit = button("Cancel editing", () => this.resetForm(), { hidden: true });
    const form = el("form", { class: "cc-tk-form", novalidate: true }, el("div", { class: "cc-tk-grid" }, rows), this.formError, el("div", { class: "cc-tk-row" }, this.submitBtn, this.cancelEdit));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submitForm();
    });
    this.details = el("details", { class: "cc-tk-section cc-tk-add" }, this.formTitle, form);
    return this.details;
  }

  /** The initiative rulings (the initiative calculator's ruling inputs, as the data declares
   * them): each change is an undoable action; the round's order is asked with them. */
  buildRulings() {
    const rulings = S.rulingFields(this.decl);
    if (!rulings.length) return null;
    this.rulingInputs = {};
    const rows = rulings.map((f) => {
      const input = fieldInput(f);
      input.dataset.tkFocus = `ruling-${f.name}`;
      input.addEventListener("change", () => {
        const value = readFieldInput(input, f);
        const label = f.type === "choice" ? shownValue(f, value) : value ? "yes" : "no";
        this.dispatch({ type: "option", name: f.name, value }, `${f.label}: ${label}. It applies from the next roll of initiative.`);
      });
      this.rulingInputs[f.name] = input;
      const row = labelled(f.label || f.name, input, f.help);
      row.dataset.ccRuling = f.name;
      return row;
    });
    return el(
      "details",
      { class: "cc-tk-section cc-tk-rulings" },
      el("summary", {}, "Rulings"),
      el("p", { class: "cc-tk-help" }, "Where the text is unclear: the same choices as the initiative calculator. They apply from the next roll of initiative, and are saved and exported with the fight."),
      el("div", { class: "cc-tk-grid" }, rows),
    );
  }

  renderRulings() {
    if (!this.rulingInputs) return;
    const values = S.rulingValues(this.state, this.decl);
    for (const f of S.rulingFields(this.decl)) {
      const input = this.rulingInputs[f.name];
      setFieldInput(input, f, values[f.name]);
      input.closest(".cc-tk-field").hidden = !S.applies(f, values);
    }
  }

  /** The presets of this system, by role, as the preset list's options. */
  listPresets() {
    let found = { attacker: [], target: [] };
    try {
      const store = openPresets(this.system);
      found = Object.fromEntries(ROLES.map((role) => [role, store.list(role)]));
    } catch {
      // storage blocked: no presets to offer
    }
    this.presets = found;
    const count = found.attacker.length + found.target.length;
    const groups = [
      ["attacker", "Fighters (join as a PC)"],
      ["target", "Foes (join as a foe)"],
    ]
      .filter(([role]) => found[role].length)
      .map(([role, label]) => el("optgroup", { label }, found[role].map((p, i) => el("option", { value: `${role}:${i}` }, p.name))));
    replace(this.presetInput, el("option", { value: "" }, count ? "Choose a preset…" : "None saved yet (save one in a calculator)"), groups);
  }

  usePreset() {
    const [role, index] = this.presetInput.value.split(":");
    const preset = this.presets?.[role]?.[Number(index)];
    if (!preset) return;
    const got = S.fromPreset(preset, role, this.decl);
    this.nameInput.value = got.name;
    this.sideInput.value = got.side;
    if (got.max !== null) this.maxInput.value = got.max;
    for (const f of this.fields) if (Object.hasOwn(got.values, f.name)) setFieldInput(this.fieldInputs[f.name], f, got.values[f.name]);
    this.presetInput.value = "";
    this.say(`Filled from the preset ${got.name}${got.used.length ? "" : " (its values are not ones this tracker keeps: only the name and side)"}: check the form, then Add.`);
  }

  resetForm() {
    this.editing = null;
    this.nameInput.value = "";
    this.sideInput.value = "pc";
    this.maxInput.value = this.decl.health.default ?? 10;
    for (const f of this.fields) setFieldInput(this.fieldInputs[f.name], f, S.fieldDefault(f));
    replace(this.formTitle, "Add a combatant");
    replace(this.submitBtn, "Add");
    this.cancelEdit.hidden = true;
    replace(this.formError);
  }

  readForm() {
    const values = {};
    for (const f of this.fields) values[f.name] = readFieldInput(this.fieldInputs[f.name], f);
    const max = /^\s*\d+\s*$/.test(this.maxInput.value) ? Number(this.maxInput.value) : NaN;
    return { name: this.nameInput.value, side: this.sideInput.value, values, max };
  }

  submitForm() {
    const data = this.readForm();
    if (!Number.isInteger(data.max) || data.max < 1) {
      replace(this.formError, `${this.decl.health.label}: a whole number from 1 is needed.`);
      this.maxInput.focus();
      return;
    }
    const ok = this.editing
      ? this.dispatch({ type: "edit", id: this.editing, changes: data }, `${data.name.trim()} changed.`, this.formError)
      : this.dispatch({ type: "add", combatant: data }, `${data.name.trim()} joins the fight.`, this.formError);
    if (!ok) return;
    const wasEditing = this.editing;
    this.resetForm();
    if (wasEditing) this.focusKey(`edit-${wasEditing}`);
    else this.nameInput.focus(); // ready for the next one
  }

  startEdit(c) {
    this.editing = c.id;
    this.details.open = true;
    this.nameInput.value = c.name;
    this.sideInput.value = c.side;
    this.maxInput.value = c.max;
    for (const f of this.fields) setFieldInput(this.fieldInputs[f.name], f, c.values[f.name]);
    replace(this.formTitle, `Edit ${c.name}`);
    replace(this.submitBtn, "Save changes");
    this.cancelEdit.hidden = false;
    replace(this.formError);
    this.nameInput.focus();
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
    this.closeDice();
    this.save();
    this.render();
    this.say(text);
  }

  next() {
    const s = this.state;
    if (!s.order.length || s.turn >= s.order.length) return this.beginRound();
    this.dispatch({ type: "next" });
    this.sayTurn();
  }

  previous() {
    if (this.dispatch({ type: "previous" })) this.sayTurn();
  }

  /** Say whose turn it is now (the status line is read out; the bar shows it too). */
  sayTurn() {
    const now = S.current(this.state);
    // The acting combatant's card comes into view (above the turn bar), ready for damage.
    if (now) this.list.querySelector(`[data-cc-id="${CSS.escape(now.id)}"]`)?.scrollIntoView({ block: "center" });
    if (now) this.say(`${now.name}'s turn.`);
    else if (this.state.round) this.say(`Round ${this.state.round} is over: Next rolls initiative for round ${this.state.round + 1}.`);
  }

  save() {
    try {
      localStorage.setItem(this.storageKey, JSON.stringify(this.h));
    } catch (err) {
      this.say(`Could not save in this browser (${err.name}): export the fight to keep it.`, true);
    }
  }

  say(text, problem = false) {
    this.status.classList.toggle("cc-tk-problem", problem);
    // The same words again are still news (e.g. a second "Undone."): change the node.
    replace(this.status, text);
  }

  // ---- a round: dice from the engine, rolled or typed, order from the engine ------------
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

  async beginRound() {
    const s = this.state;
    if (!s.combatants.length) {
      this.details.open = true;
      this.nameInput.focus();
      return this.say("Add the combatants first.", true);
    }
    const round = s.round + 1;
    this.say(`Asking which dice round ${round} needs…`);
    const reply = await this.ask("dice", { combatants: s.combatants.map(S.engineCombatant), round, options: S.engineOptions(s, this.decl) });
    if (reply.error) return this.say(engineProblem(reply.error), true);
    const dice = reply.result;
    if (!dice.length) return this.finishRound({ round, dice: [], rolls: { ...s.rolls } });
    this.pendingDice = { round, dice, rolls: {}, base: s };
    this.showDice();
  }

  showDice(extra = null) {
    const p = this.pendingDice;
    const rows = p.dice.map((d) => {
      const input = el("input", {
        type: "text",
        inputmode: "numeric",
        autocomplete: "off",
        id: uid("tk-die"),
        "data-cc-key": d.key,
        "data-tk-focus": `die-${d.key}`,
        value: p.rolls[d.key] ?? "",
        size: 4,
      });
      const lab = el("label", { for: input.id }, `${d.label} `, el("span", { class: "cc-tk-dicetext" }, d.dice));
      return el("li", {}, lab, input);
    });
    const rollAll = button("Roll the empty ones here", () => this.rollEmpty());
    const go = el("button", { type: "submit", class: "md-button md-button--primary" }, `Start round ${p.round}`);
    const cancel = button("Cancel", () => this.closeDice());
    const form = el(
      "form",
      { class: "cc-tk-diceform", novalidate: true },
      el("p", {}, extra || `Round ${p.round}: roll these dice at the table and type them, or roll them here.`),
      el("ul", {}, rows),
      this.diceError = el("p", { class: "cc-tk-error", role: "alert" }),
      el("div", { class: "cc-tk-row" }, rollAll, go, cancel),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.readDice();
    });
    replace(this.dicePanel, form);
    this.dicePanel.hidden = false;
    this.roundBtn.hidden = true;
    form.querySelector("input")?.focus();
  }

  rollEmpty() {
    for (const input of this.dicePanel.querySelectorAll("input[data-cc-key]")) {
      if (input.value.trim()) continue;
      const d = this.pendingDice.dice.find((x) => x.key === input.dataset.ccKey);
      input.value = String(S.rollDice(d.dice, uint32));
    }
    this.say("Rolled in the page.");
  }

  readDice() {
    const p = this.pendingDice;
    for (const input of this.dicePanel.querySelectorAll("input[data-cc-key]")) {
      const d = p.dice.find((x) => x.key === input.dataset.ccKey);
      const checked = S.checkRoll(d.dice, input.value, d.label);
      if (checked.error) {
        replace(this.diceError, checked.error);
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      input.removeAttribute("aria-invalid");
      p.rolls[d.key] = checked.value;
    }
    this.finishRound(p);
  }

  async finishRound(p) {
    const s = this.state;
    const reply = await this.ask("order", { combatants: s.combatants.map(S.engineCombatant), rolls: p.rolls, round: p.round, options: S.engineOptions(s, this.decl) });
    if (reply.error) {
      if (this.diceError) replace(this.diceError, engineProblem(reply.error));
      return this.say(engineProblem(reply.error), true);
    }
    const answer = reply.result;
    if (answer.needs?.length) {
      this.pendingDice = { ...p, dice: answer.needs, base: s };
      return this.showDice((answer.notes || []).map((n) => n.text ?? n).join(" ") || "A tie: roll these dice too.");
    }
    if (this.state !== s) return this.say("The fight changed meanwhile: roll initiative again.", true);
    this.closeDice();
    const ok = this.dispatch({ type: "startRound", turns: answer.turns, notes: answer.notes, rolls: p.rolls });
    if (ok) {
      const first = S.current(this.state);
      this.say(`Round ${this.state.round}: ${first ? `${first.name} goes first` : "nobody acts"}.`);
      this.nextBtn.focus();
    }
  }

  closeDice() {
    this.pendingDice = null;
    this.dicePanel.hidden = true;
    replace(this.dicePanel);
    this.roundBtn.hidden = false;
  }

  // ---- drawing the state -------------------------------------------------------------------
  render() {
    const focusKey = document.activeElement?.dataset?.tkFocus;
    const s = this.state;
    const now = S.current(s);
    this.root.dataset.ccRound = String(s.round);
    this.root.dataset.ccTurn = now ? now.id : "";
    replace(this.roundLabel, s.round ? `Round ${s.round}` : "No round yet");
    if (now) replace(this.turnLabel, "· ", el("strong", {}, now.name), `'s turn (${s.turn + 1} of ${s.order.length})`);
    else if (s.round && s.turn >= s.order.length) replace(this.turnLabel, "· round over: N rolls the next one");
    else replace(this.turnLabel, s.combatants.length ? "· R rolls initiative" : "· add combatants below");
    this.prevBtn.disabled = s.turn === 0;
    this.undoBtn.disabled = !this.h.past.length;
    this.redoBtn.disabled = !this.h.future.length;
    replace(this.nextBtn, now || !s.round ? (now ? "Next turn" : "Roll initiative") : "Next round");
    replace(this.roundBtn, s.round ? `Roll initiative for round ${s.round + 1}` : "Roll initiative for round 1");

    const byId = new Map(s.combatants.map((c) => [c.id, c]));
    replace(
      this.orderList,
      s.order.map((t, i) => {
        const c = byId.get(t.id);
        return el(
          "li",
          { class: `cc-tk-slot cc-tk-${c.side}`, "aria-current": i === s.turn ? "step" : null, "data-cc-id": t.id },
          el("span", { class: "cc-tk-when" }, t.when),
          " ",
          el("strong", {}, c.name),
          " ",
          el("span", { class: "cc-tk-side" }, SIDE_LABEL[c.side]),
          t.why.length ? el("details", { class: "cc-tk-why" }, el("summary", {}, "Why"), el("ul", {}, t.why.map(stepItem))) : null,
        );
      }),
    );
    const inOrder = new Set(s.order.map((t) => t.id));
    const outside = s.round ? s.combatants.filter((c) => !inOrder.has(c.id)).map((c) => c.name) : [];
    replace(this.waiting, outside.length ? `Not in this round's order (they join when the next round is rolled): ${outside.join(", ")}.` : "");
    replace(this.notes, (s.notes || []).map(stepItem));
    replace(
      this.list,
      s.combatants.map((c) => this.card(c, now)),
    );
    if (!s.combatants.length) this.details.open = true;
    this.renderRulings();
    const used = [...new Set(s.combatants.flatMap((c) => c.tags))];
    this.tagList ??= el("datalist", { id: uid("tk-tags") });
    if (!this.tagList.isConnected) this.root.append(this.tagList);
    replace(this.tagList, used.map((t) => el("option", { value: t })));
    if (focusKey) this.focusKey(focusKey);
  }

  focusKey(key) {
    const node = [...this.root.querySelectorAll("[data-tk-focus]")].find((n) => n.dataset.tkFocus === key);
    if (node && !node.disabled) node.focus();
  }

  card(c, now) {
    const left = c.max - c.damage;
    const health = this.decl.health;
    const amount = el("input", {
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      class: "cc-tk-amount",
      "aria-label": `Amount of damage or healing for ${c.name}`,
      "data-tk-focus": `amount-${c.id}`,
      size: 4,
    });
    const hurt = (type) => () => {
      const n = /^\s*\d+\s*$/.test(amount.value) ? Number(amount.value) : NaN;
      if (!Number.isInteger(n) || n < 1) {
        amount.focus();
        return this.say(`Type an amount for ${c.name} first (a whole number from 1).`, true);
      }
      this.dispatch({ type, id: c.id, amount: n }, type === "damage" ? `${c.name} takes ${n}.` : `${c.name} heals ${n}.`);
    };
    const dmg = button("Damage", hurt("damage"), { "data-tk-focus": `damage-${c.id}`, "aria-label": `Damage ${c.name}` });
    const heal = button("Heal", hurt("heal"), { "data-tk-focus": `heal-${c.id}`, "aria-label": `Heal ${c.name}` });
    amount.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        hurt(e.shiftKey ? "heal" : "damage")();
      }
    });
    const tagInput = el("input", {
      type: "text",
      autocomplete: "off",
      maxlength: S.TAG_MAX,
      list: this.tagList?.id,
      "aria-label": `Condition for ${c.name} (e.g. Hurt)`,
      placeholder: "Condition",
      "data-tk-focus": `tag-${c.id}`,
      size: 10,
    });
    const addTag = () => this.dispatch({ type: "tag", id: c.id, tag: tagInput.value }, `${c.name}: ${tagInput.value.trim()}.`);
    tagInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addTag();
      }
    });
    const tags = c.tags.map((t) =>
      el(
        "li",
        {},
        el("span", {}, t),
        button("×", () => this.dispatch({ type: "untag", id: c.id, tag: t }, `${c.name}: ${t} removed.`), {
          "aria-label": `Remove ${t} from ${c.name}`,
          class: "cc-tk-x",
        }),
      ),
    );
    const values = this.fields.map((f) => `${f.label || f.name}: ${shownValue(f, c.values[f.name])}`).join(" · ");
    const links = Object.entries(this.decl.links || {}).map(([name, link]) => {
      const query = S.calculatorQuery(c, this.decl, name);
      const href = siteHref(`${link.url}${query ? `?${query}` : ""}`, SITE_ROOT);
      return href ? el("a", { href, class: "cc-tk-link" }, `${link.title} vs ${c.name}`) : null;
    });
    const isNow = now && now.id === c.id;
    const state = S.healthState(c, this.decl);
    return el(
      "li",
      { class: `cc-tk-card cc-tk-${c.side}${left <= 0 ? " cc-tk-down" : ""}`, "data-cc-id": c.id, "aria-current": isNow ? "true" : null },
      el("h3", {}, c.name, " ", el("span", { class: "cc-tk-side" }, SIDE_LABEL[c.side]), isNow ? el("span", { class: "cc-tk-nowtag" }, " — acting now") : null),
      el(
        "p",
        { class: "cc-tk-health" },
        `${health.label}: `,
        el("strong", { class: "cc-tk-left" }, String(left)),
        ` of ${c.max}`,
        c.damage ? ` (${c.damage} damage taken)` : "",
        state ? [" ", stateBadge(state)] : null,
      ),
      el("p", { class: "cc-tk-values" }, values),
      el("div", { class: "cc-tk-row" }, amount, dmg, heal),
      el("ul", { class: "cc-tk-tags", "aria-label": `Conditions of ${c.name}` }, tags),
      el("div", { class: "cc-tk-row" }, tagInput, button("Add condition", addTag, { "aria-label": `Add condition to ${c.name}` })),
      el("div", { class: "cc-tk-row" }, links),
      el(
        "div",
        { class: "cc-tk-row" },
        button("Edit", () => this.startEdit(c), { "data-tk-focus": `edit-${c.id}`, "aria-label": `Edit ${c.name}` }),
        button("Remove", () => this.dispatch({ type: "remove", id: c.id }, `${c.name} removed (Undo brings them back).`), { "aria-label": `Remove ${c.name}` }),
      ),
    );
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
    else if (!ctrl && !e.shiftKey) {
      act = { n: () => this.next(), p: () => this.previous(), u: () => this.undo(), y: () => this.redo(), r: () => this.beginRound() }[k];
      if (k === "a") {
        act = () => {
          this.details.open = true;
          this.nameInput.focus();
        };
      }
    }
    if (!act) return;
    // Material binds N and P to the next and previous page (on window): the tracker's own keys win.
    e.preventDefault();
    e.stopPropagation();
    act();
  }

  // ---- files --------------------------------------------------------------------------------------
  exportFile() {
    const blob = new Blob([S.exportText(this.state)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `${this.system}-fight-round-${this.state.round}.json`, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    this.say("Exported.");
  }

  async importFile() {
    const file = this.importInput.files?.[0];
    this.importInput.value = "";
    if (!file) return;
    if (file.size > 1e6) return this.say(`${file.name} is too large for a tracker file (nothing changed).`, true);
    const got = S.parseImport(await file.text(), this.decl, this.system);
    if (got.error) return this.say(`Not imported: ${got.error} Nothing changed.`, true);
    this.closeDice();
    this.dispatch({ type: "replace", state: got.state }, `Imported ${file.name}: ${got.state.combatants.length} combatants, round ${got.state.round} (Undo returns to the previous fight).`);
  }

  dispose() {
    document.removeEventListener("keydown", this.keyHandler);
  }
}

/** One reason of the engine: its text, and its rule as a same-origin link. */
function stepItem(step) {
  const href = step.url ? siteHref(step.url, SITE_ROOT) : null;
  return el("li", {}, step.text, href && step.title ? [" (", el("a", { href }, step.title), ")"] : null);
}

/** A health state the rules name, linked to its rule (same origin only). */
function stateBadge(state) {
  const href = state.url ? siteHref(state.url, SITE_ROOT) : null;
  return el("span", { class: "cc-tk-state", "data-cc-state": state.label }, href ? el("a", { href, title: state.title }, state.label) : state.label);
}

function engineProblem(error) {
  return error.input ? `${error.input}: ${error.message}` : error.message;
}

function button(text, onClick, attrs = {}) {
  const b = el("button", { type: "button", class: "md-button", ...attrs }, text);
  b.addEventListener("click", onClick);
  return b;
}

function labelled(text, input, help = null) {
  const helpNode = help ? el("small", { id: uid("tk-help"), class: "cc-tk-fieldhelp" }, help) : null;
  if (helpNode) input.setAttribute("aria-describedby", helpNode.id);
  return el("div", { class: "cc-tk-field" }, el("label", { for: input.id }, text), input, helpNode);
}

function fieldInput(f) {
  const id = uid(`tk-${f.name}`);
  if (f.type === "choice") return el("select", { id }, (f.options || []).map((o) => el("option", { value: o.value, selected: o.value === S.fieldDefault(f) }, o.label)));
  if (f.type === "boolean") return el("input", { id, type: "checkbox", checked: Boolean(S.fieldDefault(f)) });
  if (f.type === "integer") return el("input", { id, type: "text", inputmode: "numeric", autocomplete: "off", value: S.fieldDefault(f), size: 5 });
  return el("input", { id, type: "text", autocomplete: "off", maxlength: f.max_length ?? S.NAME_MAX, value: S.fieldDefault(f) });
}

function setFieldInput(input, f, value) {
  if (f.type === "boolean") input.checked = Boolean(value);
  else input.value = String(value ?? "");
}

function readFieldInput(input, f) {
  if (f.type === "boolean") return input.checked;
  if (f.type === "integer") return input.value.trim();
  return input.value;
}

function shownValue(f, v) {
  if (f.type === "choice") return f.options?.find((o) => o.value === v)?.label ?? String(v);
  if (f.type === "boolean") return v ? "yes" : "no";
  if (f.type === "integer") return v > 0 && /bonus|modifier/i.test(f.label || "") ? `+${v}` : String(v);
  return v === "" ? "—" : String(v);
}

/** Run `fn` once the page has loaded and the browser is idle (Python's start is heavy work). */
function whenIdle(fn) {
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => fn(), { timeout: 5000 }) : setTimeout(fn, 1000));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
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
