// Start Python from a build-time memory snapshot (tools/make_snapshot.mjs), with `calc` already
// imported and warmed up; on ANY problem, fall back to the normal load the caller passes in.
//
// Why a fallback is not optional: `_loadSnapshot` is a private Pyodide API. A snapshot only fits
// the exact runtime build (BUILD_ID), the byte-identical stdlib zip and the wheel it was made
// with; a stale cache, a partial deploy or a corrupt download must cost time, never the calculator.
//
//   const { pyodide, evaluateJson, source } = await bootFromSnapshot({
//     loadPyodide, indexURL, stdLibURL, lockFileURL, snapshotURL, sha256, rawSha256, probe,
//     fallback: async () => pyodide,   // what the worker does without a snapshot
//   });
//
// Works in a module worker and in Node (tests/node/snapshot.mjs passes its own `fetch`).

import { sniffGzip } from "./gunzip.mjs";
import { isPacked, unpackPages } from "./sparse-pages.mjs";

const SNAPSHOT_MAGIC = 1886286592; // first 32-bit word of a Pyodide snapshot (makeSnapshot)

/**
 * A fingerprint of the stdlib zip: its size and the sha256 of its last 256 kB, which hold the
 * central directory with every member's CRC. The snapshot keeps zipimport's table of contents of
 * that zip in memory, so a different zip would break later imports. make_snapshot.mjs stores the
 * fingerprint in the snapshot (`sys._calc_snapshot_stdlib`); `verify` compares it with the zip
 * mounted now. Plain JS on purpose: running Python source right after a restore costs ~0.1 s
 * (its compiler's wasm code is not compiled yet), reading an attribute costs nothing.
 */
export async function stdlibFingerprint(bytes) {
  const tail = bytes.subarray(Math.max(0, bytes.length - 262144));
  return `${bytes.length}:${hex(await crypto.subtle.digest("SHA-256", tail))}`;
}

/** A snapshot problem: what failed (stage) and why; the caller logs it, the user never sees it. */
export class SnapshotError extends Error {
  constructor(stage, cause) {
    const why = cause instanceof Error ? cause.message + (cause.cause ? ` (${cause.cause.message || cause.cause})` : "") : String(cause);
    super(`${stage}: ${why}`);
    this.name = "SnapshotError";
    this.stage = stage;
  }
}

async function stage(name, work) {
  try {
    return await work();
  } catch (err) {
    throw err instanceof SnapshotError ? err : new SnapshotError(name, err);
  }
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The snapshot's bytes: fetched, checked against the expected sha256, gunzipped if gzip, and
 * checked for Pyodide's snapshot magic number. `sha256` is the hash of the gzip file as built,
 * `rawSha256` of the uncompressed snapshot: a server that sends the gzip file with
 * `Content-Encoding: gzip` hands us the raw bytes, so what arrived decides which hash applies.
 * The hash matters: a corrupted heap image could make the restored interpreter crash or hang in
 * ways no try/catch can stop, so a bad download is refused before it reaches Pyodide.
 */
export async function fetchSnapshot(snapshotURL, { sha256, rawSha256, fetch = globalThis.fetch } = {}) {
  return snapshotBytes(await snapshotResponse(snapshotURL, fetch), { sha256, rawSha256 });
}

async function snapshotResponse(snapshotURL, fetch) {
  const response = await stage("download", () => fetch(snapshotURL));
  if (!response.ok) throw new SnapshotError("download", `HTTP ${response.status} for ${snapshotURL}`);
  return response;
}

/**
 * `onlyIfCached`: the snapshot only when CacheStorage (the service worker's precache) already
 * holds it: the worker's choice on a first visit over a slow link, which would lose more time
 * downloading its extra ~5 MB than it saves (measured: a loss at 20 Mbit/s); later visits restore.
 */
async function cachedResponse(snapshotURL, cacheStorage) {
  const hit = await stage("not-cached", async () => cacheStorage && (await cacheStorage.match(snapshotURL)));
  if (!hit) throw new SnapshotError("not-cached", `${snapshotURL} is not in CacheStorage yet`);
  return hit;
}

async function snapshotBytes(response, { sha256, rawSha256 }) {
  // Gunzipped as it arrives, beside the download that the hash needs whole: the decompression
  // (~0.15 s for 31 MB here) overlaps the transfer instead of following it.
  const { gzip, body } = await stage("download", () => sniffGzip(response.body));
  const [packedBody, inflating] = gzip ? body.tee() : [body, null];
  const packedBytes = new Response(packedBody).arrayBuffer();
  const rawBytes = gzip
    ? stage("gunzip", () => new Response(inflating.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer())
    : packedBytes;
  rawBytes.catch(() => {}); // awaited below, after the hash (a corrupt download fails there first)
  const packed = await stage("download", () => packedBytes);
  const expected = gzip ? sha256 : rawSha256;
  if (expected) {
    const got = await stage("integrity", async () => hex(await crypto.subtle.digest("SHA-256", packed)));
    if (got !== expected) throw new SnapshotError("integrity", `sha256 ${got} is not the expected ${expected}`);
  }
  let image = new Uint8Array(await rawBytes);
  if (isPacked(image)) image = await stage("format", () => unpackPages(image)); // sparse-pages.mjs
  if (image.byteLength < 64 || image.byteLength % 4 || new Uint32Array(image.buffer, 0, 1)[0] !== SNAPSHOT_MAGIC) {
    throw new SnapshotError("format", "not a Pyodide memory snapshot");
  }
  return image;
}

/**
 * Boot from the snapshot and prove it works (import calc.browser, answer `probe` with a result);
 * otherwise run `fallback()`. Returns {pyodide, evaluateJson, source: "snapshot" | "fallback",
 * error (the SnapshotError that caused a fallback, else null), ms: {fetch, boot, verify}}.
 * `evaluateJson` is null after a fallback: the caller's normal path imports calc itself.
 * With `onlyIfCached: true` the snapshot is used only if CacheStorage already holds it.
 * Errors of the fallback itself propagate unchanged (the worker reports them as today).
 */
export async function bootFromSnapshot({
  loadPyodide,
  indexURL,
  stdLibURL,
  lockFileURL,
  snapshotURL,
  sha256,
  rawSha256,
  probe,
  fallback,
  options = {},
  onlyIfCached = false,
  cacheStorage = globalThis.caches,
  fetch = globalThis.fetch,
  onFallback = (err) => console.warn(`Memory snapshot not used (${err.message}); normal start-up instead.`),
}) {
  if (typeof fallback !== "function") throw new TypeError("bootFromSnapshot needs a fallback function");
  const t0 = performance.now();
  const ms = { fetch: null, boot: null, verify: null };
  try {
    if (!snapshotURL) throw new SnapshotError("config", "no snapshot URL");
    if (!probe) throw new SnapshotError("config", "no probe request");
    // Wait for the response headers only (one round trip): a missing snapshot then falls back
    // before the runtime downloads start, so nothing is fetched twice. The body downloads while
    // loadPyodide fetches the wasm.
    const response = onlyIfCached
      ? await cachedResponse(snapshotURL, cacheStorage)
      : await snapshotResponse(snapshotURL, fetch);
    const bytes = snapshotBytes(response, { sha256, rawSha256 }).then((b) => {
      ms.fetch = Math.round(performance.now() - t0);
      return b;
    });
    bytes.catch(() => {}); // awaited below (by loadPyodide); avoid an unhandled-rejection warning
    const pyodide = await stage("boot", () =>
      loadPyodide({
        ...options,
        indexURL,
        stdLibURL,
        ...(lockFileURL ? { lockFileURL } : {}),
        packages: [], // everything calc needs is already in the snapshot's memory
        _loadSnapshot: releaseAfterUse(bytes),
      }),
    );
    // A SnapshotError raised inside the bytes promise surfaces here as the boot's cause.
    await bytes;
    ms.boot = Math.round(performance.now() - t0);
    const evaluateJson = await stage("verify", () => verify(pyodide, probe));
    ms.verify = Math.round(performance.now() - t0);
    return { pyodide, evaluateJson, source: "snapshot", error: null, ms };
  } catch (err) {
    const error = err instanceof SnapshotError ? err : new SnapshotError("boot", err);
    onFallback(error);
    const pyodide = await fallback(error);
    return { pyodide, evaluateJson: null, source: "fallback", error, ms };
  }
}

/**
 * A thenable that hands `promise`'s value over once and then forgets it. Pyodide keeps its config
 * (and so `_loadSnapshot`) for the worker's lifetime: given the promise itself, it would pin the
 * 31 MB decompressed heap image in memory after it has been copied into wasm memory.
 */
function releaseAfterUse(promise) {
  let pending = promise;
  return {
    then(resolve, reject) {
      const p = pending;
      pending = null;
      return (p || Promise.reject(new Error("snapshot bytes already used"))).then(resolve, reject);
    },
  };
}

/** calc.browser.evaluate_json, once the stdlib matches and it has answered `probe` with a result. */
async function verify(pyodide, probe) {
  const sys = pyodide.pyimport("sys");
  const made = sys._calc_snapshot_stdlib;
  const zipPath = sys.path.toJs().find((p) => String(p).endsWith(".zip"));
  sys.destroy();
  if (!made || !zipPath) throw new Error("the snapshot does not record which stdlib zip it was made with");
  const now = await stdlibFingerprint(pyodide.FS.readFile(zipPath));
  if (made !== now) throw new Error(`the stdlib zip is not the one the snapshot was made with (${made} vs ${now})`);
  // Every restore starts from the same memory: reseed `random` (imported by Pyodide itself) so
  // visitors do not share one sequence. (The str hash seed stays the build's; calc never relies on it.)
  const random = pyodide.pyimport("random");
  random.seed();
  random.destroy();
  const evaluateJson = pyodide.pyimport("calc.browser").evaluate_json;
  const reply = JSON.parse(evaluateJson(JSON.stringify(probe)));
  if (!reply || typeof reply !== "object" || !("result" in reply)) {
    evaluateJson.destroy();
    throw new Error(`probe request answered ${JSON.stringify(reply).slice(0, 200)}`);
  }
  return evaluateJson;
}
