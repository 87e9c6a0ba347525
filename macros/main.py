"""mkdocs-macros entry point: loads and checks the rules data, derives the navigation from it,
and registers the one macro every generated page calls, `{{ rules_page() }}`, which renders the
page its file path names. All rendering is in `macros/render/` (pure, tested on its own).

A data problem fails the build with `file:LINE: field.path: message` and no traceback.
`CODEX_DATA_ROOT` points at another checkout's rules_data/ (the tests' bad-data build).
`CODEX_PARTIAL=1` (a preview while data is being written, never for a real build) instead leaves
out the systems that have problems and shows their problems on their pages.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.exceptions import PluginError

from macros import catalog
from macros.site import Site

SITE_PAGES = {"index.md", "compare.md"}
OFF_NAV = {"performance.md"}
"""Pages for contributors and the curious, linked from the home page but not in the navigation
(mkdocs.yml lists them under `not_in_nav`)."""


def _other_docs(docs_dir: Path) -> list[str]:
    """Top-level Markdown pages that are not generated from the data (e.g. performance.md)."""
    return sorted(p.name for p in docs_dir.glob("*.md") if p.name not in SITE_PAGES | OFF_NAV)


def define_env(env) -> None:
    """Check the data, set the nav from it, register `rules_page`."""
    partial = os.environ.get("CODEX_PARTIAL") == "1"
    cat = catalog.load(Path(os.environ.get("CODEX_DATA_ROOT", catalog.ROOT)), complete=not partial)
    if cat.problems and not partial:
        raise PluginError("the rules data has problems (run `make check-data`):\n" + "\n".join(map(str, cat.problems)))
    broken = {p.file.split("/")[1]: [] for p in cat.problems if p.file.count("/") >= 2}
    for problem in cat.problems:
        broken.get(problem.file.split("/")[1], []).append(str(problem))
    for sid in broken:
        cat.systems.pop(sid, None)
    site = Site(cat, partial=partial)
    env.conf["nav"] = site.nav(_other_docs(Path(env.conf["docs_dir"])))

    @env.macro
    def rules_page() -> str:
        """The page this Markdown file stands for, rendered from rules_data/."""
        path = env.page.file.src_uri
        if path in SITE_PAGES:  # the home and comparison pages use the full width
            env.page.meta["hide"] = ["navigation", "toc"] if path == "index.md" else ["toc"]
        if "/calculators/" in path:  # room for the result beside the form on a wide screen
            env.page.meta["hide"] = ["toc"]
        title = site.page_title(path)
        if title:  # the browser tab and the search index name the system
            env.page.meta["title"] = title
        if path.split("/")[0] in broken:
            return "# Data problems\n\n```\n" + "\n".join(broken[path.split("/")[0]]) + "\n```\n"
        return site.render(path)
