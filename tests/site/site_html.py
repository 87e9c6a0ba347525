"""Helpers of the site tests: run a build, read pages and their tables."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def mkdocs_build(site_dir: Path, cwd: Path = ROOT, env: dict[str, str] | None = None, strict: bool = True):
    """Run `mkdocs build`; returns the finished process (output captured)."""
    cmd = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site_dir)] + (["--strict"] if strict else [])
    full_env = {k: v for k, v in os.environ.items() if k not in ("CODEX_PARTIAL", "CODEX_DATA_ROOT")}
    full_env.update({"NO_MKDOCS_2_WARNING": "1", **(env or {})})
    return subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=900)


def page_html(site: Path, url: str) -> str:
    """The HTML of a page by its URL relative to the site root (`countup/attacks/`)."""
    return (site / url / "index.html").read_text(encoding="utf-8")


class Tables(HTMLParser):
    """Collects every `<table data-cc-table=id>`: id → rows of cell texts (body rows only)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._id: str | None = None
        self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and found.get("data-cc-table"):
            self._id = found["data-cc-table"]
            self.tables[self._id] = []
        elif self._id and tag == "tbody":
            self._in_body = True
        elif self._id and self._in_body and tag == "tr":
            self.tables[self._id].append([])
        elif self._id and self._in_body and tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._id:
            self.tables[self._id][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._id = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables
