"""Countup: d20 + bonuses against ascending AC, damage with the Hurt penalty, and an initiative
count that runs *up* from 1 (lowest total first, players before NPCs on a tie).

Every number comes from `rules_data/countup/` through `SystemData`: the attack and initiative dice,
the Hurt penalties and thresholds, which attacks add Strength to damage, the ability score table
(a ruling), the damage and healing floors (rulings).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from calc import dice, result
from calc.data import SystemData
from calc.dist import Dist
from calc.errors import DataError, InputError

ATTACK_RULES = {"melee": "attack-melee", "ranged": "attack-ranged"}
"""Which rule governs each kind of attack roll."""

STRENGTH_FACTS = {"melee": "melee_adds_strength", "thrown": "thrown_adds_strength", "ranged": "ranged_adds_strength"}
"""Which fact of the damage rule says whether each kind of attack adds the Strength bonus."""

ABILITY_TABLE = "ability-score-bonuses"


# --- small readers of the data --------------------------------------------------------------------
def die_sides(data: SystemData, rule_id: str, fact: str) -> int:
    """The number of sides of a single-die fact such as `d20`."""
    expr = dice.parse(data.fact(rule_id, fact), f"{rule_id}.{fact}")
    if len(expr.terms) != 1 or expr.terms[0].count != 1 or expr.modifier:
        raise DataError(f"{data.id}: fact {rule_id}.{fact} must be a single die, not {expr}")
    return expr.terms[0].sides


def signed(n: int) -> str:
    """A modifier as shown to players: +2, −3, +0."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def number(n: int) -> str:
    """A plain number with a true minus sign: 5, −10."""
    return str(n) if n >= 0 else f"−{-n}"


def range_label(low: int | None, high: int | None) -> str:
    """A score band as the site shows it: "3", "4–5", "18+"."""
    if high is None:
        return f"{low}+"
    if low is None:
        return f"{high} or less"
    return str(low) if low == high else f"{low}–{high}"


def ability_bonus_of(score: int, data: SystemData, input_name: str) -> int:
    """The bonus of an ability score, from the ability score table (a ruling)."""
    rows = data.table(ABILITY_TABLE)
    for row in rows:
        low, high = row["score"]["min"], row["score"]["max"]
        if (low is None or score >= low) and (high is None or score <= high):
            return row["bonus"]
    lowest = min(r["score"]["min"] for r in rows)
    highest = max(r["score"]["max"] for r in rows)
    raise InputError(
        input_name,
        f"the ability score table covers scores {lowest} to {highest} (got {score}); type the bonus in instead",
    )


def chosen_bonus(
    data: SystemData, how: str, score: int, bonus: int, ability: str, score_input: str
) -> tuple[int, dict[str, str]]:
    """The ability bonus the user asked for (looked up from the score, or typed in), and the step."""
    if how == "score":
        value = ability_bonus_of(score, data, score_input)
        text = f"{ability} {score} gives {signed(value)} (the site's ability score table)."
        return value, data.step("ability-bonuses", text)
    text = f"{ability} bonus {signed(bonus)} as typed in, instead of the site's table."
    return bonus, data.step("ruling:ability-bonus-table", text)


# --- hit ------------------------------------------------------------------------------------------
def hit_probability(need: int, sides: int, natural_rolls: bool) -> Fraction:
    """P(d{sides} ≥ need); with natural rolls the top face always hits and a 1 always misses."""
    if natural_rolls:
        need = min(max(need, 2), sides)
    return Dist.die(sides).p_ge(need)


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Chance that d20 + ability bonus + to-hit + misc (− Hurt) reaches the target's AC."""
    rule = ATTACK_RULES[inputs["attack"]]
    sides = die_sides(data, rule, "attack_die")
    ability = data.fact(rule, "ability")
    ability_value, ability_step = chosen_bonus(
        data, inputs["ability_from"], inputs["ability_score"], inputs["ability_bonus"], ability, "ability_score"
    )
    parts = [(inputs["to_hit"], "to-hit"), (ability_value, ability), (inputs["misc"], "misc")]
    steps = [ability_step]
    if inputs["hurt"]:
        penalty = data.fact("hurt", "hit_penalty")
        parts.append((penalty, "Hurt"))
        steps.append(data.step("hurt", f"The attacker is Hurt: {signed(penalty)} to hit."))
    total = sum(v for v, _ in parts)
    ac = inputs["ac"]
    need = ac - total
    shown = " ".join(f"{signed(v)} ({label})" for v, label in parts)
    steps.insert(0, data.step(rule, f"d{sides} {shown} = d{sides} {signed(total)}; hits when the total ≥ AC {ac}."))

    natural = inputs["natural_rolls"]
    p = hit_probability(need, sides, natural)
    if natural:
        value = min(max(need, 2), sides)
        steps.append(
            data.step(
                "ruling:natural-rolls",
                f"Option on: a natural {sides} always hits and a natural 1 always misses, so {value}+ is needed.",
            )
        )
    else:
        value = need
        steps.append(data.step("natural-rolls", "No natural-roll rule: only the total counts (the site's ruling)."))
    needed = result.roll_needed(value, sides)
    steps.append(
        data.step(rule, f"Needs {number(ac)} − {number(total)} = {number(need)} on the d{sides}: {needed['text']}.")
    )
    if p == 0:
        summary = f"Cannot hit AC {ac} (needs {number(need)} on a d{sides})"
    elif p == 1:
        summary = f"Hits AC {ac} on any roll (100%)"
    else:
        summary = f"Hits AC {ac} on {needed['text']} ({result.percent(p)})"
    return {
        "summary": summary,
        "chances": [result.chance("Hit", p), result.chance("Miss", 1 - p)],
        "roll_needed": needed,
        "steps": steps,
    }


# --- damage ---------------------------------------------------------------------------------------
def damage_dist(expr: dice.DiceExpr, modifier: int, floor: int | None) -> Dist:
    """Dice + modifier, with every total below `floor` counted as `floor` (None: no floor)."""
    raw = expr.dist() + modifier
    return raw if floor is None else raw.map(lambda x: max(x, floor))


def target_outcomes(
    data: SystemData, damage: Dist, target: str, hp: int, npc_hurt: bool
) -> tuple[list[tuple[str, Fraction]], dict[str, str]]:
    """P(killed), P(Hurt) (when the target can be Hurt) and P(still up) after the hit."""
    uses_hurt = target == "character" or npc_hurt
    if uses_hurt:
        dead_at = data.fact("death", "death_hp")
        hurt_band = data.fact("hurt", "hurt_hp")
        who = "A character" if target == "character" else "An important NPC (the GM uses Hurt)"
        if hp <= dead_at:
            raise InputError("target_hp", f"a target at {number(hp)} hit points or fewer is already dead")
        after = hp - damage
        killed = after.p_le(dead_at)
        hurt = after.p_where(lambda x: hurt_band["min"] <= x <= hurt_band["max"])
        up = after.p_gt(hurt_band["max"])
        rule = "death" if target == "character" else "ruling:npc-death-at-zero"
        text = (
            f"{who} at {number(hp)} hit points is Hurt from {number(hurt_band['max'])} to "
            f"{number(hurt_band['min'])} and dies at {number(dead_at)} or fewer."
        )
        return [("Killed", killed), ("Hurt", hurt), ("Still up, not Hurt", up)], data.step(rule, text)
    dead_at = data.fact("npc-death", "npc_death_hp")
    if hp <= dead_at:
        raise InputError("target_hp", f"an ordinary NPC at {number(hp)} hit points or fewer is already dead")
    after = hp - damage
    killed = after.p_le(dead_at)
    text = f"An ordinary NPC or monster at {number(hp)} hit points dies at {number(dead_at)} or fewer (never Hurt)."
    return [("Killed", killed), ("Still up", 1 - killed)], data.step("npc-death", text)


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """The full damage distribution of one hit, and optionally its effect on a target."""
    expr: dice.DiceExpr = inputs["dice"]
    attack = inputs["attack"]
    adds_strength = data.fact("damage", STRENGTH_FACTS[attack])
    parts: list[tuple[int, str]] = []
    steps: list[dict[str, str]] = []
    kind = {"melee": "A melee weapon", "thrown": "A thrown weapon or composite bow", "ranged": "This ranged weapon"}
    if adds_strength:
        strength, strength_step = chosen_bonus(
            data, inputs["strength_from"], inputs["strength_score"], inputs["strength_bonus"], "Strength",
            "strength_score",
        )  # fmt: skip
        parts.append((strength, "Strength"))
        steps.append(data.step("damage", f"{kind[attack]} adds the Strength bonus to damage."))
        steps.append(strength_step)
    else:
        steps.append(data.step("damage", f"{kind[attack]} adds no Strength bonus to damage."))
    parts.append((inputs["misc"], "misc"))
    if inputs["hurt"]:
        penalty = data.fact("hurt", "damage_penalty")
        parts.append((penalty, "Hurt"))
        steps.append(data.step("hurt", f"The attacker is Hurt: {signed(penalty)} to damage."))
    modifier = sum(v for v, _ in parts)
    shown = " ".join(f"{signed(v)} ({label})" for v, label in parts)
    steps.insert(0, data.step("damage", f"{expr} {shown} = {expr.plus(modifier)}."))

    floor: int | None = None
    raw = expr.dist() + modifier
    if inputs["damage_floor"]:
        floor = data.fact("damage", "minimum")
        if raw.min < floor:
            steps.append(
                data.step(
                    "ruling:damage-floor",
                    f"Totals below {floor} count as {floor}: P = {result.percent(raw.p_lt(floor))}.",
                )
            )
    elif raw.min < 0:
        steps.append(data.step("ruling:damage-floor", "Option off: totals below 0 are kept as rolled."))
    dist = damage_dist(expr, modifier, floor)

    chances = []
    summary = f"{expr.plus(modifier)}: {number(dist.min)} to {number(dist.max)} damage, mean {float(dist.mean):.4g}"
    if inputs["target"] != "none":
        outcomes, target_step = target_outcomes(data, dist, inputs["target"], inputs["target_hp"], inputs["npc_hurt"])
        chances += [result.chance(label, p) for label, p in outcomes]
        steps.append(data.step("apply-damage", "Damage comes off the target's current hit points."))
        steps.append(target_step)
        summary += "; " + ", ".join(f"{label.lower()} {result.percent(p)}" for label, p in outcomes[:2])
    chances.append(result.chance("At least 1 damage", dist.p_ge(1)))
    return {"summary": summary, "chances": chances, "distribution": result.dist_json(dist), "steps": steps}


# --- initiative -----------------------------------------------------------------------------------
PLAYER, NPC = "player", "npc"


def initiative_dice(data: SystemData) -> dict[str, int]:
    """Die name (as the calculator's choice values spell it) → sides, from the initiative rule."""
    sides = (die_sides(data, "initiative", fact) for fact in ("die", "talent_die"))
    return {f"d{n}": n for n in sides}


def acts_before(a: Dist, a_side: str, b: Dist, b_side: str) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a acts before b), P(tied: same side, same total), P(b before a)); lowest total first,
    a player before an NPC on the same total."""
    lower, equal, higher = a.compare(b)
    if a_side == b_side:
        return lower, equal, higher
    if a_side == PLAYER:
        return lower + equal, Fraction(0), higher
    return lower, Fraction(0), higher + equal


def first_chance(i: int, totals: list[Dist], sides: list[str]) -> Fraction:
    """P(nobody acts strictly before combatant i): they act first, alone or in a tied group."""
    chance = Fraction(0)
    for t, p in totals[i].items():
        for j, other in enumerate(totals):
            if j == i:
                continue
            beaten = other.p_lt(t)
            if sides[j] == PLAYER and sides[i] == NPC:
                beaten += other.p(t)
            p *= 1 - beaten
            if not p:
                break
        chance += p
    return chance


def unique_names(names: list[str]) -> list[str]:
    """Names made distinct ("Orc", "Orc (2)") so pairs and groups can be told apart."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Order of a list of combatants (rolled or not) and the chance each acts before each other."""
    dice_sides = initiative_dice(data)
    people = inputs["combatants"]
    names = unique_names([c["name"] for c in people])
    totals: list[Dist] = []
    rolled: list[int | None] = []
    for index, (c, name) in enumerate(zip(people, names, strict=True), start=1):
        if c["die"] not in dice_sides:
            raise InputError(f"combatants[{index}].die", f"must be one of {', '.join(dice_sides)}")
        sides = dice_sides[c["die"]]
        roll = c["roll"]
        if roll and not 1 <= roll <= sides:
            raise InputError(
                f"combatants[{index}].roll", f"{name} rolled {roll}, but a d{sides} shows 1 to {sides} (0 = not rolled)"
            )
        if roll:
            totals.append(Dist.constant(roll + c["modifier"]))
            rolled.append(roll + c["modifier"])
        else:
            totals.append(Dist.die(sides) + c["modifier"])
            rolled.append(None)
    side = [c["side"] for c in people]

    start = data.fact("initiative-count", "count_start")
    steps = [
        data.step(
            "initiative",
            "; ".join(
                f"{n}: {c['die']} {signed(c['modifier'])}"
                + (f", rolled {c['roll']} → {number(t)}" if t is not None else "")
                for n, c, t in zip(names, people, rolled, strict=True)
            )
            + ".",
        ),
        data.step("initiative-count", f"The GM counts up from {start}: the lowest total acts first."),
        data.step("initiative-ties", "On the same total a player acts before an NPC; tied players choose their order."),
    ]

    def side_rank(s: str) -> int:
        return 0 if s == PLAYER else 1

    entries = [(n, (t, s)) for n, t, s in zip(names, rolled, side, strict=True) if t is not None]

    def tie_note(values: list[tuple[int, str]]) -> str:
        if len(values) < 2:
            return ""
        return "players choose their order" if values[0][1] == PLAYER else "the GM chooses their order"

    order = result.order_groups(
        entries, key=lambda v: (v[0], side_rank(v[1])), score=lambda v: number(v[0]), note=tie_note
    )
    waiting = [n for n, t in zip(names, rolled, strict=True) if t is None]
    if waiting:
        order.append({"rank": len(order) + 1, "names": waiting, "score": "—", "tied": False, "note": "not rolled yet"})
    if any(g["tied"] and g["note"].startswith("the GM") for g in order) or _npc_ties_possible(totals, side):
        steps.append(
            data.step("ruling:initiative-npc-ties", "NPCs on the same total form a tied group: the GM orders them.")
        )

    pairs = result.pairwise(names, lambda i, j: acts_before(totals[i], side[i], totals[j], side[j]))
    firsts = [(names[i], first_chance(i, totals, side)) for i in range(len(names))]
    chances = [result.chance(f"{name} acts first (ties included)", p) for name, p in firsts]

    if not waiting:
        lead = order[0]
        who = " and ".join(lead["names"])
        summary = f"First: {who} ({lead['score']}{', tied' if lead['tied'] else ''})"
    else:
        name, p = max(firsts, key=lambda f: f[1])
        summary = f"Most likely first: {name} ({result.percent(p)}, ties included)"
    return {"summary": summary, "chances": chances, "order": order, "pairwise": pairs, "steps": steps}


def _npc_ties_possible(totals: list[Dist], sides: list[str]) -> bool:
    """Whether two NPCs could end on the same total."""
    npcs = [t for t, s in zip(totals, sides, strict=True) if s == NPC]
    return any(a.compare(b)[1] for k, a in enumerate(npcs) for b in npcs[k + 1 :])


# --- generated tables ----------------------------------------------------------------------------
def natural_healing(level: int, con_bonus: int, data: SystemData, floor: bool = True) -> int:
    """Hit points regained in one day of rest: level × per-level + Constitution bonus (≥ 0 by ruling)."""
    healed = level * data.fact("natural-healing", "hp_per_level") + con_bonus
    return max(healed, data.fact("natural-healing", "minimum_per_day")) if floor else healed


def healing_table(data: SystemData) -> dict[str, Any]:
    """Hit points regained per day of rest, by level (rows) and Constitution score band (columns)."""
    levels = data.fact("natural-healing", "table_levels")
    bands = data.table(ABILITY_TABLE)
    columns = [{"id": "level", "label": "Level"}] + [
        {"id": f"con_{i}", "label": f"Con {range_label(b['score']['min'], b['score']['max'])}"}
        for i, b in enumerate(bands)
    ]
    rows = [
        [level] + [natural_healing(level, b["bonus"], data) for b in bands]
        for level in range(levels["min"], levels["max"] + 1)
    ]
    return {"columns": columns, "rows": rows, "caption": None}


def hp_thresholds(data: SystemData) -> dict[str, Any]:
    """What a creature's current hit points mean: up, Hurt or dead, for characters and for NPCs."""
    band = data.fact("hurt", "hurt_hp")
    dead = data.fact("death", "death_hp")
    npc_dead = data.fact("npc-death", "npc_death_hp")
    hurt = (
        f"Hurt: {signed(data.fact('hurt', 'hit_penalty'))} to hit, {signed(data.fact('hurt', 'damage_penalty'))} "
        f"to damage, {signed(data.fact('hurt', 'proficiency_penalty'))} to proficiency checks; targets of their "
        f"spells get {signed(data.fact('hurt', 'spell_save_bonus'))} to save"
    )
    characters = "Characters (and important NPCs, if the GM chooses)"
    npcs = "Most NPCs and monsters"
    rows = [
        [characters, f"{number(band['max'] + 1)} or more", "Up, no penalty"],
        [characters, f"{number(band['max'])} to {number(band['min'])}", hurt],
        [characters, f"{number(dead)} or fewer", "Dead"],
        [npcs, f"{number(npc_dead + 1)} or more", "Up, no penalty"],
        [npcs, f"{number(npc_dead)} or fewer", "Dead"],
    ]
    columns = [{"id": "who", "label": "Who"}, {"id": "hp", "label": "Hit points"}, {"id": "state", "label": "State"}]
    return {"columns": columns, "rows": rows, "caption": None}


CALCULATORS: dict[str, Callable[[dict[str, Any], SystemData], dict[str, Any]]] = {
    "hit": hit,
    "damage": damage,
    "initiative": initiative,
}
TABLES: dict[str, Callable[[SystemData], dict[str, Any]]] = {
    "healing_table": healing_table,
    "hp_thresholds": hp_thresholds,
}
