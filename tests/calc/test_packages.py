"""The two browser packages (`calc.packages`): every module in exactly one, and `calc` alone answers
every calculator but the forecast, and stat blocks, with `calc-fight`'s modules unavailable (a
meta-path blocker in a fresh CPython)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from calc import browser, packages
from calc.browser import package_needed

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import wheel_backend  # noqa: E402

BLOCKED = r"""
import importlib.abc, json, sys
from calc import browser, packages

class Blocker(importlib.abc.MetaPathFinder):
    '''calc-fight is not installed: none of its modules can be imported.'''
    def find_spec(self, name, path=None, target=None):
        if name.startswith("calc.") and packages.package_of(name) == packages.FIGHT:
            raise ModuleNotFoundError(f"No module named {name!r} (calc-fight blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
import calc.browser

answered, refused = [], []
for request in json.load(sys.stdin):  # made beforehand, with every package (tests/node/cpython_answers.py)
    text = json.dumps(request)
    if calc.browser.package_needed(text) == packages.FIGHT:
        try:
            calc.browser.evaluate_json(text)
        except ModuleNotFoundError:
            refused.append(request.get("calculator") or request.get("kind"))
        continue
    reply = json.loads(calc.browser.evaluate_json(text))
    answered.append([request.get("calculator") or request.get("kind"), "result" in reply, request.get("inputs") == {}])
loaded = sorted(m for m in sys.modules if m.startswith("calc") and packages.package_of(m) == packages.FIGHT)
print(json.dumps({"answered": answered, "refused": refused, "loaded": loaded}))
"""


def test_every_module_is_in_exactly_one_package() -> None:
    files = wheel_backend.package_files()
    shipped = {name: wheel_backend.package_files(name) for name in packages.PACKAGES}
    together = [f for name in packages.PACKAGES for f in shipped[name]]
    assert sorted(together) == sorted(files), "a file is in no package or in both"
    fight = {packages.module_of(f.relative_to(ROOT).as_posix()) for f in shipped[packages.FIGHT]}
    for pattern in packages.FIGHT_MODULES:  # no pattern that matches nothing (a renamed module)
        assert any(packages.package_of(m) == packages.FIGHT and _matches(m, pattern) for m in fight), pattern
    assert {"calc.fight", "calc.forecast.chain", "calc.systems.countup.forecast", "calc.systems.phases.fight"} <= fight
    assert {"calc.turns.tracker", "calc.systems.phases.turns", "calc.__main__"} <= fight
    assert not fight & {"calc", "calc.browser", "calc.packages", "calc.systems.countup", "calc.chains.rounds"}


def _matches(module: str, pattern: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase(module, pattern)


def test_wheels_partition_the_package(tmp_path: Path) -> None:
    names = {}
    for name in packages.PACKAGES:
        wheel = tmp_path / wheel_backend.build_wheel(str(tmp_path), {"package": name})
        with zipfile.ZipFile(wheel) as whl:
            names[name] = {n for n in whl.namelist() if n.startswith("calc/")}
        assert wheel.name.startswith(name.replace("-", "_") + "-")
    assert not names["calc"] & names["calc-fight"]
    assert "calc/rules.json" in names["calc"] and "calc/fight/__init__.py" in names["calc-fight"]
    assert "calc/systems/countup/__init__.py" in names["calc"]
    assert "calc/systems/countup/forecast.py" in names["calc-fight"]


@pytest.mark.parametrize(
    ("request_", "package"),
    [
        ({"kind": "fight", "system": "countup", "state": None, "action": {}}, "calc-fight"),
        ({"kind": "forecast", "system": "countup", "state": {}}, "calc-fight"),
        ({"kind": "before", "system": "countup"}, "calc-fight"),
        ({"system": "phases", "calculator": "forecast", "inputs": {}, "form": True}, "calc-fight"),
        ({"kind": "turns", "op": "dice", "system": "countup"}, "calc-fight"),
        ({"kind": "statblock", "system": "countup", "text": ""}, "calc"),
        ({"system": "phases", "calculator": "round", "inputs": {}}, "calc"),
        ([], "calc"),
    ],
)
def test_package_needed(request_: object, package: str) -> None:
    assert package_needed(json.dumps(request_)) == package


def test_package_needed_of_bad_text_is_the_base() -> None:
    assert package_needed("{not json") == "calc"


def test_base_package_answers_without_the_fight_package() -> None:
    sys.path.insert(0, str(ROOT / "tests" / "node"))
    from cpython_answers import requests

    run = subprocess.run(
        [sys.executable, "-c", BLOCKED],
        input=json.dumps(requests()),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["loaded"] == []
    names = {name for name, _, _ in out["answered"]}
    assert {"hit", "damage", "round", "initiative", "statblock"} <= names
    assert not names & {"forecast", "turns"}
    assert all(ok for _, ok, defaults in out["answered"] if defaults)  # every calculator at its defaults
    assert out["refused"].count("forecast") >= 5  # the blocker works: the forecast needs calc-fight
    assert "turns" in out["refused"]  # and so does the tracker's round


def test_each_request_kind_is_dispatched_and_names_its_package_in_one_table(monkeypatch) -> None:
    """browser.KINDS is the one list of request kinds: evaluate_json calls its handler and
    package_needed reads its package (no second list in calc.packages)."""
    assert not hasattr(packages, "FIGHT_KINDS")
    for kind, (_handler, package) in browser.KINDS.items():
        assert package_needed(json.dumps({"kind": kind})) == package
        monkeypatch.setitem(browser.KINDS, kind, (lambda request: {"handled": request["kind"]}, package))
        assert json.loads(browser.evaluate_json(json.dumps({"kind": kind}))) == {"result": {"handled": kind}}
    assert package_needed(json.dumps({"kind": ["fight"]})) == "calc"  # not a kind: a calculator request
