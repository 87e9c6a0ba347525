// The round's order and the combatants' cards, drawn from the engine's view. On a phone a card is
// one short block (name, hit points and state, the damage and healing controls, this round's
// declaration where the rules ask one, its conditions)
// that opens on tap for the rest (what the rules say of its state, Wounds, values, a condition
// to add, the calculators, Edit and Remove). Each entry of the order shows hit points and state
// and leads to its card; one the rules pass over stays listed, marked. Cards follow the round's
// order, so the one acting now and the next sit together.
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { trackerQuery } from "../calculator/from-tracker.mjs";
import { fighterBlock } from "./odds.mjs";
import { calculatorQuery, steps } from "./state.mjs";
import { button, shownValue, SIDE_LABEL, SITE_ROOT, stateBadge, stepItem } from "./ui.mjs";

/** The view's combatants in the order of this round (first appearance), then the others. */
export function cardOrder(v) {
  const rank = new Map();
  v.order.forEach((t, i) => rank.has(t.id) || rank.set(t.id, i));
  return [...v.combatants].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}

export class Cards {
  constructor(tk) {
    this.tk = tk;
    this.openIds = new Set(); // cards opened by the reader (kept across renders)
    this.orderList = el("ol", { class: "cc-tk-order", "aria-label": "Order of this round" });
    this.list = el("ul", { class: "cc-tk-combatants" });
    this.tagList = el("datalist", { id: uid("tk-tags") });
  }

  /** Draw view `v`; the order's reasons (`why`) are the state's (`state.order[i].why`). */
  render(v, state) {
    const health = this.tk.decl.health.label;
    const reasons = state?.order || [];
    replace(
      this.orderList,
      v.order.map((t, i) => {
        const go = button("", () => this.goTo(t.id), {
          class: "cc-tk-slotbtn",
          "aria-label": `${t.name}: ${t.hp} of ${t.max} ${health}${t.state ? `, ${t.state}` : ""}${t.acts ? "" : ", passed over"}${t.simultaneous ? ", at the same time as the one before" : t.tied ? ", tied" : ""} — show the card`,
        });
        replace(
          go,
          el("span", { class: "cc-tk-pos" }, `${t.position}.`),
          el("span", { class: "cc-tk-when" }, t.when),
          " ",
          el("strong", {}, t.name),
          " ",
          el("span", { class: "cc-tk-side" }, SIDE_LABEL[t.side]),
          " ",
          el("span", { class: "cc-tk-slothp" }, `${t.hp}/${t.max}`),
          t.state ? [" ", el("span", { class: "cc-tk-state" }, t.state)] : null,
          t.simultaneous || t.tied ? el("span", { class: "cc-tk-tie" }, t.simultaneous ? " same time" : " tied") : null,
        );
        const why = steps(reasons[i]?.id === t.id ? reasons[i].why : t.why);
        return el(
          "li",
          { class: `cc-tk-slot cc-tk-${t.side}${t.acts ? "" : " cc-tk-passed"}${t.done ? " cc-tk-done" : ""}`, "aria-current": t.current ? "step" : null, "data-cc-id": t.id, "data-cc-state": t.state || "" },
          go,
          why.length ? el("details", { class: "cc-tk-why" }, el("summary", {}, "Why"), el("ul", {}, why.map(stepItem))) : null,
        );
      }),
    );
    const used = [...new Set(v.combatants.flatMap((c) => c.tags || []))];
    replace(this.tagList, used.map((t) => el("option", { value: t })));
    replace(
      this.list,
      cardOrder(v).map((c) => this.card(c, v)),
    );
  }

  /** Open a combatant's card and bring it into view (from its entry in the order). */
  goTo(id) {
    this.openIds.add(id);
    this.tk.render();
    const card = this.card$(id);
    card?.scrollIntoView({ block: "start" });
    card?.querySelector(".cc-tk-toggle")?.focus({ preventScroll: true });
  }

  /** The acting combatant's card at a turn's start: its head at the top of the scrolling box and,
   * if the card runs past the bar, its odds and Resolve brought up (their end at the box's end). */
  showActing(id) {
    const card = this.card$(id);
    if (!card) return;
    card.scrollIntoView({ block: "start" });
    const odds = card.querySelector(".cc-tk-odds");
    const bar = this.tk.bar?.getBoundingClientRect();
    if (odds && bar && odds.getBoundingClientRect().bottom > bar.top) odds.scrollIntoView({ block: "end" });
  }

  card$(id) {
    return this.list.querySelector(`[data-cc-id="${CSS.escape(id)}"]`);
  }

  card(c, v) {
    const tk = this.tk;
    const isOpen = this.openIds.has(c.id);
    const amount = el("input", {
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      class: "cc-tk-amount",
      "aria-label": `Amount of damage or healing for ${c.name}`,
      "data-tk-focus": `amount-${c.id}`,
      placeholder: "±",
      size: 4,
    });
    const hurt = (type, extra = {}) => () => {
      const n = /^\s*\d+\s*$/.test(amount.value) ? Number(amount.value) : NaN;
      if (!Number.isInteger(n) || n < 1) {
        amount.focus();
        return tk.say(`Type an amount for ${c.name} first (a whole number from 1).`, true);
      }
      tk.act({ type, id: c.id, amount: n, ...extra }, type === "damage" ? `${c.name} takes ${n}.` : `${c.name} heals ${n}.`);
    };
    amount.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        hurt(e.shiftKey ? "heal" : "damage")();
      }
    });
    const isNow = v.current === c.id;
    const bodyId = uid("tk-body");
    const toggle = button(
      "",
      () => {
        if (this.openIds.has(c.id)) this.openIds.delete(c.id);
        else this.openIds.add(c.id);
        tk.render();
      },
      { class: "cc-tk-toggle", "aria-expanded": isOpen ? "true" : "false", "aria-controls": bodyId, "data-tk-focus": `toggle-${c.id}` },
    );
    replace(toggle, c.name, " ", el("span", { class: "cc-tk-side" }, SIDE_LABEL[c.side]), isNow ? el("span", { class: "cc-tk-nowtag" }, " — acting now") : v.next === c.id ? el("span", { class: "cc-tk-nowtag" }, " — next") : null);
    const tags = (c.tags || []).map((t) =>
      el("li", {}, el("span", {}, t), button("×", () => tk.act({ type: "untag", id: c.id, tag: t }, `${c.name}: ${t} removed.`), { "aria-label": `Remove ${t} from ${c.name}`, class: "cc-tk-x" })),
    );
    // the acting combatant's target (odds.mjs): one tap on another card makes it the target
    const aimed = tk.odds?.targetOfView(v);
    const card = el(
      "li",
      {
        class: `cc-tk-card cc-tk-${c.side}${c.acts === false ? " cc-tk-down" : ""}${aimed === c.id ? " cc-tk-aimed" : ""}`,
        "data-cc-id": c.id,
        "data-cc-state": c.state || "",
        "aria-current": isNow ? "true" : null,
      },
      el(
        "div",
        { class: "cc-tk-head" },
        el("h3", {}, toggle),
        c.declaration?.length ? this.declaration(c) : null,
        el(
          "p",
          { class: "cc-tk-health" },
          el("span", { class: "cc-visually-hidden" }, `${tk.decl.health.label}: `),
          el("strong", { class: "cc-tk-left" }, String(c.hp)),
          el("span", { class: "cc-tk-of" }, `/${c.max}`),
          c.state ? [" ", stateBadge(c)] : null,
        ),
      ),
      el(
        "div",
        { class: "cc-tk-row cc-tk-hurt" },
        amount,
        button("Damage", hurt("damage"), { "data-tk-focus": `damage-${c.id}`, "aria-label": `Damage ${c.name}` }),
        button("Heal", hurt("heal"), { "data-tk-focus": `heal-${c.id}`, "aria-label": `Heal ${c.name}` }),
        c.state === "Dying" ? button("Stabilize", () => tk.act({ type: "stabilize", id: c.id }, `${c.name} is stabilized.`), { "aria-label": `Stabilize ${c.name}` }) : null,
        // where the rules name a Fled state (Python's `fled`): the GM marks a flight, and brings it back
        c.fled === true ? button("Return", () => tk.act({ type: "return", id: c.id }, `${c.name} is back in the fight.`), { "aria-label": `Bring ${c.name} back` }) : null,
        c.fled === false && c.acts ? button("Flees", () => tk.act({ type: "flee", id: c.id }, `${c.name} flees.`), { "aria-label": `${c.name} flees` }) : null,
      ),
      el("ul", { class: "cc-tk-tags", "aria-label": `Conditions of ${c.name}` }, tags),
      tk.odds?.panel(c, v),
      el("div", { class: "cc-tk-body", id: bodyId, hidden: !isOpen }, isOpen ? this.details(c, hurt) : null),
    );
    if (aimed !== undefined && !isNow) {
      card.addEventListener("click", (e) => {
        if (e.target.closest("button, input, select, textarea, a, summary, label, details")) return; // its own controls
        tk.odds.pickFromCard(v, c.id);
      });
    }
    return card;
  }

  /** What an open card adds. */
  details(c, hurt) {
    const tk = this.tk;
    const decl = tk.decl;
    const tagInput = el("input", {
      type: "text",
      autocomplete: "off",
      maxlength: tk.view.limits.tag, // a card is drawn only from the engine's view
      list: this.tagList.id,
      "aria-label": `Condition for ${c.name} (e.g. Hurt)`,
      placeholder: "Condition",
      "data-tk-focus": `tag-${c.id}`,
      size: 10,
    });
    const addTag = () => tk.act({ type: "tag", id: c.id, tag: tagInput.value }, `${c.name}: ${tagInput.value.trim()}.`);
    tagInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addTag();
      }
    });
    const values = tk.fields.map((f) => `${f.card_label || f.label || f.name}: ${shownValue(f, c.values?.[f.name])}`).join(" · ");
    const links = Object.entries(decl.links || {}).map(([name, link]) => {
      const carried = c.links?.[name]; // the whole question, from Python (calc/fight/links.py)
      if (carried?.problem) return el("span", { class: "cc-tk-nolink" }, `${link.title} vs ${c.name}: ${carried.problem}.`);
      const query = carried ? trackerQuery(carried.inputs, carried.given) : calculatorQuery(c, decl, name);
      const href = siteHref(`${link.url}${query ? `?${query}` : ""}`, SITE_ROOT);
      const by = carried?.attacker ? `${carried.attacker} (acting now) against ${c.name}` : null;
      return href ? el("a", { href, class: "cc-tk-link", "data-cc-back": c.id, title: by }, `${link.title} vs ${c.name}`) : null;
    });
    const wounds = (c.wounds || []).map((w, i) =>
      el("li", {}, `${w.name}${w.severity ? ` (${w.severity})` : ""}${w.critical ? ", critical" : ""}${w.until ? ` until the end of round ${w.until}` : ""} `, button("Remove", () => tk.act({ type: "remove_wound", id: c.id, index: i }, `${c.name}: ${w.name} removed.`), { "aria-label": `Remove wound ${i + 1} from ${c.name}`, class: "md-button cc-tk-small" })),
    );
    const facts = [
      c.dying_dc ? `Dying check: d20 + Constitution against ${c.dying_dc} at the start of each round.` : null,
      c.stable ? "Stable: no dying checks." : null,
      c.reserves_note || null, // active-defense: the block or dodge reserve as it stands (Python's words)
      c.wound_limit ? `Dies with more than ${c.wound_limit} Wounds.` : null,
      c.slots ? `Wounds fill ${c.slots.used} of ${c.slots.of} free inventory slots.` : null,
    ].filter(Boolean);
    return [
      el("p", { class: "cc-tk-values" }, values),
      c.effects?.length || facts.length ? el("ul", { class: "cc-tk-effects" }, [...(c.effects || []), ...facts].map((t) => el("li", {}, t))) : null,
      wounds.length ? el("ul", { class: "cc-tk-wounds", "aria-label": `Wounds of ${c.name}` }, wounds) : null,
      c.wounds ? el("div", { class: "cc-tk-row" }, button("Damage from a natural 20", hurt("damage", { critical: true }), { "aria-label": `Critical damage to ${c.name}` })) : null,
      fighterBlock(tk, c),
      el("div", { class: "cc-tk-row" }, tagInput, button("Add condition", addTag, { "aria-label": `Add condition to ${c.name}` })),
      el("div", { class: "cc-tk-row" }, links),
      el(
        "div",
        { class: "cc-tk-row" },
        button("Edit", () => tk.form.edit(c), { "data-tk-focus": `edit-${c.id}`, "aria-label": `Edit ${c.name}` }),
        button("Remove", () => tk.act({ type: "remove", id: c.id }, `${c.name} removed (Undo brings them back).`), { "aria-label": `Remove ${c.name}` }),
      ),
    ];
  }

  /** This round's declaration, on the card itself (phases, segments): the fields the engine's
   * view offers, each holding last round's value until changed; a change is one `declare`. */
  declaration(c) {
    const tk = this.tk;
    const send = (f, value, said) => tk.act({ type: "declare", id: c.id, declaration: { [f.name]: value } }, `${c.name}: ${said}.`);
    const focus = (f) => `declare-${f.name}-${c.id}`;
    const controls = c.declaration.map((f) => {
      const label = f.card_label || f.label || f.name;
      if (f.type === "boolean") {
        const box = el("input", { type: "checkbox", id: uid("tk-decl"), checked: Boolean(f.value), "data-tk-focus": focus(f) });
        box.addEventListener("change", () => send(f, box.checked, box.checked ? label : `not ${label}`));
        return el("label", { for: box.id }, box, ` ${label}`);
      }
      if (f.type === "choice") {
        // the label without its parenthesis ("Fast action (parley, flee…)"): the card is narrow
        const options = f.options.map((o) => el("option", { value: o.value, selected: o.value === f.value, title: o.label }, o.label.replace(/\s*\(.*\)$/, "")));
        const select = el("select", { "aria-label": `${label} of ${c.name} this round`, "data-tk-focus": focus(f) }, options);
        select.addEventListener("change", () => send(f, select.value, select.selectedOptions[0]?.textContent ?? select.value));
        return select;
      }
      const input = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", size: 2, value: String(f.value), "aria-label": `${label} of ${c.name}`, title: label, "data-tk-focus": focus(f) });
      input.addEventListener("change", () => send(f, input.value, `${label} ${input.value}`));
      return input;
    });
    // in the card's head, between its name and its hit points: a card stays one short block
    return el("span", { class: "cc-tk-declare", role: "group", "aria-label": `${c.name}'s declaration this round` }, controls);
  }
}
