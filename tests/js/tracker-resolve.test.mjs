// Resolve's follow-up (tracker/odds.mjs `turnSpent`): the turn stays until the view's `actions` say
// it is done (Python decides: nothing allowed is left that can change the fight); the page never
// counts a turn itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import { turnSpent } from "../../docs/assets/js/tracker/odds.mjs";

const view = (next, done, current = "c1") => ({ current, actions: { id: "c1", next, done, actions: [] } });

test("an attack left holds the turn", () => {
  assert.equal(turnSpent(view("quick", false), "c1"), false);
  assert.equal(turnSpent(view("quick", true), "c1"), false); // a next attack named: never spent
});

test("Python's done decides once no attack is next", () => {
  assert.equal(turnSpent(view(null, false), "c1"), false); // e.g. a defense still allowed
  assert.equal(turnSpent(view(null, true), "c1"), true); // only a move or free actions left
});

test("no count of the turn, or another combatant acting: never spent", () => {
  assert.equal(turnSpent({ current: "c1", actions: null }, "c1"), false);
  assert.equal(turnSpent(view(null, true, "c2"), "c1"), false);
});
