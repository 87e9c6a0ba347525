"""Initiative: 1d20 + bonus, highest first, ties re-rolled; swaps between allies, delays, and
optional team initiative (one shared roll). Exact pairwise chances of who acts first."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.answers.format import number, signed
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.action_points.weapons import PROPERTY_TABLE
from calc.turns import order as who_first


@dataclass(frozen=True)
class Score:
    """A combatant's initiative score: `roll + offset`, where `roll` is the d20 named `source`
    (None once the score is known, then `offset` is the score itself). Team members share a source."""

    name: str
    source: str | None
    offset: int
    reroll_bonus: int
    team: str | None = None

    @property
    def fixed(self) -> bool:
        return self.source is None

    def dist(self, sides: int) -> Dist:
        return Dist.constant(self.offset) if self.fixed else Dist.die(sides) + self.offset


def deft_bonus(data: SystemData) -> int:
    for row in data.table(PROPERTY_TABLE):
        if row["id"] == "deft":
            return row["initiative"]
    return 0


def scores(inputs: dict[str, Any], data: SystemData, steps: list[dict[str, str]]) -> list[Score]:
    """Each combatant's score before swaps and delays (team initiative applied)."""
    combatants = inputs["combatants"]
    deft = deft_bonus(data)
    bonus = [c["bonus"] + (deft if c["deft"] else 0) for c in combatants]
    for c, b in zip(combatants, bonus, strict=True):
        if c["deft"]:
            steps.append(data.step("weapon-properties", f"{c['name']}: Deft weapon, initiative {signed(b)}."))
    out = [
        Score(c["name"], None if c["roll"] else f"roll:{c['name']}", b + c["roll"], b)
        for c, b in zip(combatants, bonus, strict=True)
    ]
    if not inputs["team_initiative"]:
        return out
    teams: dict[str, list[int]] = {}
    for i, c in enumerate(combatants):
        if c["team"]:
            teams.setdefault(c["team"], []).append(i)
    for team, members in teams.items():
        roller = min(members, key=lambda i: bonus[i])
        roll = combatants[roller]["roll"]
        source = None if roll else f"team:{team}"
        for i in members:
            own = inputs["team_roll"] == "own"
            added = bonus[i] if own else bonus[roller]
            out[i] = Score(combatants[i]["name"], source, roll + added, added, team)
        names = ", ".join(combatants[i]["name"] for i in members)
        rolled = f"rolls {roll}" if roll else "has not rolled yet"
        if inputs["team_roll"] == "own":
            text = f"Team {team} ({names}): {combatants[roller]['name']} {rolled}; each member adds their own bonus."
        else:
            text = (
                f"Team {team} ({names}): {combatants[roller]['name']}, lowest bonus {signed(bonus[roller])}, "
                f"{rolled}; all act on that count in any order."
            )
        steps.append(data.step("team-initiative", text))
        steps.append(
            data.step(
                "ruling:team-initiative-roll",
                "Each member adds their own bonus (alternative)."
                if inputs["team_roll"] == "own"
                else "The lowest bonus counts for all (ruling).",
            )
        )
    return out


def apply_swaps(inputs: dict[str, Any], data: SystemData, found: list[Score], steps: list[dict[str, str]]) -> None:
    """Swap the declared pairs in place, by the chosen reading of the swap rule."""
    combatants = inputs["combatants"]
    index = {c["name"]: i for i, c in enumerate(combatants)}
    partner: dict[int, int] = {}
    for i, c in enumerate(combatants):
        other = c["swap_with"]
        if not other:
            continue
        where = f"combatants[{i + 1}].swap_with"
        if other not in index:
            raise InputError(where, f"no combatant is named '{other}'")
        j = index[other]
        if j == i:
            raise InputError(where, "a combatant cannot swap with themselves")
        for a, b in ((i, j), (j, i)):
            if partner.get(a, b) != b:
                raise InputError(where, f"{combatants[a]['name']} already swaps with {combatants[partner[a]]['name']}")
        partner[i], partner[j] = j, i
    minus = data.fact("initiative-swap", "higher_minus")
    plus = data.fact("initiative-swap", "own_plus")
    examples = inputs["swap_reading"] == "examples"
    for i, j in sorted({tuple(sorted(p)) for p in partner.items()}):
        a, b = found[i], found[j]
        if not (a.fixed and b.fixed):
            raise InputError(
                f"combatants[{i + 1}].swap_with", "a swap comes after the rolls: enter both combatants' rolls"
            )
        if a.team or b.team:
            raise InputError(
                f"combatants[{i + 1}].swap_with", "team members share one count; a swap is between two individuals"
            )
        if a.offset == b.offset:
            steps.append(
                data.step("initiative-swap", f"{a.name} and {b.name} are tied at {a.offset}: a swap changes nothing.")
            )
            continue
        hi, lo = (a, b) if a.offset > b.offset else (b, a)
        first, second = hi.offset + minus, lo.offset + plus
        new_lo = max(first, second) if examples else min(first, second)
        found[found.index(hi)] = replace(hi, offset=lo.offset)
        found[found.index(lo)] = replace(lo, offset=new_lo)
        pick = "higher" if examples else "lower"
        steps.append(
            data.step(
                "initiative-swap",
                f"{hi.name} ({hi.offset}) and {lo.name} ({lo.offset}) swap: {hi.name} takes {lo.offset}; {lo.name} "
                f"takes the {pick} of {hi.offset} {signed(minus)} = {first} and {lo.offset} {signed(plus)} = {second}: "
                f"{new_lo}.",
            )
        )
        steps.append(
            data.step(
                "ruling:initiative-swap",
                "The examples' reading: the higher of the two (ruling)."
                if examples
                else "The formula's words: the lower of the two (alternative).",
            )
        )


def order_chances(a: Score, b: Score, sides: int, tie_reroll: str) -> tuple[Fraction, Fraction, Fraction]:
    """(a acts before b, tied and free to choose, b before a), re-rolling ties between non-teammates."""
    if a.source is not None and a.source == b.source:
        chances = who_first.compare(Dist.constant(a.offset - b.offset), Dist.constant(0), high_first=True)
    else:
        chances = who_first.compare(a.dist(sides), b.dist(sides), high_first=True)
    if a.team is not None and a.team == b.team:
        return chances
    if tie_reroll == "plain":
        wins = Fraction(1, 2)
    else:
        wins = who_first.reroll_share(Dist.die(sides) + a.reroll_bonus, Dist.die(sides) + b.reroll_bonus)
    return who_first.break_ties(chances, wins)


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Turn order from entered rolls, and the exact chance that each combatant acts before another."""
    sides = data.die_sides("initiative", "initiative_die")
    steps = [data.step("initiative", f"Each rolls 1d{sides} + initiative bonus; the highest acts first.")]
    found = scores(inputs, data, steps)
    apply_swaps(inputs, data, found, steps)
    for i, c in enumerate(inputs["combatants"]):
        if c["delay"]:
            found[i] = replace(found[i], offset=found[i].offset - c["delay"])
            steps.append(data.step("initiative-delay", f"{c['name']} delays, lowering the score by {c['delay']}."))
    reroll = inputs["tie_reroll"]
    steps.append(data.step("initiative-ties", "Tied scores are re-rolled to decide who goes first."))
    steps.append(
        data.step(
            "ruling:initiative-tie-reroll",
            "The re-roll is 1d20 + initiative bonus (ruling)."
            if reroll == "with_bonus"
            else "A bare d20 roll-off (alternative).",
        )
    )
    order = None
    if all(s.fixed for s in found):

        def note(group: list[Score]) -> str:
            if len(group) < 2:
                return ""
            teams = {s.team for s in group}
            if len(teams) == 1 and None not in teams:
                return f"team {group[0].team}: act in any order"
            return "tied: re-roll to break the tie"

        order = result.order_groups(
            [(s.name, s) for s in found], key=lambda s: -s.offset, score=lambda s: number(s.offset), note=note
        )
        # order_groups passes the grouped values to `note`.
        summary = "Order: " + ", then ".join(" = ".join(g["names"]) for g in order)
    else:
        waiting = [s.name for s in found if not s.fixed]
        summary = (
            f"Not rolled yet: {', '.join(waiting)}. Chances of acting first below; enter every roll for the order."
        )
    pairs = result.pairwise([s.name for s in found], lambda i, j: order_chances(found[i], found[j], sides, reroll))
    return {"summary": summary, "order": order, "pairwise": pairs or None, "steps": steps}
