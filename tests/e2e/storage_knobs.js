// Test-only knobs for the tracker's "never lose a fight" tests (tests/e2e/test_tracker_safety.py),
// added to a page as an init script: nothing in the site knows about them.
//  * window.ccStorageFull = true: this browser's localStorage refuses every tracker write as a
//    full storage does (QuotaExceededError), as long as it stays true;
//  * window.ccDeaf = true: the page never hears another tab's `storage` events (as a frozen or
//    throttled tab may not), so only the check before each save can see the other tab's change.
(() => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (window.ccStorageFull && String(key).startsWith("cc-tracker")) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return setItem.call(this, key, value);
  };
  window.addEventListener(
    "storage",
    (e) => {
      if (window.ccDeaf) e.stopImmediatePropagation();
    },
    true,
  );
})();
