// A calculator's form, built from its input declaration (rules_data/<system>/calculators.yaml,
// exported with `options_from` resolved): same names, labels, help, ranges and defaults.
// Each field carries its own help and error line (aria-describedby / aria-invalid). Python
// (calc/inputs.py) is the only judge of a value: its error is shown at the field it names, so the
// browser, the command line and the tests report bad input in the same words.
import { el, replace, uid } from "../dom.mjs";
import { capitalise, rangeHint, shorten, singular } from "./form-text.mjs";

const INTEGER = /^\s*[+-]?\d{1,12}\s*$/;

export class CalcForm {
  /**
   * @param {HTMLElement} root  where the form goes
   * @param {object} declaration  the calculator's declaration ({title, inputs: [...], ...})
   * @param {(reason: string) => void} onChange  called after every edit
   */
  constructor(root, declaration, onChange) {
    this.declaration = declaration;
    this.onChange = onChange;
    this.fields = new Map(); // top-level input name → field
    this.form = el("form", { class: "cc-form", novalidate: true });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      onChange("submit");
    });
    this.formError = el("p", { class: "cc-error cc-form-error", hidden: true });
    this.form.append(this.formError);
    const grid = el("div", { class: "cc-fields" });
    for (const decl of declaration.inputs) {
      const field = decl.type === "list" ? new ListField(this, decl) : new ScalarField(this, decl, decl.name);
      this.fields.set(decl.name, field);
      grid.append(field.node);
    }
    this.form.append(grid);
    root.append(this.form);
    this.showApplicable();
  }

  changed(reason = "input") {
    this.showApplicable();
    this.onChange(reason);
  }

  /** Whether an input applies: every input its `when` names has the value given there. */
  applies(decl) {
    return Object.entries(decl.when || {}).every(([name, value]) => {
      const field = this.fields.get(name);
      return !field || field.stateText() === String(value);
    });
  }

  /** Hide (and disable) the inputs that do not apply now; they are not sent either. */
  showApplicable() {
    for (const field of this.fields.values()) {
      const on = this.applies(field.decl);
      field.node.hidden = !on;
      if (field.control) field.control.disabled = !on;
    }
  }

  /** The inputs to send, by name (those that apply). */
  read() {
    const inputs = {};
    for (const [name, field] of this.fields) if (this.applies(field.decl)) inputs[name] = field.read();
    return inputs;
  }

  /** Show an error from Python ({input, message}) next to the field it names; true when a
   * shown field was highlighted, false when the message went above the inputs instead. */
  showError(error) {
    const found = error.input ? this.findField(error.input) : null;
    const top = found && this.fields.get(/^[a-z0-9_]+/i.exec(error.input)[0]);
    const target = top && !top.node.hidden ? found : null; // a hidden field shows no error
    if (target) {
      target.setError(capitalise(error.message));
      this.formError.hidden = true;
      return true;
    } else {
      const prefix = error.input ? `${error.input}: ` : "";
      showLine(this.formError, prefix + capitalise(error.message));
      return false;
    }
  }

  clearErrors() {
    for (const field of this.fields.values()) field.clearErrors();
    hideLine(this.formError);
  }

  findField(path) {
    const match = /^([a-z0-9_]+)(?:\[(\d+)\]\.([a-z0-9_]+))?$/i.exec(path);
    if (!match) return null;
    const field = this.fields.get(match[1]);
    if (!field) return null;
    return match[2] && field.cell ? field.cell(Number(match[2]), match[3]) || field : field;
  }

  /** Current raw state, for the URL: {name: text} (lists as JSON). */
  state() {
    const out = {};
    for (const [name, field] of this.fields) out[name] = field.stateText();
    return out;
  }

  /** Load raw text values (from the URL); bad ones are reported at their field. */
  load(state) {
    for (const [name, field] of this.fields) {
      if (Object.hasOwn(state, name)) field.loadText(state[name]);
    }
    this.showApplicable();
  }

  reset() {
    for (const field of this.fields.values()) field.reset();
    this.changed("reset");
  }
}

/** One integer, choice, boolean, dice or text input, with its label, help and error line. */
class ScalarField {
  constructor(form, decl, path, { compact = false } = {}) {
    this.form = form;
    this.decl = decl;
    this.path = path;
    const id = uid(`cc-${path.replace(/[^a-z0-9_-]/gi, "-")}`);
    this.errorLine = el("p", { class: "cc-error", id: `${id}-error`, hidden: true });
    this.noteLine = el("p", { class: "cc-error cc-link-note", id: `${id}-note`, hidden: true });
    const describedBy = [`${id}-error`, `${id}-note`];
    let help = null;
    if (decl.help && !compact) {
      help = el("p", { class: "cc-help", id: `${id}-help` }, decl.help);
      describedBy.unshift(`${id}-help`);
    }
    this.control = this.makeControl(id, describedBy.join(" "));
    const label = el("label", { for: id, class: "cc-label" }, decl.label || decl.name);
    const rangeText = decl.type === "integer" ? rangeHint(decl) : decl.type === "dice" ? diceHint(decl) : "";
    const hint = rangeText && !compact ? el("span", { class: "cc-range" }, ` (${rangeText})`) : null;
    if (decl.type === "boolean") {
      this.node = el("div", { class: "cc-field cc-field-boolean" }, el("div", { class: "cc-check" }, this.control, label), help, this.errorLine, this.noteLine);
    } else {
      label.append(...(hint ? [hint] : []));
      const entry = this.signToggle ? el("div", { class: "cc-signed" }, this.control, this.signToggle) : this.control;
      this.node = el("div", { class: `cc-field cc-field-${decl.type}` }, label, entry, help, this.errorLine, this.noteLine);
    }
    this.reset(false);
  }

  makeControl(id, describedBy) {
    const decl = this.decl;
    const common = { id, name: this.path, "aria-describedby": describedBy, "data-input": this.path };
    let control;
    if (decl.type === "choice") {
      control = el("select", common, ...decl.options.map((o) => el("option", { value: o.value }, o.label ?? o.value)));
      control.addEventListener("change", () => this.edited());
    } else if (decl.type === "boolean") {
      control = el("input", { ...common, type: "checkbox" });
      control.addEventListener("change", () => this.edited());
    } else {
      const numeric = decl.type === "integer";
      control = el("input", {
        ...common,
        type: "text",
        inputmode: numeric ? "numeric" : "text",
        ...(numeric ? { pattern: "[−+\\-]?[0-9]*" } : {}),
        autocomplete: "off",
        spellcheck: "false",
        autocapitalize: "off",
        maxlength: decl.type === "text" ? decl.max_length || 40 : decl.type === "dice" ? 200 : decl.type === "list" ? 2000 : 14,
      });
      control.addEventListener("input", () => this.edited());
      if (numeric) control.addEventListener("keydown", (event) => this.step(event));
      if (numeric && signed(decl)) this.signToggle = this.makeSignToggle(control);
    }
    return control;
  }

  /**
   * A ± button beside a field that takes negative numbers. Phones show the digits keyboard for
   * inputmode="numeric", but iOS's has no minus key (nor has its "decimal" one), and
   * inputmode="text" gives a full keyboard to type two digits; so: digits keyboard plus this button,
   * which flips the sign of what is typed (blank becomes "-", ready for digits).
   */
  makeSignToggle(control) {
    const label = this.decl.label || this.decl.name;
    const button = el("button", { type: "button", class: "cc-sign", "aria-label": `Change the sign of ${label}`, title: "Change the sign (+/−)" }, "±");
    button.addEventListener("click", () => {
      const text = control.value.trim();
      control.value = /^[-−]/.test(text) ? text.slice(1) : `-${text.replace(/^\+/, "")}`;
      this.edited();
    });
    return button;
  }

  /** Arrow keys step a whole-number field, as a number input would. */
  step(event) {
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    if (!INTEGER.test(this.control.value)) return;
    event.preventDefault();
    let value = Number(this.control.value) + (event.key === "ArrowUp" ? 1 : -1);
    if (this.decl.max !== undefined && this.decl.max !== null) value = Math.min(value, this.decl.max);
    if (this.decl.min !== undefined && this.decl.min !== null) value = Math.max(value, this.decl.min);
    this.control.value = String(value);
    this.edited();
  }

  edited() {
    this.clearErrors();
    this.clearNote();
    this.form.changed("input");
  }

  reset(notify = true) {
    this.setText(this.decl.default);
    this.clearErrors();
    this.clearNote();
    if (notify) this.form.changed("reset");
  }

  /** A note about a value the link asked for and the form could not take; stays until edited. */
  setNote(message) {
    showLine(this.noteLine, message);
  }

  clearNote() {
    hideLine(this.noteLine);
  }

  setText(value) {
    if (this.decl.type === "boolean") this.control.checked = value === true || value === "true";
    else this.control.value = value === undefined || value === null ? "" : asText(value);
  }

  /** The value to send: whole numbers as numbers, anything else as typed (Python judges it). */
  read() {
    const decl = this.decl;
    if (decl.type === "boolean") return this.control.checked;
    const text = this.control.value;
    if (decl.type === "integer" && INTEGER.test(text)) return Number(text);
    return text;
  }

  setError(message) {
    showLine(this.errorLine, message);
    this.control.setAttribute("aria-invalid", "true");
  }

  clearErrors() {
    hideLine(this.errorLine);
    this.control.removeAttribute("aria-invalid");
  }

  stateText() {
    return this.decl.type === "boolean" ? String(this.control.checked) : this.control.value;
  }

  loadText(text) {
    const decl = this.decl;
    if (decl.type === "choice") {
      if (!decl.options.some((o) => String(o.value) === text)) {
        this.reset(false);
        return this.setNote(`The link asked for “${shorten(text)}”, which is not an option; showing the default`);
      }
    } else if (decl.type === "boolean") {
      if (!["true", "false", "1", "0"].includes(text)) {
        this.reset(false);
        return this.setNote(`The link asked for “${shorten(text)}”, which is not true or false; showing the default`);
      }
      return this.setText(text === "true" || text === "1");
    }
    this.setText(text);
  }
}

/** A list input (e.g. initiative combatants): rows of small fields, add/remove buttons. */
class ListField {
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
    const nameField = this.decl.fields.find((f) => f.type === "text");
    if (nameField) values[nameField.name] = `${nameField.default ?? "Combatant"} ${this.rows.length + 1}`;
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
    const min = this.decl.min_items ?? 0;
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

/** Show a message line (an error or a link's note) with its text. */
function showLine(line, message) {
  replace(line, message);
  line.hidden = false;
}

/** Hide a message line and empty it, so a screen reader's aria-describedby reads nothing. */
function hideLine(line) {
  line.hidden = true;
  replace(line);
}

/** A value as a field's text: a list inside a list's row (segments' attack routine in an attacker
 * of the round calculator's `attackers`) as its JSON, which Python reads back. */
function asText(value) {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Whether an integer input takes negative values (no minimum, or one below zero). */
function signed(decl) {
  return decl.min === undefined || decl.min === null || decl.min < 0;
}

/** The example shown beside a dice field: its own default, so it fits the weapon asked for. */
function diceHint(decl) {
  return decl.default ? `e.g. ${decl.default}` : "";
}
