"""Shared by every test: export calc/rules.json from rules_data/ before collection, so the engines
and the tests read the data under test (systems with data problems are left out of the export;
tests/data/ names their problems), and run every browser test in Debian's Chromium."""

from __future__ import annotations

import pytest
from hypothesis import settings

from macros import export

# Property tests check answers, not speed (speed is measured by the benchmarks): Hypothesis's
# default 200 ms deadline per example made them fail on a loaded 2-core machine.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


def pytest_sessionstart(session) -> None:
    export.write()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Playwright cannot download browsers here: pytest-playwright's `browser` is Debian's Chromium.
    (One Playwright instance for the whole session: a second sync_playwright() would clash.)"""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [*browser_type_launch_args.get("args", []), "--disable-dev-shm-usage"],
    }
