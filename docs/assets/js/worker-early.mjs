// Loaded async from the head of pages with a calculator or a tracker (tools/module_preload.py puts
// it there): creates the Python worker while the page is still loading, so the runtime's
// download (about 5.6 MB on the wire) starts at once instead of after the page's scripts have run.
// The worker holds Python's start until the page's worker client adopts it and says "go" (on the
// reader's first edit or once the page is idle), so the start never competes with the page.
// Until then its messages are kept here, to be replayed in order.

import { WORKER_URL, workerName } from "./worker-spec.mjs";

if (!globalThis.__ccEarlyWorker && typeof Worker === "function") {
  try {
    const worker = new Worker(WORKER_URL, { type: "module", name: workerName(true) });
    const early = { worker, events: [], startedAt: performance.now() };
    worker.onmessage = (event) => early.events.push(event);
    worker.onerror = (event) => {
      event.preventDefault(); // reported when the page adopts the worker
      early.events.push(event);
    };
    globalThis.__ccEarlyWorker = early;
  } catch {
    // No module workers here: the page starts its worker the usual way when it needs one.
  }
}
