// The build-time memory snapshot under the real runtime: tools/make_snapshot.mjs makes one from
// the wheel and the .pyc stdlib, docs/assets/js/boot/snapshot-loader.mjs boots from it (served over a
// loopback HTTP server, fetched with the real `fetch`) and must answer every request exactly like
// CPython; then every way a snapshot can be wrong must end in the normal load (the fallback).
// Needs `python tools/build_site.py --wheel-only` first (writes build/artifacts.json).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { bootFromSnapshot } from "../../docs/assets/js/boot/snapshot-loader.mjs";
import { packageLoader } from "../../docs/assets/js/boot/worker-packages.mjs";
import { packPages, unpackPages } from "../../docs/assets/js/boot/sparse-pages.mjs";
import { buildArtifacts, ROOT } from "../../tools/build_artifacts.mjs";

const { artifacts, pyodideDir, python } = buildArtifacts();
const cases = JSON.parse(
  execFileSync(python, [join(ROOT, "tests/node/cpython_answers.py"), artifacts.source_wheel], { maxBuffer: 1 << 28, encoding: "utf8" }),
);

// 1. Make the snapshot (the build step itself).
const dir = mkdtempSync(join(tmpdir(), "calc-snapshot-"));
const snapshotFile = join(dir, "calc-snapshot.bin"); // gzip inside, as the site serves it
const made = execFileSync("node", [join(ROOT, "tools/make_snapshot.mjs"), pyodideDir, artifacts.pyc_stdlib, artifacts.wheel, snapshotFile], {
  encoding: "utf8",
});
console.log(made.trim().split("\n").pop());
const meta = JSON.parse(readFileSync(`${snapshotFile}.json`, "utf8"));
assert.equal(meta.file, basename(snapshotFile));
assert.ok(meta.imported.includes("calc.browser"), "calc.browser must be imported in the snapshot");
const fightImported = meta.imported.filter((m) => /^calc\.(fight|forecast)(\.|$)|^calc\.systems\.\w+\.(fight|forecast)$/.test(m));
assert.deepStrictEqual(fightImported, [], "the snapshot holds calc-fight's modules (it is loaded when needed)");
// The probe the worker will send after a restore (recorded by the maker) is one CPython answers.
const probe = meta.probe;
const probeCase = cases.find((c) => JSON.stringify(c.request) === JSON.stringify(probe));
assert.ok(probeCase?.reply.result, `CPython does not answer the snapshot's probe ${JSON.stringify(probe)} with a result`);

// Broken variants, each to be refused.
const gz = readFileSync(snapshotFile);
const raw = gunzipSync(gz);
const flipped = Buffer.from(gz);
flipped[flipped.length >> 1] ^= 0xff;
writeFileSync(join(dir, "flipped.bin.gz"), flipped);
writeFileSync(join(dir, "truncated.bin.gz"), gz.subarray(0, gz.length >> 1));
const otherBuild = unpackPages(new Uint8Array(raw)); // the memory image (the file leaves out zero pages)
assert.equal(otherBuild.length, meta.memoryBytes);
otherBuild.fill(0x42, 16, 48); // the BUILD_ID words of the snapshot's header
writeFileSync(join(dir, "other-build.bin.gz"), gzipSync(packPages(otherBuild), { level: 1 }));
writeFileSync(join(dir, "not-a-snapshot.bin"), Buffer.from("<html>404 page served with status 200</html>"));

const server = createServer((req, res) => {
  const name = basename(new URL(req.url, "http://x").pathname);
  if (name === "encoded.bin") {
    // A host that marks the gzip file as Content-Encoding: gzip, so fetch hands over raw bytes.
    const headers = { "Content-Type": "application/octet-stream", "Content-Encoding": "gzip", Connection: "close" };
    return res.writeHead(200, headers).end(gz);
  }
  const file = join(dir, name);
  if (!existsSync(file)) return res.writeHead(404, { Connection: "close" }).end("not found");
  // Connection: close, so a boot longer than the keep-alive timeout cannot race a reused socket.
  res.writeHead(200, { "Content-Type": "application/octet-stream", Connection: "close" }).end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = (name) => `http://127.0.0.1:${server.address().port}/${name}`;

const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const lockInfo = JSON.parse(readFileSync(join(pyodideDir, "pyodide-lock.json"), "utf8")).info;
// The second package (calc-fight) is not in the snapshot: after a restore the worker installs it
// from its wheel through the lock (worker-packages.mjs; in Node, Pyodide reads an absolute path).
const fightWheel = readFileSync(artifacts.fight_wheel);
const fight = { name: "calc-fight", version: "0", file_name: artifacts.fight_wheel, install_dir: "site",
  sha256: createHash("sha256").update(fightWheel).digest("hex"), package_type: "package", imports: [], depends: [],
  unvendored_tests: false };
const options = { stdout: () => {}, lockFileContents: JSON.stringify({ info: lockInfo, packages: { "calc-fight": fight } }) };
const wheelBytes = new Uint8Array(readFileSync(artifacts.wheel));

/** The normal load, as the worker does it without a snapshot (here: unpack the wheel). */
async function normalLoad() {
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdLibURL: artifacts.pyc_stdlib, ...options });
  pyodide.unpackArchive(wheelBytes, "wheel");
  return pyodide;
}

function boot(snapshotName, { fallback, ...overrides } = {}) {
  return bootFromSnapshot({
    loadPyodide,
    indexURL: pyodideDir + "/",
    stdLibURL: artifacts.pyc_stdlib,
    snapshotURL: url(snapshotName),
    sha256: meta.sha256,
    rawSha256: meta.rawSha256,
    probe,
    options,
    fallback: fallback || (async (err) => assert.fail(`fallback used for a good snapshot: ${err.message}`)),
    onFallback: () => {},
    ...overrides,
  });
}

let failures = 0;
async function check(label, work) {
  const t = performance.now();
  try {
    await work();
    console.log(`ok   ${label} (${Math.round(performance.now() - t)} ms)`);
  } catch (err) {
    failures += 1;
    console.log(`FAIL ${label}\n${String(err.stack || err).slice(0, 2000)}`);
  }
}

// 2. A good snapshot boots and answers every request exactly like CPython.
await check("snapshot boots and answers like CPython", async () => {
  const booted = await boot(meta.file);
  assert.equal(booted.source, "snapshot");
  assert.equal(booted.error, null);
  const packages = packageLoader(booted.pyodide, {});
  let loaded = 0;
  for (const { request, reply } of cases) {
    const text = JSON.stringify(request);
    const needed = packages.needed(request);
    if (needed !== "calc" && !booted.pyodide.loadedPackages[needed]) loaded += 1;
    await packages.ensure(needed);
    assert.deepStrictEqual(JSON.parse(booted.evaluateJson(text)), reply, text);
  }
  assert.equal(loaded, 1, "calc-fight was not loaded for the forecast's requests (or loaded twice)");
  // The 31 MB heap image is not pinned by Pyodide's config after the restore (private field).
  const pinned = await Promise.resolve(booted.pyodide._api.config._loadSnapshot).then((b) => b, () => null);
  assert.equal(pinned, null, "the decompressed snapshot is still referenced after the boot");
  // The restored interpreter still imports stdlib modules it had not imported (from the zip).
  assert.equal(booted.pyodide.runPython("import textwrap, difflib; textwrap.shorten('a b c d', 5)"), "[...]");
  console.log(`     ${cases.length} requests match; boot ${booted.ms.boot} ms, verified ${booted.ms.verify} ms`);
});

await check("snapshot sent with Content-Encoding: gzip boots (raw sha256 checked)", async () => {
  const served = new Uint8Array(await (await fetch(url("encoded.bin"))).arrayBuffer());
  assert.equal(served.length, meta.rawBytes, "fetch should have decoded the Content-Encoding");
  const booted = await boot("encoded.bin");
  assert.equal(booted.source, "snapshot");
  const tampered = await boot("encoded.bin", { rawSha256: "0".repeat(64), fallback: async () => "normal-load" });
  assert.equal(tampered.source, "fallback");
  assert.equal(tampered.error.stage, "integrity");
  assert.deepStrictEqual(JSON.parse(booted.evaluateJson(JSON.stringify(probe))), probeCase.reply);
});

await check("onlyIfCached: restores from CacheStorage, never downloads", async () => {
  const cached = { match: async (u) => (u === url(meta.file) ? new Response(gz) : undefined) };
  const noFetch = async (u) => assert.fail(`fetched ${u} although onlyIfCached`);
  const booted = await boot(meta.file, { onlyIfCached: true, cacheStorage: cached, fetch: noFetch });
  assert.equal(booted.source, "snapshot");
  assert.deepStrictEqual(JSON.parse(booted.evaluateJson(JSON.stringify(probe))), probeCase.reply);
  for (const cacheStorage of [{ match: async () => undefined }, undefined]) {
    const skipped = await boot(meta.file, { onlyIfCached: true, cacheStorage, fetch: noFetch, fallback: async () => "normal-load" });
    assert.equal(skipped.source, "fallback");
    assert.equal(skipped.error.stage, "not-cached");
  }
});

// 3. Every broken snapshot falls back; the fallback (a real normal load) then answers like CPython.
const broken = [
  ["missing file (HTTP 404)", { name: "missing.bin.gz" }, "download"],
  ["corrupt bytes (sha256 mismatch)", { name: "flipped.bin.gz" }, "integrity"],
  ["corrupt bytes, no hash given", { name: "truncated.bin.gz", sha256: null }, /gunzip|boot|format/],
  ["not a snapshot at all", { name: "not-a-snapshot.bin", rawSha256: null }, "format"],
  ["wrong Pyodide build id", { name: "other-build.bin.gz", sha256: null }, "boot", /build id/i],
  ["different stdlib zip", { name: meta.file, stdLibURL: join(pyodideDir, "python_stdlib.zip") }, "verify", /stdlib zip/],
  ["probe answered with an error", { name: meta.file, probe: { system: "no-such-system", calculator: "hit", inputs: {} } }, "verify"],
];
let realFallbacks = 0;
for (const [label, { name, ...overrides }, stage, message] of broken) {
  await check(`fallback: ${label}`, async () => {
    // A real normal load for the first two and for the failed-restore case; a marker elsewhere.
    const real = realFallbacks < 2 || label.includes("build id");
    let called = 0;
    const booted = await boot(name, {
      ...overrides,
      fallback: async () => {
        called += 1;
        return real ? normalLoad() : "normal-load";
      },
    });
    assert.equal(booted.source, "fallback");
    assert.equal(called, 1);
    assert.equal(booted.evaluateJson, null);
    assert.ok(stage instanceof RegExp ? stage.test(booted.error.stage) : booted.error.stage === stage, `stage ${booted.error.stage}: ${booted.error.message}`);
    if (message) assert.match(booted.error.message, message);
    if (real) {
      realFallbacks += 1;
      const evaluateJson = booted.pyodide.pyimport("calc.browser").evaluate_json;
      assert.deepStrictEqual(JSON.parse(evaluateJson(JSON.stringify(probe))), probeCase.reply);
    } else {
      assert.equal(booted.pyodide, "normal-load");
    }
  });
}

// 4. A failing fallback is not swallowed: the worker must be able to report it.
await check("an error of the fallback itself propagates", async () => {
  await assert.rejects(
    boot("missing.bin.gz", { fallback: async () => { throw new Error("runtime download failed"); } }),
    /runtime download failed/,
  );
});

server.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `snapshot: ${meta.memoryBytes} bytes of memory, ${meta.rawBytes} without its zero pages, ${meta.gzipBytes} gzipped; ` +
    `${failures ? `${failures} FAILED` : "all checks passed"}`,
);
process.exit(failures ? 1 : 0);
