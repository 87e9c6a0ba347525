"""`glossary.yaml` checked: the rule a term names and the references of its definition."""

from __future__ import annotations

from macros.check.references import prose_problems, ref_problem
from macros.load.catalog import Catalog, System
from macros.load.problems import Problem


def check(system: System, catalog: Catalog, out: list[Problem]) -> None:
    for tid, term in system.terms.items():
        where = system.where[("term", tid)]
        if "rule" in term:
            problem = ref_problem(where, ("rule",), "rule", term["rule"], system.rules)
            if problem:
                out.append(problem)
        prose_problems(system, catalog, where, ("definition",), term.get("definition"), out)
