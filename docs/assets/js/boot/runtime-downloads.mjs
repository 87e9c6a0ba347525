// The worker's downloads of the Python runtime, watched while Python starts.
//
// Pyodide does not always reject when a runtime file cannot be downloaded: for pyodide.asm.wasm
// it logs and waits forever, and on a connection that stops mid-file it waits for as long as the
// socket stays open. So, while booting, the worker's own fetches are watched (`install` replaces
// `self.fetch`) and the start fails fast, naming the file, on any HTTP error, network failure or
// stall (`failure` rejects); their bytes feed the page's progress bar and the link's measure
// (link-probe.mjs), and the files every start needs are requested at once (`early`), or taken
// over from the worker's entry, which requested them before this module was even fetched
// (`prefetched`, pyodide-worker.mjs): watched the same way from then on.
import { keepForServiceWorker } from "./handoff.mjs";
import { gunzipped } from "./gunzip.mjs";
import { unxzed } from "./unxz.mjs";
import { LinkProbe } from "./link-probe.mjs";
import { LoadFailure } from "./load-failure.mjs";
import { StallWatch } from "./stall-watch.mjs";

// A first visit restores the memory snapshot (made by the build: Python booted, calc imported)
// only over a link fast enough that its download (5.3 MB, gzip) costs less than the start it
// saves. Measured here at loopback (python -m bench): the snapshot start answered ~0.37 s sooner
// than the normal start; its extra bytes (less the wheel, not needed) take 0.39 s at 100 Mbit/s,
// and a phone's slower CPU gains more. So the early downloads must bring 1 MB at 100 Mbit/s or
// better within 0.4 s of the worker's start (a knob can move the bar, for tests); otherwise the
// normal start, and the service worker's precache brings the snapshot for the next visit
// (restored from there on any link). On a 20 Mbit/s gzip link, trying the snapshot on every first
// visit put 11.2 MB on the wire before the first answer instead of 6.1 MB.
const PROBE = { mbps: 100, probeBytes: 1e6, timeoutMs: 400 };

export class RuntimeDownloads {
  /**
   * @param {object} o
   * @param {(path: string) => string} o.here  a runtime path as a URL (relative to the worker)
   * @param {object} o.runtime  runtime.mjs's RUNTIME
   * @param {boolean} o.controlled  a service worker controls the page (its fetches come from it)
   * @param {boolean} [o.fresh]  fetch past the HTTP cache (`cache: "reload"`, unless a caller
   *   says otherwise): the worker replaces one stopped while starting, whose downloads may still
   *   be in flight (calc-worker-client.mjs restart)
   * @param {number} o.stallMs  a download that receives nothing for this long has stalled
   * @param {number} [o.fastLinkMbps]  the link speed that counts as fast (a knob, for tests)
   * @param {(stage: string, text: string) => void} o.progress  the worker's stage report
   * @param {() => Promise<object>} [o.loadXz]  imports the xz decoder's module (a knob, for tests)
   * @param {Map<string, {response: Promise<Response>, requested: Promise<void>, abort: Function, follow: Function}>} [o.prefetched]
   *   the entry's requests in flight, by URL (pyodide-worker.mjs `prefetch`): each answers the
   *   first fetch of its URL in place of a new request
   */
  constructor({ here, runtime, controlled, fresh = false, stallMs, fastLinkMbps, progress, loadXz, prefetched = new Map() }) {
    this.here = here;
    this.runtime = runtime;
    this.stallMs = stallMs;
    this.progress = progress;
    this.started = false; // Python is up: nothing more to watch
    this.reporting = false; // the page's bar shows bytes (the download stage of a first visit)
    this.text = "Preparing the calculator…";
    this.received = 0;
    this.lastReport = 0;
    // Watched downloads whose body is still arriving. When the last one ends during the download
    // stage, the status moves on at once (issue 19: "Downloading the Python runtime…" stayed 4–8 s
    // after the last byte, until Python's start reached its first hook).
    this.downloading = 0;
    this.broken = false; // a download failed: the start fails, nothing starts
    this.failure = new Promise((_, reject) => (this.fail = reject));
    this.failure.catch(() => {});
    // What is fetched is also kept for the service worker's precache (no second download), on a
    // page no service worker controls yet (a first visit). A controlled page's fetches come from
    // its service worker; a copy would only outlive that build (a page of the old build still
    // open after a new one activated would hand over the old build's files).
    this.prefetched = prefetched;
    this.followers = new WeakMap(); // a prefetched Response → its `follow` (its body's chunks, timed)
    const native = self.fetch.bind(self);
    const request = this.takeOver(fresh ? (input, init = {}) => native(input, { cache: "reload", ...init }) : native);
    this.nativeFetch = controlled ? request : keepForServiceWorker(request);
    /** What Pyodide asks for by its plain name and the build ships gzip-compressed (build_site.py
     * WASM_GZ): the compressed file is fetched (and watched, and handed over) in its place. A
     * browser without DecompressionStream gets the plain file, which the site keeps (not
     * precached: such a browser's calculators work online only). */
    this.compressed = new Map(
      typeof DecompressionStream === "function"
        ? [[here(runtime.pyodideDir + "pyodide.asm.wasm"), { url: here(runtime.wasmGz || runtime.wasm), type: "application/wasm" }]]
        : [],
    );
    /** Likewise the standard library and the wheels, xz-compressed by the build (build_site.py
     * write_stored_xz), decoded by xz-decompress (WebAssembly), whose module is imported at
     * `install`; if it cannot be, the plain files are fetched instead. */
    for (const [plain, packed] of Object.entries(runtime.xz || {})) {
      const gz = this.compressed.get(here(plain)); // the wasm's fallback: its gzip
      if (typeof WebAssembly === "object") this.compressed.set(here(plain), { url: here(packed), xz: true, type: gz?.type, fallback: gz });
    }
    this.loadXz = loadXz || (() => import(here(runtime.xzDecoder)));
    this.xzDecoder = null; // Promise<XzReadableStream class | null>, from `install`
    this.link = new LinkProbe({ bytesPerMs: (fastLinkMbps || PROBE.mbps) * 125, probeBytes: PROBE.probeBytes, timeoutMs: PROBE.timeoutMs });
    this.early = new Map(); // URL → Promise<Response>
    /** Resolves once the early downloads' bodies (the wasm and the standard library, `install`)
     * have ended, whole or not: until then a later file that Python needs only once it has booted
     * (the calc wheel, `afterBoot`) waits, so the long pole has the whole link (issue 21's first
     * visit at 20 Mbit/s: the wheel shared it and the wasm arrived ~0.35 s later). */
    this.earlyArrived = Promise.resolve();
  }

  /** Watch every fetch of the worker from now on, and request the files every start needs: the
   * wasm and the standard library, one round trip before Pyodide's own module has been imported
   * and asks for them (it then gets these responses); they also measure the link. */
  install() {
    self.fetch = (input, init) => this.fetch(input, init);
    this.xzDecoder = this.loadXz().then(
      (module) => module.XzReadableStream,
      (err) => console.warn(`xz decoder not loaded (${err.message}): the plain files instead`) || null,
    );
    const arrivals = [];
    for (const url of [this.here(this.runtime.stdlib), this.here(this.runtime.pyodideDir + "pyodide.asm.wasm")]) {
      let arrived;
      arrivals.push(new Promise((resolve) => (arrived = resolve)));
      const response = this.fetch(url, {}, arrived);
      response.catch(() => {}); // a failure is reported when Pyodide asks (failure)
      this.early.set(url, response);
    }
    this.earlyArrived = Promise.all(arrivals);
  }

  /** `fetch` that answers a prefetched URL with the entry's response (once), aborted with the
   * caller's signal, its `follow` kept for `watched`; any other URL with `fetch` itself. */
  takeOver(fetch) {
    return (input, init = {}) => {
      const url = String(input instanceof Request ? input.url : input);
      const early = this.prefetched.get(url);
      if (!early) return fetch(input, init);
      this.prefetched.delete(url);
      init.signal?.addEventListener("abort", () => early.abort(init.signal.reason));
      return early.response.then((response) => {
        this.followers.set(response, early.follow);
        return response;
      });
    };
  }

  /** The downloads' bytes go to the page's bar from now on, under `text`. */
  report(text) {
    this.reporting = Boolean(this.runtime.downloadBytes);
    this.text = text;
  }

  /** `fetch` for the worker: early responses, compressed files, the wheel's wait (see
   * `earlyArrived`); `arrived(whole)` is called once the body has ended (or failed). */
  async fetch(input, init = {}, arrived = () => {}) {
    const url = String(input instanceof Request ? input.url : input);
    const requested = this.early.get(url);
    if (requested) {
      this.early.delete(url); // each early request answers once: Pyodide's own
      return requested;
    }
    if (afterBoot(url) && !this.started) {
      // Counted as under way while it waits (the status does not move on between the wasm's
      // end and the wheel's start); the wait is not a stall: its watch starts with the request.
      this.downloading += 1;
      await this.earlyArrived;
      const response = this.sent(url, input, init, arrived);
      this.downloading -= 1; // the request itself is counted by now (`watched` counts it at once)
      return response;
    }
    return this.sent(url, input, init, arrived);
  }

  /** The request itself: a file the build compressed comes compressed, decoded as it arrives;
   * a body that cannot be decoded fails the start, naming the file. */
  async sent(url, input, init, arrived) {
    let packed = this.compressed.get(url);
    const Xz = packed?.xz ? await this.xzDecoder : null;
    if (packed?.xz && !Xz) {
      this.prefetched.get(packed.url)?.abort(new Error("no xz decoder")); // not needed: free the link
      this.prefetched.delete(packed.url);
      packed = packed.fallback; // no decoder: the gzip file, else the plain one
    }
    if (!packed) return this.watched(input, init, arrived);
    // Pyodide asks for a wheel with the lock's sha256 as `integrity`: a check of the decoded
    // bytes, made here (the browser would check the compressed ones against it and fail).
    const { integrity, ...plainInit } = init;
    const response = await this.watched(packed.url, plainInit, arrived);
    if (!response.ok) return response;
    const name = fileName(packed.url);
    const headers = packed.type ? { "Content-Type": packed.type } : {};
    const decoded = await (packed.xz ? unxzed(response, Xz, headers) : gunzipped(response, headers));
    const body = this.named(decoded.body, name);
    if (!integrity) return new Response(body, { status: 200, headers: decoded.headers });
    const bytes = await new Response(body).arrayBuffer();
    if (!(await matches(bytes, integrity))) {
      const failure = new LoadFailure(describe(name), "its sha256 does not match the lock file (a damaged or stale file)");
      if (!this.started) this.fail(failure);
      throw failure;
    }
    return new Response(bytes, { status: 200, headers: decoded.headers });
  }

  /** `stream`, failing the start with a message naming `name` if it errors (a damaged file). */
  named(stream, name) {
    const reader = stream.getReader();
    return new ReadableStream({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          if (!this.started) this.fail(new LoadFailure(describe(name), `the download is damaged (${err.message})`));
          controller.error(err);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    }, { highWaterMark: 0 }); // reads only when read (unxz.mjs: a decode starts at the first read)
  }

  async watched(input, init, arrived = () => {}) {
    if (this.started) {
      arrived(false);
      return this.nativeFetch(input, init); // started: nothing more to watch
    }
    const url = String(input instanceof Request ? input.url : input);
    const name = fileName(url);
    const waiting = this.prefetched.get(url)?.requested;
    if (waiting) await waiting; // a prefetch that waits its turn (the wasm first) is not stalled meanwhile
    const control = new AbortController();
    init.signal?.addEventListener("abort", () => control.abort(init.signal.reason));
    const stall = this.stallWatch(name, control);
    this.downloading += 1; // from the request on: a download whose headers are late is still under way
    let response;
    try {
      response = await this.nativeFetch(input, { ...init, signal: control.signal });
    } catch (err) {
      stall.stop();
      this.ended(false, arrived);
      if (!this.started) this.fail(stall.failure || new LoadFailure(describe(name), `download failed (${err.message})`));
      throw err;
    }
    if (!response.ok) {
      stall.stop();
      this.ended(false, arrived);
      if (!this.started) this.fail(new LoadFailure(describe(name), `download failed (HTTP ${response.status})`));
      return response;
    }
    if (!response.body) {
      stall.stop();
      this.ended(true, arrived);
      return response;
    }
    // Pyodide gets the response itself; a clone's body, read here as the bytes arrive, measures
    // progress, stalls and the link. (The wasm reaches Pyodide gunzipped, in a Response without a
    // URL, so Chromium keeps no compiled code for it: measured, a later visit's start took as long
    // as with the plain file, 410–480 ms.)
    const follow = this.followers.get(response) || ((onChunk) => readAll(response.clone().body, onChunk));
    this.watchBody(name, follow, stall).then((whole) => this.ended(whole, arrived));
    return response;
  }

  ended(whole, arrived) {
    arrived(whole);
    this.downloading -= 1;
    if (!whole) this.broken = true;
    if (this.downloading === 0 && !this.broken && this.reporting && !this.started) this.progress("start", "Starting Python…");
  }

  /** Fails the start if the download of `name` goes stallMs without a byte (stall-watch.mjs):
   * names the file first, then aborts the fetch. */
  stallWatch(name, control) {
    const watch = new StallWatch({
      ms: this.stallMs,
      onStall: () => {
        if (this.started) return;
        watch.failure = new LoadFailure(describe(name), `the download stalled (no data for ${Math.round(this.stallMs / 1000)} s)`);
        this.fail(watch.failure); // first: it names the file before the abort's own errors
        control.abort(watch.failure);
      },
    });
    watch.failure = null;
    return watch;
  }

  /** Follows a download's body as it arrives (progress, stalls, the link): `follow(onChunk)`
   * reports each chunk's bytes and arrival time and resolves at its end; true once it is whole. */
  async watchBody(name, follow, stall) {
    stall.arm();
    try {
      return await follow((bytes, at) => {
        stall.arm();
        this.countBytes(bytes, at);
      });
    } catch (err) {
      if (!this.started && !stall.failure) this.fail(new LoadFailure(describe(name), `download failed (${err.message})`));
      return false;
    } finally {
      stall.stop();
    }
  }

  /** Progress of the first download, in real bytes: what the watched fetches received, plus the
   * two runtime modules Pyodide imports itself (loaded before it fetches anything). */
  countBytes(n, at) {
    this.link.arrived(n, at);
    if (!this.reporting) return;
    if (this.received === 0) this.received = (this.runtime.moduleBytes || 0) + this.link.total - n;
    this.received += n;
    const now = performance.now();
    if (now - this.lastReport < 100) return;
    this.lastReport = now;
    const { downloadBytes } = this.runtime;
    self.postMessage({ type: "progress", stage: "download", text: this.text, loaded: Math.min(this.received, downloadBytes), total: downloadBytes });
  }

  /** `fetch` whose whole response (body included) must arrive within `budgetMs` of the call, or
   * it is aborted. Unwatched: a missing snapshot only means a normal start. */
  withinBudget(budgetMs) {
    return (input, init = {}) => {
      const control = new AbortController();
      setTimeout(() => control.abort(new Error(`not downloaded within ${budgetMs} ms`)), budgetMs);
      return this.nativeFetch(input, { ...init, signal: control.signal });
    };
  }

  /** True when the service worker's cache already holds the runtime: then nothing downloads and
   * the page must not announce a download size. */
  cached() {
    return inCache(this.compressed.size ? this.here(this.runtime.wasm) : this.here(this.runtime.pyodideDir + "pyodide.asm.wasm"));
  }
}

/** Whether CacheStorage (the service worker's precache) holds `url`. */
export async function inCache(url) {
  try {
    return Boolean(self.caches && (await caches.match(url)));
  } catch {
    return false;
  }
}

/** Reads `body` to its end, reporting each chunk to `onChunk(bytes, at)`; true at its end. */
async function readAll(body, onChunk) {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    onChunk(value.byteLength, performance.now());
  }
}

/** Whether `url` is a file Python needs only once it has booted: a package wheel. */
function afterBoot(url) {
  return url.split("?")[0].endsWith(".whl");
}

/** Whether `bytes` have the digest of `integrity` (Subresource Integrity: "sha256-<base64>"). */
async function matches(bytes, integrity) {
  const [algorithm, expected] = integrity.trim().split(/-(.*)/s);
  if (algorithm !== "sha256") return false;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return btoa(String.fromCharCode(...digest)) === expected;
}

/** The file a URL names, for messages. */
function fileName(url) {
  return url.split("/").pop().split("?")[0];
}

/** What a runtime file is, for a failure message a reader can act on. */
function describe(file) {
  if (/\.whl(\.xz)?$/.test(file)) return `the calculators package (${file})`;
  if (file.endsWith("-lock.json")) return `the package list (${file})`;
  if (file.startsWith("python_stdlib")) return `the Python standard library (${file})`;
  return `the Python runtime (${file})`;
}
