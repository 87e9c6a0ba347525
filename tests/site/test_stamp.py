"""tools/stamp_site.py on a small fake site: the policy lists exactly the inline scripts that run,
sits right after the charset, the build id is one for pages and runtime.mjs, and stamping twice
changes nothing."""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import stamp_site  # noqa: E402

PAGE = """<!doctype html><html><head>
<meta charset="utf-8">
<script>{script}</script>
<script id="__config" type="application/json">{{"base": "."}}</script>
<script src="x.js"></script>
</head><body><script>var target=1</script></body></html>
"""


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture
def fake_site(tmp_path: Path) -> Path:
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(PAGE.format(script='__md_scope=new URL(".",location)'))
    (tmp_path / "a" / "index.html").write_text(PAGE.format(script='__md_scope=new URL("..",location)'))
    (tmp_path / "assets" / "js" / "boot").mkdir(parents=True)
    (tmp_path / "assets" / "js" / "boot" / "runtime.mjs").write_text('export const RUNTIME = {\n  "build": null\n};\n')
    return tmp_path


def test_policy_and_build_id(fake_site: Path):
    build = stamp_site.stamp(fake_site)
    pages = [fake_site / "index.html", fake_site / "a" / "index.html"]
    for page in pages:
        html = page.read_text()
        head = html.split("<script", 1)[0]
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', head).group(1)
        assert head.index('<meta charset="utf-8">') < head.index("Content-Security-Policy")
        script_src = next(d for d in policy.split("; ") if d.startswith("script-src"))
        # Both depths' scope scripts (instant navigation runs one page's under the other's policy)
        # and the body script; never the JSON block, never 'unsafe-inline'.
        want = {csp_hash('__md_scope=new URL(".",location)'), csp_hash('__md_scope=new URL("..",location)')}
        want.add(csp_hash("var target=1"))
        assert set(script_src.split()[3:]) == want
        assert "unsafe-inline" not in policy and "'wasm-unsafe-eval'" in script_src
        assert f'<meta name="cc-build" content="{build}">' in head
    assert f'"build": "{build}"' in (fake_site / "assets" / "js" / "boot" / "runtime.mjs").read_text()


def test_stamping_twice_changes_nothing_and_content_changes_the_id(fake_site: Path):
    first = stamp_site.stamp(fake_site)
    snapshot = {p: p.read_bytes() for p in fake_site.rglob("*") if p.is_file()}
    assert stamp_site.stamp(fake_site) == first
    assert {p: p.read_bytes() for p in fake_site.rglob("*") if p.is_file()} == snapshot
    (fake_site / "assets" / "js" / "x.js").write_text("changed")
    assert stamp_site.stamp(fake_site) != first


def test_a_page_without_charset_is_an_error(fake_site: Path):
    (fake_site / "bad.html").write_text("<html><head></head></html>")
    with pytest.raises(ValueError, match="bad.html"):
        stamp_site.stamp(fake_site)
