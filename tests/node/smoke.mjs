// Quick check of the calc wheel under the real runtime, before the browser tests: Pyodide from
// node_modules with the build-time .pyc stdlib, the wheel unpacked from a Uint8Array, and every
// calculator's answers (defaults, stress inputs, a bad input) compared with CPython's.
// Needs `python tools/build_site.py --wheel-only` first (writes build/artifacts.json).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildArtifacts, ROOT } from "../../tools/build_artifacts.mjs";

const { artifacts, pyodideDir, python } = buildArtifacts();
const cases = JSON.parse(
  execFileSync(python, [join(ROOT, "tests/node/cpython_answers.py"), artifacts.source_wheel], { maxBuffer: 1 << 28, encoding: "utf8" }),
);
assert.ok(cases.length > 0, "CPython produced no requests: does calc/rules.json declare any calculator?");

// The site ships the stdlib cut to what calc imports (tools/make_pyc_stdlib.mjs --trim): this
// whole test runs under that cut, so a module it lacks fails here, not in a reader's browser.
if (artifacts.full_pyc_stdlib) {
  const [cut, full] = [artifacts.pyc_stdlib, artifacts.full_pyc_stdlib].map((f) => readFileSync(f).length);
  assert.ok(cut < full, `the stdlib zip under test (${cut} bytes) is not the trimmed one (full: ${full} bytes)`);
  console.log(`stdlib under test: ${(cut / 1e6).toFixed(2)} MB trimmed (full .pyc stdlib ${(full / 1e6).toFixed(2)} MB)`);
}
const t0 = performance.now();
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdLibURL: artifacts.pyc_stdlib });
const bootMs = performance.now() - t0;
pyodide.unpackArchive(new Uint8Array(readFileSync(artifacts.wheel)), "wheel");
const browser = pyodide.pyimport("calc.browser");
// The second package (calc-fight: the forecast, the tracker's fight) is unpacked at the first
// request calc.browser.package_needed names it for, as the worker loads it (never before).
const fightModules = () => pyodide.runPython("import sys; sorted(m for m in sys.modules if m.startswith(('calc.fight', 'calc.forecast')))").toJs();
assert.deepStrictEqual(fightModules(), [], "import calc.browser imported the fight or forecast code");
let fightLoaded = false;
const evaluateJson = (text) => {
  if (!fightLoaded && browser.package_needed(text) === "calc-fight") {
    pyodide.unpackArchive(new Uint8Array(readFileSync(artifacts.fight_wheel)), "wheel");
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    fightLoaded = true;
  }
  return browser.evaluate_json(text);
};
// The wheel is sourceless (tools/pyc_compile.py): its own bytecode is what got imported, and
// no source came with it.
const origin = browser.__spec__.origin;
assert.ok(origin.endsWith("/calc/browser.pyc"), `calc.browser came from ${origin}, not the wheel's bytecode`);
assert.ok(!pyodide.FS.analyzePath(origin.slice(0, -1)).exists, "the wheel carries sources it need not");
const version = pyodide.pyimport("sys").version;
assert.ok(version.startsWith("3.14"), `unexpected Python ${version}`);

let failures = 0;
let errors = 0;
for (const { request, reply } of cases) {
  const shownInputs = JSON.stringify(request.inputs ?? request.rolls ?? {});
  const what = request.calculator ?? (request.kind === "turns" ? `turns ${request.op}` : `${request.kind} ${request.hp ?? ""}`);
  const label = `${request.system}/${what} ${shownInputs.length > 100 ? `${shownInputs.slice(0, 99)}…` : shownInputs}`;
  const t = performance.now();
  const got = JSON.parse(evaluateJson(JSON.stringify(request)));
  const ms = performance.now() - t;
  try {
    assert.deepStrictEqual(got, reply);
    if (reply.error) errors += 1;
    console.log(`ok   ${label} (${ms.toFixed(1)} ms)`);
  } catch (err) {
    failures += 1;
    console.log(`FAIL ${label}\n${err.message.slice(0, 2000)}`);
  }
}
assert.ok(errors > 0 || cases.every((c) => !c.reply.error), "bad-input cases must come back as errors");
console.log(`smoke: Python ${version.split(" ")[0]} booted in ${bootMs.toFixed(0)} ms with the trimmed .pyc stdlib; ${cases.length - failures}/${cases.length} answers match CPython`);
assert.ok(fightLoaded, "no request needed calc-fight: the forecast calculators went untested");
process.exit(failures ? 1 : 0);
