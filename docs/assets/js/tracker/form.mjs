// The tracker's add / edit form (fields as the data declares them, labelled as the calculators
// label them, a saved preset to start from) and its Rulings block (the initiative calculator's
// ruling inputs). Every change goes through the page's `dispatch`, so it can be undone.
import { el, replace, uid } from "../dom.mjs";
import { openPresets, ROLES } from "../presets.mjs";
import { applies, fieldDefault, NAME_MAX, rulingFields } from "./fields.mjs";
import { fromPreset, HEALTH_MAX, rulingValues } from "./state.mjs";
import { button, fieldInput, labelled, readFieldInput, setFieldInput, shownValue } from "./ui.mjs";

export class AddForm {
  constructor(tk) {
    this.tk = tk;
    this.editing = null;
    const decl = tk.decl;
    this.title = el("summary", {}, "Add a combatant");
    this.nameInput = el("input", { type: "text", id: uid("tk-name"), maxlength: NAME_MAX, autocomplete: "off", required: true });
    this.sideInput = el("select", { id: uid("tk-side") }, el("option", { value: "pc" }, "PC (player character)"), el("option", { value: "foe" }, "Foe (NPC or monster)"));
    const h = decl.health;
    this.maxInput = el("input", { type: "number", inputmode: "numeric", id: uid("tk-max"), min: 1, max: HEALTH_MAX, value: h.default ?? 10, required: true, "data-cc-health": "" });
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
    this.inputs = {};
    for (const f of tk.fields) {
      const input = fieldInput(f);
      this.inputs[f.name] = input;
      rows.push(labelled(f.label || f.name, input, f.help));
    }
    this.error = el("p", { class: "cc-tk-error", role: "alert" });
    this.submitBtn = el("button", { type: "submit", class: "md-button md-button--primary" }, "Add");
    this.cancelEdit = button("Cancel editing", () => this.reset(), { hidden: true });
    this.form = el("form", { class: "cc-tk-form", novalidate: true }, el("div", { class: "cc-tk-grid" }, rows), this.error, el("div", { class: "cc-tk-row" }, this.submitBtn, this.cancelEdit));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    this.details = el("details", { class: "cc-tk-section cc-tk-add" }, this.title, this.form);
  }

  /** The presets of this system, by role, as the preset list's options. */
  listPresets() {
    let found = { attacker: [], target: [] };
    try {
      const store = openPresets(this.tk.system);
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
    const got = fromPreset(preset, role, this.tk.decl);
    this.nameInput.value = got.name;
    this.sideInput.value = got.side;
    if (got.max !== null) this.maxInput.value = got.max;
    for (const f of this.tk.fields) if (Object.hasOwn(got.values, f.name)) setFieldInput(this.inputs[f.name], f, got.values[f.name]);
    this.presetInput.value = "";
    this.tk.say(`Filled from the preset ${got.name}${got.used.length ? "" : " (its values are not ones this tracker keeps: only the name and side)"}: check the form, then Add.`);
  }

  reset() {
    this.editing = null;
    this.nameInput.value = "";
    this.sideInput.value = "pc";
    this.maxInput.value = this.tk.decl.health.default ?? 10;
    for (const f of this.tk.fields) setFieldInput(this.inputs[f.name], f, fieldDefault(f));
    replace(this.title, "Add a combatant");
    replace(this.submitBtn, "Add");
    this.cancelEdit.hidden = true;
    replace(this.error);
  }

  read() {
    const values = {};
    for (const f of this.tk.fields) values[f.name] = readFieldInput(this.inputs[f.name], f);
    const max = /^\s*\d+\s*$/.test(this.maxInput.value) ? Number(this.maxInput.value) : NaN;
    return { name: this.nameInput.value, side: this.sideInput.value, values, max };
  }

  submit() {
    const data = this.read();
    const tk = this.tk;
    if (!Number.isInteger(data.max) || data.max < 1) {
      replace(this.error, `${tk.decl.health.label}: a whole number from 1 is needed.`);
      this.maxInput.focus();
      return;
    }
    const ok = this.editing
      ? tk.dispatch({ type: "edit", id: this.editing, changes: data }, `${data.name.trim()} changed.`, this.error)
      : tk.dispatch({ type: "add", combatant: data }, `${data.name.trim()} joins the fight.`, this.error);
    if (!ok) return;
    const wasEditing = this.editing;
    this.reset();
    if (wasEditing) tk.focusKey(`edit-${wasEditing}`);
    else this.nameInput.focus(); // ready for the next one
  }

  /** Fill the form with `c` to edit it. No field is focused: on a phone that would open the
   * keyboard over the form; the form comes into view with its title focused instead. */
  edit(c) {
    this.editing = c.id;
    this.details.open = true;
    this.nameInput.value = c.name;
    this.sideInput.value = c.side;
    this.maxInput.value = c.max;
    for (const f of this.tk.fields) setFieldInput(this.inputs[f.name], f, c.values[f.name]);
    replace(this.title, `Edit ${c.name}`);
    replace(this.submitBtn, "Save changes");
    this.cancelEdit.hidden = false;
    replace(this.error);
    this.title.focus({ preventScroll: true });
    this.details.scrollIntoView({ block: "start" });
  }

  /** Open the form for a new combatant, the name field ready (a keyboard is wanted here). */
  open() {
    this.details.open = true;
    this.nameInput.focus();
  }
}

/** The initiative rulings (the initiative calculator's ruling inputs, as the data declares
 * them): each change is an undoable action; the round's order is asked with them. */
export class Rulings {
  constructor(tk) {
    this.tk = tk;
    this.inputs = {};
    const rulings = rulingFields(tk.decl);
    this.section = null;
    if (!rulings.length) return;
    const rows = rulings.map((f) => {
      const input = fieldInput(f);
      input.dataset.tkFocus = `ruling-${f.name}`;
      input.addEventListener("change", () => {
        const value = readFieldInput(input, f);
        const label = f.type === "choice" ? shownValue(f, value) : value ? "yes" : "no";
        tk.dispatch({ type: "option", name: f.name, value }, `${f.label}: ${label}. It applies from the next roll of initiative.`);
      });
      this.inputs[f.name] = input;
      const row = labelled(f.label || f.name, input, f.help);
      row.dataset.ccRuling = f.name;
      return row;
    });
    this.section = el(
      "details",
      { class: "cc-tk-section cc-tk-rulings" },
      el("summary", {}, "Rulings"),
      el("p", { class: "cc-tk-help" }, "Where the text is unclear: the same choices as the initiative calculator. They apply from the next roll of initiative, and are saved and exported with the fight."),
      el("div", { class: "cc-tk-grid" }, rows),
    );
  }

  render(state) {
    if (!this.section) return;
    const values = rulingValues(state, this.tk.decl);
    for (const f of rulingFields(this.tk.decl)) {
      const input = this.inputs[f.name];
      setFieldInput(input, f, values[f.name]);
      input.closest(".cc-tk-field").hidden = !applies(f, values);
    }
  }
}
