// Every calculator's compute time inside Pyodide, without a browser: the pinned Pyodide from
// node_modules (as tests/node/smoke.mjs boots it), the calc wheel unpacked from its bytes, then
// calc.benchmark.run — the very function `make bench` runs in Chromium — for each case (typical:
// the declared defaults; limit: the declared `stress` inputs; and the tracker's round).
// Prints, per case, the least and the median of N runs of the page's call (calc.browser.evaluate_json
// with the page's row cap) and of `evaluate`, flagging a least over the target (limit 50 ms,
// typical 10 ms). The least is the honest figure on a shared, loaded machine: the load average is
// printed beside it.
// Needs `python tools/build_site.py --wheel-only` first (writes build/artifacts.json).
// Usage: node bench/pyodide_compute.mjs [--repeat N] [--only TEXT] [--json] [--forecast]
//   --forecast: the fight forecast's cases instead (calc.forecast.bench.run: states, median and
//   least CPU ms per case, target 1000 ms for 4 against 4 in Pyodide)
//   --only: just the cases whose "system/calculator/case" contains TEXT (e.g. action-points/damage/limit)
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildArtifacts } from "../tools/build_artifacts.mjs";

const { values: args } = parseArgs({
  options: {
    repeat: { type: "string", default: "15" },
    only: { type: "string", default: "" },
    json: { type: "boolean" },
    forecast: { type: "boolean" },
  },
});
const repeat = Number(args.repeat);
if (!Number.isInteger(repeat) || repeat < 1) {
  console.error("--repeat must be a whole number of at least 1");
  process.exit(2);
}

const { artifacts, pyodideDir } = buildArtifacts();

// The benchmark itself imports modules the calculators do not (argparse, statistics), which the
// site's trimmed stdlib leaves out: run under the whole precompiled stdlib (same bytecode).
const stdLibURL = artifacts.full_pyc_stdlib || artifacts.pyc_stdlib;
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdLibURL, stdout: () => {} });
pyodide.unpackArchive(new Uint8Array(readFileSync(artifacts.wheel)), "wheel");
pyodide.unpackArchive(new Uint8Array(readFileSync(artifacts.fight_wheel)), "wheel"); // calc-fight: forecast, fight
const version = pyodide.runPython("import sys; sys.version.split()[0]");

if (args.forecast) {
  pyodide.globals.set("bench_repeat", repeat);
  pyodide.globals.set("bench_only", args.only);
  const before = loadavg();
  const cases = JSON.parse(
    pyodide.runPython(
      "import calc.forecast.bench as fb, json; fb.run(1, 'countup/1 against'); json.dumps(fb.run(bench_repeat, bench_only))",
    ),
  );
  console.log(`Pyodide ${artifacts.pyodide} (Python ${version}): the fight forecast, ${repeat} runs per case after a warm-up`);
  console.log(`load average before: ${before.map((x) => x.toFixed(2)).join(" ")}`);
  for (const r of cases) {
    const figures = r.error ? `refused: ${r.error}` : `${r.states} states, median ${r.median_ms} ms, least CPU ${r.cpu_ms} ms`;
    console.log(`${r.system.padEnd(12)}${r.case.padEnd(14)}${figures}`);
  }
  // WebAssembly memory only grows: its size after the run is the high-water mark of every case run
  // (one case at a time with --only), what a phone's tab must hold.
  console.log(`WebAssembly memory after the run: ${(pyodide._module.HEAPU8.length / 2 ** 20).toFixed(0)} MiB`);
  process.exit(0);
}

const loadBefore = loadavg();
const started = performance.now();
pyodide.globals.set("bench_repeat", repeat);
pyodide.globals.set("bench_only", args.only);
const rows = JSON.parse(
  pyodide.runPython("import calc.benchmark, json; json.dumps(calc.benchmark.run(bench_repeat, bench_only))"),
);
const seconds = (performance.now() - started) / 1000;
const loadAfter = loadavg();
const load = (l) => l.map((x) => x.toFixed(2)).join(" ");

if (args.json) {
  console.log(JSON.stringify({ python: version, repeat, load_before: loadBefore, load_after: loadAfter, rows }, null, 1));
  process.exit(0);
}
const TARGET = { typical: 10, limit: 50, party: 50, "party-limit": 300 }; // party: the round calculators' several attackers
const num = (x) => x.toFixed(2).padStart(8);
console.log(`Pyodide ${artifacts.pyodide} (Python ${version}) in Node ${process.versions.node}; ${repeat} runs per case after a warm-up`);
console.log(`load average before: ${load(loadBefore)}`);
console.log(
  `${"system/calculator".padEnd(28)}${"case".padEnd(8)}${"page least".padStart(11)}${"median".padStart(8)}` +
    `${"eval least".padStart(11)}${"median".padStart(8)}  target`,
);
const slow = [];
for (const r of rows) {
  const target = TARGET[r.case];
  const least = Math.max(r.page_min_ms, r.min_ms);
  const median = Math.max(r.page_median_ms, r.median_ms);
  const verdict = least >= target ? "OVER" : median >= target ? "ok (median over)" : "ok";
  if (least >= target) slow.push(`${r.system}/${r.calculator}/${r.case}`);
  console.log(
    `${`${r.system}/${r.calculator}`.padEnd(28)}${r.case.padEnd(8)}   ${num(r.page_min_ms)}${num(r.page_median_ms)}` +
      `   ${num(r.min_ms)}${num(r.median_ms)}  < ${target} ms ${verdict}`,
  );
}
console.log(`load average after: ${load(loadAfter)} (${seconds.toFixed(1)} s)`);
console.log(slow.length ? `over target (least of ${repeat}): ${slow.join(", ")}` : `every case under target (least of ${repeat})`);

// The tracker's actions at its cap, one line per system (calc.fight_bench.table: the CPython
// command prints the same table for CPython).
pyodide.globals.set("bench_rows", JSON.stringify(rows));
const fights = pyodide.runPython(`import calc.fight_bench, json, sys; calc.fight_bench.table(json.loads(bench_rows), "Pyodide (Python " + sys.version.split()[0] + ")")`);
if (fights) console.log(`\n${fights}`);

// Issue 19: the cost limits (calc.numbers.bounds) and the time each worst case takes to be refused under
// Pyodide, the page's call (calc.benchmark.refusals: the CPython command prints the same table).
if (!args.only) {
  const refused = JSON.parse(pyodide.runPython("import calc.benchmark, json; json.dumps(calc.benchmark.refusals(3))"));
  console.log(`\n${"worst case refused (calc.benchmark.REFUSALS)".padEnd(58)}${"median".padStart(8)}${"max".padStart(9)}  target`);
  for (const r of refused) {
    const verdict = r.max_ms < 2000 ? "ok" : "OVER";
    console.log(`${r.case.padEnd(58)}${num(r.median_ms)} ${num(r.max_ms)}  < 2000 ms ${verdict}`);
  }
}
