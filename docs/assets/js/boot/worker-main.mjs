// The Python worker, imported by its entry (pyodide-worker.mjs, which has already requested the
// runtime's files: `run` takes them over). One per tab, created by worker-owner.mjs only on pages
// that hold a calculator or a tracker. Protocol (see calc-worker-client.mjs):
//   worker → page: {type: "progress", stage, text} | {type: "ready", ms, source: "normal" | "snapshot"}
//                  | {type: "failed", what, message}
//                  {id, result, applies?, cells?} | {id, error: {input, message, kind}, applies?, cells?}
//   page → worker: {id, request}            (request: {system, calculator, inputs, form?})
//                  | {type: "go"}           (start Python now: see CONFIG.hold)
// Every runtime URL comes from runtime.mjs, which tools/build_site.py generates from the exactly
// pinned npm package (package.json is the one place the Pyodide version is written). The start's
// downloads are watched by runtime-downloads.mjs; requests are answered by worker-requests.mjs.
import { RUNTIME } from "./runtime.mjs";
import { bootFromSnapshot } from "./snapshot-loader.mjs";
import { LoadFailure, step } from "./load-failure.mjs";
import { inCache, RuntimeDownloads } from "./runtime-downloads.mjs";
import { STALL_MS as DEFAULT_STALL_MS } from "./stall-watch.mjs";
import { packageLoader } from "./worker-packages.mjs";
import { requestQueue } from "./worker-requests.mjs";

const here = (path) => new URL(path, import.meta.url).href;
let started = performance.now(); // the entry's start (run)
let bootSource = "normal"; // "snapshot" when restored from the build-time memory snapshot
/** Milestones of the start, in ms from the worker's start (sent with "ready"; the benchmark's
 * breakdown of what a reader waits on): this module running (`main`), runtime module imported, wasm instantiated (Python's
 * file system set up), Python booted with calc loaded, calc imported. */
const milestones = {};
const milestone = (name) => (milestones[name] = Math.round(performance.now() - started));

function progress(stage, text) {
  if (stage !== "download") downloads.reporting = false; // the bar is for the download only
  self.postMessage({ type: "progress", stage, text });
}

// What Pyodide reports on stderr while starting (shown when the calc package fails to load).
const bootLog = [];
function onStderr(line) {
  console.warn(line);
  if (!downloads.started) bootLog.push(line);
}

// Settings the page passes in the worker's name (worker-spec.mjs): {stallMs, hold, controlled,
// fastLinkMbps, busyMs, packages, fresh}.
const CONFIG = (() => {
  try {
    return JSON.parse(self.name || "{}") || {};
  } catch {
    return {};
  }
})();
/** Started from a page's head (worker-early.mjs): download the runtime at once, but hold
 * Python's start (CPU work) until the page says "go" (its reader edits, or it is idle), so the
 * downloads overlap the page's own loading while the start never competes with it. */
let go = null;
const goPromise = CONFIG.hold ? new Promise((resolve) => (go = resolve)) : Promise.resolve();
let heldSaid = !CONFIG.hold;
/** Waits for "go" when held; says so once ({type: "held"}: the page ignores it, tests read it). */
function goSignal() {
  if (!heldSaid) self.postMessage({ type: "held" });
  heldSaid = true;
  return goPromise;
}

/** A runtime download that receives no bytes for this long has stalled (a dead server or link):
 * the start fails, naming the file, and the page offers Retry (stall-watch.mjs; a test may set a
 * shorter time through the `cc-stall-ms` knob). */
const STALL_MS = CONFIG.stallMs > 0 ? CONFIG.stallMs : DEFAULT_STALL_MS;
let downloads; // RuntimeDownloads, made by `run`

/** Once a snapshot download has started, a slower body than this aborts it: the normal start
 * then fetches the wasm again (the snapshot's start took the early one), a cost paid only by a
 * link that slowed fourfold after it was measured. */
const SNAPSHOT_BUDGET_MS = 1500;

// Pyodide's two modules too (already requested by the entry when the build named them): one URL
// is one module, so Pyodide's own import of pyodide.asm.mjs later finds it loaded. A failure is
// reported by the import that needs it.
const runtimeUrl = here(RUNTIME.pyodideDir + "pyodide.mjs");
let runtimeModule; // Promise of pyodide.mjs, from `run`

/** Start Python: {evaluateJson (calc.browser's door), runtime (the Pyodide instance), ms}. */
async function boot() {
  if (await downloads.cached()) {
    progress("start", "Starting Python…");
  } else {
    downloads.report(`Downloading the Python runtime (${RUNTIME.downloadText})…`);
    progress("download", downloads.text);
  }
  const { loadPyodide } = await step(`the Python runtime (${runtimeUrl})`, () => runtimeModule);
  milestone("module");
  const urls = { indexURL: here(RUNTIME.pyodideDir), stdLibURL: here(RUNTIME.stdlib), lockFileURL: here(RUNTIME.lock) };
  const quiet = { stdout: () => {}, stderr: onStderr };

  /** The normal start: boot, with the calc wheel downloaded meanwhile, then import calc. */
  async function normalStart() {
    const pyodide = await step("Python start-up (pyodide.asm.wasm / standard library)", () =>
      Promise.race([
        downloads.failure,
        loadPyodide({
          ...urls,
          ...quiet,
          packages: ["calc"], // fetched while Python boots
          fsInit: async () => {
            milestone("wasm"); // everything downloaded and compiled: Python's start comes next
            await goSignal();
            progress("start", "Starting Python…");
          },
        }),
      ]),
    );
    milestone("booted");
    progress("import", "Loading the calculators…");
    if (!pyodide.loadedPackages.calc) {
      const why = bootLog.length ? bootLog[bootLog.length - 1] : "download failed";
      throw new LoadFailure(`the calculators package (${here(RUNTIME.wheel)})`, `${why} (or its sha256 did not match the lock file)`);
    }
    return pyodide;
  }

  let pyodide;
  let proven = null; // calc.browser.evaluate_json when the snapshot already proved it works
  bootSource = "normal";
  if (RUNTIME.snapshot) {
    // Restore a build-time memory snapshot (calc already imported): from the service worker's
    // cache when it holds it, else downloaded only over a fast link (runtime-downloads.mjs).
    // Any problem → normal start.
    const s = RUNTIME.snapshot;
    const cached = await inCache(here(s.url));
    const download = !cached && (await downloads.link.verdict);
    // A restore is all CPU: it waits for "go" (a downloaded snapshot once its bytes are here,
    // in loadPyodide below). The normal start downloads meanwhile and waits at its fsInit.
    if (cached) await goSignal();
    const booted = await bootFromSnapshot({
      // Pyodide waits forever on a runtime file it cannot fetch: fail fast here too (the normal
      // start then reports the file by name).
      loadPyodide: async (options) => {
        if (download) await goSignal();
        return Promise.race([downloads.failure, loadPyodide(options)]);
      },
      ...urls,
      snapshotURL: here(s.url),
      sha256: s.sha256,
      rawSha256: s.rawSha256,
      probe: s.probe,
      fetch: downloads.withinBudget(SNAPSHOT_BUDGET_MS),
      onlyIfCached: !download,
      options: quiet,
      fallback: normalStart,
      onFallback: (err) => console.warn(`Memory snapshot not used (${err.message}); normal start-up instead.`),
    });
    pyodide = booted.pyodide;
    proven = booted.evaluateJson;
    bootSource = booted.source === "snapshot" ? "snapshot" : "normal";
  } else {
    pyodide = await normalStart();
  }
  // Import right away, so a broken package surfaces now and not at the first request.
  const browser = proven ? null : await step("the calculators package (import calc)", () => pyodide.pyimport("calc.browser"));
  const evaluateJson = proven || browser.evaluate_json;
  downloads.started = true;
  milestone("imported");
  const packages = packageLoader(pyodide, RUNTIME.packages || {});
  // A page that will certainly ask for another package (the tracker, a forecast: its head says
  // so, worker-spec.mjs) has it loaded now, so its first answer does not wait for it.
  for (const name of CONFIG.packages || []) packages.ensure(name).catch((err) => console.warn(`${name}: ${err.message}`));
  return { evaluateJson, runtime: pyodide, packages, ms: Math.round(performance.now() - started) };
}

/**
 * Start: take over the entry's requests in flight (`prefetched`: packed URL → prefetch, see
 * pyodide-worker.mjs), request what they lack, boot Python and answer requests, the messages that
 * arrived before this module (`held`) first. `started`: the entry's performance.now() at its start.
 */
export function run({ started: entryStarted = performance.now(), prefetched = new Map(), held = [] } = {}) {
  started = entryStarted;
  milestone("main");
  downloads = new RuntimeDownloads({ here, runtime: RUNTIME, controlled: CONFIG.controlled, fresh: CONFIG.fresh, stallMs: STALL_MS, fastLinkMbps: CONFIG.fastLinkMbps, progress, prefetched });
  downloads.install(); // before anything fetches: the wasm and the standard library are requested now
  runtimeModule = import(runtimeUrl);
  runtimeModule.catch(() => {});
  import(here(RUNTIME.pyodideDir + "pyodide.asm.mjs")).catch(() => {});

  const ready = boot().then(
    // startedAt: when the worker's entry began to run (epoch ms), so the page can place the
    // milestones on its own clock (the worker's clock starts earlier, before its entry was fetched).
    (python) => {
      const { ms } = python;
      self.postMessage({ type: "ready", ms, source: bootSource, build: RUNTIME.build, milestones, linkRate: downloads.link.rate && Math.round(downloads.link.rate), startedAt: performance.timeOrigin + started });
      return python;
    },
    (err) => {
      self.postMessage({ type: "failed", what: err.what || "Python start-up", message: err.message });
      return { error: err };
    },
  );

  const take = requestQueue(ready, CONFIG.busyMs);
  const onMessage = (event) => {
    if (event.data?.type === "go") return go?.();
    take(event.data);
  };
  self.onmessage = onMessage;
  for (const event of held.splice(0)) onMessage(event);
}
