"""Read a YAML file into plain Python values while keeping the line of every field.

Errors in the data must name `file:LINE: field.path`, so the loader composes the YAML node tree
(which carries marks), builds the values from it, and records a path → line map beside them.
Duplicate keys, which PyYAML silently accepts, are reported here, and so is hostile input: a file
that is not UTF-8, an alias bomb, absurd nesting or a number too long to read each become one
located problem, quickly and in bounded memory, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from macros.load.problems import Problem, field_path

Path_ = tuple[str | int, ...]

MAX_NODES = 100_000
"""Most values a file may hold with every alias expanded (the largest real file has ~2,000)."""
MAX_DEPTH = 50
"""Deepest nesting of lists and mappings (real files nest 10 deep)."""
_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}

try:  # libyaml's parser (C): ~20x faster than PyYAML's pure-Python one on our data
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml.parser import Parser as _Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _Parser.__init__(self)


class Refused(yaml.MarkedYAMLError):
    """The file passes a limit: too deeply nested, too many values once aliases are expanded."""


class _Loader(Composer, _Parser, SafeConstructor, Resolver):
    """libyaml's parser under PyYAML's own Python composer, whose `compose_node` is the hook for the
    limits: it counts every value as it is composed, an alias as the whole size of what it repeats,
    and the nesting depth, and stops at the first value past a limit. An alias bomb ("billion
    laughs") is thus refused after reading a few lines, before anything expands it, and absurd
    nesting before libyaml's time grows with it."""

    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self._depth = 0
        self._count = 0  # values composed so far, aliases counted expanded
        self._sizes: dict[int, int] = {}  # id(node) → its expanded size, once composed

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None:
                if id(node) not in self._sizes:
                    raise Refused(
                        None, None, f"alias *{event.anchor} repeats a value that contains it", event.start_mark
                    )
                self._add(self._sizes[id(node)], event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise Refused(None, None, f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark)
        before = self._count
        node = super().compose_node(parent, index)
        self._add(1, node.start_mark)
        self._sizes[id(node)] = self._count - before
        self._depth -= 1
        return node

    def _add(self, values: int, mark: yaml.Mark) -> None:
        self._count += values
        if self._count > MAX_NODES:
            raise Refused(None, None, f"expands to more than {MAX_NODES:,} values (aliases repeating aliases?)", mark)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as err:  # e.g. an integer past Python's 4300 digits
            reason = str(err).split(";")[0]
            message = f"cannot read this value: {reason}"
            raise yaml.constructor.ConstructorError(None, None, message, node.start_mark) from None


@dataclass
class Source:
    """One YAML file: its values, where each field is, and what was wrong while reading it."""

    file: str  # as shown in messages: relative to the repository root
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    blocks: dict[Path_, int] = field(default_factory=dict)  # literal `|` scalars: line of the `|`
    problems: list[Problem] = field(default_factory=list)
    misshapen: bool = False  # a list or mapping holds a value of another kind (set by the schema check)

    @property
    def usable(self) -> bool:
        """Whether ids and references can be read from it: it was read and has the right shape.
        When not, its one problem is the report; checks against its contents would only echo it."""
        return not (self.data is None and self.problems) and not self.misshapen

    def line(self, path: Path_) -> int:
        """The line of `path`, or of its nearest ancestor that exists (1 when none does)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def line_at(self, path: Path_, text: str, offset: int) -> int:
        """The line of character `offset` of the string at `path` (exact for `|` blocks)."""
        if tuple(path) in self.blocks:
            return self.blocks[tuple(path)] + 1 + text.count("\n", 0, offset)
        return self.line(path)

    def problem(self, path: Path_, message: str, line: int | None = None) -> Problem:
        return Problem(self.file, line or self.line(path), field_path(path), message)


def read(path: Path, shown_as: str) -> Source:
    """Load `path`; a file that cannot be read (not UTF-8, bad YAML, past a limit) becomes one
    problem of the returned (empty) source."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return _unreadable(shown_as, raw[: err.start].count(b"\n") + 1, _not_utf8(raw, err))
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(str(x) for x in (err.context, err.problem) if x) or "unreadable YAML"
        if isinstance(err, Refused | yaml.constructor.ConstructorError):
            return _unreadable(shown_as, line, f"YAML: {message}")
        if mark and text.splitlines()[mark.line : mark.line + 1] and "\t" in text.splitlines()[mark.line]:
            message += " (a tab? YAML indents with spaces only)"
        return _unreadable(shown_as, line, f"YAML syntax: {message}")
    except yaml.YAMLError as err:  # a reader error: a character YAML does not allow
        position = getattr(err, "position", 0) or 0
        message = str(err).splitlines()[0]
        return _unreadable(shown_as, text.count("\n", 0, position) + 1, f"YAML: {message}")
    finally:
        loader.dispose()
    source = Source(shown_as, data, {(): 1})
    if node is not None:
        _walk(node, (), source)
    return source


def _unreadable(shown_as: str, line: int, message: str) -> Source:
    return Source(shown_as, None, lines={(): line}, problems=[Problem(shown_as, line, "", message)])


def _not_utf8(raw: bytes, err: UnicodeDecodeError) -> str:
    for bom, encoding in _BOMS.items():
        if raw.startswith(bom):
            return f"the file is {encoding} text: save it as UTF-8"
    return f"the file is not UTF-8 (byte 0x{raw[err.start]:02x} cannot start or continue a character): save it as UTF-8"


def _walk(node: yaml.Node, path: Path_, source: Source) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                sub = (*path, key)
                source.problems.append(
                    Problem(source.file, key_node.start_mark.line + 1, field_path(sub), "duplicate key")
                )
            seen.add(key)
            sub = (*path, key)
            source.lines[sub] = key_node.start_mark.line + 1
            _walk(value_node, sub, source)
    elif isinstance(node, yaml.ScalarNode) and node.style == "|":
        source.blocks[path] = node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            sub = (*path, index)
            source.lines[sub] = item.start_mark.line + 1
            _walk(item, sub, source)
