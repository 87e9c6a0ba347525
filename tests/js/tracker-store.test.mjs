// Where the tracker keeps a fight (docs/assets/js/tracker/store.mjs), over a fake Storage: a full
// storage is reported (never swallowed), keeps the fight before its undo history, another tab's
// write is never overwritten without the reader's say, and a fight kept aside stays as it was.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FightStore, fightKey, historyTexts, storageProblem } from "../../docs/assets/js/tracker/store.mjs";

class FakeStorage {
  constructor(limit = Infinity) {
    this.map = new Map();
    this.limit = limit; // the most characters it holds, as a browser's quota
  }
  get length() {
    return this.map.size;
  }
  key(i) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    const used = [...this.map].reduce((n, [key, val]) => n + (key === k ? 0 : val.length), 0);
    if (used + v.length > this.limit) {
      const err = new Error("The quota has been exceeded.");
      err.name = "QuotaExceededError";
      throw err;
    }
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

const whole = (x) => historyTexts(x)[0];
const h = (n, past = 0) => ({ past: Array.from({ length: past }, (_, i) => ({ n: i })), present: { n }, future: [] });

test("a save that fits is written and becomes what the tab knows", () => {
  const storage = new FakeStorage();
  const store = new FightStore(storage, "countup");
  assert.equal(store.read(), null);
  assert.deepEqual(store.save(historyTexts(h(1))), { ok: true, trimmed: false });
  assert.equal(storage.getItem(fightKey("countup")), whole(h(1)));
  assert.deepEqual(store.save(historyTexts(h(2))), { ok: true, trimmed: false });
});

test("a full storage keeps the fight before its undo history, and says when nothing fits", () => {
  const long = h(1, 50);
  const storage = new FakeStorage(whole(h(1)).length + 5);
  const store = new FightStore(storage, "countup");
  store.read();
  assert.deepEqual(store.save(historyTexts(long)), { ok: true, trimmed: true });
  assert.deepEqual(JSON.parse(storage.getItem(fightKey("countup"))).present, { n: 1 });
  const tiny = new FightStore(new FakeStorage(3), "countup");
  tiny.read();
  const r = tiny.save(historyTexts(long));
  assert.equal(r.ok, false);
  assert.equal(storageProblem(r.error), "this browser's storage for the site is full");
});

test("another tab's write is not overwritten unless the reader forces it", () => {
  const storage = new FakeStorage();
  const a = new FightStore(storage, "countup");
  const b = new FightStore(storage, "countup");
  a.read();
  b.read();
  assert.equal(a.save(historyTexts(h(1))).ok, true);
  const r = b.save(historyTexts(h(2)));
  assert.deepEqual(r, { ok: false, conflict: whole(h(1)) });
  assert.equal(storage.getItem(fightKey("countup")), whole(h(1)));
  b.seen(whole(h(1))); // the storage event, heard
  assert.equal(b.save(historyTexts(h(3))).ok, true);
  assert.equal(a.save(historyTexts(h(4))).ok, false);
  assert.equal(a.save(historyTexts(h(4)), { force: true }).ok, true);
  assert.equal(storage.getItem(fightKey("countup")), whole(h(4)));
});

test("a fight kept aside stays as it was, once, until discarded", () => {
  const storage = new FakeStorage();
  const store = new FightStore(storage, "phases");
  const text = '{"present": {"die": "d12"}';
  const kept = store.keepAside(text, new Date("2026-11-25T18:00:00Z"));
  assert.equal(kept.key, "cc-tracker-phases:unread:2026-11-25T18:00:00.000Z");
  assert.deepEqual(store.keepAside(text), kept); // not twice
  assert.deepEqual(store.aside(), [{ key: kept.key, saved: "2026-11-25T18:00:00.000Z", text }]);
  store.read();
  store.save(historyTexts(h(1)));
  assert.equal(storage.getItem(kept.key), text);
  store.discard("cc-tracker-countup"); // only keys kept aside by this store
  store.discard(kept.key);
  assert.deepEqual(store.aside(), []);
  const full = new FightStore(new FakeStorage(3), "phases");
  assert.equal(full.keepAside(text).error.name, "QuotaExceededError");
});
