// One tracker field's meaning in the browser: its default, its check, and the dice a round asks
// for (parse, check a typed roll, roll with a given random source). Pure functions, unit-tested
// under `node --test` (tests/js/tracker-state.test.mjs) through tracker/state.mjs, which
// re-exports them.

export const NAME_MAX = 40;

/** A field's default value, as the declaration gives it (or the type's neutral one). */
export function fieldDefault(field) {
  if (field.default !== undefined) return field.default;
  if (field.type === "integer") return Math.max(field.min ?? 0, Math.min(field.max ?? 0, 0));
  if (field.type === "boolean") return false;
  if (field.type === "choice") return field.options?.[0]?.value ?? "";
  return "";
}

/** The declared fields a combatant carries (the declaration's `fields`). */
export function trackerFields(declaration) {
  return Array.isArray(declaration?.fields) ? declaration.fields : [];
}

/** The initiative rulings the page offers (the declaration's `rulings`). */
export function rulingFields(declaration) {
  return Array.isArray(declaration?.rulings) ? declaration.rulings : [];
}

/** Whether a ruling input applies under `values` (its `when`: other inputs' values). */
export function applies(field, values) {
  return Object.entries(field.when || {}).every(([k, v]) => values[k] === v);
}


/** One field's value checked against its declaration: {value} or {error}. Text from a form or
 * a file alike; integers may arrive as text. */
export function checkField(field, raw) {
  const label = field.label || field.name;
  if (field.type === "integer") {
    const n = typeof raw === "number" ? raw : /^\s*[-+]?\d+\s*$/.test(String(raw ?? "")) ? Number(raw) : NaN;
    if (!Number.isInteger(n)) return { error: `${label}: a whole number is needed (got ${shown(raw)})` };
    if (field.min !== undefined && n < field.min) return { error: `${label}: at least ${field.min} (got ${n})` };
    if (field.max !== undefined && n > field.max) return { error: `${label}: at most ${field.max} (got ${n})` };
    return { value: n };
  }
  if (field.type === "boolean") {
    if (typeof raw !== "boolean") return { error: `${label}: true or false (got ${shown(raw)})` };
    return { value: raw };
  }
  if (field.type === "choice") {
    const values = (field.options || []).map((o) => o.value);
    if (!values.includes(raw)) return { error: `${label}: one of ${values.join(", ")} (got ${shown(raw)})` };
    return { value: raw };
  }
  if (typeof raw !== "string") return { error: `${label}: text (got ${shown(raw)})` };
  const max = field.max_length ?? NAME_MAX;
  if (raw.length > max) return { error: `${label}: at most ${max} characters` };
  return { value: raw };
}

export function shown(raw) {
  if (raw === undefined) return "nothing";
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 30 ? `${text.slice(0, 27)}…` : text;
}


/** Dice text such as "d6", "1d20", "2d6" → {count, sides}, or null. */
export function parseDice(dice) {
  const m = /^\s*(\d*)\s*d\s*(\d+)\s*$/i.exec(String(dice ?? ""));
  if (!m) return null;
  const count = m[1] ? Number(m[1]) : 1;
  const sides = Number(m[2]);
  return count >= 1 && count <= 100 && sides >= 1 && sides <= 1000 ? { count, sides } : null;
}

/** A typed roll checked against its dice: {value} or {error}. */
export function checkRoll(dice, typed, label = "roll") {
  const d = parseDice(dice);
  const n = /^\s*\d+\s*$/.test(String(typed ?? "")) ? Number(typed) : NaN;
  if (!d) return Number.isInteger(n) ? { value: n } : { error: `${label}: a whole number is needed` };
  if (!Number.isInteger(n) || n < d.count || n > d.count * d.sides) return { error: `${label}: ${dice} gives ${d.count} to ${d.count * d.sides}` };
  return { value: n };
}

/** Roll `dice` with `uint32()` a source of uniform 32-bit integers (crypto in the page; a
 * fixed list in tests). Rejection sampling: every face equally likely. */
export function rollDice(dice, uint32) {
  const d = parseDice(dice);
  if (!d) throw new RangeError(`Cannot roll ${dice}.`);
  const limit = Math.floor(2 ** 32 / d.sides) * d.sides;
  let total = 0;
  for (let i = 0; i < d.count; i++) {
    let x = uint32();
    while (x >= limit) x = uint32();
    total += (x % d.sides) + 1;
  }
  return total;
}
