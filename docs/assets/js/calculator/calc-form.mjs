// A calculator's form, built from its input declaration (rules_data/<system>/calculators.yaml,
// exported with `options_from` resolved): same names, labels, help, ranges and defaults.
// Each field carries its own help and error line (aria-describedby / aria-invalid). Python
// (calc/inputs/declared.py) is the only judge of a value: its error is shown at the field it names, so the
// browser, the command line and the tests report bad input in the same words. Python also says
// which inputs apply (`when:` in the declaration, calc/inputs/applies.py): the build for the defaults
// (`declaration.applies`), the worker's answer for the values sent; the form reads no `when`.
import { el } from "../shared/dom.mjs";
import { capitalise } from "./form-text.mjs";
import { ListField } from "./list-field.mjs";
import { hideLine, showLine } from "./message-line.mjs";
import { ScalarField } from "./scalar-field.mjs";

export class CalcForm {
  /**
   * @param {HTMLElement} root  where the form goes
   * @param {object} declaration  the calculator's declaration ({title, inputs: [...], applies, ...})
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
    this.showApplicable(...this.atDefaults());
  }

  /** The inputs, and the default list entries' fields, that apply with the defaults, as the
   * build worked them out (calc.inputs.applies). */
  atDefaults() {
    return [this.declaration.applies ?? [...this.fields.keys()], this.declaration.cells];
  }

  changed(reason = "input") {
    this.onChange(reason);
  }

  /** Show (and enable) the inputs Python says apply (`names`, from the worker's answer or the
   * build), hide and disable the others; without `names`, as they are. `cells`: for a list
   * input, the names of each entry's fields that apply ({list: [[name…] per entry]}). */
  showApplicable(names, cells = {}) {
    if (names) this.applying = new Set(names);
    for (const [name, field] of this.fields) {
      const on = this.applying.has(name);
      field.node.hidden = !on;
      if (field.control) field.control.disabled = !on;
      if (names && field.showCells) field.showCells(cells?.[name]);
    }
  }

  /** Every field's value, by name, as typed (a list entry's every field too): Python leaves out
   * those that do not apply (the request's `form: true`, calc/browser.py) and answers which do. */
  read() {
    const inputs = {};
    for (const [name, field] of this.fields) inputs[name] = field.read();
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

  /** Load raw text values (from the URL); bad ones are reported at their field. Which inputs
   * apply to them comes with the answer to the request that follows. */
  load(state) {
    for (const [name, field] of this.fields) {
      if (Object.hasOwn(state, name)) field.loadText(state[name]);
    }
  }

  reset() {
    for (const field of this.fields.values()) field.reset(false);
    this.showApplicable(...this.atDefaults());
    this.changed("reset");
  }
}
