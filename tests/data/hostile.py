"""Hostile rules data: each case rewrites one file of the good mini system (tests/data/fixtures/good)
into something an attacker or a confused editor could commit. Shared by the checker's tests
(tests/data/test_hostile_data.py) and the benchmark that prints time and memory per case
(`python bench/hostile_data.py`)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

GOOD = Path(__file__).parent / "fixtures" / "good"
COUNTUP = Path("rules_data") / "countup"


def alias_bomb(lines: int) -> bytes:
    """`lines` lines of nested aliases: 9**lines strings once expanded (the "billion laughs")."""
    out = ['lol0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, lines):
        out.append(f"lol{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 9) + "]")
    return ("\n".join(out) + "\n").encode()


def deep_nesting(depth: int) -> bytes:
    """A flow sequence nested `depth` deep, on line 2 after a valid first line."""
    return b"id: countup\nname: " + b"[" * depth + b"]" * depth + b"\n"


def long_integer(digits: int) -> bytes:
    """A valid system.yaml whose `name` is an integer of `digits` digits, on line 3."""
    text = (GOOD / COUNTUP / "system.yaml").read_text(encoding="utf-8")
    return text.replace("name: Mini", "name: " + "9" * digits).encode()


def utf16() -> bytes:
    return (GOOD / COUNTUP / "system.yaml").read_text(encoding="utf-8").encode("utf-16")


def latin1() -> bytes:
    """The good system.yaml with a Latin-1 'é' (not UTF-8) on line 5."""
    text = (GOOD / COUNTUP / "system.yaml").read_text(encoding="utf-8")
    return text.replace("A tiny system", "A tiny syst\u00e9m").encode("latin-1")


def tab_indented() -> bytes:
    """The good glossary.yaml indented with tabs instead of spaces."""
    text = (GOOD / COUNTUP / "glossary.yaml").read_text(encoding="utf-8")
    lines = ("\t" * ((len(line) - len(line.lstrip(" "))) // 2) + line.lstrip(" ") for line in text.splitlines())
    return "\n".join(lines).encode()


def control_character() -> bytes:
    """The good glossary.yaml with a BEL character (YAML allows no control characters) on line 4."""
    text = (GOOD / COUNTUP / "glossary.yaml").read_text(encoding="utf-8")
    return text.replace("term: AC", "term: A\x07C").encode()


def string_for_list() -> bytes:
    """The good system.yaml with a long string where the `pages` list belongs (line 6)."""
    text = (GOOD / COUNTUP / "system.yaml").read_text(encoding="utf-8")
    start = text.index("pages:")
    end = text.index("comparison:")
    return (text[:start] + "pages: attacks, damage, initiative, and a long list of things\n" + text[end:]).encode()


BOMB = "rules_data/countup/glossary.yaml:6: YAML: expands to more than"
# name → (file rewritten, its content, the message expected: `file:line: …` prefix)
CASES: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "alias bomb, 7 lines": ("glossary.yaml", lambda: alias_bomb(7), BOMB),
    "alias bomb, 9 lines": ("glossary.yaml", lambda: alias_bomb(9), BOMB),
    "5000-deep nesting": ("system.yaml", lambda: deep_nesting(5000), "rules_data/countup/system.yaml:2: YAML: nested"),
    "5001-digit integer": (
        "system.yaml",
        lambda: long_integer(5001),
        "rules_data/countup/system.yaml:3: YAML: cannot read this value: Exceeds the limit (4300 digits)",
    ),
    "UTF-16": ("system.yaml", utf16, "rules_data/countup/system.yaml:1: the file is UTF-16 text: save it as UTF-8"),
    "Latin-1": ("system.yaml", latin1, "rules_data/countup/system.yaml:5: the file is not UTF-8 (byte 0xe9"),
    "tab-indented": ("glossary.yaml", tab_indented, "rules_data/countup/glossary.yaml:3: YAML syntax: "),
    "string where a list belongs": (
        "system.yaml",
        string_for_list,
        "rules_data/countup/system.yaml:6: pages: 'attacks, damage, initiative, and a long list of things' is not of",
    ),
    "alias loop": (
        "glossary.yaml",
        lambda: b"terms:\n  - &t [1, *t]\n",
        "rules_data/countup/glossary.yaml:2: YAML: alias *t repeats a value that contains it",
    ),
    "control character": (
        "glossary.yaml",
        control_character,
        "rules_data/countup/glossary.yaml:4: YAML: unacceptable character #x0007",
    ),
}


def make(root: Path, case: str) -> Path:
    """Copy the good mini system to `root` and write the hostile file of `case` into it."""
    shutil.copytree(GOOD, root, dirs_exist_ok=True)
    name, content, _ = CASES[case]
    (root / COUNTUP / name).write_bytes(content())
    return root
