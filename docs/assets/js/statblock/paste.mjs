// The paste box: a stat block pasted from an adventure becomes fighters. The text goes to the
// worker (`{"kind": "statblock"}`: calc/inputs/statblock.py reads it by the system's declared grammar,
// rules_data/<system>/statblock.yaml); this module only shows the answer: the pasted text with
// every recognised field highlighted and linked to its rule, the text it did not recognise named
// as notes, refused values with their reason, errors next to the box. Hit points can be rolled
// from the hit dice: the faces are drawn here with crypto.getRandomValues and sent back, so Python
// stays pure. Used by the calculators' preset picker (calculator/preset-picker.mjs) and the tracker's add
// form (tracker/setup.mjs). Every string is put in as text (dom.mjs `el`), never HTML.
import { calcWorker } from "../boot/calc-worker-client.mjs";
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { builtinPresets, matchesName } from "../presets/store.mjs";
import { fighterPreset, pieces, rollAll } from "./fighters.mjs";

export { fighterPreset };

const SITE_ROOT = new URL("../../../", import.meta.url);
const HP_LABELS = { printed: "As printed", average: "Average of the hit dice", rolled: "Rolled from the hit dice" };
const DEBOUNCE_MS = 350;

/**
 * Mount the paste box in `container`. Options: `system`; `action` (button text for n fighters);
 * `onUse(fighters, side)` (called with the answer's fighters); `sides` (offer "join as PC/foe");
 * `builtins` (the text's own creatures, to add by name with one tap, through `onUse`).
 */
export function mountStatPaste(container, { system, action = (n) => `Use ${n === 1 ? "it" : `these ${n}`}`, onUse, sides = false, builtins = null }) {
  const id = uid("cc-paste");
  const box = el("textarea", { id: `${id}-text`, class: "cc-paste-text", rows: 4, spellcheck: "false", autocomplete: "off", "aria-describedby": `${id}-error ${id}-help` });
  const hp = el("select", { id: `${id}-hp`, class: "cc-paste-hp" }, Object.entries(HP_LABELS).map(([v, label]) => el("option", { value: v }, label)));
  const side = sides ? el("select", { id: `${id}-side`, class: "cc-paste-side" }, el("option", { value: "foe" }, "Foes"), el("option", { value: "pc" }, "PCs")) : null;
  const use = el("button", { type: "button", class: "md-button md-button--primary cc-paste-use", disabled: true }, action(1));
  const error = el("p", { class: "cc-error cc-paste-error", id: `${id}-error`, role: "alert", hidden: true });
  const status = el("p", { class: "cc-paste-status", role: "status" });
  const preview = el("div", { class: "cc-paste-preview" });
  const help = el("p", { class: "cc-help", id: `${id}-help` }, "One or several creatures from an adventure, in any order (AC 5, HD 4+4, hp 20…); a blank line between creatures.");
  const part = el(
    "div",
    { class: "cc-paste", "data-cc-paste": system },
    el("label", { for: box.id }, "Paste a stat block"),
    box,
    help,
    el("div", { class: "cc-paste-row" }, el("label", { for: hp.id }, "Hit points"), hp, side ? el("label", { for: side.id }, "Join as") : null, side, use),
    error,
    status,
    preview,
  );
  let answer = null;
  let asked = 0;
  let timer = null;

  const fail = (message) => {
    answer = null;
    use.disabled = true;
    replace(preview);
    replace(status);
    replace(error, message);
    error.hidden = false;
    box.setAttribute("aria-invalid", "true");
  };

  async function read() {
    const text = box.value;
    const mine = ++asked;
    if (!text.trim()) {
      answer = null;
      use.disabled = true;
      error.hidden = true;
      box.removeAttribute("aria-invalid");
      replace(preview);
      replace(status);
      return;
    }
    replace(status, "Reading…");
    const worker = calcWorker();
    if (worker.status.stage === "failed") worker.restart("Retrying.");
    const request = { kind: "statblock", system, text, hp: hp.value };
    let reply = await worker.request(request, undefined, { key: `paste-${id}` });
    if (reply.result && hp.value === "rolled" && reply.result.dice_needed.length) {
      reply = await worker.request({ ...request, rolls: rollAll(reply.result.dice_needed) }, undefined, { key: `paste-${id}` });
    }
    if (mine !== asked) return; // a newer paste is being read
    if (reply.error) return reply.error.kind === "Superseded" ? undefined : fail(reply.error.message);
    answer = reply.result;
    error.hidden = true;
    box.removeAttribute("aria-invalid");
    const n = answer.fighters.length;
    replace(status, `${n} ${n === 1 ? "creature" : "creatures"} read: ${answer.fighters.map((f) => f.name).join(", ")}.`);
    replace(use, action(n));
    use.disabled = false;
    showPreview(preview, text, answer);
  }

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(read, DEBOUNCE_MS);
  };
  box.addEventListener("input", later);
  hp.addEventListener("change", read);
  use.addEventListener("click", () => {
    if (answer) onUse(answer.fighters, side?.value || null);
  });
  container.append(part);
  if (builtins?.length) container.append(builtinPicker(builtins, (fighters, chosen) => onUse(fighters, chosen ?? side?.value ?? null)));
  return { box, read, get answer() { return answer; } };
}

/** One row per pasted block: its text with the fields highlighted, then what was made of it. */
function showPreview(preview, text, answer) {
  const blocks = new Map();
  for (const f of answer.fighters) {
    const key = `${f.block.start}:${f.block.end}`;
    if (!blocks.has(key)) blocks.set(key, []);
    blocks.get(key).push(f);
  }
  const rows = [...blocks.values()].map((group) => {
    const first = group[0];
    const marked = pieces(text, first).map((p) => {
      if (!p.kind) return p.text;
      if (p.kind === "field") {
        const href = p.item.rule ? siteHref(p.item.rule.url, SITE_ROOT) : null;
        const title = `${p.item.title}: ${p.item.shown}${p.item.rule ? ` (${p.item.rule.title})` : ""}`;
        const mark = el("mark", { class: "cc-paste-field", "data-cc-field": p.item.field, title }, p.text);
        return href ? el("a", { href, class: "cc-paste-link" }, mark) : mark;
      }
      return el("span", { class: `cc-paste-${p.kind}`, title: p.kind === "note" ? "Not recognised: kept as a note" : p.item.reason }, p.text);
    });
    const facts = first.fields.map((f) => el("li", {}, `${f.title}: ${f.shown}`));
    const hps = group.map((f) => hpText(f)).filter(Boolean);
    const notes = first.notes.length ? el("p", { class: "cc-paste-notes" }, `Not recognised (kept as notes): ${first.notes.map((n) => `“${n.text}”`).join(", ")}.`) : null;
    const refused = first.rejected.map((r) => el("p", { class: "cc-error" }, `Not taken: “${r.text}” — ${r.reason}`));
    return el(
      "div",
      { class: "cc-paste-block" },
      el("p", { class: "cc-paste-name" }, group.map((f) => f.name).join(", ")),
      el("p", { class: "cc-paste-source" }, marked),
      el("ul", { class: "cc-paste-fields" }, facts, hps.map((t) => el("li", {}, t))),
      notes,
      refused,
    );
  });
  replace(preview, rows);
}

function hpText(f) {
  const hp = f.hp;
  if (hp.value == null) return null;
  if (hp.from === "rolled") return `${f.name}: ${hp.value} hit points, rolled ${hp.dice} (${hp.rolls.join(" + ")})`;
  if (hp.from === "average") return `${f.name}: ${hp.value} hit points, the average of ${hp.dice}${hp.average.includes("/") ? " rounded down" : ""}`;
  return `${f.name}: ${hp.value} hit points, as printed`;
}

/** The text's own creatures: find by name, add with one tap each. */
function builtinPicker(list, add) {
  const id = uid("cc-builtin");
  const all = [...builtinPresets(list, "target"), ...builtinPresets(list, "attacker")];
  const search = el("input", { id: `${id}-search`, type: "search", class: "cc-builtin-search", autocomplete: "off" });
  const buttons = el("div", { class: "cc-builtin-list" });
  const show = () =>
    replace(
      buttons,
      all
        .filter((p) => matchesName(p.name, search.value))
        .map((p) => {
          const b = el("button", { type: "button", class: "md-button cc-builtin-add", "data-cc-builtin": p.name }, `Add ${p.name}`);
          b.addEventListener("click", () => add([{ name: p.name, values: Object.fromEntries(Object.entries(p.values)), hp: {}, fields: [], notes: [], rejected: [] }], list.find((x) => x.name === p.name)?.role === "attacker" ? "pc" : "foe"));
          return b;
        }),
    );
  search.addEventListener("input", show);
  show();
  return el("div", { class: "cc-builtin" }, el("label", { for: search.id }, "The text's own creatures and characters: find by name"), search, buttons);
}
