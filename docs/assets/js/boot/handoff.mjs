// Keeps what the Python worker downloads for the service worker's precache, so a first visit
// downloads each runtime file once (issue 12: pyodide.asm.wasm used to come twice, once for the
// worker and once for the precache). On a first visit no service worker controls the page yet
// when the worker fetches; the copies wait in the `cc-handoff` cache, and the service worker's
// install takes a copy only if its sha256 is the one its build lists (tools/sw_template.js),
// then deletes the cache on activate. Files some cache already holds are not copied again, and
// a worker started on a page a service worker controls does not hand anything over at all
// (pyodide-worker.mjs: its settings say `controlled`).
export const HANDOFF_CACHE = "cc-handoff";

/** `fetch` that also puts successful same-origin GET responses into the handoff cache. */
export function keepForServiceWorker(fetch, cacheStorage = globalThis.caches) {
  if (!cacheStorage) return fetch;
  return async (input, init) => {
    const response = await fetch(input, init);
    const method = (init?.method || (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (response.ok && response.type === "basic" && method === "GET") {
      try {
        if (!(await cacheStorage.match(response.url))) {
          const copy = response.clone();
          cacheStorage
            .open(HANDOFF_CACHE)
            .then((cache) => cache.put(response.url, copy))
            .catch(() => {}); // a missing copy only costs a download
        }
      } catch {
        // CacheStorage unavailable (e.g. storage blocked): nothing to hand off
      }
    }
    return response;
  };
}
