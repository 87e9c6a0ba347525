// Where a fight is kept in this browser, so that none is ever lost without a word (issue 20):
//
// * a save that fails (storage full or blocked) is reported, never swallowed: `save` says so and
//   the page keeps the message on screen, with Export, until a save succeeds;
// * another tab's change is seen (the page listens to the `storage` event) and, should that event
//   be missed, never overwritten: `save` compares what storage holds with what this tab last read
//   or wrote, and refuses (`conflict`) until the reader chooses;
// * a stored fight that cannot be read whole is copied aside under its own key, as it was, before
//   anything can overwrite it; the page offers it as a download until the reader discards it.
//
// Pure over a Storage-like object (getItem, setItem, removeItem, key, length), unit-tested under
// `node --test` (tests/js/tracker-store.test.mjs) with a fake one.

/** The key a stored fight of `system` lives under (kept from the first tracker: fights saved by
 * it are still found). */
export function fightKey(system) {
  return `cc-tracker-${system}`;
}

const ASIDE = ":unread:";
export const ASIDE_LIMIT = 5;

export class FightStore {
  constructor(storage, system) {
    this.storage = storage;
    this.key = fightKey(system);
    this.known = null; // the text this tab last read or wrote under `key`
  }

  /** The stored text (null when there is none); it becomes what this tab knows. Throws when
   * storage is blocked. */
  read() {
    this.known = this.storage.getItem(this.key);
    return this.known;
  }

  /** Store `texts` (the fullest first: the whole history, then shorter ones): {ok: true,
   * trimmed: bool} when one fits; {ok: false, conflict: text} when another tab wrote since this
   * one last read or wrote (nothing written); {ok: false, error} when none could be written.
   * `force` writes over another tab's change (the reader chose to). */
  save(texts, { force = false } = {}) {
    let now;
    try {
      now = this.storage.getItem(this.key);
    } catch (err) {
      return { ok: false, error: err };
    }
    if (!force && now !== this.known) return { ok: false, conflict: now };
    let error = null;
    for (const [i, text] of texts.entries()) {
      try {
        this.storage.setItem(this.key, text);
        this.known = text;
        return { ok: true, trimmed: i > 0 };
      } catch (err) {
        error = err;
      }
    }
    return { ok: false, error };
  }

  /** Another tab wrote `text` (a `storage` event): this tab now knows it. */
  seen(text) {
    this.known = text;
  }

  /** Copy `text` (a stored fight that could not be read whole) aside under a key of its own:
   * {key} or {error}. The same text already aside is not copied twice. */
  keepAside(text, when = new Date()) {
    const existing = this.aside().find((a) => a.text === text);
    if (existing) return { key: existing.key };
    if (this.aside().length >= ASIDE_LIMIT) return { error: new Error(`already ${ASIDE_LIMIT} unreadable fights kept aside`) };
    const key = `${this.key}${ASIDE}${when.toISOString()}`;
    try {
      this.storage.setItem(key, text);
      return { key };
    } catch (err) {
      return { error: err };
    }
  }

  /** The fights kept aside: [{key, saved (ISO time), text}], oldest first. */
  aside() {
    const found = [];
    try {
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        if (key?.startsWith(`${this.key}${ASIDE}`)) found.push({ key, saved: key.slice(this.key.length + ASIDE.length), text: this.storage.getItem(key) });
      }
    } catch {
      return [];
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  /** Forget a fight kept aside (the reader downloaded it or chose to discard it). */
  discard(key) {
    if (!key.startsWith(`${this.key}${ASIDE}`)) return;
    try {
      this.storage.removeItem(key);
    } catch {
      // blocked storage: nothing was kept either
    }
  }
}

/** A history {past, present, future} (and the view of its present) as the texts `save` tries in
 * turn: whole, then with the undo history cut to 10 steps, then the present alone (a full
 * storage keeps the fight itself before its undo history). */
export function historyTexts(h, view = null) {
  const text = (x) => JSON.stringify({ ...x, view });
  const texts = [text(h)];
  if (h.past.length > 10 || h.future.length) texts.push(text({ past: h.past.slice(-10), present: h.present, future: [] }));
  if (h.past.length || h.future.length) texts.push(text({ past: [], present: h.present, future: [] }));
  return texts;
}

/** A storage error as words for the reader. */
export function storageProblem(err) {
  const name = err?.name || "Error";
  if (name === "QuotaExceededError" || /quota/i.test(String(err?.message))) return "this browser's storage for the site is full";
  if (name === "SecurityError") return "this browser blocks storage for the site";
  return `this browser refused to store it (${name})`;
}
