"""Checks the schema cannot express: every id a field names exists, every `[[...]]` resolves,
ruling options and examples point at real calculator inputs, and table cells match their columns.
Each dangling id comes with the nearest known id as a suggestion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.errors import CalcError
from calc.inputs import declared
from macros import builtins, cells, screen
from macros.catalog import RULING_PREFIX, Catalog, System, Where, sources_dir
from macros.markup import MarkupError, refs
from macros.problems import Problem, suggest

RESERVED_PAGES = {"index", "rulings", "glossary", "gm-screen", "calculators", "compare"}


def check(system: System, catalog: Catalog, *, complete: bool = False) -> list[Problem]:
    """Every cross-reference problem of `system`.

    When a file broke its schema, a check that trips over the malformed entry is given up (its
    schema problem is already reported) while the other checks still run, so one run reports as
    much as it can.
    """
    out: list[Problem] = []
    checks = [
        lambda: _check_meta(system, catalog, out, complete),
        lambda: _check_gm_screen(system, out),
        lambda: _check_sections_and_rules(system, catalog, out),
        lambda: _check_tables(system, catalog, out, complete),
        lambda: _check_rulings(system, catalog, out),
        lambda: _check_terms(system, catalog, out),
        lambda: _check_calculators(system, catalog, out, complete),
        lambda: _check_tracker(system, out, complete),
        lambda: _check_roles(system, out),
        lambda: builtins.check(system, out),
    ]
    for run in checks:
        try:
            run()
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            if system.schema_ok:
                raise
    return out


def _ref(where: Where, field: tuple, kind: str, wanted: str, known: dict, what: str | None = None) -> Problem | None:
    if wanted in known:
        return None
    return where.problem(f"no {what or kind} '{wanted}'{suggest(wanted, known)}", *field)


def _prose(system: System, catalog: Catalog, where: Where, field: tuple, text: Any, out: list[Problem]) -> None:
    """Check the `[[...]]` references of one prose field."""
    if not isinstance(text, str):
        return
    source, path = where.source, (*where.path, *field)
    for ref in refs(text):
        if isinstance(ref, MarkupError):
            out.append(source.problem(path, str(ref), source.line_at(path, text, ref.offset)))
            continue
        line = source.line_at(path, text, ref.start)
        target = catalog.systems.get(ref.system) if ref.system else system
        if target is None:
            known = catalog.systems
            out.append(
                source.problem(
                    path,
                    f"[[{ref.kind}:{ref.system}/{ref.id}]]: no system '{ref.system}'{suggest(ref.system or '', known)}",
                    line,
                )
            )
            continue
        index = {"term": target.terms, "rule": target.rules, "ruling": target.rulings, "table": target.tables}[ref.kind]
        if ref.id not in index:
            shown = f"{ref.system}/{ref.id}" if ref.system else ref.id
            out.append(
                source.problem(
                    path,
                    f"[[{ref.kind}:{shown}]]: no {ref.kind} '{ref.id}' in {target.id}{suggest(ref.id, index)}",
                    line,
                )
            )


def _check_meta(system: System, catalog: Catalog, out: list[Problem], complete: bool) -> None:
    where = system.where.get(("system", system.id))
    if where is None:
        return
    meta = system.meta
    if meta.get("id") != system.id:
        out.append(where.problem(f"must be the folder name '{system.id}'", "id"))
    src = sources_dir(catalog.root)
    if src.is_dir() and not (src / meta.get("source", "")).is_file():
        out.append(where.problem(f"no file '{meta.get('source')}' in {src}", "source"))
    _prose(system, catalog, where, ("summary",), meta.get("summary"), out)
    seen: set[str] = set()
    for i, page in enumerate(system.pages):
        pid = page.get("id", "")
        if pid in seen:
            out.append(where.problem(f"duplicate page id '{pid}'", "pages", i, "id"))
        seen.add(pid)
        if pid in RESERVED_PAGES:
            out.append(where.problem(f"'{pid}' is reserved for a generated page", "pages", i, "id"))
        if not system.rules_on(pid):
            out.append(where.problem(f"page '{pid}' has no rules (no rule says `page: {pid}`)", "pages", i, "id"))
        _prose(system, catalog, where, ("pages", i, "summary"), page.get("summary"), out)
    for aspect, ref in (meta.get("comparison") or {}).items():
        if ref.startswith(RULING_PREFIX):
            problem = _ref(where, ("comparison", aspect), "ruling", ref[len(RULING_PREFIX) :], system.rulings)
        else:
            problem = _ref(where, ("comparison", aspect), "rule", ref, system.rules)
        if problem:
            out.append(problem)


def _check_gm_screen(system: System, out: list[Problem]) -> None:
    where = system.where.get(("system", system.id))
    if where is not None:
        out.extend(screen.check(system, where))


def _check_sections_and_rules(system: System, catalog: Catalog, out: list[Problem]) -> None:
    pages = {p.get("id") for p in system.pages}
    for sid, section in system.sections.items():
        first, last = section["lines"]
        if first > last:
            out.append(system.where[("section", sid)].problem(f"first line {first} is after last line {last}", "lines"))
    for rid, rule in system.rules.items():
        where = system.where[("rule", rid)]
        if rule["page"] not in pages:
            out.append(where.problem(f"no page '{rule['page']}' in system.yaml{suggest(rule['page'], pages)}", "page"))
        for i, sid in enumerate(rule["sources"]):
            problem = _ref(where, ("sources", i), "section", sid, system.sections)
            if problem:
                out.append(problem)
        if rid in system.tables:
            out.append(where.problem(f"rule and table share the id '{rid}' (both are anchors on the page)", "id"))
        for name in ("summary", "body"):
            _prose(system, catalog, where, (name,), rule.get(name), out)
        for i, example in enumerate(rule.get("examples") or []):
            _check_example(system, catalog, where, i, example, out)


def _check_example(system: System, catalog: Catalog, where: Where, i: int, example: dict, out: list[Problem]) -> None:
    field = ("examples", i)
    _prose(system, catalog, where, (*field, "text"), example.get("text"), out)
    name = example.get("calculator")
    if name is not None:
        calc = system.calculators.get(name)
        if calc is None:
            out.append(where.problem(f"no calculator '{name}' in calculators.yaml", *field, "calculator"))
        else:
            declared = {d.get("name"): d for d in calc.get("inputs", [])}
            for key in example.get("inputs") or {}:
                if key not in declared:
                    out.append(
                        where.problem(
                            f"calculator '{name}' has no input '{key}'{suggest(key, declared)}", *field, "inputs", key
                        )
                    )
    ruling = example.get("ruling")
    if ruling is not None:
        problem = _ref(where, (*field, "ruling"), "ruling", ruling, system.rulings)
        if problem:
            out.append(problem)


def _check_tables(system: System, catalog: Catalog, out: list[Problem], complete: bool) -> None:
    generators = _engine_attr(system, "TABLES") if complete else None
    for tid, table in system.tables.items():
        where = system.where[("table", tid)]
        problem = _ref(where, ("rule",), "rule", table["rule"], system.rules)
        if problem:
            out.append(problem)
        if "ruling" in table:
            problem = _ref(where, ("ruling",), "ruling", table["ruling"], system.rulings)
            if problem:
                out.append(problem)
        _prose(system, catalog, where, ("caption",), table.get("caption"), out)
        if "generator" in table:
            if isinstance(generators, str):
                out.append(where.problem(generators, "generator"))
            elif generators is not None and table["generator"] not in generators:
                out.append(
                    where.problem(
                        f"no generator '{table['generator']}' in {system.module}.TABLES"
                        f"{suggest(table['generator'], generators)}",
                        "generator",
                    )
                )
            continue
        columns = {c["id"]: c for c in table["columns"]}
        if len(columns) != len(table["columns"]):
            out.append(where.problem("duplicate column id", "columns"))
        for r, row in enumerate(table["rows"]):
            for key in row:
                if key not in columns:
                    out.append(where.problem(f"no column '{key}'{suggest(str(key), columns)}", "rows", r, key))
            for cid, column in columns.items():
                if cid not in row:
                    out.append(where.problem(f"missing cell '{cid}' (write null for an empty cell)", "rows", r))
                    continue
                why = cells.check(column["type"], row[cid])
                if why:
                    out.append(where.problem(why, "rows", r, cid))


def _engine_attr(system: System, name: str) -> dict | str:
    """The engine module's CALCULATORS or TABLES, or a message saying why it cannot be had."""
    try:
        engine = systems.engine(system.id)
    except Exception as err:  # any import failure is reported as data, not as a traceback
        return f"cannot import {system.module}: {type(err).__name__}: {err}"
    found = getattr(engine, name, None)
    if not isinstance(found, Mapping):
        return f"{system.module} has no {name} mapping"
    return dict(found)


def _check_rulings(system: System, catalog: Catalog, out: list[Problem]) -> None:
    readings: dict[str, set[str]] = {}
    for _rule, example in system.examples():
        if example.get("ruling"):
            readings.setdefault(example["ruling"], set()).add(example.get("reading", ""))
    for rid, ruling in system.rulings.items():
        where = system.where[("ruling", rid)]
        for i, rule_id in enumerate(ruling["applies_to"]):
            problem = _ref(where, ("applies_to", i), "rule", rule_id, system.rules)
            if problem:
                out.append(problem)
        for name in ("title", "ruling", "alternative"):
            _prose(system, catalog, where, (name,), ruling.get(name), out)
        option = ruling.get("option")
        if not option:
            continue
        calc = system.calculators.get(option["calculator"])
        if calc is None:
            out.append(where.problem(f"no calculator '{option['calculator']}'", "option", "calculator"))
            continue
        declared = {d.get("name"): d for d in calc.get("inputs", [])}
        decl = declared.get(option["input"])
        if decl is None:
            out.append(
                where.problem(
                    f"calculator '{option['calculator']}' has no input '{option['input']}'"
                    f"{suggest(option['input'], declared)}",
                    "option",
                    "input",
                )
            )
            continue
        if decl.get("ruling") != rid:
            out.append(where.problem(f"input '{option['input']}' must say `ruling: {rid}`", "option", "input"))
        for key in ("ruling_value", "alternative_value"):
            why = _input_value_problem(system, decl, option[key])
            if why:
                out.append(where.problem(why, "option", key))
        for reading in ("ruling", "alternative"):
            if reading not in readings.get(rid, set()):
                wanted = f"`ruling: {rid}` and `reading: {reading}`"
                out.append(where.problem(f"needs an example with {wanted} in rules.yaml", "option"))


def _check_terms(system: System, catalog: Catalog, out: list[Problem]) -> None:
    for tid, term in system.terms.items():
        where = system.where[("term", tid)]
        if "rule" in term:
            problem = _ref(where, ("rule",), "rule", term["rule"], system.rules)
            if problem:
                out.append(problem)
        _prose(system, catalog, where, ("definition",), term.get("definition"), out)


def _check_calculators(system: System, catalog: Catalog, out: list[Problem], complete: bool) -> None:
    engines = _engine_attr(system, "CALCULATORS") if complete else None
    for name, calc in system.calculators.items():
        where = system.where[("calculator", name)]
        if isinstance(engines, str):
            out.append(where.problem(engines))
        elif engines is not None and name not in engines:
            known = suggest(name, engines)
            out.append(where.problem(f"no engine '{name}' in {system.module}.CALCULATORS{known}"))
        problem = _ref(where, ("rule",), "rule", calc["rule"], system.rules)
        if problem:
            out.append(problem)
        _prose(system, catalog, where, ("summary",), calc.get("summary"), out)
        names: set[str] = set()
        # inputs copied by `inputs_from` come first and are checked where they are declared
        inherited = system.inherited.get(name, 0)
        for i, decl in enumerate(calc["inputs"]):
            own = i - inherited  # the index in this calculator's own `inputs`
            if own < 0:
                names.add(decl["name"])
                continue
            if decl["name"] in names:
                taken = f" (it comes from `inputs_from: {calc['inputs_from']}`)" if inherited else ""
                out.append(where.problem(f"duplicate input name '{decl['name']}'{taken}", "inputs", own, "name"))
            names.add(decl["name"])
            _check_input(system, where, ("inputs", own), decl, out)
            _check_when(system, where, i, decl, calc["inputs"][:i], out, own)
            why = _ruling_input_problem(system, name, decl) if "ruling" in decl else None
            if why:
                out.append(where.problem(why, "inputs", own, "ruling"))
        for block in ("stress", "stress_party"):
            for key, value in (calc.get(block) or {}).items():
                decl = next((d for d in calc["inputs"] if d["name"] == key), None)
                if decl is None:
                    out.append(where.problem(f"no input '{key}'{suggest(key, names)}", block, key))
                else:
                    why = _input_value_problem(system, decl, value)
                    if why:
                        out.append(where.problem(why, block, key))


def _ruling_input_problem(system: System, calculator: str, decl: dict) -> str | None:
    """Why an input's `ruling: <id>` is wrong; None when it is right. The input is that ruling's
    option: the one its `option` names, or the same option taken again by another calculator (the
    forecast reads the round's rulings for every fighter and cites each reading by this
    declaration), under the option's input name and with exactly its two readings as values."""
    rid = decl["ruling"]
    ruling = system.rulings.get(rid)
    if ruling is None:
        return f"no ruling '{rid}'{suggest(rid, system.rulings)}"
    option = ruling.get("option")
    if not option:
        return f"ruling '{rid}' has no `option`: no reading an input can choose"
    if (option.get("calculator"), option.get("input")) == (calculator, decl["name"]):
        return None
    if option.get("input") != decl["name"]:
        return (
            f"ruling '{rid}' has no `option` naming calculator '{calculator}' input '{decl['name']}' "
            f"(its option is '{option.get('input')}' of '{option.get('calculator')}')"
        )
    readings = {key: option.get(key) for key in ("ruling_value", "alternative_value")}
    for key, value in readings.items():
        why = _input_value_problem(system, decl, value)
        if why:
            return f"ruling '{rid}' option.{key} {value!r} is no value of this input: {why}"
    if decl.get("type") == "choice" and not _broken_options(system, decl):
        extra = [o["value"] for o in resolved_options(system, decl) if o["value"] not in readings.values()]
        if extra:
            return f"value(s) {', '.join(map(repr, extra))} are no reading of ruling '{rid}'"
    return None


def tracker_fields(system: System) -> tuple[dict | None, dict[str, dict]]:
    """The tracker's initiative list input and its fields by name (None, {} when it names none)."""
    spec = system.tracker or {}
    calc = system.calculators.get(spec.get("calculator", ""))
    listed = next((d for d in (calc or {}).get("inputs", []) if d["name"] == spec.get("list")), None)
    if not listed or listed.get("type") != "list":
        return None, {}
    return listed, {f["name"]: f for f in listed["fields"]}


def calculator_input(system: System, ref: dict) -> dict | None:
    """The declaration a tracker's `{calculator, input}` names, or None."""
    calc = system.calculators.get(ref.get("calculator", ""))
    return next((d for d in (calc or {}).get("inputs", []) if d["name"] == ref.get("input")), None)


def _check_tracker(system: System, out: list[Problem], complete: bool = False) -> None:
    """The tracker's declaration names a list input of a calculator, fields of it, and inputs of
    calculators; with `complete`, the engine has the `turns` module that runs it."""
    spec = system.tracker
    if not spec:
        return
    where = system.where[("tracker", "tracker")]
    if complete:
        try:
            turns_module = systems.engine(system.id).TURNS
        except Exception as err:  # any import failure is reported as data, not as a traceback
            out.append(where.problem(f"cannot load the engine's TURNS of {system.module}: {type(err).__name__}: {err}"))
        else:
            for name in ("dice_needed", "turn_order"):
                if not callable(getattr(turns_module, name, None)):
                    out.append(where.problem(f"{system.module}.TURNS has no function {name}"))
    if spec["calculator"] not in system.calculators:
        out.append(where.problem(f"no calculator '{spec['calculator']}'", "calculator"))
        return
    listed, fields = tracker_fields(system)
    if listed is None:
        out.append(where.problem(f"calculator '{spec['calculator']}' has no list input '{spec['list']}'", "list"))
        return
    for i, name in enumerate(spec["inputs"]):
        if name not in fields:
            out.append(where.problem(f"no field '{name}' in {spec['list']}{suggest(name, fields)}", "inputs", i))
    side = spec.get("side")
    if side:
        decl = fields.get(side["input"])
        if decl is None or decl.get("type") != "choice":
            out.append(where.problem(f"no choice field '{side['input']}' in {spec['list']}", "side", "input"))
        else:
            values = {str(o["value"]) for o in resolved_options(system, decl)}
            for key in ("pc", "foe"):
                if side[key] not in values:
                    out.append(where.problem(f"'{side[key]}' is not an option of {side['input']}", "side", key))
    if spec["rule"] not in system.rules:
        out.append(where.problem(f"no rule '{spec['rule']}'{suggest(spec['rule'], system.rules)}", "rule"))
    refs = [(("health",), spec["health"])]
    refs += [((key, i), r) for key in ("defenses", "status", "rulings") for i, r in enumerate(spec.get(key) or [])]
    for field, ref in refs:
        decl = calculator_input(system, ref)
        if decl is None:
            out.append(where.problem(f"no input '{ref['input']}' in calculator '{ref['calculator']}'", *field))
        elif field[0] == "rulings" and not decl.get("ruling"):
            out.append(where.problem(f"input '{ref['input']}' of '{ref['calculator']}' is no ruling's option", *field))
    for i, state in enumerate(spec.get("states") or []):
        problem = _state_problem(system, state) or _state_condition_problem(system, spec, state)
        if problem:
            out.append(where.problem(problem[1], "states", i, problem[0]))
    if spec.get("fighter"):
        for problem in fighter_problems(system, spec["fighter"]):
            out.append(where.problem(problem[1], "fighter", *problem[0]))


def fighter_inputs(system: System, fighter: dict) -> list[dict]:
    """The round calculator's inputs a combatant carries as a fighter: its `role: attacker` and
    `role: target` inputs and the `also:` ones, less those the fight fills itself (health, max,
    side, state, `from`) and the list of several attackers."""
    calc = system.calculators.get(fighter.get("calculator", "")) or {}
    filled = {fighter.get("health"), fighter.get("max"), (fighter.get("side") or {}).get("input"), "attackers"}
    filled |= set(fighter.get("from") or {}) | set(fighter.get("state") or {})
    also = set(fighter.get("also") or [])
    return [
        d
        for d in calc.get("inputs", [])
        if d["name"] not in filled and (d.get("role") in ("attacker", "target") or d["name"] in also)
    ]


def fighter_problems(system: System, fighter: dict) -> list[tuple[tuple, str]]:
    """A fighter block names the round calculator and inputs of it of the right kind; `from:`
    names fields a combatant carries; `labels:` inputs it carries."""
    calc = system.calculators.get(fighter["calculator"])
    if calc is None:
        return [
            (
                ("calculator",),
                f"no calculator '{fighter['calculator']}'{suggest(fighter['calculator'], system.calculators)}",
            )
        ]
    decls = {d["name"]: d for d in calc["inputs"]}
    out: list[tuple[tuple, str]] = []

    def need(field: tuple, name: str, kind: str | None = None) -> dict | None:
        decl = decls.get(name)
        if decl is None:
            out.append((field, f"no input '{name}' in calculator '{fighter['calculator']}'{suggest(name, decls)}"))
        elif kind and decl["type"] != kind:
            out.append((field, f"input '{name}' is a {decl['type']}, not a {kind}"))
            return None
        return decl

    need(("health",), fighter["health"], "integer")
    if "max" in fighter:
        need(("max",), fighter["max"], "integer")
    if "attack" in fighter:
        need(("attack",), fighter["attack"], "choice")
    side = fighter.get("side")
    if side:
        decl = need(("side", "input"), side["input"], "choice")
        if decl:
            values = {str(o["value"]) for o in resolved_options(system, decl)}
            out += [
                (("side", k), f"'{side[k]}' is not an option of {side['input']}")
                for k in ("pc", "foe")
                if side[k] not in values
            ]
    for name in fighter.get("state") or {}:
        need(("state", name), name, "boolean")
    for name in fighter.get("also") or []:
        need(("also",), name)
    spec = system.tracker or {}
    _, fields = tracker_fields(system)
    carried = set(fields) | {r["input"] for key in ("defenses", "status") for r in spec.get(key) or []}
    carried |= {d["name"] for d in fighter_inputs(system, fighter)}
    for name, field in (fighter.get("from") or {}).items():
        need(("from", name), name)
        if field not in carried:
            out.append((("from", name), f"'{field}' is no field a combatant carries"))
    labels = set(fighter.get("labels") or {})
    for name in sorted(labels - carried):
        out.append((("labels", name), f"'{name}' is no input a combatant carries as a fighter"))
    return out


def _state_problem(system: System, state: dict) -> tuple[str, str] | None:
    """A health state names a rule's fact of the kind its `when` compares: a range for `within`,
    a whole number (number, threshold, modifier) otherwise."""
    rule = system.rules.get(state["rule"])
    if rule is None:
        return "rule", f"no rule '{state['rule']}'{suggest(state['rule'], system.rules)}"
    facts = rule.get("facts") or {}
    fact = facts.get(state["fact"])
    if fact is None:
        return "fact", f"rule '{state['rule']}' has no fact '{state['fact']}'{suggest(state['fact'], facts)}"
    kinds = ("range",) if state["when"] == "within" else ("number", "threshold", "modifier")
    if fact.get("kind") not in kinds:
        return "fact", f"'{state['fact']}' is a {fact.get('kind')} fact; `{state['when']}` needs {' or '.join(kinds)}"
    return None


def _state_condition_problem(system: System, spec: dict, state: dict) -> tuple[str, str] | None:
    """A state's `unless` names a boolean status field."""
    if "unless" in state:
        decls = [calculator_input(system, r) for r in spec.get("status") or []]
        if not any(d and d["name"] == state["unless"] and d["type"] == "boolean" for d in decls):
            return "unless", f"'{state['unless']}' is no boolean input of the tracker's status"
    return None


def _check_roles(system: System, out: list[Problem]) -> None:
    """An input with a `role` carries its value to the system's other calculators (and into
    presets) by name, so every input of that name and role must be the same kind of value: same
    type and, for a choice, options in common (a value a calculator does not offer is left at its
    own default there)."""
    first: dict[str, tuple[str, dict]] = {}
    for name, calc in system.calculators.items():
        inherited = system.inherited.get(name, 0)  # copies made by `inputs_from` are checked where declared
        for i, decl in enumerate(calc["inputs"][inherited:]):
            if "role" not in decl:
                continue
            seen = first.setdefault(decl["name"], (name, decl))
            other_calc, other = seen
            if other is decl:
                continue
            why = _role_mismatch(system, other, decl)
            if why:
                where = system.where[("calculator", name)]
                text = f"input '{decl['name']}' shares its value with calculator '{other_calc}' but {why}"
                out.append(where.problem(text, "inputs", i, "role"))


def _role_mismatch(system: System, a: dict, b: dict) -> str | None:
    if a["role"] != b["role"]:
        return f"has role '{b['role']}' here, '{a['role']}' there"
    if a["type"] != b["type"]:
        return f"is {b['type']} here, {a['type']} there"
    if a["type"] == "choice" and not (_broken_options(system, a) or _broken_options(system, b)):
        values = [{str(o["value"]) for o in resolved_options(system, d)} for d in (a, b)]
        if not values[0] & values[1]:
            return "they have no option in common"
    return None


def _check_when(
    system: System, where: Where, i: int, decl: dict, earlier: list[dict], out: list[Problem], at: int | None = None
) -> None:
    """`when` names inputs declared before this one (the form shows them first), with values they take.
    `at`: the input's index in the file when it differs from `i` (inputs copied by `inputs_from`)."""
    at = i if at is None else at
    before = {d["name"]: d for d in earlier}
    for other, value in (decl.get("when") or {}).items():
        if other not in before:
            problem = f"no input '{other}' declared before this one{suggest(other, before)}"
            out.append(where.problem(problem, "inputs", at, "when", other))
            continue
        why = _input_value_problem(system, before[other], value)
        if why:
            out.append(where.problem(why, "inputs", at, "when", other))


def _check_input(system: System, where: Where, field: tuple, decl: dict, out: list[Problem]) -> None:
    kind = decl["type"]
    if kind == "choice":
        has_options, has_from = "options" in decl, "options_from" in decl
        if has_options == has_from:
            out.append(where.problem("a choice needs exactly one of `options` or `options_from`", *field))
            return
        if has_from:
            why = _options_from_problem(system, decl["options_from"])
            if why:
                out.append(where.problem(why[1], *field, "options_from", why[0]))
                return
        values = [str(o["value"]) for o in resolved_options(system, decl)]
        if len(set(values)) != len(values):
            out.append(where.problem("option values are not unique", *field))
    elif kind == "integer" and decl["min"] > decl["max"]:
        out.append(where.problem(f"min {decl['min']} is above max {decl['max']}", *field))
    elif kind == "list":
        fields = decl["fields"]
        seen: set[str] = set()
        for j, sub in enumerate(fields):
            if sub["name"] in seen:
                out.append(where.problem(f"duplicate field name '{sub['name']}'", *field, "fields", j, "name"))
            seen.add(sub["name"])
            _check_input(system, where, (*field, "fields", j), sub, out)
        lo, hi = decl.get("min_items", 0), decl["max_items"]
        if lo > hi:
            out.append(where.problem(f"min_items {lo} is above max_items {hi}", *field))
    why = _input_value_problem(system, decl, decl["default"])
    if why:
        out.append(where.problem(why, *field, "default"))


def _options_from_problem(system: System, spec: dict) -> tuple[str, str] | None:
    table = system.tables.get(spec["table"])
    if table is None:
        return "table", f"no table '{spec['table']}'{suggest(spec['table'], system.tables)}"
    if "generator" in table:
        return "table", f"table '{spec['table']}' is generated; options need a data table"
    columns = [c["id"] for c in table["columns"]]
    for key in ("value", "label"):
        if spec[key] not in columns:
            return key, f"table '{spec['table']}' has no column '{spec[key]}'{suggest(spec[key], columns)}"
    return None


def resolved_options(system: System, decl: dict) -> list[dict]:
    """A choice's options, with `options_from` read from its table's rows."""
    if "options" in decl:
        return decl["options"]
    spec = decl["options_from"]
    table = system.tables[spec["table"]]
    label_type = next(c["type"] for c in table["columns"] if c["id"] == spec["label"])
    return [{"value": row[spec["value"]], "label": cells.text(label_type, row[spec["label"]])} for row in table["rows"]]


def _input_value_problem(system: System, decl: dict, value: Any) -> str | None:
    """Why `value` (a default, an example's or a stress input) is not a valid value of the declared
    input, as `calc.inputs.declared` (the engines' own validation) says; None when it is. YAML must also
    write numbers and booleans as such (calc.inputs.declared also reads text, for URLs and the CLI)."""
    if any(_broken_options(system, d) for d in (decl, *decl.get("fields", []))):
        return None  # the declaration's own problem is reported by _check_input
    try:
        typed = declared.value(_resolved(system, decl), value, decl["name"])
    except CalcError as err:  # the field path names the input; a list entry's field is added
        return err.reason if err.input == decl["name"] else f"{err.input}: {err.reason}"
    if decl["type"] in ("integer", "boolean") and type(typed) is not type(value):
        return f"{value!r} must be written as {'a whole number' if decl['type'] == 'integer' else 'true or false'}"
    return None


def _broken_options(system: System, decl: dict) -> bool:
    if decl.get("type") != "choice":
        return False
    if ("options" in decl) == ("options_from" in decl):
        return True
    return "options_from" in decl and _options_from_problem(system, decl["options_from"]) is not None


def _resolved(system: System, decl: dict) -> dict:
    """The declaration as the engines see it (calc/rules.json): choices' options resolved."""
    out = dict(decl)
    if decl.get("type") == "choice":
        out["options"] = resolved_options(system, decl)
    if decl.get("type") == "list":
        out["fields"] = [_resolved(system, f) for f in decl["fields"]]
    return out
