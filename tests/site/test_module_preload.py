"""tools/module_preload.py: every page that loads a module script lists that module's whole static
import graph in its head (relative to the page, as its script tag is), dynamic imports excluded;
pages that run Python (a calculator or a tracker) and only those start the worker from their
head; running it twice changes nothing; an import of a missing file fails the build."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import module_preload  # noqa: E402

PAGE = '<!doctype html><html><head><meta charset="utf-8">\n</head><body>{body}</body></html>\n'
MODULES = {
    "main.mjs": 'import { a } from "./a.mjs";\nimport "./side.mjs";\nexport { b } from "./sub/b.mjs";\n'
    'const later = () => import("./lazy.mjs");\n',
    "a.mjs": 'import { c } from "./sub/c.mjs";\nexport const a = c;\n',
    "side.mjs": "window.side = 1;\n",
    "sub/b.mjs": 'import { a } from "../a.mjs";\nexport const b = a;\n',
    "sub/c.mjs": "export const c = 3;\n",
    "lazy.mjs": "export const lazy = 1;\n",
    "boot/worker-early.mjs": "new Worker('x');\n",
}


@pytest.fixture
def fake_site(tmp_path: Path) -> Path:
    js = tmp_path / "assets" / "js"
    for name, text in MODULES.items():
        (js / name).parent.mkdir(parents=True, exist_ok=True)
        (js / name).write_text(text)
    (tmp_path / "deep" / "page").mkdir(parents=True)
    script = '<script src="{p}assets/js/main.mjs" type="module"></script>'
    (tmp_path / "index.html").write_text(PAGE.format(body=script.format(p="")))
    (tmp_path / "deep" / "page" / "index.html").write_text(PAGE.format(body=script.format(p="../../")))
    (tmp_path / "plain.html").write_text(PAGE.format(body="<p>no scripts</p>"))
    (tmp_path / "calc").mkdir()
    calculator = '<div data-cc-calculator="hit"></div>' + script.format(p="../")
    (tmp_path / "calc" / "index.html").write_text(PAGE.format(body=calculator))
    return tmp_path


def preloads(page: Path) -> list[str]:
    head = page.read_text().split("</head>")[0]
    return re.findall(r'<link rel="modulepreload" href="([^"]*)">', head)


def early_start(page: Path) -> list[str]:
    head = page.read_text().split("</head>")[0]
    return re.findall(r'<script async src="([^"]*)" type="module"></script>', head)


def test_the_whole_static_graph_relative_to_each_page(fake_site: Path) -> None:
    assert module_preload.add_module_preloads(fake_site) == 3
    graph = ["main.mjs", "a.mjs", "side.mjs", "sub/b.mjs", "sub/c.mjs"]
    assert sorted(preloads(fake_site / "index.html")) == sorted(f"assets/js/{m}" for m in graph)
    assert sorted(preloads(fake_site / "deep" / "page" / "index.html")) == sorted(f"../../assets/js/{m}" for m in graph)
    assert preloads(fake_site / "plain.html") == []


def test_only_pages_that_run_python_start_the_worker_early(fake_site: Path) -> None:
    module_preload.add_module_preloads(fake_site)
    assert early_start(fake_site / "calc" / "index.html") == ["../assets/js/boot/worker-early.mjs"]
    assert early_start(fake_site / "index.html") == [] and early_start(fake_site / "plain.html") == []


def test_idempotent(fake_site: Path) -> None:
    module_preload.add_module_preloads(fake_site)
    once = [(fake_site / p).read_text() for p in ("index.html", "calc/index.html")]
    module_preload.add_module_preloads(fake_site)
    assert [(fake_site / p).read_text() for p in ("index.html", "calc/index.html")] == once


def test_an_import_of_a_missing_file_fails(fake_site: Path) -> None:
    (fake_site / "assets" / "js" / "a.mjs").write_text('import "./gone.mjs";\n')
    with pytest.raises(FileNotFoundError, match="gone.mjs"):
        module_preload.add_module_preloads(fake_site)


def test_the_site_modules_graph_is_found() -> None:
    """On the real browser modules: the calculators' entry reaches its form, results and worker
    client modules, and not the worker itself (a separate module map) or the tracker (dynamic)."""
    docs = ROOT / "docs"
    graph = module_preload.static_imports(docs, "assets/js/calculator/calculators.mjs")
    for needed in (
        "calculator/calc-form.mjs",
        "calculator/calc-results.mjs",
        "boot/calc-worker-client.mjs",
        "shared/dom.mjs",
    ):
        assert f"assets/js/{needed}" in graph
    assert "assets/js/boot/pyodide-worker.mjs" not in graph and "assets/js/tracker/page.mjs" not in graph


def packages_meta(page: Path) -> list[str]:
    head = page.read_text().split("</head>")[0]
    return re.findall(r'<meta name="cc-python-packages" content="([^"]*)">', head)


def test_pages_that_need_the_fight_package_name_it_before_the_early_start(fake_site: Path) -> None:
    script = '<script src="../assets/js/main.mjs" type="module"></script>'
    for name, body in {
        "forecast": '<div data-cc-calculator="forecast"></div>',
        "tracker": '<div data-cc-tracker="{}">',
    }.items():
        (fake_site / name).mkdir()
        (fake_site / name / "index.html").write_text(PAGE.format(body=body + script))
    for _ in range(2):  # idempotent
        module_preload.add_module_preloads(fake_site)
        assert packages_meta(fake_site / "forecast" / "index.html") == ["calc-fight"]
        assert packages_meta(fake_site / "tracker" / "index.html") == ["calc-fight"]
        assert packages_meta(fake_site / "calc" / "index.html") == []  # a hit calculator needs calc alone
    head = (fake_site / "tracker" / "index.html").read_text().split("</head>")[0]
    assert head.index("cc-python-packages") < head.index("worker-early.mjs")


def test_the_early_start_and_its_graph_come_first_in_the_head(fake_site: Path) -> None:
    """Before the stylesheets and the page's other modules (six connections per host over HTTP/1.1:
    behind them, the worker was created late), each of its modules listed once."""
    js = fake_site / "assets" / "js"
    (js / "boot" / "worker-early.mjs").write_text('import { own } from "./owner.mjs";\nown();\n')
    (js / "boot" / "owner.mjs").write_text('import { a } from "../a.mjs";\nexport const own = () => a;\n')
    page = fake_site / "calc" / "index.html"
    page.write_text(page.read_text().replace("</head>", '<link rel="stylesheet" href="../x.css">\n</head>'))
    for _ in range(2):  # idempotent
        module_preload.add_module_preloads(fake_site)
        head = page.read_text().split("</head>")[0]
        order = re.findall(r'(?:href|src)="\.\./(?:assets/js/)?([^"]+)"', head)
        assert order[:4] == ["boot/worker-early.mjs", "boot/owner.mjs", "a.mjs", "sub/c.mjs"], order
        assert order.index("x.css") > 3 and order.count("a.mjs") == 1
        assert sorted(order[order.index("x.css") + 1 :]) == ["main.mjs", "side.mjs", "sub/b.mjs"]
