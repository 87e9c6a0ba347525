"""Build the JSON-ready pieces of a calculator result (see CONTRIBUTING.md for the whole shape).

Exact `Fraction`s stay exact here: each probability is sent as its fraction text and, for
display only, a float; a distribution's rows as integer weights over one common denominator.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from itertools import accumulate, repeat
from operator import truediv
from typing import Any

from calc.numbers import bounds
from calc.numbers.dist import Dist
from calc.turns import order

RESULT_KEYS = (
    "summary", "chances", "roll_needed", "distribution", "attack", "order", "pairwise", "table", "rounds",
    "first_attack", "steps",
)  # fmt: skip


def prob(p: Fraction | int) -> dict[str, Any]:
    """A probability (or any exact number) as {"fraction": "3/4", "float": 0.75}."""
    p = Fraction(p)
    written(p.denominator, "chances")
    written(p.numerator, "chances")
    return {"fraction": str(p), "float": float(p)}


def written(n: int, what: str) -> int:
    """`n`, checked to be short enough to write as decimal text (`bounds.MAX_DIGITS`, under the
    interpreter's own limit): past it, a typed refusal, never the ValueError `str()` raises. The
    engines bound their work before it starts; this is the last guard, on every exact number sent."""
    bounds.check_digits(bounds.digits(n), what, "use fewer or smaller dice, or fewer attacks")
    return n


def percent(p: Fraction | int, places: int = 1) -> str:
    """A probability as a percentage for summaries ("75%", "12.5%", "<0.1%")."""
    value = float(p) * 100
    if 0 < value < 10 ** (-places):
        return f"<{10 ** (-places):g}%"
    if 100 - 10 ** (-places) < value < 100:
        return f">{100 - 10 ** (-places):g}%"
    text = f"{value:.{places}f}"
    if "." in text:  # trailing zeros of the decimals only: "100" stays 100, "0" stays 0
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


def chance(label: str, p: Fraction | int) -> dict[str, Any]:
    return {"label": label, "p": prob(p)}


def dist_json(dist: Dist, label: str = "Damage") -> dict[str, Any]:
    """A full distribution: mean, min, max, and for every possible x the chance of exactly x
    (`pmf`) and of at least x (`at_least`), each as an integer `weight` over the one common
    `denominator` (both decimal text: they can have hundreds of digits) plus a display `float`.

    No fraction is reduced here: on a limit-sized distribution (thousands of outcomes with
    200-digit weights) reducing each by a gcd and writing it out was most of the engine's time.
    The page reduces only the rows it shows; `dist_probs` reads the exact values back.

    Under `row_limit(n)` (the page's request, calc/browser.py) a distribution of more than `n`
    rows keeps its `n` most likely (in order of total), plus `rows` (how many there are) and
    `chart` (the whole range in at most CHART_BARS bars of float chance, for drawing): only
    those rows are written out, which is most of a limit-sized request's time saved again."""
    total = written(dist.total, "distribution")  # every weight is at most the total
    xs, ws = dist.support()
    # P(≥ x) weights are the suffix sums; `map`/`accumulate` keep the per-row work in C.
    tails = list(accumulate(reversed(ws)))[::-1]
    limit, extra = _ROW_LIMIT.get(), {}
    if limit is not None and len(ws) > limit:
        extra = {"rows": len(ws), "chart": _chart(xs, tails, total)}
        # One denominator: the exact order of the chances is the order of the weights (a stable
        # sort, reversed or not, keeps equal weights in order of x).
        keep = sorted(sorted(range(len(ws)), key=ws.__getitem__, reverse=True)[:limit])
        xs, ws, tails = [xs[i] for i in keep], [ws[i] for i in keep], [tails[i] for i in keep]
    pmf = [
        {"x": x, "weight": w, "float": f}
        for x, w, f in zip(xs, map(str, ws), map(truediv, ws, repeat(total)), strict=True)
    ]
    at_least = [
        {"x": x, "weight": w, "float": f}
        for x, w, f in zip(xs, map(str, tails), map(truediv, tails, repeat(total)), strict=True)
    ]
    return {
        "label": label,
        "mean": prob(dist.mean),
        "min": dist.min,
        "max": dist.max,
        "denominator": str(total),
        "pmf": pmf,
        "at_least": at_least,
        **extra,
    }


CHART_BARS = 100
"""How many bars the coarse chart of a cut distribution has at most."""

_ROW_LIMIT: ContextVar[int | None] = ContextVar("row_limit", default=None)


@contextmanager
def row_limit(rows: int | None) -> Iterator[None]:
    """Within this block, `dist_json` writes out at most `rows` rows (None: all of them)."""
    token = _ROW_LIMIT.set(rows)
    try:
        yield
    finally:
        _ROW_LIMIT.reset(token)


def _chart(xs: Sequence[int], tails: Sequence[int], total: int) -> list[dict[str, Any]]:
    """The whole range in at most CHART_BARS equal-width bars of chance, bars with no possible
    outcome left out. A bar's weight is a difference of two P(≥ x) weights (`tails`, found by
    bisection): exact, as a float only at the end, and no pass over every row."""
    lo, hi = xs[0], xs[-1]
    width = -(-(hi - lo + 1) // CHART_BARS)  # ceiling division
    bars, n = [], len(xs)
    i = 0
    while i < n:
        start = lo + (xs[i] - lo) // width * width
        j = bisect_left(xs, start + width, i)
        weight = tails[i] - (tails[j] if j < n else 0)
        bars.append({"from": start, "to": min(start + width - 1, hi), "p": weight / total})
        i = j
    return bars


def dist_probs(distribution: dict[str, Any], key: str = "pmf") -> dict[int, Fraction]:
    """The exact chances of a `dist_json` distribution's rows: x → P(= x) (`key="pmf"`) or
    x → P(≥ x) (`key="at_least"`)."""
    total = int(distribution["denominator"])
    return {row["x"]: Fraction(int(row["weight"]), total) for row in distribution[key]}


def roll_needed(value: int | None, die: int = 20, text: str | None = None) -> dict[str, Any]:
    """The natural roll needed on the die: `value`+ hits; None when no roll can succeed."""
    if text is None:
        if value is None or value > die:
            text = "cannot succeed"
        elif value <= 1:
            text = "any roll"
        else:
            text = f"{value}+" if value < die else f"{die}"
    return {"die": f"d{die}", "value": value, "text": text}


def order_groups(
    entries: Sequence[tuple[str, Any]],
    key: Callable[[Any], Any],
    tie_key: Callable[[Any], Hashable] | None = None,
    score: Callable[[Any], str] = str,
    note: Callable[[list[Any]], str] | None = None,
) -> list[dict[str, Any]]:
    """Group (name, value) entries into an action order: sorted by `key(value)` (smallest first),
    entries with equal `tie_key(value)` (default: equal key) forming one tied group."""
    tie_key = tie_key or key
    ranked = sorted(entries, key=lambda e: key(e[1]))
    groups: list[list[tuple[str, Any]]] = []
    for entry in ranked:
        if groups and tie_key(groups[-1][0][1]) == tie_key(entry[1]):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    out = []
    for rank, group in enumerate(groups, start=1):
        out.append(
            {
                "rank": rank,
                "names": [name for name, _ in group],
                "score": score(group[0][1]),
                "tied": len(group) > 1,
                "note": note([v for _, v in group]) if note else "",
            }
        )
    return out


def pairwise(
    names: Sequence[str], chances: Callable[[int, int], tuple[Fraction, Fraction, Fraction]]
) -> list[dict[str, Any]]:
    """For each ordered pair i < j: P(i acts before j), P(tied), P(j before i); [] within
    `calc.turns.order.order_only()`."""
    if order.ORDER_ONLY.get():
        return []
    out = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            before, tied, after = chances(i, j)
            out.append(
                {
                    "first": names[i],
                    "second": names[j],
                    "before": prob(before),
                    "tied": prob(tied),
                    "after": prob(after),
                }
            )
    return out


def table(title: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> dict[str, Any]:
    """A table of text cells. Under `row_limit(n)` (the page's request) a table of more than `n`
    rows keeps its first `n`, plus `total_rows` (how many there are): the page shows those with
    the same "Show all" as a cut distribution (an active-defense damage table had 1,901 rows)."""
    kept = list(rows)
    limit, extra = _ROW_LIMIT.get(), {}
    if limit is not None and len(kept) > limit:
        extra = {"total_rows": len(kept)}
        kept = kept[:limit]
    return {"title": title, "columns": list(columns), "rows": [[str(c) for c in row] for row in kept], **extra}


def complete(partial: dict[str, Any]) -> dict[str, Any]:
    """Every result key present (None where a calculator has nothing to say)."""
    unknown = set(partial) - set(RESULT_KEYS)
    if unknown:
        raise KeyError(f"unexpected result keys: {sorted(unknown)}")
    out = {k: partial.get(k) for k in RESULT_KEYS}
    out["chances"] = out["chances"] or []
    out["steps"] = out["steps"] or []
    out["summary"] = out["summary"] or ""
    return out
