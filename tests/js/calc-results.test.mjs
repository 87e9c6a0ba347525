// The renderer's exact chance of a distribution row: weight over the common denominator,
// reduced (calc/answers/result.py `dist_json` sends rows unreduced; the page shows reduced fractions).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { rowChance } from "../../docs/assets/js/calculator/calc-results.mjs";

test("small weights reduce to the fraction Python's Fraction would print", () => {
  assert.deepEqual(rowChance({ weight: "6", float: 0.5 }, "12"), { fraction: "1/2", float: 0.5 });
  assert.deepEqual(rowChance({ weight: "12", float: 1 }, "12"), { fraction: "1", float: 1 });
  assert.deepEqual(rowChance({ weight: "0", float: 0 }, "12"), { fraction: "0", float: 0 });
  assert.deepEqual(rowChance({ weight: "7", float: 7 / 36 }, "36"), { fraction: "7/36", float: 7 / 36 });
});

test("a limit-sized distribution: every row equals CPython's reduced Fraction", () => {
  const python = existsSync(".venv/bin/python") ? ".venv/bin/python" : "python3";
  const script = `
import json
from fractions import Fraction
from calc.numbers.dist import Dist
from calc.answers.result import dist_json
dist = Dist.mixture([(Fraction(1, 3), Dist.constant(0)), (Fraction(2, 3), Dist.dice(200, 10).scale(10) + 3)])
d = dist_json(dist)
print(json.dumps({"d": d, "want": [str(Fraction(int(r["weight"]), dist.total)) for r in d["pmf"] + d["at_least"]]}))
`;
  const { d, want } = JSON.parse(execFileSync(python, ["-c", script], { encoding: "utf8", maxBuffer: 1 << 26 }));
  assert.ok(d.denominator.length > 150, "the test should cover hundred-digit denominators");
  const got = [...d.pmf, ...d.at_least].map((row) => rowChance(row, d.denominator).fraction);
  assert.deepEqual(got, want);
});
