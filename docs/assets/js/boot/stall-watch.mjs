// When a runtime download has stalled: no byte for `ms` since the last one (a dead server or
// link; a slow link that keeps receiving is never cut off). Reported at the last byte + `ms`,
// not on the next tick of a coarser clock (issue 19: a 25 s threshold plus the tick made ~32 s).
// One allowance: a timer that fires late means this thread was busy (Python's start can keep it
// for seconds on a slow phone), and bytes that arrived meanwhile may still wait in the queue
// behind the timer, so it looks again `graceMs` later before declaring a stall.
// Pure (a clock and timers can be passed in): tests/js/stall-watch.test.mjs.

/** Production threshold: a runtime file that receives nothing for this long has stalled. */
export const STALL_MS = 12000;

export class StallWatch {
  /** `onStall()` is called once, at the last byte (or the start) + `ms`, unless `stop()`ped. */
  constructor({ ms = STALL_MS, onStall, graceMs = 50, now = () => performance.now(), setTimer = (f, t) => setTimeout(f, t), clearTimer = (id) => clearTimeout(id) }) {
    Object.assign(this, { ms, onStall, graceMs, now, setTimer, clearTimer });
    this.last = now();
    this.stopped = false;
    this.schedule(this.last + ms, false);
  }

  /** Bytes arrived (cheap: the timer is moved only when it fires). */
  arm() {
    this.last = this.now();
  }

  stop() {
    this.stopped = true;
    this.clearTimer(this.timer);
  }

  schedule(due, graced) {
    this.timer = this.setTimer(() => this.check(due, graced), Math.max(0, due - this.now()));
  }

  check(due, graced) {
    if (this.stopped) return;
    const now = this.now();
    if (now - this.last < this.ms) return this.schedule(this.last + this.ms, false);
    if (!graced && now - due > this.graceMs) return this.schedule(now + this.graceMs, true);
    this.stopped = true;
    this.onStall();
  }
}
