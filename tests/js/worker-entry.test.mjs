/* global self */
// The Python worker's entry (docs/assets/js/boot/pyodide-worker.mjs): no static import; the
// runtime's files (the URLs the build writes into EARLY) are requested before anything else is
// imported, then worker-main.mjs takes them over with the messages that came meanwhile; the
// bodies' chunks keep the time they arrived. Run on a copy of the entry, with a stand-in
// worker-main.mjs and runtime modules beside it, as tools/build_site.py writes it.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const ENTRY = new URL("../../docs/assets/js/boot/pyodide-worker.mjs", import.meta.url);
const EARLY = {
  files: { "../pyodide/pyodide.asm.wasm": "../pyodide/pyodide.asm.wasm.xz", "../pyodide/python_stdlib_pyc.zip": "../pyodide/python_stdlib_pyc.zip.xz" },
  modules: ["../pyodide/pyodide.mjs", "./xz-decompress.mjs"],
};

let copies = 0;

/** Load a copy of the entry with EARLY written in as tools/build_site.py does (null: a site not
 * built by it), beside a worker-main.mjs (`main`: its source; null: missing) and the runtime
 * modules, each logging its evaluation; `messages` are posted to it right after. */
async function loadEntry({ early = EARLY, main = 'globalThis.log.push("worker-main"); export function run(args) { globalThis.ran(args); }', pyodide = 'globalThis.log.push("pyodide.mjs");', messages = [] } = {}) {
  const id = copies++;
  const log = [];
  // each copy's stand-ins log to their own list and report to their own `ran`: a module of an
  // earlier test that settles late cannot write into this one's
  globalThis.logs = { ...globalThis.logs, [id]: log };
  const own = (text) =>
    text.replaceAll("globalThis.log.", `globalThis.logs[${id}].`).replaceAll("globalThis.ran(", `globalThis.rans[${id}](`);
  const dir = mkdtempSync(join(tmpdir(), "cc-entry-"));
  mkdirSync(join(dir, "boot"));
  mkdirSync(join(dir, "pyodide"));
  const text = readFileSync(ENTRY, "utf8");
  const built = early ? text.replace(/^const EARLY = null;/m, `const EARLY = ${JSON.stringify(early)};`) : text;
  writeFileSync(join(dir, "boot", "pyodide-worker.mjs"), built);
  if (main !== null) writeFileSync(join(dir, "boot", "worker-main.mjs"), own(main));
  writeFileSync(join(dir, "boot", "xz-decompress.mjs"), own('globalThis.log.push("xz-decompress");'));
  writeFileSync(join(dir, "pyodide", "pyodide.mjs"), own(pyodide));

  const bodies = new Map(); // file name → its stream's controller
  globalThis.self = globalThis;
  const posted = [];
  let firstPost;
  const anyPost = new Promise((resolve) => (firstPost = resolve));
  self.postMessage = (m) => posted.push(m) && firstPost(m);
  self.onmessage = null;
  globalThis.fetch = async (url) => {
    const name = String(url).split("/").pop();
    log.push(`fetch ${name}`);
    const body = new ReadableStream({ start: (c) => bodies.set(name, c) });
    return new Response(body, { status: 200 });
  };
  const ran = new Promise((resolve) => (globalThis.rans = { ...globalThis.rans, [id]: resolve }));
  await import(pathToFileURL(join(dir, "boot", "pyodide-worker.mjs")).href + `?${id}`);
  for (const data of messages) self.onmessage({ data });
  return { log, bodies, posted, anyPost, ran, dir };
}

/** Let the streams and promises settle (no timer: a macrotask turn). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Macrotask turns until `done()` holds (a module read from disk can take several on a busy
 * machine): the state waited on, never a sleep; after `ms` the caller's assertion says what is
 * missing. The bound is time, not a count of turns: 10,000 turns were ~30 ms on an idle fast
 * machine and ~400 ms on a loaded one, shorter than a cold module read can take. */
async function until(done, ms = 30000) {
  const end = clockNow() + ms;
  while (!done() && clockNow() < end) await flush();
}
const clockNow = performance.now.bind(performance); // the real clock: a test below fakes performance.now

test("the entry has no static import: nothing waits before its first request", () => {
  const text = readFileSync(ENTRY, "utf8");
  assert.doesNotMatch(text, /^\s*(import|export)\b[^(]*\bfrom\s*["']/m);
  assert.doesNotMatch(text, /^\s*import\s*["']/m);
});

test("the wasm is requested before any module is imported, the standard library once it has arrived", async () => {
  const { log, ran, bodies } = await loadEntry();
  await ran;
  await until(() => log.length >= 4); // the modules' imports, made before worker-main's, may settle after it
  assert.equal(log[0], "fetch pyodide.asm.wasm.xz");
  assert.deepEqual(new Set(log.slice(1)), new Set(["pyodide.mjs", "xz-decompress", "worker-main"]), "the wasm alone on the link");
  bodies.get("pyodide.asm.wasm.xz").close();
  await until(() => log.includes("fetch python_stdlib_pyc.zip.xz"));
  assert.equal(log.at(-1), "fetch python_stdlib_pyc.zip.xz");
  bodies.get("python_stdlib_pyc.zip.xz").close();
});

test("a wasm that fails does not keep the standard library waiting (its failure is named first)", async () => {
  const { log, bodies, ran } = await loadEntry();
  await ran;
  await until(() => log.length >= 4); // the modules imported, so the last entry is the fetch
  bodies.get("pyodide.asm.wasm.xz").error(new Error("connection reset"));
  await until(() => log.includes("fetch python_stdlib_pyc.zip.xz"));
  assert.equal(log.at(-1), "fetch python_stdlib_pyc.zip.xz");
  bodies.get("python_stdlib_pyc.zip.xz").close();
});

test("worker-main takes over the requests in flight, by URL, and the messages that came first", async () => {
  const { ran, dir, bodies } = await loadEntry({ messages: [{ type: "go" }, { id: 1, request: {} }] });
  const { prefetched, held, started } = await ran;
  const url = (file) => pathToFileURL(join(dir, "pyodide", file)).href;
  assert.deepEqual([...prefetched.keys()], [url("pyodide.asm.wasm.xz"), url("python_stdlib_pyc.zip.xz")]);
  assert.deepEqual(held.map((e) => e.data), [{ type: "go" }, { id: 1, request: {} }]);
  assert.equal(typeof started, "number");
  const wasm = prefetched.get(url("pyodide.asm.wasm.xz"));
  assert.equal((await wasm.response).status, 200);
  bodies.get("pyodide.asm.wasm.xz").close();
});

test("a body's chunks are reported with the time they arrived, those before the handover too", async () => {
  const { ran, dir, bodies } = await loadEntry();
  const { prefetched } = await ran;
  const wasm = prefetched.get(pathToFileURL(join(dir, "pyodide", "pyodide.asm.wasm.xz")).href);
  await wasm.response;
  const realNow = performance.now;
  let clock = 1000;
  performance.now = () => clock;
  try {
    bodies.get("pyodide.asm.wasm.xz").enqueue(new Uint8Array(3));
    await flush(); // the entry's reader takes the chunk at 1000
    clock = 1500; // the handover comes later
    const chunks = [];
    const ended = wasm.follow((bytes, at) => chunks.push([bytes, at]));
    assert.deepEqual(chunks, [[3, 1000]], "the chunk that came before follow() is replayed at once, with its own time");
    clock = 1600;
    bodies.get("pyodide.asm.wasm.xz").enqueue(new Uint8Array(5));
    bodies.get("pyodide.asm.wasm.xz").close();
    assert.equal(await ended, true);
    assert.deepEqual(chunks, [[3, 1000], [5, 1600]]);
  } finally {
    performance.now = realNow;
  }
});

test("a failed body rejects follow(), so the file can be named", async () => {
  const { ran, dir, bodies } = await loadEntry();
  const { prefetched } = await ran;
  const wasm = prefetched.get(pathToFileURL(join(dir, "pyodide", "pyodide.asm.wasm.xz")).href);
  await wasm.response;
  bodies.get("pyodide.asm.wasm.xz").error(new Error("connection reset"));
  await assert.rejects(wasm.follow(() => {}), /connection reset/);
});

test("a site not built by the build (no EARLY): no early request, worker-main asks itself", async () => {
  const { log, ran } = await loadEntry({ early: null });
  const { prefetched } = await ran;
  assert.equal(prefetched.size, 0);
  assert.deepEqual(log, ["worker-main"]);
});

test("worker-main that cannot be loaded is reported as a failed start, named", async () => {
  const { anyPost } = await loadEntry({ main: null });
  const message = await anyPost;
  assert.equal(message.type, "failed");
  assert.match(message.what, /worker-main\.mjs/);
});

test("the standard library is requested once 90 % of the wasm (its size from the build) has arrived", async () => {
  const early = { ...EARLY, bytes: { "../pyodide/pyodide.asm.wasm.xz": 100 } };
  const { log, ran, bodies } = await loadEntry({ early });
  await ran;
  bodies.get("pyodide.asm.wasm.xz").enqueue(new Uint8Array(89));
  await flush();
  assert.ok(!log.includes("fetch python_stdlib_pyc.zip.xz"), "not at 89 %");
  bodies.get("pyodide.asm.wasm.xz").enqueue(new Uint8Array(1));
  await until(() => log.includes("fetch python_stdlib_pyc.zip.xz"));
  // other work of the entry (the decoder's import) may be logged after it: the fetch is asked once
  assert.equal(log.filter((x) => x === "fetch python_stdlib_pyc.zip.xz").length, 1, "at 90 %, before the wasm's end");
  bodies.get("pyodide.asm.wasm.xz").close();
  bodies.get("python_stdlib_pyc.zip.xz").close();
});

test("JSPI is hidden from Pyodide before any of its code runs (Chromium's renderer crash when a page is left mid-start)", async () => {
  const stand = () => {};
  Object.assign(WebAssembly, { Suspending: stand, promising: stand, Suspender: stand });
  const jspi = '["Suspending", "promising", "Suspender"].filter((n) => n in WebAssembly).join() || "none"';
  const main = `globalThis.log.push("worker-main sees JSPI: " + (${jspi})); export function run(args) { globalThis.ran(args); }`;
  const pyodide = `globalThis.log.push("pyodide.mjs sees JSPI: " + (${jspi}));`;
  const { log, ran } = await loadEntry({ main, pyodide });
  await ran;
  await until(() => log.some((x) => x.startsWith("pyodide.mjs sees")));
  assert.ok(log.includes("pyodide.mjs sees JSPI: none"), log);
  assert.ok(log.includes("worker-main sees JSPI: none"), log);
  for (const name of ["Suspending", "promising", "Suspender"]) assert.equal(name in WebAssembly, false, name);
});
