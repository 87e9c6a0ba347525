// The calculators' URL state (docs/assets/js/calculator/url-state.mjs): a link round-trips the inputs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { readParams, withParams } from "../../docs/assets/js/calculator/url-state.mjs";

const DECLARATION = { inputs: [{ name: "ac" }, { name: "mode" }, { name: "combatants" }] };

test("reads only the declared inputs under the calculator's prefix", () => {
  const state = readParams("hit.", DECLARATION, "?hit.ac=14&hit.mode=ranged&hit.other=1&ac=99");
  assert.deepEqual(state, { ac: "14", mode: "ranged" });
});

test("missing parameters are left out, empty ones kept as empty text", () => {
  assert.deepEqual(readParams("", DECLARATION, ""), {});
  assert.deepEqual(readParams("", DECLARATION, "?ac="), { ac: "" });
});

test("writing then reading gives the same state, special characters included", () => {
  const state = { ac: "-3", combatants: '[{"name":"Orc & <b>","modifier":2}]' };
  const href = withParams("https://example.test/countup/attacks/?keep=1#attack-melee", "hit.", state);
  const url = new URL(href);
  assert.equal(url.searchParams.get("keep"), "1");
  assert.equal(url.hash, "#attack-melee");
  assert.deepEqual(readParams("hit.", DECLARATION, url.search), state);
});

test("writing replaces a parameter rather than repeating it", () => {
  const href = withParams("https://example.test/p/?hit.ac=10", "hit.", { ac: "12" });
  assert.deepEqual(new URL(href).searchParams.getAll("hit.ac"), ["12"]);
});

// countup damage before the merged form: its own `misc` was the damage bonus; it is `damage_misc`
// now, and `misc` is the to-hit bonus the form took from the hit calculator.
const RENAMED = { inputs: [{ name: "misc" }, { name: "dice" }, { name: "damage_misc", was: "misc" }] };

test("an old link's renamed parameter goes to the renamed input, not to the input now called so", () => {
  assert.deepEqual(readParams("", RENAMED, "?dice=1d8&misc=2"), { dice: "1d8", damage_misc: "2" });
});

test("a link with the new name reads every parameter as named", () => {
  const state = { misc: "1", dice: "1d8", damage_misc: "2" };
  const href = withParams("https://example.test/countup/calculators/damage/", "", state);
  assert.deepEqual(readParams("", RENAMED, new URL(href).search), state);
  assert.deepEqual(readParams("damage.", RENAMED, "?damage.misc=3&damage.damage_misc=0"), { misc: "3", damage_misc: "0" });
});
