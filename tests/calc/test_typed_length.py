"""`calc.inputs.declared.typed_length`: the form's `maxlength` for a field is Python's own limit, so the
longest value Python accepts can be typed and one character more is refused by Python too."""

from __future__ import annotations

import pytest

from calc.errors import InputError
from calc.inputs import declared
from calc.numbers import dice

TEXT = {"name": "who", "type": "text", "max_length": 12, "default": "X"}
DICE = {"name": "dmg", "type": "dice", "default": "1d6"}
WHOLE = {"name": "n", "type": "integer", "min": -(10**12), "max": 10**12, "default": 0}


def test_text_takes_its_declared_length_and_no_more() -> None:
    limit = declared.typed_length(TEXT)
    assert limit == 12 and declared.value(TEXT, "a" * limit, "who") == "a" * limit
    with pytest.raises(InputError):
        declared.value(TEXT, "a" * (limit + 1), "who")


def test_dice_take_the_parsers_length_and_no_more() -> None:
    limit = declared.typed_length(DICE)
    assert limit == dice.MAX_LENGTH
    assert str(declared.value(DICE, "1d6" + " " * (limit - 3), "dmg")) == "1d6"
    with pytest.raises(InputError, match="longer than"):
        declared.value(DICE, "1d6" + " " * (limit - 2), "dmg")


def test_the_longest_whole_number_fits() -> None:
    limit = declared.typed_length(WHOLE)
    longest = "-" + "9" * 12
    assert len(longest) < limit and declared.value({**WHOLE, "min": None}, longest, "n") == -999999999999
    with pytest.raises(InputError, match="whole number"):
        declared.value(WHOLE, "9" * 13, "n")


def test_nothing_typed_has_no_limit_and_lists_have_their_bounds() -> None:
    assert declared.typed_length({"type": "choice", "options": []}) is None
    assert declared.typed_length({"type": "boolean"}) is None
    assert declared.item_bounds({"type": "list"}) == (0, 50)
    assert declared.item_bounds({"type": "list", "min_items": 1, "max_items": 6}) == (1, 6)
