"""The stat-block grammars (statblock.yaml) and built-in presets (presets.yaml) are checked like
the rest of the data: a mistake is one problem at `file:LINE: field.path`, and the build fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from macros.check import loader
from macros.load.catalog import ROOT, sources_dir


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if not (sources_dir() / "000_f18d0956b4cf3fce.txt").exists():
        pytest.skip("source texts not found (set CODEX_SOURCES)")
    monkeypatch.setenv("CODEX_SOURCES", str(sources_dir()))
    shutil.copytree(ROOT / "rules_data", tmp_path / "rules_data")
    return tmp_path


def edit(root: Path, system: str, name: str, old: str, new: str) -> None:
    path = root / "rules_data" / system / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"fixture edit {old!r} must match once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def problems(root: Path, system: str) -> list[str]:
    return [str(p) for p in loader.load(root).problems if p.file.startswith(f"rules_data/{system}/")]


def line_of(root: Path, system: str, name: str, text: str) -> int:
    lines = (root / "rules_data" / system / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_the_shipped_grammars_and_presets_are_valid(root: Path) -> None:
    assert problems(root, "segments") == [] and problems(root, "countup") == []


BAD = [
    (
        "segments",
        "statblock.yaml",
        "sets: {value: ac}",
        "sets: {value: armor_class}",
        "fields[0].sets.value: no calculator input 'armor_class'",
    ),
    (
        "segments",
        "statblock.yaml",
        "      rule: armor-class\n",
        "      rule: armour-class\n",
        "fields[0].rule: no rule 'armour-class'",
    ),
    (
        "segments",
        "statblock.yaml",
        "sets: {count: hd, bonus: hd_bonus}",
        "sets: {count: hd, sides: hd_bonus}",
        "fields[1].sets: 'sides' is not one of",
    ),
    ("segments", "statblock.yaml", "also: {attacker: monster}", "also: {attacker: dragon}", "fields[1].also.attacker:"),
    (
        "segments",
        "statblock.yaml",
        "value: hit-dice\n      sets: {count: hd",
        "value: hit-die\n      sets: {count: hd",
        "fields[1].value: 'hit-die' is not one of",
    ),
    (
        "segments",
        "statblock.yaml",
        "fact: hit_die",
        "fact: hit_dice",
        "hit_points.from_hit_dice.fact: no dice fact 'hit_dice'",
    ),
    (
        "segments",
        "presets.yaml",
        'quote: "> MISSILE: 2 longbow arrows (1d6/1d6)"',
        'quote: "> MISSILE: 3 longbow arrows"',
        "presets[1].source.quote: “> MISSILE: 3 longbow arrows” is not printed in lines 61–61",
    ),
    (
        "segments",
        "presets.yaml",
        "lines: [60, 60]",
        "lines: [600, 600]",
        "presets[0].source.lines: lines 600–600 are outside",
    ),
    (
        "segments",
        "presets.yaml",
        'statblock: "AC 5"',
        'statblock: "AC 15"',
        "presets[6].statblock: “AC 15” is not taken: ac: must be between -10 and 10",
    ),
    ("segments", "presets.yaml", "values: {ac_bonus: 2}", "values: {ac_bonus: 20}", "presets[6].values.ac_bonus:"),
    ("countup", "presets.yaml", "role: target", "role: foe", "presets[2].role: 'foe' is not one of"),
    (
        "countup",
        "presets.yaml",
        'statblock: "Orc: 14 Armor class"',
        'statblock: "Orc: 14 Armor class, 3 eyes"',
        "presets[2].statblock: “3 eyes” is not a field of the grammar",
    ),
]


@pytest.mark.parametrize(("system", "name", "old", "new", "expected"), BAD)
def test_a_mistake_is_reported_at_its_file_line_and_field(root: Path, system, name, old, new, expected) -> None:
    edit(root, system, name, old, new)
    found = problems(root, system)
    line = line_of(root, system, name, new.strip().splitlines()[0])
    want = f"rules_data/{system}/{name}:"
    assert any(p.startswith(want) and expected in p for p in found), found
    hit = next(p for p in found if expected in p)
    assert hit.startswith(f"{want}{line}:") or name == "presets.yaml", hit
