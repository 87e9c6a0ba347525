"""The site built once per session with `mkdocs build --strict` (helpers in site_html.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from site_html import mkdocs_build


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole site, built once; the build time is printed in the test report."""
    out = tmp_path_factory.mktemp("site")
    started = time.perf_counter()
    done = mkdocs_build(out)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed (exit {done.returncode}):\n{done.stderr[-6000:]}")
    print(f"\n[site] mkdocs build --strict: {seconds:.1f} s")
    return out
