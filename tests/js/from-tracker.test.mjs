// A calculator opened from a tracker card (docs/assets/js/calculator/from-tracker.mjs): the link's
// query round-trips the whole question, and the notice names the values the fight gave.
import assert from "node:assert/strict";
import { test } from "node:test";

import { shownText, trackerInputs, trackerNotice, trackerQuery } from "../../docs/assets/js/calculator/from-tracker.mjs";
import { readParams } from "../../docs/assets/js/calculator/url-state.mjs";

const DECLARATION = {
  inputs: [
    { name: "to_hit", type: "integer", label: "To-hit bonus" },
    { name: "hurt", type: "boolean", label: "Attacker is Hurt" },
    { name: "target", type: "choice", label: "Target", options: [{ value: "npc", label: "An NPC" }, { value: "character", label: "A player character" }] },
    { name: "target_hp", type: "integer", label: "Target's hit points" },
    { name: "routine", type: "list", label: "Routine" },
  ],
};

test("the query carries every input and names them as the tracker's; the notice lists them", () => {
  const inputs = { to_hit: 4, hurt: true, target: "character", target_hp: -1 };
  const search = `?${trackerQuery(inputs, Object.keys(inputs))}`;
  const params = readParams("", DECLARATION, search);
  assert.deepEqual(params, { to_hit: "4", hurt: "true", target: "character", target_hp: "-1" });
  assert.deepEqual(trackerInputs(DECLARATION, params, search), ["to_hit", "hurt", "target", "target_hp"]);
  assert.equal(trackerNotice(DECLARATION, params, search), "From the encounter tracker: To-hit bonus 4 · Attacker is Hurt yes · Target A player character · Target's hit points −1. The other inputs are this calculator's defaults.");
});

test("a list input travels as JSON text and is shown by its length", () => {
  const search = `?${trackerQuery({ routine: [{ dice: "1d8" }, { dice: "1d4" }] }, ["routine"])}`;
  const params = readParams("", DECLARATION, search);
  assert.deepEqual(JSON.parse(params.routine), [{ dice: "1d8" }, { dice: "1d4" }]);
  assert.equal(shownText(DECLARATION.inputs[4], params.routine), "2 entries");
});

test("no notice without the tracker's mark, nor for values it did not give", () => {
  const params = readParams("", DECLARATION, "?to_hit=4&target_hp=9");
  assert.equal(trackerNotice(DECLARATION, params, "?to_hit=4&target_hp=9"), null);
  const search = "?to_hit=4&target_hp=9&from=tracker:target_hp";
  assert.deepEqual(trackerInputs(DECLARATION, readParams("", DECLARATION, search), search), ["target_hp"]);
  assert.equal(trackerNotice(DECLARATION, {}, "?from=elsewhere"), null);
});

test("user text stays text: a value is never markup, only the notice's words", () => {
  const search = `?${trackerQuery({ target: "<b>x</b>" }, ["target"])}`;
  const text = trackerNotice(DECLARATION, readParams("", DECLARATION, search), search);
  assert.ok(text.includes("<b>x</b>")); // shown through textContent by calculators.mjs
});
