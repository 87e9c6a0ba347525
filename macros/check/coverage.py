"""Does a system's data cover its whole source text?

Sections (declared in the rules files) are 1-based inclusive line ranges of the source file. They
must together cover every non-blank line without overlap, each must start with its `quote`, each
must be cited by a rule, and every number written in digits in a section's lines must appear in the
rules citing it (body, summary, facts, tables, examples), so no number of the source is lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from macros.load.catalog import System
from macros.load.problems import Problem

_DIGITS = re.compile(r"\d+")


def numbers(text: str) -> set[str]:
    """The numbers written in digits in `text`, without leading zeros ("05" → "5")."""
    return {m.lstrip("0") or "0" for m in _DIGITS.findall(text)}


def _strings(value: Any) -> Iterator[str]:
    """Every scalar inside a nested value, as text."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def rule_numbers(system: System, rule: dict) -> set[str]:
    """The numbers a rule states: in its prose, facts, examples and its tables' titles and cells."""
    found: set[str] = set()
    parts = [rule.get("title"), rule.get("summary"), rule.get("body"), rule.get("facts"), rule.get("examples")]
    parts += [{k: t.get(k) for k in ("title", "caption", "rows") if k in t} for t in system.tables_of(rule["id"])]
    for part in parts:
        for text in _strings(part):
            found |= numbers(text)
    return found


def check(system: System, sources: Path) -> list[Problem]:
    """Every coverage problem of `system` against its source text in `sources`."""
    meta_where = system.where.get(("system", system.id))
    path = sources / str(system.meta.get("source", ""))
    if meta_where is None or not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Problem] = []
    owner: dict[int, str] = {}
    cited: dict[str, list[dict]] = {}
    for rule in system.rules.values():
        for sid in rule.get("sources", []):
            cited.setdefault(sid, []).append(rule)
    for sid, section in system.sections.items():
        where = system.where[("section", sid)]
        first, last = section["lines"]
        if last > len(lines):
            out.append(where.problem(f"line {last} is past the end of {path.name} ({len(lines)} lines)", "lines"))
            continue
        if not lines[first - 1].strip().startswith(section["quote"].strip()):
            out.append(where.problem(f"line {first} reads {lines[first - 1].strip()[:60]!r}", "quote"))
        for n in range(first, last + 1):
            if n in owner:
                out.append(where.problem(f"line {n} is also in section '{owner[n]}'", "lines"))
                break
            owner[n] = sid
        if sid not in cited:
            out.append(where.problem(f"section '{sid}' is cited by no rule (add it to a rule's `sources`)", "id"))
            continue
        stated = set().union(*(rule_numbers(system, r) for r in cited[sid]))
        written = numbers("\n".join(lines[first - 1 : last]))
        lost = sorted(written - stated, key=int)
        if lost:
            names = ", ".join(r["id"] for r in cited[sid])
            out.append(
                where.problem(
                    f"number{'s' if len(lost) > 1 else ''} {', '.join(lost)} of lines "
                    f"{first}–{last} appear in no rule citing it ({names})",
                    "lines",
                )
            )
    for first, last in _runs(n for n, text in enumerate(lines, 1) if text.strip() and n not in owner):
        out.append(
            meta_where.problem(
                f"{path.name} lines {first}–{last} are in no section (line {first}: {lines[first - 1].strip()[:50]!r})",
                "source",
            )
        )
    return out


def _runs(numbers_: Iterator[int]) -> Iterator[tuple[int, int]]:
    """Consecutive runs of line numbers, allowing blank lines inside a run."""
    run: list[int] = []
    for n in numbers_:
        if run and n > run[-1] + 2:
            yield run[0], run[-1]
            run = []
        run.append(n)
    if run:
        yield run[0], run[-1]
