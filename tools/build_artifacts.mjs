// The build's runtime artifacts for the Node scripts (tests/node/smoke.mjs, tests/node/snapshot.mjs,
// bench/pyodide_compute.mjs): build/artifacts.json (written by `python tools/build_site.py
// --wheel-only`; CALC_ARTIFACTS names another), and the pinned Pyodide in node_modules, checked to
// be the version the artifacts were built with. Exits with a clear message when either is wrong.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** {artifacts, pyodideDir, python}: the manifest, node_modules/pyodide, and the venv's Python. */
export function buildArtifacts() {
  const manifestPath = process.env.CALC_ARTIFACTS || join(ROOT, "build/artifacts.json");
  if (!existsSync(manifestPath)) fail("build/artifacts.json is missing: run `python tools/build_site.py --wheel-only` first");
  const artifacts = JSON.parse(readFileSync(manifestPath, "utf8"));
  const pyodideDir = join(ROOT, "node_modules/pyodide");
  const installed = JSON.parse(readFileSync(join(pyodideDir, "package.json"), "utf8")).version;
  if (installed !== artifacts.pyodide) fail(`node_modules/pyodide is ${installed}, the artifacts were built with ${artifacts.pyodide}: rebuild them`);
  const python = existsSync(join(ROOT, ".venv/bin/python")) ? join(ROOT, ".venv/bin/python") : "python3";
  return { artifacts, pyodideDir, python };
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
