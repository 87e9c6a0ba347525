// Tuning knobs a test (or a curious reader) can set in localStorage, e.g.
// localStorage["cc-stall-ms"] = "2000". Production never sets them; the defaults apply.
// Numbers only: a knob can change timing, never what is shown or run.

/** The number stored under `cc-<name>`, or `fallback` when unset, unreadable or not positive. */
export function knob(name, fallback) {
  try {
    const value = Number(globalThis.localStorage?.getItem(`cc-${name}`));
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback; // storage blocked (privacy settings, sandboxed frame)
  }
}
