// A calculator's inputs in the page URL, so a link reproduces an answer: pure functions (no DOM,
// no `location`), unit-tested under `node --test` (tests/js/url-state.test.mjs). Each input is a
// query parameter named by the calculator's prefix plus the input's name.

/** The inputs a URL's query string gives (input name → text), for the declared inputs only. */
export function readParams(prefix, declaration, search) {
  const params = new URLSearchParams(search);
  const state = {};
  for (const decl of declaration.inputs) {
    const value = params.get(prefix + decl.name);
    if (value !== null) state[decl.name] = value;
  }
  return state;
}

/** `href` with the inputs of `state` (input name → text) set as its query parameters. */
export function withParams(href, prefix, state) {
  const url = new URL(href);
  for (const [name, value] of Object.entries(state)) url.searchParams.set(prefix + name, value);
  return url.href;
}
