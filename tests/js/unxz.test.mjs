/* global self */
// The standard library and the wheels come xz-compressed (tools/build_site.py write_stored_xz) and
// are decoded as they arrive (docs/assets/js/boot/unxz.mjs, by the pinned xz-decompress): xz bytes
// are decoded however the stream is cut, other bytes pass through, a damaged file fails the start
// naming it, and a decoder that cannot be loaded means the plain file.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { test } from "node:test";

import { RuntimeDownloads } from "../../docs/assets/js/boot/runtime-downloads.mjs";
import { unxzed } from "../../docs/assets/js/boot/unxz.mjs";
import { chunked } from "./chunked.mjs";

const { XzReadableStream } = createRequire(import.meta.url)("xz-decompress");
const PLAIN = new TextEncoder().encode("PK\u0003\u0004 stored zip entry, compiled bytecode ".repeat(20000));
/** `bytes` xz-compressed as the build writes them (Python's lzma: LZMA2 9e, CRC32). */
function xz(bytes) {
  const script =
    "import lzma,sys;d=sys.stdin.buffer.read();f=[{'id':lzma.FILTER_LZMA2,'preset':9|lzma.PRESET_EXTREME,'dict_size':1<<22}];" +
    "sys.stdout.buffer.write(lzma.compress(d,format=lzma.FORMAT_XZ,check=lzma.CHECK_CRC32,filters=f))";
  return new Uint8Array(execFileSync("python3", ["-c", script], { input: bytes }));
}
const PACKED = xz(PLAIN);


for (const size of [1, 7, 65536]) {
  test(`xz in chunks of ${size} bytes is decoded`, async () => {
    const response = await unxzed(new Response(chunked(PACKED, size)), XzReadableStream);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PLAIN);
  });
}

test("bytes that are not xz pass through unchanged", async () => {
  const response = await unxzed(new Response(chunked(PLAIN, 7)), XzReadableStream);
  assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PLAIN);
});

const RUNTIME = {
  pyodideDir: "pyodide/",
  stdlib: "pyodide/python_stdlib_pyc.zip",
  wasm: "pyodide/pyodide.asm.wasm.gz",
  xz: { "pyodide/python_stdlib_pyc.zip": "pyodide/python_stdlib_pyc.zip.xz", "wheels/calc-1.whl": "wheels/calc-1.whl.xz" },
  downloadBytes: 0,
};
const here = (path) => `http://site/${path}`;

/** A fake server of `files` (name → bytes); every request's file name is logged. */
function serve(files) {
  const log = [];
  globalThis.self = globalThis;
  self.postMessage = () => {};
  self.fetch = async (input) => {
    const name = String(input).split("/").pop();
    log.push(name);
    return name in files ? new Response(chunked(files[name], 4096)) : new Response("missing", { status: 404 });
  };
  return log;
}

function downloads(loadXz = async () => ({ XzReadableStream })) {
  const d = new RuntimeDownloads({ here, runtime: RUNTIME, controlled: true, stallMs: 60000, progress: () => {}, loadXz });
  d.install();
  return d;
}

test("the standard library and the wheel are fetched as .xz and handed over decoded", async () => {
  const log = serve({ "python_stdlib_pyc.zip.xz": PACKED, "pyodide.asm.wasm.gz": new Uint8Array([0]), "calc-1.whl.xz": PACKED });
  const d = downloads();
  const stdlib = await self.fetch(here("pyodide/python_stdlib_pyc.zip"));
  assert.deepEqual(new Uint8Array(await stdlib.arrayBuffer()), PLAIN);
  const wheel = await self.fetch(here("wheels/calc-1.whl"));
  assert.deepEqual(new Uint8Array(await wheel.arrayBuffer()), PLAIN);
  assert.deepEqual(log.sort(), ["calc-1.whl.xz", "pyodide.asm.wasm.gz", "python_stdlib_pyc.zip.xz"]);
  d.started = true;
});

test("a damaged .xz fails the start, naming the file", async () => {
  const damaged = PACKED.slice();
  damaged[damaged.length >> 1] ^= 0xff;
  serve({ "python_stdlib_pyc.zip.xz": damaged, "pyodide.asm.wasm.gz": new Uint8Array([0]) });
  const d = downloads();
  const stdlib = await self.fetch(here("pyodide/python_stdlib_pyc.zip"));
  await assert.rejects(stdlib.arrayBuffer());
  await assert.rejects(d.failure, (err) => err.what === "the Python standard library (python_stdlib_pyc.zip.xz)" && /damaged/.test(err.message));
});

test("a decoder that cannot be loaded means the plain files", async () => {
  const log = serve({ "python_stdlib_pyc.zip": PLAIN, "pyodide.asm.wasm.gz": new Uint8Array([0]) });
  const d = downloads(async () => {
    throw new Error("offline");
  });
  const stdlib = await self.fetch(here("pyodide/python_stdlib_pyc.zip"));
  assert.deepEqual(new Uint8Array(await stdlib.arrayBuffer()), PLAIN);
  assert.ok(log.includes("python_stdlib_pyc.zip") && !log.includes("python_stdlib_pyc.zip.xz"), log);
  d.started = true;
});

/** Subresource Integrity of `bytes`, as Pyodide passes the lock's sha256 for a wheel. */
async function sri(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return "sha256-" + btoa(String.fromCharCode(...digest));
}

test("a wheel's integrity (the lock's sha256) is checked on the decoded bytes", async () => {
  serve({ "python_stdlib_pyc.zip.xz": PACKED, "pyodide.asm.wasm.gz": new Uint8Array([0]), "calc-1.whl.xz": PACKED });
  const d = downloads();
  const wheel = await self.fetch(here("wheels/calc-1.whl"), { integrity: await sri(PLAIN) });
  assert.deepEqual(new Uint8Array(await wheel.arrayBuffer()), PLAIN);
  d.started = true;
});

test("a wheel whose decoded bytes do not match the lock fails the start, naming it", async () => {
  serve({ "python_stdlib_pyc.zip.xz": PACKED, "pyodide.asm.wasm.gz": new Uint8Array([0]), "calc-1.whl.xz": PACKED });
  const d = downloads();
  await assert.rejects(self.fetch(here("wheels/calc-1.whl"), { integrity: await sri(PACKED) }));
  await assert.rejects(d.failure, (err) => err.what === "the calculators package (calc-1.whl.xz)" && /sha256/.test(err.message));
});

test("the wasm comes as .xz with its Content-Type, and as .gz when the decoder cannot be loaded", async () => {
  const runtime = { ...RUNTIME, wasm: "pyodide/pyodide.asm.wasm.xz", wasmGz: "pyodide/pyodide.asm.wasm.gz", xz: { ...RUNTIME.xz, "pyodide/pyodide.asm.wasm": "pyodide/pyodide.asm.wasm.xz" } };
  const { gzipSync } = await import("node:zlib");
  for (const [loadXz, fetched] of [
    [async () => ({ XzReadableStream }), "pyodide.asm.wasm.xz"],
    [async () => Promise.reject(new Error("offline")), "pyodide.asm.wasm.gz"],
  ]) {
    const log = serve({ "pyodide.asm.wasm.xz": PACKED, "pyodide.asm.wasm.gz": gzipSync(PLAIN), "python_stdlib_pyc.zip.xz": PACKED, "python_stdlib_pyc.zip": PLAIN });
    const d = new RuntimeDownloads({ here, runtime, controlled: true, stallMs: 60000, progress: () => {}, loadXz });
    d.install();
    const wasm = await self.fetch(here("pyodide/pyodide.asm.wasm"));
    assert.equal(wasm.headers.get("Content-Type"), "application/wasm");
    assert.deepEqual(new Uint8Array(await wasm.arrayBuffer()), PLAIN);
    assert.ok(log.includes(fetched), log);
    d.started = true;
  }
});
