"""A reference in the data, checked: an id a field names (`ref_problem`) and the `[[...]]`
references of a prose field (`prose_problems`), each dangling one with the nearest known id as a
suggestion. Every file's check calls them."""

from __future__ import annotations

from typing import Any

from macros.load.catalog import Catalog, System, Where
from macros.load.markup import MarkupError, refs
from macros.load.problems import Problem, suggest


def ref_problem(where: Where, field: tuple, kind: str, wanted: str, known: dict) -> Problem | None:
    """The problem of `field` naming a `kind` id `wanted` that `known` lacks; None when it has it."""
    if wanted in known:
        return None
    return where.problem(f"no {kind} '{wanted}'{suggest(wanted, known)}", *field)


def prose_problems(system: System, catalog: Catalog, where: Where, field: tuple, text: Any, out: list[Problem]) -> None:
    """Add to `out` every `[[...]]` reference of one prose field that cannot be read or resolved."""
    if not isinstance(text, str):
        return
    source, path = where.source, (*where.path, *field)
    for ref in refs(text):
        if isinstance(ref, MarkupError):
            out.append(source.problem(path, str(ref), source.line_at(path, text, ref.offset)))
            continue
        line = source.line_at(path, text, ref.start)
        target = catalog.systems.get(ref.system) if ref.system else system
        if target is None:
            known = catalog.systems
            out.append(
                source.problem(
                    path,
                    f"[[{ref.kind}:{ref.system}/{ref.id}]]: no system '{ref.system}'{suggest(ref.system or '', known)}",
                    line,
                )
            )
            continue
        index = {"term": target.terms, "rule": target.rules, "ruling": target.rulings, "table": target.tables}[ref.kind]
        if ref.id not in index:
            shown = f"{ref.system}/{ref.id}" if ref.system else ref.id
            out.append(
                source.problem(
                    path,
                    f"[[{ref.kind}:{shown}]]: no {ref.kind} '{ref.id}' in {target.id}{suggest(ref.id, index)}",
                    line,
                )
            )
