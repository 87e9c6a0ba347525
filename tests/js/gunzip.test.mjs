// Build-compressed files (docs/assets/js/boot/gunzip.mjs): gzip bytes are decompressed, bytes a host
// already decoded pass through unchanged, however the stream is cut into chunks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

import { gunzipped, sniffGzip } from "../../docs/assets/js/boot/gunzip.mjs";
import { chunked } from "./chunked.mjs";

const PLAIN = new TextEncoder().encode("\0asm binary-ish payload ".repeat(5000));


for (const size of [1, 7, 65536]) {
  test(`gzip in chunks of ${size} bytes is decompressed, with the headers asked for`, async () => {
    const response = await gunzipped(new Response(chunked(gzipSync(PLAIN), size)), { "Content-Type": "application/wasm" });
    assert.equal(response.headers.get("Content-Type"), "application/wasm");
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PLAIN);
  });

  test(`bytes that are not gzip (chunks of ${size}) pass through unchanged`, async () => {
    const response = await gunzipped(new Response(chunked(PLAIN, size)));
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PLAIN);
  });
}

test("sniffGzip tells gzip from not, and an empty stream is not gzip", async () => {
  assert.equal((await sniffGzip(chunked(gzipSync(PLAIN), 3))).gzip, true);
  assert.equal((await sniffGzip(chunked(PLAIN, 3))).gzip, false);
  const empty = await sniffGzip(chunked(new Uint8Array(0), 3));
  assert.equal(empty.gzip, false);
  assert.equal((await new Response(empty.body).arrayBuffer()).byteLength, 0);
});
