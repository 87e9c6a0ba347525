"""A round with what happens between rounds: rolls that open the round before anyone acts (a
morale roll due from last round's first Wound) and effects that end with the round (a critical
Wound that lasts to the end of the next round). Wraps a round (`round.Fight` or
`scripted_round.ScriptedFight`) and keeps the interface the chain reads.

`opens(i, health)`: fighter i's healths as the round opens, integer weights summing to `faces[i]`
(a fighter that rolls nothing: `[(faces[i], health)]`); `closes(i, health)`: its health as the
round ends. The round's total is the inner round's times every fighter's `faces`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from calc.forecast.around import Around
from calc.forecast.fighters import Health

Healths = tuple[Health, ...]
State = tuple[bool, Healths]


class BetweenRounds(Around):
    def __init__(
        self,
        inner: Any,
        opens: Callable[[int, Health], Sequence[tuple[int, Health]]],
        closes: Callable[[int, Health], Health],
        faces: Sequence[int],
    ) -> None:
        super().__init__(inner)
        self.opens = opens
        self.closes = closes
        self.faces = tuple(faces)
        self.total = inner.total
        for n in self.faces:
            self.total *= n
        self._opened: dict[Healths, list[tuple[int, Healths]]] = {}

    @property
    def start(self) -> State:
        return self.inner.start  # type: ignore[no-any-return]

    def step(self, state: State) -> list[tuple[int, State]]:
        first, healths = state
        if self.over(healths):
            return [(self.total, state)]
        merged: dict[State, int] = {}
        for w, opened in self._open(healths):
            if self.over(opened):  # the round's opening rolls ended the fight
                key = (False, opened)
                merged[key] = merged.get(key, 0) + w * self.inner.total
                continue
            for x, (f, after) in self.inner.step((first, opened)):
                key = (f, after if self.over(after) else self._close(after))
                merged[key] = merged.get(key, 0) + w * x
        return [(w, s) for s, w in merged.items()]

    def _open(self, healths: Healths) -> list[tuple[int, Healths]]:
        got = self._opened.get(healths)
        if got is None:
            dist: dict[Healths, int] = {(): 1}
            for i, h in enumerate(healths):
                nxt: dict[Healths, int] = {}
                for part, w in dist.items():
                    for x, after in self.opens(i, h):
                        nxt[(*part, after)] = nxt.get((*part, after), 0) + w * x
                dist = nxt
            got = self._opened[healths] = list((w, h) for h, w in dist.items())
        return got

    def _close(self, healths: Healths) -> Healths:
        return tuple(self.closes(i, h) for i, h in enumerate(healths))
