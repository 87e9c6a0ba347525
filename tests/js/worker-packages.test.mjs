// The worker's package loader (docs/assets/js/boot/worker-packages.mjs): Python says which package
// a request needs (calc.browser.package_needed) only while one is left to load; once every package
// of calc.packages.PACKAGES is loaded, no request is parsed twice.
import assert from "node:assert/strict";
import { test } from "node:test";

import { packageLoader } from "../../docs/assets/js/boot/worker-packages.mjs";

/** A stand-in for the started Pyodide: `asked` counts package_needed's calls. */
function fakePyodide() {
  const fake = { asked: [], loadedPackages: { calc: true } };
  const modules = {
    "calc.browser": { package_needed: (text) => (fake.asked.push(text), JSON.parse(text).kind === "fight" ? "calc-fight" : "calc") },
    "calc.packages": { PACKAGES: { toJs: () => ["calc", "calc-fight"] } },
    importlib: { invalidate_caches: () => {} },
  };
  fake.pyimport = (name) => modules[name];
  fake.loadPackage = async (name) => (fake.loadedPackages[name] = true);
  return fake;
}

test("Python is asked which package a request needs only until every package is loaded", async () => {
  const pyodide = fakePyodide();
  const packages = packageLoader(pyodide, { "calc-fight": "../../wheels/calc_fight.whl" });
  assert.equal(packages.needed({ system: "countup", calculator: "hit" }), "calc");
  const fight = { kind: "fight", system: "countup" };
  assert.equal(packages.needed(fight), "calc-fight");
  assert.equal(pyodide.asked.length, 2);
  await packages.ensure("calc-fight");
  assert.equal(packages.needed(fight), "calc", "nothing left to load: nothing to ask");
  assert.equal(packages.needed({ system: "countup", calculator: "hit" }), "calc");
  assert.equal(pyodide.asked.length, 2, "no request parsed for the question once calc-fight is loaded");
});
