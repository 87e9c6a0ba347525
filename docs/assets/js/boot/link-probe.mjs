// Is this link fast? Asked by the Python worker before a first visit's start: the memory snapshot
// pays for its extra download only over a fast link (pyodide-worker.mjs says how fast). Measured
// on the downloads the start makes anyway, from their first byte on, so a round trip's latency is
// not taken for a narrow link: the link is fast once `probeBytes` more have arrived at `bytesPerMs`
// or better, and not fast if that has not happened within `timeoutMs` of the probe's start.
// Pure (a clock and a timer can be passed in): tests/js/link-probe.test.mjs.

export class LinkProbe {
  /** `verdict` resolves to true (fast) or false, once. `rate`: bytes per ms measured, or null. */
  constructor({ bytesPerMs, probeBytes, timeoutMs, now = () => performance.now(), setTimer = setTimeout }) {
    this.bytesPerMs = bytesPerMs;
    this.probeBytes = probeBytes;
    this.now = now;
    this.rate = null;
    this.total = 0;
    this.first = null; // {at, total} when the first bytes arrived
    this.verdict = new Promise((resolve) => (this.decide = resolve));
    setTimer(() => this.decide(false), timeoutMs);
  }

  /** `n` more bytes have arrived, at `at` (now, unless the caller knows when: a body read late). */
  arrived(n, at = this.now()) {
    this.total += n;
    if (!this.first) {
      this.first = { at, total: this.total };
      return;
    }
    const bytes = this.total - this.first.total;
    if (this.rate !== null || bytes < this.probeBytes) return;
    this.rate = bytes / Math.max(1, at - this.first.at);
    this.decide(this.rate >= this.bytesPerMs);
  }
}
