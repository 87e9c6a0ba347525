// The memory snapshot's packing (docs/assets/js/boot/sparse-pages.mjs): zero pages are left out and
// come back as zeros; anything malformed is refused.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isPacked, packPages, unpackPages } from "../../docs/assets/js/boot/sparse-pages.mjs";

/** An image of `pages` pages of 16 bytes (and a short tail): page i holds data when `full(i)`. */
function image(pages, full, tail = 5) {
  const out = new Uint8Array(pages * 16 + tail);
  for (let i = 0; i < pages; i++) if (full(i)) out.fill(i + 1, i * 16, i * 16 + 16);
  if (tail) out.fill(200, pages * 16 + 1);
  return out;
}

test("round trip: the same image back, zero pages left out of the file", () => {
  const img = image(10, (i) => i % 3 === 0);
  const packed = packPages(img, 16);
  assert.ok(isPacked(packed));
  assert.equal(packed.length, 16 + 11 + 4 * 16 + 5); // header, one flag a page, 4 full pages, the tail
  assert.deepEqual(unpackPages(packed), img);
});

test("all zeros, no zeros and an empty image round-trip", () => {
  for (const img of [new Uint8Array(100), image(6, () => true, 0), new Uint8Array(0)]) {
    assert.deepEqual(unpackPages(packPages(img, 16)), img);
  }
});

test("a page with one non-zero byte is kept", () => {
  const img = new Uint8Array(64);
  img[37] = 9;
  assert.deepEqual(unpackPages(packPages(img, 16)), img);
});

test("not packed, truncated, trailing bytes or an inconsistent header: refused", () => {
  const packed = packPages(image(5, (i) => i !== 2), 16);
  assert.equal(isPacked(new Uint8Array([1, 2, 3])), false);
  assert.throws(() => unpackPages(new Uint8Array(40)), /not a packed/);
  assert.throws(() => unpackPages(packed.subarray(0, packed.length - 1)), /truncated/);
  assert.throws(() => unpackPages(Uint8Array.of(...packed, 0)), /trailing/);
  const lying = Uint8Array.from(packed);
  new DataView(lying.buffer).setUint32(12, 99, true); // page count
  assert.throws(() => unpackPages(lying), /inconsistent/);
});
