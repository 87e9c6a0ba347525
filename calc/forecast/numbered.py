"""Values numbered as they are met: the forecast's hottest dicts then hash small integers, not
nested tuples of healths (a tuple's hash is computed anew at every lookup)."""

from __future__ import annotations

from typing import Any


class Numbered:
    """Values numbered as they are met (`number`), each found again by its number (`values`)."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._numbers: dict[Any, int] = {}

    def number(self, value: Any) -> int:
        n = self._numbers.get(value)
        if n is None:
            n = self._numbers[value] = len(self.values)
            self.values.append(value)
        return n
