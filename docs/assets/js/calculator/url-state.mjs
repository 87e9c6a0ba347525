// A calculator's inputs in the page URL, so a link reproduces an answer: pure functions (no DOM,
// no `location`), unit-tested under `node --test` (tests/js/url-state.test.mjs). Each input is a
// query parameter named by the calculator's prefix plus the input's name.

/** The inputs a URL's query string gives (input name → text), for the declared inputs only.
 * An input declared with `was: <old name>` (a rename) reads the old parameter from a link made
 * before the rename: such a link lacks the new name, while every link the page writes carries all
 * of its inputs. The old parameter then belongs to the renamed input, not to any input that has
 * taken the old name since (countup damage: `misc` became `damage_misc` when the to-hit `misc`
 * joined the form). */
export function readParams(prefix, declaration, search) {
  const params = new URLSearchParams(search);
  const state = {};
  const taken = new Set();
  for (const decl of declaration.inputs) {
    if (decl.was && !params.has(prefix + decl.name) && params.has(prefix + decl.was)) {
      state[decl.name] = params.get(prefix + decl.was);
      taken.add(decl.was);
    }
  }
  for (const decl of declaration.inputs) {
    const value = params.get(prefix + decl.name);
    if (value !== null && !taken.has(decl.name)) state[decl.name] = value;
  }
  return state;
}

/** `href` with the inputs of `state` (input name → text) set as its query parameters. */
export function withParams(href, prefix, state) {
  const url = new URL(href);
  for (const [name, value] of Object.entries(state)) url.searchParams.set(prefix + name, value);
  return url.href;
}
