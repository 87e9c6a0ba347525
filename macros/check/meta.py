"""`system.yaml` (a system's `meta`) checked: its id is its folder's, its source text exists, each
page is unique, not reserved for a generated page and holds rules, each comparison aspect names a
rule or a ruling, every prose reference resolves. (Its GM screen: `macros.check.screen`.)"""

from __future__ import annotations

from macros.check.references import prose_problems, ref_problem
from macros.load.catalog import RULING_PREFIX, Catalog, System, sources_dir
from macros.load.problems import Problem

RESERVED_PAGES = {"index", "rulings", "glossary", "gm-screen", "calculators", "compare"}
"""Page ids the site gives its generated pages."""


def check(system: System, catalog: Catalog, out: list[Problem]) -> None:
    """Every problem of system.yaml but its GM screen's."""
    where = system.where.get(("system", system.id))
    if where is None:
        return
    meta = system.meta
    if meta.get("id") != system.id:
        out.append(where.problem(f"must be the folder name '{system.id}'", "id"))
    src = sources_dir(catalog.root)
    if src.is_dir() and not (src / meta.get("source", "")).is_file():
        out.append(where.problem(f"no file '{meta.get('source')}' in {src}", "source"))
    prose_problems(system, catalog, where, ("summary",), meta.get("summary"), out)
    seen: set[str] = set()
    for i, page in enumerate(system.pages):
        pid = page.get("id", "")
        if pid in seen:
            out.append(where.problem(f"duplicate page id '{pid}'", "pages", i, "id"))
        seen.add(pid)
        if pid in RESERVED_PAGES:
            out.append(where.problem(f"'{pid}' is reserved for a generated page", "pages", i, "id"))
        if not system.rules_on(pid):
            out.append(where.problem(f"page '{pid}' has no rules (no rule says `page: {pid}`)", "pages", i, "id"))
        prose_problems(system, catalog, where, ("pages", i, "summary"), page.get("summary"), out)
    for aspect, ref in (meta.get("comparison") or {}).items():
        if ref.startswith(RULING_PREFIX):
            problem = ref_problem(where, ("comparison", aspect), "ruling", ref[len(RULING_PREFIX) :], system.rulings)
        else:
            problem = ref_problem(where, ("comparison", aspect), "rule", ref, system.rules)
        if problem:
            out.append(problem)
