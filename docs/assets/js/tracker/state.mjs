// The encounter tracker's history and the little the page derives from the engine's answers, as
// pure functions (no DOM, no storage), unit-tested under `node --test`
// (tests/js/tracker-state.test.mjs). The fight itself — its state, what every action does, health
// states, who acts, the order, what a field accepts — is Python's (`calc.fight`, asked through
// the worker: engine.mjs); the page keeps a stack of the states the engine returned, so Undo and
// Redo are the browser's, and shows the engine's view of the present one.

export const HISTORY_LIMIT = 100;

/** A history around `present` (a state as `calc.fight` returned it, or null: no fight yet). */
export function history(present) {
  return { past: [], present, future: [] };
}

/** Two states alike (the engine returns an equal state when an action changes nothing). */
export function sameState(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `h` with `next` as its present: the old one goes on the undo stack, the redo stack empties.
 * The same state again leaves `h` as it is. */
export function push(h, next) {
  if (sameState(h.present, next)) return h;
  return { past: [...h.past, h.present].filter(Boolean).slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo(h) {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h) {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}

/** The stored text of a history and the view of its present (shown at once on the next visit,
 * before Python is up). */
export function storedText(h, view) {
  return JSON.stringify({ past: h.past, present: h.present, future: h.future, view });
}

/** Stored text → {past, present, future, view} as stored (present null when there is none), or
 * null when the text is not JSON of that shape. The engine reads `present` (leniently, `load`). */
export function parseStored(text) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const list = (xs) => (Array.isArray(xs) ? xs.filter((x) => x && typeof x === "object").slice(-HISTORY_LIMIT) : []);
  const view = raw.view && typeof raw.view === "object" && Array.isArray(raw.view.combatants) ? raw.view : null;
  return { past: list(raw.past), present: raw.present ?? null, future: list(raw.future), view };
}

/** What the engine's `load` could not read ([{input, message}]) as sentences naming the
 * combatant (`combatants[2]…` → its name in the raw state) where it can. */
export function droppedText(dropped, raw) {
  return (dropped || []).map((d) => {
    const m = /^combatants\[(\d+)\]/.exec(d.input || "");
    const who = m ? raw?.combatants?.[Number(m[1]) - 1]?.name : null;
    return `${typeof who === "string" ? `${who} (${d.input})` : d.input}: ${d.message}`;
  });
}

/** The engine's reasons (`[{rule, title, url, text}]`, or plain text) as `[{text, title, url}]`
 * of plain strings: shown as text, the url only as a same-origin link (ui.mjs checks). */
export function steps(value) {
  const list = Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value];
  return list.slice(0, 50).map((x) => (x && typeof x === "object" ? { text: text(x.text), title: text(x.title), url: text(x.url) } : { text: text(x), title: "", url: "" }));
}

function text(value) {
  return typeof value === "string" ? value.slice(0, 500) : value === undefined || value === null ? "" : String(value).slice(0, 500);
}

/** A whole number typed as text becomes a number; anything else is sent as typed, for the engine
 * to refuse naming the field. */
export function typed(value) {
  return typeof value === "string" && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : value;
}

/** A saved preset (presets/store.mjs: {name, values: {input: text}}) of `role` as what the add form
 * takes: {name, side (an attacker is a pc, a target a foe), values: {field: text} for the
 * tracker's fields and the fighter's inputs (odds.mjs) of the same input name, max (the health input's text) or null, used: [input
 * names taken]}. Nothing is checked here: the engine checks the combatant when it is added. */
export function fromPreset(preset, role, declaration) {
  const given = preset.values || {};
  const values = {};
  const used = [];
  for (const field of [...(declaration?.fields || []), ...(declaration?.fighter || [])]) {
    if (!Object.hasOwn(given, field.name) || Object.hasOwn(values, field.name)) continue;
    values[field.name] = field.type === "boolean" ? given[field.name] === "true" || given[field.name] === true : given[field.name];
    used.push(field.name);
  }
  const health = declaration?.health?.input;
  const max = health && Object.hasOwn(given, health) ? String(given[health]) : null;
  if (max !== null) used.push(health);
  return { name: String(preset.name), side: role === "attacker" ? "pc" : "foe", values, max, used };
}

/** The URL query that opens `calculator` (hit, round) with a combatant's values filled in: each
 * defense or status the data declares (`fills: true` fields, e.g. Armor Class) under the input of
 * the same name, and the hit points left under the declared health input (within that input's
 * bounds), when that calculator has them. Values, never names (a shared link stays meaningful
 * without this tracker). `c` is a combatant of the engine's view. */
export function calculatorQuery(c, declaration, calculator) {
  const link = declaration?.links?.[calculator];
  if (!link) return null;
  const inputs = new Set(link.inputs || []);
  const params = new URLSearchParams();
  for (const field of declaration.fields || []) {
    if (field.fills && inputs.has(field.name) && c.values?.[field.name] !== undefined) params.set(field.name, String(c.values[field.name]));
  }
  const health = declaration.health?.input;
  if (health && inputs.has(health) && Number.isInteger(c.hp)) {
    const { min = -Infinity, max = Infinity } = declaration.health; // its declared range, if any
    params.set(health, String(Math.max(min, Math.min(max, c.hp))));
  }
  return params.toString();
}

/** The JSON text a fight is exported as (read back by the engine's `load`). */
export function exportText(state) {
  return JSON.stringify(state, null, 2);
}
