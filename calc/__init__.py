"""Combat Codex rules engines: exact answers to "will it hit, how much damage, who goes first".

Everything goes through `evaluate(request)`: the browser (under Pyodide), the command line
(`python -m calc`) and the tests. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.answers import first_attack as attack_at_hand
from calc.answers import result
from calc.errors import CalcError, InputError, UnknownCalculator
from calc.inputs import applies, blame, data, declared
from calc.numbers import bounds

__all__ = ["CalcError", "InputError", "evaluate"]


def evaluate(request: Mapping[str, Any], first_attack: bool = True) -> dict[str, Any]:
    """Answer one request `{"system": id, "calculator": name, "inputs": {...}}`; a round
    calculator's answer without its `first_attack` when `first_attack` is false (same checks).

    Returns the JSON-ready result described in CONTRIBUTING.md, or raises a `CalcError` naming the
    input at fault.
    """
    if not isinstance(request, Mapping):
        raise InputError("request", "must be an object with system, calculator and inputs")
    unknown = sorted(set(request) - {"system", "calculator", "inputs"})
    if unknown:
        raise InputError(unknown[0], "is not part of a request (system, calculator, inputs)")
    system_id = request.get("system")
    name = request.get("calculator")
    if not isinstance(system_id, str) or not system_id:
        raise InputError("system", "is required")
    if not isinstance(name, str) or not name:
        raise InputError("calculator", "is required")
    system = data.system(system_id)
    if name not in system.calculators:
        raise UnknownCalculator(
            f"'{system_id}' has no calculator '{name}' (calculators: {', '.join(system.calculators)})", "calculator"
        )
    raw_inputs = request.get("inputs", {})  # absent means all defaults; [], "", 0, false or null are mistakes
    if not isinstance(raw_inputs, Mapping):
        raise InputError("inputs", f"must be an object of input names to values (got {declared.shown(raw_inputs)})")
    declarations = system.calculator(name)["inputs"]
    values = declared.validate(declarations, applies.resolve(declarations, raw_inputs))
    engine = systems.engine(system_id).CALCULATORS[name]
    if not first_attack:
        engine = attack_at_hand.ALONE.get(engine, engine)
    try:
        answer = result.complete(engine(values, system))
    except bounds.CostError as err:  # refused before the work: name the input to reduce
        raise blame.blame(err, declarations, values) from None
    return {"system": system_id, "calculator": name, "inputs": declared.to_json(declarations, values), **answer}
