"""The build fails loudly: a macro error (on_error_fail) and bad data (file:line:field, no
traceback). Each case builds a tiny site around the checker's mini system
(tests/data/fixtures/good), with a control build that passes, so the failures have the cause we
think."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from site_html import ROOT, mkdocs_build

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "good"
CONFIG = """
site_name: Tiny
site_url: http://127.0.0.1:8000/
theme: {name: material, font: false}
hooks: [macros/hooks.py]
plugins:
  - search
  - macros: {module_name: macros/main, on_error_fail: true, on_undefined: strict}
markdown_extensions: [attr_list, admonition, tables, md_in_html, {toc: {permalink: true}}, pymdownx.details]
"""


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A project dir: the mini data, an empty docs/ (the pages are generated) and the real macros
    package."""
    shutil.copytree(FIXTURE, tmp_path / "data")
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (tmp_path / "macros").symlink_to(ROOT / "macros")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "performance.md").write_text("# Performance\n")  # the home page links it
    return tmp_path


def build(tiny: Path):
    env = {"CODEX_DATA_ROOT": str(tiny / "data"), "CODEX_PARTIAL": "1", "CODEX_SOURCES": str(tiny / "data" / "sources")}
    return mkdocs_build(tiny / "site", cwd=tiny, env=env)


def test_control_tiny_site_builds(tiny: Path) -> None:
    done = build(tiny)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (tiny / "site" / "countup" / "attacks" / "index.html").read_text()
    assert 'id="attack"' in html and 'class="cc-term"' in html and "admonition ruling" in html


def test_macro_error_fails_the_build(tiny: Path) -> None:
    (tiny / "docs" / "countup").mkdir()
    (tiny / "docs" / "countup" / "glossary.md").write_text("{{ no_such_macro() }}\n")
    done = build(tiny)
    assert done.returncode != 0
    assert "no_such_macro" in done.stdout + done.stderr


def test_bad_data_fails_the_build_with_file_line_field_and_no_traceback(tiny: Path) -> None:
    rules = tiny / "data" / "rules_data" / "countup" / "rules.yaml"
    rules.write_text(rules.read_text().replace("value: 10, unit: ft", "value: ten, unit: ft"))
    done = mkdocs_build(tiny / "site", cwd=tiny, env={"CODEX_DATA_ROOT": str(tiny / "data")})
    assert done.returncode != 0
    assert "rules_data/countup/rules.yaml:19: rules[0].facts.reach.value: 'ten' is not of type 'integer'" in done.stderr
    assert "Traceback" not in done.stderr
