// The first visit's link measure (docs/assets/js/boot/link-probe.mjs): fast only when enough bytes
// arrive at the rate asked, counted from the first byte; not fast when the time runs out.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LinkProbe } from "../../docs/assets/js/boot/link-probe.mjs";

/** A probe on a fake clock; `fire()` runs its time-out. */
function probe(bytesPerMs = 1000, probeBytes = 10000) {
  const clock = { t: 0 };
  let timer = null;
  const p = new LinkProbe({ bytesPerMs, probeBytes, timeoutMs: 400, now: () => clock.t, setTimer: (f) => (timer = f) });
  return { p, clock, fire: () => timer() };
}

test("enough bytes at the rate asked: fast, with the rate measured", async () => {
  const { p, clock } = probe();
  p.arrived(500); // first bytes at t=0: the clock starts here
  clock.t = 5;
  p.arrived(6000);
  clock.t = 10;
  p.arrived(4000); // 10,000 bytes in 10 ms: 1000 bytes/ms
  assert.equal(await p.verdict, true);
  assert.equal(p.rate, 1000);
  assert.equal(p.total, 10500);
});

test("enough bytes but slower than asked: not fast", async () => {
  const { p, clock } = probe();
  p.arrived(1);
  clock.t = 20;
  p.arrived(10000); // 500 bytes/ms
  assert.equal(await p.verdict, false);
  assert.equal(p.rate, 500);
});

test("the wait for the first byte is latency, not bandwidth", async () => {
  const { p, clock } = probe();
  clock.t = 300; // a long round trip before anything arrives
  p.arrived(100);
  clock.t = 305;
  p.arrived(10000);
  assert.equal(await p.verdict, true);
});

test("time runs out before enough bytes: not fast, and a later burst does not change it", async () => {
  const { p, clock, fire } = probe();
  p.arrived(100);
  clock.t = 50;
  p.arrived(5000);
  fire();
  assert.equal(await p.verdict, false);
  clock.t = 51;
  p.arrived(100000);
  assert.equal(await p.verdict, false);
});
