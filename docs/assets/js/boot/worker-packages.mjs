// The browser packages beyond `calc` (calc/packages.py: `calc-fight`, the tracker's fight and the
// forecast), loaded by the worker before the first request that needs one. Which request needs
// which package is Python's answer (calc.browser.package_needed), never a rule typed here.
// Installed from its wheel through the site's lock file (its sha256 checked by Pyodide), also
// after a memory snapshot's restore: the snapshot holds calc's modules in memory, not its files.
import { LoadFailure } from "./load-failure.mjs";

/**
 * @param {object} pyodide  the started runtime (normal start or snapshot restore)
 * @param {Record<string, string>} urls  package name → its wheel's URL (runtime.mjs `packages`)
 * @returns {{needed: (request: object) => string, ensure: (name: string) => Promise<void>}}
 */
export function packageLoader(pyodide, urls) {
  const browser = pyodide.pyimport("calc.browser");
  const beyond = pyodide.pyimport("calc.packages").PACKAGES.toJs().filter((name) => name !== "calc");
  const loading = new Map();

  async function install(name) {
    const errors = [];
    await pyodide.loadPackage(name, { messageCallback: () => {}, errorCallback: (line) => errors.push(line) });
    if (!pyodide.loadedPackages[name]) {
      const why = errors.length ? errors[errors.length - 1] : "download failed";
      throw new LoadFailure(`the ${name} package (${urls[name] || name})`, `${why} (or its sha256 did not match the lock file)`);
    }
    pyodide.pyimport("importlib").invalidate_caches(); // the new files under calc/ are seen by the next import
  }

  return {
    /** The package a request needs ("calc": none to load). Python is asked (its JSON text parsed
     * once more) only while a package is left to load: once all are, every request needs none. */
    needed(request) {
      if (beyond.every((name) => pyodide.loadedPackages[name])) return "calc";
      return browser.package_needed(JSON.stringify(request));
    },
    /** Load `name` once (a failure is retried by the next request that needs it). */
    ensure(name) {
      if (name === "calc" || pyodide.loadedPackages[name]) return Promise.resolve();
      if (!loading.has(name)) {
        const work = install(name);
        loading.set(name, work);
        work.catch(() => loading.delete(name));
      }
      return loading.get(name);
    },
  };
}
