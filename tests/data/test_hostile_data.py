"""Hostile rules data (tests/data/hostile.py) fails `python -m macros.check` with exactly one
`file:LINE: …` problem: no traceback, a generous time bound and an address-space cap, so a
regression fails here instead of eating the machine. Precise figures: `python bench/hostile_data.py`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hostile import CASES, make

from macros.load import catalog

MEMORY_CAP = 1024 * 1024 * 1024  # bytes of address space for the whole check (today's bomb wanted 1.3 GB)
TIME_CAP = 20  # seconds; the cases take well under a second on an idle machine

LIMITED = f"""
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_CAP}, {MEMORY_CAP}))
sys.argv = ["macros.check", *sys.argv[1:]]
runpy.run_module("macros.check", run_name="__main__")
"""


@pytest.mark.parametrize("case", CASES)
def test_hostile_file_gives_one_located_problem_quickly_in_bounded_memory(tmp_path: Path, case: str) -> None:
    root = make(tmp_path, case)
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, "--partial", "--no-coverage", "--root", str(root)],
        capture_output=True,
        text=True,
        cwd=catalog.ROOT,
        timeout=TIME_CAP,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 1, done.stderr[-2000:]
    expected = CASES[case][2]
    assert len(done.stdout.splitlines()) == 1, done.stdout
    assert done.stdout.startswith(expected), f"expected {expected!r}, got {done.stdout!r}"


def test_the_limits_leave_room_for_real_files(tmp_path: Path) -> None:
    """Just under each limit still loads: the caps refuse bombs, not big honest files."""
    from macros.load import yamlsource

    path = tmp_path / "big.yaml"
    depth = yamlsource.MAX_DEPTH - 1
    path.write_text("x: " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    assert yamlsource.read(path, "big.yaml").problems == []
    items = yamlsource.MAX_NODES // 2 - 10
    path.write_text("x: &a [" + ", ".join(["1"] * items) + "]\ny: *a\n", encoding="utf-8")
    assert yamlsource.read(path, "big.yaml").problems == []
