"""Segments' multi-attackers (the Combat Round Flowchart's steps 4 and 6): a combatant with 2 attack
routines who is in melee makes its first routine before group initiative and the other after LOW,
with no turn in HIGH or LOW, in the round-order calculator and in the tracker alike. "In melee" is
read from the declared action by the multi-attack-in-melee ruling (both readings tested). Each of
its tracker turns carries the routine it makes: "drops before it acts again" and the Forecast panel
count every routine once, while the card's odds keep the whole round for the rounds to drop."""

from __future__ import annotations

from fractions import Fraction

import pytest

from calc import evaluate, fight
from calc.fight import forecast_request
from tests.calc.fight_helpers import Fight

FACES = {"side:pc": 5, "side:foe": 2}  # the PCs HIGH, the foes LOW
HERO = {"action": "melee", "weapon": "long sword", "level": 3}
BEAST = {"action": "melee", "weapon": "", "routines": 2, "ac": 6}


def order_of(combatants: list[dict], **options: str) -> list[tuple[str, str]]:
    answer = evaluate(
        {
            "system": "segments",
            "calculator": "initiative",
            "inputs": {
                "groups": [{"name": "Party", "roll": 5}, {"name": "Monsters", "roll": 2}],
                "combatants": combatants,
                **options,
            },
        }
    )
    return [(n, o["score"]) for o in answer["order"] for n in o["names"]]


FIGHTER = {"name": "Fighter", "group": "Party", "action": "melee", "weapon": "long sword"}


def test_a_multi_attacker_in_melee_acts_at_steps_4_and_6_not_in_its_groups_initiative() -> None:
    got = order_of([FIGHTER, {"name": "Beast", "group": "Monsters", "action": "melee", "routines": 2},
                    {"name": "Orc", "group": "Monsters", "action": "melee", "weapon": "club"}])  # fmt: skip
    assert got == [
        ("Beast", "Multi-attack, first routine · LOW"),
        ("Fighter", "HIGH D3"),
        ("Orc", "LOW D3"),
        ("Beast", "Multi-attack, other routines · LOW"),
    ]


def test_one_routine_or_another_action_keeps_its_groups_place() -> None:
    one = order_of([FIGHTER, {"name": "Beast", "group": "Monsters", "action": "melee", "routines": 1}])
    assert one == [("Fighter", "HIGH D3"), ("Beast", "LOW D3")]
    other = order_of([FIGHTER, {"name": "Beast", "group": "Monsters", "action": "other", "routines": 2}])
    assert other == [("Fighter", "HIGH D3"), ("Beast", "LOW D4")]


@pytest.mark.parametrize(
    ("reading", "split"), [("melee", False), ("missile-too", True)], ids=["ruling", "other-reading"]
)
def test_a_missile_attack_is_in_melee_only_under_the_other_reading(reading: str, split: bool) -> None:
    """Not in melee, a multi-attacker's first routine comes in its group's initiative (LOW D2), and
    the rest at step 6 all the same (the step calls on anyone with attacks left over)."""
    beast = {"name": "Beast", "group": "Monsters", "action": "missile", "routines": 2}
    got = [n for n, _ in order_of([FIGHTER, beast], multi_attack=reading)]
    assert got == (["Beast", "Fighter", "Beast"] if split else ["Fighter", "Beast", "Beast"])


def test_the_steps_cite_the_round_sequence_and_the_ruling() -> None:
    answer = evaluate(
        {
            "system": "segments",
            "calculator": "initiative",
            "inputs": {
                "groups": [{"name": "Party", "roll": 5}, {"name": "Monsters", "roll": 2}],
                "combatants": [FIGHTER, {"name": "Beast", "group": "Monsters", "routines": 2}],
            },
        }
    )
    rules = [s["rule"] for s in answer["steps"]]
    assert "combat-round-sequence" in rules and "ruling:multi-attack-in-melee" in rules
    said = next(s["text"] for s in answer["steps"] if s["rule"] == "combat-round-sequence")
    assert "Beast" in said and "step 4" in said and "step 6" in said


def duel(**options: str) -> Fight:
    f = Fight("segments", options)
    f.add("Hero", "pc", 12, **HERO)
    f.add("Beast", "foe", 20, **BEAST)
    return f.round(FACES)


def test_the_tracker_gives_the_multi_attacker_two_turns_each_with_its_routine() -> None:
    f = duel()
    assert f.order() == ["Beast", "Hero", "Beast"]
    beast = f.ident("Beast")
    assert [t.get("inputs") for t in f.state["order"]] == [{"routines": 1}, None, {"routines": 1}]
    for t in f.state["order"]:
        if t["id"] == beast:
            assert {"combat-round-sequence", "ruling:multi-attack-in-melee"} <= {s["rule"] for s in t["why"]}
    assert f.view["order"][0]["when"].startswith("Multi-attack, first routine")
    assert f.view["order"][2]["when"].startswith("Multi-attack, other routines")


def test_a_missile_declaration_goes_first_only_under_the_other_reading() -> None:
    for reading, expected in (("melee", ["Hero", "Beast", "Beast"]), ("missile-too", ["Beast", "Hero", "Beast"])):
        f = Fight("segments", {"multi_attack": reading})
        f.add("Hero", "pc", 12, **HERO)
        f.add("Beast", "foe", 20, **{**BEAST, "action": "missile"})
        assert f.round(FACES).order() == expected, reading


def odds_request(f: Fight, target: str) -> dict:
    t = next(t for t in f.view["odds"]["targets"] if t["name"] == target)
    return t["request"]


def one_routine(request: dict) -> dict:
    """The same request with the beast's round cut to one routine (the declared default)."""
    return {**request, "inputs": {k: v for k, v in request["inputs"].items() if k != "routines"}}


def test_both_turns_odds_ask_with_the_whole_round_the_first_attack_being_one_attacks() -> None:
    """The card's odds: this attack's figures are the routine's first attack whatever the routines;
    the rounds to drop the Hero and the chance within 3 count the beast's whole round (2 routines),
    at either of its turns, and its links ask the same question."""
    f = duel()
    assert f.current() == "Beast"
    asked = odds_request(f, "Hero")
    assert asked["inputs"]["routines"] == 2
    cut = evaluate(one_routine(asked))
    assert evaluate(asked)["first_attack"] == cut["first_attack"]
    assert evaluate(asked)["rounds"] != cut["rounds"]
    f.do("next_turn").do("next_turn")
    assert f.current() == "Beast" and odds_request(f, "Hero") == asked
    link = f.who("Hero")["links"]["round"]
    assert link["attacker"] == "Beast" and link["inputs"] == asked["inputs"]


def _first_round(request: dict) -> Fraction:
    return Fraction(evaluate(request)["rounds"][0]["within"][0]["fraction"])


def test_drops_before_it_acts_again_counts_each_routine_once() -> None:
    f = duel()
    hero, beast = f.ident("Hero"), f.ident("Beast")
    # Beast's first routine: the Hero acts next, so only this routine comes before
    early = fight.before("segments", f.state, beast, hero)
    assert [x["names"] for x in early["lists"]] == [["Beast"]]
    assert Fraction(early["p"]["fraction"]) == _first_round(one_routine(odds_request(f, "Hero")))
    # Beast's second routine: the Hero has acted; next round Beast's first routine always comes
    # before anyone's group initiative, so two routines in all come before the Hero acts again
    f.do("next_turn").do("next_turn")
    late = fight.before("segments", f.state, beast, hero)
    assert all(x["names"][:2] == ["Beast", "Beast"] for x in late["lists"])
    assert Fraction(late["p"]["fraction"]) == _first_round(odds_request(f, "Hero"))


def test_the_forecast_panel_places_the_multi_attacker_at_its_first_turn() -> None:
    f = duel()
    f.do("next_turn")  # the Hero's turn: Beast's first routine made
    built = fight.forecast("segments", f.state)
    assert built["request"]["inputs"]["order"] == [{"name": "Beast"}, {"name": "Hero"}]
    assert built["request"]["inputs"]["acted"] == 1
    assert forecast_request.mid_round(f.state, {f.ident("Beast"): "Beast", f.ident("Hero"): "Hero"})["acted"] == 1


def test_a_saved_round_keeps_its_turns_routines_and_bad_ones_are_named() -> None:
    f = duel()
    again = fight.act("segments", None, {"type": "load", "state": f.state})
    assert again["state"]["order"] == f.state["order"]
    bad = {**f.state, "order": [{**f.state["order"][0], "inputs": {"routines": "many"}}, *f.state["order"][1:]]}
    loaded = fight.act("segments", None, {"type": "load", "state": bad})
    assert any("order[1].inputs.routines" in str(d) for d in loaded["dropped"])


# --- the forecast follows the same ruling ---------------------------------------------------------
SURE = Fraction(19, 20)
"""The best attacker hits 19 times in 20 (a natural 1 misses)."""


@pytest.mark.parametrize(
    ("reading", "hero_first"),
    [("melee", Fraction(15, 36)), ("missile-too", Fraction(0))],
    ids=["ruling", "other-reading"],
)
def test_the_forecast_places_a_missile_multi_attackers_first_routine_by_the_ruling(
    reading: str, hero_first: Fraction
) -> None:
    """A 1-HP hero against an archer beast with 2 routines, each side sure to drop the other with a
    hit (19 in 20). In melee (the other reading) the beast's first routine comes before anyone's
    initiative: the hero strikes only if it misses. Not in melee (the ruling) its first routine
    comes in its side's initiative: the hero's side rolls higher 15 times in 36 and strikes first;
    on a tie the missile (D2) comes before the melee (D3)."""
    sword = [{"name": "Sword", "dice": "1d8", "modifier": 20, "to_hit": 20}]
    hero = {"name": "Hero", "level": 20, "weapon": "long sword", "ac": 5, "target_hp": 1, "routine": sword}
    claw = [{"name": "Arrow", "dice": "1d4", "modifier": 5, "to_hit": 20}]
    beast = {"name": "Beast", "attacker": "monster", "hd": 20, "action": "missile", "routines": 2, "ac": 6,
             "target_hp": 4, "routine": claw}  # fmt: skip
    answer = evaluate(
        {
            "system": "segments",
            "calculator": "forecast",
            "inputs": {"party": [hero], "foes": [beast], "rounds": 1, "multi_attack": reading},
        }
    )
    party_wins = next(c for c in answer["chances"] if c["label"] == "Party wins")
    expected = hero_first * SURE + (1 - hero_first) * (1 - SURE) * SURE
    assert Fraction(party_wins["p"]["fraction"]) == expected
    assert any(s["rule"] == "ruling:multi-attack-in-melee" for s in answer["steps"])


def test_the_panels_forecast_from_a_missile_multi_attackers_first_turn_counts_both_routines() -> None:
    """Not in melee (the ruling), the beast's first routine comes at its place in LOW: from that turn
    the rest of the round is its two routines on the Hero, so the foes win in round 1 exactly when
    the round calculator's two routines drop the Hero in its first round."""
    f = Fight("segments")
    f.add("Hero", "pc", 5, **HERO)
    f.add("Beast", "foe", 20, **{**BEAST, "action": "missile"})
    f.round(FACES).do("next_turn")
    assert f.current() == "Beast" and f.order() == ["Hero", "Beast", "Beast"]
    built = fight.forecast("segments", f.state)
    assert built["request"]["inputs"]["order"] == [{"name": "Hero"}, {"name": "Beast"}]
    assert built["request"]["inputs"]["acted"] == 1
    one_round = evaluate({**built["request"], "inputs": {**built["request"]["inputs"], "rounds": 1}})
    foes_win = next(c for c in one_round["chances"] if c["label"] == "Foes win")
    assert Fraction(foes_win["p"]["fraction"]) == _first_round(odds_request(f, "Hero"))


def test_a_delayed_multi_attacker_makes_its_first_routine_in_low_not_before_initiative() -> None:
    """Delayed, a creature acts in LOW whatever its group rolled: its first routine comes there, even
    with its group HIGH, and the rest at step 6 (after LOW) all the same."""
    beast = {"name": "Beast", "group": "Party", "action": "melee", "routines": 2, "delayed": True}
    orc = {"name": "Orc", "group": "Monsters", "action": "other"}
    got = order_of([FIGHTER, beast, orc])
    assert got == [
        ("Fighter", "HIGH D3"),
        ("Beast", "LOW D3"),
        ("Orc", "LOW D4"),
        ("Beast", "Multi-attack, other routines · HIGH"),
    ]


def test_a_saved_turn_carries_only_the_systems_turn_input() -> None:
    """A tampered save cannot give the acting combatant other values through its turn."""
    f = duel()
    bad = {**f.state, "order": [{**f.state["order"][0], "inputs": {"ac": -10}}, *f.state["order"][1:]]}
    loaded = fight.act("segments", None, {"type": "load", "state": bad})
    assert [d["input"] for d in loaded["dropped"]] == ["order[1].inputs"]
    assert len(loaded["state"]["order"]) == 2
