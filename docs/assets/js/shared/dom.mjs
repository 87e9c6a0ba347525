// Build DOM nodes without ever parsing HTML: every string becomes a text node or an attribute
// value, so user text (names, URL parameters, typed values) is always shown as text.

/** el("p", {class: "x", "aria-live": "polite"}, "text", child, …) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace all children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

let counter = 0;
/** A document-unique id with a readable prefix. */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** A same-origin link to a page of the site (`path` relative to the site root), or null. */
export function siteHref(path, siteRoot) {
  try {
    const url = new URL(path, siteRoot);
    return url.origin === siteRoot.origin ? url.href : null;
  } catch {
    return null;
  }
}
