// The round's order and the combatants' cards. On a phone a card is one short block (name, hit
// points and state, the damage and healing controls, its conditions) that opens on tap for the
// rest (values, a condition to add, the calculators, Edit and Remove). Each entry of the order
// shows hit points and state and leads to its card. Cards follow the round's order, so the one
// acting now and the next one sit together.
import { el, replace, siteHref, uid } from "../dom.mjs";
import { calculatorQuery, healthState, TAG_MAX } from "./state.mjs";
import { button, shownValue, SIDE_LABEL, SITE_ROOT, stateBadge, stepItem } from "./ui.mjs";

/** The combatants in the order of this round (first appearance), then those not in it. */
export function cardOrder(s) {
  const rank = new Map();
  s.order.forEach((t, i) => rank.has(t.id) || rank.set(t.id, i));
  return [...s.combatants].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}

export class Cards {
  constructor(tk) {
    this.tk = tk;
    this.openIds = new Set(); // cards opened by the reader (kept across renders)
    this.orderList = el("ol", { class: "cc-tk-order", "aria-label": "Order of this round" });
    this.list = el("ul", { class: "cc-tk-combatants" });
    this.tagList = el("datalist", { id: uid("tk-tags") });
  }

  render(s, now) {
    const decl = this.tk.decl;
    const byId = new Map(s.combatants.map((c) => [c.id, c]));
    replace(
      this.orderList,
      s.order.map((t, i) => {
        const c = byId.get(t.id);
        const left = c.max - c.damage;
        const state = healthState(c, decl);
        const go = button("", () => this.goTo(c.id), { class: "cc-tk-slotbtn", "aria-label": `${c.name}: ${left} of ${c.max} ${decl.health.label}${state ? `, ${state.label}` : ""} — show the card` });
        replace(
          go,
          el("span", { class: "cc-tk-pos" }, `${i + 1}.`),
          el("span", { class: "cc-tk-when" }, t.when),
          " ",
          el("strong", {}, c.name),
          " ",
          el("span", { class: "cc-tk-side" }, SIDE_LABEL[c.side]),
          " ",
          el("span", { class: "cc-tk-slothp" }, `${left}/${c.max}`),
          state ? [" ", el("span", { class: "cc-tk-state" }, state.label)] : null,
        );
        return el(
          "li",
          { class: `cc-tk-slot cc-tk-${c.side}`, "aria-current": i === s.turn ? "step" : null, "data-cc-id": t.id, "data-cc-state": state?.label ?? "" },
          go,
          t.why.length ? el("details", { class: "cc-tk-why" }, el("summary", {}, "Why"), el("ul", {}, t.why.map(stepItem))) : null,
        );
      }),
    );
    const used = [...new Set(s.combatants.flatMap((c) => c.tags))];
    replace(this.tagList, used.map((t) => el("option", { value: t })));
    replace(
      this.list,
      cardOrder(s).map((c) => this.card(c, now)),
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

  card$(id) {
    return this.list.querySelector(`[data-cc-id="${CSS.escape(id)}"]`);
  }

  card(c, now) {
    const tk = this.tk;
    const decl = tk.decl;
    const left = c.max - c.damage;
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
    const hurt = (type) => () => {
      const n = /^\s*\d+\s*$/.test(amount.value) ? Number(amount.value) : NaN;
      if (!Number.isInteger(n) || n < 1) {
        amount.focus();
        return tk.say(`Type an amount for ${c.name} first (a whole number from 1).`, true);
      }
      tk.dispatch({ type, id: c.id, amount: n }, type === "damage" ? `${c.name} takes ${n}.` : `${c.name} heals ${n}.`);
    };
    amount.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        hurt(e.shiftKey ? "heal" : "damage")();
      }
    });
    const state = healthState(c, decl);
    const isNow = now && now.id === c.id;
    const bodyId = uid("tk-body");
    const toggle = button("", () => {
      if (this.openIds.has(c.id)) this.openIds.delete(c.id);
      else this.openIds.add(c.id);
      tk.render();
    }, { class: "cc-tk-toggle", "aria-expanded": isOpen ? "true" : "false", "aria-controls": bodyId, "data-tk-focus": `toggle-${c.id}` });
    replace(toggle, c.name, " ", el("span", { class: "cc-tk-side" }, SIDE_LABEL[c.side]), isNow ? el("span", { class: "cc-tk-nowtag" }, " — acting now") : null);
    const tags = c.tags.map((t) =>
      el(
        "li",
        {},
        el("span", {}, t),
        button("×", () => tk.dispatch({ type: "untag", id: c.id, tag: t }, `${c.name}: ${t} removed.`), { "aria-label": `Remove ${t} from ${c.name}`, class: "cc-tk-x" }),
      ),
    );
    return el(
      "li",
      {
        class: `cc-tk-card cc-tk-${c.side}${left <= 0 ? " cc-tk-down" : ""}`,
        "data-cc-id": c.id,
        "data-cc-state": state?.label ?? "",
        "aria-current": isNow ? "true" : null,
      },
      el(
        "div",
        { class: "cc-tk-head" },
        el("h3", {}, toggle),
        el(
          "p",
          { class: "cc-tk-health" },
          el("span", { class: "cc-tk-visually-hidden" }, `${decl.health.label}: `),
          el("strong", { class: "cc-tk-left" }, String(left)),
          el("span", { class: "cc-tk-of" }, `/${c.max}`),
          state ? [" ", stateBadge(state)] : null,
        ),
      ),
      el("div", { class: "cc-tk-row cc-tk-hurt" }, amount, button("Damage", hurt("damage"), { "data-tk-focus": `damage-${c.id}`, "aria-label": `Damage ${c.name}` }), button("Heal", hurt("heal"), { "data-tk-focus": `heal-${c.id}`, "aria-label": `Heal ${c.name}` })),
      el("ul", { class: "cc-tk-tags", "aria-label": `Conditions of ${c.name}` }, tags),
      el("div", { class: "cc-tk-body", id: bodyId, hidden: !isOpen }, isOpen ? this.details(c) : null),
    );
  }

  /** What an open card adds: values, a condition to add, the calculators, Edit and Remove. */
  details(c) {
    const tk = this.tk;
    const decl = tk.decl;
    const tagInput = el("input", {
      type: "text",
      autocomplete: "off",
      maxlength: TAG_MAX,
      list: this.tagList.id,
      "aria-label": `Condition for ${c.name} (e.g. Hurt)`,
      placeholder: "Condition",
      "data-tk-focus": `tag-${c.id}`,
      size: 10,
    });
    const addTag = () => tk.dispatch({ type: "tag", id: c.id, tag: tagInput.value }, `${c.name}: ${tagInput.value.trim()}.`);
    tagInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addTag();
      }
    });
    const values = tk.fields.map((f) => `${f.label || f.name}: ${shownValue(f, c.values[f.name])}`).join(" · ");
    const links = Object.entries(decl.links || {}).map(([name, link]) => {
      const query = calculatorQuery(c, decl, name);
      const href = siteHref(`${link.url}${query ? `?${query}` : ""}`, SITE_ROOT);
      return href ? el("a", { href, class: "cc-tk-link" }, `${link.title} vs ${c.name}`) : null;
    });
    return [
      el("p", { class: "cc-tk-values" }, `${decl.health.label}: ${c.max - c.damage} of ${c.max}${c.damage ? ` (${c.damage} damage taken)` : ""} · ${values}`),
      el("div", { class: "cc-tk-row" }, tagInput, button("Add condition", addTag, { "aria-label": `Add condition to ${c.name}` })),
      el("div", { class: "cc-tk-row" }, links),
      el(
        "div",
        { class: "cc-tk-row" },
        button("Edit", () => tk.form.edit(c), { "data-tk-focus": `edit-${c.id}`, "aria-label": `Edit ${c.name}` }),
        button("Remove", () => tk.dispatch({ type: "remove", id: c.id }, `${c.name} removed (Undo brings them back).`), { "aria-label": `Remove ${c.name}` }),
      ),
    ];
  }
}
