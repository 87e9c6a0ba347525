"""The exact means of a cyclic chain: its strongly connected components in reverse topological
order (Tarjan's, iteratively), each an exact linear system solved by Gauss–Jordan over Fractions."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from fractions import Fraction

State = Hashable


def components(start: State, successors: Callable[[State], list[State]]) -> list[list[State]]:
    """Tarjan's strongly connected components of the states reachable from `start`, iteratively,
    in reverse topological order (every component after the ones it leads to)."""
    index: dict[State, int] = {}
    low: dict[State, int] = {}
    on_stack: set[State] = set()
    stack: list[State] = []
    out: list[list[State]] = []
    work: list[tuple[State, Iterator[State]]] = [(start, iter(successors(start)))]
    index[start] = low[start] = 0
    stack.append(start)
    on_stack.add(start)
    counter = 1
    while work:
        state, children = work[-1]
        for child in children:
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(successors(child))))
                break
            if child in on_stack:
                low[state] = min(low[state], index[child])
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[state])
            if low[state] == index[state]:
                component = []
                while True:
                    s = stack.pop()
                    on_stack.discard(s)
                    component.append(s)
                    if s == state:
                        break
                out.append(component)
    return out


def solve(
    component: list[State],
    cache: Mapping[State, list[tuple[int, State]]],
    known: Mapping[State, Fraction | None],
    scale: int,
) -> list[Fraction]:
    """(scale·I − W) E = scale + Σ W_out E_out over one component, by exact Gauss–Jordan."""
    at = {s: i for i, s in enumerate(component)}
    n = len(component)
    rows: list[list[Fraction]] = []
    for s in component:
        row = [Fraction(0)] * (n + 1)
        row[at[s]] += scale
        row[n] = Fraction(scale)
        for w, t in cache[s]:
            if t in at:
                row[at[t]] -= w
            else:
                row[n] += w * known[t]  # type: ignore[operator]
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] for i in range(n)]
