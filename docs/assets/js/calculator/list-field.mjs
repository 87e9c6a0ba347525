// A list input of a calculator's form (initiative's combatants, a round's attackers): rows of
// compact fields named `<list>[n].<field>`, with add and remove buttons.
import { el, replace, uid } from "../shared/dom.mjs";
import { singular } from "./form-text.mjs";
import { hideLine, showLine } from "./message-line.mjs";
import { asText, ScalarField } from "./scalar-field.mjs";

/** A list input (e.g. initiative combatants): rows of small fields, add/remove buttons. */
export class ListField {
  constructor(form, decl) {
    this.form = form;
    this.decl = decl;
    this.rows = [];
    const legendId = uid(`cc-${decl.name}`);
    this.errorLine = el("p", { class: "cc-error", id: `${legendId}-error`, hidden: true });
    this.noteLine = el("p", { class: "cc-error cc-link-note", id: `${legendId}-note`, hidden: true });
    this.body = el("div", { class: "cc-rows" });
    this.addButton = el("button", { type: "button", class: "md-button cc-add" }, `Add ${singular(decl.label || decl.name)}`);
    this.addButton.addEventListener("click", () => {
      const row = this.addRow(this.newRowValues());
      row.fields[0]?.control.focus();
      this.edited();
    });
    this.node = el(
      "fieldset",
      { class: "cc-field cc-field-list", "data-input": decl.name, "aria-describedby": [decl.help ? `${legendId}-help` : null, `${legendId}-error`, `${legendId}-note`].filter(Boolean).join(" ") },
      el("legend", { class: "cc-label" }, decl.label || decl.name),
      decl.help ? el("p", { class: "cc-help", id: `${legendId}-help` }, decl.help) : null,
      this.body,
      this.addButton,
      this.errorLine,
      this.noteLine,
    );
    this.reset(false);
  }

  newRowValues() {
    const values = {};
    for (const f of this.decl.fields) values[f.name] = f.default;
    // A new row's name is its default numbered, so that names stay distinct (Python requires it).
    const nameField = this.decl.fields.find((f) => f.type === "text" && f.default);
    if (nameField) values[nameField.name] = `${nameField.default} ${this.rows.length + 1}`;
    return values;
  }

  addRow(values) {
    const index = this.rows.length + 1;
    const row = { fields: [], node: null };
    const group = el("fieldset", { class: "cc-row" });
    const legend = el("legend", { class: "cc-row-legend" });
    group.append(legend);
    for (const f of this.decl.fields) {
      const field = new ScalarField(this.form, f, `${this.decl.name}[${index}].${f.name}`, { compact: true });
      field.setText(values?.[f.name] ?? f.default);
      field.edited = () => {
        field.clearErrors();
        this.clearOwnError();
        this.form.changed("input");
      };
      row.fields.push(field);
      group.append(field.node);
    }
    const remove = el("button", { type: "button", class: "cc-remove" }, "Remove");
    remove.addEventListener("click", () => this.removeRow(row));
    group.append(remove);
    row.node = group;
    row.legend = legend;
    row.remove = remove;
    this.rows.push(row);
    this.body.append(group);
    this.renumber();
    return row;
  }

  removeRow(row) {
    const at = this.rows.indexOf(row);
    this.rows.splice(at, 1);
    row.node.remove();
    this.renumber();
    const next = this.rows[Math.min(at, this.rows.length - 1)];
    (next ? next.fields[0].control : this.addButton).focus();
    this.edited();
  }

  renumber() {
    const noun = singular(this.decl.label || this.decl.name);
    const min = this.decl.min_items; // Python's bounds, put in by the build
    const max = this.decl.max_items;
    this.rows.forEach((row, i) => {
      const n = i + 1;
      replace(row.legend, `${noun} ${n}`);
      row.remove.setAttribute("aria-label", `Remove ${noun.toLowerCase()} ${n}`);
      row.remove.disabled = this.rows.length <= min;
      row.fields.forEach((field) => {
        field.path = `${this.decl.name}[${n}].${field.decl.name}`;
        field.control.setAttribute("data-input", field.path);
        field.control.setAttribute("name", field.path);
      });
    });
    this.addButton.disabled = this.rows.length >= max;
  }

  edited() {
    this.clearErrors();
    this.clearNote();
    this.form.changed("input");
  }

  setNote(message) {
    showLine(this.noteLine, message);
  }

  clearNote() {
    hideLine(this.noteLine);
  }

  /** Show each entry's fields that apply to it (`perEntry[i]`: names, by calc.inputs.applies), hide and
   * disable the others; an entry Python has not seen yet (added since) shows every field. */
  showCells(perEntry) {
    this.rows.forEach((row, i) => {
      const names = perEntry?.[i] ? new Set(perEntry[i]) : null;
      for (const field of row.fields) {
        const on = !names || names.has(field.decl.name);
        field.node.hidden = !on;
        field.control.disabled = !on;
      }
    });
  }

  cell(index, name) {
    return this.rows[index - 1]?.fields.find((f) => f.decl.name === name) || null;
  }

  reset(notify = true) {
    for (const row of this.rows) row.node.remove();
    this.rows = [];
    for (const values of this.decl.default || []) this.addRow(values);
    this.clearErrors();
    this.clearNote();
    if (notify) this.form.changed("reset");
  }

  read() {
    return this.rows.map((row) => Object.fromEntries(row.fields.map((field) => [field.decl.name, field.read()])));
  }

  setError(message) {
    showLine(this.errorLine, message);
  }

  clearOwnError() {
    hideLine(this.errorLine);
  }

  clearErrors() {
    this.clearOwnError();
    for (const row of this.rows) for (const field of row.fields) field.clearErrors();
  }

  stateText() {
    return JSON.stringify(this.rows.map((row) => Object.fromEntries(row.fields.map((f) => [f.decl.name, f.decl.type === "boolean" ? f.control.checked : f.control.value]))));
  }

  loadText(text) {
    let items;
    try {
      items = JSON.parse(text);
    } catch {
      items = null;
    }
    const max = this.decl.max_items;
    if (!Array.isArray(items) || !items.every((x) => x && typeof x === "object" && !Array.isArray(x)) || items.length > max) {
      this.reset(false);
      return this.setNote("The link's list could not be read; showing the default list");
    }
    for (const row of this.rows) row.node.remove();
    this.rows = [];
    for (const item of items) {
      const values = {};
      for (const f of this.decl.fields) values[f.name] = Object.hasOwn(item, f.name) ? asText(item[f.name]) : f.default;
      this.addRow(values);
    }
  }
}
