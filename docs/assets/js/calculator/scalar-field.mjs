// One scalar input of a calculator's form (integer, choice, boolean, dice or text), built from its
// declaration: label, help, range hint, error and link-note lines. Python judges every value
// (calc/inputs/declared.py): the field sends what is typed and shows the error Python names.
import { el, uid } from "../shared/dom.mjs";
import { rangeHint, shorten } from "./form-text.mjs";
import { hideLine, showLine } from "./message-line.mjs";

/** A whole number as the arrow keys step it (a keyboard convenience: Python reads what is sent). */
const STEPPABLE = /^\s*[+-]?\d{1,12}\s*$/;

/** One integer, choice, boolean, dice or text input, with its label, help and error line. */
export class ScalarField {
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
        // Python's own limit on the typed text (calc.inputs.declared.typed_length, put in by the build).
        ...(decl.max_length ? { maxlength: decl.max_length } : {}),
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
    if (!STEPPABLE.test(this.control.value)) return;
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

  /** The value to send: a box's state, anything else as typed (Python reads and judges it). */
  read() {
    return this.decl.type === "boolean" ? this.control.checked : this.control.value;
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

/** A value as a field's text: a list inside a list's row (segments' attack routine in an attacker
 * of the round calculator's `attackers`) as its JSON, which Python reads back. */
export function asText(value) {
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
