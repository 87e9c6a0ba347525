"""Build the JSON-ready pieces of a calculator result (see CONTRIBUTING.md for the whole shape).

Exact `Fraction`s stay exact here: each probability is sent as its fraction text and, for
display only, a float.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from math import gcd
from typing import Any

from calc.dist import Dist

RESULT_KEYS = ("summary", "chances", "roll_needed", "distribution", "order", "pairwise", "table", "steps")


def prob(p: Fraction | int) -> dict[str, Any]:
    """A probability (or any exact number) as {"fraction": "3/4", "float": 0.75}."""
    p = Fraction(p)
    return {"fraction": str(p), "float": float(p)}


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
    """A full distribution: mean, min, max, P(= x) and P(≥ x) for every possible x.

    Each probability is weight / total reduced by one gcd, without building a Fraction; the
    reduced denominators are few (divisors of the total), so each is turned into text once. On a
    limit-sized distribution (thousands of outcomes with 200-digit weights) this is most of the
    engine's time."""
    total = dist.total
    texts: dict[int, str] = {}

    def ratio(n: int) -> dict[str, Any]:
        g = gcd(n, total)
        d = total // g
        if d == 1:
            return {"fraction": str(n // g), "float": n / total}
        text = texts.get(d)
        if text is None:
            text = texts[d] = str(d)
        return {"fraction": f"{n // g}/{text}", "float": n / total}

    pmf, at_least = [], []
    remaining = total
    for x, w in dist.weights():
        pmf.append({"x": x, "p": ratio(w)})
        at_least.append({"x": x, "p": ratio(remaining)})
        remaining -= w
    return {
        "label": label,
        "mean": prob(dist.mean),
        "min": dist.min,
        "max": dist.max,
        "pmf": pmf,
        "at_least": at_least,
    }


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
    """For each ordered pair i < j: P(i acts before j), P(tied), P(j before i)."""
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
    return {"title": title, "columns": list(columns), "rows": [[str(c) for c in row] for row in rows]}


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
