// A calculator opened from the encounter tracker (a card's "Hit chance vs X" link): the link's
// query carries the whole question (the acting attacker's inputs, the target's, its current hit
// points and state, built in Python: calc/fight/links.py) and `from=tracker`, which names the
// inputs that came from the fight. Pure functions (no DOM, no `location`), unit-tested under
// `node --test` (tests/js/from-tracker.test.mjs); calculators.mjs shows the notice as text.

/** The query parameter that marks a link from the tracker; its value lists the inputs the fight
 * gave (comma-separated names; the others are the calculator's defaults). */
export const FROM_PARAM = "from";
export const FROM_TRACKER = "tracker";

/** The names of the inputs a tracker link gave, in the declaration's order, or null when the URL
 * is not a link from the tracker. `params`: input name → text, as readParams read them. */
export function trackerInputs(declaration, params, search) {
  const query = new URLSearchParams(search);
  const from = query.get(FROM_PARAM);
  if (from === null || from.split(":")[0] !== FROM_TRACKER) return null;
  const listed = new Set((from.split(":")[1] || "").split(",").filter(Boolean));
  return declaration.inputs.map((d) => d.name).filter((name) => Object.hasOwn(params, name) && (!listed.size || listed.has(name)));
}

/** The text the page shows of a value from the URL: a choice by its label, a boolean as yes/no. */
export function shownText(decl, text) {
  if (decl.type === "choice") return decl.options?.find((o) => String(o.value) === text)?.label ?? text;
  if (decl.type === "boolean") return text === "true" || text === "1" ? "yes" : "no";
  if (decl.type === "list") {
    try {
      const items = JSON.parse(text);
      return Array.isArray(items) ? `${items.length} ${items.length === 1 ? "entry" : "entries"}` : text;
    } catch {
      return text;
    }
  }
  return text.replace(/^-(?=\d)/, "−"); // a true minus sign, as the engine writes numbers
}

/** The notice's sentence: "From the encounter tracker: To-hit bonus 5 · Target's hit points −1 ·
 * Target A player character." (labels and values, never markup), or null. */
export function trackerNotice(declaration, params, search) {
  const names = trackerInputs(declaration, params, search);
  if (!names?.length) return null;
  const byName = new Map(declaration.inputs.map((d) => [d.name, d]));
  const parts = names.map((name) => `${byName.get(name).label || name} ${shownText(byName.get(name), params[name])}`);
  return `From the encounter tracker: ${parts.join(" · ")}. The other inputs are this calculator's defaults.`;
}

/** The query a tracker card's link carries: every input (name → value as the view holds it:
 * numbers, booleans, text, lists) as URL text, and `from=tracker:<names>` naming those the fight
 * gave (`given`). */
export function trackerQuery(inputs, given) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(inputs || {})) params.set(name, asText(value));
  params.set(FROM_PARAM, `${FROM_TRACKER}:${(given || []).join(",")}`);
  return params.toString();
}

function asText(value) {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}
