// The worker's requests, answered one at a time once Python is up: each goes to calc.browser's
// evaluate_json as JSON text and its reply goes back with its id. A request whose key (its
// calculator) has a newer request queued behind it is skipped: after a run of quick edits over a
// slow calculation only the latest is computed. A request that needs a package beyond `calc`
// (calc.browser.package_needed: the tracker's and the forecast's `calc-fight`) waits for it to
// load (worker-packages.mjs); a failed download answers it as a LoadFailure naming the file.
import { lastLine } from "./load-failure.mjs";

/**
 * Answer the page's requests (`{id, request, key}` messages) on this worker.
 * @param {Promise<{evaluateJson, runtime, packages} | {error}>} ready  Python's start: calc.browser's
 *   door, the Pyodide instance and its package loader, or the LoadFailure that stopped it
 * @param {number} [busyMs]  the `cc-busy-ms` knob: every calculation made this slow (tests)
 * @returns {(message: object) => void}  takes each request message
 */
export function requestQueue(ready, busyMs) {
  const queue = [];
  let draining = false;

  async function drain() {
    if (draining) return;
    draining = true;
    const python = await ready;
    while (queue.length) {
      // Let messages that arrived during the last calculation reach the queue first.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const msg = queue.shift();
      const failed = await packageFailure(python, msg.request); // edits made meanwhile queue up behind it
      if (msg.key != null && queue.some((m) => m.key === msg.key)) {
        self.postMessage({ id: msg.id, error: { input: null, message: "Superseded by a newer edit.", kind: "Superseded" } });
        continue;
      }
      answer(python, msg, busyMs, failed);
    }
    draining = false;
  }

  return (message) => {
    queue.push(message);
    drain();
  };
}

/** Load the package `request` needs beyond `calc`; the LoadFailure if that failed, else null. */
async function packageFailure(python, request) {
  if (python.error || !python.packages || request === undefined) return null;
  try {
    await python.packages.ensure(python.packages.needed(request));
    return null;
  } catch (err) {
    return err;
  }
}

function answer(python, { id, request }, busyMs, failed = null) {
  const error = python.error || failed;
  if (error) {
    const message = `Could not load ${error.what || "Python start-up"}: ${error.message}`;
    self.postMessage({ id, error: { input: null, message, kind: "LoadFailure" } });
    return;
  }
  self.postMessage({ type: "started", id }); // the page may stop a superseded run by a restart
  try {
    const t0 = performance.now();
    busyFor(busyMs);
    const reply = JSON.parse(python.evaluateJson(JSON.stringify(request)));
    const ms = performance.now() - t0;
    // A form's request: the inputs (`applies`) and list entries' fields (`cells`) that apply.
    const applies = reply.applies ? { applies: reply.applies, cells: reply.cells } : {};
    self.postMessage(reply.error ? { id, error: reply.error, ms, ...applies } : { id, result: reply.result, ms, ...applies });
    warmUp(python.runtime);
  } catch (err) {
    // Not a CalcError: a bug in an engine. Report it as such, never silently.
    self.postMessage({ id, error: { input: null, message: `Internal error: ${lastLine(err.message)}`, kind: "InternalError" } });
  }
}

/** Keep this thread busy for `ms` (tests make every calculation slow without relying on how
 * fast an engine is). */
function busyFor(ms) {
  const end = performance.now() + (ms || 0);
  while (performance.now() < end);
}

// After the first answer, import the other systems' engines one per task while the reader reads,
// so the next calculator page (reached by instant navigation) answers without that import.
// A request that arrives meanwhile waits at most for one module's import.
let warmed = false;
function warmUp(pyodide) {
  if (warmed) return;
  warmed = true;
  const systems = pyodide.pyimport("calc.systems");
  const ids = pyodide.pyimport("calc.inputs.data").system_ids().toJs();
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
