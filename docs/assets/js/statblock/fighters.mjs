// The paste box's pure parts (paste.mjs shows them): fair crypto dice for rolled hit
// points, a fighter of calc/inputs/statblock.py's answer as preset text, the pasted text cut into highlighted pieces. No DOM; unit-tested under node --test.
import { presetText } from "../presets/store.mjs";

/** A fair face of a d`sides` from crypto.getRandomValues (rejection sampling, no modulo bias). */
export function rollDie(sides, random = (n) => crypto.getRandomValues(new Uint32Array(n))) {
  const limit = 2 ** 32 - (2 ** 32 % sides);
  for (;;) {
    for (const x of random(4)) if (x < limit) return (x % sides) + 1;
  }
}

/** The faces the answer's `dice_needed` asks for, in order. */
export function rollAll(needed, roll = rollDie) {
  return needed.flatMap((d) => Array.from({ length: d.count }, () => roll(d.sides)));
}

/** A fighter's values as a preset keeps them ({input: text}), for presets/store.mjs and the tracker. */
export function fighterPreset(fighter) {
  return { name: fighter.name, values: Object.fromEntries(Object.entries(fighter.values).map(([k, v]) => [k, presetText(v)])) };
}

/** The pasted text of one block cut into pieces: [{text, kind: "field" | "rejected" | "note" | null, item}]. */
export function pieces(text, fighter) {
  const marks = [
    ...fighter.fields.map((f) => ({ ...f, kind: "field" })),
    ...fighter.rejected.map((f) => ({ ...f, kind: "rejected" })),
    ...fighter.notes.map((n) => ({ ...n, kind: "note" })),
  ].sort((a, b) => a.start - b.start);
  const out = [];
  let at = fighter.block.start;
  for (const m of marks) {
    if (m.start < at) continue;
    if (m.start > at) out.push({ text: text.slice(at, m.start), kind: null });
    out.push({ text: text.slice(m.start, m.end), kind: m.kind, item: m });
    at = m.end;
  }
  if (at < fighter.block.end) out.push({ text: text.slice(at, fighter.block.end), kind: null });
  return out;
}
