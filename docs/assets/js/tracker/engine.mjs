// The fight's rules live in Python (`calc.fight`, run in the worker): every change the page makes
// is one `{"kind": "fight", system, state, action}` request, answered by the new state, its view
// and what the rules did (`steps`). Requests run one at a time, in order, each on the state the
// one before left (two quick taps never act on the same old state).
import { calcWorker } from "../boot/calc-worker-client.mjs";

export class FightEngine {
  constructor(system, onStatus, onBusy = () => {}) {
    this.system = system;
    this.onStatus = onStatus;
    this.onBusy = onBusy; // true while any job is queued or running (the page marks itself busy)
    this.jobs = 0;
    this.worker = null;
    this.queue = Promise.resolve();
    this.lastMs = null; // how long the worker took over the last answer
  }

  /** Start the worker (Python) ahead of the first action. */
  warm() {
    if (this.worker) return;
    this.worker = calcWorker();
    this.worker.onStatus((st) => this.onStatus(st));
  }

  /** Run `job(ask)` after every job before it; `ask(state, action)` sends one request and
   * resolves to `{result}` or `{error}` (never throws). */
  run(job) {
    if (this.jobs++ === 0) this.onBusy(true);
    const next = this.queue.then(() => job((state, action) => this.ask(state, action)));
    this.queue = next
      .catch(() => {})
      .finally(() => {
        if (--this.jobs === 0) this.onBusy(false);
      });
    return next;
  }

  async ask(state, action) {
    this.warm();
    if (this.worker.status.stage === "failed") this.worker.restart("Retrying.");
    const reply = await this.worker.request({ kind: "fight", system: this.system, state, action });
    if (Number.isFinite(reply.ms)) this.lastMs = reply.ms; // inside the worker
    return reply;
  }
}
