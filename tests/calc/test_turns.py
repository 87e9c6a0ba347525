"""The encounter tracker's initiative (`calc.turns`): each system's procedure from concrete rolls.

Per system: a hand example from the source text, tie rules both ways, bad input, and the strong
check: every outcome of the dice `dice_needed` asks for is fed to `turn_order`, and the exact
chance that one combatant acts before (with, after) another must equal what the initiative
calculator computes from the same inputs with nobody rolled yet. The two are different code
paths: the tracker orders concrete totals, the calculator sums over distributions."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from calc import browser, evaluate, turns
from calc.errors import CalcError


def faces(entry: dict) -> range:
    count, sides = entry["dice"].split("d")
    assert count == "1", entry
    return range(1, int(sides) + 1)


def rank_of(answer: dict) -> dict[str, int]:
    return {t["id"]: t["rank"] for t in answer["turns"]}


def enumerate_pairs(system: str, people: list[dict], options: dict | None = None, **kw) -> dict:
    """(a id, b id) → [P(a before b), P(same rank), P(b before a)] over every roll of the round's dice."""
    needed = turns.dice_needed(system, people, 1, options)
    keys = [e["key"] for e in needed]
    total = Fraction(1)
    for e in needed:
        total *= len(faces(e))
    out: dict[tuple[str, str], list[Fraction]] = {}
    for values in product(*(faces(e) for e in needed)):
        rolls = dict(zip(keys, values, strict=True))
        ranks = rank_of(turns.turn_order(system, people, rolls, 1, options))
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                ra, rb = ranks[a["id"]], ranks[b["id"]]
                cell = out.setdefault((a["id"], b["id"]), [Fraction(0)] * 3)
                cell[0 if ra < rb else 1 if ra == rb else 2] += 1 / total
    return out


def calculator_pairs(system: str, inputs: dict) -> dict:
    """(first, second) → [before, tied, after] from the initiative calculator."""
    answer = evaluate({"system": system, "calculator": "initiative", "inputs": inputs})
    return {
        (p["first"], p["second"]): [Fraction(p[k]["fraction"]) for k in ("before", "tied", "after")]
        for p in answer["pairwise"]
    }


def check_against_calculator(system: str, people: list[dict], calc_inputs: dict, options: dict | None = None):
    found = enumerate_pairs(system, people, options)
    names = {p["id"]: p["name"] for p in people}
    expected = calculator_pairs(system, calc_inputs)
    assert found, "no pairs enumerated"
    for (a, b), chances in found.items():
        assert chances == expected[(names[a], names[b])], (a, b)
        assert sum(chances) == 1


# --- countup ---------------------------------------------------------------------------------------
CU = [
    {"id": "a", "name": "Aria", "side": "pc", "die": "d10", "modifier": 0},
    {"id": "b", "name": "Bram", "side": "pc", "die": "d8", "modifier": 1},
    {"id": "o", "name": "Orc", "side": "foe", "die": "d10", "modifier": 0},
]


def test_countup_dice_each_combatant_rolls_their_die_every_round():
    for round_no in (1, 2):
        needed = turns.dice_needed("countup", CU, round_no)
        assert [(e["key"], e["dice"]) for e in needed] == [("init:a", "1d10"), ("init:b", "1d8"), ("init:o", "1d10")]
        assert all(e["rule"] == "initiative" for e in needed)


def test_countup_counts_up_lowest_first():
    answer = turns.turn_order("countup", CU, {"init:a": 9, "init:b": 1, "init:o": 5}, 1)
    assert [t["id"] for t in answer["turns"]] == ["b", "o", "a"]
    assert [t["when"] for t in answer["turns"]] == ["count 2", "count 5", "count 9"]
    assert all(step["rule"] for t in answer["turns"] for step in t["why"])


def test_countup_player_wins_a_tie_with_an_npc_both_ways():
    # The source: "If an NPC or monster has the same initiative as a player then the player gets to go first."
    people = [dict(CU[2]), dict(CU[0])]  # the Orc listed first
    answer = turns.turn_order("countup", people, {"init:o": 6, "init:a": 6}, 1)
    assert [t["id"] for t in answer["turns"]] == ["a", "o"]
    assert answer["turns"][0]["rank"] < answer["turns"][1]["rank"]
    # Same rolls, sides swapped: now the Orc is the player character and goes first.
    people[0]["side"], people[1]["side"] = "pc", "foe"
    answer = turns.turn_order("countup", people, {"init:o": 6, "init:a": 6}, 1)
    assert [t["id"] for t in answer["turns"]] == ["o", "a"]


def test_countup_tied_players_share_a_rank_and_choose():
    answer = turns.turn_order("countup", CU, {"init:a": 4, "init:b": 3, "init:o": 2}, 1)
    ranks = rank_of(answer)
    assert ranks["o"] < ranks["a"] == ranks["b"]
    assert any("choose" in n["text"] for n in answer["notes"])


def test_countup_tied_npcs_are_ordered_by_the_gm_ruling():
    people = [{**CU[2], "id": "o1"}, {**CU[2], "id": "o2", "name": "Orc 2"}]
    answer = turns.turn_order("countup", people, {"init:o1": 3, "init:o2": 3}, 1)
    assert len(set(rank_of(answer).values())) == 1
    assert [n["rule"] for n in answer["notes"]] == ["ruling:initiative-npc-ties"]


def test_countup_every_roll_matches_the_initiative_calculator():
    calc_inputs = {
        "combatants": [
            {
                "name": p["name"],
                "side": {"pc": "player", "foe": "npc"}[p["side"]],
                "die": p["die"],
                "modifier": p["modifier"],
                "roll": 0,
            }
            for p in CU
        ]
    }
    check_against_calculator("countup", CU, calc_inputs)


# --- bad input: a CalcError naming the field, never a crash ---------------------------------------
@pytest.mark.parametrize(
    ("combatants", "rolls", "round_no", "field"),
    [
        ("nope", {}, 1, "combatants"),
        ([], {}, 1, "combatants"),
        ([{"name": "A", "side": "pc"}], {}, 1, "combatants[1].id"),
        ([{"id": "a", "side": "pc"}, {"id": "a", "side": "pc"}], {}, 1, "combatants[2].id"),
        ([{"id": "a", "side": "ally"}], {}, 1, "combatants[1].side"),
        ([{"id": "a", "side": "pc", "die": "d12"}], {}, 1, "combatants[1].die"),
        ([{"id": "a", "side": "pc", "modifier": "lots"}], {}, 1, "combatants[1].modifier"),
        ([{"id": "a", "side": "pc"}], {}, 1, "rolls.init:a"),
        ([{"id": "a", "side": "pc"}], {"init:a": 0}, 1, "rolls.init:a"),
        ([{"id": "a", "side": "pc", "die": "d8"}], {"init:a": 9}, 1, "rolls.init:a"),
        ([{"id": "a", "side": "pc"}], {"init:a": "x"}, 1, "rolls.init:a"),
        ([{"id": "a", "side": "pc"}], {"init:a": True}, 1, "rolls.init:a"),
        ([{"id": "a", "side": "pc"}], [], 1, "rolls"),
        ([{"id": "a", "side": "pc"}], {"init:a": 3}, 0, "round"),
        ([{"id": "a", "side": "pc"}], {"init:a": 3}, "2", "round"),
    ],
)
def test_bad_input_names_the_field(combatants, rolls, round_no, field):
    with pytest.raises(CalcError) as err:
        turns.turn_order("countup", combatants, rolls, round_no)
    assert err.value.input == field


def test_bad_system_and_options():
    with pytest.raises(CalcError) as err:
        turns.dice_needed("nope", CU, 1)
    assert err.value.input == "system"
    with pytest.raises(CalcError) as err:
        turns.dice_needed("countup", CU, 1, {"colour": "red"})
    assert err.value.input == "options.colour"


def test_worker_request_kind_turns():
    def ask(request: dict) -> dict:
        return json.loads(browser.evaluate_json(json.dumps(request)))

    base = {"kind": "turns", "system": "countup", "combatants": CU, "round": 1}
    dice = ask({**base, "op": "dice"})["result"]
    assert [d["key"] for d in dice] == ["init:a", "init:b", "init:o"]
    rolls = {"init:a": 9, "init:b": 1, "init:o": 5}
    assert [t["id"] for t in ask({**base, "op": "order", "rolls": rolls})["result"]["turns"]] == ["b", "o", "a"]
    assert ask({**base, "op": "shuffle"})["error"]["input"] == "op"
    assert ask({**base, "op": "order", "rolls": {}})["error"]["input"] == "rolls.init:a"
    assert ask({**base, "op": "dice", "extra": 1})["error"]["input"] == "extra"
