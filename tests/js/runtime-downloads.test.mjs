/* global self */
// The worker's watched downloads (docs/assets/js/boot/runtime-downloads.mjs): the calc wheel waits
// until the wasm's and the standard library's bodies have arrived (they get the whole link), a
// wheel asked for once they are here is not held, and a held wheel that fails is still named.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RuntimeDownloads } from "../../docs/assets/js/boot/runtime-downloads.mjs";

const RUNTIME = { pyodideDir: "pyodide/", stdlib: "pyodide/python_stdlib_pyc.zip", wasm: "pyodide/pyodide.asm.wasm.gz", downloadBytes: 0 };
const here = (path) => `http://site/${path}`;
const WHEEL = "http://site/wheels/calc-1.0-py3-none-any.whl";

/** A fake network: every request is logged in order; each body is held open until `finish(name)`
 * (or answered at once with `status` when `statuses` names the file). */
function network(statuses = {}) {
  const log = [];
  const open = new Map();
  globalThis.self = globalThis;
  self.postMessage = () => {};
  self.fetch = async (input, init = {}) => {
    const url = String(input);
    const name = url.split("/").pop();
    log.push(name);
    if (statuses[name]) return new Response("missing", { status: statuses[name] });
    let controller;
    const body = new ReadableStream({ start: (c) => (controller = c) });
    init.signal?.addEventListener("abort", () => controller.error(init.signal.reason));
    controller.enqueue(new Uint8Array([1, 2, 3]));
    open.set(name, controller);
    return new Response(body, { status: 200 });
  };
  const finish = (name) => open.get(name).close();
  return { log, finish };
}

function downloads() {
  const d = new RuntimeDownloads({ here, runtime: RUNTIME, controlled: true, stallMs: 60000, progress: () => {} });
  d.install();
  return d;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test("the wheel is requested only once the wasm and the standard library have arrived", async () => {
  const net = network();
  const d = downloads();
  const wheel = self.fetch(WHEEL);
  await tick();
  assert.deepEqual(net.log, ["python_stdlib_pyc.zip", "pyodide.asm.wasm.gz"]);
  net.finish("python_stdlib_pyc.zip");
  await tick();
  assert.ok(!net.log.includes("calc-1.0-py3-none-any.whl"), "the wheel waits for the wasm too");
  net.finish("pyodide.asm.wasm.gz");
  await tick();
  assert.deepEqual(net.log.at(-1), "calc-1.0-py3-none-any.whl");
  assert.equal((await wheel).status, 200);
  net.finish("calc-1.0-py3-none-any.whl");
  d.started = true;
});

test("the status waits for the held wheel: downloads stay under way between the wasm and it", async () => {
  const net = network();
  const stages = [];
  const d = new RuntimeDownloads({ here, runtime: { ...RUNTIME, downloadBytes: 1 }, controlled: true, stallMs: 60000, progress: (stage) => stages.push(stage) });
  d.install();
  d.report("Downloading…");
  self.fetch(WHEEL);
  net.finish("python_stdlib_pyc.zip");
  net.finish("pyodide.asm.wasm.gz");
  await tick();
  assert.deepEqual(stages, [], "no 'Starting Python…' while the wheel is still to come");
  net.finish("calc-1.0-py3-none-any.whl");
  await tick();
  assert.deepEqual(stages, ["start"]);
});

test("a wheel asked for after the runtime arrived is requested at once", async () => {
  const net = network();
  const d = downloads();
  net.finish("python_stdlib_pyc.zip");
  net.finish("pyodide.asm.wasm.gz");
  await tick();
  self.fetch(WHEEL);
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(net.log.at(-1), "calc-1.0-py3-none-any.whl");
  net.finish("calc-1.0-py3-none-any.whl");
  d.started = true;
});

test("a held wheel that is missing fails the start, naming it", async () => {
  const net = network({ "calc-1.0-py3-none-any.whl": 404 });
  const d = downloads();
  const wheel = self.fetch(WHEEL);
  net.finish("python_stdlib_pyc.zip");
  net.finish("pyodide.asm.wasm.gz");
  assert.equal((await wheel).status, 404);
  await assert.rejects(d.failure, (err) => err.what.includes("calc-1.0-py3-none-any.whl") && /HTTP 404/.test(err.message));
});

test("a failed runtime download does not leave the wheel waiting", async () => {
  const net = network({ "pyodide.asm.wasm.gz": 404 });
  const d = downloads();
  const wheel = self.fetch(WHEEL);
  net.finish("python_stdlib_pyc.zip");
  await tick();
  assert.equal(net.log.at(-1), "calc-1.0-py3-none-any.whl");
  await assert.rejects(d.failure, (err) => err.what.includes("pyodide.asm.wasm.gz"));
  net.finish("calc-1.0-py3-none-any.whl");
  assert.equal((await wheel).status, 200);
});

// The worker's entry (pyodide-worker.mjs) requests the xz wasm and standard library before this
// module is imported; RuntimeDownloads takes those requests over instead of making its own.
const XZ_RUNTIME = {
  ...RUNTIME,
  xz: { "pyodide/pyodide.asm.wasm": "pyodide/pyodide.asm.wasm.xz", "pyodide/python_stdlib_pyc.zip": "pyodide/python_stdlib_pyc.zip.xz" },
};
const PACKED = ["http://site/pyodide/pyodide.asm.wasm.xz", "http://site/pyodide/python_stdlib_pyc.zip.xz"];

/** A stand-in for the entry's `prefetch`: `response` as given, `follow` replaying `chunks`
 * ([bytes, at]) and settling with `end` (true, or an Error); `aborted` records an abort. */
function prefetch({ response = new Response("xz", { status: 200 }), chunks = [[2, 5]], end = true } = {}) {
  const p = { aborted: null };
  p.response = response instanceof Error ? Promise.reject(response) : Promise.resolve(response);
  p.response.catch(() => {});
  p.abort = (reason) => (p.aborted = reason);
  p.follow = (onChunk) => {
    for (const [bytes, at] of chunks) onChunk(bytes, at);
    return end instanceof Error ? Promise.reject(end) : Promise.resolve(end);
  };
  return p;
}

function takingOver(prefetched, loadXz = async () => ({ XzReadableStream: class {} })) {
  const d = new RuntimeDownloads({ here, runtime: XZ_RUNTIME, controlled: true, stallMs: 60000, progress: () => {}, loadXz, prefetched });
  d.install();
  return d;
}

test("the entry's requests in flight are taken over, never made twice; the wheel still waits for them", async () => {
  const net = network();
  const prefetched = new Map(PACKED.map((url) => [url, prefetch()]));
  const d = takingOver(prefetched);
  await tick();
  assert.deepEqual(net.log, [], "no second request of the wasm or the standard library");
  assert.equal(prefetched.size, 0, "each taken over once");
  await d.earlyArrived;
  self.fetch(WHEEL);
  await tick();
  assert.deepEqual(net.log, ["calc-1.0-py3-none-any.whl"]);
  net.finish("calc-1.0-py3-none-any.whl");
  d.started = true;
});

test("the link is measured on the bodies' arrival times, not on when they were taken over", async () => {
  network();
  const d = takingOver(new Map(PACKED.map((url) => [url, prefetch({ chunks: [[1, 10], [500, 20]] })])));
  await d.earlyArrived;
  assert.equal(d.link.first.at, 10);
  assert.equal(d.link.total, 1002);
  d.started = true;
});

for (const [what, options, message] of [
  ["missing (HTTP 404)", { response: new Response("no", { status: 404 }) }, /HTTP 404/],
  ["not reachable", { response: new TypeError("Failed to fetch") }, /download failed \(Failed to fetch\)/],
  ["cut off mid-body", { end: new Error("connection reset") }, /download failed \(connection reset\)/],
]) {
  test(`a wasm requested by the entry that is ${what} fails the start, naming the file`, async () => {
    network();
    const [wasm, stdlib] = PACKED;
    const d = takingOver(new Map([[wasm, prefetch(options)], [stdlib, prefetch()]]));
    await assert.rejects(d.failure, (err) => err.what === "the Python runtime (pyodide.asm.wasm.xz)" && message.test(err.message));
  });
}

test("without the xz decoder the entry's xz requests are aborted and the gzip wasm is fetched", async () => {
  const net = network();
  const prefetched = new Map(PACKED.map((url) => [url, prefetch()]));
  const kept = [...prefetched.values()];
  const d = takingOver(prefetched, async () => {
    throw new Error("blocked");
  });
  await tick();
  assert.ok(kept.every((p) => p.aborted), "both aborted");
  assert.deepEqual(net.log.sort(), ["pyodide.asm.wasm.gz", "python_stdlib_pyc.zip"]);
  for (const name of net.log) net.finish(name);
  d.started = true;
});
