// The answer line: one compact line with the calculator's answer (its summary, plus the headline
// mean or chance when the summary lacks it), kept in view while the reader edits; on a phone at
// most two lines, the whole text a tap away. On a phone CSS
// pins it to the bottom of the screen (position: sticky) until the full result scrolls into
// view; on a wide screen it heads the result column beside the form. Its button jumps to the
// full result. It is not a live region: the calculator's status line already announces answers.
import { el, replace } from "../shared/dom.mjs";
import { percent } from "./calc-results.mjs";

export class AnswerLine {
  /** `target`: the element holding the full result, scrolled to and focused by the button. */
  constructor(target) {
    this.target = target;
    // On a phone the line shows at most two lines of the text (CSS); a small "More" button shows
    // it whole, and "Less" folds it again (aria-expanded says which). The text itself is not a
    // button: a bar-wide button would cover the form fields scrolling under the sticky line
    // (axe target-size, "partially obscured").
    this.text = el("span", { class: "cc-answer-text" }, "Calculating…");
    this.box = el("div", { class: "cc-answer-fold", "data-cc-fold": "folded" }, this.text);
    this.fold = el("button", { type: "button", class: "cc-answer-more", "aria-expanded": "false", title: "Show the whole answer line" }, "More");
    this.fold.addEventListener("click", () => this.toggle());
    this.jump = el("button", { type: "button", class: "cc-answer-jump" }, "Full result");
    this.jump.addEventListener("click", () => this.showFull());
    this.node = el("div", { class: "cc-answer", "data-cc-answer": "pending" }, el("span", { class: "cc-answer-label" }, "Answer: "), this.box, this.fold, this.jump);
  }

  /** A new result from calc.evaluate. */
  result(result) {
    replace(this.text, headline(result));
    this.node.dataset.ccAnswer = "done";
  }

  /** The inputs have a problem: say so here too (the field itself shows the message). */
  problem(error) {
    const where = error.input ? `${error.input}: ` : "";
    replace(this.text, el("span", { class: "cc-answer-icon", "aria-hidden": "true" }, "⚠ "), `Not updated: ${where}${error.message}`);
    this.node.dataset.ccAnswer = "error";
  }

  /** Loading or computing for a noticeable time. */
  waiting(text) {
    if (this.node.dataset.ccAnswer === "pending") replace(this.text, text);
  }

  /** Nothing is being computed for the inputs shown (Cancel): say so, and let no later stage of
   * Python's start write over it; `calculating(text)` makes the line wait again. */
  stopped(text) {
    replace(this.text, text);
    this.node.dataset.ccAnswer = "stopped";
  }

  /** A calculation has started: a stopped line waits again, with `text`. */
  calculating(text) {
    if (this.node.dataset.ccAnswer !== "stopped") return;
    this.node.dataset.ccAnswer = "pending";
    replace(this.text, text);
  }

  toggle() {
    const open = this.fold.getAttribute("aria-expanded") !== "true";
    this.fold.setAttribute("aria-expanded", String(open));
    this.fold.title = open ? "Fold the answer line" : "Show the whole answer line";
    this.fold.textContent = open ? "Less" : "More";
    this.box.dataset.ccFold = open ? "open" : "folded";
  }

  showFull() {
    if (!this.target.hasAttribute("tabindex")) this.target.setAttribute("tabindex", "-1");
    this.target.scrollIntoView({ block: "start" });
    this.target.focus({ preventScroll: true });
  }
}

/** The line's text: the summary, plus the mean or the first chance when the summary has neither. */
export function headline(result) {
  const summary = result.summary || "";
  const parts = [summary];
  const d = result.distribution;
  if (d && !/mean|average/i.test(summary)) parts.push(`mean ${Number(d.mean.float.toFixed(3))}`);
  else if (!d && result.chances?.length && !/%/.test(summary)) parts.push(`${result.chances[0].label}: ${percent(result.chances[0].p)}`);
  return parts.filter(Boolean).join(" · ") || "Done";
}
