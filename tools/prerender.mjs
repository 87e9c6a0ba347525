// Build-time: render calculator results to HTML with the browser's own renderer
// (docs/assets/js/calculator/calc-results.mjs, which builds DOM through shared/dom.mjs's `el()`), inside a DOM
// implementation for Node (linkedom, pinned in package.json). Used by tools/prerender.py to put
// each calculator's default answer into its page, so it shows at first paint, before Python.
//
//   node tools/prerender.mjs <calc-results.mjs> <site root URL> < {key: result, …} > {key: html, …}
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";

const [rendererPath, siteRoot] = process.argv.slice(2);
if (!rendererPath || !siteRoot) {
  console.error("usage: node tools/prerender.mjs <calc-results.mjs> <site root URL> < results.json");
  process.exit(2);
}
const { window, document } = parseHTML("<!doctype html><html><body></body></html>");
// What the renderer and dom.mjs reach for as globals in a browser.
Object.assign(globalThis, { window, document, Node: window.Node, HTMLElement: window.HTMLElement });

const { renderResult } = await import(pathToFileURL(rendererPath).href);
const results = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const [key, result] of Object.entries(results)) {
  const host = document.createElement("div");
  document.body.append(host);
  host.append(renderResult(result, new URL(siteRoot)));
  // A renderer may finish long results in later tasks: let those run before serialising.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The Content-Security-Policy (style-src 'self') refuses style attributes in HTML: the chart's
  // bar widths come with the live render, milliseconds later (set through CSSOM, which it allows).
  for (const node of host.querySelectorAll("[style]")) node.removeAttribute("style");
  out[key] = host.innerHTML;
  host.remove();
}
process.stdout.write(JSON.stringify(out));
