// Reading a stored fight that may not be readable whole (an edited file, a value the data no
// longer declares, `die: "d12"` on one combatant): what can be read loads, and every part that
// could not is named, so the page can say so and keep the original aside (store.mjs). A strict
// reader (state.mjs `validateState`, for imports) refuses a whole file for one bad value; this
// one keeps the rest. Pure; unit-tested in tests/js/tracker-store.test.mjs.
import { checkField, fieldDefault, rulingFields, trackerFields } from "./fields.mjs";
import { checkCombatant, FORMAT, HISTORY_LIMIT, maxCombatants, steps, text, validateState, validId, VERSION } from "./state.mjs";

/** A stored text → {history (null when nothing could be read), dropped: [sentence], whole}. */
export function readStored(textIn, declaration, system) {
  let raw;
  try {
    raw = JSON.parse(textIn);
  } catch (err) {
    return { history: null, dropped: [`the saved text is not JSON (${err.message})`], whole: false };
  }
  const presentRaw = raw && typeof raw === "object" && "present" in raw ? raw.present : raw;
  const got = salvageState(presentRaw, declaration, system);
  if (!got.state) return { history: null, dropped: got.dropped, whole: false };
  const dropped = [...got.dropped];
  const list = (xs, name) => {
    if (!Array.isArray(xs)) return [];
    const good = xs.map((s) => validateState(s, declaration, system).state || null);
    const bad = good.filter((s) => !s).length;
    if (bad) dropped.push(`${bad} ${name} step${bad > 1 ? "s" : ""} could not be read and ${bad > 1 ? "were" : "was"} left out`);
    return good.filter(Boolean).slice(-HISTORY_LIMIT);
  };
  const history = { past: list(raw?.past, "undo"), present: got.state, future: list(raw?.future, "redo") };
  return { history, dropped, whole: !dropped.length };
}

/** One state read leniently: {state, dropped} or {state: null, dropped} when it is no fight of
 * this system at all. */
export function salvageState(raw, declaration, system) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { state: null, dropped: ["the saved fight is not an object"] };
  if (raw.format !== FORMAT || raw.version !== VERSION) return { state: null, dropped: [`the saved fight has format ${text(raw.format)} version ${text(raw.version)}`] };
  if (raw.system !== system) return { state: null, dropped: [`the saved fight is for ${text(raw.system)}`] };
  const dropped = [];
  const combatants = [];
  const ids = new Set();
  const names = new Set();
  const cap = maxCombatants(declaration);
  const given = Array.isArray(raw.combatants) ? raw.combatants : [];
  if (!Array.isArray(raw.combatants)) dropped.push("the list of combatants");
  for (const [i, c] of given.entries()) {
    const who = c && typeof c === "object" && typeof c.name === "string" && c.name.trim() ? c.name.trim() : `combatant ${i + 1}`;
    if (combatants.length >= cap) {
      dropped.push(`${who}: more than ${cap} combatants (this system's initiative takes ${cap})`);
      continue;
    }
    const mended = mendFields(c, declaration, who, dropped);
    const checked = checkCombatant(mended, declaration, `combatant ${i + 1}`);
    if (checked.error) {
      dropped.push(`${who} was left out: ${checked.error}`);
      continue;
    }
    const { id, name } = checked.combatant;
    if (!validId(id) || ids.has(id) || names.has(name.toLowerCase())) {
      dropped.push(`${who} was left out: its id or name is used twice`);
      continue;
    }
    ids.add(id);
    names.add(name.toLowerCase());
    combatants.push(checked.combatant);
  }
  const round = wholeNumber(raw.round);
  const orderRaw = Array.isArray(raw.order) ? raw.order.slice(0, 200) : [];
  const order = orderRaw.filter((t) => t && typeof t === "object" && ids.has(t.id)).map((t) => ({ id: t.id, when: text(t.when), why: steps(t.why) }));
  if (round === null) dropped.push("the round number (the fight restarts at round 0)");
  if (order.length < orderRaw.length) dropped.push(`${orderRaw.length - order.length} turns of this round's order (their combatants were left out)`);
  const turn = Math.min(wholeNumber(raw.turn) ?? 0, order.length);
  const rolls = {};
  if (raw.rolls && typeof raw.rolls === "object" && !Array.isArray(raw.rolls)) {
    for (const [k, v] of Object.entries(raw.rolls)) if (Number.isInteger(v)) rolls[k] = v;
  }
  const options = {};
  const rulings = rulingFields(declaration);
  for (const [key, value] of Object.entries(raw.options && typeof raw.options === "object" ? raw.options : {})) {
    const field = rulings.find((f) => f.name === key);
    const checked = field ? checkField(field, value) : { error: `no ruling "${key}" here` };
    if (checked.error) dropped.push(`the ruling ${field?.label || key}: ${checked.error} (its default applies)`);
    else if (checked.value !== fieldDefault(field)) options[key] = checked.value;
  }
  const ok = round !== null;
  const nextId = Number.isInteger(raw.nextId) && raw.nextId > 0 ? raw.nextId : 1;
  return {
    state: { format: FORMAT, version: VERSION, system, round: ok ? round : 0, turn: ok ? turn : 0, order: ok ? order : [], notes: ok ? steps(raw.notes) : [], rolls, combatants, nextId, options },
    dropped,
  };
}

/** A combatant whose declared fields do not all fit: each bad one set to its declared default,
 * and named (the reader checks it with Edit); the rest of the combatant is kept as it was. */
function mendFields(c, declaration, who, dropped) {
  if (!c || typeof c !== "object" || !c.values || typeof c.values !== "object" || Array.isArray(c.values)) return c;
  const values = { ...c.values };
  for (const field of trackerFields(declaration)) {
    if (!(field.name in values)) continue;
    const checked = checkField(field, values[field.name]);
    if (!checked.error) continue;
    values[field.name] = fieldDefault(field);
    dropped.push(`${who}: ${checked.error}; set to ${JSON.stringify(values[field.name])} (check it with Edit)`);
  }
  return { ...c, values };
}

function wholeNumber(n) {
  return Number.isInteger(n) && n >= 0 && n <= 100000 ? n : null;
}
