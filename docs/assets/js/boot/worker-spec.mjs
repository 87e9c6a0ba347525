// Where the Python worker is and the settings it starts with: shared by the page's worker client
// (calc-worker-client.mjs) and the early start in a calculator page's head (worker-early.mjs).

import { knob } from "../shared/knobs.mjs";

export const WORKER_URL = new URL("./pyodide-worker.mjs", import.meta.url);

/** Settings for the worker, passed in its name (the URL stays the one the service worker
 * caches): `stallMs` only when a test sets the `cc-stall-ms` knob, `fastLinkMbps` the
 * `cc-fast-link-mbps` one (from what link speed a first visit downloads the memory snapshot),
 * `busyMs` the `cc-busy-ms` one (each calculation first keeps the worker busy that long);
 * `hold` when the worker must download the runtime but wait for the page's "go" before starting
 * Python; `controlled` when a service worker controls the page (then its fetches come from that
 * worker's caches and there is nothing to hand over to a precache: see handoff.mjs); `packages`,
 * the packages beyond `calc` the page will certainly need (its head's `cc-python-packages` meta,
 * written by tools/module_preload.py from calc.packages.page_packages), loaded right after boot;
 * `fresh` when the worker replaces one that was still starting (calc-worker-client.mjs restart):
 * its runtime downloads then bypass the HTTP cache (pyodide-worker.mjs, runtime-downloads.mjs). */
export function workerName(hold = false, fresh = false) {
  const controlled = Boolean(globalThis.navigator?.serviceWorker?.controller);
  return JSON.stringify({
    stallMs: knob("stall-ms", 0) || undefined,
    fastLinkMbps: knob("fast-link-mbps", 0) || undefined,
    busyMs: knob("busy-ms", 0) || undefined,
    hold: hold || undefined,
    fresh: fresh || undefined,
    controlled: controlled || undefined,
    packages: pagePackages(),
  });
}

function pagePackages() {
  const meta = globalThis.document?.querySelector('meta[name="cc-python-packages"]');
  const names = (meta?.getAttribute("content") || "").split(/\s+/).filter(Boolean);
  return names.length ? names : undefined;
}
