// Small accessibility fixes to Material's own markup, applied on every page: its instant-loading
// progress bar (role="progressbar") has no accessible name.
export function nameMaterialWidgets(doc = document) {
  for (const bar of doc.querySelectorAll('.md-progress[role="progressbar"]:not([aria-label])')) {
    bar.setAttribute("aria-label", "Loading the page");
  }
}
