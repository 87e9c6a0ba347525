// Back from a calculator to the card its link was opened from (docs/assets/js/tracker/back-to-card.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardFromHash, cardHash } from "../../docs/assets/js/tracker/back-to-card.mjs";

test("a card's fragment names its combatant, any id round-trips", () => {
  assert.equal(cardHash("c3"), "#cc-card-c3");
  for (const id of ["c3", "c 12", "ä/#?&"]) assert.equal(cardFromHash(cardHash(id)), id);
});

test("other fragments name no card", () => {
  for (const hash of ["", "#", "#fight=abc", "#cc-card-", "#cc-card-%E0%A4%A", `#cc-card-${"x".repeat(61)}`, null]) assert.equal(cardFromHash(hash), null, String(hash));
});
