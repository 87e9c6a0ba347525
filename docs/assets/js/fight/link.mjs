// Encounter links: a fight's roster packed into the URL's fragment (`#fight=`), so a link opens
// the tracker with it, offline too (the fragment never leaves the browser). The roster is JSON
// `{"v": 1, "d": <rules-data version>, "s": <system>, "c": [{"n": name, "s": "pc"|"foe", "v": {input: value},
// "h": damage taken, "g": [conditions]}]}` ("h" and "g" only for the fight as it stands),
// raw-DEFLATE compressed (CompressionStream "deflate-raw") and base64url-encoded; the Encounters
// pages (macros/render/encounters.py) write the same with Python's zlib. Pure but for the
// streams (Node has them too): unit-tested under node --test (tests/js/fight-link.test.mjs).
//
// The players' link (`#fight=players.` + the same packing) holds what the players' view shows and
// nothing more: `{"v": 1, "d", "s", "r": round, "a": when made (ms), "p": [{"n", "s", "now"?: 1,
// "t"?: state, "h"?: "HP / max" (PCs only), "g"?: [conditions]}]}` in the round's order. Foes'
// hit points are not in it at all, so decoding the link cannot reveal them.

export const PREFIX = "#fight=";
export const FORMAT = 1;
export const MAX_PACKED = 60_000; // characters of fragment read at most
export const MAX_COMBATANTS = 40;
export const PLAYERS = "players."; // after PREFIX: a players' link (a dot is no base64url letter)

/** A link that cannot be read; the message is for the reader, and nothing has changed. */
export class FightLinkError extends Error {
  constructor(message) {
    super(message);
    this.name = "FightLinkError";
  }
}

function toBase64url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new FightLinkError("The link's fight is not in the expected letters (base64url).");
  const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

async function pack(body) {
  return toBase64url(await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(JSON.stringify(body))));
}

/** `#fight=…` for a roster [{name, side, values}] of `system` at rules-data `version`. */
export async function packFight(system, version, roster) {
  const body = { v: FORMAT, d: version, s: system, c: roster.map((c) => ({ n: c.name, s: c.side, v: c.values, ...(c.damage ? { h: c.damage } : {}), ...(c.tags?.length ? { g: c.tags } : {}) })) };
  return PREFIX + (await pack(body));
}

/** Whether `hash` is a players' link (read-only view; no fight to load). */
export function isPlayersLink(hash) {
  return typeof hash === "string" && hash.startsWith(PREFIX + PLAYERS);
}

/** `#fight=players.…`: the players' view [{name, side, now, state, hp, tags}] (tracker/fighters.mjs
 * playersView) of round `round`. A foe's hit points are never packed, whatever the entry holds. */
export async function packPlayers(system, version, round, players, at = Date.now()) {
  const p = players.map((x) => ({ n: x.name, s: x.side, ...(x.now ? { now: 1 } : {}), ...(x.state ? { t: x.state } : {}), ...(x.hp && x.side === "pc" ? { h: x.hp } : {}), ...(x.tags?.length ? { g: x.tags } : {}) }));
  return PREFIX + PLAYERS + (await pack({ v: FORMAT, d: version, s: system, r: round, a: at, p }));
}

/** The players' view of a `#fight=players.` fragment: {system, version, round, at, players}, or
 * null for any other fragment. Throws a FightLinkError for one that cannot be read. */
export async function unpackPlayers(hash) {
  if (!isPlayersLink(hash)) return null;
  const body = await unpack(hash.slice(PREFIX.length + PLAYERS.length));
  if (typeof body.s !== "string" || !Array.isArray(body.p) || !Number.isInteger(body.r)) throw new FightLinkError("The players' link names no system, round or combatants.");
  if (body.p.length > MAX_COMBATANTS) throw new FightLinkError(`The link holds ${body.p.length} combatants; at most ${MAX_COMBATANTS} are read.`);
  const text = (x) => (typeof x === "string" ? x : null);
  const players = body.p.map((x, i) => {
    if (!x || typeof x.n !== "string" || !["pc", "foe"].includes(x.s)) throw new FightLinkError(`Combatant ${i + 1} of the link is not a name and a side (pc or foe).`);
    const tags = Array.isArray(x.g) ? x.g.filter((t) => typeof t === "string") : [];
    return { name: x.n, side: x.s, now: x.now === 1, state: text(x.t), hp: x.s === "pc" ? text(x.h) : null, tags };
  });
  return { system: body.s, version: text(body.d), round: body.r, at: Number.isFinite(body.a) ? body.a : null, players };
}

/** The JSON object packed in `text` (after the prefix), checked for its format. */
async function unpack(text) {
  if (text.length > MAX_PACKED) throw new FightLinkError(`The link's fight is too long (${text.length} characters; at most ${MAX_PACKED} are read).`);
  let body;
  try {
    const raw = await through(new DecompressionStream("deflate-raw"), fromBase64url(text));
    if (raw.length > 20 * MAX_PACKED) throw new Error("too large");
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch (err) {
    if (err instanceof FightLinkError) throw err;
    throw new FightLinkError("The link's fight could not be unpacked (the link may be cut short).");
  }
  if (!body || typeof body !== "object" || body.v !== FORMAT) throw new FightLinkError(`The link's fight has format ${JSON.stringify(body?.v)}; this page reads format ${FORMAT}.`);
  return body;
}

/** The roster of a `#fight=` fragment: {system, version, roster: [{name, side, values}]}, or null
 * when the fragment holds no fight (a players' link holds none). Throws a FightLinkError for one
 * that cannot be read. */
export async function unpackFight(hash) {
  if (typeof hash !== "string" || !hash.startsWith(PREFIX) || isPlayersLink(hash)) return null;
  const body = await unpack(hash.slice(PREFIX.length));
  if (typeof body.s !== "string" || !Array.isArray(body.c)) throw new FightLinkError("The link's fight names no system or no combatants.");
  if (body.c.length > MAX_COMBATANTS) throw new FightLinkError(`The link holds ${body.c.length} combatants; at most ${MAX_COMBATANTS} are read.`);
  const roster = body.c.map((c, i) => {
    if (!c || typeof c.n !== "string" || !["pc", "foe"].includes(c.s) || !c.v || typeof c.v !== "object" || Array.isArray(c.v)) {
      throw new FightLinkError(`Combatant ${i + 1} of the link is not a name, a side (pc or foe) and values.`);
    }
    const out = { name: c.n, side: c.s, values: c.v };
    if (c.h !== undefined) {
      if (!Number.isInteger(c.h)) throw new FightLinkError(`Combatant ${i + 1} of the link: damage must be a whole number.`);
      out.damage = c.h;
    }
    if (c.g !== undefined) {
      if (!Array.isArray(c.g) || !c.g.every((t) => typeof t === "string")) throw new FightLinkError(`Combatant ${i + 1} of the link: conditions must be a list of texts.`);
      out.tags = c.g;
    }
    return out;
  });
  return { system: body.s, version: typeof body.d === "string" ? body.d : null, roster };
}
