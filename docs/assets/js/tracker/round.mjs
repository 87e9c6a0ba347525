// A new round: the engine says which dice it needs; the table types them (or the page rolls the
// empty ones, crypto.getRandomValues); the engine answers the order. While the dice form is open
// nothing else can start a round over it: the round buttons bring the form back into view
// instead, so typed dice are never wiped.
import { el, replace, uid } from "../dom.mjs";
import { checkRoll, rollDice } from "./fields.mjs";
import { current, engineCombatant, engineOptions } from "./state.mjs";
import { button, engineProblem } from "./ui.mjs";

function uint32() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

const coarse = () => window.matchMedia?.("(pointer: coarse)").matches;

export class RoundDice {
  constructor(tk) {
    this.tk = tk;
    this.pending = null; // the round being rolled: {round, dice: [...], rolls: {}, base}
    this.panel = el("div", { class: "cc-tk-dice", hidden: true });
    this.error = null;
  }

  get open() {
    return Boolean(this.pending);
  }

  async begin() {
    const tk = this.tk;
    if (this.pending) return this.reveal();
    const s = tk.state;
    if (!s.combatants.length) {
      tk.form.open();
      return tk.say("Add the combatants first.", true);
    }
    const round = s.round + 1;
    tk.say(`Asking which dice round ${round} needs…`);
    const reply = await tk.ask("dice", { combatants: s.combatants.map(engineCombatant), round, options: engineOptions(s, tk.decl) });
    if (reply.error) return tk.say(engineProblem(reply.error), true);
    if (tk.state !== s) return tk.say(`The fight changed while round ${round}'s dice were asked: ask again.`, true);
    const dice = reply.result;
    if (!dice.length) return this.finish({ round, dice: [], rolls: { ...s.rolls }, base: s });
    this.pending = { round, dice, rolls: {}, base: s };
    this.show();
  }

  /** Bring the open dice form into view (its Start button above the turn bar). */
  reveal() {
    this.panel.scrollIntoView({ block: "nearest" });
    const empty = [...this.panel.querySelectorAll("input[data-cc-key]")].find((i) => !i.value.trim());
    if (empty && !coarse()) empty.focus();
    this.tk.say(`Round ${this.pending.round}: the dice form is open — type the table's dice or roll the empty ones, then Start round ${this.pending.round}.`);
  }

  show(extra = null) {
    const p = this.pending;
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
    const cancel = button("Cancel", () => {
      this.close();
      this.tk.say(`Round ${p.round} not started.`);
    });
    const form = el(
      "form",
      { class: "cc-tk-diceform", novalidate: true },
      el("p", {}, extra || `Round ${p.round}: roll these dice at the table and type them, or roll them here.`),
      el("ul", {}, rows),
      (this.error = el("p", { class: "cc-tk-error", role: "alert" })),
      el("div", { class: "cc-tk-row" }, rollAll, go, cancel),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.read();
    });
    replace(this.panel, form);
    this.panel.hidden = false;
    this.tk.render();
    this.reveal();
  }

  rollEmpty() {
    for (const input of this.panel.querySelectorAll("input[data-cc-key]")) {
      if (input.value.trim()) continue;
      const d = this.pending.dice.find((x) => x.key === input.dataset.ccKey);
      input.value = String(rollDice(d.dice, uint32));
    }
    this.tk.say(`Rolled in the page: Start round ${this.pending.round} when ready.`);
  }

  read() {
    const p = this.pending;
    for (const input of this.panel.querySelectorAll("input[data-cc-key]")) {
      const d = p.dice.find((x) => x.key === input.dataset.ccKey);
      const checked = checkRoll(d.dice, input.value, d.label);
      if (checked.error) {
        replace(this.error, checked.error);
        this.tk.say(checked.error, true);
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      input.removeAttribute("aria-invalid");
      p.rolls[d.key] = checked.value;
    }
    this.finish(p);
  }

  async finish(p) {
    const tk = this.tk;
    const s = tk.state;
    tk.say(`Working out round ${p.round}'s order…`);
    const reply = await tk.ask("order", { combatants: s.combatants.map(engineCombatant), rolls: p.rolls, round: p.round, options: engineOptions(s, tk.decl) });
    if (reply.error) {
      if (this.error) replace(this.error, engineProblem(reply.error));
      return tk.say(engineProblem(reply.error), true);
    }
    const answer = reply.result;
    if (answer.needs?.length) {
      this.pending = { ...p, dice: answer.needs, base: s };
      return this.show((answer.notes || []).map((n) => n.text ?? n).join(" ") || "A tie: roll these dice too.");
    }
    if (tk.state !== s) return tk.say("The fight changed meanwhile: roll initiative again.", true);
    this.close();
    const ok = tk.dispatch({ type: "startRound", turns: answer.turns, notes: answer.notes, rolls: p.rolls });
    if (ok) {
      const first = current(tk.state);
      tk.say(`Round ${tk.state.round}: ${first ? `${first.name} goes first` : "nobody acts"}.`);
      tk.showTurn();
    }
  }

  close() {
    this.pending = null;
    this.panel.hidden = true;
    replace(this.panel);
    this.error = null;
    this.tk.render();
  }
}
