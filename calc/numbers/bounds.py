"""The cost of a request, bounded before it is computed.

Every exact answer is built from integers whose size the inputs set: the dice (`calc.numbers.dice` limits
their count, sides and totals), the rounds a chain follows and the hit points it follows them to,
the states of a chain, the nesting of JSON typed into a list. Each limit here is checked on
figures known *before* the work they bound (a denominator's digits from the arithmetic, never by
computing it), and a request past one is refused with a `CostError` that names the input to
reduce and the limit, in milliseconds, instead of running for seconds and ending in a traceback.

The limits are derived, not tuned: `MAX_DIGITS` from the interpreter's own limit on writing an
integer as decimal text (every exact number of an answer is sent as text), `MAX_STATES` and
`MAX_JSON_DEPTH` from the largest chain and the deepest JSON any declared input can need (see
their docstrings). `python -m calc.benchmark` prints them with the time each worst case takes to be
refused.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from calc.errors import InputError

MAX_DIGITS = 4000
"""Most decimal digits of any exact number an answer holds (a chance's numerator or denominator,
a distribution's weights): under CPython's default limit of 4,300 digits for converting an integer
to or from text (`sys.get_int_max_str_digits`, the same under Pyodide), so every exact number can
be written out, with room for the sums the result adds up. The time it bounds is small: a round
chain over 4,000-digit integers answers in tens of milliseconds."""

MAX_PRODUCT_DIGITS = 500_000
"""Most decimal digits of one product of packed distributions (`calc.numbers.dist._convolve`: every
weight of both packed into one integer, multiplied in C): outcomes × digits of a weight. The time
of that product grows as its size to the power 1.6 (Karatsuba): four attacks of 40d20 added up
need products of 685,000 digits and 0.55 s in CPython, two to three times that under Pyodide, so
the limit keeps a round's sum well under a second there."""

MAX_STATES = 20_000
"""Most states a round's Markov chain (`calc.chains.state_chain.StateChain`) may reach. The largest chains the
declared inputs allow today have a few hundred (phases' target: hit points × Wounds × flags,
hit points at most 60); the exploration is cut off at this count, before the chain is solved."""

MAX_MOVES = 150_000
"""Most transitions the step function of a round's chain may give while it is explored: each is a
step of Python in the engine (one to two microseconds in CPython, about three times that under
Pyodide), so a refusal comes within a fraction of a second there too. The chains of the declared
inputs give at most a few thousand (phases: 5,700) until a dying target is followed to 210 hit
points through hundreds of damage totals a round; a power attack of 2d1000 (4,000 totals) gave
1.2 million, over a second in CPython."""

MAX_JSON_DEPTH = 8
"""Deepest nesting of JSON typed as text (a list input, the tracker's combatants, rolls and
options): a list of entries is 2 deep (`[{…}]`); the JSON reader recurses once per level, so
30,000 nested brackets exhausted Python's stack before this limit existed."""

MAX_JSON_TEXT = 200_000
"""Longest JSON text read for one input (characters): 50 entries of a few hundred characters are
far less; reading is linear, so the limit only keeps a pasted megabyte from being parsed."""

MAX_REQUEST_TEXT = 2_000_000
"""Longest JSON text of a whole request through the browser's door (`calc.browser`): its inputs'
own texts are bounded again, each by `MAX_JSON_TEXT`, where they are read."""

_LOG10_2 = math.log10(2)


class CostError(InputError):
    """A request whose exact answer would cost more than a limit of this module. Raised where the
    cost is known (`input` may still be None there); `calc.evaluate` names the input to reduce
    from the calculator's declaration (`calc.inputs.blame`) when the raiser could not. `reduce` says which
    kind of input drives the cost: "dice" (how many and how large) or "hp" (how far a chain goes).
    """

    def __init__(self, input: str | None, reason: str, reduce: str = "dice") -> None:
        super().__init__(input, reason)
        self.reduce = reduce


def digits(n: int) -> int:
    """Decimal digits of a whole number, from its bit length (exact or one too many; never
    converts it to text, which past 4,300 digits raises)."""
    return max(1, math.ceil(abs(n).bit_length() * _LOG10_2))


def check_digits(needed: int, what: str, advice: str, reduce: str = "dice") -> None:
    """Refuse (`CostError`) when an answer's exact numbers would need more than `MAX_DIGITS`
    digits; `needed` comes from the arithmetic (e.g. rounds × the digits of one round's
    denominator), `what` says which numbers, `advice` what to reduce."""
    if needed > MAX_DIGITS:
        raise CostError(
            None,
            f"the exact answer's {what} would have about {needed:,} digits; the limit is {MAX_DIGITS:,} ({advice})",
            reduce,
        )


def check_product(outcomes: int, bits: int) -> None:
    """Refuse (`CostError`) a product of distributions of `outcomes` outcomes whose weights take
    `bits` bits each, before it is multiplied."""
    size = math.ceil(outcomes * bits * _LOG10_2)
    if size > MAX_PRODUCT_DIGITS:
        raise CostError(
            None,
            f"the exact distribution would hold {outcomes:,} outcomes of about {math.ceil(bits * _LOG10_2):,} digits "
            f"each ({size:,} digits in all); the limit is {MAX_PRODUCT_DIGITS:,} "
            "(use fewer or smaller dice, or fewer attacks)",
        )


def check_states(count: int, moves: int = 0, advice: str = "a target with fewer hit points or smaller dice") -> None:
    """Refuse (`CostError`) a chain that has reached more than `MAX_STATES` states, or whose
    states have given more than `MAX_MOVES` transitions."""
    if count > MAX_STATES:
        raise CostError(
            None,
            f"following the target round by round needs more states than the limit of {MAX_STATES:,} "
            f"(reached {count:,} before stopping); use {advice}",
            "hp",
        )
    if moves > MAX_MOVES:
        raise CostError(
            None,
            f"following the target round by round needs more transitions than the limit of {MAX_MOVES:,} "
            f"(reached {moves:,} from {count:,} states before stopping); use {advice}",
            "hp",
        )


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}.__getitem__


def depth(text: str) -> int:
    """How deeply the brackets of a JSON text nest (strings skipped), without parsing it: a
    linear scan over the brackets alone, so no recursion however deep they go."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP, brackets)), default=0)  # every step in C


def loads(text: str, where: str | None, longest: int = MAX_JSON_TEXT) -> Any:
    """`json.loads`, within `longest` characters and `MAX_JSON_DEPTH` levels (checked first);
    malformed JSON or a number past the integer-text limit is an `InputError` at `where`."""
    if len(text) > longest:
        raise CostError(where, f"is {len(text):,} characters of JSON; the limit is {longest:,}")
    deep = depth(text)
    if deep > MAX_JSON_DEPTH:
        limit = f"the limit is {MAX_JSON_DEPTH} (a list of entries is 2)"
        raise CostError(where, f"nests its brackets {deep:,} deep; {limit}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(where, f"is not valid JSON: {err.msg} at character {err.pos + 1}") from None
    except (ValueError, RecursionError):  # a number past 4,300 digits
        raise InputError(where, "holds a number too long to read") from None
