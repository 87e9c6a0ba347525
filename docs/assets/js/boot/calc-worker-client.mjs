// The page side of the Python worker: one worker per tab, created on first use (only pages with a
// calculator call `calcWorker()`), kept across Material's instant navigation because this module
// lives as long as the tab. One ready promise; id-tagged requests; {id, result|error} replies.
// Cancel and time-out terminate the worker and start a new one (no SharedArrayBuffer needed).
// Requests carry a key (one per calculator): a newer one supersedes the older ones at once, the
// worker skips those still queued, and one still running is stopped once it has run as long as a
// fresh start takes (then a restart is the faster way to the latest answer).

import { missingFileRecovery, recoverOnce, workerBuildMismatch } from "./site-update.mjs";
import { WORKER_URL } from "./worker-spec.mjs";
import { takeWorker } from "./worker-owner.mjs";
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

  /** Start (or restart) the worker; `ready` resolves with the boot time, rejects on load failure.
   * `fresh`: its runtime downloads bypass the HTTP cache (see `restart`). */
  start(fresh = false) {
    // The worker the page's head started (worker-early.mjs) on the first start, else a new one:
    // never one handed out before (worker-owner.mjs).
    const { worker, events, startedAt, held } = takeWorker({ fresh });
    this.startedAt = startedAt;
    this.worker = worker;
    this.setStatus({ stage: "download", text: "Preparing the calculator…" });
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
      for (const event of events) (event.type === "error" ? this.worker.onerror : this.worker.onmessage)(event);
    });
    this.ready.catch(() => {}); // reported through the status line
    if (held) this.worker.postMessage({ type: "go" }); // it held Python's start for this moment
  }

  receive(msg, resolve, reject) {
    if (msg.type === "progress") {
      if (this.status.stage !== "failed") this.setStatus({ stage: msg.stage, text: msg.text, loaded: msg.loaded, total: msg.total });
    } else if (msg.type === "ready") {
      if (workerBuildMismatch(msg.build)) return; // reloading into one build
      this.bootMs = msg.ms;
      // For the benchmark's breakdown: when the worker was created, when its module began to run
      // (the milestones count from there) and what its start spent.
      const bootStart = msg.startedAt ? msg.startedAt - performance.timeOrigin : this.startedAt;
      const detail = { ms: msg.ms, source: msg.source, milestones: msg.milestones || {}, linkRate: msg.linkRate, workerStart: this.startedAt, bootStart };
      performance.mark("cc:python-ready", { detail });
      document.documentElement.dataset.ccPython = msg.source; // "snapshot" | "normal": for tests, bench
      this.setStatus({ stage: "ready", text: "Ready" });
      resolve(msg.ms);
    } else if (msg.type === "failed") {
      if (missingFileRecovery(msg.message)) return; // reloading into one build
      const text = failureText(msg);
      this.setStatus({ stage: "failed", text, failure: msg });
      reject(new Error(text));
    } else if (msg.type === "started") {
      const entry = this.pending.get(msg.id);
      this.running = msg.id;
      if (entry) entry.started = performance.now();
      else this.stopLater(msg.id, 0); // superseded while on its way to the worker
    } else if (msg.id !== undefined && this.pending.has(msg.id)) {
      if (this.running === msg.id) this.running = null;
      const { resolve: done, timer } = this.pending.get(msg.id);
      clearTimeout(timer);
      this.pending.delete(msg.id);
      done(msg);
    }
  }

  /** Send one request; resolves with {result, ms} or {error}. Never rejects. `key`: requests
   * with the same key supersede each other (the older ones answer kind "Superseded"). */
  request(request, timeoutMs = REQUEST_TIMEOUT_MS, { key = null } = {}) {
    const id = this.nextId++;
    if (key !== null) this.supersede(key);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.restart(`Stopped: the calculation took longer than ${timeoutMs / 1000} s. Change an input to try again.`);
      }, timeoutMs + (this.status.stage === "ready" ? 0 : 120000));
      this.pending.set(id, { resolve, timer, key, request });
      this.worker.postMessage({ id, request, key });
    });
  }

  /** Answer the requests under `key` "Superseded" now. If one of them is running, stop it by a
   * restart once it has run as long as a fresh start takes (ski-rental: never worse than twice
   * the better choice), keeping the other requests. */
  supersede(key) {
    for (const [id, entry] of this.pending) {
      if (entry.key !== key) continue;
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.resolve({ error: { input: null, message: "Superseded by a newer edit.", kind: "Superseded" } });
      if (id === this.running) this.stopLater(id, performance.now() - entry.started);
    }
  }

  /** The calculator under `key` is gone (the reader left its page): its requests answer
   * "Cancelled" now, and if one of them is on its way or running, the worker restarts at once
   * (other requests are sent again), so the next page's edit does not wait for it. */
  abandon(key) {
    let sent = false;
    for (const [id, entry] of this.pending) {
      if (entry.key !== key) continue;
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.resolve({ error: { input: null, message: "Cancelled: the page was left.", kind: "Cancelled" } });
      sent = true;
    }
    if (sent) this.restart(null);
  }

  /** Restart if the superseded request `id`, running for `ran` ms, is still running once it has
   * had as long as a restart costs. */
  stopLater(id, ran) {
    clearTimeout(this.stopTimer);
    this.stopTimer = setTimeout(() => {
      if (this.running === id) this.restart(null);
    }, Math.max(0, this.restartCostMs() - ran));
  }

  /** What a restart costs: the last start-up's time (at least a second: a guess before it). */
  restartCostMs() {
    return Math.max(1000, this.bootMs || 0);
  }

  /** Stop whatever runs now: terminate and start afresh. With a `reason`, pending requests
   * answer it as "Cancelled"; with null they are sent again to the new worker.
   * A worker stopped before it was ready may leave a download in flight: Chromium cancels it some
   * time after `terminate` (67 ms, seen under load), and a request for the same file made before
   * that joins its HTTP cache entry and gets its fate, a stalled download's stall or its network
   * error (issue 34: Cancel during a stalled download). So its successor's runtime downloads
   * bypass the HTTP cache (`fresh`); once a worker was ready its files are whole in the cache. */
  restart(reason = "Cancelled.") {
    const fresh = this.status.stage !== "ready";
    this.worker.terminate();
    this.running = null;
    clearTimeout(this.stopTimer);
    if (reason !== null) this.rejectAll(reason, "Cancelled");
    this.start(fresh);
    for (const [id, { request, key }] of this.pending) this.worker.postMessage({ id, request, key });
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
