"""The site's shape, derived from the data: which page a `docs/` path is, what it renders, and
the navigation. The only place where rendering meets `calc` (generated tables)."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from macros.catalog import CALCULATORS, Catalog, System
from macros.export import export_system
from macros.render import gm_screen, overview, rules, system_pages
from macros.render.prose import Prose, page_title


class PageError(ValueError):
    """A docs/ file that is no page of the data."""


class Site:
    """Renders any page of the site from the loaded catalog."""

    def __init__(self, catalog: Catalog, *, partial: bool = False) -> None:
        self.catalog = catalog
        self.partial = partial  # preview: a table whose code fails shows why instead of failing
        self.exported = {sid: export_system(s) for sid, s in catalog.systems.items()}

    def declarations(self, system: System) -> dict[str, dict]:
        calcs = self.exported[system.id]["calculators"]
        return {name: calcs[name] for name in CALCULATORS if name in calcs}

    @cache  # noqa: B019 - one Site per build; tables are computed once
    def system_data(self, system_id: str) -> Any:
        from calc.data import SystemData

        return SystemData(self.exported[system_id])

    def generated(self, system: System, table: dict) -> dict[str, Any]:
        """The content of a generated table, computed by the system's module from the data."""
        try:
            module = importlib.import_module(f"calc.systems.{system.module}")
            return module.TABLES[table["generator"]](self.system_data(system.id))
        except Exception as err:
            if not self.partial:
                raise
            why = f"{type(err).__name__}: {err}"
            return {"columns": [{"id": "error", "label": "Not computed (preview)"}], "rows": [[why]], "caption": None}

    def render(self, path: str) -> str:
        """The Markdown of the page whose source is `docs/<path>`."""
        parts = path.removesuffix(".md").split("/")
        if parts == ["index"]:
            return overview.home_page(self.catalog, path)
        if parts == ["compare"]:
            return overview.compare_page(self.catalog, path)
        system = self.catalog.systems.get(parts[0])
        if system is None:
            raise PageError(f"docs/{path}: no system '{parts[0]}' in rules_data/")
        prose = Prose(self.catalog, system, path)
        decls = self.declarations(system)
        rest = parts[1:]
        if rest == ["index"]:
            return system_pages.overview_page(prose, decls)
        if rest == ["rulings"]:
            return system_pages.rulings_page(prose)
        if rest == ["glossary"]:
            return system_pages.glossary_page(prose)
        if rest == ["gm-screen"]:
            return gm_screen.gm_screen_page(prose, lambda table: self.generated(system, table))
        if len(rest) == 2 and rest[0] == "calculators" and rest[1] in decls:
            return system_pages.calculator_page(prose, rest[1], decls[rest[1]])
        if len(rest) == 1 and any(p["id"] == rest[0] for p in system.pages):
            return rules.rule_page(prose, rest[0], lambda table: self.generated(system, table), decls)
        raise PageError(f"docs/{path}: not a page of {system.id} (pages: {', '.join(p['id'] for p in system.pages)})")

    def page_title(self, path: str) -> str | None:
        """The tab title of a system page ("Hit chance · Countup"); None for other pages."""
        parts = path.removesuffix(".md").split("/")
        system = self.catalog.systems.get(parts[0])
        rest = parts[1:]
        if system is None or rest == ["index"]:
            return None
        decls = self.declarations(system)
        titles = {"rulings": "Rulings", "glossary": "Glossary", "gm-screen": "GM screen"}
        titles |= {p["id"]: p["title"] for p in system.pages}
        if len(rest) == 2 and rest[0] == "calculators" and rest[1] in decls:
            return page_title(decls[rest[1]]["title"], system.name)
        if len(rest) == 1 and rest[0] in titles:
            return page_title(titles[rest[0]], system.name)
        return None

    def nav(self, other_docs: list[str] = ()) -> list[Any]:
        """MkDocs `nav`: home, comparison, then each system's pages; other docs last."""
        nav: list[Any] = [{"Home": "index.md"}, {"Compare the systems": "compare.md"}]
        for system in self.catalog.systems.values():
            sid = system.id
            items: list[Any] = [f"{sid}/index.md"]
            items += [{p["title"]: f"{sid}/{p['id']}.md"} for p in system.pages]
            items.append({"Rulings": f"{sid}/rulings.md"})
            items.append({"Glossary": f"{sid}/glossary.md"})
            items.append({"GM screen": f"{sid}/gm-screen.md"})
            calcs = [{d["title"]: f"{sid}/calculators/{n}.md"} for n, d in self.declarations(system).items()]
            items.append({"Calculators": calcs})
            nav.append({system.name: items})
        nav.extend(other_docs)
        return nav
