// The Python worker's entry: a module with no static import, so that the runtime's downloads start
// the moment this one file has arrived. A module worker fetches its static imports one level at a
// time (one round trip each, ~0.4 s at 40 ms latency before the wasm's first byte was asked for);
// here the wasm (then the standard library: see `prefetched`), Pyodide's two modules and the xz
// decoder are requested first, then the rest of the worker (worker-main.mjs) is imported and
// takes over the responses in flight (runtime-downloads.mjs watches them as its own, names a
// file that fails, and the calc wheel still waits for them: `earlyArrived`).
// The URLs are runtime.mjs's, written into EARLY by tools/build_site.py (write_worker_entry):
// without them (a site not built by it) worker-main.mjs requests the same files itself.

const EARLY = null; // tools/build_site.py: {files: {plain: packed URL}, bytes: {packed URL: size}, modules: [URL]}, relative to this file

const started = performance.now();
const here = (path) => new URL(path, import.meta.url).href;
/** A worker that replaces one stopped while starting fetches the runtime past the HTTP cache,
 * whose entry may still be the old worker's download in flight (worker-spec.mjs `fresh`). */
const CACHE = (() => {
  try {
    return JSON.parse(self.name || "{}")?.fresh ? "reload" : undefined;
  } catch {
    return undefined;
  }
})();

// Pyodide runs Python on JSPI's switchable stacks (WebAssembly.Suspending) wherever the engine
// has them. Chromium 156 kills the whole renderer (a failed CHECK on the worker's thread, the
// same address in every crash dump) now and then when a page is left while its worker is
// starting Python: the next page of the same site, sharing that renderer, shows "Page crashed".
// Leaving rule pages at their load event crashed 5 rounds in 43 (20 pages each) with JSPI, none
// in 25 without; a whole browser-test run without it still met one such crash: rarer, not gone.
// The calculators never suspend Python (no run_sync, no async import), so Pyodide is shown an
// engine without JSPI, before any of its code runs, and calls Python the classic way.
for (const name of ["Suspending", "promising", "Suspender"]) delete WebAssembly[name];

// Messages that arrive before worker-main.mjs is here ("go", the first requests) are kept for it.
const held = [];
self.onmessage = (event) => held.push(event);

/** A request made once `after` settles and handed over later: its Response (a promise),
 * `requested` (settles when the request is made), `nearlyDone` (90 % of `bytes` arrived, or the
 * end), `abort(reason)`, and
 * `follow(onChunk)`, which reports each chunk of its body, `(bytes, at)` with the time it arrived
 * (those that came before the call first), and resolves to true at its end (rejects on a failed
 * body), so the link's measure is not fooled by bytes that only waited for the handover. */
function prefetch(url, after = Promise.resolve(), bytes = 0) {
  const control = new AbortController();
  const seen = [];
  let received = 0;
  let nearly; // resolves once 90 % of `bytes` (the file's size) have arrived, or at the body's end
  const nearlyDone = new Promise((resolve) => (nearly = resolve));
  let listener = (n, at) => seen.push([n, at]);
  let whole;
  const ended = new Promise((resolve, reject) => (whole = { resolve, reject }));
  ended.catch(() => {});
  ended.finally(() => nearly()).catch(() => {});
  const requested = after.then(() => {}, () => {}); // when the request is made (`after`: see below)
  const response = requested.then(() => fetch(url, { signal: control.signal, cache: CACHE }));
  response.then(
    (r) => (r.ok && r.body ? read(r.clone().body) : whole.resolve(true)),
    (err) => whole.reject(err),
  );
  async function read(body) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return whole.resolve(true);
        listener(value.byteLength, performance.now());
        received += value.byteLength;
        if (bytes && received >= 0.9 * bytes) nearly();
      }
    } catch (err) {
      whole.reject(err);
    }
  }
  response.catch(() => {}); // reported by whoever takes it over (runtime-downloads.mjs)
  return {
    response,
    requested,
    nearlyDone,
    abort: (reason) => control.abort(reason),
    follow(onChunk) {
      for (const [n, at] of seen.splice(0)) onChunk(n, at);
      listener = onChunk;
      return ended;
    },
  };
}

/** packed URL → its prefetch; only where the worker can decode xz (runtime-downloads.mjs asks
 * for the same URLs then, and for the gzip or plain files otherwise). One after the other, the
 * wasm first: it arrives ~0.4 s sooner with the whole link (20 Mbit/s), and the end of its
 * compile then overlaps the standard library's download, which Python needs only once the wasm
 * is instantiated. The next request goes out when 90 % of the previous file has arrived (its
 * size from the build), so the link does not idle for the request's round trip. */
const prefetched = new Map();
if (EARLY && typeof WebAssembly === "object") {
  let previous = Promise.resolve();
  for (const packed of Object.values(EARLY.files)) {
    const next = prefetch(here(packed), previous, EARLY.bytes?.[packed]);
    prefetched.set(here(packed), next);
    previous = next.nearlyDone;
  }
}
for (const url of EARLY?.modules || []) import(here(url)).catch(() => {}); // a failure is reported by the import that needs it

import("./worker-main.mjs").then(
  (main) => main.run({ started, prefetched, held }),
  (err) => self.postMessage({ type: "failed", what: "the Python worker (worker-main.mjs)", message: err.message }),
);
