"""Validate a calculator's inputs against their declaration in `rules_data/<system>/calculators.yaml`.

The declaration is the only description of an input: forms, command-line options and this
validation all read it, so a range or default is never typed twice. Values may arrive typed (JSON
from the browser) or as text (command line, URL), and come out typed, with defaults filled in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from calc.errors import InputError
from calc.numbers import bounds, dice

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")
"""A whole number typed as text: ASCII digits only (`str.isdigit` also accepts '²' and '①', which
`int()` refuses), one optional sign, and short enough that converting it costs nothing."""
WHOLE_TEXT_LENGTH = 14
"""The most characters a whole number is typed with: `_WHOLE`'s sign and 12 digits, and a space."""
_HUGE = 10**15
"""Integers at least this large are never an input's value and are described, not printed (printing
one of over 4,300 digits raises ValueError)."""


def validate(declarations: list[dict], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return every declared input, typed, from `raw` (missing ones take their default; blank text,
    such as a field cleared in the form, is an error naming the default)."""
    raw = dict(raw or {})
    known = {d["name"] for d in declarations}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InputError(unknown[0], f"is not an input of this calculator (inputs: {', '.join(sorted(known))})")
    return {d["name"]: value(d, raw.get(d["name"]), d["name"]) for d in declarations}


def typed_length(decl: dict) -> int | None:
    """The most characters a value of this input is typed with (a form field's `maxlength`): a
    text's declared `max_length`, a dice expression's `calc.numbers.dice.MAX_LENGTH`, a whole number's
    `WHOLE_TEXT_LENGTH`; None when nothing is typed (a choice, a box) or `calc.numbers.bounds` bounds it
    (a list's JSON)."""
    kind = decl.get("type")
    if kind == "text":
        return int(decl["max_length"])
    if kind == "dice":
        return dice.MAX_LENGTH
    if kind == "integer":
        return WHOLE_TEXT_LENGTH
    return None


def value(decl: dict, given: Any, where: str) -> Any:
    """One input's typed value; `where` names it in errors (e.g. `combatants[2].modifier`)."""
    if given is None:  # left out (command line, URL, JSON): the declared default
        if "default" not in decl:
            raise InputError(where, "is required")
        given = decl["default"]
    elif isinstance(given, str) and given.strip() == "" and decl["type"] != "text":
        # A field cleared in the form: the reader did not choose the default, so say so, never use it silently.
        raise InputError(
            where, "is required" + (f" — the default is {_as_text(decl['default'])}" if "default" in decl else "")
        )
    kind = decl["type"]
    if kind == "integer":
        return _integer(decl, given, where)
    if kind == "choice":
        return _choice(decl, given, where)
    if kind == "boolean":
        return _boolean(given, where)
    if kind == "dice":
        if isinstance(given, dice.DiceExpr):
            return given
        return dice.parse(given, where, example=str(decl.get("default") or "2d6+1"))
    if kind == "text":
        return _text(decl, given, where)
    if kind == "list":
        return _list(decl, given, where)
    raise InputError(where, f"has an unknown type '{kind}' in its declaration")


def _integer(decl: dict, given: Any, where: str) -> int:
    if isinstance(given, bool):
        raise InputError(where, "must be a whole number")
    if isinstance(given, int):
        number = given
    elif isinstance(given, float) and given.is_integer():
        number = int(given)
    elif isinstance(given, str) and _WHOLE.fullmatch(given.strip().replace("\u2212", "-")):
        number = int(given.strip().replace("\u2212", "-"))  # U+2212 is the minus sign the results print
    else:
        raise InputError(where, f"must be a whole number (got {shown(given)})")
    lo, hi = decl.get("min"), decl.get("max")
    if (lo is None or number >= lo) and (hi is None or number <= hi):
        return number  # in range: no message to build (the tracker checks 40 combatants a request)
    got = shown(number)
    if "range_note" in decl and ((lo is not None and number < lo) or (hi is not None and number > hi)):
        got += f"; {decl['range_note']}"  # e.g. an ascending AC typed where a descending one goes
    if lo is not None and hi is not None and not lo <= number <= hi:
        raise InputError(where, f"must be between {lo} and {hi} (got {got})")
    if lo is not None and number < lo:
        raise InputError(where, f"must be at least {lo} (got {got})")
    if hi is not None and number > hi:
        raise InputError(where, f"must be at most {hi} (got {got})")
    return number


def _choice(decl: dict, given: Any, where: str) -> str:
    values = [str(o["value"]) for o in decl["options"]]
    text = _scalar_text(given)
    if text not in values:
        raise InputError(where, f"must be one of {', '.join(values)} (got {shown(given)})")
    return text


def _boolean(given: Any, where: str) -> bool:
    if isinstance(given, bool):
        return given
    text = (_scalar_text(given) or "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(where, f"must be true or false (got {shown(given)})")


def _text(decl: dict, given: Any, where: str) -> str:
    text = _scalar_text(given)
    if text is None:
        raise InputError(where, f"must be text (got {shown(given)})")
    text = text.strip()
    limit = decl.get("max_length", 40)
    if len(text) > limit:
        raise InputError(where, f"must be at most {limit} characters (got {len(text)})")
    if not text and "default" in decl:
        return str(decl["default"])
    return text


def _list(decl: dict, given: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(given, str):
        given = parse_list_text(given, where, decl)
    if not isinstance(given, list) or not all(isinstance(item, Mapping) for item in given):
        raise InputError(where, "must be a list of entries")
    lo, hi = item_bounds(decl)
    if not lo <= len(given) <= hi:
        raise InputError(where, f"must have between {lo} and {hi} entries (got {len(given)})")
    fields = decl["fields"]
    names = {f["name"] for f in fields}
    items = []
    for i, item in enumerate(given, start=1):
        unknown = sorted(set(item) - names)
        if unknown:
            raise InputError(f"{where}[{i}].{unknown[0]}", f"is not a field (fields: {', '.join(sorted(names))})")
        item = _conditions_chosen(fields, item)
        items.append({f["name"]: value(f, item.get(f["name"]), f"{where}[{i}].{f['name']}") for f in fields})
    for f in fields:
        if f.get("unique"):
            _check_unique(decl, f["name"], items, where)
    return items


def item_bounds(decl: dict) -> tuple[int, int]:
    """The fewest and most entries a list input takes (0 and 50 when its declaration is silent)."""
    return decl.get("min_items", 0), decl.get("max_items", 50)


def _conditions_chosen(fields: list[dict], item: Mapping[str, Any]) -> Mapping[str, Any]:
    """An entry's field declared with `when` (phases' typed attack target), given while the field
    it names is not: giving it chooses that value, as at the top level (`calc.inputs.applies`). A form
    row sends every field, so one given with the other value is left to it, unused."""
    chosen = dict(item)
    for f in fields:
        if f.get("when") and item.get(f["name"]) is not None:
            for other, wanted in f["when"].items():
                if item.get(other) is None:
                    chosen[other] = wanted
    return chosen


def _check_unique(decl: dict, field: str, items: list[dict[str, Any]], where: str) -> None:
    """A field declared `unique: true` (a combatant's name) must differ between entries, ignoring
    case: results and pairings name entries by it, so two "Orc"s would make them ambiguous. The
    second entry's field is the one at fault."""
    noun = decl.get("label", decl["name"]).lower()
    noun = noun[:-1] if noun.endswith("s") else noun  # "Combatants" → combatant, as the form's rows say
    first: dict[str, int] = {}
    for i, item in enumerate(items, start=1):
        text = str(item[field])
        key = text.casefold()
        if key in first:
            earlier = items[first[key] - 1][field]
            spelled = "" if earlier == text else f' ("{earlier}")'
            raise InputError(
                f"{where}[{i}].{field}",
                f'"{text}" is already {noun} {first[key]}\'s {field}{spelled} — give each {noun} its own {field} '
                f"({text} 1, {text} 2)",
            )
        first[key] = i


def parse_list_text(text: str, where: str, decl: dict) -> list[dict[str, Any]]:
    """Read a list typed as JSON, or as `field=value,field=value; field=value` (entries split by
    `;`), e.g. `name=Alice,modifier=2; name=Orc` for a list with those fields."""
    stripped = text.strip()
    if stripped.startswith("["):
        return bounds.loads(stripped, where)  # nesting and length bounded before it is read
    items = []
    for chunk in filter(None, (c.strip() for c in stripped.split(";"))):
        item = {}
        for pair in filter(None, (p.strip() for p in chunk.split(","))):
            key, sep, val = pair.partition("=")
            if not sep:
                raise InputError(
                    where,
                    f"cannot read '{pair}': write each entry as field=value pairs joined by commas, "
                    f"entries joined by ';' (e.g. {list_example(decl)})",
                )
            item[key.strip()] = val.strip()
        items.append(item)
    return items


def list_example(decl: dict) -> str:
    """An example of a list input as text, made from its own declaration (its default entries, else
    its declared `example` whole, else its fields' defaults), so an example shown to the user has
    the right fields and parses back."""
    fields = decl["fields"]
    entries = [e for e in decl.get("default") or [] if isinstance(e, Mapping)][:2]
    entries = entries or list(decl.get("example") or []) or [{f["name"]: f["default"] for f in fields}]
    shown = []
    for entry in entries:
        pairs = (f"{f['name']}={_as_text(entry[f['name']])}" for f in fields if f["name"] in entry)
        shown.append(",".join(p for p in pairs if not p.endswith("=")))
    return "; ".join(shown)


def _as_text(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, bool) else str(value)
    return "" if any(c in text for c in ",;=") else text  # not writable in this form: left out


def to_json(declarations: list[dict], values: Mapping[str, Any]) -> dict[str, Any]:
    """Typed input values as JSON (dice expressions as their text)."""

    def plain(v: Any) -> Any:
        if isinstance(v, dice.DiceExpr):
            return str(v)
        if isinstance(v, list):
            return [{k: plain(x) for k, x in item.items()} for item in v]
        return v

    return {d["name"]: plain(values[d["name"]]) for d in declarations}


def _scalar_text(given: Any) -> str | None:
    """Text or a (sensibly sized) whole number as text; None for anything else."""
    if isinstance(given, str):
        return given
    if isinstance(given, int) and not isinstance(given, bool) and abs(given) < _HUGE:
        return str(given)
    return None


def shown(given: Any) -> str:
    """A short, safe description of a value for an error message (never fails, never long)."""
    if isinstance(given, str):
        return f"'{given}'" if len(given) <= 38 else f"'{given[:36]}…'"
    if isinstance(given, bool) or given is None:
        return json.dumps(given)
    if isinstance(given, int):
        return str(given) if abs(given) < _HUGE else f"a number of about {int(given.bit_length() * 0.30103) + 1} digits"
    if isinstance(given, float):
        return repr(given)
    if isinstance(given, list | tuple):
        return "a list"
    if isinstance(given, Mapping):
        return "an object"
    return f"a {type(given).__name__}"
