// Build-time: precompile Python inside the pinned Pyodide (so the bytecode matches the runtime
// exactly), with tools/pyc_compile.py:
//   node tools/make_pyc_stdlib.mjs <pyodide dir> <out stdlib zip>        .pyc-only stdlib (stdLibURL)
//   node tools/make_pyc_stdlib.mjs <pyodide dir> --wheel <in.whl> <out.whl> [<pyc stdlib zip>]
//                                                                    wheel + __pycache__
//   node tools/make_pyc_stdlib.mjs <pyodide dir> --trim <pyc stdlib zip> <calc.whl> <out zip> [<more.whl>…]
//                     the .pyc stdlib cut to what the calculators import (measured here, by
//                     booting the way the browser worker does and running every calculator);
//                     writes <out zip>.json: the modules kept. The other wheels (calc-fight:
//                     calc/packages.py) are unpacked beside calc once it has loaded, so their
//                     imports count too.
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const pyodideDir = args[0];
const mode = args[1] === "--wheel" || args[1] === "--trim" ? args[1] : "stdlib";
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(resolve(pyodideDir || ".", "pyodide.mjs"));
const indexURL = resolve(pyodideDir || ".") + "/";

/** Load tools/pyc_compile.py into a booted Pyodide. */
function compiler(pyodide) {
  pyodide.FS.writeFile("/tmp/pyc_compile.py", readFileSync(join(here, "pyc_compile.py")));
  pyodide.pyimport("sys").path.insert(0, "/tmp");
  return pyodide.pyimport("pyc_compile");
}

if (mode === "--trim") {
  const [stdlib, wheel, output, ...more] = args.slice(2);
  if (!stdlib || !wheel || !output) usage();
  // Boot exactly as docs/assets/js/boot/pyodide-worker.mjs does: the wheel named in a lock file and
  // fetched by loadPyodide (so Pyodide's package-loading modules count too).
  const dir = mkdtempSync(join(tmpdir(), "cc-trim-"));
  try {
    copyFileSync(wheel, join(dir, basename(wheel)));
    const info = JSON.parse(readFileSync(join(pyodideDir, "pyodide-lock.json"), "utf8")).info;
    const sha256 = createHash("sha256").update(readFileSync(wheel)).digest("hex");
    const calc = { name: "calc", version: "0", file_name: basename(wheel), install_dir: "site", sha256,
      package_type: "package", imports: ["calc"], depends: [], unvendored_tests: false };
    writeFileSync(join(dir, "lock.json"), JSON.stringify({ info, packages: { calc } }));
    const pyodide = await loadPyodide({ indexURL, stdLibURL: resolve(stdlib), lockFileURL: join(dir, "lock.json"),
      packages: ["calc"], stdout: () => {} });
    if (!pyodide.loadedPackages.calc) throw new Error("the calc wheel did not load");
    const sitePackages = pyodide.runPython("import calc, os; os.path.dirname(os.path.dirname(calc.__file__))");
    for (const extra of more) pyodide.unpackArchive(new Uint8Array(readFileSync(extra)), "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    const tools = compiler(pyodide);
    const used = tools.stdlib_in_use().toJs({ dict_converter: Object.fromEntries });
    pyodide.FS.writeFile("/tmp/input.zip", readFileSync(stdlib));
    const counts = tools.trim("/tmp/input.zip", "/tmp/output.zip", used.members).toJs({ dict_converter: Object.fromEntries });
    writeFileSync(output, pyodide.FS.readFile("/tmp/output.zip"));
    writeFileSync(`${output}.json`, JSON.stringify(used.modules, null, 1) + "\n");
    console.log(`trimmed stdlib: ${used.modules.length} modules imported; kept ${counts.kept} of ${counts.of} files -> ${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const wheelMode = mode === "--wheel";
  const [input, output, stdlib] = wheelMode ? args.slice(2) : [join(pyodideDir || "", "python_stdlib.zip"), args[1]];
  if (!pyodideDir || !input || !output) usage();
  // A .pyc stdlib made earlier (same runtime) only makes this start faster.
  const pyodide = await loadPyodide({ indexURL, ...(stdlib ? { stdLibURL: resolve(stdlib) } : {}) });
  pyodide.FS.writeFile("/tmp/input.zip", readFileSync(input));
  const tools = compiler(pyodide);
  const counts = (wheelMode ? tools.compile_wheel : tools.convert)("/tmp/input.zip", "/tmp/output.zip").toJs();
  writeFileSync(output, pyodide.FS.readFile("/tmp/output.zip"));
  console.log(`pyc: ${JSON.stringify(counts)} -> ${output}`);
}

function usage() {
  console.error(
    "usage: node tools/make_pyc_stdlib.mjs <pyodide dir> (<out zip> | --wheel <in.whl> <out.whl> [<pyc zip>]" +
      " | --trim <pyc zip> <calc.whl> <out zip> [<more.whl>…])",
  );
  process.exit(2);
}
