// Back from a calculator lands on the card its link was opened from: following a card's
// calculator link first writes that card into the tracker's own URL (`#cc-card-<id>`, by
// history.replaceState: no navigation, no new history entry), so the browser's Back returns to
// it; the tracker reads the fragment on load and, since its fight arrives asynchronously (the
// stored view, then the engine's reading), opens and scrolls to the card on each render until
// the engine has answered.

export const CARD_PREFIX = "#cc-card-";

/** The combatant id a URL fragment names (`#cc-card-c3` → "c3"), or null. */
export function cardFromHash(hash) {
  if (typeof hash !== "string" || !hash.startsWith(CARD_PREFIX)) return null;
  try {
    const id = decodeURIComponent(hash.slice(CARD_PREFIX.length));
    return id && id.length <= 60 ? id : null;
  } catch {
    return null;
  }
}

/** The fragment of a combatant's card. */
export function cardHash(id) {
  return CARD_PREFIX + encodeURIComponent(id);
}

/** Follow `root`'s calculator links (`a[data-cc-back]`): before the browser leaves, the tracker's
 * URL names the card the link belongs to. */
export function rememberCards(root) {
  root.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest("a[data-cc-back]") : null;
    if (!link || !root.contains(link)) return;
    history.replaceState(history.state, "", location.pathname + location.search + cardHash(link.dataset.ccBack));
  });
}
