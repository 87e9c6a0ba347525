// The odds of the attack at hand, on the acting combatant's card (issue 21), and each combatant's
// fighter values. The engine's view names the attacker, its targets and, for each, the round
// calculator's request (`view.odds`, built in Python: calc/fight/fighter.py); this module only
// sends the chosen target's request to the worker as it is, keeps it on the panel
// (`.cc-tk-odds[data-cc-request]`) and shows the figures its answer holds (`first_attack`,
// `rounds`: calc/answers/first_attack.py, calc/answers/round_answer.py). No rule lives here.
import { el, replace, siteHref, uid } from "../shared/dom.mjs";
import { rollDie } from "../statblock/fighters.mjs";
import { button, fieldInput, figure, labelled, readFieldInput, setFieldInput, shownValue, SITE_ROOT, stepItem } from "./ui.mjs";


export class Odds {
  constructor(tk) {
    this.tk = tk;
    this.picked = null; // {turn, target, stood}: the target tapped this turn (else the view's default)
    this.answers = new Map(); // request text → the worker's reply
  }

  /** The turn a pick holds for: a new turn, or a Resolve, goes back to the view's default. */
  static turnOf(v) {
    return `${v.round}:${v.turn}:${v.odds?.attacker}`;
  }

  /** The target shown for the view's odds: the one tapped this turn, else Python's default (the
   * last target while it stands, else the side's focus fire: calc/fight/aim.py). */
  targetOf(v) {
    const odds = v.odds;
    const tapped = this.picked?.turn === Odds.turnOf(v) ? this.picked.target : null;
    // a tapped target holds for the turn (Undo too) unless an attack has since put it out of the fight
    const out = this.picked?.stood && v.combatants.find((c) => c.id === tapped)?.acts === false;
    if (tapped && !out && odds.targets.some((t) => t.id === tapped)) return tapped;
    return odds.default_target ?? odds.target;
  }

  /** The acting combatant's target in view `v`, or undefined when nobody attacks now. */
  targetOfView(v) {
    if (!v?.odds || !v.odds.targets.length) return undefined;
    return this.targetOf(v);
  }

  pick(v, target) {
    this.picked = { turn: Odds.turnOf(v), target, stood: v.combatants.find((c) => c.id === target)?.acts !== false };
    this.tk.render();
  }

  /** One tap on a card: it becomes the target, if the acting combatant can attack it. */
  pickFromCard(v, id) {
    const t = v.odds?.targets.find((x) => x.id === id);
    if (!t) return;
    this.pick(v, id);
    this.tk.say(`Target: ${t.name}.`);
  }

  /** The panel on combatant `c`'s card when it is the one acting (null otherwise). */
  panel(c, v) {
    const odds = v.odds;
    if (!odds || odds.attacker !== c.id || !odds.targets.length) return null;
    const targetId = this.targetOf(v);
    const target = odds.targets.find((t) => t.id === targetId);
    const chips = el(
      "div",
      { class: "cc-tk-row cc-tk-targets", role: "group", "aria-label": `Target of ${c.name}` },
      odds.targets.map((t) =>
        button(`${t.name}${t.state ? ` (${t.state})` : ""}`, () => this.pick(v, t.id), {
          class: `md-button cc-tk-small cc-tk-target${t.id === targetId ? " md-button--primary" : ""}`,
          "aria-pressed": t.id === targetId ? "true" : "false",
          "aria-label": `Target ${t.name}`,
        }),
      ),
    );
    const attack = odds.attack ? this.attackChoice(c, odds.attack) : null;
    const box = el("section", { class: "cc-tk-odds", "aria-label": `Odds of ${c.name}'s attack on ${target.name}`, "data-cc-target": target.id });
    // whether the turn holds another attack (the view's `actions`, calc/fight/economy.py); unknown: none said
    if (v.actions) box.dataset.ccAttacksLeft = v.actions.next ? "1" : "0";
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
    // Resolve above the figures: both in view on a phone as the turn starts
    replace(box, el("h4", {}, `${c.name} attacks`), chips, target.error ? null : this.resolver(c, target, v), attack, body);
    return box;
  }

  /** Resolve: the attack roll, the other dice the rules roll with it (`target.resolve.rolls`:
   * active-defense's block or dodge while a reserve action is left, action-points' d% of a miss
   * chance, phases' second d20 of advantage) and the damage dice the engine names for this target
   * (calc/fight/resolve.py `plan`), a field per die: a face typed from the table wins, every empty
   * one is rolled with the tracker's fair die when Resolve is tapped (one tap), or a damage total
   * typed; sent as the fight action `attack` with every face under the key the plan names, so
   * Python decides hit or miss and what the faces deal by the system's rule
   * (calc/fight/resolve_rules.py) and applies it. The turn stays while the view's `actions` says
   * it holds an attack or an action with a cost; once spent, the next turn follows in the same
   * step (one Undo takes both back). */
  resolver(c, target, v) {
    const plan = target.resolve;
    if (!plan) return null;
    if (plan.error) return el("p", { class: "cc-tk-help cc-tk-resolve" }, `Resolve by hand: ${plan.error.message}`);
    const tk = this.tk;
    const field = (key, die, label) => el("input", { type: "text", inputmode: "numeric", autocomplete: "off", size: 2, class: "cc-tk-amount cc-tk-die", id: uid(`tk-${key}`), placeholder: die, "data-tk-focus": `${key}-${c.id}`, "aria-label": label });
    const sides = (die) => Number(String(die).replace(/^d/, ""));
    const roll = field("roll", plan.die, `Roll (${plan.die})`);
    // a roll of the round kept as this attack's (phases' phase roll: the view's `actions.roll`): shown, not rolled again
    const kept = v.actions && v.actions.id === c.id && v.actions.roll != null ? String(v.actions.roll) : null;
    if (kept) Object.assign(roll, { value: kept, readOnly: true, title: "The roll of this turn, kept" });
    const others = (plan.rolls || []).map((r) => ({ ...r, input: field(r.key, r.die, `${r.label} (${r.die})`), fill: () => String(rollDie(sides(r.die))) }));
    const damageDice = (plan.roll || []).flatMap((t) => Array.from({ length: t.count }, () => t.sides));
    const faces = damageDice.map((n, i) => field(`faces-${i}`, `d${n}`, `Damage die ${i + 1} of ${damageDice.length} (d${n})`));
    const total = el("input", { type: "text", inputmode: "numeric", autocomplete: "off", size: 2, class: "cc-tk-amount", id: uid("tk-dmg"), placeholder: "=", "data-tk-focus": `dmg-${c.id}`, "aria-label": "Damage", title: "Damage typed (instead of the dice)" });
    const rollAttack = () => String(rollDie(sides(plan.die)));
    const rollers = [[roll, rollAttack], ...others.map((r) => [r.input, r.fill]), ...faces.map((f, i) => [f, () => String(rollDie(damageDice[i]))])];
    const rollEmpty = () => {
      const typedTotal = Boolean(total.value.trim());
      for (const [input, fill] of rollers) if (!input.value.trim() && !(typedTotal && faces.includes(input))) input.value = fill();
    };
    const spent = (answer) => turnSpent(answer.view, c.id);
    const go = () => {
      rollEmpty();
      const action = { type: "attack", id: c.id, target: target.id, roll: roll.value.trim() };
      for (const r of others) if (r.input.value.trim()) action[r.key] = r.input.value.trim();
      if (total.value.trim()) action.damage = total.value.trim();
      else if (faces.length) action.faces = faces.map((f) => f.value.trim()).join(" ");
      tk.act(action, null, null, (answer) => (spent(answer) ? { action: { type: "next_turn" }, said: `${c.name}'s turn is spent.` } : null));
    };
    const left = v.actions && v.actions.id === c.id ? el("span", { class: "cc-tk-help cc-tk-left-now" }, v.actions.text) : null;
    return el(
      "div",
      { class: "cc-tk-resolve" },
      el(
        "div",
        { class: "cc-tk-row cc-tk-dice" },
        // a field per die, for the table's own dice (left empty: Resolve rolls them)
        [roll, ...others.map((r) => r.input), ...faces].map((input) => el("label", { class: "cc-tk-diefield", title: input.getAttribute("aria-label") }, el("span", { class: "cc-tk-dietext", "aria-hidden": "true" }, input.placeholder), input)),
        faces.length ? null : el("span", { class: "cc-tk-help" }, "damage from the roll"),
        total,
      ),
      el(
        "div",
        { class: "cc-tk-row cc-tk-go" },
        button("Roll all", rollEmpty, { class: "md-button cc-tk-small", "aria-label": `Roll all the empty dice of ${c.name}'s attack` }),
        // data-cc-rolls: Resolve rolls the empty dice itself (a hook for the taps benchmark)
        button("Resolve", go, { class: "md-button md-button--primary cc-tk-resolvebtn", "aria-label": `Resolve ${c.name}'s attack on ${target.name}`, "data-cc-rolls": "empty" }),
        left,
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

/** Whether combatant `id`'s turn is spent by the view's own account (`actions`: calc/fight/economy.py):
 * still acting, no attack left (`next`) and no action with a cost allowed (a free action does not
 * hold the turn). False where the view counts no turn (the GM moves on). */
export function turnSpent(v, id) {
  const a = v?.actions;
  if (!a || v.current !== id || a.id !== id || a.next) return false;
  return !a.actions.some((r) => r.allowed && Object.keys(r.cost || {}).length);
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
