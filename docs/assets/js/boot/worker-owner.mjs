// The one place a Python worker is created (issue 19: a shared link used to start two, 24.1 MB
// downloaded instead of 12.6). Two callers, in whichever order the page runs them: the early
// start in the page's head (worker-early.mjs) and the page's worker client
// (calc-worker-client.mjs). A module is evaluated once per tab, so this module's state is the
// tab's: the head's worker is created only if nothing has asked for one yet, and the client's
// first start adopts it if it exists. Every later start (Retry, Cancel, a stopped calculation)
// makes a new worker: a worker that has been handed out is never handed out again.

import { WORKER_URL, workerName } from "./worker-spec.mjs";

let created = 0; // workers this tab has created
let early = null; // the head's worker, until the client adopts it

/** How many workers this tab has created (a hook for tests and the benchmark). */
export function workersCreated() {
  return created;
}

function spawn(hold, fresh = false) {
  const worker = new Worker(WORKER_URL, { type: "module", name: workerName(hold, fresh) });
  created += 1;
  return worker;
}

/** The head's early start: a held worker (it downloads the runtime but waits for "go" before
 * starting Python) whose messages are kept to be replayed on adoption. Does nothing once the tab
 * has a worker, or where module workers are missing. */
export function startEarly() {
  if (created || typeof Worker !== "function") return null;
  try {
    const worker = spawn(true);
    early = { worker, events: [], startedAt: performance.now(), held: true };
    worker.onmessage = (event) => early?.events.push(event);
    worker.onerror = (event) => {
      event.preventDefault(); // reported when the page adopts the worker
      early?.events.push(event);
    };
    globalThis.__ccEarlyWorker = early; // for tests: its buffered messages
    return early;
  } catch {
    return null; // no module workers here: the client starts its worker when it needs one
  }
}

/** A worker for the client's (re)start: the head's, the first time, if it started one; else a new
 * one. `{worker, events, startedAt, held}`: `events` the head's worker received before adoption
 * (to replay), `held` whether it waits for "go". `fresh`: a new worker's runtime downloads bypass
 * the HTTP cache (worker-spec.mjs). */
export function takeWorker({ fresh = false } = {}) {
  if (early) {
    const adopted = early;
    early = null;
    globalThis.__ccEarlyWorker = null;
    return adopted;
  }
  return { worker: spawn(false, fresh), events: [], startedAt: performance.now(), held: false };
}
