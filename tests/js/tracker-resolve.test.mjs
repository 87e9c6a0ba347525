// Resolve's follow-up (tracker/odds.mjs `turnSpent`): the turn stays while the view's `actions`
// holds an attack or an action with a cost; the page never counts a turn itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import { turnSpent } from "../../docs/assets/js/tracker/odds.mjs";

const row = (kind, allowed, cost) => ({ kind, allowed, cost, attack: kind === "standard" });
const view = (next, actions, current = "c1") => ({ current, actions: { id: "c1", next, actions } });

test("an attack left holds the turn", () => {
  assert.equal(turnSpent(view("quick", [row("quick", true, { ap: 1 })]), "c1"), false);
});

test("an action with a cost still allowed holds the turn; a free one does not", () => {
  assert.equal(turnSpent(view(null, [row("secondary", true, { secondary: 1 }), row("free", true, {})]), "c1"), false);
  assert.equal(turnSpent(view(null, [row("secondary", false, { secondary: 1 }), row("free", true, {})]), "c1"), true);
});

test("nothing left: spent", () => {
  assert.equal(turnSpent(view(null, [row("standard", false, { ap: 2 })]), "c1"), true);
});

test("no count of the turn, or another combatant acting: never spent", () => {
  assert.equal(turnSpent({ current: "c1", actions: null }, "c1"), false);
  assert.equal(turnSpent(view(null, [], "c2"), "c1"), false);
});
