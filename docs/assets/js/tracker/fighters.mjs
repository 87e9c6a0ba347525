// The tracker's new combatants from outside: a pasted stat block's fighter (calc/inputs/statblock.py's
// answer), a built-in preset, an encounter link's roster; and a fight's roster for a link. Pure,
// and holding no rule: the fight engine (calc.fight) checks every value it is sent, and reads a
// link's fight leniently (`load`: what it cannot read is named). Unit-tested under node --test.

/** A fighter of the answer as the tracker's new combatant ({name, side, values, max}): its values
 * under the tracker's field names (others are the calculators' alone), its health input as the
 * full hit points (without one, the health input's declared default: every tracker declares
 * its health input, macros/export/rules_json.py). */
export function trackerCombatant(fighter, side, decl) {
  const names = new Set([...(decl.fields || []), ...(decl.fighter || [])].map((f) => f.name)); // the fighter's too (odds.mjs)
  const health = decl.health.input;
  const values = Object.fromEntries(Object.entries(fighter.values || {}).filter(([k]) => names.has(k) && k !== health));
  const max = fighter.values?.[health] !== undefined ? fighter.values[health] : decl.health.default;
  return { name: fighter.name, side: side === "pc" ? "pc" : "foe", values, max };
}

/** The saved-fight form (cc-fight, version 2: calc/fight/state.py) of a link's roster, for the
 * engine's `load`: a new fight of `system` with those combatants, damage and conditions. */
export function stateFromRoster(system, roster, decl) {
  const combatants = roster.map((c, i) => {
    const { name, side, values, max } = trackerCombatant(c, c.side, decl);
    return { id: `c${i + 1}`, name, side, max, hp: max - (c.damage || 0), values, tags: c.tags || [] };
  });
  return { format: "cc-fight", version: 2, system, round: 0, turn: 0, order: [], notes: [], rolls: {}, pending: null, options: {}, combatants, next_id: combatants.length + 1 };
}

/** What of a link this site's rules data no longer takes (the engine's `dropped`), each named by
 * its combatant and field: "Orc, Armor Class: must be between −10 and 50 (got 999)". */
export function notFitting(dropped, state, decl) {
  const labels = new Map((decl.fields || []).map((f) => [f.name, f.label]));
  return dropped.map((d) => {
    const m = /^combatants\[(\d+)\](?:\.(?:values\.)?([\w-]+))?/.exec(d.input || "");
    const who = m ? state.combatants?.[Number(m[1]) - 1]?.name : null;
    const field = m?.[2] ? labels.get(m[2]) || m[2] : null;
    const where = [typeof who === "string" ? who : null, field].filter(Boolean).join(", ");
    return `${where || d.input}: ${d.message}`;
  });
}

/** The roster of a fight state, as a link carries it (the full hit points under the health
 * input); `asItStands` adds each one's damage taken and conditions. */
export function rosterOf(state, decl, asItStands = false) {
  const health = decl.health.input;
  return (state?.combatants || []).map((c) => ({
    name: c.name,
    side: c.side,
    values: { ...c.values, [health]: c.max },
    ...(asItStands ? { damage: c.max - c.hp, tags: c.tags } : {}),
  }));
}

/** What the players may see of a fight, from the engine's view: the order with whose turn it is,
 * each combatant's health state (the engine's) and conditions, hit points for PCs only (a foe's
 * stay hidden). [{name, side, now, hp: "12 / 20" | null, state: label | null, tags}] in turn
 * order, those not in the order after it. */
export function playersView(view) {
  if (!view) return [];
  const byId = new Map(view.combatants.map((c) => [c.id, c]));
  const ids = [...view.order.map((t) => t.id), ...view.combatants.map((c) => c.id)];
  return [...new Set(ids)]
    .filter((id) => byId.has(id))
    .map((id) => {
      const c = byId.get(id);
      return {
        name: c.name,
        side: c.side,
        now: id === view.current,
        hp: c.side === "pc" ? `${c.hp} / ${c.max}` : null,
        state: c.state || null,
        tags: [...(c.tags || [])],
      };
    });
}
