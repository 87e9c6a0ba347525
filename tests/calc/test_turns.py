"""The encounter tracker's initiative (`calc.turns.tracker`): each system's procedure from concrete rolls.

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
from hypothesis import given, settings
from hypothesis import strategies as st

from calc import browser, evaluate
from calc.errors import CalcError
from calc.turns import tracker as turns


def faces(entry: dict) -> range:
    count, sides = entry["dice"].split("d")
    assert count == "1", entry
    return range(1, int(sides) + 1)


def rank_of(answer: dict) -> dict[str, int]:
    return {t["id"]: t["rank"] for t in answer["turns"]}


def enumerate_pairs(system: str, people: list[dict], options: dict | None = None) -> dict:
    """(a id, b id) → [P(a before b), P(same rank), P(b before a)] over every roll of the round's
    dice (optional ones left out), and of every re-roll a tie asks for (`needs`)."""
    needed = [e for e in turns.dice_needed(system, people, 1, options) if not e["optional"]]
    return _spread(system, people, options, {}, needed, {})


def _spread(
    system: str, people: list[dict], options: dict | None, rolls: dict, needed: list[dict], cache: dict
) -> dict:
    """Average the outcome over every face of `needed`. A re-roll that ties again the same
    combatants (the same labels asked for) starts the same tie afresh: its share is solved for
    (x = resolved + p_again · x), which is exact, as the text's "re-roll until one is higher"."""
    labels = sorted(e["label"] for e in needed)
    total = Fraction(1)
    for e in needed:
        total *= len(faces(e))
    acc: dict[tuple[str, str], list[Fraction]] = {}
    again = Fraction(0)
    for values in product(*(faces(e) for e in needed)):
        sub = {**rolls, **{e["key"]: v for e, v in zip(needed, values, strict=True)}}
        answer = turns.turn_order(system, people, sub, 1, options)
        if answer["needs"]:
            asked = sorted(e["label"] for e in answer["needs"])
            if asked == labels:
                again += 1 / total
                continue
            # A tie's re-rolls reorder only the tied: the same tie within the same order so far
            # resolves the same way whatever the first rolls were (saves 20× the work).
            seen = (tuple(asked), tuple(sorted(rank_of(answer).items())), tuple(sorted(rolls)))
            if seen not in cache:
                cache[seen] = _spread(system, people, options, sub, answer["needs"], cache)
            found = cache[seen]
        else:
            ranks = rank_of(answer)
            found = {}
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    ra, rb = ranks[a["id"]], ranks[b["id"]]
                    found[(a["id"], b["id"])] = [
                        Fraction(int(ra < rb)),
                        Fraction(int(ra == rb)),
                        Fraction(int(ra > rb)),
                    ]
        for pair, cell in found.items():
            into = acc.setdefault(pair, [Fraction(0)] * 3)
            for k in range(3):
                into[k] += cell[k] / total
    return {pair: [c / (1 - again) for c in cell] for pair, cell in acc.items()}


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


def test_options_are_the_calculators_rulings_not_its_lists_or_the_phase():
    for system, key in (("segments", "groups"), ("phases", "phase"), ("countup", "combatants")):
        with pytest.raises(CalcError) as err:
            turns.dice_needed(system, [{"id": "a", "side": "pc"}], 1, {key: []})
        assert err.value.input == f"options.{key}"
    with pytest.raises(CalcError) as err:
        turns.dice_needed("phases", [{"id": "a", "side": "pc"}], 1, {"ties": "sometimes"})
    assert err.value.input == "options.ties"


def test_a_calculator_error_names_the_tracker_combatant():
    people = [{"id": "a", "name": "Alice", "side": "pc", "swap_with": "b"}, {"id": "b", "name": "Bob", "side": "pc"}]
    people.append({"id": "c", "name": "Cy", "side": "pc", "swap_with": "b"})
    with pytest.raises(CalcError) as err:
        turns.turn_order("action-points", people, {"init:a": 3, "init:b": 9, "init:c": 5}, 1)
    assert err.value.input == "combatants[3].swap_with"
    assert "Bob" in err.value.reason and "#" not in err.value.reason


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


# --- active-defense ----------------------------------------------------------------------------------
AD = [
    {"id": "m", "name": "Mira", "side": "pc", "dexterity": 3, "agility": 1},
    {"id": "o", "name": "Orc", "side": "foe", "dexterity": 0, "agility": 5},
    {"id": "w", "name": "Wolf", "side": "foe", "dexterity": 2, "agility": 3},
]


def test_active_defense_rolls_once_for_the_encounter():
    assert [e["key"] for e in turns.dice_needed("active-defense", AD, 1)] == ["init:m", "init:o", "init:w"]
    assert turns.dice_needed("active-defense", AD, 2) == []


def test_a_newcomer_in_a_later_round_rolls_once_too():
    kept = {"init:m": 10, "init:o": 12}
    assert turns.dice_needed("active-defense", AD, 3, rolls=kept) == [
        e for e in turns.dice_needed("active-defense", AD, 1) if e["key"] == "init:w"
    ]
    assert turns.dice_needed("active-defense", AD, 3, rolls={**kept, "init:w": 1}) == []
    assert turns.dice_needed("action-points", AP, 2, rolls={"init:al": 3})[0]["key"] == "init:bo"
    # Systems that roll every round ask for every die, whatever was rolled before.
    assert len(turns.dice_needed("countup", CU, 2, rolls={"init:a": 3})) == 3
    with pytest.raises(CalcError) as err:
        turns.dice_needed("active-defense", AD, 2, rolls=[1])
    assert err.value.input == "rolls"


def test_active_defense_highest_first_and_the_order_holds_in_later_rounds():
    rolls = {"init:m": 10, "init:o": 12, "init:w": 8}  # 13, 12, 10
    for round_no in (1, 3):
        answer = turns.turn_order("active-defense", AD, rolls, round_no)
        assert [t["id"] for t in answer["turns"]] == ["m", "o", "w"]
        assert [t["when"] for t in answer["turns"]] == ["initiative 13", "initiative 12", "initiative 10"]


def test_active_defense_agility_reading_adds_the_score():
    answer = turns.turn_order(
        "active-defense", AD, {"init:m": 10, "init:o": 12, "init:w": 8}, 1, {"initiative_ability": "agility"}
    )  # 11, 17, 11
    assert [t["when"] for t in answer["turns"]] == ["initiative 17", "initiative 11", "initiative 11"]


def test_active_defense_ties_both_readings():
    rolls = {"init:m": 10, "init:o": 13, "init:w": 1}  # Mira 13, Orc 13
    ranks = rank_of(turns.turn_order("active-defense", AD, rolls, 1))
    assert ranks["m"] == ranks["o"] < ranks["w"]
    answer = turns.turn_order("active-defense", AD, rolls, 1, {"initiative_ties": "dexterity"})
    assert [t["id"] for t in answer["turns"]] == ["m", "o", "w"]
    assert len({t["rank"] for t in answer["turns"]}) == 3


@pytest.mark.parametrize("ties", ["tied", "dexterity"])
def test_active_defense_every_roll_matches_the_initiative_calculator(ties):
    people = AD[:2]
    calc_inputs = {
        "combatants": [{"name": p["name"], "dexterity": p["dexterity"], "agility": p["agility"]} for p in people],
        "initiative_ties": ties,
    }
    check_against_calculator("active-defense", people, calc_inputs, {"initiative_ties": ties})


# --- action-points -----------------------------------------------------------------------------------
AP = [
    {"id": "al", "name": "Alice", "side": "pc", "bonus": 5},
    {"id": "bo", "name": "Bob", "side": "pc", "bonus": 0},
    {"id": "o", "name": "Orc", "side": "foe", "bonus": 1},
]


def test_action_points_rolls_once_and_keeps_the_order():
    assert [e["key"] for e in turns.dice_needed("action-points", AP, 1)] == ["init:al", "init:bo", "init:o"]
    assert turns.dice_needed("action-points", AP, 2) == []
    rolls = {"init:al": 3, "init:bo": 17, "init:o": 11}  # 8, 17, 12
    for round_no in (1, 2):
        assert [t["id"] for t in turns.turn_order("action-points", AP, rolls, round_no)["turns"]] == ["bo", "o", "al"]


def test_action_points_a_tie_asks_for_re_rolls_until_it_breaks():
    # The data's example: Alice (+5) rolls 10 and Bob (+0) rolls 15: both 15, re-rolled d20 + bonus.
    rolls = {"init:al": 10, "init:bo": 15, "init:o": 1}
    answer = turns.turn_order("action-points", AP, rolls, 1)
    assert sorted(e["key"] for e in answer["needs"]) == ["tie:al", "tie:bo"]
    ranks = rank_of(answer)
    assert ranks["al"] == ranks["bo"] < ranks["o"]
    answer = turns.turn_order("action-points", AP, {**rolls, "tie:al": 4, "tie:bo": 9}, 1)  # 9 and 9 again
    assert sorted(e["key"] for e in answer["needs"]) == ["tie:al:2", "tie:bo:2"]
    answer = turns.turn_order("action-points", AP, {**rolls, "tie:al": 4, "tie:bo": 9, "tie:al:2": 1, "tie:bo:2": 5}, 1)
    assert answer["needs"] == []
    assert [t["id"] for t in answer["turns"]] == ["al", "bo", "o"]  # Alice 6 beats Bob 5 with her bonus
    why = {t["id"]: t["why"][-1]["text"] for t in answer["turns"]}
    assert why["al"] == "Tied at 15: won the re-roll with 6."
    assert why["bo"] == "Tied at 15: lost the re-roll with 5 (Alice won it with 6)."
    # A bare d20 re-roll (the other reading): Bob's 5 beats Alice's 1.
    answer = turns.turn_order("action-points", AP, {**rolls, "tie:al": 1, "tie:bo": 5}, 1, {"tie_reroll": "plain"})
    assert [t["id"] for t in answer["turns"]] == ["bo", "al", "o"]
    why = {t["id"]: t["why"][-1]["text"] for t in answer["turns"]}
    assert "won" not in why["al"].split("(")[0] and "Bob won it with 5" in why["al"], why["al"]


def test_action_points_three_way_tie_losers_name_the_winner():
    people = [{"id": c, "name": c.upper(), "side": "pc", "bonus": 0} for c in "abc"]
    rolls = {"init:a": 9, "init:b": 9, "init:c": 9, "tie:a": 15, "tie:b": 11, "tie:c": 3}
    answer = turns.turn_order("action-points", people, rolls, 1, {"tie_reroll": "plain"})
    why = [(t["id"], t["why"][-1]["text"]) for t in answer["turns"]]
    assert why == [
        ("a", "Tied at 9: won the re-roll with 15."),
        ("b", "Tied at 9: lost the re-roll with 11 (A won it with 15)."),
        ("c", "Tied at 9: lost the re-roll with 3 (A won it with 15)."),
    ]


@pytest.mark.parametrize(
    ("alice", "bob", "reading", "bob_score", "alice_score"),
    [(17, 5, "examples", "15", "5"), (12, 10, "examples", "11", "10"), (17, 5, "literal", "6", "5")],
)
def test_action_points_swap_the_texts_examples_both_readings(alice, bob, reading, bob_score, alice_score):
    people = [{"id": "al", "name": "Alice", "side": "pc", "swap_with": "bo"}, {"id": "bo", "name": "Bob", "side": "pc"}]
    answer = turns.turn_order("action-points", people, {"init:al": alice, "init:bo": bob}, 1, {"swap_reading": reading})
    assert [(t["id"], t["when"]) for t in answer["turns"]] == [
        ("bo", f"initiative {bob_score}"),
        ("al", f"initiative {alice_score}"),
    ]
    assert any(s["rule"] == "initiative-swap" for s in answer["turns"][0]["why"])


def test_action_points_delay_lowers_the_score():
    people = [{**AP[0], "delay": 10}, AP[2]]
    answer = turns.turn_order("action-points", people, {"init:al": 15, "init:o": 12}, 1)  # 20 - 10 = 10 < 13
    assert [t["id"] for t in answer["turns"]] == ["o", "al"]
    assert any(s["rule"] == "initiative-delay" for s in answer["turns"][1]["why"])


def test_action_points_swap_only_with_an_ally_by_id():
    for target, message in (("o", "not an ally"), ("zz", "no combatant")):
        people = [{**AP[0], "swap_with": target}, *AP[1:]]
        with pytest.raises(CalcError) as err:
            turns.turn_order("action-points", people, {"init:al": 15, "init:bo": 3, "init:o": 12}, 1)
        assert err.value.input == "combatants[1].swap_with"
        assert message in err.value.reason


def test_action_points_team_initiative_one_roll_per_team():
    people = [{**AP[0], "team": "red"}, {**AP[1], "team": "red"}, AP[2]]
    options = {"team_initiative": True}
    needed = turns.dice_needed("action-points", people, 1, options)
    assert [e["key"] for e in needed] == ["team:red", "init:o"]
    answer = turns.turn_order("action-points", people, {"team:red": 12, "init:o": 12}, 1, options)  # 12 vs 13
    ranks = rank_of(answer)
    assert ranks["o"] < ranks["al"] == ranks["bo"]


@pytest.mark.parametrize("reroll", ["with_bonus", "plain"])
def test_action_points_every_roll_and_re_roll_matches_the_initiative_calculator(reroll):
    people = AP[:2]
    calc_inputs = {"combatants": [{"name": p["name"], "bonus": p["bonus"]} for p in people], "tie_reroll": reroll}
    check_against_calculator("action-points", people, calc_inputs, {"tie_reroll": reroll})


def test_action_points_team_every_roll_matches_the_initiative_calculator():
    people = [{**AP[0], "team": "red"}, {**AP[1], "team": "red"}, {**AP[2], "bonus": 3}]
    calc_inputs = {
        "combatants": [{"name": p["name"], "bonus": p["bonus"], "team": p.get("team", "")} for p in people],
        "team_initiative": True,
    }
    check_against_calculator("action-points", people, calc_inputs, {"team_initiative": True})


# --- phases ----------------------------------------------------------------------------------------------
PH = [
    {"id": "r", "name": "Regdar", "side": "pc", "dex_target": 8, "morale": 0},
    {"id": "o", "name": "Orc", "side": "foe", "dex_target": 12, "morale": 7},
]


def test_phases_dice_every_phase_each_round_and_morale_when_triggered():
    needed = turns.dice_needed("phases", PH, 2)
    assert needed[0]["key"] == "morale" and needed[0]["dice"] == "2d6" and needed[0]["optional"]
    assert [e["key"] for e in needed[1:3]] == ["movement:r", "movement:o"]
    assert len(needed) == 1 + 5 * 2
    only = [{**PH[0], "acts_in": ["melee"]}, {**PH[1], "acts_in": ["ranged", "melee"]}]
    assert [e["key"] for e in turns.dice_needed("phases", only, 1)] == ["morale", "ranged:o", "melee:r", "melee:o"]


def test_phases_the_texts_grapple_example_orc_first():
    people = [{**p, "acts_in": ["melee"]} for p in PH]
    answer = turns.turn_order("phases", people, {"melee:r": 15, "melee:o": 18}, 1)
    assert [t["id"] for t in answer["turns"]] == ["o", "r"]
    assert answer["turns"][0]["when"].startswith("phase 6")


def test_phases_movement_by_dexterity_margin_lower_target_is_better():
    people = [{**p, "acts_in": ["movement"]} for p in PH]
    rolls = {"movement:r": 12, "movement:o": 14}  # margins 12 - 8 = 4 and 14 - 12 = 2
    assert [t["id"] for t in turns.turn_order("phases", people, rolls, 1)["turns"]] == ["r", "o"]
    by_roll = turns.turn_order("phases", people, rolls, 1, {"movement_order": "roll"})
    assert [t["id"] for t in by_roll["turns"]] == ["o", "r"]


def test_phases_equal_rolls_simultaneous_or_rolled_again():
    people = [{**p, "acts_in": ["melee"]} for p in PH]
    rolls = {"melee:r": 11, "melee:o": 11}
    ranks = rank_of(turns.turn_order("phases", people, rolls, 1))
    assert ranks["r"] == ranks["o"]
    answer = turns.turn_order("phases", people, rolls, 1, {"ties": "reroll"})
    assert sorted(e["key"] for e in answer["needs"]) == ["tie:melee:o", "tie:melee:r"]
    answer = turns.turn_order("phases", people, {**rolls, "tie:melee:r": 3, "tie:melee:o": 9}, 1, {"ties": "reroll"})
    assert [t["id"] for t in answer["turns"]] == ["o", "r"] and not answer["needs"]


def test_phases_morale_roll_both_readings():
    people = [{**p, "acts_in": ["melee"]} for p in PH]
    base = {"melee:r": 15, "melee:o": 18}
    assert turns.turn_order("phases", people, {**base, "morale": 8}, 1)["fled"] == ["o"]
    assert turns.turn_order("phases", people, {**base, "morale": 7}, 1)["fled"] == []
    at_least = turns.turn_order("phases", people, {**base, "morale": 7}, 1, {"morale_reading": "at-least"})
    assert at_least["fled"] == ["o"]
    assert turns.turn_order("phases", people, base, 1)["fled"] == []  # not triggered: no roll


def test_phases_bad_phase_and_morale_roll():
    with pytest.raises(CalcError) as err:
        turns.dice_needed("phases", [{**PH[0], "acts_in": ["lunch"]}], 1)
    assert err.value.input == "combatants[1].acts_in"
    people = [{**p, "acts_in": ["melee"]} for p in PH]
    with pytest.raises(CalcError) as err:
        turns.turn_order("phases", people, {"melee:r": 15, "melee:o": 18, "morale": 13}, 1)
    assert err.value.input == "rolls.morale"


@pytest.mark.parametrize(
    ("phase", "options"),
    [
        ("melee", {}),
        ("melee", {"ties": "reroll"}),
        ("movement", {}),
        ("movement", {"movement_order": "roll"}),
        ("movement", {"ties": "reroll"}),
    ],
)
def test_phases_every_roll_matches_the_initiative_calculator(phase, options):
    people = [{**p, "acts_in": [phase]} for p in PH]
    calc_inputs = {
        "phase": phase,
        "combatants": [{"name": p["name"], "dex_target": p["dex_target"], "morale": p["morale"]} for p in PH],
        **options,
    }
    check_against_calculator("phases", people, calc_inputs, options)


# --- segments -------------------------------------------------------------------------------------------
SG = [
    {"id": "o", "name": "Orc", "side": "foe", "action": "melee", "weapon": "battle axe"},
    {"id": "f", "name": "Fighter", "side": "pc", "action": "melee", "weapon": "dagger"},
]


def test_segments_one_d6_per_side_each_round():
    for round_no in (1, 2):
        needed = turns.dice_needed("segments", SG, round_no)
        assert [(e["key"], e["dice"]) for e in needed] == [("side:pc", "1d6"), ("side:foe", "1d6")]


def test_segments_a_tie_puts_both_in_high_and_weapon_speed_decides():
    # The data's example: both groups roll 4; the dagger (speed 2) strikes before the battle axe (7).
    answer = turns.turn_order("segments", SG, {"side:pc": 4, "side:foe": 4}, 1)
    assert [t["id"] for t in answer["turns"]] == ["f", "o"]
    assert [t["when"] for t in answer["turns"]] == ["HIGH D3 · speed 2", "HIGH D3 · speed 7"]
    assert sorted(answer["high"]) == ["foe", "pc"]


def test_segments_high_goes_first_whatever_the_weapon():
    answer = turns.turn_order("segments", SG, {"side:pc": 2, "side:foe": 5}, 1)
    assert [t["id"] for t in answer["turns"]] == ["o", "f"]
    assert [t["when"] for t in answer["turns"]] == ["HIGH D3", "LOW D3"]


def test_segments_delayed_acts_in_low_and_loses_ties():
    people = [{**SG[0], "weapon": "dagger"}, {**SG[1], "weapon": "battle axe", "delayed": True}]
    answer = turns.turn_order("segments", people, {"side:pc": 6, "side:foe": 1}, 1)
    assert [t["id"] for t in answer["turns"]] == ["o", "f"]  # the PCs' HIGH does not help a delayed fighter


def test_segments_spells_by_segment_and_complex_last():
    people = [
        {"id": "m", "name": "Mage", "side": "pc", "action": "spell", "casting_time": 3},
        {"id": "s", "name": "Shaman", "side": "foe", "action": "spell", "casting_time": 1},
        {"id": "t", "name": "Thief", "side": "pc", "action": "complex"},
        {"id": "g", "name": "Goblin", "side": "foe", "action": "fast"},
    ]
    answer = turns.turn_order("segments", people, {"side:pc": 5, "side:foe": 2}, 1)
    assert [t["id"] for t in answer["turns"]] == ["g", "s", "m", "t"]
    assert "segment 1" in answer["turns"][1]["when"] and "segment 3" in answer["turns"][2]["when"]


def test_segments_bad_weapon_names_the_field():
    with pytest.raises(CalcError) as err:
        turns.turn_order("segments", [{**SG[1], "weapon": "banana"}], {"side:pc": 1, "side:foe": 2}, 1)
    assert err.value.input == "combatants[1].weapon"


def test_segments_every_roll_matches_the_calculators_high_chances():
    """The round-order calculator answers a different question before the roll (P(a group is
    HIGH)), not "who acts before whom". Checked: the chance the tracker puts each side's fighter in
    HIGH, and (weapon speed settling the tie) the chance the dagger strikes first."""
    calc = evaluate(
        {
            "system": "segments",
            "calculator": "initiative",
            "inputs": {"groups": [{"name": "PCs"}, {"name": "Foes"}], "combatants": []},
        }
    )
    high = {c["label"]: Fraction(c["p"]["fraction"]) for c in calc["chances"]}
    in_high = {"f": Fraction(0), "o": Fraction(0)}
    fighter_first = Fraction(0)
    for pc, foe in product(range(1, 7), repeat=2):
        answer = turns.turn_order("segments", SG, {"side:pc": pc, "side:foe": foe}, 1)
        for t in answer["turns"]:
            in_high[t["id"]] += Fraction(int(t["when"].startswith("HIGH")), 36)
        fighter_first += Fraction(int(answer["turns"][0]["id"] == "f"), 36)
    assert (
        in_high == {"f": high["PCs is HIGH"], "o": high["Foes is HIGH"]} == {"f": Fraction(7, 12), "o": Fraction(7, 12)}
    )
    assert fighter_first == high["PCs is HIGH"]


def test_command_line_turns(capsys):
    from calc.__main__ import main

    people = json.dumps([{"id": "a", "name": "Aria", "side": "pc"}, {"id": "o", "name": "Orc", "side": "foe"}])
    assert main(["countup", "turns", "--combatants", people, "--json"]) == 0
    assert [d["key"] for d in json.loads(capsys.readouterr().out)] == ["init:a", "init:o"]
    assert main(["countup", "turns", "--combatants", people, "--rolls", '{"init:a": 5, "init:o": 5}']) == 0
    assert capsys.readouterr().out.splitlines() == ["1. Aria [count 5]", "2. Orc [count 5]"]
    assert main(["countup", "turns", "--combatants", people, "--rolls", "{}"]) == 2
    assert "rolls.init:a" in capsys.readouterr().err
    assert main(["countup", "turns", "--combatants", "[", "--rolls", "{}"]) == 2
    assert "combatants: is not valid JSON" in capsys.readouterr().err


SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=60, deadline=None)
@given(
    system=st.sampled_from(SYSTEMS),
    fields=st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "name",
                    "side",
                    "die",
                    "modifier",
                    "bonus",
                    "dexterity",
                    "dex_target",
                    "morale",
                    "action",
                    "weapon",
                    "delayed",
                    "swap_with",
                    "team",
                    "delay",
                    "acts_in",
                    "agility",
                ]
            ),
            junk,
            max_size=6,
        ),
        min_size=1,
        max_size=3,
    ),
    rolls=st.one_of(junk, st.dictionaries(st.text(max_size=12), junk, max_size=4)),
    round_no=junk,
)
def test_hostile_input_is_a_calc_error_or_an_answer(system, fields, rolls, round_no):
    people = [{"id": f"c{i}", "side": "pc", **f} for i, f in enumerate(fields)]
    for call in (
        lambda: turns.dice_needed(system, people, round_no),
        lambda: turns.turn_order(system, people, rolls, round_no),
    ):
        try:
            json.dumps(call())
        except CalcError:
            pass


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_answers_its_own_dice(system):
    """Every system: the dice it asks for, rolled (lowest faces, then highest), give an order in
    which every combatant that acts has a turn, each step citing a rule with a url."""
    people = [{"id": "p", "name": "Hero", "side": "pc"}, {"id": "f", "name": "Foe", "side": "foe"}]
    needed = turns.dice_needed(system, people, 1)
    for pick in (min, max):
        rolls = {e["key"]: pick(faces(e)) for e in needed if not e["optional"]}
        answer = turns.turn_order(system, people, rolls, 1)
        assert {t["id"] for t in answer["turns"]} == {"p", "f"}
        assert all(s["rule"] and s["url"] for t in answer["turns"] for s in t["why"])
        json.dumps(answer)
