// The tracker's quick set-up, called once each from page.mjs: the paste box and the text's own
// creatures at the top of the add form (`pasteIntoTracker`), and encounter links (`linkFights`):
// a page opened with `#fight=…` starts that fight in one undoable step (a link from another
// rules-data version says so), and "Link to this fight" packs the roster as it stands (with its
// QR code; the players' link is players.mjs's).
import { el } from "../shared/dom.mjs";
import { FightLinkError, packFight, unpackFight } from "../fight/link.mjs";
import { mountStatPaste } from "../statblock/paste.mjs";
import { notFitting, rosterOf, stateFromRoster, trackerCombatant } from "./fighters.mjs";
import { playersButton, showQr } from "./players.mjs";

/** The tracker's hook: the paste box and the text's creatures at the top of its add form; each
 * fighter joins the fight as one undoable "add". `dispatch(action, said)` is the tracker's own. */
export function pasteIntoTracker(container, { system, decl, dispatch }) {
  if (!decl.statblock) return null;
  const holder = el("div", { class: "cc-paste-tracker" });
  const summary = container.querySelector(":scope > summary");
  if (summary) summary.after(holder);
  else container.prepend(holder);
  return mountStatPaste(holder, {
    system,
    sides: true,
    builtins: decl.builtins,
    action: (n) => (n === 1 ? "Add it to the fight" : `Add all ${n} to the fight`),
    onUse: (fighters, side) => {
      for (const f of fighters) dispatch({ type: "add", combatant: trackerCombatant(f, side, decl) }, `${f.name} joins the fight.`);
    },
  });
}

/** Read `location.hash` into a new fight, and add the "link to this fight" button. */
export function linkFights(root, { system, decl, state, view, dispatch, say }) {
  const out = el("input", { type: "text", readonly: true, class: "cc-tk-fightlink", "aria-label": "Link to this fight", hidden: true });
  const button = el("button", { type: "button", class: "md-button cc-tk-share" }, "Link to this fight");
  const standing = el("input", { type: "checkbox", class: "cc-tk-standing" });
  const withState = el("label", { class: "cc-tk-check" }, standing, " with damage and conditions");
  const qr = el("div", { class: "cc-tk-fightqr", hidden: true });
  button.addEventListener("click", async () => {
    const hash = await packFight(system, decl.version || "", rosterOf(state(), decl, standing.checked));
    out.value = new URL(hash, location.href).href;
    out.hidden = false;
    out.select();
    try {
      await navigator.clipboard.writeText(out.value);
      say(`Link copied (${out.value.length} characters): it opens this ${standing.checked ? "fight" : "roster"} in the tracker, offline too.`);
    } catch {
      say("The link is selected below: copy it.");
    }
    await showQr(qr, out.value, `the link to this ${standing.checked ? "fight" : "roster"}`);
  });
  const tools = root.querySelector("#cc-tk-h-tools")?.parentElement.querySelector(".cc-tk-row");
  if (tools) tools.append(button, withState, playersButton(root, { system, decl, view, say }));
  tools?.parentElement.append(out, qr);
  return openLink(system, decl, dispatch, say);
}

async function openLink(system, decl, dispatch, say) {
  let got;
  try {
    got = await unpackFight(location.hash);
  } catch (err) {
    if (!(err instanceof FightLinkError)) throw err;
    return say(`${err.message} The fight in this browser is unchanged.`, true);
  }
  if (!got) return;
  history.replaceState(null, "", location.pathname + location.search); // a reload does not add them again
  if (got.system !== system) return say(`This link holds a fight of “${got.system}”, not of this system: open it on that system's tracker. Nothing changed.`, true);
  const next = stateFromRoster(system, got.roster, decl);
  const changed = got.version && decl.version && got.version !== decl.version ? ` The link was made with rules data ${got.version}; this site has ${decl.version}: what no longer fits is named.` : "";
  dispatch({ type: "load", state: next }, (answer) => {
    const dropped = answer.dropped?.length ? ` Not opened: ${notFitting(answer.dropped, next, decl).join("; ")}.` : "";
    const n = answer.state.combatants.length;
    return `Opened the link's fight: ${n} combatant${n === 1 ? "" : "s"} (Undo returns to the fight you had).${changed}${dropped}`;
  });
}
