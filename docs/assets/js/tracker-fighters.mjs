// The tracker's new combatants from outside: a pasted stat block's fighter (calc/statblock.py's
// answer), a built-in preset, an encounter link's roster; and a fight's roster for a link. Pure
// (tracker-state.mjs does the checking); unit-tested under node --test.
import { fighterPreset } from "./stat-fighters.mjs";
import * as S from "./tracker-state.mjs";

/** A fighter of the answer as the tracker's new combatant ({name, side, values, max}): the
 * tracker's fields of the same input names (tracker-state.mjs `fromPreset`), its health input
 * as the full hit points. */
export function trackerCombatant(fighter, side, decl) {
  const got = S.fromPreset(fighterPreset(fighter), side === "pc" ? "attacker" : "target", decl);
  return { name: got.name, side: side === "pc" ? "pc" : "foe", values: got.values, max: got.max ?? decl.health?.default ?? 10 };
}

/** The state a link's roster makes: a new fight of `system` with those combatants. */
export function stateFromRoster(system, roster, decl) {
  let state = S.emptyState(system);
  for (const c of roster) {
    const combatant = { ...trackerCombatant(c, c.side, decl), ...(c.damage !== undefined ? { damage: c.damage } : {}), ...(c.tags ? { tags: c.tags } : {}) };
    state = S.reduce(state, { type: "add", combatant }, decl);
  }
  return state;
}

/** The roster of a state, as a link carries it (the full hit points under the health input);
 * `asItStands` adds each one's damage taken and conditions. */
export function rosterOf(state, decl, asItStands = false) {
  const health = decl.health?.input || "hp";
  return state.combatants.map((c) => ({
    name: c.name,
    side: c.side,
    values: { ...c.values, [health]: c.max },
    ...(asItStands ? { damage: c.damage, tags: c.tags } : {}),
  }));
}

/** What the players may see of a fight: the round, the order with whose turn it is, each
 * combatant's conditions and health state, and hit points for PCs only (a foe's stay hidden).
 * [{name, side, now, hp: "12 / 20" | null, state: label | null, tags}] in turn order (those not
 * in the order yet after it). */
export function playersView(state, decl) {
  const byId = new Map(state.combatants.map((c) => [c.id, c]));
  const ids = [...state.order.map((t) => t.id), ...state.combatants.map((c) => c.id).filter((id) => !state.order.some((t) => t.id === id))];
  return [...new Set(ids)]
    .filter((id) => byId.has(id))
    .map((id, i) => {
      const c = byId.get(id);
      return {
        name: c.name,
        side: c.side,
        now: i === state.turn && i < state.order.length,
        hp: c.side === "pc" ? `${c.max - c.damage} / ${c.max}` : null,
        state: S.healthState(c, decl)?.label ?? null,
        tags: [...c.tags],
      };
    });
}
