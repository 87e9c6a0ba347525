// The encounter tracker's state, as pure functions (no DOM, no storage, no randomness of its own),
// unit-tested under `node --test` (tests/js/tracker-state.test.mjs). The page (tracker.mjs) keeps
// a history {past, present, future}; every change is an action applied by `reduce`, so each one
// can be undone. The initiative order is NOT computed here: it comes from the Python engine in
// the worker (calc/turns.py) and enters the state as a `startRound` action.
//
// The state's `options` are the initiative rulings chosen in the page ({input name: value}, only
// those changed from the data's default; the declaration's `rulings` are the initiative
// calculator's ruling inputs): sent to calc.turns as `options`.
//
// A combatant: {id ("c1"), name, side: "pc"|"foe", values: {field: value} (the system's tracker fields,
// as the data declares them), max (hit points or wound limit), damage (taken so far), tags: [text]}.

export const FORMAT = "cc-tracker";
export const VERSION = 1;
export const HISTORY_LIMIT = 100;
/** The most combatants a fight holds when the declaration names no cap. */
export const MAX_COMBATANTS = 40;
export const MAX_TAGS = 12;
export const TAG_MAX = 30;
export const HEALTH_MAX = 100000;
const SIDES = ["pc", "foe"];

import { applies, checkField, fieldDefault, NAME_MAX, rulingFields, shown, trackerFields } from "./fields.mjs";
export * from "./fields.mjs";

/** The most combatants a fight of this system holds: as many as its initiative calculator
 * accepts (the declaration's `max_combatants`, from the data), so every fight can roll a round. */
export function maxCombatants(declaration) {
  return Number.isInteger(declaration?.max_combatants) ? declaration.max_combatants : MAX_COMBATANTS;
}

/** A fresh fight of `system`. */
export function emptyState(system) {
  return { format: FORMAT, version: VERSION, system, round: 0, turn: 0, order: [], notes: [], rolls: {}, combatants: [], nextId: 1, options: {} };
}

/** The chosen rulings with the data's defaults filled in ({name: value} for every ruling input). */
export function rulingValues(state, declaration) {
  const chosen = state.options || {};
  return Object.fromEntries(rulingFields(declaration).map((f) => [f.name, f.name in chosen ? chosen[f.name] : fieldDefault(f)]));
}

/** What calc.turns receives as `options`: every ruling input that applies (a `when` not met
 * leaves that input out, so the engine takes its default). */
export function engineOptions(state, declaration) {
  const values = rulingValues(state, declaration);
  return Object.fromEntries(rulingFields(declaration).filter((f) => applies(f, values)).map((f) => [f.name, values[f.name]]));
}

/** A file's `options` checked against the declared rulings: {options} or {error}. */
export function checkOptions(raw, declaration) {
  if (raw === undefined) return { options: {} };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: "options: an object of the initiative rulings is needed" };
  const fields = rulingFields(declaration);
  const options = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = fields.find((f) => f.name === key);
    if (!field) return { error: `options: no ruling "${key}" in this system's tracker` };
    const checked = checkField(field, value);
    if (checked.error) return { error: `options: ${checked.error}` };
    if (checked.value !== fieldDefault(field)) options[key] = checked.value;
  }
  return { options };
}

/** The health states the rules name for hit-point totals (the declaration's `states`, from the
 * rules' facts via calc/rules.json: {label, when: "within"|"below"|"at-or-below", value, side?,
 * title, url}), gravest first. */
export function healthStates(declaration) {
  return Array.isArray(declaration?.states) ? declaration.states : [];
}

/** The lowest hit points the tracker counts down to: the lowest a state names, never above 0
 * (a system without negative states stops at 0). */
export function healthFloor(declaration) {
  const lows = healthStates(declaration).map((s) => (s.when === "within" ? s.value.min : s.when === "below" ? s.value - 1 : s.value));
  return Math.min(0, ...lows);
}

/** The state a combatant is in (the first declared that applies to its side and hit points
 * left), or null. */
export function healthState(c, declaration) {
  const left = c.max - c.damage;
  const hits = (s) => (s.when === "within" ? left >= s.value.min && left <= s.value.max : s.when === "below" ? left < s.value : left <= s.value);
  return healthStates(declaration).find((s) => (!s.side || s.side === c.side) && hits(s)) || null;
}

/** A combatant checked against the declaration: {combatant} or {error}. `id` is kept as given. */
export function checkCombatant(raw, declaration, where = "combatant") {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: `${where}: must be an object` };
  const name = typeof raw.name === "string" ? raw.name.trim() : "";
  if (!name) return { error: `${where}: a name is needed` };
  if (name.length > NAME_MAX) return { error: `${where}: the name has more than ${NAME_MAX} characters` };
  const who = `${where} (${name})`;
  if (!SIDES.includes(raw.side)) return { error: `${who}: side must be pc or foe (got ${shown(raw.side)})` };
  const values = {};
  const given = raw.values && typeof raw.values === "object" && !Array.isArray(raw.values) ? raw.values : null;
  if (raw.values !== undefined && !given) return { error: `${who}: values must be an object` };
  for (const field of trackerFields(declaration)) {
    const value = given && field.name in given ? given[field.name] : fieldDefault(field);
    const checked = checkField(field, value);
    if (checked.error) return { error: `${who}: ${checked.error}` };
    values[field.name] = checked.value;
  }
  const unknown = given ? Object.keys(given).filter((k) => !trackerFields(declaration).some((f) => f.name === k)) : [];
  if (unknown.length) return { error: `${who}: no field "${unknown[0]}" in this system's tracker` };
  for (const key of ["max", "damage"]) {
    const n = raw[key];
    if (!Number.isInteger(n) || n < (key === "max" ? 1 : -HEALTH_MAX) || n > HEALTH_MAX) {
      return { error: `${who}: ${key} must be a whole number${key === "max" ? " from 1" : ""} up to ${HEALTH_MAX} (got ${shown(n)})` };
    }
  }
  const tags = raw.tags ?? [];
  if (!Array.isArray(tags) || tags.length > MAX_TAGS || !tags.every((t) => typeof t === "string" && t.trim() && t.length <= TAG_MAX)) {
    return { error: `${who}: tags must be a list of at most ${MAX_TAGS} short texts` };
  }
  return { combatant: { id: raw.id, name, side: raw.side, values, max: raw.max, damage: raw.damage, tags: [...new Set(tags.map((t) => t.trim()))] } };
}

/** A whole state read from a file (already JSON-parsed), for `system`: {state} or {error}. The
 * error is a sentence for the reader; nothing of a bad file is kept. */
export function validateState(raw, declaration, system) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: "This is not a tracker file (expected a JSON object)." };
  if (raw.format !== FORMAT) return { error: `This is not a tracker file (format is ${shown(raw.format)}, expected "${FORMAT}").` };
  if (raw.version !== VERSION) return { error: `This tracker file has version ${shown(raw.version)}; this page reads version ${VERSION}.` };
  if (raw.system !== system) return { error: `This fight is for ${shown(raw.system)}, not ${system}: open that system's tracker to import it.` };
  if (!Array.isArray(raw.combatants) || raw.combatants.length > maxCombatants(declaration)) {
    return { error: `combatants: a list of at most ${maxCombatants(declaration)} is needed.` };
  }
  const combatants = [];
  const ids = new Set();
  const names = new Set();
  for (const [i, c] of raw.combatants.entries()) {
    const checked = checkCombatant(c, declaration, `combatant ${i + 1}`);
    if (checked.error) return { error: `${checked.error}.` };
    const id = checked.combatant.id;
    if (!validId(id) || ids.has(id)) return { error: `combatant ${i + 1}: id must be a short text, unique in the file.` };
    if (names.has(checked.combatant.name.toLowerCase())) return { error: `combatant ${i + 1}: the name ${checked.combatant.name} is used twice.` };
    ids.add(id);
    names.add(checked.combatant.name.toLowerCase());
    combatants.push(checked.combatant);
  }
  for (const key of ["round", "turn"]) {
    if (!Number.isInteger(raw[key]) || raw[key] < 0 || raw[key] > 100000) return { error: `${key}: a whole number from 0 is needed.` };
  }
  if (!Array.isArray(raw.order) || raw.order.length > 200) return { error: "order: a list of turns is needed." };
  const order = [];
  for (const [i, t] of raw.order.entries()) {
    if (!t || typeof t !== "object" || !ids.has(t.id)) return { error: `order, turn ${i + 1}: names no combatant of the file.` };
    order.push({ id: t.id, when: text(t.when), why: steps(t.why) });
  }
  if (raw.turn > order.length) return { error: `turn: ${raw.turn} is past the end of the order (${order.length} turns).` };
  const notes = steps(raw.notes);
  const rolls = {};
  if (raw.rolls && typeof raw.rolls === "object" && !Array.isArray(raw.rolls)) {
    for (const [k, v] of Object.entries(raw.rolls)) if (Number.isInteger(v)) rolls[k] = v;
  }
  const nextId = Number.isInteger(raw.nextId) && raw.nextId > 0 ? raw.nextId : 1;
  const opts = checkOptions(raw.options, declaration);
  if (opts.error) return { error: `${opts.error}.` };
  return { state: { format: FORMAT, version: VERSION, system, round: raw.round, turn: raw.turn, order, notes, rolls, combatants, nextId, options: opts.options } };
}

/** A saved preset (presets.mjs: {name, values: {input: text}}) of `role` as what the add-combatant
 * form takes: {name, side (an attacker is a pc, a target a foe), values: {field: value} for the
 * tracker's fields of the same input name whose value fits the declaration, max (the health
 * input's value) or null, used: [input names taken]}. Values that do not fit are left out, never
 * guessed. */
export function fromPreset(preset, role, declaration) {
  const values = {};
  const used = [];
  for (const field of trackerFields(declaration)) {
    if (!Object.hasOwn(preset.values || {}, field.name)) continue;
    const raw = preset.values[field.name];
    const typed = field.type === "boolean" ? (raw === "true" ? true : raw === "false" ? false : raw) : raw;
    const checked = checkField(field, typed);
    if (checked.error) continue;
    values[field.name] = checked.value;
    used.push(field.name);
  }
  let max = null;
  const health = declaration?.health?.input;
  const hp = health ? preset.values?.[health] : undefined;
  if (typeof hp === "string" && /^\s*\d+\s*$/.test(hp) && Number(hp) >= 1 && Number(hp) <= HEALTH_MAX) {
    max = Number(hp);
    used.push(health);
  }
  return { name: String(preset.name).slice(0, NAME_MAX), side: role === "attacker" ? "pc" : "foe", values, max, used };
}

/** Combatant ids are the tracker's own keys ("c1", …): short text, never shown. */
export function validId(id) {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,60}$/.test(id);
}

/** The engine's reasons (`[{rule, title, url, text}]`, or plain text) as `[{text, title, url}]`
 * of plain strings: shown as text, the url only as a same-origin link (tracker.mjs checks). */
export function steps(value) {
  const list = Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value];
  return list.slice(0, 50).map((x) => (x && typeof x === "object" ? { text: text(x.text), title: text(x.title), url: text(x.url) } : { text: text(x), title: "", url: "" }));
}

export function text(value) {
  return typeof value === "string" ? value.slice(0, 500) : value === undefined || value === null ? "" : String(value).slice(0, 500);
}

/** The JSON text a fight is exported as (and read back by `parseImport`). */
export function exportText(state) {
  return JSON.stringify(state, null, 2);
}

/** A file's text → {state} or {error} (bad JSON included). */
export function parseImport(textIn, declaration, system) {
  let raw;
  try {
    raw = JSON.parse(textIn);
  } catch (err) {
    return { error: `This file is not JSON: ${err.message}` };
  }
  return validateState(raw, declaration, system);
}

/** Apply one action: a new state, or the same object when the action changes nothing. Throws
 * a TrackerError with a sentence for the reader when the action is not allowed. */
export function reduce(state, action, declaration) {
  switch (action.type) {
    case "add": {
      const cap = maxCombatants(declaration);
      if (state.combatants.length >= cap) throw new TrackerError(`At most ${cap} combatants: as many as this system's initiative takes.`);
      let n = state.nextId;
      while (state.combatants.some((c) => c.id === `c${n}`)) n += 1;
      const checked = checkCombatant({ damage: 0, tags: [], ...action.combatant, id: `c${n}` }, declaration, "New combatant");
      if (checked.error) throw new TrackerError(checked.error);
      uniqueName(state, checked.combatant.name, null);
      return { ...state, combatants: [...state.combatants, checked.combatant], nextId: n + 1 };
    }
    case "edit": {
      const old = find(state, action.id);
      const checked = checkCombatant({ ...old, ...action.changes, id: old.id }, declaration, old.name);
      if (checked.error) throw new TrackerError(checked.error);
      uniqueName(state, checked.combatant.name, old.id);
      return withCombatant(state, checked.combatant);
    }
    case "remove": {
      find(state, action.id);
      const before = state.order.slice(0, state.turn).filter((t) => t.id === action.id).length;
      const order = state.order.filter((t) => t.id !== action.id);
      return { ...state, combatants: state.combatants.filter((c) => c.id !== action.id), order, turn: Math.min(state.turn - before, order.length) };
    }
    case "damage":
    case "heal": {
      const c = find(state, action.id);
      const amount = action.amount;
      if (!Number.isInteger(amount) || amount < 1 || amount > HEALTH_MAX) throw new TrackerError(`The amount must be a whole number from 1 to ${HEALTH_MAX}.`);
      // Damage stops at the lowest hit points the rules name (0 where they name none below it).
      const damage = action.type === "damage" ? Math.max(c.damage, Math.min(c.damage + amount, c.max - healthFloor(declaration))) : Math.max(0, c.damage - amount);
      if (Math.abs(damage) > HEALTH_MAX) throw new TrackerError("That is more than the tracker counts.");
      if (action.type === "damage" && damage === c.damage) throw new TrackerError(`${c.name} is at ${c.max - c.damage} hit points already: the lowest the rules count.`);
      return damage === c.damage ? state : withCombatant(state, { ...c, damage });
    }
    case "tag": {
      const c = find(state, action.id);
      const tag = String(action.tag ?? "").trim();
      if (!tag) throw new TrackerError("Type a condition first.");
      if (tag.length > TAG_MAX) throw new TrackerError(`A condition has at most ${TAG_MAX} characters.`);
      if (c.tags.includes(tag)) return state;
      if (c.tags.length >= MAX_TAGS) throw new TrackerError(`At most ${MAX_TAGS} conditions per combatant.`);
      return withCombatant(state, { ...c, tags: [...c.tags, tag] });
    }
    case "untag": {
      const c = find(state, action.id);
      return c.tags.includes(action.tag) ? withCombatant(state, { ...c, tags: c.tags.filter((t) => t !== action.tag) }) : state;
    }
    case "option": {
      const field = rulingFields(declaration).find((f) => f.name === action.name);
      if (!field) throw new TrackerError(`No ruling ${action.name} here.`);
      const checked = checkField(field, action.value);
      if (checked.error) throw new TrackerError(checked.error);
      const old = rulingValues(state, declaration)[field.name];
      if (checked.value === old) return state;
      const options = { ...(state.options || {}) };
      if (checked.value === fieldDefault(field)) delete options[field.name];
      else options[field.name] = checked.value;
      return { ...state, options };
    }
    case "next":
      return state.turn < state.order.length ? { ...state, turn: state.turn + 1 } : state;
    case "previous":
      return state.turn > 0 ? { ...state, turn: state.turn - 1 } : state;
    case "startRound": {
      const ids = new Set(state.combatants.map((c) => c.id));
      const order = (action.turns || []).filter((t) => ids.has(t.id)).map((t) => ({ id: t.id, when: text(t.when), why: steps(t.why) }));
      return { ...state, round: state.round + 1, turn: 0, order, notes: steps(action.notes), rolls: { ...(action.rolls || {}) } };
    }
    case "replace":
      return action.state;
    case "clear":
      return action.keepCombatants
        ? { ...emptyState(state.system), combatants: state.combatants.map((c) => ({ ...c, damage: 0, tags: [] })), nextId: state.nextId, options: state.options || {} }
        : emptyState(state.system);
    default:
      throw new TrackerError(`Unknown action ${action.type}.`);
  }
}

export class TrackerError extends Error {}

function find(state, id) {
  const c = state.combatants.find((x) => x.id === id);
  if (!c) throw new TrackerError("That combatant is no longer in the fight.");
  return c;
}

function uniqueName(state, name, exceptId) {
  if (state.combatants.some((c) => c.id !== exceptId && c.name.toLowerCase() === name.toLowerCase())) {
    throw new TrackerError(`There is already a combatant called ${name}.`);
  }
}

function withCombatant(state, combatant) {
  return { ...state, combatants: state.combatants.map((c) => (c.id === combatant.id ? combatant : c)) };
}

/** A history around `present`. */
export function history(present) {
  return { past: [], present, future: [] };
}

/** `h` after `action` (a change goes on the undo stack; no change leaves `h` as it is). */
export function apply(h, action, declaration) {
  const next = reduce(h.present, action, declaration);
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo(h) {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h) {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}

/** A stored history (localStorage text) → a history, or null when it is missing or unusable
 * (then the page starts an empty fight and says why). Every state in it is validated. */
export function loadHistory(textIn, declaration, system) {
  if (!textIn) return null;
  let raw;
  try {
    raw = JSON.parse(textIn);
  } catch {
    return null;
  }
  const check = (s) => validateState(s, declaration, system).state || null;
  const present = raw && check(raw.present);
  if (!present) return null;
  const list = (xs) => (Array.isArray(xs) ? xs.map(check).filter(Boolean).slice(-HISTORY_LIMIT) : []);
  return { past: list(raw.past), present, future: list(raw.future) };
}

/** The combatant whose turn it is, or null (no round yet, or the round is over). */
export function current(state) {
  const turn = state.order[state.turn];
  return turn ? state.combatants.find((c) => c.id === turn.id) || null : null;
}

/** What the engine receives for a combatant: id, name, side and the declared fields. */
export function engineCombatant(c) {
  return { id: c.id, name: c.name, side: c.side, ...c.values };
}

/** The URL query that opens `calculator` (hit, round) with a combatant's values filled in: each
 * defense or status the data declares (`fills: true` fields, e.g. Armor Class) under the input of the same
 * name, and the hit points left under the declared health input, when that calculator has them.
 * Values, never names (a shared link stays meaningful without this tracker). */
export function calculatorQuery(c, declaration, calculator) {
  const link = declaration?.links?.[calculator];
  if (!link) return null;
  const inputs = new Set(link.inputs || []);
  const params = new URLSearchParams();
  for (const field of trackerFields(declaration)) {
    if (field.fills && inputs.has(field.name) && c.values[field.name] !== undefined) params.set(field.name, String(c.values[field.name]));
  }
  const health = declaration.health?.input;
  if (health && inputs.has(health)) {
    const { min = 1, max = HEALTH_MAX } = declaration.health;
    params.set(health, String(Math.max(min, Math.min(max, c.max - c.damage))));
  }
  return params.toString();
}
