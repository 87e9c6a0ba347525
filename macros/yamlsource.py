"""Read a YAML file into plain Python values while keeping the line of every field.

Errors in the data must name `file:LINE: field.path`, so the loader composes the YAML node tree
(which carries marks), builds the values from it, and records a path → line map beside them.
Duplicate keys, which PyYAML silently accepts, are reported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from macros.problems import Problem, field_path

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

Path_ = tuple[str | int, ...]


@dataclass
class Source:
    """One YAML file: its values, where each field is, and what was wrong while reading it."""

    file: str  # as shown in messages: relative to the repository root
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    blocks: dict[Path_, int] = field(default_factory=dict)  # literal `|` scalars: line of the `|`
    problems: list[Problem] = field(default_factory=list)

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
    """Load `path`; a YAML syntax error becomes a problem of the returned (empty) source."""
    text = path.read_text(encoding="utf-8")
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(str(x) for x in (err.context, err.problem) if x) or "unreadable YAML"
        problem = Problem(shown_as, line, "", f"YAML syntax: {message}")
        return Source(shown_as, None, lines={(): line}, problems=[problem])
    finally:
        loader.dispose()
    source = Source(shown_as, data, {(): 1})
    if node is not None:
        _walk(node, (), source)
    return source


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
