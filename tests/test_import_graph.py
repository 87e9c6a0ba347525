"""Issue 34, item 1: no import circle anywhere, and the concepts never import a system.

The import graph of every first-party module is read from the source (the AST for Python, the
`import`/`export … from`/`import("…")` forms for ES modules): every import statement counts,
wherever it stands (inside a function or an `if TYPE_CHECKING:` block too: a late import hides a
circle, it does not break it). A circle (a strongly connected component of more than one module)
fails the case of each package it touches, naming its files and the lines that tie them. The
deliberate lazy loads that keep the tracker's engine out of the calculators' wheel
(`import_module`, `calc.packages.lazy`) are calls, not import statements, and are no edges.

The concept packages of `calc` build on nothing a system defines: a system's engine imports
them, never the other way round (the lookup `calc.systems` and the contract are theirs to use),
and `calc.numbers` (dice, distributions, bounds) sits under everything but `calc.errors`.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHON_PACKAGES = ("calc", "macros", "tools", "bench")
"""First-party Python: three packages and `tools/`, a folder of scripts that import one another
by their bare names (each puts `tools/` on the path)."""
SCRIPT_FOLDERS = ("tools",)
CONCEPTS = ("calc.numbers", "calc.chains", "calc.answers", "calc.inputs", "calc.turns", "calc.fight", "calc.forecast")
SYSTEM_LOOKUP = ("calc.systems", "calc.systems.contract")
NUMBERS_MAY_IMPORT = ("calc.errors",)


@dataclass(frozen=True)
class Edge:
    """`source` imports `target`, at `where` (file:line), by `text` (the statement)."""

    source: str
    target: str
    where: str
    text: str


# --- Python ------------------------------------------------------------------------------------
def python_modules(root: Path, packages: Iterable[str] = PYTHON_PACKAGES) -> dict[str, Path]:
    """Every module's dotted name → its file (`pkg/__init__.py` is `pkg`; a script of a folder that
    is no package is `folder.script`)."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is a first-party module (`a.b.attr` → `a.b`)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def python_edges(root: Path, modules: dict[str, Path]) -> list[Edge]:
    """Every import statement of every module (at any depth of its AST), as edges to the
    first-party modules it names: `from pkg import name` to `pkg.name` when that is a module,
    else to `pkg`; a bare name in a script folder to the folder's script of that name."""
    edges = []
    for source, path in modules.items():
        here = source if _is_package(source, modules) else source.rpartition(".")[0]
        folder = source.partition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [_resolve_absolute(a.name, folder, modules) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if alias.name != "*" and sub in modules:
                        targets.append(sub)
                    else:
                        targets.append(_resolve_absolute(base, folder, modules))
            else:
                continue
            where = f"{path.relative_to(root).as_posix()}:{node.lineno}"
            text = ast.unparse(node)
            edges += [Edge(source, t, where, text) for t in dict.fromkeys(targets) if t and t != source]
    return edges


def _resolve_absolute(name: str, folder: str, modules: dict[str, Path]) -> str | None:
    if folder in SCRIPT_FOLDERS and f"{folder}.{name}" in modules:
        return f"{folder}.{name}"
    return _known(name, modules)


# --- ES modules --------------------------------------------------------------------------------
JS_GLOBS = ("docs/assets/js/**/*.mjs", "docs/assets/js/**/*.js", "tools/*.mjs")
_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'`\\])//[^\n]*", re.DOTALL)
_SPECIFIERS = (
    re.compile(r"""(?<![\w$.])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']"""),
    re.compile(r"""(?<![\w$.])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"'\n]+)["']"""),
    re.compile(r"""(?<![\w$.])import\(\s*(?:"([^"\n]+)"|'([^'\n]+)'|`([^`$\n]+)`)\s*\)"""),
)


def js_modules(root: Path) -> dict[str, Path]:
    """Every ES module's path from the root → its file."""
    files = {p for pattern in JS_GLOBS for p in root.glob(pattern)}
    return {p.relative_to(root).as_posix(): p for p in sorted(files)}


def js_edges(root: Path, modules: dict[str, Path]) -> list[Edge]:
    """Static imports and re-exports, and `import()` of a literal specifier, resolved relative to
    the importing file (bare specifiers, `node:` and packages, are not first-party)."""
    edges = []
    for source, path in modules.items():
        text = path.read_text(encoding="utf-8")
        code = _COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
        for pattern in _SPECIFIERS:
            for match in pattern.finditer(code):
                spec = next(g for g in match.groups() if g)
                if not spec.startswith(("./", "../")):
                    continue
                target = posixpath.normpath(posixpath.join(posixpath.dirname(source), spec))
                if target in modules and target != source:
                    line = code.count("\n", 0, match.start()) + 1
                    statement = " ".join(match.group().split())
                    edges.append(Edge(source, target, f"{source}:{line}", statement))
    return edges


# --- circles -----------------------------------------------------------------------------------
def circles(nodes: Iterable[str], edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion),
    each sorted, in sorted order."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in sorted(succ):
        if start in index:
            continue
        work = [(start, iter(succ[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            child = next(it, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def describe(component: list[str], edges: list[Edge]) -> str:
    """A circle's modules and every import that ties two of them."""
    members = set(component)
    ties = sorted(
        {(e.where, e.text) for e in edges if e.source in members and e.target in members},
        key=lambda tie: (tie[0].rpartition(":")[0], int(tie[0].rpartition(":")[2]), tie[1]),
    )
    lines = [f"circle of {len(component)}: {', '.join(component)}"]
    lines += [f"    {where}: {text}" for where, text in ties]
    return "\n".join(lines)


@cache
def _graph() -> tuple[dict[str, Path], list[Edge]]:
    """The first-party Python graph, read once for every case."""
    modules = python_modules(ROOT)
    return modules, python_edges(ROOT, modules)


@pytest.mark.parametrize("package", [*PYTHON_PACKAGES, "js"])
def test_no_import_circle(package: str) -> None:
    """No circle touches the package's modules (the ES modules of the site and tools for `js`)."""
    if package == "js":
        modules: dict[str, Path] = js_modules(ROOT)
        edges = js_edges(ROOT, modules)
        mine = set(modules)
    else:
        modules, edges = _graph()
        mine = {m for m in modules if m == package or m.startswith(f"{package}.")}
    assert mine, f"no modules found for {package}"
    found = [c for c in circles(modules, edges) if mine & set(c)]
    assert not found, "import circles:\n" + "\n".join(describe(c, edges) for c in found)


@pytest.mark.parametrize("concept", CONCEPTS)
def test_a_concept_never_imports_a_system(concept: str) -> None:
    """A concept package imports no system's module (only the lookup and the contract), and
    `calc.numbers` nothing of calc but `calc.errors`."""
    modules, edges = _graph()
    inside = [e for e in edges if e.source == concept or e.source.startswith(f"{concept}.")]
    assert inside, f"no imports found in {concept}"
    bad = [e for e in inside if e.target.startswith("calc.systems.") and e.target not in SYSTEM_LOOKUP]
    if concept == "calc.numbers":
        bad += [
            e
            for e in inside
            if _known(e.target, modules)
            and e.target.partition(".")[0] == "calc"
            and not e.target.startswith("calc.numbers")
            and e.target not in NUMBERS_MAY_IMPORT
        ]
    assert not bad, "\n".join(f"{e.where}: {e.text}  ({e.source} → {e.target})" for e in bad)


# --- the detector itself, on planted circles -----------------------------------------------------
def _plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_late_or_type_checking_import_still_closes_a_circle(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def f():\n    from pkg.c import x\n",
            "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\nx = 1\n",
            "pkg/d.py": "import pkg.a\n",  # into the circle, not part of it
            "tools/one.py": "import two\n",
            "tools/two.py": "import one\n",
        },
    )
    modules = python_modules(tmp_path, ("pkg", "tools"))
    edges = python_edges(tmp_path, modules)
    assert circles(modules, edges) == [["pkg.a", "pkg.b", "pkg.c"], ["tools.one", "tools.two"]]
    text = describe(["pkg.a", "pkg.b", "pkg.c"], edges)
    assert "pkg/b.py:2: from pkg.c import x" in text and "pkg/c.py:3: from . import a" in text
    _plant(tmp_path, {"pkg/c.py": "x = 1\n", "tools/two.py": "import os\n"})
    assert circles(modules, python_edges(tmp_path, modules)) == []


def test_every_es_module_form_closes_a_circle(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            "docs/assets/js/a.mjs": 'import { b } from "./b.mjs";\n// import "./d.mjs";\n',
            "docs/assets/js/sub/b.mjs": 'export * from "../c.mjs";\nexport const b = 1;\n',
            "docs/assets/js/c.mjs": 'export async function go() {\n  return import("./a.mjs");\n}\n',
            "docs/assets/js/d.mjs": 'import {\n  go,\n} from "./c.mjs";\n',
            "tools/t.mjs": 'import "../docs/assets/js/d.mjs";\nimport fs from "node:fs";\n',
        },
    )
    _plant(tmp_path, {"docs/assets/js/a.mjs": 'import { b } from "./sub/b.mjs";\n// import "./d.mjs";\n'})
    modules = js_modules(tmp_path)
    edges = js_edges(tmp_path, modules)
    assert circles(modules, edges) == [["docs/assets/js/a.mjs", "docs/assets/js/c.mjs", "docs/assets/js/sub/b.mjs"]]
    assert {(e.source, e.target) for e in edges} >= {
        ("docs/assets/js/d.mjs", "docs/assets/js/c.mjs"),
        ("tools/t.mjs", "docs/assets/js/d.mjs"),
    }
    assert ("docs/assets/js/a.mjs", "docs/assets/js/d.mjs") not in {(e.source, e.target) for e in edges}
