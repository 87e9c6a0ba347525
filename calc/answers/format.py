"""Numbers as the site writes them, one rule each, shared by every engine and the page renderer:
a true minus sign (U+2212), and a modifier always signed, zero included ("+0", as players write a
modifier)."""

from __future__ import annotations

MINUS = "\N{MINUS SIGN}"


def number(n: int) -> str:
    """A whole number with a true minus sign: 5, 0, −10."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A modifier: +2, +0, −3."""
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"
