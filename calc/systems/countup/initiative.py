"""Countup initiative: a count that runs up from 1, lowest total first, players before NPCs on a tie."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.answers.format import number, signed
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.turns import order as who_first

PLAYER, NPC = "player", "npc"


def initiative_dice(data: SystemData) -> dict[str, int]:
    """Die name (as the calculator's choice values spell it) → sides, from the initiative rule."""
    sides = (data.die_sides("initiative", fact) for fact in ("die", "talent_die"))
    return {f"d{n}": n for n in sides}


FIRST_HOW = "(alone or tied with their own side)"
"""How "acts first" counts: a player beats an NPC on the same total, so only same-side ties share first."""


def acts_before(a: Dist, a_side: str, b: Dist, b_side: str) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a acts before b), P(tied: same side, same total), P(b before a)); lowest total first,
    a player before an NPC on the same total."""
    return who_first.acts_before(a, b, high_first=False, priority=(_side_rank(a_side), _side_rank(b_side)))


def _side_rank(side: str) -> int:
    return 0 if side == PLAYER else 1


def first_chances(totals: list[Dist], sides: list[str]) -> list[Fraction]:
    """P(nobody acts strictly before combatant i), for each i: they act first, alone or in a
    tied group."""
    return who_first.first_chances(totals, high_first=False, priority=[_side_rank(s) for s in sides], alone=False)


def initiative(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Order of a list of combatants (rolled or not) and the chance each acts before each other."""
    dice_sides = initiative_dice(data)
    people = inputs["combatants"]
    names = [c["name"] for c in people]  # distinct: the declaration says `unique: true`
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
    firsts = list(zip(names, first_chances(totals, side), strict=True))
    # A tie counts only within a side: on the same total a player acts before an NPC.
    chances = [result.chance(f"{name} acts first {FIRST_HOW}", p) for name, p in firsts]

    if not waiting:
        lead = order[0]
        who = " and ".join(lead["names"])
        summary = f"First: {who} ({lead['score']}{', tied' if lead['tied'] else ''})"
    else:
        name, p = max(firsts, key=lambda f: f[1])
        summary = f"Most likely first: {name} ({result.percent(p)}, {FIRST_HOW[1:-1]})"
    return {"summary": summary, "chances": chances, "order": order, "pairwise": pairs, "steps": steps}


def _npc_ties_possible(totals: list[Dist], sides: list[str]) -> bool:
    """Whether two NPCs could end on the same total."""
    npcs = [t for t, s in zip(totals, sides, strict=True) if s == NPC]
    return any(a.compare(b)[1] for k, a in enumerate(npcs) for b in npcs[k + 1 :])
