// The module Web Worker that runs Python. One per tab, created by calc-worker-client.mjs only on
// pages that hold a calculator. Protocol (see calc-worker-client.mjs):
//   worker → page: {type: "progress", stage, text} | {type: "ready", ms} | {type: "failed", what, message}
//                  {id, result} | {id, error: {input, message, kind}}
//   page → worker: {id, request}            (request: {system, calculator, inputs})
// Every runtime URL comes from runtime.mjs, which tools/build_site.py generates from the exactly
// pinned npm package (package.json is the one place the Pyodide version is written).
import { RUNTIME } from "./runtime.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const started = performance.now();
let evaluateJson = null;

function progress(stage, text) {
  self.postMessage({ type: "progress", stage, text });
}

class LoadFailure extends Error {
  constructor(what, cause) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.what = what;
  }
}

async function step(what, work) {
  try {
    return await work();
  } catch (err) {
    throw err instanceof LoadFailure ? err : new LoadFailure(what, err);
  }
}

async function boot() {
  progress("download", `Downloading the Python runtime (${RUNTIME.downloadText})…`);
  const runtimeUrl = here(RUNTIME.pyodideDir + "pyodide.mjs");
  const { loadPyodide } = await step(`the Python runtime (${runtimeUrl})`, () => import(runtimeUrl));
  const pyodide = await step("Python start-up (pyodide.asm.wasm / standard library)", () =>
    loadPyodide({
      indexURL: here(RUNTIME.pyodideDir),
      stdLibURL: here(RUNTIME.stdlib),
      lockFileURL: here(RUNTIME.lock),
      packages: ["calc"], // fetched while Python boots
      fsInit: async () => progress("start", "Starting Python…"),
      stdout: () => {},
      stderr: (line) => console.warn(line),
    }),
  );
  progress("import", "Loading the calculators…");
  if (!pyodide.loadedPackages.calc) {
    throw new LoadFailure(`the calculators package (${here(RUNTIME.wheel)})`, "download failed or its sha256 did not match the lock file");
  }
  // Import right away, so a broken package surfaces now and not at the first request.
  const browser = await step("the calculators package (import calc)", () => pyodide.pyimport("calc.browser"));
  evaluateJson = browser.evaluate_json;
  return Math.round(performance.now() - started);
}

let bootError = null;
const ready = boot().then(
  (ms) => self.postMessage({ type: "ready", ms }),
  (err) => {
    bootError = err;
    self.postMessage({ type: "failed", what: err.what || "Python start-up", message: err.message });
  },
);

self.onmessage = async (event) => {
  const { id, request } = event.data;
  await ready;
  if (bootError) {
    self.postMessage({ id, error: { input: null, message: `Python did not start: ${bootError.message}`, kind: "LoadFailure" } });
    return;
  }
  try {
    const t0 = performance.now();
    const reply = JSON.parse(evaluateJson(JSON.stringify(request)));
    const ms = performance.now() - t0;
    self.postMessage(reply.error ? { id, error: reply.error, ms } : { id, result: reply.result, ms });
  } catch (err) {
    // Not a CalcError: a bug in an engine. Report it as such, never silently.
    self.postMessage({ id, error: { input: null, message: `Internal error: ${lastLine(err.message)}`, kind: "InternalError" } });
  }
};

function lastLine(text) {
  const lines = String(text).trim().split("\n");
  return lines[lines.length - 1];
}
