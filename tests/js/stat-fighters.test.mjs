// The paste box's pure parts (docs/assets/js/statblock/fighters.mjs) and the built-in presets of
// presets/store.mjs: fair crypto dice, the answer cut into highlighted pieces, a fighter as the
// tracker's combatant, built-ins listed by role and found by name.
import assert from "node:assert/strict";
import { test } from "node:test";

import { builtinPresets, matchesName, presetText } from "../../docs/assets/js/presets/store.mjs";
import { fighterPreset, pieces, rollAll, rollDie } from "../../docs/assets/js/statblock/fighters.mjs";
import { trackerCombatant } from "../../docs/assets/js/tracker/fighters.mjs";

test("rollDie is fair: every face once over the residues, and biased draws are rejected", () => {
  const limit = 2 ** 32 - (2 ** 32 % 6);
  let next = [limit + 1, limit + 3, 0, 1, 2, 3, 4, 5]; // limit … 2³² − 1 are uint32s a die must refuse
  const random = (n) => {
    const out = next.slice(0, n);
    next = next.slice(n);
    return out;
  };
  assert.equal(rollDie(6, random), 1); // limit and limit+3 are rejected (they would favour 1–4)
  const faces = new Set();
  for (let x = 0; x < 6; x += 1) faces.add(rollDie(6, () => [x, x, x, x]));
  assert.deepEqual([...faces].sort(), [1, 2, 3, 4, 5, 6]);
  for (let i = 0; i < 200; i += 1) {
    const f = rollDie(8);
    assert.ok(f >= 1 && f <= 8);
  }
});

test("rollAll rolls what dice_needed asks, in order", () => {
  const asked = [];
  const got = rollAll([{ count: 2, sides: 8 }, { count: 1, sides: 6 }], (s) => {
    asked.push(s);
    return s;
  });
  assert.deepEqual(asked, [8, 8, 6]);
  assert.deepEqual(got, [8, 8, 6]);
});

const TEXT = "Bugbear: AC 5; SZ L; AC 15";
const FIGHTER = {
  name: "Bugbear",
  values: { ac: 5, routine: [{ name: "Claw", dice: "1d8" }], delayed: false },
  fields: [{ field: "armor-class", start: 9, end: 13, title: "Armor Class", shown: "5", rule: null }],
  rejected: [{ field: "armor-class", start: 21, end: 26, reason: "too high" }],
  notes: [{ text: "SZ L", start: 15, end: 19 }],
  hp: { input: "target_hp", value: 16 },
  block: { start: 0, end: TEXT.length },
};

test("pieces cut the block into plain text, fields, notes and refused values, losing nothing", () => {
  const got = pieces(TEXT, FIGHTER);
  assert.equal(got.map((p) => p.text).join(""), TEXT);
  assert.deepEqual(
    got.filter((p) => p.kind).map((p) => [p.kind, p.text]),
    [
      ["field", "AC 5"],
      ["note", "SZ L"],
      ["rejected", "AC 15"],
    ],
  );
});

test("a fighter becomes preset text and the tracker's combatant", () => {
  assert.deepEqual(fighterPreset(FIGHTER).values, { ac: "5", routine: '[{"name":"Claw","dice":"1d8"}]', delayed: "false" });
  const decl = {
    fields: [
      { name: "ac", type: "integer", min: -10, max: 10, default: 5 },
      { name: "delayed", type: "boolean", default: false },
    ],
    health: { input: "target_hp", default: 10 },
  };
  const c = trackerCombatant({ ...FIGHTER, values: { ...FIGHTER.values, target_hp: 16 } }, "foe", decl);
  assert.deepEqual(c, { name: "Bugbear", side: "foe", values: { ac: 5, delayed: false }, max: 16 }); // routine: not a tracker field
  assert.equal(trackerCombatant(FIGHTER, "pc", decl).max, 10); // no hit points: the tracker's default
  assert.equal(trackerCombatant(FIGHTER, "pc", decl).side, "pc");
});

test("built-in presets by role, values as text, found by any words of the name", () => {
  const list = [
    { name: "Orc in scale mail", role: "target", values: { ac: 14, target: "npc" }, rule: { id: "r", title: "R", url: "x/" } },
    { name: "5th-level Fighter", role: "attacker", values: { to_hit: 5, hurt: false } },
    { name: "broken", role: "target" },
  ];
  assert.deepEqual(
    builtinPresets(list, "target").map((p) => [p.name, p.values, p.builtin]),
    [["Orc in scale mail", { ac: "14", target: "npc" }, true]],
  );
  assert.deepEqual(builtinPresets(list, "attacker")[0].values, { to_hit: "5", hurt: "false" });
  assert.equal(presetText([1]), "[1]");
  assert.ok(matchesName("Orc in scale mail", "SCALE orc"));
  assert.ok(matchesName("Orc in scale mail", ""));
  assert.ok(!matchesName("Orc in scale mail", "goblin"));
  assert.ok(matchesName("Élan", "elan"));
});

test("a link's roster makes a saved fight for the engine's load, and a fight's roster goes back into a link", async () => {
  const { rosterOf, stateFromRoster } = await import("../../docs/assets/js/tracker/fighters.mjs");
  const decl = { fields: [{ name: "ac", type: "integer", min: -10, max: 10, default: 5 }], health: { input: "target_hp", default: 10 } };
  const roster = [
    { name: "Ogre", side: "foe", values: { ac: 4, target_hp: 22, routine: [] } },
    { name: "Aria", side: "pc", values: { ac: 99 } }, // sent as it is: the engine's load names what does not fit
  ];
  const state = stateFromRoster("segments", roster, decl);
  assert.equal(state.format, "cc-fight");
  assert.equal(state.next_id, 3);
  assert.deepEqual(
    state.combatants.map((c) => [c.id, c.name, c.side, c.values.ac, c.max, c.hp]),
    [
      ["c1", "Ogre", "foe", 4, 22, 22],
      ["c2", "Aria", "pc", 99, 10, 10],
    ],
  );
  assert.deepEqual(rosterOf(state, decl), [
    { name: "Ogre", side: "foe", values: { ac: 4, target_hp: 22 } },
    { name: "Aria", side: "pc", values: { ac: 99, target_hp: 10 } },
  ]);
});

test("the players' view: order, whose turn, states; a foe's hit points hidden", async () => {
  const { playersView } = await import("../../docs/assets/js/tracker/fighters.mjs");
  const view = {
    round: 2,
    current: "c1",
    order: [{ id: "c2" }, { id: "c1" }],
    combatants: [
      { id: "c1", name: "Aria", side: "pc", max: 20, hp: -1, state: "Hurt", tags: ["Prone"] },
      { id: "c2", name: "Orc", side: "foe", max: 6, hp: 0, state: "Dead", tags: [] },
      { id: "c3", name: "Late", side: "foe", max: 9, hp: 9, state: "", tags: [] },
    ],
  };
  assert.deepEqual(playersView(view), [
    { name: "Orc", side: "foe", now: false, hp: null, state: "Dead", tags: [] },
    { name: "Aria", side: "pc", now: true, hp: "-1 / 20", state: "Hurt", tags: ["Prone"] },
    { name: "Late", side: "foe", now: false, hp: null, state: null, tags: [] },
  ]);
  assert.deepEqual(playersView(null), []);
});
