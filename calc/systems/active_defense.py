"""Active Defense: an attack roll against Passive Defense that the defender may still block or dodge.

The attacker's d20 turns a natural 20 into 30 and a natural 1 into −10; the attack lands when it
reaches Passive Defense and the defender's active roll (if any) does not match it. Damage is dice +
Strength − armour with a floor. Initiative is 1d20 + Dexterity modifier, highest first. Every number
comes from `rules_data/active-defense/` through `SystemData`; rulings are inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from calc import dice
from calc.data import SystemData
from calc.dist import Dist
from calc.errors import InputError
from calc.result import chance, dist_json, order_groups, pairwise, percent, roll_needed, table

TALENTS = ("light", "training", "mastery", "shield")
"""The condition columns of the two-weapon penalties table, in the inputs' order."""
HAND_COLUMN = {"primary": "primary", "off-hand": "off_hand"}


# --- formatting ---------------------------------------------------------------------------------
def signed(value: int) -> str:
    """+2, −1, 0 (true minus sign), as the site shows modifiers."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def _num(value: int | Fraction) -> str:
    """A whole number as is, anything else to two decimals (trailing zeros dropped); true minus."""
    if isinstance(value, int) or value.denominator == 1:
        text = str(int(value))
    else:
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def _plus(value: int) -> str:
    """`+ 2` or `− 2`, to follow another number in a sum."""
    return f"− {-value}" if value < 0 else f"+ {value}"


# --- dice and natural rolls ---------------------------------------------------------------------
def _die(data: SystemData, rule_id: str) -> int:
    """The sides of the single die a rule rolls (its `die` fact, e.g. 1d20)."""
    expr = dice.parse(data.fact(rule_id, "die"), f"{rule_id}.die")
    return expr.terms[0].sides


def natural_map(data: SystemData) -> Callable[[int], int]:
    """Face → value counted: the natural-rolls rule (natural 20 counts as 30, natural 1 as −10)."""
    high, high_as = data.fact("natural-rolls", "high_face"), data.fact("natural-rolls", "high_counts_as")
    low, low_as = data.fact("natural-rolls", "low_face"), data.fact("natural-rolls", "low_counts_as")
    return lambda face: high_as if face == high else (low_as if face == low else face)


def attack_die(data: SystemData) -> Dist:
    """The attack d20 with the natural-roll substitution applied."""
    return Dist.die(_die(data, "attack-roll")).map(natural_map(data))


# --- two-weapon fighting ------------------------------------------------------------------------
def applicable_rows(data: SystemData, flags: Mapping[str, bool]) -> list[dict[str, Any]]:
    """The listed table rows whose every ticked condition holds."""
    return [r for r in data.table("two-weapon-penalties") if all(flags[k] or not r[k] for k in TALENTS)]


def favourable_row(data: SystemData, flags: Mapping[str, bool]) -> dict[str, Any]:
    """The most favourable applicable row (ruling): least total penalty, then least primary penalty;
    among equally good rows, the first the source lists (`max` keeps the first maximum)."""
    return max(applicable_rows(data, flags), key=lambda r: (r["primary"] + r["off_hand"], r["primary"]))


def stacked_penalty(data: SystemData, flags: Mapping[str, bool], column: str) -> int:
    """The other reading: reductions add up from the normal row, never past 0."""
    rows = data.table("two-weapon-penalties")
    normal = next(r for r in rows if not any(r[k] for k in TALENTS))
    penalty = normal[column]
    if flags["light"]:
        penalty += data.fact("two-weapon-fighting", "light_reduction")
    for talent in TALENTS[1:]:
        if flags[talent]:
            alone = next(r for r in rows if r[talent] and not any(r[k] for k in TALENTS if k != talent))
            penalty += alone[column] - normal[column]
    return min(0, penalty)


def two_weapon_penalty(data: SystemData, hand: str, flags: Mapping[str, bool], reading: str) -> tuple[int, str]:
    """(penalty, how it was found) for a roll made with `hand` while fighting with two weapons."""
    column = HAND_COLUMN[hand]
    if reading == "stacking":
        return stacked_penalty(data, flags, column), "reductions added up from the normal row"
    row = favourable_row(data, flags)
    return row[column], f"row “{row['circumstances']}”"


def _flags(inputs: Mapping[str, Any], side: str) -> dict[str, bool]:
    return {k: bool(inputs[f"{side}_{k}"]) for k in TALENTS}


def two_weapon_combinations(data: SystemData) -> dict[str, Any]:
    """Every light × talents combination resolved under the ruling, with the stacking reading beside it."""
    rows = []
    for light in (False, True):
        for training in (False, True):
            for mastery in (False, True):
                for shield in (False, True):
                    flags = {"light": light, "training": training, "mastery": mastery, "shield": shield}
                    names = [
                        c["label"]
                        for c in data.table_info("two-weapon-penalties")["columns"]
                        if c["id"] in TALENTS[1:] and flags[c["id"]]
                    ]
                    row = favourable_row(data, flags)
                    rows.append(
                        [
                            "yes" if light else "no",
                            ", ".join(names) or "none",
                            row["circumstances"],
                            signed(row["primary"]),
                            signed(row["off_hand"]),
                            signed(stacked_penalty(data, flags, "primary")),
                            signed(stacked_penalty(data, flags, "off_hand")),
                        ]
                    )
    columns = [
        ("light", "Off-hand weapon light"),
        ("talents", "Talents"),
        ("row", "Row used (ruling)"),
        ("primary", "Primary hand"),
        ("off_hand", "Off hand"),
        ("stacked_primary", "Primary hand (reductions add up)"),
        ("stacked_off_hand", "Off hand (reductions add up)"),
    ]
    return {"columns": [{"id": i, "label": label} for i, label in columns], "rows": rows, "caption": None}


# --- the attack against Passive Defense and an active defense -----------------------------------
@dataclass(frozen=True)
class Exchange:
    """One attack: its total's distribution, the Passive Defense, and the defender's roll if any."""

    attack: Dist
    bonus: int
    passive_defense: int
    defense: Dist | None
    defender_wins_ties: bool

    def p_beats_passive(self) -> Fraction:
        return self.attack.p_ge(self.passive_defense)

    def p_negated_at(self, total: int) -> Fraction:
        """Chance the active defense negates an attack total."""
        if self.defense is None:
            return Fraction(0)
        return self.defense.p_ge(total) if self.defender_wins_ties else self.defense.p_gt(total)

    def p_lands(self) -> Fraction:
        return sum(
            (p * (1 - self.p_negated_at(t)) for t, p in self.attack.items() if t >= self.passive_defense),
            Fraction(0),
        )


def exchange(inputs: Mapping[str, Any], data: SystemData, steps: list[dict[str, str]]) -> Exchange:
    """Build the attack and defense rolls from the inputs, recording why in `steps`."""
    skill, ability, other = inputs["attack_skill"], inputs["attack_ability"], inputs["attack_modifier"]
    crit = inputs["critical_penalty"]
    allowed = data.fact("critical-attacks", "penalty")
    if crit and not allowed["min"] <= crit <= allowed["max"]:
        raise InputError("critical_penalty", f"must be 0 or between {allowed['min']} and {allowed['max']}")
    bonus = skill + ability + other + crit
    parts = f"skill {skill} + ability {signed(ability)}"
    if other:
        parts += f" + other {signed(other)}"
    steps.append(data.step("attack-bonus", f"Attack bonus: {parts} = {signed(skill + ability + other)}."))
    if crit:
        steps.append(data.step("critical-attacks", f"Critical attack: {signed(crit)} to hit."))
    reading = inputs["two_weapon_reading"]
    if inputs["attacker_two_weapon"] != "none":
        hand = inputs["attacker_two_weapon"]
        penalty, how = two_weapon_penalty(data, hand, _flags(inputs, "attacker"), reading)
        bonus += penalty
        steps.append(
            data.step("two-weapon-fighting", f"Two weapons, {hand.replace('-', ' ')}: {signed(penalty)} ({how}).")
        )
        steps.append(
            data.step("ruling:two-weapon-unlisted", f"Unlisted combinations: {reading.replace('-', ' ')} reading.")
        )
    pd = data.fact("passive-defense", "base") + inputs["defender_dex"]
    steps.append(
        data.step(
            "passive-defense",
            f"Passive Defense {data.fact('passive-defense', 'base')} {_plus(inputs['defender_dex'])} = {_num(pd)}.",
        )
    )
    attack = attack_die(data) + bonus
    nat = natural_map(data)
    high, low = data.fact("natural-rolls", "high_face"), data.fact("natural-rolls", "low_face")
    steps.append(
        data.step(
            "natural-rolls",
            f"Attack total: d20 {signed(bonus)}; a natural {high} counts as {_num(nat(high))}, "
            f"a natural {low} as {_num(nat(low))}.",
        )
    )
    steps.append(data.step("attack-roll", f"The attack hits when its total is {_num(pd)} or more."))
    defense = None
    if inputs["defense"] != "none":
        defense = _defense_roll(inputs, data, steps)
    ties = inputs["defense_ties"] == "defender"
    if defense is not None:
        text = (
            "a block or dodge equal to the attack total negates it"
            if ties
            else "the block or dodge must beat the attack total"
        )
        steps.append(data.step("ruling:active-defense-ties", f"Ties: {text}."))
    return Exchange(attack, bonus, pd, defense, ties)


def _defense_roll(inputs: Mapping[str, Any], data: SystemData, steps: list[dict[str, str]]) -> Dist:
    kind = inputs["defense"]
    if kind == "block":
        bonus = inputs["block_skill"] + inputs["defender_str"]
        text = f"Block: d20 + weapon skill {inputs['block_skill']} + Strength {signed(inputs['defender_str'])}"
    else:
        bonus = inputs["dodge_skill"] + inputs["defender_dex"]
        text = f"Dodge: d20 + Defense skill {inputs['dodge_skill']} + Dexterity {signed(inputs['defender_dex'])}"
    if inputs["defender_modifier"]:
        bonus += inputs["defender_modifier"]
        text += f" + other {signed(inputs['defender_modifier'])}"
    steps.append(data.step(kind, text + "."))
    if inputs["defender_ranged"]:
        penalty = data.fact("ranged-in-melee", "penalty")
        bonus += penalty
        steps.append(data.step("ranged-in-melee", f"Ranged weapon in melee: {signed(penalty)}."))
    if inputs["defender_two_weapon"] != "none":
        hand = inputs["defender_two_weapon"]
        if kind == "block":
            penalty, how = two_weapon_penalty(data, hand, _flags(inputs, "defender"), inputs["two_weapon_reading"])
            bonus += penalty
            steps.append(
                data.step(
                    "two-weapon-fighting", f"Blocking while fighting with two weapons: {signed(penalty)} ({how})."
                )
            )
        else:
            steps.append(
                data.step("two-weapon-fighting", "Two-weapon penalties touch attack and block rolls, not dodges.")
            )
    face = Dist.die(_die(data, kind))
    if inputs["natural_rolls_on_defense"]:
        face = face.map(natural_map(data))
        steps.append(
            data.step(
                "ruling:natural-rolls-scope", "Natural 20 and 1 substituted on the defender's roll too (other reading)."
            )
        )
    else:
        steps.append(
            data.step(
                "ruling:natural-rolls-scope", "The defender's die counts as rolled (natural-roll rule on attacks only)."
            )
        )
    steps.append(data.step("active-defense", f"{kind.capitalize()} total: d20 {signed(bonus)}."))
    return face + bonus


def needed_face(data: SystemData, bonus: int, target: int) -> int | None:
    """The lowest natural face whose counted value + bonus reaches the target (None: no face does)."""
    nat = natural_map(data)
    for face in range(1, _die(data, "attack-roll") + 1):
        if nat(face) + bonus >= target:
            return face
    return None


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    ex = exchange(inputs, data, steps)
    sides = _die(data, "attack-roll")
    face = needed_face(data, ex.bonus, ex.passive_defense)
    nat = natural_map(data)
    text = None
    if face == sides and sides + ex.bonus < ex.passive_defense:
        text = f"natural {sides} only (counts as {_num(nat(sides))})"
    needed = roll_needed(face, sides, text)
    beats, lands = ex.p_beats_passive(), ex.p_lands()
    chances = [chance("Attack lands", lands), chance(f"Beats Passive Defense {_num(ex.passive_defense)}", beats)]
    summary = f"Beats Passive Defense {_num(ex.passive_defense)} on {needed['text']} ({percent(beats)})"
    if ex.defense is not None:
        negated_given_hit = (beats - lands) / beats if beats else Fraction(0)
        chances.append(
            chance(f"{inputs['defense'].capitalize()} negates an attack that beat Passive Defense", negated_given_hit)
        )
        summary += f"; the {inputs['defense']} negates {percent(negated_given_hit)} of those; lands {percent(lands)}"
    rows = []
    for f in range(1, sides + 1):
        total = nat(f) + ex.bonus
        reaches = total >= ex.passive_defense
        negate = ex.p_negated_at(total) if reaches else None
        rows.append(
            [
                f,
                _num(total),
                "yes" if reaches else "no",
                "—" if negate is None else percent(negate),
            ]
        )
    columns = ["Natural roll", "Attack total", "Beats Passive Defense", "Negated by the active defense"]
    if ex.defense is None:
        columns, rows = columns[:3], [r[:3] for r in rows]
    return {
        "summary": summary,
        "chances": chances,
        "roll_needed": needed,
        "table": table("Each face of the attack die", columns, rows),
        "steps": steps,
    }


# --- damage -------------------------------------------------------------------------------------
def _at_least(dist: Dist) -> list[tuple[int, float]]:
    """(x, P(≥ x)) for every outcome, for display only (floats), in one pass from the top."""
    out, tail = [], 0
    for x, w in reversed(list(dist.weights())):
        tail += w
        out.append((x, tail / dist.total))
    return out[::-1]


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    if inputs["critical_bonus"] and not inputs["critical_penalty"]:
        raise InputError("critical_bonus", "applies only to a critical attack: set a critical attack penalty too")
    ex = exchange(inputs, data, steps)
    lands = ex.p_lands()
    expr: dice.DiceExpr = inputs["damage_dice"]
    flat = inputs["damage_strength"] + inputs["critical_bonus"] - inputs["armor"]
    floor = int(inputs["damage_floor"])
    text = f"{expr} + Strength {signed(inputs['damage_strength'])}"
    if inputs["critical_bonus"]:
        text += f" + critical bonus {inputs['critical_bonus']}"
        steps.append(
            data.step("ruling:critical-damage-bonus", f"Critical damage bonus entered: +{inputs['critical_bonus']}.")
        )
    text += f" − armour {inputs['armor']}"
    steps.append(data.step("damage-roll", f"Damage on a hit: {text}."))
    steps.append(data.step("ruling:damage-floor", f"Least damage from an attack that lands: {floor}."))
    dealt = (expr.dist() + flat).map(lambda x: max(floor, x))
    x = inputs["at_least"]
    headline = lands * dealt.p_ge(x)
    chances = [
        chance(f"Lands and deals at least {x}", headline),
        chance("Attack lands", lands),
        chance("Lands and deals any damage", lands * dealt.p_ge(1)),
    ]
    shown = float(lands)
    rows = [[v, percent(q), percent(shown * q)] for v, q in _at_least(dealt)]
    return {
        "summary": (
            f"Lands {percent(lands)}; {percent(headline)} to land and deal at least {x}; "
            f"mean {_num(dealt.mean)} on a hit"
        ),
        "chances": chances,
        "distribution": dist_json(dealt, "Damage when the attack lands"),
        "table": table("Damage of at least x", ["x", "P(≥ x) when it lands", "P(lands and ≥ x)"], rows),
        "steps": steps,
    }


# --- initiative ---------------------------------------------------------------------------------
def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    sides = _die(data, "initiative")
    by_agility = inputs["initiative_ability"] == "agility"
    break_by_dex = inputs["initiative_ties"] == "dexterity"
    steps = [
        data.step(
            "initiative",
            f"Initiative: 1d{sides} + {'Agility score' if by_agility else 'Dexterity modifier'}, highest first.",
        ),
        data.step(
            "ruling:initiative-ability",
            "Agility score added (the prose's reading)."
            if by_agility
            else "Dexterity modifier added (the formula wins).",
        ),
    ]
    people = inputs["combatants"]
    names, rolls, dex = [], [], []
    for i, c in enumerate(people, start=1):
        if c["roll"] > sides:
            raise InputError(f"combatants[{i}].roll", f"must be between 1 and {sides}, or 0 when not rolled yet")
        add = c["agility"] if by_agility else c["dexterity"]
        rolls.append(Dist.constant(c["roll"] + add) if c["roll"] else Dist.die(sides) + add)
        names.append(c["name"])
        dex.append(c["dexterity"])
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise InputError("combatants", f"two combatants are called '{dup}': give each a different name")

    def chances(i: int, j: int) -> tuple[Fraction, Fraction, Fraction]:
        below, equal, above = rolls[i].compare(rolls[j])
        if break_by_dex and dex[i] != dex[j]:
            return (above + equal, Fraction(0), below) if dex[i] > dex[j] else (above, Fraction(0), below + equal)
        return above, equal, below

    entries = [(names[i], i) for i in range(len(people))]
    rolled = [bool(c["roll"]) for c in people]

    def score(i: int) -> Fraction:
        return rolls[i].mean

    def tie_key(i: int) -> tuple[Any, ...]:
        return (score(i), rolled[i], dex[i] if break_by_dex else None)

    order = order_groups(
        entries,
        key=lambda i: (-score(i), not rolled[i], -dex[i] if break_by_dex else 0),
        tie_key=tie_key,
        score=lambda i: _num(score(i)) if rolled[i] else f"≈ {_num(score(i))}",
        note=lambda group: "" if rolled[group[0]] else "not rolled yet: expected score",
    )
    if break_by_dex:
        steps.append(
            data.step(
                "ruling:initiative-ties", "Equal totals: the higher Dexterity modifier acts first (other reading)."
            )
        )
    else:
        steps.append(data.step("ruling:initiative-ties", "Equal totals are shown as tied; the table settles them."))
    first = order[0]
    lead = ", ".join(first["names"])
    alone = [acts_first_alone(rolls, dex if break_by_dex else None, i) for i in range(len(rolls))]
    if all(rolled):
        summary = f"{lead} {'tie for' if first['tied'] else 'acts'} first"
    else:
        best = max(range(len(rolls)), key=lambda i: alone[i])
        summary = f"{names[best]} is likeliest to act first alone ({percent(alone[best])})"
    return {
        "summary": summary,
        "chances": [chance(f"{names[i]} acts first, tied with no one", alone[i]) for i in range(len(rolls))],
        "order": order,
        "pairwise": pairwise(names, chances),
        "steps": steps,
    }


def acts_first_alone(rolls: list[Dist], dex: list[int] | None, i: int) -> Fraction:
    """P(combatant i acts before every other one): each other total is lower, or equal with a lower
    Dexterity modifier when `dex` is given (the tie-break reading)."""
    total = Fraction(0)
    for x, p in rolls[i].items():
        for j, other in enumerate(rolls):
            if j != i:
                below = other.p_lt(x)
                if dex is not None and dex[j] < dex[i]:
                    below += other.p(x)
                p *= below
                if not p:
                    break
        total += p
    return total


CALCULATORS = {"hit": hit, "damage": damage, "initiative": initiative}
TABLES = {"two_weapon_combinations": two_weapon_combinations}
