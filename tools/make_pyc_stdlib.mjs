// Build-time: precompile Python inside the pinned Pyodide (so the bytecode matches the runtime
// exactly), with tools/pyc_compile.py:
//   node tools/make_pyc_stdlib.mjs <pyodide dir> <out stdlib zip>        .pyc-only stdlib (stdLibURL)
//   node tools/make_pyc_stdlib.mjs <pyodide dir> --wheel <in.whl> <out.whl> [<pyc stdlib zip>]
//                                                                    wheel + __pycache__
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const pyodideDir = args[0];
const wheelMode = args[1] === "--wheel";
const [input, output, stdlib] = wheelMode ? args.slice(2) : [join(pyodideDir || "", "python_stdlib.zip"), args[1]];
if (!pyodideDir || !input || !output) {
  console.error("usage: node tools/make_pyc_stdlib.mjs <pyodide dir> (<out zip> | --wheel <in.whl> <out.whl>)");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(resolve(pyodideDir, "pyodide.mjs"));
// A .pyc stdlib made earlier (same runtime) only makes this start faster.
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/", ...(stdlib ? { stdLibURL: resolve(stdlib) } : {}) });

pyodide.FS.writeFile("/tmp/pyc_compile.py", readFileSync(join(here, "pyc_compile.py")));
pyodide.FS.writeFile("/tmp/input.zip", readFileSync(input));
pyodide.pyimport("sys").path.insert(0, "/tmp");
const compiler = pyodide.pyimport("pyc_compile");
const counts = (wheelMode ? compiler.compile_wheel : compiler.convert)("/tmp/input.zip", "/tmp/output.zip").toJs();
writeFileSync(output, pyodide.FS.readFile("/tmp/output.zip"));
console.log(`pyc: ${JSON.stringify(counts)} -> ${output}`);
