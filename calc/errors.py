"""One family of typed errors, so every caller (browser, command line, tests) reports bad input the
same way: the name of the input at fault and the reason, never a traceback."""

from __future__ import annotations


class CalcError(ValueError):
    """A request that cannot be answered. `input` names the offending input (or is None)."""

    def __init__(self, reason: str, input: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.input = input

    def __str__(self) -> str:
        return f"{self.input}: {self.reason}" if self.input else self.reason

    def to_json(self) -> dict:
        return {"error": {"input": self.input, "message": self.reason, "kind": type(self).__name__}}


class InputError(CalcError):
    """An input is missing, of the wrong type, out of range or malformed."""

    def __init__(self, input: str | None, reason: str) -> None:
        super().__init__(reason, input)


class UnknownSystem(CalcError):
    """The request names a system id that does not exist."""


class UnknownCalculator(CalcError):
    """The request names a calculator the system does not declare."""


class DataError(CalcError):
    """The exported rules data is missing or does not hold what an engine needs."""
