// The QR code of an encounter link (docs/assets/js/fight/qr.mjs) with the pinned library from
// node_modules: the SVG path draws exactly the library's dark modules, shifted by the quiet zone,
// a 12-combatant link fits, and a text too long for any QR code is null (the page says so).
import assert from "node:assert/strict";
import { test } from "node:test";

import qrcode from "../../node_modules/qrcode-generator/dist/qrcode.mjs";
import { QUIET, qrOf, qrPath } from "../../docs/assets/js/fight/qr.mjs";
import { packFight } from "../../docs/assets/js/fight/link.mjs";

/** The modules a path of `M x y h n v1 h-n z` runs paints, as "row,col" strings. */
function painted(d) {
  const cells = new Set();
  for (const [, x, y, n] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(n); i += 1) cells.add(`${Number(y) - QUIET},${Number(x) - QUIET + i}`);
  }
  assert.equal(d.replace(/M\d+ \d+h(\d+)v1h-\1z/g, ""), "", "nothing but runs");
  return cells;
}

test("the path paints exactly the dark modules, inside the quiet zone", async () => {
  const twelve = Array.from({ length: 12 }, (_, i) => ({ name: `Orc ${i + 1}`, side: "foe", values: { ac: 6, hd: 1, target_hp: 4 + (i % 5) } }));
  const url = `https://example.org/codex/segments/tracker/${await packFight("segments", "0123456789ab", twelve)}`;
  const qr = qrOf(qrcode, url);
  const n = qr.getModuleCount();
  const dark = new Set();
  for (let r = 0; r < n; r += 1) for (let c = 0; c < n; c += 1) if (qr.isDark(r, c)) dark.add(`${r},${c}`);
  assert.deepEqual(painted(qrPath(n, (r, c) => qr.isDark(r, c))), dark);
  assert.ok(dark.has("0,0") && dark.has(`0,${n - 1}`), "finder patterns at the corners");
  assert.ok(n <= 77, `${n} modules: at most version 15`);
});

test("a text too long for any QR code is null", () => {
  assert.equal(qrOf(qrcode, "x".repeat(3000)), null);
  assert.ok(qrOf(qrcode, "x".repeat(2000)));
});
