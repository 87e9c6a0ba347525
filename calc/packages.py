"""Which of the two browser packages holds each `calc` module, and what a request needs of them.

A calculator page (hit, damage, round, …) needs none of the tracker's fight engine (`calc.fight`)
nor the fight forecast (`calc.forecast`, each system's `forecast` and `fight` modules): they
are half the wheel's bytes and most of its import time. So the site ships two wheels built from
this one source tree (tools/wheel_backend.py reads `package_of`): `calc`, everything else, and
`calc-fight`, the modules `FIGHT_MODULES` matches, its files still under `calc/…` so imports are
unchanged. The browser worker loads `calc-fight` before the first request `calc.browser.
package_needed` names it for; a page that will need it says so in its head (tools/module_preload.py,
`page_packages`) so the worker fetches it at once. A system's engine reaches its `forecast` and
`FIGHT`, `TURNS` and `RESOLVE` through `lazy` and `lazy_attribute`, so `import calc.systems.<id>`
needs only `calc`.
"""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase
from importlib import import_module
from typing import Any

BASE = "calc"
FIGHT = "calc-fight"
PACKAGES = (BASE, FIGHT)

FIGHT_MODULES = (
    "calc.fight",
    "calc.fight.*",
    "calc.forecast",
    "calc.forecast.*",
    "calc.systems.*.fight",
    "calc.systems.*.forecast",
    "calc.systems.*.resolve",
    "calc.turns.tracker",
    "calc.turns.helpers",
    "calc.systems.*.turns",
    "calc.__main__",
    "calc.benchmark",
    "calc.fight_bench",
)
"""The modules of `calc-fight` (fnmatch patterns of dotted names): the tracker's fight engine and its
round (`calc.turns.tracker`), the fight forecast, each system's own modules of them (`fight`,
`forecast`, `turns`, and `resolve`: an attack resolved at the table), and what no calculator page
runs (the command line; the benchmarks: `calc.fight_bench` times the tracker's requests,
`calc.benchmark` the forecast too). Nothing in `calc` imports them at import time
(tests/calc/test_packages.py)."""

FIGHT_CALCULATORS = ("forecast",)
"""The calculators whose engine is in `calc-fight` (every system's `forecast`). The other requests'
kinds name their package in `calc.browser.KINDS`, beside their handlers."""


def package_of(module: str) -> str:
    """The package that ships `module` (a dotted name under `calc`)."""
    return FIGHT if any(fnmatchcase(module, pattern) for pattern in FIGHT_MODULES) else BASE


def module_of(path: str) -> str:
    """The dotted module name of a file path inside the package (`calc/fight/view.py`,
    `calc/systems/countup/__init__.py`); a data file (`calc/rules.json`) is its package's."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__" or not path.endswith(".py"):
        parts = parts[:-1]
    return ".".join(parts)


def page_packages(tracker: bool, calculators: list[str]) -> list[str]:
    """The packages a page will certainly ask for beyond `calc`: a tracker's, and a page holding a
    forecast calculator's (tools/module_preload.py writes them into the page's head)."""
    return [FIGHT] if tracker or any(c in FIGHT_CALCULATORS for c in calculators) else []


class lazy:  # noqa: N801 - stands for a function
    """A calculator `module.name` imported at its first call, so that the engine that lists it
    imports it only when asked (the forecast's engine lives in `calc-fight`)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name
        self.__name__ = self.__qualname__ = name
        self.__doc__ = f"`{module}.{name}`, imported at its first call."

    def __call__(self, inputs: dict[str, Any], data: Any, /) -> dict[str, Any]:
        engine: Callable[[dict[str, Any], Any], dict[str, Any]] = getattr(import_module(self.module), self.name)
        return engine(inputs, data)


def lazy_attribute(package: str, attributes: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` (PEP 562) for `package`: each name of `attributes` is what its value
    names, imported at the first access: `"fight.FIGHT"` is `package.fight.FIGHT`, `"turns"` the
    submodule `package.turns` itself."""

    def __getattr__(name: str) -> Any:
        if name not in attributes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = attributes[name].partition(".")
        found = import_module(f"{package}.{module}")
        return getattr(found, attribute) if attribute else found

    return __getattr__
