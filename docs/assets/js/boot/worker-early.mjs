// Loaded async from the head of pages with a calculator or a tracker (tools/module_preload.py puts
// it there): creates the Python worker while the page is still loading, so the runtime's
// download (about 5.6 MB on the wire) starts at once instead of after the page's scripts have run.
// The worker holds Python's start until the page's worker client adopts it and says "go" (on the
// reader's first edit or once the page is idle), so the start never competes with the page.
// worker-owner.mjs decides: if the page's scripts ran first and already have a worker, nothing.

import { startEarly } from "./worker-owner.mjs";

startEarly();
