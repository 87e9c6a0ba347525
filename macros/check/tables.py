"""`tables.yaml` checked: each table's rule, ruling and caption; a generated table's generator in
the engine (`complete`); a data table's columns unique and every cell of its column's type."""

from __future__ import annotations

from macros.check.engine import engine_attr
from macros.check.references import prose_problems, ref_problem
from macros.load import cells
from macros.load.catalog import Catalog, System
from macros.load.problems import Problem, suggest


def check(system: System, catalog: Catalog, out: list[Problem], complete: bool) -> None:
    generators = engine_attr(system, "TABLES") if complete else None
    for tid, table in system.tables.items():
        where = system.where[("table", tid)]
        problem = ref_problem(where, ("rule",), "rule", table["rule"], system.rules)
        if problem:
            out.append(problem)
        if "ruling" in table:
            problem = ref_problem(where, ("ruling",), "ruling", table["ruling"], system.rulings)
            if problem:
                out.append(problem)
        prose_problems(system, catalog, where, ("caption",), table.get("caption"), out)
        if "generator" in table:
            if isinstance(generators, str):
                out.append(where.problem(generators, "generator"))
            elif generators is not None and table["generator"] not in generators:
                out.append(
                    where.problem(
                        f"no generator '{table['generator']}' in {system.module}.TABLES"
                        f"{suggest(table['generator'], generators)}",
                        "generator",
                    )
                )
            continue
        columns = {c["id"]: c for c in table["columns"]}
        if len(columns) != len(table["columns"]):
            out.append(where.problem("duplicate column id", "columns"))
        for r, row in enumerate(table["rows"]):
            for key in row:
                if key not in columns:
                    out.append(where.problem(f"no column '{key}'{suggest(str(key), columns)}", "rows", r, key))
            for cid, column in columns.items():
                if cid not in row:
                    out.append(where.problem(f"missing cell '{cid}' (write null for an empty cell)", "rows", r))
                    continue
                why = cells.check(column["type"], row[cid])
                if why:
                    out.append(where.problem(why, "rows", r, cid))
