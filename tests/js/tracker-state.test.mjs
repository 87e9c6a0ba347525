// The encounter tracker's pure state (docs/assets/js/tracker/state.mjs): the reducer, undo/redo,
// import validation, dice and the calculator links. The declaration is shaped like the one
// macros/render/tracker.py writes into the page.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as S from "../../docs/assets/js/tracker/state.mjs";

const DECL = {
  system: "countup",
  fields: [
    { name: "die", type: "choice", label: "Die", options: [{ value: "d10" }, { value: "d8" }], default: "d10" },
    { name: "modifier", type: "integer", label: "Initiative modifier", min: -20, max: 20, default: 0 },
    { name: "ac", type: "integer", label: "Armor Class", min: -10, max: 50, default: 14, fills: true },
  ],
  health: { input: "target_hp", label: "Hit points", min: 1, max: 200, default: 22 },
  links: {
    hit: { url: "countup/calculators/hit/", inputs: ["to_hit", "ac"] },
    round: { url: "countup/calculators/round/", inputs: ["ac", "target_hp"] },
  },
};

function fight() {
  let h = S.history(S.emptyState("countup"));
  h = S.apply(h, { type: "add", combatant: { name: "Ann", side: "pc", values: { modifier: "2" }, max: 20 } }, DECL);
  h = S.apply(h, { type: "add", combatant: { name: "Orc", side: "foe", values: { ac: 15 }, max: 15 } }, DECL);
  h = S.apply(h, { type: "add", combatant: { name: "Bob", side: "pc", values: { die: "d8" }, max: 12 } }, DECL);
  return h;
}

const TURNS = [
  { id: "c2", when: "count 3", why: [{ rule: "initiative", title: "Rolling", url: "countup/initiative/#initiative", text: "Orc rolled 3." }] },
  { id: "c1", when: "count 5", why: [] },
  { id: "c3", when: "count 6", why: "plain text reason" },
];

test("adding combatants gives each an id, the declared fields typed and defaults filled", () => {
  const s = fight().present;
  assert.deepEqual(
    s.combatants.map((c) => [c.id, c.name, c.side, c.values, c.max, c.damage]),
    [
      ["c1", "Ann", "pc", { die: "d10", modifier: 2, ac: 14 }, 20, 0],
      ["c2", "Orc", "foe", { die: "d10", modifier: 0, ac: 15 }, 15, 0],
      ["c3", "Bob", "pc", { die: "d8", modifier: 0, ac: 14 }, 12, 0],
    ],
  );
});

test("a bad combatant is refused with a sentence and changes nothing", () => {
  const h = fight();
  for (const [combatant, message] of [
    [{ name: "", side: "pc", max: 5 }, /a name is needed/],
    [{ name: "ann", side: "pc", max: 5 }, /already a combatant called ann/],
    [{ name: "X", side: "ally", max: 5 }, /side must be pc or foe/],
    [{ name: "X", side: "pc", max: 0 }, /max must be a whole number from 1/],
    [{ name: "X", side: "pc", max: 5, values: { modifier: 99 } }, /Initiative modifier: at most 20/],
    [{ name: "X", side: "pc", max: 5, values: { die: "d12" } }, /Die: one of d10, d8/],
    [{ name: "X", side: "pc", max: 5, values: { speed: 3 } }, /no field "speed"/],
  ]) {
    assert.throws(() => S.apply(h, { type: "add", combatant }, DECL), (err) => err instanceof S.TrackerError && message.test(err.message));
  }
});

test("a round starts from the engine's turns; next and previous walk it; the round ends after the last", () => {
  let h = fight();
  h = S.apply(h, { type: "startRound", turns: TURNS, notes: [], rolls: { "init:c1": 3 } }, DECL);
  assert.equal(h.present.round, 1);
  assert.equal(S.current(h.present).name, "Orc");
  assert.deepEqual(h.present.order[0].why, [{ text: "Orc rolled 3.", title: "Rolling", url: "countup/initiative/#initiative" }]);
  assert.deepEqual(h.present.order[2].why, [{ text: "plain text reason", title: "", url: "" }]);
  h = S.apply(h, { type: "next" }, DECL);
  assert.equal(S.current(h.present).name, "Ann");
  h = S.apply(h, { type: "next" }, DECL);
  h = S.apply(h, { type: "next" }, DECL);
  assert.equal(S.current(h.present), null, "after the last turn the round is over");
  const over = S.apply(h, { type: "next" }, DECL);
  assert.equal(over, h, "next past the end changes nothing (the page rolls the next round)");
  h = S.apply(h, { type: "previous" }, DECL);
  assert.equal(S.current(h.present).name, "Bob");
  h = S.apply(h, { type: "startRound", turns: TURNS.slice().reverse(), notes: ["tie"] }, DECL);
  assert.equal(h.present.round, 2);
  assert.equal(S.current(h.present).name, "Bob");
  assert.deepEqual(h.present.notes, [{ text: "tie", title: "", url: "" }]);
});

test("damage, healing (not past full) and conditions; every change undoes and redoes", () => {
  let h = fight();
  const start = h.present;
  const negative = { ...DECL, states: [{ label: "Dead", when: "at-or-below", value: -10 }] };
  assert.equal(S.apply(h, { type: "damage", id: "c2", amount: 18 }, DECL).present.combatants[1].damage, 15, "no state below 0: stops at 0");
  h = S.apply(h, { type: "damage", id: "c2", amount: 6 }, negative);
  h = S.apply(h, { type: "damage", id: "c2", amount: 12 }, negative);
  assert.equal(h.present.combatants[1].damage, 18, "damage may take a foe below 0 where the rules name a state there");
  h = S.apply(h, { type: "heal", id: "c2", amount: 20 }, DECL);
  assert.equal(h.present.combatants[1].damage, 0, "healing stops at full");
  h = S.apply(h, { type: "tag", id: "c2", tag: " Hurt " }, DECL);
  assert.deepEqual(h.present.combatants[1].tags, ["Hurt"]);
  assert.equal(S.apply(h, { type: "tag", id: "c2", tag: "Hurt" }, DECL), h, "the same condition twice changes nothing");
  h = S.undo(h);
  assert.deepEqual(h.present.combatants[1].tags, []);
  assert.equal(h.present.combatants[1].damage, 0);
  h = S.undo(h);
  assert.equal(h.present.combatants[1].damage, 18);
  h = S.redo(h);
  h = S.redo(h);
  assert.deepEqual(h.present.combatants[1].tags, ["Hurt"]);
  while (h.past.length) h = S.undo(h);
  assert.equal(h.present.combatants.length, 0, "undo goes back past the additions too");
  assert.notEqual(h.present, start);
  assert.throws(() => S.apply(fight(), { type: "damage", id: "c1", amount: 0 }, DECL), S.TrackerError);
  assert.throws(() => S.apply(fight(), { type: "damage", id: "c9", amount: 1 }, DECL), /no longer in the fight/);
});

test("a new change after an undo drops the redo branch; the history is bounded", () => {
  let h = fight();
  h = S.undo(h);
  assert.equal(h.future.length, 1);
  h = S.apply(h, { type: "add", combatant: { name: "Cat", side: "pc", max: 3 } }, DECL);
  assert.equal(h.future.length, 0);
  for (let i = 0; i < S.HISTORY_LIMIT + 20; i++) h = S.apply(h, { type: i % 2 ? "heal" : "damage", id: "c1", amount: 1 }, DECL);
  assert.equal(h.past.length, S.HISTORY_LIMIT);
});

test("removing a combatant mid-round keeps the current turn on the same person", () => {
  let h = S.apply(fight(), { type: "startRound", turns: TURNS }, DECL);
  h = S.apply(h, { type: "next" }, DECL);
  h = S.apply(h, { type: "next" }, DECL); // Bob
  h = S.apply(h, { type: "remove", id: "c2" }, DECL); // Orc acted before him
  assert.equal(S.current(h.present).name, "Bob");
  assert.deepEqual(h.present.order.map((t) => t.id), ["c1", "c3"]);
  h = S.undo(h);
  assert.equal(S.current(h.present).name, "Bob");
  assert.equal(h.present.order.length, 3);
});

test("export then import gives the same fight; the import is validated", () => {
  let h = S.apply(fight(), { type: "startRound", turns: TURNS, rolls: { "init:c1": 4 } }, DECL);
  h = S.apply(h, { type: "tag", id: "c1", tag: "<b>Hurt</b>" }, DECL);
  const text = S.exportText(h.present);
  assert.deepEqual(S.parseImport(text, DECL, "countup"), { state: h.present });
  const good = JSON.parse(text);
  const bad = (change) => {
    const copy = structuredClone(good);
    change(copy);
    return S.parseImport(JSON.stringify(copy), DECL, "countup");
  };
  assert.match(S.parseImport("{not json", DECL, "countup").error, /not JSON/);
  assert.match(S.parseImport("[]", DECL, "countup").error, /not a tracker file/);
  assert.match(bad((s) => (s.format = "other")).error, /not a tracker file/);
  assert.match(bad((s) => (s.version = 99)).error, /version 99/);
  assert.match(S.parseImport(text, DECL, "segments").error, /for "countup", not segments/);
  assert.match(bad((s) => (s.combatants[0].side = "ally")).error, /combatant 1 \(Ann\): side/);
  assert.match(bad((s) => (s.combatants[1].values.ac = "high")).error, /combatant 2 \(Orc\): Armor Class: a whole number/);
  assert.match(bad((s) => (s.combatants[1].id = "c1")).error, /unique/);
  assert.match(bad((s) => (s.combatants[2].name = "ANN")).error, /used twice/);
  assert.match(bad((s) => (s.order[0].id = "c9")).error, /names no combatant/);
  assert.match(bad((s) => (s.turn = 7)).error, /past the end/);
  assert.match(bad((s) => (s.round = -1)).error, /round/);
  assert.match(bad((s) => (s.combatants[0].tags = ["x".repeat(99)])).error, /tags/);
});

test("a stored history is read back only if every state in it is valid", () => {
  let h = fight();
  h = S.apply(h, { type: "damage", id: "c1", amount: 2 }, DECL);
  h = S.undo(h);
  const text = JSON.stringify(h);
  assert.deepEqual(S.loadHistory(text, DECL, "countup"), h);
  assert.equal(S.loadHistory(null, DECL, "countup"), null);
  assert.equal(S.loadHistory("garbage", DECL, "countup"), null);
  assert.equal(S.loadHistory(JSON.stringify({ present: { format: "x" } }), DECL, "countup"), null);
});

test("dice: parsed, rolled uniformly by rejection, typed rolls checked against the dice", () => {
  assert.deepEqual(S.parseDice("1d20"), { count: 1, sides: 20 });
  assert.deepEqual(S.parseDice("d6"), { count: 1, sides: 6 });
  assert.equal(S.parseDice("2d"), null);
  const seq = (xs) => () => xs.shift();
  assert.equal(S.rollDice("1d6", seq([0])), 1);
  assert.equal(S.rollDice("1d6", seq([5])), 6);
  assert.equal(S.rollDice("2d6", seq([6, 11])), 1 + 6);
  // 2**32 - 1 is in the biased tail for d6 (2**32 is not a multiple of 6): it is re-drawn.
  assert.equal(S.rollDice("1d6", seq([2 ** 32 - 1, 2])), 3);
  assert.deepEqual(S.checkRoll("1d10", " 7 "), { value: 7 });
  assert.match(S.checkRoll("1d10", "11", "Ann").error, /Ann: 1d10 gives 1 to 10/);
  assert.match(S.checkRoll("2d6", "1").error, /gives 2 to 12/);
  assert.match(S.checkRoll("1d10", "x").error, /gives/);
});

test("calculator links carry the defense and hit points left, as values", () => {
  let h = fight();
  h = S.apply(h, { type: "damage", id: "c2", amount: 6 }, DECL);
  const orc = h.present.combatants[1];
  assert.equal(S.calculatorQuery(orc, DECL, "hit"), "ac=15");
  assert.equal(S.calculatorQuery(orc, DECL, "round"), "ac=15&target_hp=9");
  h = S.apply(h, { type: "damage", id: "c2", amount: 60 }, DECL);
  assert.equal(S.calculatorQuery(h.present.combatants[1], DECL, "round"), "ac=15&target_hp=1", "clamped to the input's range");
  assert.equal(S.calculatorQuery(orc, DECL, "damage"), null);
});

// The initiative rulings, declared as macros/render/tracker.py writes them (action-points' own).
const RULED = {
  ...DECL,
  rulings: [
    { name: "tie_reroll", type: "choice", label: "Ties are re-rolled with", options: [{ value: "with_bonus" }, { value: "bare" }], default: "with_bonus", ruling: "initiative-tie-reroll" },
    { name: "team_initiative", type: "boolean", label: "Use team initiative", default: false },
    { name: "team_roll", type: "choice", label: "A team's count", options: [{ value: "lowest" }, { value: "average" }], default: "lowest", ruling: "team-initiative-roll", when: { team_initiative: true } },
  ],
};

test("a ruling is an undoable action, checked, and reaches the engine's options", () => {
  let h = S.history(S.emptyState("countup"));
  assert.deepEqual(S.engineOptions(h.present, RULED), { tie_reroll: "with_bonus", team_initiative: false });
  h = S.apply(h, { type: "option", name: "tie_reroll", value: "bare" }, RULED);
  assert.deepEqual(h.present.options, { tie_reroll: "bare" });
  assert.equal(S.engineOptions(h.present, RULED).tie_reroll, "bare");
  h = S.apply(h, { type: "option", name: "team_initiative", value: true }, RULED);
  assert.deepEqual(S.engineOptions(h.present, RULED), { tie_reroll: "bare", team_initiative: true, team_roll: "lowest" });
  assert.equal(S.apply(h, { type: "option", name: "tie_reroll", value: "bare" }, RULED), h, "no change, no history");
  assert.throws(() => S.apply(h, { type: "option", name: "tie_reroll", value: "dice" }, RULED), /one of with_bonus, bare/);
  assert.throws(() => S.apply(h, { type: "option", name: "phase", value: "melee" }, RULED), /No ruling phase/);
  h = S.undo(S.undo(h));
  assert.deepEqual(h.present.options, {});
  h = S.apply(h, { type: "option", name: "tie_reroll", value: "bare" }, RULED);
  assert.deepEqual(S.reduce(h.present, { type: "clear", keepCombatants: true }, RULED).options, { tie_reroll: "bare" });
  assert.deepEqual(S.reduce(h.present, { type: "clear", keepCombatants: false }, RULED).options, {});
});

test("rulings are exported and imported, and a bad ruling in a file changes nothing", () => {
  let h = fight();
  h = S.apply(h, { type: "option", name: "tie_reroll", value: "bare" }, RULED);
  const text = S.exportText(h.present);
  assert.deepEqual(S.parseImport(text, RULED, "countup"), { state: h.present });
  const bad = (options) => S.parseImport(JSON.stringify({ ...h.present, options }), RULED, "countup");
  assert.match(bad({ tie_reroll: "dice" }).error, /options: Ties are re-rolled with: one of/);
  assert.match(bad({ swap: "x" }).error, /no ruling "swap"/);
  assert.match(bad([]).error, /options: an object/);
  assert.match(bad({ team_initiative: "yes" }).error, /true or false/);
  const older = { ...h.present };
  delete older.options; // a file from before rulings were kept: the data's defaults
  assert.deepEqual(S.parseImport(JSON.stringify(older), RULED, "countup").state.options, {});
});

// Health states as the exported data declares them (calc/rules.json, written by
// `python -m macros.export`), with the page's title and url as macros/render/tracker.py adds them.

function exportedDecl(system) {
  const rules = JSON.parse(readFileSync(new URL("../../calc/rules.json", import.meta.url), "utf8"));
  const tracker = rules.systems[system].tracker;
  return { ...DECL, system, states: tracker.states.map((s) => ({ ...s, url: rules.systems[system].rules[s.rule].url })) };
}

function hp(c, left) {
  return { ...c, damage: c.max - left };
}

test("countup: Hurt from 0 down to -9, dead at -10 (NPCs at 0), read from the rules' facts", () => {
  const decl = exportedDecl("countup");
  const facts = JSON.parse(readFileSync(new URL("../../calc/rules.json", import.meta.url), "utf8")).systems.countup.rules;
  const hurt = facts.hurt.facts.hurt_hp;
  const dead = facts.death.facts.death_hp;
  const pc = { name: "Ann", side: "pc", max: 20, damage: 0 };
  const state = (c, left) => S.healthState(hp(c, left), decl)?.label ?? null;
  assert.equal(state(pc, hurt.max + 1), null);
  assert.equal(state(pc, hurt.max), "Hurt");
  assert.equal(state(pc, hurt.min), "Hurt");
  assert.equal(state(pc, dead), "Dead");
  assert.equal(S.healthState(hp(pc, hurt.max), decl).url, "countup/damage/#hurt");
  const orc = { ...pc, name: "Orc", side: "foe" };
  assert.equal(state(orc, facts["npc-death"].facts.npc_death_hp), "Dead");
  assert.equal(state(orc, 1), null);
  assert.equal(S.healthFloor(decl), dead);
});

test("action-points: dying below 0, dead at -10; hit points stop at the lowest state", () => {
  const decl = exportedDecl("action-points");
  const rules = JSON.parse(readFileSync(new URL("../../calc/rules.json", import.meta.url), "utf8")).systems["action-points"].rules;
  const dying = rules.dying.facts.dying_below;
  const dead = rules.dead.facts.dead_at;
  let h = S.history(S.emptyState("action-points"));
  h = S.apply(h, { type: "add", combatant: { name: "Ann", side: "pc", max: 5 } }, decl);
  const ann = () => h.present.combatants[0];
  assert.equal(S.healthState(ann(), decl), null);
  h = S.apply(h, { type: "damage", id: ann().id, amount: 5 - dying }, decl);
  assert.equal(S.healthState(ann(), decl), null, "0 hit points is not yet dying");
  h = S.apply(h, { type: "damage", id: ann().id, amount: 1 }, decl);
  assert.equal(S.healthState(ann(), decl).label, "Dying");
  h = S.apply(h, { type: "damage", id: ann().id, amount: 100 }, decl);
  assert.equal(ann().max - ann().damage, dead, "stops at dead");
  assert.equal(S.healthState(ann(), decl).label, "Dead");
  assert.throws(() => S.apply(h, { type: "damage", id: ann().id, amount: 1 }, decl), /lowest the rules count/);
  h = S.undo(h);
  assert.equal(S.healthState(ann(), decl).label, "Dying");
});

test("a system whose rules name no negative state stops at 0; without states, no state", () => {
  const decl = exportedDecl("segments");
  assert.equal(S.healthFloor(decl), 0);
  let h = S.history(S.emptyState("segments"));
  h = S.apply(h, { type: "add", combatant: { name: "Orc", side: "foe", max: 6 } }, decl);
  h = S.apply(h, { type: "damage", id: "c1", amount: 9 }, decl);
  assert.equal(h.present.combatants[0].damage, 6);
  assert.equal(S.healthState(h.present.combatants[0], decl).label, "Down");
  assert.equal(S.healthState(h.present.combatants[0], DECL), null);
  assert.equal(S.healthFloor(exportedDecl("phases")), 0);
});

test("a saved preset fills the add-combatant form with the values this tracker keeps, checked", () => {
  const foe = { name: "Ogre", values: { ac: "16", target_hp: "30", to_hit: "5", modifier: "99" } };
  const got = S.fromPreset(foe, "target", DECL);
  assert.deepEqual(got, { name: "Ogre", side: "foe", values: { ac: 16 }, max: 30, used: ["ac", "target_hp"] });
  const pc = S.fromPreset({ name: "Aria", values: { to_hit: "5", modifier: "2", target_hp: "0" } }, "attacker", DECL);
  assert.deepEqual(pc, { name: "Aria", side: "pc", values: { modifier: 2 }, max: null, used: ["modifier"] });
  let h = S.history(S.emptyState("countup"));
  h = S.apply(h, { type: "add", combatant: { ...got, values: { ...got.values } } }, DECL);
  assert.deepEqual(h.present.combatants[0].values, { die: "d10", modifier: 0, ac: 16 });
  assert.equal(h.present.combatants[0].max, 30);
});
