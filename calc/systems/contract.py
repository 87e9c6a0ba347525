"""The engine contract: what a system's module under `calc.systems` must expose.

A system is one data folder (`rules_data/<id>/`) plus one engine module
(`calc.systems.<id with - as _>`, a module or a package) satisfying `Engine`. `calc.systems.engine()`
is the one lookup from a system id to its engine; the site build, the data checks and `evaluate()`
all go through it. Checked for every system by tests/calc/test_contract.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from calc.inputs.data import SystemData
    from calc.numbers.dice import DiceExpr


class Calculator(Protocol):
    """`calculator(inputs, data) -> result`: `inputs` already validated against the calculator's
    declaration and filled with defaults (calc.inputs.declared); the result is the partial result dict
    that `calc.answers.result.complete` fills in (see CONTRIBUTING.md)."""

    def __call__(self, inputs: dict[str, Any], data: SystemData, /) -> dict[str, Any]: ...


class TableGenerator(Protocol):
    """`generator(data) -> {"columns": [...], "rows": [[...]], "caption": str | None}`."""

    def __call__(self, data: SystemData, /) -> dict[str, Any]: ...


class Turns(Protocol):
    """A system's round for the encounter tracker (its `turns` module, the engine's `TURNS`):
    `people` and `options` come checked and typed by `calc.turns.tracker` (see CONTRIBUTING.md)."""

    @property
    def ROUND_INPUTS(self) -> tuple[str, ...]: ...  # noqa: N802 - a module constant

    def dice_needed(
        self, people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict, /
    ) -> list[dict]: ...

    def turn_order(
        self, people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict, /
    ) -> dict: ...


class Fight(Protocol):
    """A system's rules of a fight (the engine's `FIGHT`): how a combatant fares by its hit points
    (and Wounds), whether the rules still let it act, what damage and healing do, the dice and
    changes a new round brings, and the system's own declarations and actions. `c` is a checked
    combatant of `calc.fight.state`; `options` every ruling's value. `calc.fight.hit_points.
    HitPointRules` serves a system whose data's `tracker.states` say it all."""

    ROUND_VALUES: tuple[tuple[str, str, str], ...]  # (input, spent key, rule): held afresh each round

    def check_extra(self, raw: Any, where: str, data: SystemData, /) -> dict[str, Any]: ...
    def shown_extra(self, c: dict[str, Any], data: SystemData, options: dict[str, Any], /) -> dict[str, Any]: ...
    def fresh(self, c: dict[str, Any], /) -> dict[str, Any]: ...
    def side_values(self, side: str, /) -> dict[str, Any]: ...
    def floor(self, c: dict[str, Any], data: SystemData, options: dict[str, Any], /) -> int: ...
    def standing(self, c: dict[str, Any], data: SystemData, /) -> dict[str, Any]: ...
    def holding(
        self, c: dict[str, Any], held: dict[str, Any], data: SystemData, options: dict[str, Any], /
    ) -> dict[str, Any]: ...
    def health(self, c: dict[str, Any], data: SystemData, options: dict[str, Any], /) -> dict[str, Any]: ...

    def damage(
        self,
        c: dict[str, Any],
        amount: int,
        data: SystemData,
        options: dict[str, Any],
        critical: bool,
        round_no: int,
        /,
    ) -> tuple[dict[str, Any], list[dict]]: ...

    def heal(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any], /
    ) -> tuple[dict[str, Any], list[dict]]: ...

    def round_dice(self, c: dict[str, Any], data: SystemData, options: dict[str, Any], /) -> list[dict]: ...

    def due_dice(self, people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict, /) -> dict: ...

    def start_round(
        self, c: dict[str, Any], rolls: dict[str, int], round_no: int, data: SystemData, options: dict[str, Any], /
    ) -> tuple[dict[str, Any], list[dict]]: ...

    def acts_in(self, c: dict[str, Any], data: SystemData, /) -> list[str] | None: ...
    def declaration(self, c: dict[str, Any], data: SystemData, /) -> list[dict[str, Any]]: ...
    def declare(self, c: dict[str, Any], raw: Any, data: SystemData, /) -> dict[str, Any]: ...
    def special(
        self, action: dict[str, Any], c: dict[str, Any], data: SystemData, options: dict, /
    ) -> dict[str, Any]: ...
    def spend_reserve(self, c: dict[str, Any], data: SystemData, /) -> tuple[dict[str, Any], list[dict]]: ...
    def round_pool(self, c: dict[str, Any], pool: dict[str, Any], data: SystemData, /) -> tuple[int, int]: ...
    def round_spend(self, c: dict[str, Any], pool: dict[str, Any], n: int, data: SystemData, /) -> dict[str, Any]: ...


class ResolveTable(Protocol):
    """One attack's Resolve at the table (calc/fight/resolve.py): the dice it rolls and what given
    faces decide and deal, by the system's own rules (calc/fight/resolve_rules.py `Table`, whose
    docstrings say each method's part). `rolls`: `{key: face}` of the other dice, by action key."""

    def die(self) -> str: ...
    def defense(self) -> dict[str, Any] | None: ...
    def rolls(self) -> list[dict[str, Any]]: ...
    def used(self, face: int, rolls: dict[str, int], /) -> tuple[int, str]: ...
    def dice(self) -> DiceExpr | None: ...
    def outcome(self, face: int, rolls: dict[str, int], /) -> tuple[bool, bool, str]: ...
    def amount(self, face: int, rolled: DiceExpr | None, critical: bool, /) -> int: ...
    def spends(self, face: int, rolls: dict[str, int], /) -> bool: ...


class Resolve(Protocol):
    """A system's Resolve rules (the engine's `RESOLVE`, its `resolve` module's class): made from the
    attacker's round inputs, the data and `needed()` (the hit calculator's `roll_needed`, asked
    only if the rules need it); `hit_extra(attacker)`: the round's hit inputs of the attack at hand
    beyond those of the same name (the round calculator's own `hit_extra`); `nth_attack(attacker,
    action, made)`: the attacker's inputs cut to the turn's attack at hand, an attack of the turn
    action declared in the data's `turn:` with `made` of them made before it this turn (the base
    `Table`'s: the round's first attack; action-points: that action's style)."""

    def __call__(
        self, attacker: dict[str, Any], data: SystemData, needed: Callable[[], dict[str, Any]], /
    ) -> ResolveTable: ...

    def hit_extra(self, attacker: dict[str, Any], /) -> dict[str, Any]: ...

    def nth_attack(self, attacker: dict[str, Any], action: dict[str, Any], made: int, /) -> dict[str, Any]: ...


class Engine(Protocol):
    """A system's engine module: its calculators and table generators by name (the names the
    system's calculators.yaml and tables.yaml declare), its round for the encounter tracker
    (`TURNS`), the health rules of its fights (`FIGHT`) and an attack resolved at the table
    (`RESOLVE`)."""

    @property
    def TURNS(self) -> Turns: ...  # noqa: N802 - a module constant

    @property
    def FIGHT(self) -> Fight: ...  # noqa: N802 - a module constant

    @property
    def RESOLVE(self) -> Resolve: ...  # noqa: N802 - a module constant

    @property
    def CALCULATORS(self) -> Mapping[str, Calculator]: ...  # noqa: N802 - a module constant

    @property
    def TABLES(self) -> Mapping[str, TableGenerator]: ...  # noqa: N802 - a module constant
