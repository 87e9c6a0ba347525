// Words the calculator form derives from declarations (docs/assets/js/calculator/form-text.mjs) and the
// percentages and same-origin links of the results (calc-results.mjs, dom.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { percent } from "../../docs/assets/js/calculator/calc-results.mjs";
import { siteHref } from "../../docs/assets/js/shared/dom.mjs";
import { capitalise, rangeHint, shorten, singular } from "../../docs/assets/js/calculator/form-text.mjs";

test("range hints say what an integer input allows", () => {
  assert.equal(rangeHint({ min: -10, max: 40 }), "-10 to 40");
  assert.equal(rangeHint({ min: 0 }), "0 or more");
  assert.equal(rangeHint({ max: 5, min: null }), "5 or less");
  assert.equal(rangeHint({}), "");
});

test("list entries are named in the singular, messages capitalised, quotes shortened", () => {
  assert.equal(singular("Combatants"), "Combatant");
  assert.equal(singular("Party"), "Party");
  assert.equal(capitalise("must be a whole number"), "Must be a whole number");
  assert.equal(capitalise(""), "");
  assert.equal(shorten("short"), "short");
  const long = "x".repeat(60);
  assert.equal(shorten(long), `${"x".repeat(39)}…`);
  assert.equal(shorten(long).length, 40);
});

test("percentages: exact ends, two decimals, and tiny or near-certain chances", () => {
  assert.equal(percent({ fraction: "0", float: 0 }), "0%");
  assert.equal(percent({ fraction: "1", float: 1 }), "100%");
  assert.equal(percent({ fraction: "3/4", float: 0.75 }), "75%");
  assert.equal(percent({ fraction: "1/3", float: 1 / 3 }), "33.33%");
  assert.equal(percent({ fraction: "1/1000000", float: 1e-6 }), "<0.01%");
  assert.equal(percent({ fraction: "999999/1000000", float: 0.999999 }), ">99.99%");
});

test("site links stay on the site's origin", () => {
  const root = new URL("https://codex.test/base/");
  assert.equal(siteHref("countup/attacks/#attack-melee", root), "https://codex.test/base/countup/attacks/#attack-melee");
  assert.equal(siteHref("https://elsewhere.test/x", root), null);
  assert.equal(siteHref("//elsewhere.test/x", root), null);
});
