"""The rulings a fight reads: which ruling inputs it offers (the initiative calculator's options and
the tracker's `rulings:`), the GM's stored choices checked and typed, and the part of them the
round's initiative takes. Its own module because the state (which stores them) and the rounds
(which order by them) both read it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.errors import InputError
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

_CACHE: dict[tuple[str, str, int], Any] = {}
"""Declarations worked out once per system's data (the data never changes while it is loaded)."""


def cached(kind: str, data: SystemData, make: Any) -> Any:
    key = (kind, data.id, id(data.raw))
    if key not in _CACHE:
        _CACHE[key] = (make(data), data.raw)  # the data kept alive, so its id is never reused
    return _CACHE[key][0]


def ruling_declarations(data: SystemData) -> list[dict[str, Any]]:
    """Every ruling input the fight reads: the initiative calculator's options (as `calc.turns.tracker`
    takes them) and the tracker's `rulings:` (inputs of other calculators, same names)."""
    return cached("rulings", data, _ruling_declarations)


def _ruling_declarations(data: SystemData) -> list[dict[str, Any]]:
    spec = tracker(data)
    own = set(systems.engine(data.id).TURNS.ROUND_INPUTS)
    decls = [d for d in data.calculator(spec["calculator"])["inputs"] if d["type"] != "list" and d["name"] not in own]
    names = {d["name"] for d in decls}
    for decl in spec.get("rulings", []):
        if decl["name"] not in names:
            decls.append({k: v for k, v in decl.items() if k not in ("calculator", "input")})
            names.add(decl["name"])
    return decls


def typed_options(data: SystemData, stored: Mapping[str, Any]) -> dict[str, Any]:
    """Every ruling input's value: the stored choice or the data's default."""
    return {
        d["name"]: declared.value(d, stored.get(d["name"]), f"options.{d['name']}") for d in ruling_declarations(data)
    }


def initiative_options(data: SystemData, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options `calc.turns.tracker` takes (the initiative calculator's; the tracker's own rulings left out)."""
    names = {d["name"] for d in data.calculator(tracker(data)["calculator"])["inputs"]}
    return {k: v for k, v in options.items() if k in names}


def checked_options(data: SystemData, raw: Any, where: str = "options") -> dict[str, Any]:
    """The stored choices: known ruling inputs only, typed, those equal to the default dropped."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be an object of ruling inputs")
    decls = {d["name"]: d for d in ruling_declarations(data)}
    out = {}
    for key, value in raw.items():
        if key not in decls:
            raise InputError(f"{where}.{key}", f"is no ruling here (rulings: {', '.join(sorted(decls))})")
        typed = declared.value(decls[key], value, f"{where}.{key}")
        if typed != declared.value(decls[key], None, key):
            out[key] = typed
    return out
