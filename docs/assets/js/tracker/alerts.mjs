// Problems that must stay on screen until the reader resolves them (a save that failed, another
// tab's change, a stored fight kept aside): shown in the turn bar, which is always in view, each
// with the buttons that resolve it. The status line beside them says what just happened; it never
// replaces one of these.
import { el, replace } from "../shared/dom.mjs";
import { button } from "./ui.mjs";

export class Alerts {
  constructor() {
    this.items = new Map(); // id → {text, actions: [[label, fn, attrs]]}
    this.node = el("div", { class: "cc-tk-alerts", role: "alert" });
  }

  set(id, text, actions = []) {
    this.items.set(id, { text, actions });
    this.render();
  }

  clear(id) {
    if (this.items.delete(id)) this.render();
  }

  has(id) {
    return this.items.has(id);
  }

  render() {
    replace(
      this.node,
      [...this.items.entries()].map(([id, { text, actions }]) =>
        el("div", { class: "cc-tk-alert", "data-cc-alert": id }, el("p", {}, text), actions.length ? el("div", { class: "cc-tk-row" }, actions.map(([label, fn, attrs]) => button(label, fn, attrs || {}))) : null),
      ),
    );
  }
}
