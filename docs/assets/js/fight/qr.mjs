// A QR code of an encounter link, drawn in the page for a phone across the table. The library
// (qrcode-generator, pinned in package.json, copied to assets/js/vendor/ by tools/build_site.py)
// is imported only when a QR code is asked for, as is this module (tracker/players.mjs showQr),
// so no page downloads either before then and no page without a tracker ever does. Drawn as SVG from the library's modules (never its HTML string):
// dark modules on a light square with the standard's quiet zone of four modules, in either
// colour scheme (the stylesheet fixes both colours), with the link's text beside it.
// `qrPath` is pure and unit-tested (tests/js/fight-qr.test.mjs).
import { el, replace } from "../shared/dom.mjs";

export const QUIET = 4; // light modules around the code (ISO/IEC 18004)
const LIBRARY = "../vendor/qrcode.mjs";
const SVG = "http://www.w3.org/2000/svg";

/** The library's QR code of `text`, or null when `text` is too long for any QR code. Error
 * correction L: a screen is not a torn label, and the lowest level gives the fewest, largest
 * modules for a phone across the table (a 12-combatant link: 69 modules where M needs 77).
 * `qrcode`: the library's factory. */
export function qrOf(qrcode, text) {
  try {
    const qr = qrcode(0, "L");
    qr.addData(text, "Byte");
    qr.make();
    return qr;
  } catch {
    return null; // longer than a version-40 code holds
  }
}

/** An SVG path drawing the dark modules of a `size`×`size` code (`dark(row, col)`), shifted by the
 * quiet zone: one `h` run per row of adjacent dark modules. */
export function qrPath(size, dark) {
  const parts = [];
  for (let r = 0; r < size; r += 1) {
    for (let c = 0; c < size; c += 1) {
      if (!dark(r, c)) continue;
      let run = 1;
      while (c + run < size && dark(r, c + run)) run += 1;
      parts.push(`M${c + QUIET} ${r + QUIET}h${run}v1h-${run}z`);
      c += run - 1;
    }
  }
  return parts.join("");
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Draw `url`'s QR code into `holder` (replacing what it held), named "QR code of `what`", with
 * the link's text beside it. Resolves to the SVG, or null when it cannot be drawn (said in
 * `holder`). `load`: the library's import (a test may pass its own). */
export async function drawQr(holder, url, what, load = () => import(LIBRARY)) {
  holder.hidden = false;
  let qrcode;
  try {
    qrcode = (await load()).default;
  } catch {
    replace(holder, el("p", { class: "cc-qr-none" }, "The QR code could not be drawn (its library did not load: offline before this page was kept for offline use?). The link above works as it is."));
    return null;
  }
  const qr = qrOf(qrcode, url);
  if (!qr) {
    replace(holder, el("p", { class: "cc-qr-none" }, `This link is too long for a QR code (${url.length} characters): send the link itself.`));
    return null;
  }
  const size = qr.getModuleCount();
  const side = size + 2 * QUIET;
  const svg = svgNode("svg", { class: "cc-qr-code", viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": `QR code of ${what}`, "shape-rendering": "crispEdges", "data-cc-modules": size });
  svg.append(svgNode("rect", { class: "cc-qr-light", width: side, height: side, fill: "#fff" }), svgNode("path", { class: "cc-qr-dark", d: qrPath(size, (r, c) => qr.isDark(r, c)), fill: "#000" }));
  replace(holder, el("figure", { class: "cc-qr" }, svg, el("figcaption", { class: "cc-qr-text" }, url)));
  return svg;
}
