// The tracker's fight in this browser's storage (store.mjs) and in other tabs: loaded at start
// (the stored view shown at once, then the engine reads the stored state leniently: what it could
// not read is named, and the stored text kept aside as it was), saved after each change (a
// failure or another tab's change stays on screen until resolved), and taken from another tab
// when it saves (the `storage` event).
import * as S from "./state.mjs";
import { FightStore, historyTexts, storageProblem } from "./store.mjs";
import { download, engineProblem } from "./ui.mjs";

export class Sync {
  constructor(tk) {
    this.tk = tk;
    this.store = null;
    this.holdSaves = false; // an unreadable stored fight not yet kept aside: never write over it
    this.listener = null;
  }

  load() {
    const tk = this.tk;
    let text;
    try {
      this.store = new FightStore(window.localStorage, tk.system);
      text = this.store.read();
    } catch (err) {
      this.store = null;
      tk.alerts.set("save", `This browser does not let the tracker keep the fight (${storageProblem(err)}): export it to keep it.`, [["Export JSON", () => tk.exportFile()]]);
      return;
    }
    for (const aside of this.store.aside()) this.offerAside(aside);
    this.listener = (e) => {
      if (e.key === this.store.key && e.storageArea === window.localStorage) this.fromOtherTab(e.newValue);
    };
    window.addEventListener("storage", this.listener);
    if (!text) return this.emptyView();
    const stored = S.parseStored(text);
    if (stored?.view && stored.present) {
      tk.h = { past: stored.past, present: stored.present, future: stored.future };
      tk.view = stored.view; // shown at once; the engine's reading follows
    }
    tk.engine.run(async (ask) => {
      const reply = stored?.present ? await ask(null, { type: "load", state: stored.present }) : { error: { input: null, message: "the saved text is not a fight" } };
      if (reply.error) {
        tk.h = S.history(null);
        tk.view = null;
        this.keptAside(text, [engineProblem(reply.error)], "nothing could be loaded");
      } else {
        tk.h = { past: stored.past, present: reply.result.state, future: stored.future };
        tk.view = reply.result.view;
        const dropped = S.droppedText(reply.result.dropped, stored.present);
        if (dropped.length) this.keptAside(text, dropped, `${tk.view.combatants.length} combatants, round ${tk.view.round} loaded`);
      }
      tk.render();
    });
  }

  /** No fight stored: the engine's view of an empty one (its rulings, its limits), once Python
   * is up; nothing is stored until the first change. */
  emptyView() {
    const tk = this.tk;
    tk.engine.run(async (ask) => {
      const reply = await ask(null, { type: "view" });
      if (reply.error || tk.state) return;
      tk.view = reply.result.view;
      tk.render();
    });
  }

  /** The stored fight could not be read whole: copy it aside as it was, and say what loaded. */
  keptAside(text, dropped, loaded) {
    const what = `The fight saved in this browser could not be read whole (${dropped.join("; ")}); ${loaded}.`;
    const kept = this.store.keepAside(text);
    if (kept.error) {
      this.holdSaves = true;
      this.tk.alerts.set("aside", `${what} It could not be copied aside (${storageProblem(kept.error)}), so nothing is saved over it until you download it or discard it.`, [
        ["Download it as it was", () => this.release("aside", text, null)],
        ["Discard it", () => this.release("aside", null, null)],
      ]);
      return;
    }
    this.offerAside({ key: kept.key, saved: "", text }, `${what} The fight as it was saved is kept aside:`);
  }

  offerAside(aside, intro = `An unreadable fight${aside.saved ? ` (set aside ${aside.saved.slice(0, 16).replace("T", " ")})` : ""} is kept aside:`) {
    this.tk.alerts.set(aside.key, `${intro} download it to keep it, or discard it.`, [
      ["Download it as it was", () => this.release(aside.key, aside.text, aside.key)],
      ["Discard it", () => this.release(aside.key, null, aside.key)],
    ]);
  }

  /** The reader downloaded (`text`) or discarded an unreadable fight: forget it. */
  release(alertId, text, storeKey) {
    if (text !== null) download(text, `${this.tk.system}-fight-unreadable.json`);
    if (storeKey) this.store.discard(storeKey);
    this.tk.alerts.clear(alertId);
    if (alertId === "aside") {
      this.holdSaves = false;
      if (this.tk.state) this.save();
    }
    this.tk.say(text !== null ? "Downloaded the fight as it was saved." : "Discarded.");
  }

  save({ force = false } = {}) {
    const tk = this.tk;
    if (!this.store) return;
    if (this.holdSaves) {
      tk.alerts.set("save", "Not saved in this browser yet: download or discard the unreadable fight first (it would be overwritten).", [["Export JSON", () => tk.exportFile()]]);
      return;
    }
    const r = this.store.save(historyTexts(tk.h, tk.view), { force });
    if (r.ok) {
      tk.alerts.clear("save");
      tk.alerts.clear("conflict");
      if (r.trimmed) tk.say("Saved, with a shorter undo history (this browser's storage is nearly full).");
      return;
    }
    if (r.conflict !== undefined) return this.conflict("Another tab changed this fight since this tab last saved; this tab's change is not saved yet. Which one goes on?");
    tk.alerts.set("save", `Not saved in this browser: ${storageProblem(r.error)}. Export the fight to keep it; the tracker tries again at each change.`, [
      ["Export JSON", () => tk.exportFile()],
      ["Try again", () => this.save()],
    ]);
  }

  conflict(text, canLoad = true) {
    const tk = this.tk;
    tk.alerts.set("conflict", text, [
      ...(canLoad ? [["Load the other tab's", () => this.adoptOther()]] : []),
      ["Keep this tab's", () => this.save({ force: true })],
      ["Export this tab's", () => tk.exportFile()],
    ]);
  }

  /** Another tab saved `text`: take it, unless this tab has a change of its own not saved. */
  fromOtherTab(text) {
    const tk = this.tk;
    if (tk.alerts.has("conflict") || tk.alerts.has("save") || this.holdSaves) return this.conflict("Another tab changed this fight, and this tab has a change not saved. Which one goes on?");
    const stored = text ? S.parseStored(text) : null;
    if (!stored?.present || !stored.view) return this.conflict("Another tab cleared this fight or saved one this tab cannot read; this tab's fight is still here.", false);
    this.store.seen(text);
    tk.h = { past: stored.past, present: stored.present, future: stored.future };
    tk.view = stored.view;
    tk.render();
    tk.say("Updated from another tab.");
  }

  /** Take the other tab's fight; this tab's stays one Undo away. */
  adoptOther() {
    const tk = this.tk;
    let text;
    try {
      text = this.store.read();
    } catch {
      text = null;
    }
    const stored = text ? S.parseStored(text) : null;
    if (!stored?.present || !stored.view) return tk.say("The other tab's fight cannot be read: keep or export this one.", true);
    tk.h = { past: [...stored.past, tk.state].filter(Boolean).slice(-S.HISTORY_LIMIT), present: stored.present, future: [] };
    tk.view = stored.view;
    tk.alerts.clear("conflict");
    this.save({ force: true });
    tk.render();
    tk.say("Loaded the other tab's fight (Undo brings this tab's back).");
  }

  dispose() {
    if (this.listener) window.removeEventListener("storage", this.listener);
  }
}
