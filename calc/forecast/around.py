"""A fight wrapped by another that changes only how a round steps (`between_rounds.BetweenRounds`:
rolls between rounds; `rest_of_round.MidRound`: a first round that is the rest of this one): the
rest of what `calc.forecast.chain` reads of a fight is the inner fight's."""

from __future__ import annotations

from typing import Any


class Around:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.fighters = inner.fighters

    @property
    def steps(self) -> int:
        return self.inner.steps  # type: ignore[no-any-return]

    @property
    def max_steps(self) -> int | None:
        return getattr(self.inner, "max_steps", None)

    @property
    def max_work(self) -> int | None:
        return getattr(self.inner, "max_work", None)

    def side_out(self, side: str, healths: tuple[Any, ...]) -> bool:
        return self.inner.side_out(side, healths)  # type: ignore[no-any-return]

    def over(self, healths: tuple[Any, ...]) -> bool:
        return self.inner.over(healths)  # type: ignore[no-any-return]

    def state_bound(self) -> int:
        return self.inner.state_bound()  # type: ignore[no-any-return]

    def orders_walked(self, limit: int) -> int:
        return self.inner.orders_walked(limit)  # type: ignore[no-any-return]
