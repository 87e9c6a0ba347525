// The reader's fighter and foe, per system, in the browser's storage: the values last given
// ("the current attacker and target", carried from one calculator to the next) and named presets
// (save as…, pick, rename, delete, export and import as JSON). No DOM: the calculators' picker
// (calculator/preset-picker.mjs) and the encounter tracker both use this module; unit-tested under
// `node --test` (tests/js/presets.test.mjs) with an in-memory storage.
//
// Which inputs belong to the attacker and which to the target is declared in the data
// (`role: attacker|target` on an input in rules_data/<system>/calculators.yaml); an input of that
// name and role means the same thing in every calculator of the system (macros/check/ checks
// it), so values are kept by input name, as text (what the form shows, as in a link's query).
// Nothing here is ever HTML: names and values are plain strings, shown with textContent.

export const ROLES = Object.freeze(["attacker", "target"]);
export const FORMAT = "combat-codex-presets";
export const VERSION = 1;
export const LIMITS = Object.freeze({ name: 60, presets: 100, values: 80, text: 4000, file: 512 * 1024 });

const INPUT_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const CONTROL = /\p{Cc}/u;
const WHOLE = /^\s*[+\-−]?\d{1,12}\s*$/;

/** A preset or import that cannot be taken, or storage that refused a write. The message is for
 * the reader, shown next to the control; nothing has changed when it is thrown. */
export class PresetError extends Error {
  constructor(message) {
    super(message);
    this.name = "PresetError";
  }
}

/** The inputs of a calculator declaration by role: {attacker: [decl…], target: [decl…]}. */
export function roleInputs(declaration) {
  const out = { attacker: [], target: [] };
  for (const decl of declaration.inputs || []) if (ROLES.includes(decl.role)) out[decl.role].push(decl);
  return out;
}

/** Whether `text` is a value the declared input can show: a choice it offers, true/false, a whole
 * number in range, a list that reads as JSON. Python still judges what is computed; this only
 * keeps a value from one calculator out of another that cannot take it. */
export function fits(decl, text) {
  if (typeof text !== "string" || text.length > LIMITS.text) return false;
  switch (decl.type) {
    case "choice":
      return (decl.options || []).some((o) => String(o.value) === text);
    case "boolean":
      return text === "true" || text === "false";
    case "integer": {
      if (!WHOLE.test(text)) return false;
      const n = Number(text.trim().replace("−", "-"));
      return !(decl.min != null && n < decl.min) && !(decl.max != null && n > decl.max);
    }
    case "list":
      try {
        const items = JSON.parse(text);
        return Array.isArray(items) && items.length <= (decl.max_items ?? 50) && items.every((x) => x && typeof x === "object" && !Array.isArray(x));
      } catch {
        return false;
      }
    default:
      return text.trim() !== "" && text.length <= 200; // dice and text: Python reads them
  }
}

/** The role values of a form's state ({name: text}) that fit their inputs: {attacker, target}. */
export function roleValues(declaration, state) {
  const out = { attacker: {}, target: {} };
  for (const [role, decls] of Object.entries(roleInputs(declaration))) {
    for (const decl of decls) if (Object.hasOwn(state, decl.name) && fits(decl, state[decl.name])) out[role][decl.name] = state[decl.name];
  }
  return out;
}

/** A preset's name as kept: trimmed, inner runs of spaces made one; throws when unusable. */
export function cleanName(name) {
  if (typeof name !== "string") throw new PresetError("A name must be text.");
  const clean = name.trim().replace(/\s+/g, " ");
  if (!clean) throw new PresetError("Give the preset a name.");
  if (clean.length > LIMITS.name) throw new PresetError(`A name has at most ${LIMITS.name} characters (this one has ${clean.length}).`);
  if (CONTROL.test(clean)) throw new PresetError("A name cannot hold control characters.");
  return clean;
}

/** The presets and carried values of one system, in `storage` (a Web Storage: localStorage). */
export function openPresets(system, storage = globalThis.localStorage) {
  return new PresetStore(system, storage);
}

export class PresetStore {
  constructor(system, storage) {
    if (typeof system !== "string" || !system) throw new TypeError("a system id is needed");
    this.system = system;
    this.storage = storage;
    this.presetKey = `cc-presets:${system}`;
    this.currentKey = `cc-current:${system}`;
  }

  // ---- named presets ----

  /** The presets of a role, sorted by name: [{name, values: {input: text}}] (copies). */
  list(role) {
    checkRole(role);
    return this.#read()[role].map(copyPreset).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The preset of that role and name (case ignored), or null. */
  get(role, name) {
    checkRole(role);
    const found = find(this.#read()[role], name);
    return found ? copyPreset(found) : null;
  }

  /** Save values under a name (a preset of that name is replaced). Returns {name, replaced}. */
  save(role, name, values) {
    checkRole(role);
    const clean = cleanName(name);
    const kept = checkValues(values, "The preset");
    if (!Object.keys(kept).length) throw new PresetError(`This calculator has no ${role === "attacker" ? "attacker" : "target"} values to save.`);
    const all = this.#read();
    const list = all[role];
    const old = find(list, clean);
    if (!old && list.length >= LIMITS.presets) throw new PresetError(`At most ${LIMITS.presets} presets of a kind; delete one first.`);
    const entry = { name: clean, values: kept };
    all[role] = old ? list.map((p) => (p === old ? entry : p)) : [...list, entry];
    this.#write(all);
    return { name: clean, replaced: Boolean(old) };
  }

  /** Give a preset another name (not one another preset of the role has). */
  rename(role, name, newName) {
    checkRole(role);
    const clean = cleanName(newName);
    const all = this.#read();
    const old = find(all[role], name);
    if (!old) throw new PresetError(`No saved preset is called “${name}”.`);
    const clash = find(all[role], clean);
    if (clash && clash !== old) throw new PresetError(`Another preset is already called “${clash.name}”.`);
    all[role] = all[role].map((p) => (p === old ? { name: clean, values: p.values } : p));
    this.#write(all);
    return clean;
  }

  /** Delete a preset; false when there was none of that name. */
  remove(role, name) {
    checkRole(role);
    const all = this.#read();
    const old = find(all[role], name);
    if (!old) return false;
    all[role] = all[role].filter((p) => p !== old);
    this.#write(all);
    return true;
  }

  /** Every preset of the system as a JSON file's text (see `importJSON`). */
  exportJSON() {
    const all = this.#read();
    const presets = Object.fromEntries(ROLES.map((role) => [role, all[role].map(copyPreset)]));
    return `${JSON.stringify({ format: FORMAT, version: VERSION, system: this.system, presets }, null, 2)}\n`;
  }

  /** Add the presets of an exported file (same-named ones are replaced). The whole file is checked
   * first: anything wrong throws a PresetError naming the place and nothing changes.
   * Returns {added, replaced} counts. */
  importJSON(text) {
    const incoming = parseExport(text, this.system);
    const all = this.#read();
    let added = 0;
    let replaced = 0;
    for (const role of ROLES) {
      let list = all[role];
      for (const entry of incoming[role]) {
        const old = find(list, entry.name);
        if (old) {
          list = list.map((p) => (p === old ? entry : p));
          replaced += 1;
        } else {
          list = [...list, entry];
          added += 1;
        }
      }
      if (list.length > LIMITS.presets) throw new PresetError(`Importing would make ${list.length} ${role} presets; at most ${LIMITS.presets} are kept. Nothing was imported.`);
      all[role] = list;
    }
    this.#write(all);
    return { added, replaced };
  }

  // ---- the current attacker and target (carried between calculators) ----

  /** The values given last: {attacker: {input: text}, target: {…}, from: {calculator, title} | null}. */
  current() {
    const raw = readJSON(this.storage, this.currentKey);
    const out = { attacker: {}, target: {}, from: null };
    if (!raw || typeof raw !== "object") return out;
    for (const role of ROLES) {
      try {
        out[role] = checkValues(raw[role] ?? {}, "stored");
      } catch {
        out[role] = {};
      }
    }
    if (raw.from && typeof raw.from.calculator === "string" && typeof raw.from.title === "string") out.from = { calculator: raw.from.calculator, title: raw.from.title };
    return out;
  }

  /** Merge a calculator's role values ({attacker, target}) into the current ones; `from` says
   * which calculator gave them. Values of inputs this calculator lacks are kept. */
  remember(values, from) {
    const now = this.current();
    const next = { from: from ? { calculator: String(from.calculator), title: String(from.title) } : now.from };
    for (const role of ROLES) next[role] = checkValues({ ...now[role], ...(values?.[role] || {}) }, "The values");
    writeJSON(this.storage, this.currentKey, next);
  }

  /** Forget the current attacker and target: calculators open with their own defaults. */
  forget() {
    try {
      this.storage.removeItem(this.currentKey);
    } catch {
      // storage blocked: there is nothing stored either
    }
  }

  #read() {
    const raw = readJSON(this.storage, this.presetKey);
    const out = { attacker: [], target: [] };
    if (!raw || typeof raw !== "object") return out;
    for (const role of ROLES) {
      if (!Array.isArray(raw[role])) continue;
      for (const p of raw[role]) {
        try {
          out[role].push({ name: cleanName(p.name), values: checkValues(p.values, "stored") });
        } catch {
          // an entry spoilt outside this module is skipped, the others still load
        }
      }
    }
    return out;
  }

  #write(all) {
    writeJSON(this.storage, this.presetKey, { attacker: all.attacker, target: all.target });
  }
}

/** An exported file's presets, checked whole: {attacker: [...], target: [...]}. */
export function parseExport(text, system) {
  if (typeof text !== "string") throw new PresetError("The file could not be read as text.");
  if (text.length > LIMITS.file) throw new PresetError(`The file is too large for a presets file (over ${LIMITS.file / 1024} KB).`);
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PresetError(`The file is not JSON (${err.message}).`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || data.format !== FORMAT) {
    throw new PresetError("This is not a Combat Codex presets file (it has no \"format\": \"combat-codex-presets\").");
  }
  if (data.version !== VERSION) throw new PresetError(`This presets file has version ${JSON.stringify(data.version)}; this site reads version ${VERSION}.`);
  if (data.system !== system) {
    throw new PresetError(`This file holds presets for the system “${String(data.system)}”, not “${system}”: import it on that system's pages.`);
  }
  if (!data.presets || typeof data.presets !== "object" || Array.isArray(data.presets)) throw new PresetError("presets: must be an object with the lists attacker and target.");
  const extra = Object.keys(data.presets).filter((k) => !ROLES.includes(k));
  if (extra.length) throw new PresetError(`presets: unknown kind “${extra[0]}” (only attacker and target).`);
  const out = { attacker: [], target: [] };
  for (const role of ROLES) {
    const list = data.presets[role] ?? [];
    if (!Array.isArray(list)) throw new PresetError(`presets.${role}: must be a list.`);
    if (list.length > LIMITS.presets) throw new PresetError(`presets.${role}: at most ${LIMITS.presets} presets (the file has ${list.length}).`);
    list.forEach((p, i) => {
      const where = `presets.${role}[${i + 1}]`;
      if (!p || typeof p !== "object" || Array.isArray(p)) throw new PresetError(`${where}: must be an object with a name and values.`);
      let name;
      try {
        name = cleanName(p.name);
      } catch (err) {
        throw new PresetError(`${where}.name: ${err.message}`);
      }
      if (find(out[role], name)) throw new PresetError(`${where}.name: “${name}” appears twice.`);
      out[role].push({ name, values: checkValues(p.values, `${where}.values`) });
    });
  }
  return out;
}

function checkRole(role) {
  if (!ROLES.includes(role)) throw new PresetError(`Unknown kind of preset “${role}” (attacker or target).`);
}

/** Values as kept: {input name: text}; numbers and booleans become their text. */
function checkValues(values, where) {
  if (!values || typeof values !== "object" || Array.isArray(values)) throw new PresetError(`${where}: must be an object of input names and values.`);
  const entries = Object.entries(values);
  if (entries.length > LIMITS.values) throw new PresetError(`${where}: at most ${LIMITS.values} values.`);
  const out = {};
  for (const [name, value] of entries) {
    if (!INPUT_NAME.test(name)) throw new PresetError(`${where}: “${name.slice(0, 40)}” is not an input name.`);
    if (typeof value === "number" && Number.isFinite(value)) out[name] = String(value);
    else if (typeof value === "boolean") out[name] = String(value);
    else if (typeof value === "string" && value.length <= LIMITS.text) out[name] = value;
    else throw new PresetError(`${where}.${name}: must be text, a number or true/false${typeof value === "string" ? ` of at most ${LIMITS.text} characters` : ""}.`);
  }
  return out;
}

function find(list, name) {
  if (typeof name !== "string") return null;
  const key = name.trim().replace(/\s+/g, " ").toLocaleLowerCase();
  return list.find((p) => p.name.toLocaleLowerCase() === key) || null;
}

function copyPreset(p) {
  return { name: p.name, values: { ...p.values } };
}

function readJSON(storage, key) {
  try {
    const text = storage?.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null; // blocked storage or a spoilt entry: as if empty
  }
}

function writeJSON(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch (err) {
    throw new PresetError(`This browser would not store it (${err?.name || "storage blocked"}); nothing was saved.`);
  }
}

// ---- built-in presets: the texts' own creatures and characters ----
// rules_data/<system>/presets.yaml, exported with their values by input name (JSON values) and
// carried in the page's declaration (`builtins`); each cites the rule and source lines it comes from.

/** A JSON value as a preset keeps it: text ("5", "true", a list as JSON). */
export function presetText(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The built-ins of a role as the picker lists them: [{name, values: {input: text}, rule, source, builtin: true}],
 * in the data's order. Entries of another role, or misshapen ones, are left out. */
export function builtinPresets(list, role) {
  checkRole(role);
  if (!Array.isArray(list)) return [];
  const out = [];
  for (const p of list) {
    if (!p || p.role !== role || typeof p.name !== "string" || !p.values || typeof p.values !== "object") continue;
    const values = Object.fromEntries(Object.entries(p.values).map(([k, v]) => [k, presetText(v)]));
    out.push({ name: p.name, values, rule: p.rule || null, source: p.source || null, builtin: true });
  }
  return out;
}

/** Whether every word of `query` is in `name` (case and accents ignored): the picker's search. */
export function matchesName(name, query) {
  const fold = (s) => String(s).normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
  const hay = fold(name);
  return fold(query ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}
