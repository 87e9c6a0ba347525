// The encounter tracker's pure parts in the browser (docs/assets/js/tracker/state.mjs, round.mjs):
// the undo stack of the engine's states, the stored text, the names of what a load dropped, the
// preset and calculator-link mappings, and rolling dice uniformly. The fight's rules are Python's
// (calc.fight, tests/calc/test_fight*.py): nothing here decides a state, an order or a check.
import assert from "node:assert/strict";
import { test } from "node:test";

import { diceOf, roll } from "../../docs/assets/js/tracker/round.mjs";
import * as S from "../../docs/assets/js/tracker/state.mjs";

const DECL = {
  system: "countup",
  fields: [
    { name: "die", type: "choice", label: "Die", options: [{ value: "d10" }, { value: "d8" }], default: "d10" },
    { name: "modifier", type: "integer", label: "Initiative modifier", default: 0 },
    { name: "ac", type: "integer", label: "Armor Class", default: 14, fills: true },
    { name: "npc_hurt", type: "boolean", label: "Important NPC", default: false },
  ],
  health: { input: "target_hp", label: "Hit points", min: 1, max: 200, default: 22 },
  links: {
    hit: { url: "countup/calculators/hit/", inputs: ["to_hit", "ac"] },
    round: { url: "countup/calculators/round/", inputs: ["ac", "target_hp"] },
  },
};

const state = (n) => ({ format: "cc-fight", version: 2, round: n, combatants: [] });

test("the undo stack takes each new state once, and Undo/Redo walk it", () => {
  let h = S.history(null);
  h = S.push(h, state(1));
  assert.deepEqual(h.past, [], "no fight before the first is no undo step");
  h = S.push(h, state(2));
  assert.equal(S.push(h, state(2)), h, "an equal state (nothing changed) is no step");
  h = S.push(h, state(3));
  assert.deepEqual(h.past, [state(1), state(2)]);
  h = S.undo(h);
  assert.deepEqual([h.present, h.future], [state(2), [state(3)]]);
  h = S.undo(S.undo(h));
  assert.deepEqual(h.present, state(1));
  h = S.redo(h);
  assert.deepEqual(h.present, state(2));
  h = S.push(h, state(9));
  assert.deepEqual(h.future, [], "a new change empties Redo");
  let long = S.history(state(0));
  for (let i = 1; i <= S.HISTORY_LIMIT + 5; i++) long = S.push(long, state(i));
  assert.equal(long.past.length, S.HISTORY_LIMIT);
});

test("the stored text holds the history and the view; anything else is not a stored fight", () => {
  const h = S.push(S.history(state(1)), state(2));
  const view = { round: 2, combatants: [] };
  assert.deepEqual(S.parseStored(S.storedText(h, view)), { ...h, view });
  assert.equal(S.parseStored("{not json"), null);
  assert.equal(S.parseStored("[1, 2]"), null);
  // an old tracker's history (no view): the present is read by the engine's load
  assert.deepEqual(S.parseStored(JSON.stringify({ past: [7, state(0)], present: { format: "cc-tracker" } })), { past: [state(0)], present: { format: "cc-tracker" }, future: [], view: null });
});

test("what a load dropped is named by combatant where the raw state names one", () => {
  const raw = { combatants: [{ name: "Ann" }, { name: "Orc" }] };
  const dropped = [
    { input: "combatants[2].values.die", message: "must be one of d10, d8 (got 'd12')" },
    { input: "options.ties", message: "must be one of a, b" },
  ];
  assert.deepEqual(S.droppedText(dropped, raw), ["Orc (combatants[2].values.die): must be one of d10, d8 (got 'd12')", "options.ties: must be one of a, b"]);
  assert.deepEqual(S.droppedText(undefined, raw), []);
});

test("typed numbers go as numbers, anything else as typed (the engine names the field)", () => {
  assert.equal(S.typed(" 12 "), 12);
  assert.equal(S.typed("-3"), -3);
  assert.equal(S.typed("1e3"), "1e3");
  assert.equal(S.typed(""), "");
});

test("a preset fills the fields of the same name as text, unchecked, and its health", () => {
  const preset = { name: "Ogre", values: { ac: "16", target_hp: "30", to_hit: "5", npc_hurt: "true" } };
  assert.deepEqual(S.fromPreset(preset, "target", DECL), { name: "Ogre", side: "foe", values: { ac: "16", npc_hurt: true }, max: "30", used: ["ac", "npc_hurt", "target_hp"] });
  assert.equal(S.fromPreset({ name: "Ann", values: {} }, "attacker", DECL).side, "pc");
});

test("a preset's attack and defence (the fighter's inputs) come with it, the form's fields first", () => {
  const decl = { ...DECL, fighter: [{ name: "to_hit", type: "integer" }, { name: "ac", type: "integer" }] };
  const preset = { name: "Ogre", values: { ac: "16", target_hp: "30", to_hit: "5" } };
  const got = S.fromPreset(preset, "target", decl);
  assert.deepEqual(got.values, { ac: "16", to_hit: "5" });
  assert.deepEqual(got.used, ["ac", "to_hit", "target_hp"]);
});

test("calculator links carry the defense and the hit points left, as values, within the input's bounds", () => {
  const orc = { id: "c2", name: "Orc", hp: 9, max: 15, values: { die: "d10", modifier: 0, ac: 15 } };
  assert.equal(S.calculatorQuery(orc, DECL, "hit"), "ac=15");
  assert.equal(S.calculatorQuery(orc, DECL, "round"), "ac=15&target_hp=9");
  assert.equal(S.calculatorQuery({ ...orc, hp: -4 }, DECL, "round"), "ac=15&target_hp=1");
  assert.equal(S.calculatorQuery(orc, DECL, "damage"), null);
});

test("the engine's reasons become plain strings", () => {
  assert.deepEqual(S.steps([{ rule: "r", title: "T", url: "u", text: "x" }, "plain", 3]), [
    { text: "x", title: "T", url: "u" },
    { text: "plain", title: "", url: "" },
    { text: "3", title: "", url: "" },
  ]);
  assert.deepEqual(S.steps(undefined), []);
});

test("dice rolled in the page: every face equally likely (the biased tail is drawn again)", () => {
  const seq = (xs) => {
    let i = 0;
    return () => xs[i++];
  };
  assert.equal(roll(1, 6, seq([0])), 1);
  assert.equal(roll(1, 6, seq([5])), 6);
  assert.equal(roll(2, 6, seq([6, 11])), 1 + 6);
  assert.equal(roll(1, 6, seq([2 ** 32 - 1, 2])), 3);
  assert.deepEqual(diceOf({ dice: "2d6", count: 2, sides: 6 }), { count: 2, sides: 6 });
  assert.equal(diceOf({ dice: "1d20" }), null, "no parsing of dice text in the page");
});
