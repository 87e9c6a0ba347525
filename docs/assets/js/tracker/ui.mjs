// Small DOM helpers the tracker's parts share: buttons, labelled fields built from the data's
// declarations, a reason with its rule link, a health state's badge. No user text is ever parsed
// as HTML: every node is built with dom.mjs `el()`.
import { el, siteHref, uid } from "../shared/dom.mjs";
import { percent } from "../calculator/calc-results.mjs";
import { typed } from "./state.mjs";

export const SITE_ROOT = new URL("../../../", import.meta.url);
export const SIDE_LABEL = { pc: "PC", foe: "Foe" };

/** A figure as the answer formats it: a chance as a percentage, a number as it is; its exact
 * fraction one tap away (a fight's fractions run to hundreds of digits: inline, they would fill a
 * phone's screen). `plain`: a number, not a chance (never: "cannot"). */
export function figure(p, plain = false) {
  if (!p) return el("span", { class: "cc-tk-fig" }, "never");
  const shown = plain ? String(Number(p.float.toFixed(2))) : percent(p);
  return el("details", { class: "cc-tk-exact" }, el("summary", { class: "cc-tk-fig" }, shown), el("span", { class: "cc-frac", "data-fraction": p.fraction }, p.fraction));
}

export function button(text, onClick, attrs = {}) {
  const b = el("button", { type: "button", class: "md-button", ...attrs }, text);
  b.addEventListener("click", onClick);
  return b;
}

export function labelled(text, input, help = null) {
  const helpNode = help ? el("small", { id: uid("tk-help"), class: "cc-tk-fieldhelp" }, help) : null;
  if (helpNode) input.setAttribute("aria-describedby", helpNode.id);
  return el("div", { class: "cc-tk-field" }, el("label", { for: input.id }, text), input, helpNode);
}

/** An input for a declared field, showing its declared default (none: empty; the engine says
 * what it needs). */
export function fieldInput(f) {
  const id = uid(`tk-${f.name}`);
  if (f.type === "choice") return el("select", { id }, (f.options || []).map((o) => el("option", { value: o.value, selected: o.value === f.default }, o.label)));
  if (f.type === "boolean") return el("input", { id, type: "checkbox", checked: f.default === true });
  if (f.type === "integer") return el("input", { id, type: "text", inputmode: "numeric", autocomplete: "off", value: f.default ?? "", size: 5 });
  return el("input", { id, type: "text", autocomplete: "off", maxlength: f.max_length ?? null, value: f.default ?? "" });
}

export function setFieldInput(input, f, value) {
  if (f.type === "boolean") input.checked = Boolean(value);
  else input.value = String(value ?? "");
}

export function readFieldInput(input, f) {
  if (f.type === "boolean") return input.checked;
  if (f.type === "integer") return typed(input.value.trim());
  return input.value;
}

export function shownValue(f, v) {
  if (f.type === "choice") return f.options?.find((o) => o.value === v)?.label ?? String(v);
  if (f.type === "boolean") return v ? "yes" : "no";
  if (f.type === "integer") return v > 0 && /bonus|modifier/i.test(f.label || "") ? `+${v}` : String(v);
  return v === "" ? "—" : String(v);
}

/** One reason of the engine: its text, and its rule as a same-origin link. */
export function stepItem(step) {
  const href = step.url ? siteHref(step.url, SITE_ROOT) : null;
  return el("li", {}, step.text, href && step.title ? [" (", el("a", { href }, step.title), ")"] : null);
}

/** A health state the rules name (a view combatant's `state`), linked to its rule (same origin
 * only); null when unhurt. */
export function stateBadge(c) {
  if (!c.state) return null;
  const href = c.state_url ? siteHref(c.state_url, SITE_ROOT) : null;
  return el("span", { class: "cc-tk-state" }, href ? el("a", { href, title: c.state_title || c.state }, c.state) : c.state);
}

export function engineProblem(error) {
  return error.input ? `${error.input}: ${error.message}` : error.message;
}

/** Text that names a keyboard shortcut: hidden on touch screens (tracker.css). */
export function keys(text) {
  return el("span", { class: "cc-tk-keys" }, text);
}

/** Run `fn` once the page has loaded and the browser is idle (Python's start is heavy work). */
export function whenIdle(fn) {
  const idle = () => (window.requestIdleCallback ? requestIdleCallback(() => fn(), { timeout: 5000 }) : setTimeout(fn, 1000));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}

/** Offer `text` as a file download named `name`. */
export function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
