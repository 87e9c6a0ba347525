// The tracker's add / edit form (fields as the data declares them, labelled as the calculators
// label them, in the combatant's own voice; a saved preset to start from) and its Rulings block
// (the initiative calculator's ruling inputs). What a field accepts is the engine's to say: the
// form sends what was typed, and shows the engine's refusal naming the field.
import { el, replace, uid } from "../shared/dom.mjs";
import { openPresets, ROLES } from "../presets/store.mjs";
import { fromPreset, typed } from "./state.mjs";
import { button, fieldInput, labelled, readFieldInput, setFieldInput, shownValue } from "./ui.mjs";

export class AddForm {
  constructor(tk) {
    this.tk = tk;
    this.editing = null;
    const decl = tk.decl;
    this.title = el("summary", {}, "Add a combatant");
    this.nameInput = el("input", { type: "text", id: uid("tk-name"), maxlength: 40, autocomplete: "off", required: true });
    this.sideInput = el("select", { id: uid("tk-side") }, el("option", { value: "pc" }, "PC (player character)"), el("option", { value: "foe" }, "Foe (NPC or monster)"));
    const h = decl.health;
    this.maxInput = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", id: uid("tk-max"), value: h.default ?? "", required: true, "data-cc-health": "" });
    // A fighter or foe saved in this system's calculators (presets/store.mjs), read when the list opens.
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
    // the preset's attack and defence beyond the form's fields, added with it (odds.mjs shows them)
    this.carried = Object.fromEntries(Object.entries(got.values).filter(([name]) => !this.inputs[name]));
    this.presetInput.value = "";
    this.tk.say(`Filled from the preset ${got.name}${got.used.length ? "" : " (its values are not ones this tracker keeps: only the name and side)"}: check the form, then Add.`);
  }

  reset() {
    this.editing = null;
    this.carried = {};
    this.nameInput.value = "";
    this.sideInput.value = "pc";
    this.maxInput.value = this.tk.decl.health.default ?? "";
    for (const f of this.tk.fields) setFieldInput(this.inputs[f.name], f, f.default ?? "");
    replace(this.title, "Add a combatant");
    replace(this.submitBtn, "Add");
    this.cancelEdit.hidden = true;
    replace(this.error);
  }

  read() {
    const values = this.editing ? {} : { ...this.carried };
    for (const f of this.tk.fields) values[f.name] = readFieldInput(this.inputs[f.name], f);
    return { name: this.nameInput.value.trim(), side: this.sideInput.value, values, max: typed(this.maxInput.value.trim()) };
  }

  async submit() {
    const data = this.read();
    const tk = this.tk;
    const wasEditing = this.editing;
    const ok = wasEditing
      ? await tk.act({ type: "edit", id: wasEditing, changes: data }, `${data.name} changed.`, this.error)
      : await tk.act({ type: "add", combatant: data }, `${data.name} joins the fight.`, this.error);
    if (!ok) return;
    this.reset();
    if (wasEditing) tk.focusKey(`edit-${wasEditing}`);
    else this.nameInput.focus(); // ready for the next one
  }

  /** Fill the form with `c` (a view combatant) to edit it. No field is focused: on a phone that
   * would open the keyboard over the form; the form comes into view with its title focused. */
  edit(c) {
    this.editing = c.id;
    this.details.open = true;
    this.nameInput.value = c.name;
    this.sideInput.value = c.side;
    this.maxInput.value = c.max;
    for (const f of this.tk.fields) setFieldInput(this.inputs[f.name], f, c.values?.[f.name]);
    replace(this.title, `Edit ${c.name}`);
    replace(this.submitBtn, "Save changes");
    this.cancelEdit.hidden = false;
    replace(this.error);
    this.title.focus({ preventScroll: true });
    this.details.scrollIntoView({ block: "start" });
  }

  /** The engine's limits on what is typed (`view.limits`), once it has answered. */
  limit(limits) {
    if (Number.isInteger(limits?.name)) this.nameInput.maxLength = limits.name;
  }

  /** Open the form for a new combatant, the name field ready (a keyboard is wanted here). */
  open() {
    this.details.open = true;
    this.nameInput.focus();
  }
}

/** The rulings (where the text is unclear: the initiative calculator's ruling inputs and the
 * fight's own), as the engine's view lists them with their values; each change is an undoable
 * action. The rows are built from the first view (and again if the list changes). */
export class Rulings {
  constructor(tk) {
    this.tk = tk;
    this.inputs = {};
    this.names = "";
    this.grid = el("div", { class: "cc-tk-grid" });
    this.section = el(
      "details",
      { class: "cc-tk-section cc-tk-rulings", hidden: !(tk.decl.rulings || []).length },
      el("summary", {}, "Rulings"),
      el("p", { class: "cc-tk-help" }, "Where the text is unclear: the same choices as the calculators. Initiative rulings apply from the next roll of initiative; all are saved and exported with the fight."),
      this.grid,
    );
  }

  /** Show the engine's rulings (`view.rulings`: [{name, label, type, options, value}]). */
  render(rulings) {
    const names = rulings.map((r) => r.name).join(" ");
    if (names !== this.names) this.build(rulings);
    for (const r of rulings) setFieldInput(this.inputs[r.name], r, r.value);
  }

  build(rulings) {
    const tk = this.tk;
    this.names = rulings.map((r) => r.name).join(" ");
    this.inputs = {};
    const help = new Map((tk.decl.rulings || []).map((f) => [f.name, f.help]));
    replace(
      this.grid,
      rulings.map((f) => {
        const input = fieldInput({ ...f, default: f.value });
        input.dataset.tkFocus = `ruling-${f.name}`;
        input.addEventListener("change", () => {
          const value = readFieldInput(input, f);
          const label = f.type === "choice" ? shownValue(f, value) : value ? "yes" : "no";
          tk.act({ type: "option", name: f.name, value }, `${f.label}: ${label}.`);
        });
        this.inputs[f.name] = input;
        const row = labelled(f.label || f.name, input, help.get(f.name));
        row.dataset.ccRuling = f.name;
        return row;
      }),
    );
    this.section.hidden = !rulings.length;
  }
}
