// Build-time: a Pyodide memory snapshot with `calc` already imported and warmed up, so a browser
// worker can start Python by copying memory instead of booting the interpreter and importing.
//
// Usage: node tools/make_snapshot.mjs <pyodide dir> <pyc stdlib zip> <calc wheel> <out>
// Writes <out> (the snapshot, ALWAYS gzip-compressed whatever its name: the heap is ~31 MB, half
// of it zero pages, which are left out (sparse-pages.mjs); the loader recognises gzip by its
// magic bytes) and <out>.json (its identity, sizes and probe request, for the build script). Name
// it without `.gz` if the service worker should precache it (tools/build_site.py skips `.gz`
// files there).
//
// Why these steps, in this order:
// - the SAME .pyc stdlib zip the site serves: the snapshot holds zipimport's table of contents of
//   /lib/python314.zip, so the browser must mount a byte-identical zip (same file, same build);
// - the wheel goes in with `unpackArchive` (a Uint8Array), never `loadPackage`: a snapshot taken
//   after loadPackage fails ("Unexpected hiwire entry at index 6", pyodide#6354);
// - every calc module is imported and every calculator but the forecast answers one default
//   request, so the first real request imports nothing and `calc.inputs.data.load()` (cached) already holds the rules data.
//   Site-packages files do NOT survive in a snapshot (the file system lives in JS, not in wasm
//   memory): anything not imported here would be missing in the browser, hence the full import;
// - `_makeSnapshot` / `makeMemorySnapshot` are private Pyodide APIs tied to its BUILD_ID; the
//   loader (docs/assets/js/boot/snapshot-loader.mjs) falls back to a normal load on any error.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { stdlibFingerprint } from "../docs/assets/js/boot/snapshot-loader.mjs";
import { packPages } from "../docs/assets/js/boot/sparse-pages.mjs";

const [pyodideDir, stdlibZip, wheelPath, outPath] = process.argv.slice(2);
if (!pyodideDir || !stdlibZip || !wheelPath || !outPath) {
  console.error("usage: node tools/make_snapshot.mjs <pyodide dir> <pyc stdlib zip> <calc wheel> <out>");
  process.exit(2);
}

/** Python run inside Pyodide: import every calc module, answer one default request per calculator. */
const WARM_UP = `
import importlib, json, os
import calc, calc.browser
from calc import data

SKIP = {"calc.__main__", "calc.benchmark"}  # the command line and CPython timing: never in a browser
# Not answered here: a fight forecast's chain peaks at megabytes, the wasm memory never shrinks,
# and the snapshot is the whole memory (37.7 MB with them, 31.5 without): past the runtime's
# initial memory it cannot be restored at all (see the restore check below).
HEAVY = {"forecast"}
root = os.path.dirname(calc.__file__)
names = []
for folder, dirs, files in os.walk(root):  # every module of the (sourceless) wheel, sub-packages included
    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
    rel = os.path.relpath(folder, os.path.dirname(root)).replace(os.sep, ".")
    for f in sorted(files):
        stem, ext = os.path.splitext(f)
        if ext in (".py", ".pyc"):
            names.append(rel if stem == "__init__" else f"{rel}.{stem}")
imported = []
for name in names:
    if name not in SKIP:
        importlib.import_module(name)
        imported.append(name)

answers = []
for system_id in data.system_ids():
    for name in data.system(system_id).raw["calculators"]:
        if name in HEAVY:
            continue
        request = {"system": system_id, "calculator": name, "inputs": {}}
        reply = json.loads(calc.browser.evaluate_json(json.dumps(request)))
        answers.append({"request": request, "ok": "result" in reply,
                        "error": reply.get("error", {}).get("message")})
json.dumps({"imported": imported, "answers": answers, "data_version": data.load().get("version")})
`;

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const started = performance.now();
const { loadPyodide } = await import(resolve(pyodideDir, "pyodide.mjs"));
const stdlibBytes = readFileSync(stdlibZip);
const wheelBytes = readFileSync(wheelPath);
const pyodide = await loadPyodide({
  indexURL: resolve(pyodideDir) + "/",
  stdLibURL: resolve(stdlibZip),
  // The stock lock's info (ABI check) and no packages: nothing to resolve, so no CDN fallback.
  lockFileContents: JSON.stringify({ info: JSON.parse(readFileSync(resolve(pyodideDir, "pyodide-lock.json"))).info, packages: {} }),
  _makeSnapshot: true,
  stdout: () => {},
  stderr: (line) => console.error(`[python] ${line}`),
});
// Into site-packages, where the worker's loadPackage installs the second package (calc-fight,
// calc/packages.py) after a restore: its files must land in the directories of `calc.__path__`.
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(wheelBytes), "wheel", { extractDir: sitePackages });
// An exception here (not a CalcError reply) is a bug in an engine: fail the build step loudly.
const warm = JSON.parse(pyodide.runPython(WARM_UP));
// Record which stdlib zip the in-memory import state belongs to (checked by the loader).
const fingerprint = await stdlibFingerprint(new Uint8Array(stdlibBytes));
pyodide.runPython(`import sys\nsys._calc_snapshot_stdlib = ${JSON.stringify(fingerprint)}`);
for (const a of warm.answers) {
  const r = a.request;
  console.log(`${a.ok ? "ok   " : "error"} ${r.system}/${r.calculator}${a.ok ? "" : `: ${a.error}`}`);
}
if (!warm.answers.some((a) => a.ok)) {
  console.error("no calculator answered: refusing to write a snapshot of a calc that cannot compute");
  process.exit(1);
}

const buildId = pyodide._api.config.BUILD_ID;
const image = pyodide.makeMemorySnapshot();
// The runtime restores a snapshot into its initial memory without growing it first: an image
// larger than that fails in every browser ("offset is out of bounds") and every reader would pay
// its download for a normal start. Restore it here once; refuse to write one that does not.
try {
  await loadPyodide({
    indexURL: resolve(pyodideDir) + "/",
    stdLibURL: resolve(stdlibZip),
    lockFileContents: JSON.stringify({ info: JSON.parse(readFileSync(resolve(pyodideDir, "pyodide-lock.json"))).info, packages: {} }),
    _loadSnapshot: image,
    stdout: () => {},
  });
} catch (err) {
  console.error(`snapshot of ${(image.length / 1e6).toFixed(1)} MB of memory does not restore (${err.message}): not written`);
  process.exit(1);
}
const raw = packPages(image); // without its zero pages: less to gunzip on every restore
const gz = gzipSync(raw, { level: 6 });
writeFileSync(outPath, gz);
const meta = {
  file: basename(outPath),
  pyodide: pyodide.version,
  buildId,
  stdlib: { file: basename(stdlibZip), sha256: sha256(stdlibBytes), fingerprint },
  wheel: { file: basename(wheelPath), sha256: sha256(wheelBytes) },
  dataVersion: warm.data_version,
  // A request the loader sends after a restore to prove calc answers (the first that did here).
  probe: warm.answers.find((a) => a.ok).request,
  imported: warm.imported,
  memoryBytes: image.length, // the memory image once unpacked
  rawBytes: raw.length, // the gunzipped file: the image packed without its zero pages
  rawSha256: sha256(raw),
  gzipBytes: gz.length,
  sha256: sha256(gz), // of the file as written (gzip)
};
writeFileSync(`${outPath}.json`, JSON.stringify(meta, null, 1) + "\n");
console.log(
  `snapshot: ${(image.length / 1e6).toFixed(1)} MB of memory, ${(raw.length / 1e6).toFixed(1)} MB without its zero pages, ` +
    `${(gz.length / 1e6).toFixed(2)} MB gzipped, ` +
    `${warm.imported.length} calc modules, ${warm.answers.length} warm-up requests, ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s -> ${outPath}`,
);
