// A new round: the engine says which dice it needs (`next_round`: the view's `pending`); the
// table types them, or the page rolls the empty ones (crypto.getRandomValues); `start_round`
// sends them and the engine answers the order (or more dice: a tie to roll again). While the dice
// form is open nothing can start a round over it — the round buttons bring it back into view —
// and what was typed stays typed across the engine's answers.
import { el, replace, uid } from "../shared/dom.mjs";
import { rollDie } from "../statblock/fighters.mjs";
import { button } from "./ui.mjs";

/** A uniform face total of `count` dice of `sides`: each face from the paste box's fair die
 * (rejection sampling, every face equally likely); `random` (tests) gives one uint32 a call. */
export function roll(count, sides, random) {
  const draw = random && (() => [random()]);
  let total = 0;
  for (let i = 0; i < count; i++) total += rollDie(sides, draw);
  return total;
}

/** The number and sides of an entry's dice, as the engine gives them (calc/numbers/dice.py parsed the
 * text); null when it gives none (then the page does not roll it). */
export function diceOf(d) {
  return Number.isInteger(d.count) && Number.isInteger(d.sides) && d.count >= 1 && d.sides >= 1 ? { count: d.count, sides: d.sides } : null;
}

const coarse = () => window.matchMedia?.("(pointer: coarse)").matches;

export class RoundDice {
  constructor(tk) {
    this.tk = tk;
    this.pending = null; // the view's pending round, as last drawn
    this.typed = {}; // key → text typed or rolled here, kept across answers
    this.panel = el("div", { class: "cc-tk-dice", hidden: true });
    this.error = el("p", { class: "cc-tk-error", role: "alert" });
  }

  begin() {
    const tk = this.tk;
    if (this.pending) return this.reveal();
    if (!tk.view?.combatants.length) {
      tk.form.open();
      return tk.say("Add the combatants first.", true);
    }
    const round = tk.view.round + 1;
    if (!tk.form.editing) tk.form.details.open = false; // the fight is on: the add form folds away
    tk.say(`Asking which dice round ${round} needs…`);
    this.typed = {};
    return tk.act({ type: "next_round" }, (a) => (a.view.pending ? `Round ${round}: roll these dice at the table and type them, or roll the empty ones here.` : this.started(a.view))).then((a) => {
      if (a?.view.pending) this.reveal(false);
      else if (a) tk.showTurn();
    });
  }

  started(v) {
    const first = v.current && v.combatants.find((c) => c.id === v.current);
    return `Round ${v.round}: ${first ? `${first.name} goes first` : "nobody can act"}.`;
  }

  /** Bring the open dice form into view (its Start button above the turn bar). */
  reveal(say = true) {
    this.panel.scrollIntoView({ block: "nearest" });
    const empty = [...this.panel.querySelectorAll("input[data-cc-key]")].find((i) => !i.value.trim());
    if (empty && !coarse()) empty.focus();
    if (say && this.pending) this.tk.say(`Round ${this.pending.round}: the dice form is open — type the table's dice or roll the empty ones, then Start round ${this.pending.round}.`);
  }

  /** Draw the view's pending round (null: no dice form). */
  render(pending) {
    const was = this.pending;
    this.pending = pending;
    if (!pending) {
      this.panel.hidden = true;
      replace(this.panel);
      return;
    }
    if (was && was.round === pending.round && JSON.stringify(was.dice) === JSON.stringify(pending.dice) && this.panel.firstChild) return;
    for (const d of pending.dice) if (d.value !== null && d.value !== undefined && !(d.key in this.typed)) this.typed[d.key] = String(d.value);
    const rows = pending.dice.map((d) => {
      const input = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", id: uid("tk-die"), "data-cc-key": d.key, "data-tk-focus": `die-${d.key}`, value: this.typed[d.key] ?? "", size: 4 });
      input.addEventListener("input", () => {
        this.typed[d.key] = input.value;
      });
      const lab = el("label", { for: input.id }, `${d.label}${d.optional ? " (only if the rule calls for it)" : ""}${d.due ? ` (${typeof d.due === "string" ? d.due : (d.due.text ?? "")})` : ""} `, el("span", { class: "cc-tk-dicetext" }, d.dice));
      return el("li", {}, lab, input);
    });
    const go = el("button", { type: "submit", class: "md-button md-button--primary" }, `Start round ${pending.round}`);
    const cancel = button("Cancel", () => this.tk.act({ type: "cancel_round" }, `Round ${pending.round} not started.`));
    const form = el(
      "form",
      { class: "cc-tk-diceform", novalidate: true },
      el("p", {}, `Round ${pending.round}: roll these dice at the table and type them, or roll the empty ones here.`),
      el("ul", {}, rows),
      this.error,
      el("div", { class: "cc-tk-row" }, button("Roll the empty ones here", () => this.rollEmpty()), go, cancel),
    );
    replace(this.error);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.start();
    });
    replace(this.panel, form);
    this.panel.hidden = false;
  }

  rollEmpty() {
    for (const input of this.panel.querySelectorAll("input[data-cc-key]")) {
      const d = this.pending.dice.find((x) => x.key === input.dataset.ccKey);
      const dice = diceOf(d);
      if (input.value.trim() || d.optional || !dice) continue;
      input.value = String(roll(dice.count, dice.sides));
      this.typed[d.key] = input.value;
    }
    this.tk.say(`Rolled in the page: Start round ${this.pending.round} when ready.`);
  }

  start() {
    const p = this.pending;
    const rolls = {};
    for (const input of this.panel.querySelectorAll("input[data-cc-key]")) {
      input.removeAttribute("aria-invalid");
      const value = input.value.trim();
      if (value) rolls[input.dataset.ccKey] = /^\d+$/.test(value) ? Number(value) : value;
    }
    this.tk.say(`Working out round ${p.round}'s order…`);
    return this.tk.act({ type: "start_round", rolls }, (a) => (a.view.pending ? "A tie: roll these dice too, then Start again." : this.started(a.view)), this.error).then((a) => {
      if (!a) return this.markBad();
      if (a.view.pending) this.reveal(false);
      else {
        this.typed = {};
        this.tk.showTurn();
      }
    });
  }

  /** The die the engine refused (its error names `rolls.<key>` or `action.rolls.<key>`). */
  markBad() {
    const text = this.error.textContent;
    for (const input of this.panel.querySelectorAll("input[data-cc-key]")) {
      if (text.includes(`rolls.${input.dataset.ccKey}:`)) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }
  }
}
