"""Is a value (an input's default, an example's, a stress value, a `when`, a ruling's reading, a
preset's) one its declared input takes? `calc.inputs.declared`, the engines' own validation, says,
on the declaration as the engines read it; and a choice whose options cannot be read is judged
once, where it is declared."""

from __future__ import annotations

from typing import Any

from calc.errors import CalcError
from calc.inputs import declared
from macros.load.catalog import System
from macros.load.engine_view import input_view
from macros.load.problems import suggest


def options_from_problem(system: System, spec: dict) -> tuple[str, str] | None:
    """Why a choice's `options_from` cannot be read, as (the field it names, the message); None
    when its table is a data table with both columns."""
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


def value_problem(system: System, decl: dict, value: Any) -> str | None:
    """Why `value` (a default, an example's or a stress input) is not a valid value of the declared
    input, as `calc.inputs.declared` (the engines' own validation) says; None when it is. YAML must also
    write numbers and booleans as such (calc.inputs.declared also reads text, for URLs and the CLI)."""
    if any(broken_options(system, d) for d in (decl, *decl.get("fields", []))):
        return None  # the declaration's own problem is reported by macros.check.calculators
    try:
        typed = declared.value(input_view(system, decl), value, decl["name"])
    except CalcError as err:  # the field path names the input; a list entry's field is added
        return err.reason if err.input == decl["name"] else f"{err.input}: {err.reason}"
    if decl["type"] in ("integer", "boolean") and type(typed) is not type(value):
        return f"{value!r} must be written as {'a whole number' if decl['type'] == 'integer' else 'true or false'}"
    return None


def broken_options(system: System, decl: dict) -> bool:
    """Whether a choice's options cannot be read (not exactly one of `options`, `options_from`, or
    an `options_from` that names no data table's columns)."""
    if decl.get("type") != "choice":
        return False
    if ("options" in decl) == ("options_from" in decl):
        return True
    return "options_from" in decl and options_from_problem(system, decl["options_from"]) is not None
