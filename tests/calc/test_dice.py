"""Dice expressions: parsing, limits, and distributions checked against icepool (an independent
exact dice library, used only in tests) and against enumeration."""

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc.errors import InputError
from calc.numbers import dice


@pytest.mark.parametrize(
    ("text", "canonical", "lo", "hi"),
    [
        ("2d8+1d6+3", "2d8+1d6+3", 6, 25),
        ("d20", "1d20", 1, 20),
        ("3d6-2", "3d6-2", 1, 16),
        (" 1d4 + 2 ", "1d4+2", 3, 6),
        ("2D6 - 1", "2d6-1", 1, 11),
        ("10-1d6", "10-1d6", 4, 9),
        ("0-1d6", "0-1d6", -6, -1),
        ("-2+1d6", "1d6-2", -1, 4),
        ("7", "7", 7, 7),
    ],
)
def test_parses(text, canonical, lo, hi):
    expr = dice.parse(text)
    assert str(expr) == canonical
    assert dice.parse(canonical) == expr  # the canonical text reads back (URLs and results carry it)
    assert (expr.min, expr.max) == (lo, hi)
    assert (expr.dist().min, expr.dist().max) == (lo, hi)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("2x6", "cannot read 'x6'"),
        ("", "is empty"),
        ("1d6 2", "cannot read '2'"),
        ("1d6+", "ends with + or -"),
        ("d0", "at least 1 side"),
        ("0d6", "the count must be at least 1"),
        ("101d2", "limit is 100 dice"),
        ("1d1001", "limit of 1000 sides"),
        ("3d1000", "limit is 2,001"),
        ("<img src=x onerror=alert(1)>", "cannot read"),
        ("-1d8", "starts with a minus before '1d8'"),
        (" - d6+10", "starts with a minus before 'd6'"),
    ],
)
def test_refuses_with_the_reason(text, fragment):
    with pytest.raises(InputError) as err:
        dice.parse(text, "damage")
    assert err.value.input == "damage"
    assert fragment in err.value.reason


def test_limits_are_reachable():
    assert dice.parse("100d20").dice == 100
    assert dice.parse("2d1000").max == 2000


terms = st.lists(st.tuples(st.sampled_from([1, -1]), st.integers(1, 4), st.integers(1, 12)), min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(terms, st.integers(-20, 20))
def test_distribution_equals_icepool(parts, modifier):
    parts[0] = (1, *parts[0][1:])  # an expression may not begin by subtracting dice (`-1d8` is refused)
    text = "".join(f"{'+' if s > 0 else '-'}{n}d{k}" for s, n, k in parts) + f"{modifier:+d}"
    ours = dict(dice.parse(text).dist().items())
    pool = icepool.Die([modifier])
    for s, n, k in parts:
        pool = pool + n @ icepool.d(k) if s > 0 else pool - n @ icepool.d(k)
    denominator = pool.denominator()
    theirs = {int(x): Fraction(q, denominator) for x, q in pool.items()}
    assert ours == theirs


def test_scaled_doubles_dice_not_modifier():
    assert str(dice.parse("2d8+3").scaled(2)) == "4d8+3"
