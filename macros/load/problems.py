"""Data problems as `file:LINE: field.path: message`, collected so one run reports them all."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the data, located in its YAML file."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:"
        return f"{where} {self.field}: {self.message}" if self.field else f"{where} {self.message}"


class DataProblems(Exception):
    """Raised when the data has problems; `str()` lists every one, one a line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__(self.report())

    def report(self) -> str:
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in rules_data/:"
        return "\n".join([head, *map(str, self.problems)])


def field_path(path: Iterable[str | int]) -> str:
    """`("rules", 3, "facts", "aac0")` → `rules[3].facts.aac0`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def suggest(wanted: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the nearest known id, or a short list when nothing is near."""
    known = sorted(set(known))
    near = difflib.get_close_matches(wanted, known, n=1, cutoff=0.6)
    if near:
        return f" (did you mean '{near[0]}'?)"
    if not known:
        return " (there are none)"
    shown = ", ".join(known[:5]) + (", …" if len(known) > 5 else "")
    return f" (known: {shown})"
