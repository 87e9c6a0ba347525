"""MkDocs hook (`hooks:` in mkdocs.yml): adds every page the rules data declares to the build as a
generated file, so a system's pages need no hand-written stubs under docs/. Each generated page
holds `{{ rules_page() }}`, which the macros (macros/main.py) render like any other page, so search,
instant navigation and `mkdocs serve` treat them as ordinary pages. A Markdown file that exists
under docs/ with the same path wins (a hand-written page)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:  # MkDocs imports a hook by its file path
    sys.path.insert(0, ROOT)

from mkdocs.structure.files import File, Files  # noqa: E402

from macros import site as site_mod  # noqa: E402

STUB = "{{ rules_page() }}\n"


def on_files(files: Files, config) -> Files:
    """Add a generated file for each page of the data that docs/ does not hold."""
    site, broken = site_mod.for_build()
    pages = site.pages()
    for sid in broken:  # a preview shows a left-out system's problems on its overview page
        pages.append(f"{sid}/index.md")
    for path in pages:
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, content=STUB))
    return files
