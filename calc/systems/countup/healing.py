"""The healing calculator: hit points regained per day of rest (level × per-level + the
Constitution bonus, never above the maximum; never below 0 by the healing-floor ruling) and the
days of rest needed for the hit points wanted. Whole numbers only: rest has no dice."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.answers.format import number, signed
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.systems.countup.generated import natural_healing
from calc.systems.countup.readers import chosen_bonus

SHOWN_DAYS = 10
"""Days listed one by one; a longer rest shows these and its last day."""


def days_needed(wanted: int, per_day: int) -> int | None:
    """Days of rest to regain `wanted` hit points at `per_day` a day (None: never)."""
    if wanted <= 0:
        return 0
    if per_day <= 0:
        return None
    return -(-wanted // per_day)


def healing(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    level, now, top = inputs["level"], inputs["current_hp"], inputs["max_hp"]
    dead = data.fact("death", "death_hp")
    if now <= dead:
        raise InputError("current_hp", f"a character at {number(dead)} hit points or fewer is dead (got {number(now)})")
    if now > top:
        raise InputError("current_hp", f"more than the maximum of {top} hit points (got {now})")
    con, con_step = chosen_bonus(
        data, inputs["con_from"], inputs["con_score"], inputs["con_bonus"], "Constitution", "con_score"
    )
    per_level = data.fact("natural-healing", "hp_per_level")
    floor = inputs["healing_floor"]
    per_day = natural_healing(level, con, data, floor)
    raw = natural_healing(level, con, data, False)
    steps = [
        con_step,
        data.step(
            "natural-healing",
            f"Each day of rest: {level} × {per_level} (level) {signed(con)} (Constitution) = {number(raw)} hit points.",
        ),
    ]
    if raw < per_day:
        steps.append(data.step("ruling:healing-floor", f"A day of rest never costs hit points: {number(per_day)}."))
    elif raw < 0:
        steps.append(data.step("ruling:healing-floor", f"Read literally: each day of rest costs {-raw} hit points."))
    missing = top - now
    wanted = min(inputs["regain"], missing) if inputs["regain"] else missing
    if inputs["regain"] > missing:
        steps.append(
            data.step("natural-healing", f"Healing never goes above the maximum: only {missing} can come back.")
        )
    days = days_needed(wanted, per_day)
    goal = now + wanted
    if days is None:
        steps.append(data.step("natural-healing", f"Resting never brings {number(now)} up to {number(goal)}."))
        rate = f"Loses {-per_day}" if per_day < 0 else f"Regains {per_day}"
        summary = f"{rate} hit points a day of rest: never reaches {number(goal)}"
    else:
        steps.append(
            data.step(
                "natural-healing",
                f"{wanted} hit points at {per_day} a day: {days} day{'s' if days != 1 else ''} of rest "
                f"({number(now)} → {number(goal)}).",
            )
        )
        plural = "s" if days != 1 else ""
        summary = f"Regains {number(per_day)} hit points a day of rest: {days} day{plural} to reach {number(goal)}"
        if wanted == 0:
            summary = f"Already at {number(now)} of {top} hit points: no rest needed"

    hurt_max = data.fact("hurt", "hurt_hp")["max"]
    rows = [
        ["Hit points a day of rest", number(per_day)],
        ["Days of rest", "never" if days is None else str(days)],
        ["Hit points wanted", f"{wanted} ({number(now)} → {number(goal)} of {top})"],
    ]
    if now <= hurt_max:
        up = days_needed(hurt_max + 1 - now, per_day)
        rows.append(["Days until no longer Hurt", "never" if up is None else str(up)])
        steps.append(data.step("hurt", f"Hurt from {number(hurt_max)} hit points down; up again at {hurt_max + 1}."))
    last = days if days is not None else SHOWN_DAYS
    hp = now
    for day in range(1, last + 1):
        hp = min(hp + per_day, top)
        if day <= SHOWN_DAYS or day == last:
            rows.append([f"After day {day}", number(hp) + (" (dead)" if hp <= dead else "")])
        if hp <= dead:
            break
    return {
        "summary": summary,
        "table": result.table("Natural healing", ["", "Value"], rows),
        "steps": steps,
    }
