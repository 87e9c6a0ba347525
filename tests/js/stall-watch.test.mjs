// A runtime download's stall (docs/assets/js/boot/stall-watch.mjs): declared at the last byte + the
// threshold, not a tick later; a busy thread gets one short look before it is declared.
import assert from "node:assert/strict";
import { test } from "node:test";

import { STALL_MS, StallWatch } from "../../docs/assets/js/boot/stall-watch.mjs";

/** A watch on a fake clock: `run(t)` advances the clock to t, firing the timers due by then (at
 * their due time, or at `busyUntil` if the thread was busy then). */
function watch(ms = 1000, graceMs = 50) {
  const clock = { t: 0, busyUntil: 0 };
  const timers = new Map();
  let next = 1;
  const stalls = [];
  const w = new StallWatch({
    ms,
    graceMs,
    onStall: () => stalls.push(clock.t),
    now: () => clock.t,
    setTimer: (f, delay) => (timers.set(next, { f, at: clock.t + delay }), next++),
    clearTimer: (id) => timers.delete(id),
  });
  const run = (until) => {
    for (;;) {
      const due = [...timers].sort((a, b) => a[1].at - b[1].at)[0];
      if (!due || Math.max(due[1].at, clock.busyUntil) > until) break;
      timers.delete(due[0]);
      clock.t = Math.max(due[1].at, clock.busyUntil, clock.t);
      due[1].f();
    }
    clock.t = until;
  };
  return { w, clock, run, stalls };
}

test("the production threshold is at most 15 s", () => {
  assert.ok(STALL_MS <= 15000, STALL_MS);
});

test("a stall is declared exactly the threshold after the last byte", () => {
  const { w, clock, run, stalls } = watch(1000);
  for (const t of [100, 700, 1500, 2300]) {
    run(t);
    w.arm();
  }
  run(3299);
  assert.deepEqual(stalls, []);
  run(5000);
  assert.deepEqual(stalls, [3300]);
  assert.equal(clock.t, 5000);
});

test("no byte at all: declared the threshold after the start", () => {
  const { run, stalls } = watch(1000);
  run(10_000);
  assert.deepEqual(stalls, [1000]);
});

test("bytes that keep coming, however slowly, never stall", () => {
  const { w, run, stalls } = watch(1000);
  for (let t = 900; t < 20_000; t += 900) {
    run(t);
    w.arm();
  }
  assert.deepEqual(stalls, []);
});

test("a busy thread: bytes queued behind the late timer get their look first", () => {
  const { w, clock, run, stalls } = watch(1000, 50);
  clock.busyUntil = 3000; // the timer due at 1000 fires at 3000
  run(3000 + 10); // … then the queued bytes are read
  w.arm();
  run(3500);
  assert.deepEqual(stalls, []);
  run(10_000);
  assert.deepEqual(stalls, [4010]);
});

test("a busy thread and no bytes: declared after the short look", () => {
  const { clock, run, stalls } = watch(1000, 50);
  clock.busyUntil = 3000;
  run(10_000);
  assert.deepEqual(stalls, [3050]);
});

test("stopped: never declared", () => {
  const { w, run, stalls } = watch(1000);
  w.stop();
  run(10_000);
  assert.deepEqual(stalls, []);
});
