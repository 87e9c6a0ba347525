// The players' view: order, whose turn, health states and conditions; a foe's hit points never.
// Two places show it: the GM's "Players' view" panel (kept current while open, with a link and a
// QR code for the players' phones), and a page opened by that link (`#fight=players.…`), which is
// read-only: no controls, no Python, no stored fight read or written (a GM who opens it keeps
// their own fight), so it opens offline wherever the tracker page is kept. The link is a snapshot
// of the moment it was made: a new one (or the QR code again) shows the next turn.
import { el, replace } from "../shared/dom.mjs";
import { FightLinkError, packPlayers, unpackPlayers } from "../fight/link.mjs";
import { playersView } from "./fighters.mjs";

/** Draw `url`'s QR code into `holder` (fight/qr.mjs, imported on first use with its library, so
 * neither is downloaded before a QR code is asked for). Resolves to the SVG, or null (said). */
export async function showQr(holder, url, what) {
  let drawQr;
  try {
    ({ drawQr } = await import("../fight/qr.mjs"));
  } catch {
    holder.hidden = false;
    replace(holder, el("p", { class: "cc-qr-none" }, "The QR code could not be drawn (offline before this page was kept for offline use?). The link works as it is."));
    return null;
  }
  return drawQr(holder, url, what);
}

/** The list of `players` ({name, side, now, state, hp, tags}, in the round's order). */
function playersList(players) {
  return el(
    "ol",
    { class: "cc-tk-players-list" },
    players.map((p) =>
      el(
        "li",
        { class: `cc-tk-${p.side}`, "aria-current": p.now ? "step" : null },
        el("strong", {}, p.name),
        p.now ? " — their turn" : "",
        p.state ? ` · ${p.state}` : "",
        p.hp ? ` · HP ${p.hp}` : "",
        p.tags.length ? ` · ${p.tags.join(", ")}` : "",
      ),
    ),
  );
}

/** "Players' view": the GM's read-only panel to turn towards the table, kept current while it is
 * open, with "Link for the players" (a players' link and its QR code). `view()`: the engine's. */
export function playersButton(root, { system, decl, view, say }) {
  const panel = el("section", { class: "cc-tk-players", "aria-label": "Players' view", hidden: true });
  const button = el("button", { type: "button", class: "md-button cc-tk-players-open", "aria-expanded": "false" }, "Players' view");
  const heading = el("h2");
  const list = el("div");
  const share = el("button", { type: "button", class: "md-button cc-tk-players-share" }, "Link for the players");
  const out = el("div", { class: "cc-tk-players-link", hidden: true });
  panel.append(heading, list, share, out);
  let timer = null;
  const draw = () => {
    const v = view();
    replace(heading, `Players' view · round ${v?.round ?? 0}`);
    replace(list, playersList(playersView(v)));
  };
  share.addEventListener("click", async () => {
    const v = view();
    const url = new URL(await packPlayers(system, decl.version || "", v?.round ?? 0, playersView(v)), location.href).href;
    const svg = await showQr(out, url, "the players' link");
    say(`The players' link (${url.length} characters) shows this moment of the fight, read-only, foes' hit points left out${svg ? ": scan the QR code" : ""}.`);
  });
  button.addEventListener("click", () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    clearInterval(timer);
    if (open) {
      draw();
      timer = setInterval(() => (root.isConnected ? draw() : clearInterval(timer)), 500);
      panel.scrollIntoView({ block: "start" });
    }
  });
  root.prepend(panel);
  return button;
}

/** The page of a players' link: the view it holds, read-only, in place of the tracker. */
export async function showPlayers(root, hash) {
  root.dataset.ccBound = "true";
  root.dataset.ccMode = "players";
  const section = el("section", { class: "cc-tk-players cc-tk-players-page", "aria-label": "Players' view" });
  root.replaceChildren(section);
  let got;
  try {
    got = await unpackPlayers(hash);
  } catch (err) {
    if (!(err instanceof FightLinkError)) throw err;
    replace(section, el("h2", {}, "Players' view"), el("p", { class: "cc-error" }, err.message));
    root.dataset.ccPlayers = "failed";
    return;
  }
  const system = root.dataset.ccSystem;
  const when = got.at ? ` at ${new Date(got.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}` : "";
  replace(
    section,
    el("h2", {}, `Players' view · round ${got.round}`),
    got.system !== system ? el("p", { class: "cc-error" }, `This link holds a fight of “${got.system}”, not of this system.`) : null,
    playersList(got.players),
    el("p", { class: "cc-tk-help" }, `Read-only: the fight as the GM's tracker showed it${when}. Foes' hit points are not in the link. Ask the GM for a new link or QR code as the fight moves on.`),
  );
  root.dataset.ccPlayers = "ready";
}
