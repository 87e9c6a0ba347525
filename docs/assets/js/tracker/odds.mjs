// The odds of the attack at hand, on the acting combatant's card (issue 21), and each combatant's
// fighter values. The engine's view names the attacker, its targets and, for each, the round
// calculator's request (`view.odds`, built in Python: calc/fight/fighter.py); this module only
// sends the chosen target's request to the worker as it is, keeps it on the panel
// (`.cc-tk-odds[data-cc-request]`) and shows the figures its answer holds (`first_attack`,
// `rounds`: calc/answers/first_attack.py, calc/answers/round_answer.py). No rule lives here.
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { rollAll, rollDie } from "../statblock/fighters.mjs";
import { button, fieldInput, figure, labelled, readFieldInput, setFieldInput, shownValue, SITE_ROOT, stepItem } from "./ui.mjs";


export class Odds {
  constructor(tk) {
    this.tk = tk;
    this.chosen = new Map(); // attacker id → the target the GM picked for it
    this.last = null; // the last target picked, for an attacker with none yet
    this.answers = new Map(); // request text → the worker's reply
  }

  /** The target shown for `odds`: this attacker's last pick, else the last pick, else the engine's. */
  targetOf(odds) {
    const ids = new Set(odds.targets.map((t) => t.id));
    for (const id of [this.chosen.get(odds.attacker), this.last]) if (ids.has(id)) return id;
    return odds.target;
  }

  pick(attacker, target) {
    this.chosen.set(attacker, target);
    this.last = target;
    this.tk.render();
  }

  /** The panel on combatant `c`'s card when it is the one acting (null otherwise). */
  panel(c, v) {
    const odds = v.odds;
    if (!odds || odds.attacker !== c.id || !odds.targets.length) return null;
    const targetId = this.targetOf(odds);
    const target = odds.targets.find((t) => t.id === targetId);
    const chips = el(
      "div",
      { class: "cc-tk-row cc-tk-targets", role: "group", "aria-label": `Target of ${c.name}` },
      odds.targets.map((t) =>
        button(`${t.name}${t.state ? ` (${t.state})` : ""}`, () => this.pick(c.id, t.id), {
          class: `md-button cc-tk-small cc-tk-target${t.id === targetId ? " md-button--primary" : ""}`,
          "aria-pressed": t.id === targetId ? "true" : "false",
          "aria-label": `Target ${t.name}`,
        }),
      ),
    );
    const attack = odds.attack ? this.attackChoice(c, odds.attack) : null;
    const box = el("section", { class: "cc-tk-odds", "aria-label": `Odds of ${c.name}'s attack on ${target.name}` });
    const body = el("div", { class: "cc-tk-odds-body", "aria-live": "polite" });
    if (target.error) {
      box.dataset.ccError = target.error.message;
      replace(body, el("p", { class: "cc-tk-problem" }, `No odds against ${target.name}: ${target.error.message}`));
    } else {
      const text = JSON.stringify(target.request);
      box.dataset.ccRequest = text;
      const known = this.answers.get(text);
      // "Drops before it acts again" counts every foe of the target acting before its next turn:
      // Python's own request (calc/fight/before_turn.py), asked beside the card's.
      const before = JSON.stringify({ kind: "before", system: this.tk.system, state: this.tk.state, attacker: c.id, target: target.id });
      box.dataset.ccBefore = before;
      // `now`: an answer already known, shown as the panel is built (not yet in the page)
      const show = (reply, now = false) => {
        if (!now && !box.isConnected) return;
        this.fill(body, reply, c, target, odds);
        const shown = this.answers.get(before);
        if (shown) this.fillBefore(box, shown);
        else this.ask(before).then((got) => box.isConnected && this.fillBefore(box, got));
      };
      if (known) show(known, true);
      else {
        replace(body, el("p", {}, "Working out the odds…"));
        this.ask(text).then(show);
      }
    }
    replace(box, el("h4", {}, `${c.name} attacks`), chips, attack, body, target.error ? null : this.resolver(c, target));
    return box;
  }

  /** Resolve: the attack roll, the other dice the rules roll with it (`target.resolve.rolls`:
   * active-defense's block or dodge while a reserve action is left, action-points' d% of a miss
   * chance, phases' second d20 of advantage) and the damage dice the engine names for this target
   * (calc/fight/resolve.py `plan`), each rolled here with the tracker's fair die or typed, or a
   * damage total typed; sent as the fight action `attack` with every face under the key the plan
   * names, so Python decides hit or miss and what the faces deal by the system's rule
   * (calc/fight/resolve_rules.py) and applies it; Undo takes it back. */
  resolver(c, target) {
    const plan = target.resolve;
    if (!plan) return null;
    if (plan.error) return el("p", { class: "cc-tk-help cc-tk-resolve" }, `Resolve by hand: ${plan.error.message}`);
    const tk = this.tk;
    const field = (key, size) => el("input", { type: "text", inputmode: "numeric", autocomplete: "off", size, class: "cc-tk-amount", id: uid(`tk-${key}`), "data-tk-focus": `${key}-${c.id}` });
    const sides = (die) => Number(String(die).replace(/^d/, ""));
    const roll = field("roll", 3);
    const others = (plan.rolls || []).map((r) => ({ ...r, input: field(r.key, 3), fill: () => String(rollDie(sides(r.die))) }));
    const faces = plan.dice ? field("faces", 6) : null;
    const total = field("dmg", 3);
    const rollAttack = () => String(rollDie(sides(plan.die)));
    const rollDamage = () => rollAll(plan.roll).join(" ");
    const rollers = [[roll, rollAttack], ...others.map((r) => [r.input, r.fill]), faces && [faces, rollDamage]].filter(Boolean);
    const go = () => {
      const action = { type: "attack", id: c.id, target: target.id, roll: roll.value.trim() };
      for (const r of others) if (r.input.value.trim()) action[r.key] = r.input.value.trim();
      if (faces && faces.value.trim()) action.faces = faces.value.trim();
      if (total.value.trim()) action.damage = total.value.trim();
      tk.act(action, null);
    };
    const rollAllEmpty = () => {
      for (const [input, fill] of rollers) if (!input.value.trim()) input.value = fill();
    };
    const whose = (r) => (r.key === "defense_roll" ? `${target.name}'s ${r.kind}` : `the ${r.label} of ${c.name}'s attack`);
    const part = (text, input, rollText, fill, aria) => el("span", { class: "cc-tk-resolve-part" }, el("label", { for: input.id }, text), input, fill ? button(rollText, () => (input.value = fill()), { class: "md-button cc-tk-small", "aria-label": aria }) : null);
    return el(
      "div",
      { class: "cc-tk-resolve" },
      el("div", { class: "cc-tk-row" }, part(`Roll (${plan.die})`, roll, `Roll ${plan.die}`, rollAttack, `Roll the ${plan.die} for ${c.name}'s attack`), others.map((r) => part(`${r.label} (${r.die})`, r.input, `Roll ${r.die}`, r.fill, `Roll ${whose(r)}`))),
      el("div", { class: "cc-tk-row" }, faces ? part(`Dice (${plan.dice})`, faces, `Roll ${plan.dice}`, rollDamage, `Roll the damage dice, ${plan.dice}`) : el("span", { class: "cc-tk-help" }, "Damage from the roll")),
      // the damage total beside the two buttons: Resolve in view with the figures on a phone
      el(
        "div",
        { class: "cc-tk-row" },
        part("Damage", total, null, null, null),
        button("Roll all", rollAllEmpty, { class: "md-button cc-tk-small", "aria-label": `Roll all the empty dice of ${c.name}'s attack` }),
        button("Resolve", go, { class: "md-button md-button--primary cc-tk-small", "aria-label": `Resolve ${c.name}'s attack on ${target.name}` }),
      ),
    );
  }

  /** The attack (the data's `fighter.attack` choice): changing it edits the combatant's value. */
  attackChoice(c, decl) {
    const id = uid("tk-attack");
    const select = el("select", { id }, decl.options.map((o) => el("option", { value: o.value, selected: o.value === decl.value }, o.label)));
    select.addEventListener("change", () => this.tk.act({ type: "edit", id: c.id, changes: { values: { [decl.name]: select.value } } }, `${c.name}: ${select.selectedOptions[0].textContent}.`));
    return el("div", { class: "cc-tk-row" }, el("label", { for: id }, decl.card_label || decl.label), select);
  }

  async ask(text) {
    const tk = this.tk;
    tk.engine.warm();
    const reply = await tk.engine.worker.request(JSON.parse(text), undefined, { key: "tk-odds" });
    if (reply.result) this.answers.set(text, reply);
    if (this.answers.size > 200) this.answers.delete(this.answers.keys().next().value);
    return reply;
  }

  /** The figures of `reply` (the answer to the panel's request). */
  fill(body, reply, c, target, odds) {
    if (reply.error) {
      if (reply.error.kind === "Superseded") return;
      return replace(body, el("p", { class: "cc-tk-problem" }, `No odds: ${reply.error.message}`));
    }
    const r = reply.result;
    const fa = r.first_attack;
    const lead = r.rounds[0];
    const drop = fa.drops[0];
    const rules = fa.rules || {};
    const rows = [
      ["Chance to hit", fa.hit, rules.hit],
      ["Expected damage", fa.expected, rules.damage || rules.hit, true],
      [`${drop.label} with this attack`, drop.p, rules.drops],
      [`${lead.label} before ${target.name} acts again`, undefined, rules.drops],
      [`Expected rounds (${lead.label})`, lead.mean, rules.drops, true],
      [`${lead.label} within ${odds.within} rounds`, lead.within[odds.within - 1], rules.drops],
    ];
    replace(
      body,
      el("dl", { class: "cc-tk-figures" }, rows.flatMap(([label, p, rule, plain]) => [el("dt", {}, ruleLink(label, rule)), p === undefined ? el("dd", { class: "cc-tk-before" }, "…") : el("dd", {}, figure(p, plain))])),
      // the assumptions (focus fire, with their rules) folded with the steps: the figures and
      // Resolve fit a phone's screen
      el("details", { class: "cc-tk-why" }, el("summary", {}, "Why"), el("p", { class: "cc-tk-help cc-tk-assume" }, odds.assumption), el("ul", {}, r.steps.map(stepItem))),
    );
  }

  /** The "before it acts again" figure from its own answer, its assumptions linked to their rules. */
  fillBefore(box, reply) {
    const dd = box.querySelector(".cc-tk-before");
    if (!dd) return;
    if (reply.error) {
      if (reply.error.kind === "Superseded") return;
      // the reason (often a cost past the engine's limit) a tap away: the card stays one screen tall
      replace(dd, el("details", { class: "cc-tk-exact" }, el("summary", { class: "cc-tk-problem" }, "No figure"), el("span", { class: "cc-frac" }, reply.error.message)));
    } else {
      const r = reply.result;
      replace(dd, figure(r.p));
      const assume = box.querySelector(".cc-tk-assume");
      if (assume && !assume.querySelector("a")) assume.append(" ", ...r.steps.flatMap((s, i) => [i ? "; " : "", ruleLink(s.title, s)]), ".");
    }
    box.dataset.ccBeforeState = reply.error ? "error" : "done";
  }
}

function ruleLink(label, rule) {
  const href = rule?.url ? siteHref(rule.url, SITE_ROOT) : null;
  return href ? el("a", { href, title: rule.title }, label) : label;
}

/** A combatant's fighter values (the round calculator's attacker and target inputs it carries,
 * labelled in its own words: `decl.fighter`), shown and edited in place on its open card. */
export function fighterBlock(tk, c) {
  const fields = tk.decl.fighter || [];
  if (!fields.length) return null;
  const valueOf = (f) => (Object.hasOwn(c.values || {}, f.name) ? c.values[f.name] : f.default);
  const editable = fields.filter((f) => f.type !== "list");
  const inputs = Object.fromEntries(editable.map((f) => [f.name, fieldInput(f)]));
  for (const f of editable) setFieldInput(inputs[f.name], f, valueOf(f));
  const save = () => {
    const changed = {};
    for (const f of editable) {
      const now = readFieldInput(inputs[f.name], f);
      if (String(now) !== String(valueOf(f))) changed[f.name] = now;
    }
    if (!Object.keys(changed).length) return tk.say(`${c.name}: nothing changed.`);
    tk.act({ type: "edit", id: c.id, changes: { values: changed } }, `${c.name}: attack and defence saved.`);
  };
  const shown = fields.map((f) => `${f.card_label || f.label}: ${f.type === "list" ? listText(valueOf(f)) : shownValue(f, valueOf(f))}`).join(" · ");
  return el(
    "details",
    { class: "cc-tk-fighter" },
    el("summary", {}, "Attack and defence"),
    el("p", { class: "cc-tk-values" }, shown),
    el("div", { class: "cc-tk-fighter-fields" }, editable.map((f) => labelled(f.card_label || f.label, inputs[f.name]))),
    el("div", { class: "cc-tk-row" }, button("Save", save, { "aria-label": `Save the attack and defence of ${c.name}` })),
  );
}

function listText(items) {
  return (items || []).map((item) => Object.values(item).join(" ")).join("; ") || "—";
}
