"""The inline reference markup of prose fields: `[[kind:id]]`, `[[kind:system/id|text]]`.

Parsing lives here, once, so the checker (does every reference resolve?) and the renderers (what
does it become?) read the same grammar; so does `plain_text`, the prose as the engines show it
(a calculator's "why" step), exported before any page is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from macros.load.catalog import System

KINDS = ("term", "rule", "ruling", "table")

_ANY = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_REF = re.compile(
    r"^(?P<kind>[a-z]+):(?:(?P<system>[a-z0-9]+(?:-[a-z0-9]+)*)/)?(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)"
    r"(?:\|(?P<text>[^|\[\]]+))?$"
)


@dataclass(frozen=True)
class Ref:
    """One `[[...]]` reference: `system` is None for the system the prose belongs to."""

    kind: str
    system: str | None
    id: str
    text: str | None
    start: int
    end: int


class MarkupError(ValueError):
    """A `[[...]]` that cannot be read; `offset` is where it starts in the prose."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def refs(text: str) -> Iterator[Ref | MarkupError]:
    """Every reference of `text`, in order; unreadable ones are yielded as `MarkupError`s."""
    last = 0
    for match in _ANY.finditer(text):
        yield from _stray(text, last, match.start())
        last = match.end()
        inner = match.group(1).strip()
        ref = _REF.match(inner)
        if not ref:
            kind = inner.split(":", 1)[0] if ":" in inner else ""
            if kind not in KINDS:
                why = f"unknown kind '{kind}' (kinds: {', '.join(KINDS)})" if kind else "missing 'kind:'"
            else:
                why = "expected [[kind:id]], [[kind:system/id]] or [[kind:id|text]] with a kebab-case id"
            yield MarkupError(f"bad reference [[{inner}]]: {why}", match.start())
            continue
        if ref.group("kind") not in KINDS:
            yield MarkupError(
                f"bad reference [[{inner}]]: unknown kind '{ref.group('kind')}' (kinds: {', '.join(KINDS)})",
                match.start(),
            )
            continue
        label = ref.group("text")
        yield Ref(
            ref.group("kind"),
            ref.group("system"),
            ref.group("id"),
            label.strip() if label else None,
            match.start(),
            match.end(),
        )
    yield from _stray(text, last, len(text))


def _stray(text: str, start: int, end: int) -> Iterator[MarkupError]:
    """Unpaired `[[` or `]]` between references."""
    chunk = text[start:end]
    for token in ("[[", "]]"):
        pos = chunk.find(token)
        if pos >= 0:
            yield MarkupError(f"unclosed reference markup: '{token}' without its pair", start + pos)


def substitute(text: str, replace) -> str:
    """`text` with each reference replaced by `replace(ref)`; raises MarkupError on bad markup."""
    out, last = [], 0
    for ref in refs(text):
        if isinstance(ref, MarkupError):
            raise ref
        out.append(text[last : ref.start])
        out.append(replace(ref))
        last = ref.end
    out.append(text[last:])
    return "".join(out)


def plain_text(system: System, text: str | None) -> str:
    """Prose as one line of plain text, for a calculator's "why" step (shown as text, never as
    HTML): a reference becomes its label or the title it names, emphasis and code marks go, and
    line breaks fold. A reference to another system needs its own label (`[[kind:system/id|text]]`)."""
    if not text:
        return ""

    def label(ref: Ref) -> str:
        if ref.text or ref.system:
            return ref.text or ref.id
        index = {"rule": system.rules, "table": system.tables, "ruling": system.rulings, "term": system.terms}
        entry = index[ref.kind][ref.id]
        return entry.get("title") or entry.get("term", ref.id)

    out = substitute(text, label)
    for mark in ("**", "`"):
        out = out.replace(mark, "")
    out = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"\1", out)  # *emphasis*
    return " ".join(out.split())
