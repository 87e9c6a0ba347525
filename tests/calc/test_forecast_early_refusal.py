"""A fixed-order fight far past the states followed is refused while its first order's chain is
explored (`fixed_order._refuse_early`: the mixture's states counted as that order's are found), not
after MAX_FOLLOWED states of work; a fight within the bound is still answered."""

from __future__ import annotations

import pytest

from calc import evaluate
from calc.errors import InputError
from calc.forecast import fixed_fight
from calc.forecast.bench import cases


def _inputs(system: str, label: str) -> dict:
    return next(i for s, c, i in cases() if s == system and c == label)


def _doubled(inputs: dict) -> dict:
    """Every fighter's hit points doubled: about four times the states (Active Defense's 2 against 2:
    about 34,700, past MAX_FOLLOWED)."""
    return {side: [{**f, "target_hp": 2 * f["target_hp"]} for f in inputs[side]] for side in ("party", "foes")}


def test_two_against_two_refused_after_the_first_order(monkeypatch: pytest.MonkeyPatch) -> None:
    followed = []
    count = fixed_fight.Rules.count

    def counting(self: fixed_fight.Rules) -> None:
        followed.append(1)
        count(self)

    monkeypatch.setattr(fixed_fight.Rules, "count", counting)
    inputs = _doubled(_inputs("active-defense", "2 against 2"))
    request = {"system": "active-defense", "calculator": "forecast", "inputs": inputs}
    with pytest.raises(InputError) as refused:
        evaluate(request)
    assert refused.value.input == "foes"
    assert "first order of who acts when alone reaches" in refused.value.reason
    assert "75 orders" in refused.value.reason
    assert "states so far" in refused.value.reason and "states or more" in refused.value.reason
    assert len(followed) < fixed_fight.MAX_FOLLOWED / 4  # one order's chain, not the whole bound


def test_one_against_one_still_answered() -> None:
    request = {"system": "active-defense", "calculator": "forecast", "inputs": _inputs("active-defense", "1 against 1")}
    answer = evaluate(request)
    assert [c["label"] for c in answer["chances"]][:2] == ["Party wins", "Foes win"]
