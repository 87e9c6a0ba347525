"""The sixth-system trial: in a copy of the project, copy `rules_data/countup` to
`rules_data/tally` (new id and name) and the countup engine to `calc/systems/tally`, touch nothing
else; the data must validate (source coverage included), export, answer a calculator request, and
build a strict site with every rule page and calculator page of the new system in its navigation.

A sixth system names its source text like the others, with `source:` in its system.yaml (a file in
the shared sources directory); the copy keeps countup's, which its copied sections cover.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from site_html import ROOT, mkdocs_build, page_html

from macros.load import catalog
from macros.site import SYSTEM_PAGES

COPIED = ("rules_data", "calc", "macros", "docs", "overrides", "mkdocs.yml")
IGNORED = shutil.ignore_patterns("__pycache__", "rules.json", "*.pyc")


def _nav_links(html: str) -> list[str]:
    """The hrefs of the primary navigation of a page."""
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>\s*</div>', html, re.S)
    assert nav, "no primary navigation"
    return re.findall(r'href="([^"]+)"', nav.group(0))


def _engine(root: Path, system_id: str) -> Path:
    """The engine of a system in `root`: a module file or a package folder."""
    base = root / "calc" / "systems" / system_id.replace("-", "_")
    return base if base.is_dir() else base.with_suffix(".py")


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("trial")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=IGNORED)
        else:
            shutil.copy2(src, root / name)
    # The contributor's whole change: one data folder and one engine module, nothing else.
    shutil.copytree(root / "rules_data" / "countup", root / "rules_data" / "tally")
    meta = root / "rules_data" / "tally" / "system.yaml"
    text = meta.read_text(encoding="utf-8")
    assert "\nid: countup\n" in text and "\nname: Countup\n" in text
    meta.write_text(text.replace("\nid: countup\n", "\nid: tally\n").replace("\nname: Countup\n", "\nname: Tally\n"))
    engine = _engine(root, "countup")
    if engine.is_dir():
        shutil.copytree(engine, root / "calc" / "systems" / "tally", ignore=IGNORED)
    else:
        shutil.copy2(engine, root / "calc" / "systems" / "tally.py")
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CODEX_SOURCES": str(catalog.sources_dir(ROOT)), "PYTHONPATH": str(root)}
    env.pop("CODEX_DATA_ROOT", None)
    env.pop("CODEX_PARTIAL", None)
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=600)


def test_the_copy_validates_with_source_coverage(trial: Path) -> None:
    if not catalog.sources_dir(ROOT).is_dir():
        pytest.skip(f"source texts not found at {catalog.sources_dir(ROOT)} (set CODEX_SOURCES)")
    done = _run(trial, "-m", "macros.check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_copy_exports_and_its_engine_answers(trial: Path) -> None:
    done = _run(trial, "-m", "macros.export")
    assert done.returncode == 0, done.stdout + done.stderr
    exported = json.loads((trial / "calc" / "rules.json").read_text())
    assert exported["systems"]["tally"]["name"] == "Tally"
    request = {"system": "tally", "calculator": "hit", "inputs": {}}
    code = f"import calc, json; print(json.dumps(calc.evaluate({request!r})))"
    answer = _run(trial, "-c", code)
    assert answer.returncode == 0, answer.stderr
    tally = json.loads(answer.stdout)
    assert tally["system"] == "tally" and tally["summary"]
    assert tally["steps"][0]["url"].startswith("tally/")


def test_the_copy_builds_every_page_of_the_new_system(trial: Path) -> None:
    assert _run(trial, "-m", "macros.export").returncode == 0
    env = {"CODEX_SOURCES": str(catalog.sources_dir(ROOT)), "PYTHONPATH": str(trial)}
    done = mkdocs_build(trial / "site", cwd=trial, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    meta = yaml.safe_load((trial / "rules_data" / "tally" / "system.yaml").read_text())
    calculators = yaml.safe_load((trial / "rules_data" / "tally" / "calculators.yaml").read_text())["calculators"]
    pages = ["", *(f"{page}/" for page, _ in SYSTEM_PAGES)] + [f"{p['id']}/" for p in meta["pages"]]
    pages += [f"calculators/{name}/" for name in calculators]
    # The navigation is pruned (Material's navigation.prune): home links the system's section,
    # and each page of the system carries the links of its own part of the navigation.
    assert "tally/" in _nav_links(page_html(trial / "site", ""))
    linked: set[str] = set()
    for page in pages:
        html = page_html(trial / "site", f"tally/{page}")
        assert "Tally" in html, page
        base = f"/tally/{page}"
        linked |= {posixpath.normpath(posixpath.join(base, href)) for href in _nav_links(html)}
    for page in pages:
        assert posixpath.normpath(f"/tally/{page}") in linked, f"tally/{page} is not in the navigation"
    for name in calculators:
        html = page_html(trial / "site", f"tally/calculators/{name}/")
        assert f'data-cc-calculator="{name}"' in html and 'data-cc-system="tally"' in html
