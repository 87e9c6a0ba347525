// The fighter and the foe on a calculator's page: values carried from the reader's last calculator
// of the system (with a note saying so and a way back to the defaults), and the preset picker
// (save as…, use, rename, delete, export and import). Storage and checks live in presets/store.mjs;
// every name and message is put in as text (dom.mjs `el`), never as HTML.
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { builtinPresets, fits, LIMITS, matchesName, openPresets, PresetError, ROLES, roleInputs, roleValues } from "../presets/store.mjs";

import { fighterPreset, mountStatPaste } from "../statblock/paste.mjs";

const SITE_ROOT = new URL("../../../", import.meta.url);
/** Option values of built-in presets start with a control character, which no saved name holds. */
const BUILTIN = "\u0001builtin:";

const NOUN = { attacker: "attacker", target: "target" };
const PLURAL = { attacker: "attackers", target: "targets" };

/** Put `values` ({input: text}) into the form's inputs of those roles where they fit; returns the
 * declarations of the inputs whose value changed. */
export function applyValues(form, declaration, values, roles = ROLES) {
  const changed = [];
  const inputs = roleInputs(declaration);
  for (const role of roles) {
    for (const decl of inputs[role]) {
      const field = form.fields.get(decl.name);
      const text = values[role]?.[decl.name];
      if (!field || text === undefined || !fits(decl, text) || field.stateText() === text) continue;
      field.loadText(text);
      changed.push(decl);
    }
  }
  form.showApplicable();
  return changed;
}

/** "From the text: <rule> (source lines 28–28)." for a built-in preset; the link is same-origin only. */
export function sourceNote(preset) {
  const href = preset.rule ? siteHref(preset.rule.url, SITE_ROOT) : null;
  const lines = preset.source?.lines ? ` (line${preset.source.lines[0] === preset.source.lines[1] ? "" : "s"} ${[...new Set(preset.source.lines)].join("–")} of the text)` : "";
  const rule = preset.rule ? (href ? el("a", { href, class: "cc-preset-source" }, preset.rule.title) : preset.rule.title) : "the source text";
  return el("span", {}, "From the text: ", rule, `${lines}.`);
}

/** Names of some inputs for a sentence: "To-hit bonus, Target's Armor Class and 3 more". */
function labels(decls, most = 3) {
  const names = decls.map((d) => d.label || d.name);
  if (names.length <= most) return names.join(", ");
  return `${names.slice(0, most).join(", ")} and ${names.length - most} more`;
}

/**
 * One calculator's fighter and foe. `calc` gives: system, name, declaration, form (CalcForm),
 * title, and `edited()` (recompute after values were put into the form).
 */
export class FighterAndFoe {
  constructor(calc, storage = globalThis.localStorage) {
    this.calc = calc;
    this.store = openPresets(calc.system, storage);
    this.builtins = calc.declaration.builtins || []; // the text's own creatures (presets.yaml)
    this.roles = ROLES.filter((role) => roleInputs(calc.declaration)[role].length);
    this.notice = el("div", { class: "cc-carried", hidden: true });
    this.picker = this.roles.length ? this.buildPicker() : null;
  }

  /** Whether this calculator has any attacker or target input. */
  get active() {
    return this.roles.length > 0;
  }

  /** On arrival: the current attacker and target fill the inputs a link did not give
   * (`fromLink`: input name → text read from the URL). Returns how many inputs changed. */
  carryIn(fromLink) {
    if (!this.active) return 0;
    const current = this.store.current();
    for (const role of ROLES) for (const name of Object.keys(fromLink)) delete current[role][name];
    const changed = applyValues(this.calc.form, this.calc.declaration, current);
    if (changed.length) {
      const from = current.from && current.from.calculator !== this.calc.name ? `your last calculator (${current.from.title})` : "your last visit";
      this.showNotice(`Filled in from ${from}: ${labels(changed)}.`);
    }
    return changed.length;
  }

  /** After the reader changed the form: these values become the system's current ones. */
  remember() {
    if (!this.active) return;
    try {
      this.store.remember(roleValues(this.calc.declaration, this.calc.form.state()), { calculator: this.calc.name, title: this.calc.title });
    } catch {
      // storage full or blocked: the calculator still works, values are just not carried
    }
  }

  /** Back to this calculator's defaults: the carried values are forgotten for the system. */
  forget() {
    this.store.forget();
    this.notice.hidden = true;
  }

  showNotice(text) {
    const button = el("button", { type: "button", class: "md-button cc-carried-reset" }, "Use the defaults");
    button.addEventListener("click", () => {
      this.forget();
      this.calc.form.reset(); // notifies the calculator, which computes again
      this.calc.form.form.querySelector("input, select")?.focus();
    });
    replace(this.notice, el("span", {}, text), " ", button);
    this.notice.hidden = false;
  }

  // ---- the picker ----

  buildPicker() {
    const id = uid("cc-presets");
    this.rolesUI = {};
    const groups = this.roles.map((role) => this.buildRole(role, id));
    this.exportButton = el("button", { type: "button", class: "md-button cc-preset-export" }, "Export presets");
    this.exportButton.addEventListener("click", () => this.exportFile());
    this.file = el("input", { type: "file", accept: ".json,application/json", class: "cc-preset-file", hidden: true, "aria-hidden": "true", tabindex: "-1" });
    this.file.addEventListener("change", () => this.importFile());
    const importButton = el("button", { type: "button", class: "md-button cc-preset-import", "aria-describedby": `${id}-file-error` }, "Import presets…");
    importButton.addEventListener("click", () => this.file.click());
    this.fileStatus = el("p", { class: "cc-preset-status", role: "status" });
    this.fileError = el("p", { class: "cc-error", id: `${id}-file-error`, hidden: true });
    const fileRow = el("div", { class: "cc-preset-files" }, el("div", { class: "cc-preset-row" }, this.exportButton, importButton, this.file), this.fileStatus, this.fileError);
    const note = el("p", { class: "cc-help" }, "Kept in this browser, for this system's calculators only. A copied link carries the values, not a preset's name.");
    this.search = el("input", { id: `${id}-search`, type: "search", class: "cc-preset-search", autocomplete: "off", spellcheck: "false" });
    this.search.addEventListener("input", () => this.refresh());
    const searchRow = el("div", { class: "cc-preset-row" }, el("label", { for: this.search.id }, "Find a preset by name"), this.search);
    this.details = el("details", { class: "cc-presets" }, el("summary", {}, "Saved attackers and targets"), note, searchRow, ...groups, fileRow);
    if (this.calc.declaration.statblock) this.mountPaste();
    this.details.addEventListener("toggle", () => this.details.open && this.refresh()); // another tab may have changed them
    this.refresh();
    return this.details;
  }

  buildRole(role, id) {
    const pid = `${id}-${role}`;
    const select = el("select", { id: `${pid}-pick`, class: "cc-preset-pick" });
    const use = el("button", { type: "button", class: "md-button cc-preset-use" }, "Use");
    const name = el("input", { id: `${pid}-name`, type: "text", class: "cc-preset-name", maxlength: LIMITS.name, autocomplete: "off", spellcheck: "false", "aria-describedby": `${pid}-error` });
    const save = el("button", { type: "button", class: "md-button cc-preset-save" }, "Save");
    const rename = el("button", { type: "button", class: "md-button cc-preset-rename", title: "Give the chosen preset the name typed below" }, "Rename");
    const remove = el("button", { type: "button", class: "md-button cc-preset-delete" }, "Delete");
    const status = el("p", { class: "cc-preset-status", role: "status" });
    const error = el("p", { class: "cc-error", id: `${pid}-error`, hidden: true });
    const ui = { role, select, use, name, save, rename, remove, status, error };
    this.rolesUI[role] = ui;
    select.addEventListener("change", () => {
      if (select.value) name.value = this.chosen(ui)?.name ?? "";
      this.clearMessages(ui);
      this.updateButtons(ui);
    });
    use.addEventListener("click", () => this.use(ui));
    save.addEventListener("click", () => this.save(ui));
    rename.addEventListener("click", () => this.rename(ui));
    remove.addEventListener("click", () => this.remove(ui));
    name.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.save(ui);
      }
    });
    const title = role === "attacker" ? "Attacker" : "Target";
    return el(
      "fieldset",
      { class: "cc-preset-role", "data-role": role },
      el("legend", {}, title),
      el("div", { class: "cc-preset-row" }, el("label", { for: select.id }, `Saved ${PLURAL[role]}`), select, use, rename, remove),
      el("div", { class: "cc-preset-row" }, el("label", { for: name.id }, "Name (to save as, or to rename to)"), name, save),
      status,
      error,
    );
  }

  /** The paste box: a pasted stat block's values go into this calculator's attacker and target
   * inputs of the same names (the first creature when several are pasted). */
  mountPaste() {
    const holder = el("div", { class: "cc-preset-paste" });
    this.details.insertBefore(holder, this.details.querySelector(".cc-preset-role"));
    this.paste = mountStatPaste(holder, {
      system: this.calc.system,
      action: (n) => (n === 1 ? "Use these values" : "Use the first creature's values"),
      onUse: (fighters) => {
        const values = fighterPreset(fighters[0]).values;
        const changed = applyValues(this.calc.form, this.calc.declaration, { attacker: values, target: values });
        const ui = Object.values(this.rolesUI)[0];
        this.say(ui, `Using ${fighters[0].name}: ${changed.length ? labels(changed, 6) : "nothing this calculator takes"}. Save it under a name below to keep it.`);
        for (const u of Object.values(this.rolesUI)) u.name.value = fighters[0].name;
        this.notice.hidden = true;
        if (changed.length) this.calc.edited();
      },
    });
  }

  /** The select lists the role's presets again (after any change, here or in another tab). */
  refresh(selected) {
    const query = this.search?.value || "";
    for (const ui of Object.values(this.rolesUI || {})) {
      const keep = selected?.[ui.role] ?? ui.select.value;
      const presets = this.store.list(ui.role).filter((p) => matchesName(p.name, query));
      const builtins = builtinPresets(this.builtins, ui.role).map((p, i) => ({ ...p, key: `${BUILTIN}${i}` }));
      const shownBuiltins = builtins.filter((p) => matchesName(p.name, query));
      const count = presets.length + shownBuiltins.length;
      const none = count ? `Choose a ${NOUN[ui.role]}` : query ? `No ${NOUN[ui.role]} named like “${query.trim()}”` : `No saved ${PLURAL[ui.role]} yet`;
      const saved = presets.map((p) => el("option", { value: p.name }, p.name));
      const options = shownBuiltins.length
        ? [
            el("optgroup", { label: "From the text" }, shownBuiltins.map((p) => el("option", { value: p.key, "data-cc-builtin": "" }, p.name))),
            saved.length ? el("optgroup", { label: "Saved" }, saved) : null,
          ]
        : saved;
      replace(ui.select, el("option", { value: "" }, none), options);
      ui.builtins = builtins;
      ui.select.value = presets.some((p) => p.name === keep) || shownBuiltins.some((p) => p.key === keep) ? keep : "";
      this.updateButtons(ui);
    }
  }

  /** The chosen preset: a built-in one ({…, builtin: true}) or a saved one; null when none. */
  chosen(ui) {
    const value = ui.select.value;
    if (!value) return null;
    if (value.startsWith(BUILTIN)) return ui.builtins?.find((p) => p.key === value) || null;
    return this.store.get(ui.role, value);
  }

  /** Use, Rename and Delete act on the chosen preset: off while none is chosen (a built-in one
   * can be used, not renamed or deleted). */
  updateButtons(ui) {
    const chosen = Boolean(ui.select.value);
    const builtin = ui.select.value.startsWith(BUILTIN);
    ui.use.disabled = !chosen;
    ui.rename.disabled = !chosen || builtin;
    ui.remove.disabled = !chosen || builtin;
  }

  clearMessages(ui) {
    replace(ui.status);
    replace(ui.error);
    ui.error.hidden = true;
    ui.name.removeAttribute("aria-invalid");
  }

  fail(ui, err) {
    if (!(err instanceof PresetError)) throw err;
    replace(ui.status);
    replace(ui.error, err.message);
    ui.error.hidden = false;
  }

  say(ui, text) {
    replace(ui.error);
    ui.error.hidden = true;
    replace(ui.status, text);
  }

  use(ui) {
    this.clearMessages(ui);
    const preset = this.chosen(ui);
    if (!preset) return this.fail(ui, new PresetError("That preset is gone (deleted in another tab?)."));
    const values = { [ui.role]: preset.values };
    const changed = applyValues(this.calc.form, this.calc.declaration, values, [ui.role]);
    const missing = roleInputs(this.calc.declaration)[ui.role].filter((d) => !Object.hasOwn(preset.values, d.name) || !fits(d, preset.values[d.name]));
    const rest = missing.length ? ` ${labels(missing)} kept as they were (not in the preset, or not a value this calculator takes).` : "";
    this.say(ui, `Using “${preset.name}”: ${changed.length ? `${changed.length} ${changed.length === 1 ? "input" : "inputs"} changed.` : "nothing to change."}${rest}`);
    if (preset.builtin) ui.status.append(" ", sourceNote(preset));
    this.notice.hidden = true;
    if (changed.length) this.calc.edited();
  }

  /** The values a preset of this role gets: the current ones of the system (inputs of other
   * calculators included) updated with this form's. */
  valuesToSave(role) {
    const own = roleValues(this.calc.declaration, this.calc.form.state())[role];
    return { ...this.store.current()[role], ...own };
  }

  save(ui) {
    this.clearMessages(ui);
    try {
      const { name, replaced } = this.store.save(ui.role, ui.name.value, this.valuesToSave(ui.role));
      this.refresh({ [ui.role]: name });
      ui.name.value = name;
      this.say(ui, replaced ? `Saved: “${name}” replaced by these values.` : `Saved as “${name}”.`);
    } catch (err) {
      ui.name.setAttribute("aria-invalid", "true");
      this.fail(ui, err);
    }
  }

  rename(ui) {
    this.clearMessages(ui);
    const old = ui.select.value;
    try {
      const name = this.store.rename(ui.role, old, ui.name.value);
      this.refresh({ [ui.role]: name });
      this.say(ui, `Renamed “${old}” to “${name}”.`);
    } catch (err) {
      ui.name.setAttribute("aria-invalid", "true");
      this.fail(ui, err);
    }
  }

  remove(ui) {
    this.clearMessages(ui);
    const preset = this.store.get(ui.role, ui.select.value);
    if (!preset || !this.store.remove(ui.role, preset.name)) return this.fail(ui, new PresetError("That preset is gone already."));
    this.refresh({ [ui.role]: "" });
    const undo = el("button", { type: "button", class: "md-button cc-preset-undo" }, "Undo");
    undo.addEventListener("click", () => {
      try {
        this.store.save(ui.role, preset.name, preset.values);
        this.refresh({ [ui.role]: preset.name });
        this.say(ui, `“${preset.name}” is back.`);
        ui.select.focus();
      } catch (err) {
        this.fail(ui, err);
      }
    });
    this.say(ui, `Deleted “${preset.name}”. `);
    ui.status.append(undo);
  }

  exportFile() {
    replace(this.fileError);
    this.fileError.hidden = true;
    const blob = new Blob([this.store.exportJSON()], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: `combat-codex-${this.calc.system}-presets.json`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    const count = ROLES.reduce((n, role) => n + this.store.list(role).length, 0);
    replace(this.fileStatus, `Exported ${count} ${count === 1 ? "preset" : "presets"}.`);
  }

  async importFile() {
    const file = this.file.files?.[0];
    this.file.value = ""; // the same file can be chosen again
    if (!file) return;
    replace(this.fileStatus);
    try {
      if (file.size > LIMITS.file) throw new PresetError(`The file is too large for a presets file (over ${LIMITS.file / 1024} KB).`);
      const text = await file.text();
      const { added, replaced: swapped } = this.store.importJSON(text);
      this.refresh();
      replace(this.fileError);
      this.fileError.hidden = true;
      replace(this.fileStatus, `Imported ${added} new ${added === 1 ? "preset" : "presets"}${swapped ? `, replaced ${swapped} of the same name` : ""}.`);
    } catch (err) {
      if (!(err instanceof PresetError)) throw err;
      replace(this.fileError, `Nothing imported from “${file.name}”: ${err.message}`);
      this.fileError.hidden = false;
    }
  }
}
