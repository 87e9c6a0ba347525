// A page and the engine it runs come from one build, and the reader hears of a new one.
// - The build id (tools/stamp_site.py) is in every page (`<meta name="cc-build">`) and in
//   runtime.mjs; the Python worker reports its build when ready.
// - A mix (a worker of another build, a page of another build reached by instant navigation, an
//   engine file that 404s) is repaired by ONE reload into the current build; sessionStorage,
//   keyed by build, stops a loop.
// - The service worker registers after a first answer and precaches what the calculators need
//   offline (`data-cc-offline="ready"`). The rest (other pages, search, the memory snapshot) is
//   asked for on a LATER visit, once the page is idle (`cc-fill`; `data-cc-offline="complete"`
//   when stored): a first visit never downloads it for the cache (the snapshot the worker itself
//   downloaded over a fast link is stored from that download).
// - When a new build's worker activates
//   (tools/sw_template.js posts `cc-activated`), a small notice offers a reload, never while the
//   reader is editing.
import { el } from "../shared/dom.mjs";

const SITE_ROOT = new URL("../../../", import.meta.url);
/** The build of the page this JavaScript was loaded with. */
export const PAGE_BUILD = shownBuild();
const IDLE_MS = 4000; // no notice within this time after the last input

/** The build of the page shown now (Material's instant navigation swaps the <meta>). */
export function shownBuild() {
  return document.querySelector('meta[name="cc-build"]')?.content || "";
}

/** Reload once into the current build; false when this tab already did so for this build. */
export function recoverOnce(reason) {
  const key = `cc-recovered:${PAGE_BUILD}`;
  try {
    if (sessionStorage.getItem(key)) return false;
    sessionStorage.setItem(key, reason);
  } catch {
    return false; // no storage, no loop guard: do not risk a loop
  }
  console.warn(`Combat Codex: ${reason}; reloading once into the current version.`);
  location.reload();
  return true;
}

/** True (and reloading) when a worker of another build answered this page. */
export function workerBuildMismatch(build) {
  return Boolean(build && PAGE_BUILD && build !== PAGE_BUILD) && recoverOnce(`engine of build ${build}, page of build ${PAGE_BUILD}`);
}

/** True (and reloading) when instant navigation brought a page of another build. */
export function pageBuildMismatch() {
  const shown = shownBuild();
  return Boolean(shown && PAGE_BUILD && shown !== PAGE_BUILD) && recoverOnce(`page of build ${shown}, scripts of build ${PAGE_BUILD}`);
}

/** True (and reloading) when an engine file is missing: likely a file of another build. */
export function missingFileRecovery(message) {
  return /HTTP (404|410)\b/.test(message || "") && recoverOnce(`missing engine file (${message})`);
}

/** Whether a service worker controlled this page from its start: a later visit. */
const CONTROLLED_AT_LOAD = Boolean(navigator.serviceWorker?.controller);
let fillAsked = false;

/** On a later visit only: ask the service worker to store the rest of the site for offline use. */
function requestFill() {
  const sw = navigator.serviceWorker;
  if (fillAsked || !CONTROLLED_AT_LOAD || !sw?.controller) return;
  fillAsked = true;
  sw.controller.postMessage({ type: "cc-fill" });
}

let registered = false;
/** Register the service worker (after a first answer, not to compete with the first download). */
export function registerServiceWorker() {
  const sw = navigator.serviceWorker;
  if (registered || !sw || location.protocol === "file:") return;
  registered = true;
  sw.register(new URL("sw.js", SITE_ROOT), { scope: SITE_ROOT.pathname }).catch((err) => {
    console.warn("Offline support unavailable:", err.message);
  });
  // The worker activates only once everything is precached; `data-cc-offline="ready"` then says
  // this tab can go offline (a hook for tests and styles).
  const controlled = sw.controller ? Promise.resolve() : new Promise((resolve) => sw.addEventListener("controllerchange", resolve, { once: true }));
  Promise.all([sw.ready, controlled]).then(() => {
    if (document.documentElement.dataset.ccOffline !== "complete") document.documentElement.dataset.ccOffline = "ready";
    requestFill(); // after the first answer: Python is up, nothing else competes
  });
}

let lastInput = 0;
let notice = null;

function editing() {
  const active = document.activeElement;
  return Boolean(active?.matches?.("input, select, textarea, [contenteditable]")) || performance.now() - lastInput < IDLE_MS;
}

function announce(build) {
  if (notice || build === PAGE_BUILD) return;
  document.documentElement.dataset.ccUpdate = "installed"; // for tests
  const reload = el("button", { type: "button", class: "md-button md-button--primary" }, "Reload");
  reload.addEventListener("click", () => location.reload());
  const later = el("button", { type: "button", class: "md-button" }, "Later");
  later.addEventListener("click", () => notice.remove());
  notice = el("div", { class: "cc-update md-typeset", role: "status" }, el("p", {}, "Combat Codex was updated — reload for the new version."), reload, later);
  const show = () => {
    if (editing()) setTimeout(show, 1000);
    else document.body.append(notice);
  };
  show();
}

/** Listen for a new build's service worker; ask for an update check on every page load. */
function watchForUpdates() {
  const sw = navigator.serviceWorker;
  if (!sw || location.protocol === "file:") return;
  document.addEventListener("input", () => (lastInput = performance.now()), true);
  sw.addEventListener("message", (event) => {
    if (event.data?.type === "cc-activated") announce(event.data.build);
  });
  sw.addEventListener("message", (event) => {
    if (event.data?.type === "cc-build") announce(event.data.build);
  });
  sw.addEventListener("message", (event) => {
    if (event.data?.type === "cc-filled") document.documentElement.dataset.ccOffline = "complete";
  });
  // A page without a calculator never registers (no first answer): it asks once it is idle.
  if (CONTROLLED_AT_LOAD && !document.querySelector("[data-cc-calculator]")) {
    const idle = self.requestIdleCallback || ((f) => setTimeout(f, 2000));
    addEventListener("load", () => idle(requestFill, { timeout: 10000 }), { once: true });
  }
  sw.startMessages?.();
  // A new build may have activated before this page listened: ask the controller which it is.
  sw.addEventListener("controllerchange", () => sw.controller?.postMessage({ type: "cc-build?" }));
  if (sw.controller) {
    sw.controller.postMessage({ type: "cc-build?" });
    sw.getRegistration(SITE_ROOT.pathname)
      .then((reg) => reg?.update())
      .catch(() => {}) // offline: the next visit checks again
      // A hook for tests: the check is over, so a new build found is `installing` by now (update()
      // settles once the install has begun): a wait for the install's end can start from here.
      .finally(() => (document.documentElement.dataset.ccUpdateCheck = "done"));
  }
}

watchForUpdates();
