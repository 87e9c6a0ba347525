"""Reading a forecast's fighter lists: each entry is fed to the system's own round calculator
under the same input names, and any error it raises is renamed to the entry's field
(`party[2].ability_score`), so the reader is sent to the right row."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from calc.errors import InputError
from calc.forecast.fighters import FOES, PARTY

T = TypeVar("T")


@contextmanager
def entry(side: str, index: int) -> Iterator[None]:
    """Errors raised inside name the list entry's field (index counted from 1)."""
    try:
        yield
    except InputError as e:
        where = f"{side}[{index}]"
        raise InputError(f"{where}.{e.input}" if e.input else where, e.reason) from None


def each(inputs: dict[str, Any], make: Callable[[str, int, dict[str, Any]], T]) -> list[T]:
    """`make(side, index, entry)` for every entry of `party` then `foes`, errors renamed."""
    out = []
    for side in (PARTY, FOES):
        for index, item in enumerate(inputs[side], start=1):
            with entry(side, index):
                out.append(make(side, index, item))
    return out
