"""The rules files checked: sections' line ranges, each rule's page, sources and prose, and its
examples (the calculator and inputs they name, the ruling they read)."""

from __future__ import annotations

from macros.check.references import prose_problems, ref_problem
from macros.load.catalog import Catalog, System, Where
from macros.load.problems import Problem, suggest


def check(system: System, catalog: Catalog, out: list[Problem]) -> None:
    pages = {p.get("id") for p in system.pages}
    for sid, section in system.sections.items():
        first, last = section["lines"]
        if first > last:
            out.append(system.where[("section", sid)].problem(f"first line {first} is after last line {last}", "lines"))
    for rid, rule in system.rules.items():
        where = system.where[("rule", rid)]
        if rule["page"] not in pages:
            out.append(where.problem(f"no page '{rule['page']}' in system.yaml{suggest(rule['page'], pages)}", "page"))
        for i, sid in enumerate(rule["sources"]):
            problem = ref_problem(where, ("sources", i), "section", sid, system.sections)
            if problem:
                out.append(problem)
        if rid in system.tables:
            out.append(where.problem(f"rule and table share the id '{rid}' (both are anchors on the page)", "id"))
        for name in ("summary", "body"):
            prose_problems(system, catalog, where, (name,), rule.get(name), out)
        for i, example in enumerate(rule.get("examples") or []):
            _check_example(system, catalog, where, i, example, out)


def _check_example(system: System, catalog: Catalog, where: Where, i: int, example: dict, out: list[Problem]) -> None:
    field = ("examples", i)
    prose_problems(system, catalog, where, (*field, "text"), example.get("text"), out)
    name = example.get("calculator")
    if name is not None:
        calc = system.calculators.get(name)
        if calc is None:
            out.append(where.problem(f"no calculator '{name}' in calculators.yaml", *field, "calculator"))
        else:
            declared = {d.get("name"): d for d in calc.get("inputs", [])}
            for key in example.get("inputs") or {}:
                if key not in declared:
                    out.append(
                        where.problem(
                            f"calculator '{name}' has no input '{key}'{suggest(key, declared)}", *field, "inputs", key
                        )
                    )
    ruling = example.get("ruling")
    if ruling is not None:
        problem = ref_problem(where, (*field, "ruling"), "ruling", ruling, system.rulings)
        if problem:
            out.append(problem)
