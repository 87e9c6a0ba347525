// The fighter-and-foe storage (docs/assets/js/presets/store.mjs): presets per system and role, the values
// carried between calculators, and export/import whose bad files change nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fits, LIMITS, openPresets, parseExport, PresetError, roleValues } from "../../docs/assets/js/presets/store.mjs";

/** An in-memory Web Storage; `full` makes every write fail as a full quota does. */
function memoryStorage() {
  const map = new Map();
  return {
    full: false,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem(k, v) {
      if (this.full) throw Object.assign(new Error("quota"), { name: "QuotaExceededError" });
      map.set(k, String(v));
    },
    removeItem: (k) => map.delete(k),
    snapshot: () => JSON.stringify([...map.entries()].sort()),
  };
}

const DECLARATION = {
  inputs: [
    { name: "to_hit", type: "integer", role: "attacker", min: -20, max: 30, default: 5 },
    { name: "attack", type: "choice", role: "attacker", options: [{ value: "melee" }, { value: "ranged" }], default: "melee" },
    { name: "hurt", type: "boolean", role: "attacker", default: false },
    { name: "dice", type: "dice", role: "attacker", default: "1d8" },
    { name: "ac", type: "integer", role: "target", min: -10, max: 50, default: 14 },
    { name: "natural_rolls", type: "boolean", default: false },
  ],
};

test("presets are kept per system and per role", () => {
  const storage = memoryStorage();
  const countup = openPresets("countup", storage);
  const segments = openPresets("segments", storage);
  countup.save("attacker", "Fighter", { to_hit: "7" });
  countup.save("target", "Orc", { ac: "13" });
  segments.save("attacker", "Thief", { bonus: "2" });
  assert.deepEqual(countup.list("attacker"), [{ name: "Fighter", values: { to_hit: "7" } }]);
  assert.deepEqual(countup.list("target"), [{ name: "Orc", values: { ac: "13" } }]);
  assert.deepEqual(segments.list("attacker"), [{ name: "Thief", values: { bonus: "2" } }]);
  assert.deepEqual(segments.list("target"), []);
  assert.equal(openPresets("phases", storage).list("attacker").length, 0);
});

test("the carried attacker and target are per system too", () => {
  const storage = memoryStorage();
  openPresets("countup", storage).remember({ attacker: { to_hit: "9" }, target: { ac: "17" } }, { calculator: "hit", title: "Hit chance" });
  assert.deepEqual(openPresets("segments", storage).current(), { attacker: {}, target: {}, from: null });
  const current = openPresets("countup", storage).current();
  assert.deepEqual(current, { attacker: { to_hit: "9" }, target: { ac: "17" }, from: { calculator: "hit", title: "Hit chance" } });
});

test("remembering merges: inputs another calculator lacks are kept", () => {
  const store = openPresets("countup", memoryStorage());
  store.remember({ attacker: { to_hit: "9", dice: "1d6" }, target: {} }, { calculator: "round", title: "Damage per round" });
  store.remember({ attacker: { to_hit: "4" }, target: { ac: "12" } }, { calculator: "hit", title: "Hit chance" });
  assert.deepEqual(store.current().attacker, { to_hit: "4", dice: "1d6" });
  assert.equal(store.current().from.calculator, "hit");
  store.forget();
  assert.deepEqual(store.current(), { attacker: {}, target: {}, from: null });
});

test("names with markup stay text, exactly as typed (trimmed)", () => {
  const store = openPresets("countup", memoryStorage());
  const name = '<img src=x onerror="alert(1)"> & <b>Orc</b>';
  store.save("target", `  ${name} `, { ac: "13" });
  assert.equal(store.list("target")[0].name, name);
  const again = openPresets("countup", memoryStorage());
  again.importJSON(store.exportJSON());
  assert.equal(again.get("target", name).name, name);
});

test("save replaces a preset of the same name (case ignored); rename refuses a clash; remove", () => {
  const store = openPresets("countup", memoryStorage());
  assert.deepEqual(store.save("attacker", "Fighter", { to_hit: "5" }), { name: "Fighter", replaced: false });
  assert.deepEqual(store.save("attacker", "fighter", { to_hit: "6" }), { name: "fighter", replaced: true });
  assert.deepEqual(store.list("attacker"), [{ name: "fighter", values: { to_hit: "6" } }]);
  store.save("attacker", "Archer", { attack: "ranged" });
  assert.throws(() => store.rename("attacker", "Archer", "FIGHTER"), /already called/);
  assert.equal(store.rename("attacker", "Archer", "Elf archer"), "Elf archer");
  assert.deepEqual(
    store.list("attacker").map((p) => p.name),
    ["Elf archer", "fighter"],
  );
  assert.equal(store.remove("attacker", "FIGHTER"), true);
  assert.equal(store.remove("attacker", "nobody"), false);
  assert.deepEqual(
    store.list("attacker").map((p) => p.name),
    ["Elf archer"],
  );
});

test("bad names and values are refused with a message and store nothing", () => {
  const storage = memoryStorage();
  const store = openPresets("countup", storage);
  const before = storage.snapshot();
  assert.throws(() => store.save("attacker", "   ", { to_hit: "5" }), (err) => err instanceof PresetError && /name/.test(err.message));
  assert.throws(() => store.save("attacker", "x".repeat(LIMITS.name + 1), { to_hit: "5" }), new RegExp(`at most ${LIMITS.name} characters`));
  assert.throws(() => store.save("attacker", "Tab\tname\u0007", { to_hit: "5" }), /control/);
  assert.throws(() => store.save("attacker", "Fighter", {}), /no attacker values/);
  assert.throws(() => store.save("attacker", "Fighter", { "bad name": "1" }), /not an input name/);
  assert.throws(() => store.save("villain", "Fighter", { to_hit: "1" }), /Unknown kind/);
  assert.equal(storage.snapshot(), before);
});

test("export then import into an empty store gives the same presets", () => {
  const store = openPresets("countup", memoryStorage());
  store.save("attacker", "Fighter", { to_hit: "7", hurt: "true", dice: "1d8+1" });
  store.save("target", "Ogre", { ac: "15" });
  const fresh = openPresets("countup", memoryStorage());
  assert.deepEqual(fresh.importJSON(store.exportJSON()), { added: 2, replaced: 0 });
  assert.deepEqual(fresh.list("attacker"), store.list("attacker"));
  assert.deepEqual(fresh.list("target"), store.list("target"));
  assert.deepEqual(fresh.importJSON(store.exportJSON()), { added: 0, replaced: 2 });
});

const BAD_FILES = {
  "not JSON": ["{nope", /not JSON/],
  "another format": [JSON.stringify({ format: "other", version: 1, system: "countup", presets: {} }), /not a Combat Codex presets file/],
  "another version": [JSON.stringify({ format: "combat-codex-presets", version: 2, system: "countup", presets: {} }), /version 2/],
  "another system": [JSON.stringify({ format: "combat-codex-presets", version: 1, system: "segments", presets: {} }), /“segments”, not “countup”/],
  "unknown role": [JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { villain: [] } }), /unknown kind/],
  "blank name deep in the file": [
    JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { attacker: [{ name: "A", values: { to_hit: 1 } }], target: [{ name: "B", values: {} }, { name: " ", values: {} }] } }),
    /presets\.target\[2\]\.name: Give the preset a name/,
  ],
  "duplicate names": [JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { target: [{ name: "Orc", values: {} }, { name: "orc", values: {} }] } }), /appears twice/],
  "a value that is an object": [JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { attacker: [{ name: "A", values: { to_hit: { x: 1 } } }] } }), /presets\.attacker\[1\]\.values\.to_hit: must be text/],
  "too many presets": [
    JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { target: Array.from({ length: LIMITS.presets + 1 }, (_, i) => ({ name: `T${i}`, values: {} })) } }),
    /at most 100 presets/,
  ],
  "too large": [" ".repeat(LIMITS.file + 1), /too large/],
};

for (const [label, [text, message]] of Object.entries(BAD_FILES)) {
  test(`a bad import (${label}) says why and changes nothing`, () => {
    const storage = memoryStorage();
    const store = openPresets("countup", storage);
    store.save("attacker", "Fighter", { to_hit: "7" });
    store.remember({ attacker: { to_hit: "7" }, target: { ac: "12" } }, { calculator: "hit", title: "Hit chance" });
    const before = storage.snapshot();
    assert.throws(
      () => store.importJSON(text),
      (err) => err instanceof PresetError && message.test(err.message),
    );
    assert.equal(storage.snapshot(), before);
  });
}

test("an import that would pass the limit together with the stored presets changes nothing", () => {
  const storage = memoryStorage();
  const store = openPresets("countup", storage);
  for (let i = 0; i < LIMITS.presets; i += 1) store.save("target", `Old ${i}`, { ac: String(i % 40) });
  const before = storage.snapshot();
  const file = JSON.stringify({ format: "combat-codex-presets", version: 1, system: "countup", presets: { target: [{ name: "New", values: { ac: "3" } }] } });
  assert.throws(() => store.importJSON(file), /Nothing was imported/);
  assert.equal(storage.snapshot(), before);
});

test("a full storage is reported and the previous state stays", () => {
  const storage = memoryStorage();
  const store = openPresets("countup", storage);
  store.save("attacker", "Fighter", { to_hit: "7" });
  storage.full = true;
  assert.throws(() => store.save("attacker", "Archer", { to_hit: "3" }), /nothing was saved/);
  assert.deepEqual(
    store.list("attacker").map((p) => p.name),
    ["Fighter"],
  );
});

test("spoilt storage reads as empty rather than breaking the page", () => {
  const storage = memoryStorage();
  storage.setItem("cc-presets:countup", "{not json");
  storage.setItem("cc-current:countup", JSON.stringify({ attacker: "x", target: { ac: 3 } }));
  const store = openPresets("countup", storage);
  assert.deepEqual(store.list("attacker"), []);
  assert.deepEqual(store.current(), { attacker: {}, target: { ac: "3" }, from: null });
  assert.deepEqual(openPresets("countup", null).list("target"), []); // no storage at all
});

test("fits: only values the input can show are carried into it", () => {
  const [toHit, attack, hurt, dice] = DECLARATION.inputs;
  assert.ok(fits(toHit, "7") && fits(toHit, "-20") && fits(toHit, " +3 ") && fits(toHit, "−2"));
  assert.ok(!fits(toHit, "31") && !fits(toHit, "") && !fits(toHit, "zz") && !fits(toHit, "1.5"));
  assert.ok(fits(attack, "ranged") && !fits(attack, "thrown"));
  assert.ok(fits(hurt, "false") && !fits(hurt, "yes"));
  assert.ok(fits(dice, "2d6+1") && !fits(dice, "  "));
  const list = { name: "routine", type: "list", max_items: 2 };
  assert.ok(fits(list, '[{"name":"Sword"}]') && !fits(list, "[1]") && !fits(list, "[{},{},{}]") && !fits(list, "{"));
});

test("roleValues keeps the role inputs that fit, by role", () => {
  const state = { to_hit: "7", attack: "thrown", hurt: "true", dice: "1d6", ac: "99", natural_rolls: "true" };
  assert.deepEqual(roleValues(DECLARATION, state), { attacker: { to_hit: "7", hurt: "true", dice: "1d6" }, target: {} });
});

test("parseExport reads what exportJSON writes", () => {
  const store = openPresets("phases", memoryStorage());
  store.save("target", "Goblin", { defense: "2" });
  assert.deepEqual(parseExport(store.exportJSON(), "phases"), { attacker: [], target: [{ name: "Goblin", values: { defense: "2" } }] });
});
