// The page side of the Python worker: one worker per tab, created on first use (only pages with a
// calculator call `calcWorker()`), kept across Material's instant navigation because this module
// lives as long as the tab. One ready promise; id-tagged requests; {id, result|error} replies.
// Cancel and time-out terminate the worker and start a new one (no SharedArrayBuffer needed).

import { missingFileRecovery, recoverOnce, workerBuildMismatch } from "./site-update.mjs";

const WORKER_URL = new URL("./pyodide-worker.mjs", import.meta.url);
export const REQUEST_TIMEOUT_MS = 30000;

export class CalcWorker {
  constructor() {
    this.listeners = new Set();
    this.status = { stage: "idle", text: "" };
    this.nextId = 1;
    this.pending = new Map();
    this.worker = null;
    this.start();
  }

  /** Start (or restart) the worker; `ready` resolves with the boot time, rejects on load failure. */
  start() {
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => this.receive(event.data, resolve, reject);
      this.worker.onerror = (event) => {
        event.preventDefault();
        if (recoverOnce("the calculator worker could not be loaded")) return; // likely another build's
        const failure = { what: `the calculator worker (${WORKER_URL.pathname})`, message: event.message || "it could not be loaded" };
        this.setStatus({ stage: "failed", text: failureText(failure), failure });
        reject(new Error(failureText(failure)));
        this.rejectAll(failureText(failure));
      };
    });
    this.ready.catch(() => {}); // reported through the status line
    this.setStatus({ stage: "download", text: "Preparing the calculator…" });
  }

  receive(msg, resolve, reject) {
    if (msg.type === "progress") {
      if (this.status.stage !== "failed") this.setStatus({ stage: msg.stage, text: msg.text });
    } else if (msg.type === "ready") {
      if (workerBuildMismatch(msg.build)) return; // reloading into one build
      this.bootMs = msg.ms;
      document.documentElement.dataset.ccPython = msg.source; // "snapshot" | "normal": for tests, bench
      this.setStatus({ stage: "ready", text: "Ready" });
      resolve(msg.ms);
    } else if (msg.type === "failed") {
      if (missingFileRecovery(msg.message)) return; // reloading into one build
      const text = failureText(msg);
      this.setStatus({ stage: "failed", text, failure: msg });
      reject(new Error(text));
    } else if (msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve: done, timer } = this.pending.get(msg.id);
      clearTimeout(timer);
      this.pending.delete(msg.id);
      done(msg);
    }
  }

  /** Send one request; resolves with {result, ms} or {error}. Never rejects. */
  request(request, timeoutMs = REQUEST_TIMEOUT_MS) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.restart(`Stopped: the calculation took longer than ${timeoutMs / 1000} s. Change an input to try again.`);
      }, timeoutMs + (this.status.stage === "ready" ? 0 : 120000));
      this.pending.set(id, { resolve, timer });
      this.worker.postMessage({ id, request });
    });
  }

  /** Stop whatever runs now: terminate and start afresh. Pending requests answer `cancelled`. */
  restart(reason = "Cancelled.") {
    this.worker.terminate();
    this.rejectAll(reason, "Cancelled");
    this.start();
  }

  rejectAll(message, kind = "LoadFailure") {
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve({ error: { input: null, message, kind } });
    }
    this.pending.clear();
  }

  get busy() {
    return this.pending.size > 0;
  }

  onStatus(listener) {
    this.listeners.add(listener);
    listener(this.status);
    return () => this.listeners.delete(listener);
  }

  setStatus(status) {
    this.status = status;
    for (const listener of [...this.listeners]) listener(status);
  }
}

function failureText(failure) {
  return `Could not load ${failure.what}: ${failure.message}`;
}

let shared = null;

/** The tab's single worker, created on first call. */
export function calcWorker() {
  if (!shared) shared = new CalcWorker();
  return shared;
}
