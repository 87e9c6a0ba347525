// Encounter links: a fight's roster packed into the URL's fragment (`#fight=`), so a link opens
// the tracker with it, offline too (the fragment never leaves the browser). The roster is JSON
// `{"v": 1, "d": <rules-data version>, "s": <system>, "c": [{"n": name, "s": "pc"|"foe", "v": {input: value},
// "h": damage taken, "g": [conditions]}]}` ("h" and "g" only for the fight as it stands),
// raw-DEFLATE compressed (CompressionStream "deflate-raw") and base64url-encoded; the Encounters
// pages (macros/render/encounters.py) write the same with Python's zlib. Pure but for the
// streams (Node has them too): unit-tested under node --test (tests/js/fight-link.test.mjs).

export const PREFIX = "#fight=";
export const FORMAT = 1;
export const MAX_PACKED = 60_000; // characters of fragment read at most
export const MAX_COMBATANTS = 40;

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

/** `#fight=…` for a roster [{name, side, values}] of `system` at rules-data `version`. */
export async function packFight(system, version, roster) {
  const body = { v: FORMAT, d: version, s: system, c: roster.map((c) => ({ n: c.name, s: c.side, v: c.values, ...(c.damage ? { h: c.damage } : {}), ...(c.tags?.length ? { g: c.tags } : {}) })) };
  const packed = await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(JSON.stringify(body)));
  return PREFIX + toBase64url(packed);
}

/** The roster of a `#fight=` fragment: {system, version, roster: [{name, side, values}]}, or null
 * when the fragment holds no fight. Throws a FightLinkError for one that cannot be read. */
export async function unpackFight(hash) {
  if (typeof hash !== "string" || !hash.startsWith(PREFIX)) return null;
  const text = hash.slice(PREFIX.length);
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
