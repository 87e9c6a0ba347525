"""Read `rules_data/` into a `macros.load.catalog.Catalog`: every YAML file with its line map,
schema-checked, indexed by id, `inputs_from` and `fields_from` expanded. What this stage finds
wrong (a file unread, a schema violation, a duplicate id, a missing file) becomes a located
problem of the catalog; the cross-checks are the next stage's (`macros.check.loader.load`, which
everything that reads the data calls).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from macros.load import schema
from macros.load.catalog import ROOT, Catalog, System, Where
from macros.load.problems import Problem, suggest
from macros.load.yamlsource import Source, read

# Files other than rules*.yaml: name → schema kind. A missing optional file means "none".
OPTIONAL_FILES = {"tables.yaml": "tables", "rulings.yaml": "rulings", "glossary.yaml": "glossary"}
# Optional files read whole (not indexed by id): name → schema kind, kept as `System.extra[kind]`.
WHOLE_FILES = {"statblock.yaml": "statblock", "presets.yaml": "presets", "encounters.yaml": "encounters"}


def read_catalog(root: Path = ROOT, *, complete: bool = False) -> Catalog:
    """Read and schema-check `root/rules_data/`.

    A system is a folder holding a `system.yaml`; systems come in the order their `order` field
    gives (then by id). `complete=True` also requires at least one system.
    """
    data_dir = root / "rules_data"
    problems: list[Problem] = []
    systems: dict[str, System] = {}
    folders = sorted(p for p in data_dir.iterdir() if p.is_dir() and p.name != "schema") if data_dir.is_dir() else []
    for folder in folders:
        system = _load_system(folder, root, problems)
        systems[system.id] = system
    if complete and not systems:
        problems.append(Problem("rules_data/", 1, "", "no system folders (each needs a system.yaml)"))
    ordered = sorted(systems.values(), key=lambda s: (s.order, s.id))
    return Catalog(root, {s.id: s for s in ordered}, sorted(set(problems)))


def _read(path: Path, root: Path, kind: str, system: System, problems: list[Problem]) -> Source:
    source = read(path, path.relative_to(root).as_posix())
    system.files.append(source)
    problems.extend(source.problems)
    if source.problems:
        system.schema_ok = False
        return source
    found = schema.validate(source, kind)
    if found:
        system.schema_ok = False
        problems.extend(found)
    return source


def _load_system(folder: Path, root: Path, problems: list[Problem]) -> System:
    system = System(folder.name, folder)
    meta_path = folder / "system.yaml"
    if meta_path.exists():
        meta = _read(meta_path, root, "system", system, problems)
        if isinstance(meta.data, dict):
            system.meta = meta.data
            system.where[("system", system.id)] = Where(meta, ())
    else:
        problems.append(Problem(f"rules_data/{folder.name}/system.yaml", 1, "", "missing file"))
        system.schema_ok = False
    rule_files = sorted(folder.glob("rules*.yaml"), key=lambda p: (p.name != "rules.yaml", p.name))
    if not rule_files:
        problems.append(Problem(f"rules_data/{folder.name}/rules.yaml", 1, "", "missing file"))
    for path in rule_files:
        source = _read(path, root, "rules", system, problems)
        _index(system, source, "sections", "section", system.sections, problems)
        _index(system, source, "rules", "rule", system.rules, problems)
    for name, kind in OPTIONAL_FILES.items():
        if (folder / name).exists():
            source = _read(folder / name, root, kind, system, problems)
            key = {"glossary": "terms"}.get(kind, kind)
            _index(
                system,
                source,
                key,
                kind.rstrip("s") if kind != "glossary" else "term",
                {"tables": system.tables, "rulings": system.rulings, "glossary": system.terms}[kind],
                problems,
            )
    calc_path = folder / "calculators.yaml"
    if calc_path.exists():
        source = _read(calc_path, root, "calculators", system, problems)
        calcs = source.data.get("calculators") if isinstance(source.data, dict) else None
        if isinstance(calcs, dict):
            for name, calc in calcs.items():
                if isinstance(calc, dict):
                    system.calculators[name] = calc
                    system.where[("calculator", name)] = Where(source, ("calculators", name))
            _expand_inputs_from(system, source, problems)
            _expand_fields_from(system, source, problems)
        tracker = source.data.get("tracker") if isinstance(source.data, dict) else None
        if isinstance(tracker, dict):
            system.tracker = tracker
            system.where[("tracker", "tracker")] = Where(source, ("tracker",))
    else:
        problems.append(Problem(f"rules_data/{folder.name}/calculators.yaml", 1, "", "missing file"))
    for name, kind in WHOLE_FILES.items():
        if (folder / name).exists():
            source = _read(folder / name, root, kind, system, problems)
            if isinstance(source.data, dict) and isinstance(source.data.get(kind), (dict, list)):
                system.extra[kind] = source.data[kind]
                system.where[(kind, kind)] = Where(source, (kind,))
            if kind == "encounters" and isinstance(source.data, dict) and isinstance(source.data.get("note"), str):
                system.extra["encounters_note"] = source.data["note"]  # what the text gives (or not)
    for other in folder.glob("*.yaml"):
        known = (
            other.name in OPTIONAL_FILES
            or other.name in WHOLE_FILES
            or other.name in ("system.yaml", "calculators.yaml")
        )
        if not known and not other.name.startswith("rules"):
            shown = other.relative_to(root).as_posix()
            problems.append(Problem(shown, 1, "", "unknown file (see rules_data/README.md for the file names)"))
    return system


def _expand_inputs_from(system: System, source: Source, problems: list[Problem]) -> None:
    """A calculator with `inputs_from: <other>` takes the other calculator's inputs first, then its
    own: one attack's hit and damage come from one set of inputs typed once. The copies leave out
    `ruling` (a ruling's option names one calculator's input). Only one level: the other calculator
    must declare its inputs itself."""
    for name, calc in list(system.calculators.items()):
        other = calc.get("inputs_from")
        if other is None or not isinstance(calc.get("inputs"), list):
            continue
        path = ("calculators", name, "inputs_from")
        base = system.calculators.get(other)
        if other == name:
            problems.append(source.problem(path, "a calculator cannot take its inputs from itself"))
            continue
        if base is None:
            hint = suggest(str(other), system.calculators)
            problems.append(source.problem(path, f"no calculator '{other}'{hint} to take the inputs from"))
            continue
        if "inputs_from" in base:
            problems.append(source.problem(path, f"calculator '{other}' takes its inputs from another: name that one"))
            continue
        if not isinstance(base.get("inputs"), list):
            continue
        copied = [{k: v for k, v in d.items() if k != "ruling"} for d in base["inputs"] if isinstance(d, dict)]
        system.calculators[name] = {**calc, "inputs": [*copied, *calc["inputs"]]}
        system.inherited[name] = len(copied)


FIELD_KEYS_LEFT_OUT = ("ruling", "was", "range_note")
"""A list's `fields_from` copies keep what validates a value (type, range, options, `when`, role)
and leave out what names the input itself: a ruling's option, an older link's name."""


def _expand_fields_from(system: System, source: Source, problems: list[Problem]) -> None:
    """A list input with `fields_from: [names]` takes those inputs of its own calculator as its
    fields, under the same names (the round calculator's `attackers`: each entry is one attacker
    with the inputs one attacker has). Every `role: attacker` input of the calculator must be
    named, so an entry holds the whole attacker. A name `other.input` copies another calculator's
    input (the forecast's fighters hold the round calculator's); written `fields` come first."""
    for name, calc in system.calculators.items():
        decls = calc.get("inputs")
        if not isinstance(decls, list):
            continue
        own = [d for d in decls if isinstance(d, dict)]
        by_name = {d.get("name"): d for d in own}
        at = system.inherited.get(name, 0)
        for i, decl in enumerate(own):
            names = decl.get("fields_from")
            if not isinstance(names, list):
                continue
            path = ("calculators", name, "inputs", i - at, "fields_from")
            written = decl.get("fields")
            fields = list(written) if isinstance(written, list) else []
            for j, field in enumerate(names):
                other = _input_named(system, by_name, str(field))
                if other is None or other is decl:
                    where, _, short = str(field).rpartition(".")
                    pool = by_name if not where else _inputs_by_name(system.calculators.get(where))
                    hint = suggest(short, [n for n in pool if n != decl.get("name")])
                    what = f"calculator '{where}'" if where else "this calculator"
                    problems.append(source.problem((*path, j), f"no input '{short}'{hint} in {what}"))
                    continue
                fields.append({k: v for k, v in other.items() if k not in FIELD_KEYS_LEFT_OUT})
            missing = [d["name"] for d in own if d.get("role") == "attacker" and d["name"] not in names]
            if missing:
                problems.append(
                    source.problem(path, f"an attacker's inputs must all be fields: add {', '.join(missing)}")
                )
            decl["fields"] = fields


def _inputs_by_name(calc: Any) -> dict[str, dict]:
    decls = calc.get("inputs") if isinstance(calc, dict) else None
    return {d.get("name"): d for d in decls if isinstance(d, dict)} if isinstance(decls, list) else {}


def _input_named(system: System, own: dict[str, dict], name: str) -> dict | None:
    """`input` of the calculator itself, or `calculator.input` of another one."""
    where, _, short = name.rpartition(".")
    return own.get(short) if not where else _inputs_by_name(system.calculators.get(where)).get(short)


def _index(system: System, source: Source, key: str, kind: str, into: dict[str, dict], problems: list[Problem]) -> None:
    entries = source.data.get(key) if isinstance(source.data, dict) else None
    if not isinstance(entries, list):
        return
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        ident = entry["id"]
        if ident in into:
            first = system.where[(kind, ident)]
            line = first.source.line(first.path)
            problems.append(
                source.problem((key, i, "id"), f"duplicate {kind} id '{ident}' (first at {first.source.file}:{line})")
            )
            continue
        into[ident] = entry
        system.where[(kind, ident)] = Where(source, (key, i))
