"""The stat-block grammar (`statblock.yaml`), the built-in presets (`presets.yaml`) and the
encounters (`encounters.yaml`) of a system: their cross-checks (every input, rule, fact, preset
and source line they name exists) and the presets' and encounters' values as exported
(`macros.export` takes them from here), each stat block read by the system's own grammar
(`calc.inputs.statblock`, the same reader the paste box uses) on the system's engine view."""

from __future__ import annotations

from typing import Any

from calc.errors import CalcError
from calc.inputs import statblock
from macros.check.values import value_problem
from macros.load.catalog import System, sources_dir
from macros.load.engine_view import engine_view
from macros.load.problems import Problem, suggest

PARTS = {
    "integer": {"value"},
    "hit-dice": {"count", "bonus"},
    "hit-points": set(),
    "dice": {"value"},
    "choice": {"value"},
    "routine": {"value"},
    "weapon": {"bonus", "dice", "name"},
    "critical": {"threshold", "multiplier"},
    "flag": {"value"},
    "text": {"value"},
}
"""The parts of each kind of value a field's `sets` may name."""


def check_statblock(system: System, exported: dict[str, Any], out: list[Problem]) -> None:
    spec = system.extra.get("statblock")
    if not isinstance(spec, dict):
        return
    where = system.where[("statblock", "statblock")]
    decls = statblock.declarations(exported)

    def rule(rule_id: str, *path: str | int) -> None:
        if rule_id not in system.rules:
            out.append(where.problem(f"no rule '{rule_id}'{suggest(rule_id, system.rules)}", *path))

    rule(spec["rule"], "rule")
    ids: set[str] = set()
    for i, field in enumerate(spec["fields"]):
        if field["id"] in ids:
            out.append(where.problem(f"duplicate field id '{field['id']}'", "fields", i, "id"))
        ids.add(field["id"])
        rule(field["rule"], "fields", i, "rule")
        for part, targets in (field.get("sets") or {}).items():
            if part not in PARTS[field["value"]]:
                allowed = ", ".join(sorted(PARTS[field["value"]])) or "none"
                out.append(
                    where.problem(
                        f"a {field['value']} value has no part '{part}' (parts: {allowed})", "fields", i, "sets", part
                    )
                )
            for target in targets if isinstance(targets, list) else [targets]:
                if target not in decls:
                    out.append(
                        where.problem(
                            f"no calculator input '{target}'{suggest(target, decls)}", "fields", i, "sets", part
                        )
                    )
                elif field["value"] == "choice" and decls[target]["type"] != "choice":
                    out.append(where.problem(f"'{target}' is not a choice input", "fields", i, "sets", part))
        if field["value"] == "choice" and not field.get("sets"):
            out.append(
                where.problem("a choice field names the input whose options it reads (sets: {value: …})", "fields", i)
            )
        for name, value in (field.get("also") or {}).items():
            problem = value_problem(system, decls[name], value) if name in decls else f"no calculator input '{name}'"
            if problem:
                out.append(where.problem(problem, "fields", i, "also", name))
    hp = spec.get("hit_points")
    if hp:
        rule(hp["rule"], "hit_points", "rule")
        if hp["input"] not in decls:
            out.append(where.problem(f"no calculator input '{hp['input']}'", "hit_points", "input"))
        dice = hp.get("from_hit_dice")
        if dice:
            kinds = {f["id"]: f["value"] for f in spec["fields"]}
            if kinds.get(dice["field"]) != "hit-dice":
                out.append(
                    where.problem(
                        f"no hit-dice field '{dice['field']}' in fields", "hit_points", "from_hit_dice", "field"
                    )
                )
            fact = (system.rules.get(dice["rule"]) or {}).get("facts", {}).get(dice["fact"])
            if not fact or fact.get("kind") != "dice":
                out.append(
                    where.problem(
                        f"no dice fact '{dice['fact']}' in rule '{dice['rule']}'", "hit_points", "from_hit_dice", "fact"
                    )
                )


def presets(system: System, exported: dict[str, Any], out: list[Problem] | None = None) -> list[dict[str, Any]]:
    """The built-in presets as exported: `{id, name, role, values, rule: {id, title, url}, source:
    {file, lines, quote}}`; with `out`, every problem found is added to it (and the preset left out)."""
    entries = system.extra.get("presets")
    if not isinstance(entries, list):
        return []
    where = system.where[("presets", "presets")]
    problems: list[Problem] = [] if out is None else out
    decls = statblock.declarations(exported)
    lines = _source_lines(system)
    result, seen = [], set()
    for i, p in enumerate(entries):
        bad = len(problems)
        if p["id"] in seen:
            problems.append(where.problem(f"duplicate preset id '{p['id']}'", i, "id"))
        seen.add(p["id"])
        if p["rule"] not in system.rules:
            problems.append(where.problem(f"no rule '{p['rule']}'{suggest(p['rule'], system.rules)}", i, "rule"))
        values: dict[str, Any] = {}
        if "statblock" in p:
            try:
                read = statblock.parse(system.id, p["statblock"], hp="average", exported=exported)["fighters"]
            except CalcError as err:
                problems.append(where.problem(f"the stat block cannot be read: {err.reason}", i, "statblock"))
                read = []
            for fighter in read[:1]:
                values.update(fighter["values"])
                for r in fighter["rejected"]:
                    problems.append(where.problem(f"“{r['text']}” is not taken: {r['reason']}", i, "statblock"))
                for n in fighter["notes"]:
                    if n["text"] not in p["name"] and n["text"].lower() not in p["statblock"].split(":")[0].lower():
                        problems.append(where.problem(f"“{n['text']}” is not a field of the grammar", i, "statblock"))
        for name, value in (p.get("values") or {}).items():
            problem = value_problem(system, decls[name], value) if name in decls else f"no calculator input '{name}'"
            if problem:
                problems.append(where.problem(problem, i, "values", name))
            values[name] = value
        a, b = p["source"]["lines"]
        if lines is not None:
            if not 1 <= a <= b <= len(lines):
                problems.append(
                    where.problem(f"lines {a}–{b} are outside the source text (1–{len(lines)})", i, "source", "lines")
                )
            elif p["source"]["quote"] not in " ".join(lines[a - 1 : b]):
                problems.append(
                    where.problem(f"“{p['source']['quote']}” is not printed in lines {a}–{b}", i, "source", "quote")
                )
        if len(problems) > bad or p["rule"] not in system.rules:
            continue
        rule = exported["rules"][p["rule"]]
        result.append(
            {
                "id": p["id"],
                "name": p["name"],
                "role": p["role"],
                "values": values,
                "rule": {"id": rule["id"], "title": rule["title"], "url": rule["url"]},
                "source": {"file": system.meta.get("source"), "lines": [a, b], "quote": p["source"]["quote"]},
            }
        )
    return result


def _source_lines(system: System) -> list[str] | None:
    name = system.meta.get("source")
    path = sources_dir() / name if isinstance(name, str) else None
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="utf-8").splitlines()


def encounters(
    system: System, exported: dict[str, Any], built: list[dict[str, Any]], out: list[Problem] | None = None
) -> list[dict[str, Any]]:
    """The encounters as exported: `{id, title, text, rule, foes: [{name, side, values}]}`, each
    foe's values from a built-in preset or read from its stat block (hit points averaged), a
    count made into numbered foes. With `out`, problems are added and the encounter left out."""
    entries = system.extra.get("encounters")
    if not isinstance(entries, list):
        return []
    where = system.where[("encounters", "encounters")]
    problems: list[Problem] = [] if out is None else out
    by_id = {p["id"]: p for p in built}
    result = []
    for i, enc in enumerate(entries):
        bad = len(problems)
        if enc.get("rule") and enc["rule"] not in system.rules:
            problems.append(where.problem(f"no rule '{enc['rule']}'{suggest(enc['rule'], system.rules)}", i, "rule"))
        foes: list[dict[str, Any]] = []
        for j, foe in enumerate(enc["foes"]):
            count = foe.get("count", 1)
            if "preset" in foe:
                preset = by_id.get(foe["preset"])
                if preset is None:
                    problems.append(
                        where.problem(
                            f"no preset '{foe['preset']}'{suggest(foe['preset'], by_id)}", i, "foes", j, "preset"
                        )
                    )
                    continue
                side = foe.get("side") or ("pc" if preset["role"] == "attacker" else "foe")
                read = [{"name": preset["name"], "values": preset["values"]}] * count
            else:
                try:
                    read = (
                        statblock.parse(system.id, foe["statblock"], hp="average", exported=exported)["fighters"]
                        * count
                    )
                except CalcError as err:
                    problems.append(
                        where.problem(f"the stat block cannot be read: {err.reason}", i, "foes", j, "statblock")
                    )
                    continue
                side = foe.get("side") or "foe"
            for k, f in enumerate(read):
                name = f"{f['name']} {k + 1}" if count > 1 else f["name"]
                foes.append({"name": name[:40], "side": side, "values": f["values"]})
        if len(problems) == bad:
            rule = exported["rules"].get(enc.get("rule") or "")
            result.append(
                {
                    "id": enc["id"],
                    "title": enc["title"],
                    "text": enc.get("text", ""),
                    "rule": {"id": rule["id"], "title": rule["title"], "url": rule["url"]} if rule else None,
                    "foes": foes,
                }
            )
    return result


def check(system: System, out: list[Problem]) -> None:
    """The three files' cross-checks (called by macros.check.crossref.check)."""
    if not system.extra:
        return
    exported = engine_view(system)
    check_statblock(system, exported, out)
    if not any(p.file.endswith("statblock.yaml") for p in out):
        built = presets(system, exported, out)
        encounters(system, exported, built, out)
