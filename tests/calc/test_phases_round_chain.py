"""The phases round's chain as the calculator runs it (states carrying a critical Wound that
cannot decide a death merged into the same state without it; the First Wound on a chain over
HP alone) against the straightforward one: a single chain over the full state with all three
thresholds, nothing merged. On many random inputs the answers must be identical fractions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc.chains.state_chain import StateChain
from calc.inputs import applies, data, declared
from calc.systems.phases import round as phases_round

SYSTEM = data.system("phases")


def parsed(raw: dict[str, Any]) -> dict[str, Any]:
    """The calculator's values for `raw`, leaving out the inputs whose condition it does not meet."""
    declarations = SYSTEM.calculator("round")["inputs"]
    raw = dict(raw)
    for decl in declarations:
        for other, wanted in (decl.get("when") or {}).items():
            if other in raw and raw[other] not in (wanted if isinstance(wanted, list) else [wanted]):
                raw.pop(decl["name"], None)
    return declared.validate(declarations, applies.resolve(declarations, raw))


def chain_answers(raw: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    """(the calculator's thresholds, the plain single full-state chain's), same order."""
    values = parsed(raw)
    asked = values | {"feinted": False, "phase_roll": 0}
    outcomes, total = phases_round.attack_outcomes(asked, SYSTEM, [])
    step, start, thresholds = phases_round._target(values, SYSTEM, [], [(outcomes, total)])
    fast = phases_round._reach(step, start, thresholds, total)
    with monkeypatch.context() as m:
        m.setattr(phases_round, "LUMP_CRITICALS", False)
        step, start, thresholds = phases_round._target(values, SYSTEM, [], [(outcomes, total)])
        plain = StateChain(start, step, total=total).reach_all(thresholds)
    return fast, plain


inputs_st = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["attack", "monster"]),
        "damage_dice": st.sampled_from(["1d4", "1d6", "2d4", "1d8+1", "2d6"]),
        "target_source": st.just("direct"),
        "attack_target": st.integers(0, 20),
        "defense": st.integers(-2, 6),
        "roll_mode": st.sampled_from(["normal", "advantage", "disadvantage"]),
        "natural_rolls": st.booleans(),
        "target_kind": st.sampled_from(["monster", "character"]),
        "hd": st.integers(1, 8),
        "count_reading": st.sampled_from(["wounds", "severity"]),
        "free_slots": st.integers(1, 6),
        "target_hp": st.integers(0, 12),
        "armour": st.sampled_from(["none", "leather", "chain"]),
        "wound_damage": st.sampled_from(["overflow", "whole"]),
        "max_hp": st.integers(0, 12),
        "instant_death": st.sampled_from(["at-least", "exactly"]),
        "critical_wound": st.sampled_from(["counts", "ignored"]),
    }
)


@settings(max_examples=150, deadline=None)
@given(inputs_st)
def test_merged_chain_equals_plain_chain(raw: dict[str, Any]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, plain = chain_answers(raw, monkeypatch)
    assert fast == plain


def test_stress_inputs_equal_plain_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The declared limit case, where the merge does most (a 20-slot character: a lasting
    critical Wound decides nothing until the slots are nearly full)."""
    fast, plain = chain_answers(dict(SYSTEM.calculators["round"]["stress"]), monkeypatch)
    assert fast == plain
