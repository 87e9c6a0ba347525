// Words of the calculator form, derived from an input's declaration: pure functions (no DOM),
// unit-tested under `node --test` (tests/js/form-text.test.mjs).

/** The allowed range of an integer input, for its hint: "1 to 20", "0 or more". */
export function rangeHint(decl) {
  const hasMin = decl.min !== undefined && decl.min !== null;
  const hasMax = decl.max !== undefined && decl.max !== null;
  if (hasMin && hasMax) return `${decl.min} to ${decl.max}`;
  if (hasMin) return `${decl.min} or more`;
  if (hasMax) return `${decl.max} or less`;
  return "";
}

/** One entry of a list input, from its label: "Combatants" → "Combatant". */
export function singular(label) {
  return label.endsWith("s") ? label.slice(0, -1) : label;
}

/** The text with a capital first letter. */
export function capitalise(text) {
  const s = String(text);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Text quoted back to the reader (e.g. from a link), cut to 40 characters. */
export function shorten(text) {
  const s = String(text);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}
