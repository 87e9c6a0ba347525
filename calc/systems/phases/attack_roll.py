"""The pieces every `phases` roll shares: the attack target (from ability score and level, or
entered), the target number (attack target + Defense, with parry, cover and range), the d20
actually used (the phase roll, or the better or worse of it and a second d20 under advantage or
disadvantage), and what each face of that d20 does. All numbers come from the rules data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from calc.errors import DataError, InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist

Step = dict[str, str]

HIT, COVER, MISS = "hit", "cover", "miss"


def row_by(data: SystemData, table_id: str, column: str, value: Any) -> dict[str, Any]:
    """The row of a data table whose `column` equals `value` (compared as text, as choices are)."""
    for row in data.table(table_id):
        if str(row[column]) == str(value):
            return row
    raise DataError(f"{data.id}: table '{table_id}' has no row with {column} = {value}")


def in_range(value: int, bounds: dict[str, int | None]) -> bool:
    """Whether `value` lies in a range cell {min, max} (either end may be open)."""
    lo, hi = bounds["min"], bounds["max"]
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def phase_die(data: SystemData) -> Dist:
    """The die everyone rolls in a phase (and uses for the action itself)."""
    return dice.parse(data.fact("simultaneous-actions", "phase_die")).dist()


def attack_target(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> int:
    """The attacker's attack target: entered directly, or the ability score's target plus the
    level reduction."""
    if inputs["target_source"] == "direct":
        target = inputs["attack_target"]
        steps.append(data.step("attack-roll", f"Attack target {target} (entered)."))
        return target
    row = row_by(data, "ability-targets", "score", inputs["ability_score"])
    level = inputs["level"]
    band = next((r for r in data.table("level-reduction") if in_range(level, r["levels"])), None)
    if band is None:
        raise InputError("level", f"the rules notes give no level reduction for level {level}")
    target = row["target"] + band["reduction"]
    steps.append(
        data.step(
            "attack-targets",
            f"Ability target {row['score']} (lower is better) gives attack target {row['target']}; "
            f"level {level} changes it by {band['reduction']:+d}: {target}.",
        )
    )
    return target


def defense_parts(data: SystemData, attack_type: str, parry_id: str, cover_id: str) -> tuple[int, int]:
    """(parry bonus, cover bonus) added to Defense: parry counts against melee attacks only."""
    parry = row_by(data, "parry-bonuses", "id", parry_id)["parry"] if attack_type == "melee" else 0
    cover = row_by(data, "cover-bonuses", "id", cover_id)["bonus"]
    return parry, cover


@dataclass(frozen=True)
class TargetNumber:
    """Attack target + Defense; `cover` is the part of Defense that cover gave (a roll that reaches
    the number without it strikes the cover)."""

    attack_target: int
    defense: int
    cover: int = 0

    @property
    def value(self) -> int:
        return self.attack_target + self.defense


def target_number(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> TargetNumber:
    """The number an attack roll must reach, with every Defense adjustment cited."""
    target = attack_target(inputs, data, steps)
    kind = inputs["attack_type"]
    if inputs["feinted"]:
        steps.append(data.step("feint", "Feinted: this attack ignores the target's Defense entirely."))
        return TargetNumber(target, 0)
    parry, cover = defense_parts(data, kind, inputs["parry_weapon"], inputs["cover"])
    defense = inputs["defense"] + parry + cover
    parts = [f"Defense {inputs['defense']}"]
    if kind == "melee":
        if parry:
            parts.append(f"parry {parry}")
            weapon = row_by(data, "parry-bonuses", "id", inputs["parry_weapon"])["weapon"]
            steps.append(data.step("parry", f"The target's {weapon.lower()} adds its parry {parry:+d} against melee."))
    else:
        rule = "spell-attacks" if kind == "spell" else "ranged-attacks"
        if kind == "spell":
            steps.append(data.step("spell-attacks", "A spell attack follows the ranged-attack rules."))
        per_step = data.fact("ranged-attacks", "defense_per_step")
        extra = inputs["range_steps"] * per_step
        defense += extra
        note = "no parry against ranged attacks"
        if extra:
            note += f"; {inputs['range_steps']} × 10 ft beyond Point Blank: {extra:+d}"
            parts.append(f"range {extra}")
        steps.append(data.step(rule, note[0].upper() + note[1:] + "."))
    if cover:
        parts.append(f"cover {cover}")
        steps.append(
            data.step("cover", f"Cover adds {cover:+d}; a roll reaching the number without it hits the cover.")
        )
    number = TargetNumber(target, defense, cover)
    steps.append(
        data.step(
            "attack-roll",
            f"Target number = attack target {target} + " + " + ".join(parts) + f" = {number.value}.",
        )
    )
    return number


def check_number(inputs: dict[str, Any], data: SystemData, steps: list[Step], rule: str) -> TargetNumber:
    """For a roll to avoid an opportunity attack, or to grapple or shove: your target plus the
    enemy's Defense (its weapon's parry included; these are melee contests)."""
    target = attack_target(inputs, data, steps)
    parry, _ = defense_parts(data, "melee", inputs["parry_weapon"], "none")
    number = TargetNumber(target, inputs["defense"] + parry)
    steps.append(
        data.step(rule, f"Roll against target {target} + the enemy's Defense {number.defense} = {number.value}.")
    )
    return number


def used_roll(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> Dist:
    """The distribution of the d20 face the action uses."""
    die = phase_die(data)
    known = inputs["phase_roll"]
    if known and not die.min <= known <= die.max:
        raise InputError("phase_roll", f"must be a face of the phase die, {die.min} to {die.max}, or 0")
    first = Dist.constant(known) if known else die
    if known:
        steps.append(data.step("simultaneous-actions", f"The phase roll {known} is the action roll."))
    mode = inputs["roll_mode"]
    if mode == "normal":
        return first
    ruling = data.step("ruling:advantage-second-roll", "")
    if inputs["advantage_reading"] == "literal":
        ruling["text"] = (
            f"Other reading, {mode}: a second d20 is rolled and its result used instead, "
            "so advantage and disadvantage are the same fresh roll."
        )
        steps.append(ruling)
        return die
    ruling["text"] = (
        f"{mode.capitalize()}: a second d20 is rolled and the {'higher' if mode == 'advantage' else 'lower'} "
        "of the two is used (a high roll succeeds)."
    )
    steps.append(ruling)
    return first.binary(die, lambda a, b: kept_face(a, b, mode, "better-worse"))


def kept_face(first: int, second: int, mode: str, reading: str) -> int:
    """The d20 face an action uses from its phase roll and, under advantage or disadvantage, the
    second d20: the higher with advantage and the lower with disadvantage (the ruling: a roll
    succeeds when it is high), the second roll either way (the text word for word, `literal`)."""
    if mode == "normal":
        return first
    if reading == "literal":
        return second
    return max(first, second) if mode == "advantage" else min(first, second)


def face_outcome(face: int, number: TargetNumber, natural: bool, data: SystemData) -> str:
    """What a face of the attack d20 does: HIT, COVER (would have hit but for cover) or MISS."""
    if natural:
        if face == data.fact("critical-hits", "critical_roll"):
            return HIT
        if face == data.fact("fumbles", "fumble_roll"):
            return MISS
    if face >= number.value:
        return HIT
    if number.cover and face >= number.value - number.cover:
        return COVER
    return MISS


def needed_face(number: TargetNumber, natural: bool, data: SystemData) -> int | None:
    """The lowest face that hits (None when none can)."""
    die = phase_die(data)
    hits = [f for f in die.outcomes() if face_outcome(f, number, natural, data) == HIT]
    return min(hits) if hits else None
