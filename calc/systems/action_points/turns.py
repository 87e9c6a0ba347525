"""Action Points' round for the encounter tracker: initiative is rolled once per encounter (1d20 +
initiative bonus, highest first; the order "stays the same for the entire encounter"), optionally
one roll per team; allies may swap, anyone may delay (count their score lower); tied scores are
re-rolled until they break. Scores, swaps and delays come from the initiative calculator; the
re-rolls of a tie are asked for (`needs`) as the table makes them."""

from __future__ import annotations

from typing import Any

from calc.answers.format import number, signed
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.systems.action_points.initiative import deft_bonus
from calc.turns import helpers as kit

ROUND_INPUTS: tuple[str, ...] = ()
"""Initiative calculator inputs the round sets itself: none (every other input is an option)."""


def _teams(people: list[dict[str, Any]], options: dict) -> dict[str, list[int]]:
    """Team name → member indexes, under team initiative (empty without it)."""
    if not options["team_initiative"]:
        return {}
    teams: dict[str, list[int]] = {}
    for i, p in enumerate(people):
        if p["team"]:
            teams.setdefault(p["team"], []).append(i)
    return teams


def _bonus(p: dict[str, Any], data: SystemData) -> int:
    return p["bonus"] + (deft_bonus(data) if p["deft"] else 0)


def _roller(members: list[int], people: list[dict[str, Any]], data: SystemData) -> int:
    """The member who rolls for a team: the lowest bonus (as the initiative calculator picks)."""
    return min(members, key=lambda i: _bonus(people[i], data))


def dice_needed(people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> list[dict]:
    sides = data.die_sides("initiative", "initiative_die")
    teams = _teams(people, options)
    in_team = {i for members in teams.values() for i in members}
    out = []
    for team, members in teams.items():
        who = people[_roller(members, people, data)]["name"]
        label = f"Team {team}: one initiative roll for the encounter ({who}, the lowest bonus, rolls)"
        out.append(kit.die(data, f"team:{team}", sides, label, "team-initiative"))
    for i, p in enumerate(people):
        if i not in in_team:
            label = f"{p['name']}: initiative for the encounter, d{sides} {signed(_bonus(p, data))}"
            out.append(kit.die(data, f"init:{p['id']}", sides, label, "initiative"))
    return out


def turn_order(people: list[dict[str, Any]], rolls: dict, round_no: int, data: SystemData, options: dict) -> dict:
    sides = data.die_sides("initiative", "initiative_die")
    teams = _teams(people, options)
    team_of = {i: team for team, members in teams.items() for i in members}
    ids = {p["id"]: i for i, p in enumerate(people)}
    entries = []
    for i, p in enumerate(people):
        if i in team_of:
            key, what = f"team:{team_of[i]}", f"team {team_of[i]}'s d{sides}"
        else:
            key, what = f"init:{p['id']}", f"{p['name']}'s d{sides}"
        swap = ""
        if p["swap_with"]:
            j = ids.get(p["swap_with"])
            if j is None:
                raise InputError(f"combatants[{i + 1}].swap_with", f"no combatant has the id '{p['swap_with']}'")
            if people[j]["side"] != p["side"]:
                raise InputError(f"combatants[{i + 1}].swap_with", f"{people[j]['name']} is not an ally")
            swap = kit.tag(j)
        entries.append(
            {
                "name": kit.tag(i),
                "bonus": p["bonus"],
                "roll": kit.rolled(rolls, key, 1, sides, what),
                "deft": p["deft"],
                "delay": p["delay"],
                "swap_with": swap,
                "team": p["team"],
            }
        )
    answer = kit.initiative(data, {**options, "combatants": entries}, people)
    steps = kit.steps_by_person(answer["steps"], len(people))
    score = {kit.tag(i): None for i in range(len(people))}
    for g in answer["order"]:
        for n in g["names"]:
            score[n] = g["score"]

    needs: list[dict] = []
    notes: list[dict] = []
    blocks: list[tuple[list[int], str]] = []  # combatants sharing a rank, in order, and why
    for g in answer["order"]:
        members = [kit.untag(n) for n in g["names"]]
        if len(members) == 1:
            blocks.append((members, ""))
            continue
        units = _units(members, team_of)
        if len(units) == 1:  # one team on its count: any order
            blocks.append((members, f"team {team_of[members[0]]}: any order"))
            continue
        blocks += _break_tie(units, people, rolls, data, options, needs, notes, g["score"])

    def name(i: int) -> str:
        return people[i]["name"]

    listed = []
    for rank, (members, tie) in enumerate(blocks, start=1):
        for i in members:
            why = [
                data.step(
                    "initiative",
                    f"{name(i)}: rolled {entries[i]['roll']} {signed(_bonus(people[i], data))}"
                    + (f" (rolled once, in round 1; this is round {round_no})" if round_no > 1 else "")
                    + f"; acts at {score[kit.tag(i)]}, highest first.",
                )
            ]
            why += [{**s, "text": kit.named(s["text"], people)} for s in steps.get(i, []) if s["rule"] != "initiative"]
            if tie:
                why.append(data.step("initiative-ties", f"Tied at {score[kit.tag(i)]}: {tie}."))
            listed.append({"id": people[i]["id"], "when": f"initiative {score[kit.tag(i)]}", "rank": rank, "why": why})
    return {"turns": listed, "notes": notes, "needs": needs}


def _reroll_bonus(unit: list[int], people: list[dict[str, Any]], data: SystemData, options: dict) -> int:
    """The bonus a unit adds to its re-roll: its own, or (a team under the lowest-bonus reading)
    the team roller's, as the initiative calculator counts the team's score."""
    teams = _teams(people, options)
    team = people[unit[0]]["team"] if options["team_initiative"] else ""
    if team and options["team_roll"] == "lowest":
        return _bonus(people[_roller(teams[team], people, data)], data)
    return _bonus(people[unit[0]], data)


def _units(members: list[int], team_of: dict[int, str]) -> list[list[int]]:
    """A tied group as the units that re-roll: a team's members on this count together, others alone."""
    units: list[list[int]] = []
    seen: dict[str, list[int]] = {}
    for i in members:
        team = team_of.get(i)
        if team is None:
            units.append([i])
        elif team in seen:
            seen[team].append(i)
        else:
            seen[team] = [i]
            units.append(seen[team])
    return units


def _break_tie(
    units: list[list[int]],
    people: list[dict[str, Any]],
    rolls: dict,
    data: SystemData,
    options: dict,
    needs: list[dict],
    notes: list[dict],
    score: str,
    level: int = 1,
) -> list[tuple[list[int], str]]:
    """Order tied units by their re-rolls (1d20 + bonus by the ruling, or a bare d20), rolling
    again among those still tied; while a re-roll is missing the units stay tied and it is needed."""
    sides = data.die_sides("initiative", "initiative_die")
    with_bonus = options["tie_reroll"] == "with_bonus"
    names = ", ".join(" and ".join(people[i]["name"] for i in u) for u in units)

    def key(unit: list[int]) -> str:
        return f"tie:{people[unit[0]]['id']}" + (f":{level}" if level > 1 else "")

    missing = [u for u in units if key(u) not in rolls]
    if missing:
        for u in missing:
            who = " and ".join(people[i]["name"] for i in u)
            how = f"d{sides} {signed(_reroll_bonus(u, people, data, options))}" if with_bonus else f"a bare d{sides}"
            needs.append(kit.die(data, key(u), sides, f"{who}: re-roll the tie at {score} ({how})", "initiative-ties"))
        notes.append(data.step("initiative-ties", f"{names} are tied at {score}: re-roll to break the tie."))
        return [([i for u in units for i in u], "re-roll to break the tie")]
    total = {}
    for u in units:
        roll = kit.rolled(rolls, key(u), 1, sides, f"the d{sides} re-rolled for {people[u[0]]['name']}")
        total[key(u)] = roll + (_reroll_bonus(u, people, data, options) if with_bonus else 0)
    shown = "; ".join(f"{' and '.join(people[i]['name'] for i in u)} {number(total[key(u)])}" for u in units)
    notes.append(
        data.step(
            "ruling:initiative-tie-reroll" if with_bonus else "initiative-ties",
            f"Tie at {score} re-rolled ({'d20 + bonus' if with_bonus else 'bare d20'}): {shown}.",
        )
    )
    out: list[tuple[list[int], str]] = []
    values = sorted({total[key(u)] for u in units}, reverse=True)
    best = [u for u in units if total[key(u)] == values[0]]
    for place, value in enumerate(values):
        same = [u for u in units if total[key(u)] == value]
        if len(same) > 1:
            out += _break_tie(same, people, rolls, data, options, needs, notes, score, level + 1)
            continue
        if place == 0:
            why = f"won the re-roll with {number(value)}"
        else:  # the "why" of a loser names the winner's score, never its own as a win
            winners = " and ".join(people[i]["name"] for u in best for i in u)
            won = f"won it with {number(values[0])}" if len(best) == 1 else f"tied ahead with {number(values[0])}"
            why = f"lost the re-roll with {number(value)} ({winners} {won})"
        out.append((same[0], why + ("; team: any order" if len(same[0]) > 1 else "")))
    return out
