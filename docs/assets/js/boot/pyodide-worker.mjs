// The module Web Worker that runs Python. One per tab, created by calc-worker-client.mjs only on
// pages that hold a calculator. Protocol (see calc-worker-client.mjs):
//   worker → page: {type: "progress", stage, text} | {type: "ready", ms, source: "normal" | "snapshot"}
//                  | {type: "failed", what, message}
//                  {id, result} | {id, error: {input, message, kind}}
//   page → worker: {id, request}            (request: {system, calculator, inputs})
//                  | {type: "go"}           (start Python now: see CONFIG.hold)
// Every runtime URL comes from runtime.mjs, which tools/build_site.py generates from the exactly
// pinned npm package (package.json is the one place the Pyodide version is written).
import { RUNTIME } from "./runtime.mjs";
import { bootFromSnapshot } from "./snapshot-loader.mjs";
import { keepForServiceWorker } from "./handoff.mjs";
import { gunzipped } from "./gunzip.mjs";
import { LinkProbe } from "./link-probe.mjs";
import { STALL_MS as DEFAULT_STALL_MS, StallWatch } from "./stall-watch.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const started = performance.now();
let evaluateJson = null;
let runtime = null; // the Pyodide instance, once started
let bootSource = "normal"; // "snapshot" when restored from the build-time memory snapshot
/** Milestones of the start, in ms from the worker's start (sent with "ready"; the benchmark's
 * breakdown of what a reader waits on): runtime module imported, wasm instantiated (Python's
 * file system set up), Python booted with calc loaded, calc imported. */
const milestones = {};
const milestone = (name) => (milestones[name] = Math.round(performance.now() - started));

function progress(stage, text) {
  if (stage !== "download") reporting = false; // the bar is for the download only
  self.postMessage({ type: "progress", stage, text });
}

class LoadFailure extends Error {
  constructor(what, cause) {
    // A Python traceback's last line says what went wrong; the rest is noise for a reader.
    super(lastLine(cause instanceof Error ? cause.message : (cause?.message ?? String(cause))));
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

// What Pyodide reports on stderr while starting (shown when the calc package fails to load).
const bootLog = [];
function onStderr(line) {
  console.warn(line);
  if (!evaluateJson) bootLog.push(line);
}

// Settings the page passes in the worker's name (worker-spec.mjs): {stallMs, hold, controlled,
// fastLinkMbps, busyMs}.
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

// Pyodide does not always reject when a runtime file cannot be downloaded: for pyodide.asm.wasm
// it logs and waits forever, and on a connection that stops mid-file it waits for as long as the
// socket stays open. So, while booting, watch this worker's own fetches and fail fast, naming
// the file, on any HTTP error, network failure or stall; and count their bytes for the page's
// progress bar.
let downloadFailed = null;
const downloadFailure = new Promise((_, reject) => {
  downloadFailed = reject;
});
downloadFailure.catch(() => {});
// What is fetched is also kept for the service worker's precache (no second download), on a
// page no service worker controls yet (a first visit). A controlled page's fetches come from its
// service worker; a copy would only outlive that build (a page of the old build still open
// after a new one activated would hand over the old build's files).
const nativeFetch = CONFIG.controlled ? self.fetch.bind(self) : keepForServiceWorker(self.fetch.bind(self));
/** What Pyodide asks for by its plain name and the build ships gzip-compressed (build_site.py
 * WASM_GZ): the compressed file is fetched (and watched, and handed over) in its place. A browser
 * without DecompressionStream gets the plain file, which the site keeps (not precached: such a
 * browser's calculators work online only). */
const COMPRESSED = new Map(
  typeof DecompressionStream === "function"
    ? [[here(RUNTIME.pyodideDir + "pyodide.asm.wasm"), { url: here(RUNTIME.wasm), type: "application/wasm" }]]
    : [],
);
self.fetch = async (input, init = {}) => {
  const url = String(input instanceof Request ? input.url : input);
  const requested = early.get(url);
  if (requested) {
    early.delete(url); // each early request answers once: Pyodide's own
    return requested;
  }
  const packed = COMPRESSED.get(url);
  if (!packed) return watchedFetch(input, init);
  const response = await watchedFetch(packed.url, init);
  return response.ok ? gunzipped(response, { "Content-Type": packed.type }) : response;
};
async function watchedFetch(input, init) {
  if (evaluateJson) return nativeFetch(input, init); // started: nothing more to watch
  const url = String(input instanceof Request ? input.url : input);
  const name = url.split("/").pop().split("?")[0];
  const control = new AbortController();
  init.signal?.addEventListener("abort", () => control.abort(init.signal.reason));
  const stall = stallWatch(name, control);
  downloading += 1; // from the request on: a download whose headers are late is still under way
  let response;
  try {
    response = await nativeFetch(input, { ...init, signal: control.signal });
  } catch (err) {
    stall.stop();
    downloadEnded(false);
    if (!evaluateJson) downloadFailed(stall.failure || new LoadFailure(describe(name), `download failed (${err.message})`));
    throw err;
  }
  if (!response.ok) {
    stall.stop();
    downloadEnded(false);
    if (!evaluateJson) downloadFailed(new LoadFailure(describe(name), `download failed (HTTP ${response.status})`));
    return response;
  }
  if (!response.body) {
    stall.stop();
    downloadEnded(true);
    return response;
  }
  // Pyodide gets the response itself; a clone's body, read here as the bytes arrive, measures
  // progress, stalls and the link. (The wasm reaches Pyodide gunzipped, in a Response without a
  // URL, so Chromium keeps no compiled code for it: measured, a later visit's start took as long
  // as with the plain file, 410–480 ms.)
  watchBody(name, response.clone().body, stall).then(downloadEnded);
  return response;
}

// Watched downloads whose body is still arriving. When the last one ends during the download
// stage, the status moves on at once (issue 19: "Downloading the Python runtime…" stayed 4–8 s
// after the last byte, until Python's start reached its first hook).
let downloading = 0;
let downloadBroken = false; // a download failed: the start fails, nothing starts
function downloadEnded(whole) {
  downloading -= 1;
  if (!whole) downloadBroken = true;
  if (downloading === 0 && !downloadBroken && reporting && !evaluateJson) progress("start", "Starting Python…");
}

/** Fails the start if the download of `name` goes STALL_MS without a byte (stall-watch.mjs):
 * names the file first, then aborts the fetch. */
function stallWatch(name, control) {
  const watch = new StallWatch({
    ms: STALL_MS,
    onStall: () => {
      if (evaluateJson) return;
      watch.failure = new LoadFailure(describe(name), `the download stalled (no data for ${Math.round(STALL_MS / 1000)} s)`);
      downloadFailed(watch.failure); // first: it names the file before the abort's own errors
      control.abort(watch.failure);
    },
  });
  watch.failure = null;
  return watch;
}

/** Reads a download's copy as it arrives (progress, stalls, the link); true once it is whole. */
async function watchBody(name, body, stall) {
  const reader = body.getReader();
  try {
    for (;;) {
      stall.arm();
      const { done, value } = await reader.read();
      if (done) return true;
      countBytes(value.byteLength);
    }
  } catch (err) {
    if (!evaluateJson && !stall.failure) downloadFailed(new LoadFailure(describe(name), `download failed (${err.message})`));
    return false;
  } finally {
    stall.stop();
  }
}

// Progress of the first download, in real bytes: what the watched fetches received, plus the
// two runtime modules Pyodide imports itself (loaded before it fetches anything).
let received = 0;
let lastReport = 0;
let reporting = false;
function countBytes(n) {
  link.arrived(n);
  if (!reporting) return;
  if (received === 0) received = (RUNTIME.moduleBytes || 0) + link.total - n;
  received += n;
  const now = performance.now();
  if (now - lastReport < 100) return;
  lastReport = now;
  self.postMessage({ type: "progress", stage: "download", text: downloadText, loaded: Math.min(received, RUNTIME.downloadBytes), total: RUNTIME.downloadBytes });
}

// A first visit restores the memory snapshot (made by the build: Python booted, calc imported)
// only over a link fast enough that its download (5.3 MB, gzip) costs less than the start it
// saves. Measured here at loopback (python -m bench): the snapshot start answered ~0.37 s sooner
// than the normal start; its extra bytes (less the wheel, not needed) take 0.39 s at 100 Mbit/s,
// and a phone's slower CPU gains more. So the early downloads below must bring 1 MB at 100 Mbit/s
// or better within 0.4 s of this module's start (a knob can move the bar, for tests); otherwise
// the normal start, and the service worker's precache brings the snapshot for the next visit
// (restored from there on any link). On a 20 Mbit/s gzip link, trying the snapshot on every first
// visit put 11.2 MB on the wire before the first answer instead of 6.1 MB.
const link = new LinkProbe({ bytesPerMs: (CONFIG.fastLinkMbps || 100) * 125, probeBytes: 1e6, timeoutMs: 400 });
/** Once a snapshot download has started, a slower body than this aborts it: the normal start
 * then fetches the wasm again (the snapshot's start took the early one), a cost paid only by a
 * link that slowed fourfold after it was measured. */
const SNAPSHOT_BUDGET_MS = 1500;

// The runtime files every start needs, requested as soon as this module runs, one round trip
// before Pyodide's own module has been imported and asks for them (self.fetch above then hands
// it these responses): the wasm and the standard library, which also measure the link (`link`).
const early = new Map(); // URL → Promise<Response>
for (const url of [here(RUNTIME.stdlib), here(RUNTIME.pyodideDir + "pyodide.asm.wasm")]) {
  const response = self.fetch(url);
  response.catch(() => {}); // a failure is reported when Pyodide asks (downloadFailure)
  early.set(url, response);
}
// Pyodide's two modules too: one URL is one module, so Pyodide's own import of pyodide.asm.mjs
// later finds it loaded. A failure is reported by the import that needs it.
const runtimeUrl = here(RUNTIME.pyodideDir + "pyodide.mjs");
const runtimeModule = import(runtimeUrl);
runtimeModule.catch(() => {});
import(here(RUNTIME.pyodideDir + "pyodide.asm.mjs")).catch(() => {});

/** `fetch` whose whole response (body included) must arrive within `budgetMs` of the call, or it
 * is aborted. Uses the unwatched fetch: a missing snapshot only means a normal start. */
function fetchWithinBudget(budgetMs) {
  return (input, init = {}) => {
    const control = new AbortController();
    setTimeout(() => control.abort(new Error(`not downloaded within ${budgetMs} ms`)), budgetMs);
    return nativeFetch(input, { ...init, signal: control.signal });
  };
}

/** What a runtime file is, for a failure message a reader can act on. */
function describe(file) {
  if (file.endsWith(".whl")) return `the calculators package (${file})`;
  if (file.endsWith("-lock.json")) return `the package list (${file})`;
  if (file.startsWith("python_stdlib")) return `the Python standard library (${file})`;
  return `the Python runtime (${file})`;
}

let downloadText = "Preparing the calculator…";

/** True when the service worker's cache already holds the runtime: then nothing downloads and
 * the page must not announce a download size. */
function runtimeCached() {
  return inCache(COMPRESSED.size ? here(RUNTIME.wasm) : here(RUNTIME.pyodideDir + "pyodide.asm.wasm"));
}

async function inCache(url) {
  try {
    return Boolean(self.caches && (await caches.match(url)));
  } catch {
    return false;
  }
}

async function boot() {
  if (await runtimeCached()) {
    progress("start", "Starting Python…");
  } else {
    reporting = Boolean(RUNTIME.downloadBytes);
    downloadText = `Downloading the Python runtime (${RUNTIME.downloadText})…`;
    progress("download", downloadText);
  }
  const { loadPyodide } = await step(`the Python runtime (${runtimeUrl})`, () => runtimeModule);
  milestone("module");
  const urls = { indexURL: here(RUNTIME.pyodideDir), stdLibURL: here(RUNTIME.stdlib), lockFileURL: here(RUNTIME.lock) };
  const quiet = { stdout: () => {}, stderr: onStderr };

  /** The normal start: boot, with the calc wheel downloaded meanwhile, then import calc. */
  async function normalStart() {
    const pyodide = await step("Python start-up (pyodide.asm.wasm / standard library)", () =>
      Promise.race([
        downloadFailure,
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
    // cache when it holds it, else downloaded only over a fast link (see `link`). Any problem →
    // normal start.
    const s = RUNTIME.snapshot;
    const cached = await inCache(here(s.url));
    const download = !cached && (await link.verdict);
    // A restore is all CPU: it waits for "go" (a downloaded snapshot once its bytes are here,
    // in loadPyodide below). The normal start downloads meanwhile and waits at its fsInit.
    if (cached) await goSignal();
    const booted = await bootFromSnapshot({
      // Pyodide waits forever on a runtime file it cannot fetch: fail fast here too (the normal
      // start then reports the file by name).
      loadPyodide: async (options) => {
        if (download) await goSignal();
        return Promise.race([downloadFailure, loadPyodide(options)]);
      },
      ...urls,
      snapshotURL: here(s.url),
      sha256: s.sha256,
      rawSha256: s.rawSha256,
      probe: s.probe,
      fetch: fetchWithinBudget(SNAPSHOT_BUDGET_MS),
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
  evaluateJson = proven || browser.evaluate_json;
  milestone("imported");
  runtime = pyodide;
  return Math.round(performance.now() - started);
}

// After the first answer, import the other systems' engines one per task while the reader reads,
// so the next calculator page (reached by instant navigation) answers without that import.
// A request that arrives meanwhile waits at most for one module's import.
let warmed = false;
function warmUp(pyodide) {
  if (warmed) return;
  warmed = true;
  const systems = pyodide.pyimport("calc.systems");
  const ids = pyodide.pyimport("calc.data").system_ids().toJs();
  const next = () => {
    const id = ids.shift();
    if (id === undefined) return systems.destroy();
    try {
      systems.engine(id);
    } catch (err) {
      console.warn(`warm-up of ${id} failed: ${err.message}`);
    }
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

let bootError = null;
const ready = boot().then(
  // startedAt: when this module began to run (epoch ms), so the page can place the milestones on
  // its own clock (the worker's clock starts earlier, before its modules were fetched).
  (ms) => self.postMessage({ type: "ready", ms, source: bootSource, build: RUNTIME.build, milestones, linkRate: link.rate && Math.round(link.rate), startedAt: performance.timeOrigin + started }),
  (err) => {
    bootError = err;
    self.postMessage({ type: "failed", what: err.what || "Python start-up", message: err.message });
  },
);

// Requests queue here; a request whose key (its calculator) has a newer request queued behind
// it is skipped: after a run of quick edits over a slow calculation only the latest is computed.
const queue = [];
let draining = false;
self.onmessage = (event) => {
  if (event.data?.type === "go") return go?.();
  queue.push(event.data);
  drain();
};

async function drain() {
  if (draining) return;
  draining = true;
  await ready;
  while (queue.length) {
    // Let messages that arrived during the last calculation reach the queue first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const msg = queue.shift();
    if (msg.key != null && queue.some((m) => m.key === msg.key)) {
      self.postMessage({ id: msg.id, error: { input: null, message: "Superseded by a newer edit.", kind: "Superseded" } });
      continue;
    }
    answer(msg);
  }
  draining = false;
}

function answer({ id, request }) {
  if (bootError) {
    const message = `Could not load ${bootError.what || "Python start-up"}: ${bootError.message}`;
    self.postMessage({ id, error: { input: null, message, kind: "LoadFailure" } });
    return;
  }
  self.postMessage({ type: "started", id }); // the page may stop a superseded run by a restart
  try {
    const t0 = performance.now();
    busyFor(CONFIG.busyMs);
    const reply = JSON.parse(evaluateJson(JSON.stringify(request)));
    const ms = performance.now() - t0;
    self.postMessage(reply.error ? { id, error: reply.error, ms } : { id, result: reply.result, ms });
    warmUp(runtime);
  } catch (err) {
    // Not a CalcError: a bug in an engine. Report it as such, never silently.
    self.postMessage({ id, error: { input: null, message: `Internal error: ${lastLine(err.message)}`, kind: "InternalError" } });
  }
}

/** Keep this thread busy for `ms` (the `cc-busy-ms` knob: tests make every calculation slow
 * without relying on how fast an engine is). */
function busyFor(ms) {
  const end = performance.now() + (ms || 0);
  while (performance.now() < end);
}

function lastLine(text) {
  const lines = String(text).trim().split("\n");
  return lines[lines.length - 1];
}
