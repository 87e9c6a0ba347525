// Build-time: compile the pinned Pyodide's stdlib zip to a `.pyc`-only zip, inside that same
// Pyodide (so the bytecode matches the runtime exactly). Passed to loadPyodide via `stdLibURL`.
// Usage: node tools/make_pyc_stdlib.mjs <pyodide dir> <out zip>
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [pyodideDir, outZip] = process.argv.slice(2);
if (!pyodideDir || !outZip) {
  console.error("usage: node tools/make_pyc_stdlib.mjs <pyodide dir> <out zip>");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(resolve(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });

pyodide.FS.writeFile("/tmp/stdlib-src.zip", readFileSync(join(pyodideDir, "python_stdlib.zip")));
pyodide.FS.writeFile("/tmp/pyc_stdlib.py", readFileSync(join(here, "pyc_stdlib.py")));
pyodide.pyimport("sys").path.insert(0, "/tmp");
const counts = pyodide.pyimport("pyc_stdlib").convert("/tmp/stdlib-src.zip", "/tmp/stdlib-pyc.zip");
writeFileSync(outZip, pyodide.FS.readFile("/tmp/stdlib-pyc.zip"));
console.log(`pyc stdlib: ${counts.get("compiled")} modules compiled, ${counts.get("copied")} files copied -> ${outZip}`);
