"""Resolve's other dice (calc/fight/resolve.py `plan`'s `rolls`, resolve_rules.py): action-points'
d% of a miss chance, phases' second d20 of advantage or disadvantage, active-defense's reserve
actions counted down within a round. Each rule and both readings of each ruling, against the
source texts; expected figures worked out here by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from calc import evaluate
from calc import fight as fight_mod
from calc.errors import InputError
from tests.calc.fight_helpers import Fight
from tests.calc.test_fight_resolve_damage import _fight, _plan, _taken


def _request(f: Fight, target: str) -> dict:
    """The acting card's odds request against `target` (the view's odds)."""
    odds = f.view["odds"]
    return next(t for t in odds["targets"] if t["id"] == target)["request"]


def _now(f: Fight, target: str) -> dict:
    """What the acting card's Resolve rolls against `target` as the fight stands (no new round)."""
    return next(t for t in f.view["odds"]["targets"] if t["id"] == target)["resolve"]


def _acting(f: Fight, name: str) -> Fight:
    """`f` with a round started and moved on to `name`'s turn."""
    f.round()
    for _ in range(6):
        if f.view["odds"] and f.view["odds"]["attacker"] == f.ident(name):
            return f
        f.do("next_turn")
    raise AssertionError(f"{name} never acts")


# --- action-points: the miss chance's d% (002: "Roll d%. If you roll less than or equal to their
# [Miss Chance], you hit"; the ruling: at or under the chance misses) ---------------------------
AP_MINE = {"use_preset": False, "dice": "1d8", "threshold": 19, "multiplier": 3, "standard": 1, "quick": 0}


def _ap(options: dict | None = None) -> tuple[Fight, str, str]:
    f = Fight("action-points", options)
    a = f.add("Ann", "pc", 30, **AP_MINE, damage_bonus=2)
    o = f.add("Orc", "foe", 40, defense=12, miss_chance=20)
    return f, a, o


def test_miss_chance_is_rolled_with_the_attack() -> None:
    f, a, o = _ap()
    miss = {"key": "miss_roll", "kind": "miss_chance", "label": "Miss chance 20%", "die": "d100"}
    assert _plan(f, o)["rolls"] == [miss]
    with pytest.raises(InputError) as err:  # a hit asks for the d%
        f.do("attack", id=a, target=o, roll=12, faces=[5])
    assert err.value.input == "action.miss_roll"
    f.do("attack", id=a, target=o, roll=5, faces=[5])  # 5 + 0 < 12: a miss, no d% asked
    assert _taken(f, o) == 0 and "a miss" in f.steps[0]["text"]


def test_miss_chance_ruling_at_or_under_misses() -> None:
    f, a, o = _ap()
    before = f.state
    f.do("attack", id=a, target=o, roll=12, miss_roll=20, faces=[5])
    assert _taken(f, o) == 0 and "it misses" in f.steps[0]["text"]
    f.state = before
    f.do("attack", id=a, target=o, roll=12, miss_roll=21, faces=[5])
    assert _taken(f, o) == 5 + 2


def test_miss_chance_the_sentence_read_literally_at_or_under_hits() -> None:
    f, a, o = _ap({"miss_chance_reading": "literal"})
    before = f.state
    f.do("attack", id=a, target=o, roll=12, miss_roll=20, faces=[5])
    assert _taken(f, o) == 5 + 2
    f.state = before
    f.do("attack", id=a, target=o, roll=12, miss_roll=21, faces=[5])
    assert _taken(f, o) == 0


def test_a_critical_hit_the_miss_chance_would_miss_is_a_regular_hit() -> None:
    f, a, o = _ap()
    before = f.state
    f.do("attack", id=a, target=o, roll=19, miss_roll=1, faces=[5])
    assert _taken(f, o) == 5 + 2 and "a regular hit" in f.steps[0]["text"]
    f.state = before
    f.do("attack", id=a, target=o, roll=19, miss_roll=100, faces=[5])
    assert _taken(f, o) == (5 + 2) * 3


def test_every_d100_face_agrees_with_the_odds_miss_chance() -> None:
    """Resolve's reading of each d% face, counted over the 100 faces, is the hit calculator's
    chance that the miss chance turns a hit into a miss, under both readings."""
    for reading in ("glossary", "literal"):
        f, a, o = _ap({"miss_chance_reading": reading})
        misses = 0
        for d in range(1, 101):
            look = Fight("action-points")
            look.state = f.state
            look.do("attack", id=a, target=o, roll=12, miss_roll=d, faces=[5])
            misses += _taken(look, o) == 0
        asked = {k: v for k, v in AP_MINE.items() if k in ("use_preset", "dice", "threshold", "multiplier")}
        asked |= {"defense": 12, "miss_chance_reading": reading}

        def chance(label: str, miss_chance: int, asked: dict = asked) -> Fraction:
            answer = evaluate(
                {"system": "action-points", "calculator": "hit", "inputs": asked | {"miss_chance": miss_chance}}
            )
            return Fraction(next((c["p"]["fraction"] for c in answer["chances"] if c["label"] == label), 0))

        # a regular hit the d% misses is a miss; a critical one, a regular hit (still a hit)
        missed, regular = chance("Miss", 0), 1 - chance("Miss", 0) - chance("Critical hit", 0)
        assert chance("Miss", 20) == missed + regular * Fraction(misses, 100), reading


# --- phases: advantage and disadvantage (003: "rolls a second d20 … and uses that result"; the
# ruling: the better with advantage, the worse with disadvantage) ---------------------------------
def _need(**inputs: object) -> int:
    return evaluate({"system": "phases", "calculator": "hit", "inputs": inputs})["roll_needed"]["value"]


def _ph(roll: str, options: dict | None = None, **mine: object) -> tuple[Fight, str, str]:
    f = Fight("phases", options)
    a = f.add("Ann", "pc", 30, attack_type="ranged", modifiers=2, roll_mode=roll, **mine)
    o = f.add("Orc", "foe", 40, defense=3)
    return f, a, o


def test_advantage_rolls_a_second_d20_and_keeps_the_higher() -> None:
    f, a, o = _ph("advantage")
    need = _need(attack_type="ranged", defense=3)
    assert _plan(f, o)["rolls"] == [
        {"key": "second_roll", "kind": "advantage", "label": "Second roll, advantage", "die": "d20"}
    ]
    with pytest.raises(InputError) as err:
        f.do("attack", id=a, target=o, roll=need + 3)
    assert err.value.input == "action.second_roll"
    f.do("attack", id=a, target=o, roll=2, second_roll=need + 3)
    assert _taken(f, o) == 3 + 2  # the margin of the kept face, + modifiers
    assert f"2 and {need + 3} on the d20s (advantage: keeps {need + 3})" in f.steps[0]["text"]


def test_disadvantage_keeps_the_lower() -> None:
    f, a, o = _ph("disadvantage")
    need = _need(attack_type="ranged", defense=3)
    before = f.state
    f.do("attack", id=a, target=o, roll=need + 3, second_roll=2)
    assert _taken(f, o) == 0 and "keeps 2" in f.steps[0]["text"]
    f.state = before
    f.do("attack", id=a, target=o, roll=need + 4, second_roll=need + 3)
    assert _taken(f, o) == 3 + 2


def test_advantage_read_word_for_word_uses_the_second_roll() -> None:
    f, a, o = _ph("advantage", {"advantage_reading": "literal"})
    need = _need(attack_type="ranged", defense=3)
    before = f.state
    f.do("attack", id=a, target=o, roll=need + 3, second_roll=2)
    assert _taken(f, o) == 0 and "the second roll" in f.steps[0]["text"]
    f.state = before
    f.do("attack", id=a, target=o, roll=2, second_roll=need + 3)
    assert _taken(f, o) == 3 + 2


def test_a_kept_natural_20_is_the_critical_hit() -> None:
    f, a, o = _ph("advantage", mode="monster", damage_dice="2d6")
    before = f.state
    f.do("attack", id=a, target=o, roll=3, second_roll=20, faces=[2, 5])
    direct = Fight("phases")
    direct.state = before
    direct.do("damage", id=o, amount=7, critical=True)
    assert f.state["combatants"] == direct.state["combatants"]


def test_no_advantage_no_second_roll_and_the_odds_ask_the_same_mode() -> None:
    f, a, o = _ph("normal")
    assert _plan(f, o)["rolls"] == []
    g = _acting(_ph("advantage")[0], "Ann")
    req = g.view["odds"]["targets"][0]["request"]
    assert req["inputs"]["roll_mode"] == "advantage"


# --- active-defense: reserve actions counted down within a round (004, Reserve Actions) -----------
AD_MINE = {"attack_skill": 4, "attack_ability": 2, "damage_dice": "1d8", "damage_strength": 2}
AD_THEIRS = {"defender_dex": 2, "armor": 2, "defense": "block", "reserves": 1, "block_skill": 3, "defender_str": 1}


def _ad(**theirs: object) -> tuple[Fight, str, str]:
    f, a, o = _fight("active-defense", AD_MINE, AD_THEIRS | theirs)
    return _acting(f, "Ann"), a, o


def _ad_two(**theirs: object) -> tuple[Fight, str, str, str]:
    """Ann, then Bea (alike), then the Orc, at Ann's turn: one attack a turn (004, Types of Actions),
    so a second attack before the Orc's turn is Bea's."""
    f = Fight("active-defense")
    a, b = f.add("Ann", "pc", 30, **AD_MINE, dexterity=2), f.add("Bea", "pc", 30, **AD_MINE, dexterity=1)
    o = f.add("Orc", "foe", 40, **(AD_THEIRS | theirs))
    return _acting(f, "Ann"), a, b, o


def _orc(f: Fight, o: str) -> dict:
    return next(c for c in f.state["combatants"] if c["id"] == o)


def test_a_block_spends_the_reserve_and_the_next_attack_meets_passive_defense_alone() -> None:
    f, a, b, o = _ad_two()
    assert _request(f, o)["inputs"].get("reserves", 1) == 1
    f.do("attack", id=a, target=o, roll=10, defense_roll=12, faces=[6])  # 16 against a block of 16
    assert _taken(f, o) == 0 and _orc(f, o)["reserves_spent"] == 1
    assert any("0 of 1 left" in s["text"] for s in f.steps)
    assert f.who("Orc")["reserves_note"] == "Reserve actions left this round: 0 of 1."  # on the card
    assert _now(f, o)["defense"] is None and _now(f, o)["rolls"] == []  # none left: no block
    assert _request(f, o)["inputs"]["reserves"] == 0  # the odds ask the reserve as it stands
    odds = evaluate(_request(f, o))
    assert Fraction(odds["first_attack"]["hit"]["fraction"]) == Fraction(15, 20)  # d20 + 6 >= 12: 6..20
    f.do("next_turn").do("attack", id=b, target=o, roll=10, faces=[6])  # Bea's turn: no block asked, it lands
    assert _taken(f, o) == 6 + 2 - 2 and _orc(f, o)["reserves_spent"] == 1


def test_two_reserves_two_blocks() -> None:
    f, a, b, o = _ad_two(reserves=2)
    f.do("attack", id=a, target=o, roll=10, defense_roll=12, faces=[6])
    assert _now(f, o)["defense"] is not None and _request(f, o)["inputs"].get("reserves", 1) == 1
    f.do("next_turn").do("attack", id=b, target=o, roll=10, defense_roll=11, faces=[6])  # fails: spent all the same
    assert _taken(f, o) == 6 and _orc(f, o)["reserves_spent"] == 2 and _now(f, o)["defense"] is None


def test_the_ruling_spends_only_on_an_attack_that_beats_passive_defense() -> None:
    f, a, o = _ad()
    f.do("attack", id=a, target=o, roll=5, faces=[6])  # 11 < 12: no block needed, none spent
    assert _orc(f, o)["reserves_spent"] == 0 and _now(f, o)["defense"] is not None


def test_the_other_reading_spends_on_each_attack_in_turn() -> None:
    f, a, o = _ad(spend_reserve="each-attack")
    f.do("attack", id=a, target=o, roll=5, faces=[6])  # 11 < 12, the reserve spent all the same
    assert _taken(f, o) == 0 and _orc(f, o)["reserves_spent"] == 1 and _now(f, o)["defense"] is None


def test_reserves_come_back_as_the_next_round_starts_and_undo_is_the_state_before() -> None:
    f, a, o = _ad()
    before = f.state
    f.do("attack", id=a, target=o, roll=10, defense_roll=12, faces=[6])
    assert before["combatants"][1]["reserves_spent"] == 0  # the state before (Undo's) untouched
    assert fight_mod.act("active-defense", before, {"type": "view"})["state"] == before
    f.round()
    assert _orc(f, o)["reserves_spent"] == 0
    assert f.view["odds"] is None or _request(f, o)["inputs"].get("reserves", 1) == 1


def test_a_fight_saved_before_the_count_loads_with_none_spent() -> None:
    f, a, o = _ad()
    people = [{k: v for k, v in c.items() if k != "reserves_spent"} for c in f.state["combatants"]]
    old = {**f.state, "combatants": people}
    loaded = fight_mod.act("active-defense", None, {"type": "load", "state": old})
    assert loaded["dropped"] == [] and loaded["state"] == f.state
    legacy = {
        "format": "cc-tracker", "version": 1, "system": "active-defense", "nextId": 3,
        "combatants": [{"id": "c1", "name": "Ann", "side": "pc", "max": 30, "damage": 4, "values": {}}],
    }  # fmt: skip
    got = fight_mod.act("active-defense", None, {"type": "load", "state": legacy})
    assert got["state"]["combatants"][0]["reserves_spent"] == 0 and got["state"]["combatants"][0]["hp"] == 26
    bad = {**f.state, "combatants": [{**c, "reserves_spent": 9} for c in f.state["combatants"]]}
    with pytest.raises(InputError) as err:
        fight_mod.act("active-defense", bad, {"type": "view"})
    assert err.value.input == "combatants[1].reserves_spent"


def test_before_it_acts_again_asks_the_reserve_left_within_this_round() -> None:
    """Orc still to act this round: only Ann's attack comes before its turn, against the reserve as
    it stands (none left after the block): the round calculator's first round with reserves 0."""
    f, a, o = _ad()
    f.do("edit", id=o, changes={"hp": 6})
    order = [t["id"] for t in f.view["order"]]
    assert order.index(a) < order.index(o), order  # Orc acts after Ann this round
    f.do("attack", id=a, target=o, roll=10, defense_roll=12, faces=[6])  # blocked: the reserve spent
    got = fight_mod.before("active-defense", f.state, a, o)
    asked = _request(f, o)
    assert asked["inputs"]["reserves"] == 0
    first = evaluate(asked)["rounds"][0]["within"][0]["fraction"]
    assert got["p"]["fraction"] == first and Fraction(first) > 0
    fresh = evaluate({**asked, "inputs": {k: v for k, v in asked["inputs"].items() if k != "reserves"}})
    assert Fraction(fresh["rounds"][0]["within"][0]["fraction"]) < Fraction(first)  # a block held lowers it
