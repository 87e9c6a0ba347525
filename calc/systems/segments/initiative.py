"""Group initiative and the round's order: which groups are HIGH and LOW (exactly, from d6 rolls or
before them), the order of actions through the Combat Round Flowchart (fast actions, then each
initiative by action type D1–D4 with weapon speed on ties, then spells by the Spell Initiative
Chart, then complex activities), and the order of the round's spells."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Any

from calc.answers import result
from calc.errors import InputError
from calc.inputs.data import SystemData

# The flowchart step (row id of `action-order-flowchart`) where groups act by the action types of
# `action-types`; fast actions, spells and complex activities have steps of their own.
GROUP_STEP = "groups"


@dataclass(frozen=True)
class Turn:
    """One initiative turn: groups with the same roll act together; `high` says HIGH or LOW."""

    index: int
    high: bool
    name: str


# --- who is HIGH: exact chances -------------------------------------------------------------------
def high_chances(rolls: Sequence[int], sides: int, reading: str) -> list[Fraction]:
    """P(each group is HIGH); a roll of 0 is a d6 not yet rolled, any other roll is known.

    highest-high (ruling): HIGH iff no other group rolled higher.
    lowest-low: LOW iff no other group rolled lower and not every group tied.
    """
    dists = [{v: Fraction(1, sides) for v in range(1, sides + 1)} if r == 0 else {r: Fraction(1)} for r in rolls]

    def p_other(j_skip: int, pred: Any) -> Fraction:
        return prod(
            (sum(p for v, p in d.items() if pred(v)) for j, d in enumerate(dists) if j != j_skip), start=Fraction(1)
        )

    out = []
    for i, d in enumerate(dists):
        if reading == "highest-high":
            p = sum(p_i * p_other(i, lambda v, x=x: v <= x) for x, p_i in d.items())
        else:
            low = sum(
                p_i * (p_other(i, lambda v, x=x: v >= x) - p_other(i, lambda v, x=x: v == x)) for x, p_i in d.items()
            )
            p = 1 - low
        out.append(Fraction(p))
    return out


def turns_of(rolls: Sequence[int], reading: str) -> list[Turn]:
    """The turn of each group from known rolls: equal rolls share a turn, higher rolls go first."""
    distinct = sorted(set(rolls), reverse=True)
    if reading == "highest-high":
        high_rolls = {distinct[0]}
    else:
        high_rolls = set(distinct) if len(distinct) == 1 else set(distinct[:-1])
    n_high = len(high_rolls)
    n_low = len(distinct) - n_high

    def name(k: int) -> str:
        if k < n_high:
            return "HIGH" if n_high == 1 else f"HIGH {k + 1}"
        return "LOW" if n_low == 1 else f"LOW {k - n_high + 1}"

    by_roll = {r: Turn(k, r in high_rolls, name(k)) for k, r in enumerate(distinct)}
    return [by_roll[r] for r in rolls]


# --- the round's order ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Actor:
    name: str
    group: int
    action: str
    time: int
    delayed: bool
    casting_time: int
    has_weapon: bool
    routines: int = 1


def _speed(text: str, where: str, data: SystemData) -> tuple[int, bool]:
    """A weapon's speed factor from its name (weapon speed table) or a number typed instead."""
    text = text.strip()
    if not text:
        return 0, False
    if text.isdigit():
        return int(text), True
    table = {row["weapon"].lower(): row["speed"] for row in data.table("weapon-speed-factors")}
    if text.lower() in table:
        return table[text.lower()], True
    near = difflib.get_close_matches(text.lower(), table, n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else " (type its speed factor as a number instead)"
    raise InputError(where, f"'{text}' is not in the weapon speed table{hint}")


def actors(inputs: dict[str, Any], data: SystemData) -> tuple[list[str], list[Actor]]:
    names = [g["name"] for g in inputs["groups"]]
    seen = {name.lower(): i for i, name in enumerate(names, start=1)}  # distinct: declared `unique: true`
    per_segment = data.fact("weapon-speed", "segment_per_activity")
    # After the attack: counted only under the minor-action rule's reading (activity-timing ruling).
    per_after = data.fact("minor-action-time", "added_segments") if inputs["activity_timing"] == "any-time" else 0
    out = []
    for i, c in enumerate(inputs["combatants"], start=1):
        key = c["group"].lower()
        if key not in seen:
            raise InputError(f"combatants[{i}].group", f"'{c['group']}' is not one of the groups ({', '.join(names)})")
        speed, has_weapon = _speed(c["weapon"], f"combatants[{i}].weapon", data)
        if c["action"] == "spell" and c["casting_time"] < 1:
            raise InputError(f"combatants[{i}].casting_time", "a spell needs a casting time of at least 1 segment")
        time = speed + per_segment * c["minor_actions"] + per_after * c["minor_after"]
        out.append(
            Actor(
                c["name"],
                seen[key] - 1,
                c["action"],
                time,
                c["delayed"],
                c["casting_time"],
                has_weapon,
                c.get("routines", 1),
            )
        )
    return names, out


def in_melee(inputs: dict[str, Any]) -> tuple[str, ...]:
    """The declared actions that put a multi-attacker "in melee" (the flowchart's multi-attack steps), as
    the multi-attack-in-melee ruling reads them."""
    return ("melee",) if inputs.get("multi_attack", "melee") == "melee" else ("melee", "missile")


ATTACKS = ("missile", "melee")
"""The declared actions that make an attack routine (a multi-attacker's routines split over the round)."""


def first_before_initiative(inputs: dict[str, Any], action: str, routines: int, delayed: bool) -> bool:
    """Whether a combatant makes its first attack routine before group initiative: a multi-attacker
    in melee (the multi-attack-in-melee ruling), unless delayed (it acts in LOW whatever its group
    rolled). The round-order calculator and the forecast both ask this."""
    return routines > 1 and action in in_melee(inputs) and not delayed


def multi_attackers(inputs: dict[str, Any], people: list[Actor]) -> tuple[list[Actor], list[Actor]]:
    """Multi-attackers (more than one routine) who attack: those whose first routine comes before
    group initiative (`first_before_initiative`), and the others, who make it in their own
    initiative; both make the rest after LOW."""
    attacking = [a for a in people if a.routines > 1 and a.action in ATTACKS]
    early = [a for a in attacking if first_before_initiative(inputs, a.action, a.routines, a.delayed)]
    return early, [a for a in attacking if a not in early]


def type_orders(inputs: dict[str, Any], data: SystemData) -> dict[str, tuple[int, str]]:
    """Action type → (order inside a turn, code), with D2/D3 as the missile-before-melee ruling reads them."""
    rows = {row["id"]: row for row in data.table("action-types")}
    orders = {k: (row["order"], row["code"]) for k, row in rows.items()}
    if inputs["weapon_phases"] == "melee-first":
        orders["missile"], orders["melee"] = orders["melee"], orders["missile"]
    return orders


def _low_turn(own: Turn, turns: list[Turn]) -> Turn:
    """The turn of a delayed creature: LOW (the first LOW turn) unless its own turn is already LOW."""
    if not own.high:
        return own
    later = [t for t in turns if not t.high]
    n_high = len({t.index for t in turns if t.high})
    return min(later, key=lambda t: t.index) if later else Turn(n_high, False, "LOW")


def round_order(
    inputs: dict[str, Any], data: SystemData, names: list[str], people: list[Actor], turns: list[Turn]
) -> tuple[list[dict[str, Any]], list[list[str]], list[dict[str, str]]]:
    """The round's action order (ranks), the spells table rows and the steps that explain them."""
    steps = []
    flow = {row["id"]: row["step"] for row in data.table("action-order-flowchart")}
    orders = type_orders(inputs, data)
    start = data.fact("spell-initiative", "start_segment")
    high_first = inputs["spell_ties"] == "high-first"

    def turn_of(a: Actor) -> Turn:
        return _low_turn(turns[a.group], turns) if a.delayed else turns[a.group]

    slots: dict[tuple, list[Actor]] = {}
    in_melee_now, attacking = (set(group) for group in multi_attackers(inputs, people))
    for a in people:
        if a in in_melee_now or a in attacking:  # the rest of its routines after LOW
            slots.setdefault((flow["multi-attack-rest"], turns[a.group].index, 0), []).append(a)
        if a in in_melee_now:  # its first routine before group initiative; no turn in HIGH or LOW
            slots.setdefault((flow["multi-attack-first"], turns[a.group].index, 0), []).append(a)
            continue
        if a.action == "fast":  # fast actions keep their group's initiative, delayed or not
            key = (flow["fast"], turns[a.group].index, 0)
        elif a.action == "complex":
            key = (flow["end"], 0, 0)
        elif a.action == "spell":
            segment = start + a.casting_time - 1
            key = (flow["spells"], segment, turn_of(a).index if high_first else 0)
        else:
            key = (flow[GROUP_STEP], turn_of(a).index, orders[a.action][0])
        slots.setdefault(key, []).append(a)

    ranked: list[tuple[str, list[Actor], str]] = []
    spell_rows: list[tuple[int, Actor, Turn, int]] = []
    for key in sorted(slots):
        members = slots[key]
        sample = members[0]
        together = "acts together" if len(members) > 1 else ""
        if key[0] == flow["multi-attack-first"]:
            ranked.append((f"Multi-attack, first routine · {turns[sample.group].name}", members, together))
        elif key[0] == flow["multi-attack-rest"]:
            ranked.append((f"Multi-attack, other routines · {turns[sample.group].name}", members, together))
        elif sample.action == "fast":
            ranked.append((f"Fast action · {turns[sample.group].name}", members, together))
        elif sample.action == "complex":
            ranked.append(("Last (complex activity)", members, together))
        elif sample.action == "spell":
            label = f"Spell · segment {key[1]}" + (f" · {turn_of(sample).name}" if high_first else "")
            ranked.append((label, members, "resolve together" if len(members) > 1 else ""))
            spell_rows += [(len(ranked), a, turn_of(a), key[1]) for a in members]
        elif len({a.group for a in members}) < 2:
            label = f"{turn_of(sample).name} {orders[sample.action][1]}"
            ranked.append((label, members, "same group: acts together" if len(members) > 1 else ""))
        else:
            label = f"{turn_of(sample).name} {orders[sample.action][1]}"
            by_tie: dict[tuple[bool, int], list[Actor]] = {}
            for a in members:
                by_tie.setdefault((a.delayed, a.time), []).append(a)
            for (delayed, time), tied in sorted(by_tie.items()):
                lost = " (delayed: loses the tie)" if delayed and any(not a.delayed for a in members) else ""
                ranked.append((str(time), tied, f"{label}, groups tied: time {time}{lost}"))
            delayed_note = ", delayed creatures lose ties" if any(a.delayed for a in members) else ""
            steps.append(
                data.step(
                    "weapon-speed",
                    f"{label}, groups tied: {', '.join(f'{a.name} {a.time}' for a in members)}"
                    f" (lower first{delayed_note})",
                )
            )
    order = [
        {"rank": rank, "names": [a.name for a in members], "score": label, "tied": len(members) > 1, "note": note}
        for rank, (label, members, note) in enumerate(ranked, start=1)
    ]
    first_spell = spell_rows[0][0] if spell_rows else 0
    rows = [
        [str(rank - first_spell + 1), a.name, names[a.group], str(a.casting_time), str(seg), turn.name]
        for rank, a, turn, seg in spell_rows
    ]
    return order, rows, steps


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    sides = data.die_sides("group-initiative", "die")
    names, people = actors(inputs, data)
    rolls = [g["roll"] for g in inputs["groups"]]
    for i, r in enumerate(rolls, start=1):
        if r > sides:
            raise InputError(f"groups[{i}].roll", f"a d{sides} roll is 1 to {sides} (0 = not rolled yet)")
    reading = inputs["many_groups"]
    chances = high_chances(rolls, sides, reading)
    steps = [
        data.step(
            "group-initiative", f"each group rolls a d{sides}: higher is HIGH, lower LOW, a tie puts both in HIGH"
        )
    ]
    if len(rolls) > 2:
        how = "only the highest is HIGH" if reading == "highest-high" else "only the lowest is LOW"
        steps.append(data.step("ruling:more-than-two-groups", f"{len(rolls)} groups: {how}, the rest in roll order"))
    answer: dict[str, Any] = {
        "chances": [result.chance(f"{name} is HIGH", p) for name, p in zip(names, chances, strict=True)],
    }
    if 0 in rolls:
        missing = [n for n, r in zip(names, rolls, strict=True) if r == 0]
        answer["summary"] = f"Not rolled yet ({', '.join(missing)}): " + ", ".join(
            f"{n} HIGH {result.percent(p)}" for n, p in zip(names, chances, strict=True)
        )
        answer["steps"] = steps
        return answer

    turns = turns_of(rolls, reading)
    steps.append(
        data.step(
            "group-initiative",
            "; ".join(f"{n} rolled {r}: {t.name}" for n, r, t in zip(names, rolls, turns, strict=True)),
        )
    )
    order, rows, more = round_order(inputs, data, names, people, turns)
    kinds = sorted(type_orders(inputs, data).items(), key=lambda kv: kv[1])
    steps.append(
        data.step(
            "action-order",
            "fast actions, then each initiative by type "
            + ", ".join(f"{code} {kind}" for kind, (_, code) in kinds)
            + ", then spells, then complex activities",
        )
    )
    early, grouped = multi_attackers(inputs, people)
    if early or grouped:
        melee = "a melee or a missile attack" if len(in_melee(inputs)) > 1 else "a melee attack"
        flow = {row["id"]: row["step"] for row in data.table("action-order-flowchart")}
        first, rest = flow["multi-attack-first"], flow["multi-attack-rest"]
        for a in early:
            steps.append(
                data.step(
                    "combat-round-sequence",
                    f"{a.name} has {a.routines} attack routines and declared {melee}: its first routine at step "
                    f"{first}, before group initiative, the rest at step {rest}, after LOW",
                )
            )
        for a in grouped:
            steps.append(
                data.step(
                    "combat-round-sequence",
                    f"{a.name} has {a.routines} attack routines and "
                    + ("is delayed" if a.delayed else f"declared a {a.action} attack, not in melee")
                    + f": its first routine in its initiative, the rest at step {rest}, after LOW",
                )
            )
        steps.append(
            data.step(
                "ruling:multi-attack-in-melee",
                "In melee: a declared melee attack"
                if len(in_melee(inputs)) == 1
                else "In melee: a declared melee or missile attack (the other reading)",
            )
        )
    if any(p.delayed for p in people):
        steps.append(data.step("delayed-condition", "a delayed creature acts in LOW whatever its group rolled"))
    after = [p for p, c in zip(people, inputs["combatants"], strict=True) if c["minor_after"]]
    if after:
        who = ", ".join(p.name for p in after)
        if inputs["activity_timing"] == "any-time":
            text = f"Other reading: 1-segment activities after the attack add to its weapon speed too ({who})"
        else:
            text = f"1-segment activities after the attack do not add to its weapon speed ({who})"
        steps.append(data.step("ruling:activity-timing", text))
    steps += more
    if rows:
        how = "HIGH before LOW on the same segment" if inputs["spell_ties"] == "high-first" else "same segment together"
        steps.append(data.step("spell-initiative", f"spells complete on segment = casting time; {how}"))
    high = [n for n, t in zip(names, turns, strict=True) if t.high]
    answer["summary"] = f"HIGH: {', '.join(high)}" + (f"; first: {', '.join(order[0]['names'])}" if order else "")
    answer["order"] = order
    answer["table"] = (
        result.table(
            "Spells this round",
            ["Order", "Caster", "Group", "Casting time", "Completes on segment", "Initiative"],
            rows,
        )
        if rows
        else None
    )
    answer["steps"] = steps
    return answer
