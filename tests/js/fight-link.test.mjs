// Encounter links (docs/assets/js/fight/link.mjs): a roster survives the trip through the
// fragment, a fragment written by the Encounters pages' Python (zlib raw DEFLATE) reads the same,
// and a spoilt link is a clear error.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";

import { FightLinkError, packFight, unpackFight } from "../../docs/assets/js/fight/link.mjs";

const ROSTER = [
  { name: "Aria", side: "pc", values: { die: "d10", modifier: 1 } },
  { name: "Orc “Grim” 1", side: "foe", values: { ac: 14, target_hp: 6, routine: [{ name: "Claw", dice: "1d8" }] } },
];

test("a roster packs into #fight= and back", async () => {
  const hash = await packFight("countup", "abc123", ROSTER);
  assert.match(hash, /^#fight=[A-Za-z0-9_-]+$/);
  assert.deepEqual(await unpackFight(hash), { system: "countup", version: "abc123", roster: ROSTER });
  assert.equal(await unpackFight("#other"), null);
});

test("twelve combatants make a link of a few hundred characters", async () => {
  const twelve = Array.from({ length: 12 }, (_, i) => ({ name: `Orc ${i + 1}`, side: "foe", values: { ac: 6, hd: 1, hd_bonus: 0, attacker: "monster", target_hp: 4 + (i % 5), weapon: "battle axe" } }));
  const hash = await packFight("segments", "0123456789ab", twelve);
  assert.ok(hash.length < 600, `${hash.length} characters`);
  assert.deepEqual((await unpackFight(hash)).roster, twelve);
});

test("a fragment written by the Python renderer reads the same", async () => {
  const script = "import json,sys; from macros.render.encounters import fight_fragment; print(fight_fragment('segments', 'v9', json.loads(sys.argv[1])))";
  let hash;
  try {
    hash = execFileSync(".venv/bin/python", ["-c", script, JSON.stringify(ROSTER)], { encoding: "utf8" }).trim();
  } catch {
    return; // no Python beside the checkout: the Python side is tested in tests/site
  }
  assert.deepEqual(await unpackFight(hash), { system: "segments", version: "v9", roster: ROSTER });
});

test("a spoilt link is a FightLinkError", async () => {
  const hash = await packFight("countup", "v", ROSTER);
  await assert.rejects(unpackFight(hash.slice(0, 20)), FightLinkError);
  await assert.rejects(unpackFight("#fight=%%%"), FightLinkError);
  await assert.rejects(unpackFight(`#fight=${"A".repeat(70000)}`), /too long/);
  const bad = await packFight("countup", "v", [{ name: "X", side: "ally", values: {} }]);
  await assert.rejects(unpackFight(bad), /side/);
});

test("the fight as it stands carries damage and conditions; bad ones are refused", async () => {
  const standing = [{ name: "Ogre", side: "foe", values: { ac: 4 }, damage: 7, tags: ["Hurt"] }];
  assert.deepEqual((await unpackFight(await packFight("countup", "v", standing))).roster, standing);
  const { rosterOf, stateFromRoster } = await import("../../docs/assets/js/tracker/fighters.mjs");
  const decl = { fields: [{ name: "ac", type: "integer", min: -10, max: 50, default: 10 }], health: { input: "target_hp", default: 10 } };
  const state = stateFromRoster("countup", [{ ...standing[0], values: { ac: 4, target_hp: 20 } }], decl);
  assert.deepEqual([state.combatants[0].hp, state.combatants[0].tags, state.combatants[0].max], [13, ["Hurt"], 20]);
  assert.deepEqual(rosterOf(state, decl, true)[0], { name: "Ogre", side: "foe", values: { ac: 4, target_hp: 20 }, damage: 7, tags: ["Hurt"] });
  assert.deepEqual(rosterOf(state, decl)[0], { name: "Ogre", side: "foe", values: { ac: 4, target_hp: 20 } });
  const spoilt = await packFight("countup", "v", [{ ...standing[0], damage: 1.5 }]);
  await assert.rejects(unpackFight(spoilt), /whole number/);
});

test("a players' link holds the players' view and never a foe's hit points", async () => {
  const { isPlayersLink, packPlayers, unpackPlayers } = await import("../../docs/assets/js/fight/link.mjs");
  const { playersView } = await import("../../docs/assets/js/tracker/fighters.mjs");
  const view = {
    round: 2,
    current: "c2",
    order: [{ id: "c2" }, { id: "c1" }],
    combatants: [
      { id: "c1", name: "Aria", side: "pc", hp: 7, max: 12, state: "Hurt", tags: ["Prone"] },
      { id: "c2", name: "Ogre", side: "foe", hp: 3, max: 30, state: "Hurt", tags: [] },
    ],
  };
  const hash = await packPlayers("countup", "v1", 2, playersView(view), 0);
  assert.ok(hash.startsWith("#fight=players.") && isPlayersLink(hash));
  assert.equal(await unpackFight(hash), null); // no fight to load in a players' link
  const got = await unpackPlayers(hash);
  assert.deepEqual(got, {
    system: "countup",
    version: "v1",
    round: 2,
    at: 0,
    players: [
      { name: "Ogre", side: "foe", now: true, state: "Hurt", hp: null, tags: [] },
      { name: "Aria", side: "pc", now: false, state: "Hurt", hp: "7 / 12", tags: ["Prone"] },
    ],
  });
  // a foe's hit points are not packed even when an entry carries them
  const leaky = await packPlayers("countup", "v1", 2, [{ name: "Ogre", side: "foe", hp: "3 / 30", tags: [] }], 0);
  const packed = Buffer.from(leaky.slice("#fight=players.".length), "base64url");
  const json = await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).text();
  assert.ok(json.includes("Ogre") && !json.includes("30"), json);
  assert.equal(await unpackPlayers(await packFight("countup", "v", ROSTER)), null);
  await assert.rejects(unpackPlayers("#fight=players.%%"), FightLinkError);
});

test("what a link from other rules data loses is named by combatant and field", async () => {
  const { notFitting, stateFromRoster } = await import("../../docs/assets/js/tracker/fighters.mjs");
  const decl = { fields: [{ name: "ac", label: "Armor Class", type: "integer", min: -10, max: 50, default: 10 }], health: { input: "target_hp", default: 10 } };
  const state = stateFromRoster("countup", [{ name: "Ann", side: "pc", values: {} }, { name: "Orc", side: "foe", values: { ac: 999 } }], decl);
  const said = notFitting(
    [
      { input: "combatants[2].values.ac", message: "must be between -10 and 50 (got 999)" },
      { input: "combatants[1]", message: "is not a combatant" },
      { input: "options.ties", message: "is not a choice" },
    ],
    state,
    decl,
  );
  assert.deepEqual(said, ["Orc, Armor Class: must be between -10 and 50 (got 999)", "Ann: is not a combatant", "options.ties: is not a choice"]);
});
