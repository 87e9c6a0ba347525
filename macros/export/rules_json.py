"""`calc/rules.json`, the data the engines read (format in CONTRIBUTING.md): every system of the
checked catalog without problems, each as the engines read it (`macros.load.engine_view`) with its
built-in presets and encounters (read by `macros.check.builtins`), versioned by a hash of it all.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from macros.check import builtins, loader
from macros.load.catalog import ROOT, Catalog, System
from macros.load.engine_view import engine_view

OUTPUT = ROOT / "calc" / "rules.json"


def export_system(system: System) -> dict[str, Any]:
    """One system as exported: its engine view with the built-in presets and encounters."""
    out = engine_view(system)
    out["presets"] = builtins.presets(system, out)
    out["encounters"] = builtins.encounters(system, out, out["presets"])
    out["encounters_note"] = system.extra.get("encounters_note")
    return out


def exported(cat: Catalog, skip: set[str] = frozenset()) -> dict[str, Any]:
    """The whole export, versioned by a hash of its content."""
    systems = {sid: export_system(s) for sid, s in cat.systems.items() if sid not in skip}
    body = json.dumps(systems, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return {"version": hashlib.sha256(body.encode()).hexdigest()[:12], "systems": systems}


def write(output: Path = OUTPUT) -> tuple[Catalog, dict[str, Any], set[str]]:
    """Export the systems without problems to `output` (rewritten only when it changes)."""
    cat = loader.load()
    broken = {sid for sid in cat.systems if any(p.file.startswith(f"rules_data/{sid}/") for p in cat.problems)}
    data = exported(cat, broken)
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"
    if not output.exists() or output.read_text(encoding="utf-8") != text:
        output.write_text(text, encoding="utf-8")
    return cat, data, broken
