"""The forecast turns the cycle collector off while it builds and solves its chain
(`calc.forecast.chain._no_cycle_collection`): it must be back as it was afterwards, answered or
refused, and the answer must not depend on it."""

from __future__ import annotations

import gc

import pytest

from calc import evaluate
from calc.errors import InputError
from calc.forecast.bench import cases


def _request(case: str) -> dict:
    system_id, label, inputs = next(c for c in cases() if f"{c[0]}/{c[1]}" == case)
    return {"system": system_id, "calculator": "forecast", "inputs": inputs}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled):
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        evaluate(_request("segments/2 against 2"))
        assert gc.isenabled() is enabled
        with pytest.raises(InputError):
            evaluate(_request("countup/4 against 4"))  # refused inside, by `chain.explore_numbered`
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_the_answer_is_the_same_with_the_collector_on_or_off():
    request = _request("countup/1 against 1")
    gc.disable()
    try:
        off = evaluate(request)
    finally:
        gc.enable()
    assert evaluate(request) == off
