"""The odds card's "drops before it acts again" (calc/fight/before_turn.py): every foe of the
target acting before its next turn attacks it. Nobody between: the card's own request's figure;
allies between, this round and the next round's initiative: a brute-force oracle over every die
face (kept apart from calc/); initiative rolled once: the same order next round; bad values named."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from calc import evaluate, fight
from calc.browser import evaluate_json
from calc.errors import InputError
from calc.fight import fighter
from calc.inputs import data
from tests.calc.fight_helpers import Fight

PLAIN = {"ability_from": "bonus", "ability_bonus": 0, "misc": 0, "strength_from": "bonus", "strength_bonus": 0,
         "damage_misc": 0}  # fmt: skip
A = {"to_hit": 3, "dice": "1d6", "modifier": 0, **PLAIN}
B = {"to_hit": 1, "dice": "1d4", "modifier": 2, **PLAIN}
ORC = {"to_hit": 1, "dice": "1d6", "modifier": 1, "ac": 12, **PLAIN}
ORC_HP = 6


def countup(faces: dict[str, int]) -> Fight:
    """Aria and Bram (PCs) against an Orc (an NPC: dies at 0), the first round rolled with `faces`."""
    f = Fight("countup")
    f.add("Aria", "pc", 10, **A)
    f.add("Bram", "pc", 8, **B)
    f.add("Orc", "foe", ORC_HP, **ORC)
    f.round(faces)
    return f


def at_turn(f: Fight, name: str) -> Fight:
    while f.view["combatants"] and f.state["order"][f.state["turn"]]["id"] != f.ident(name):
        f.do("next_turn")
    return f


def before(f: Fight, attacker: str, target: str) -> dict:
    return fight.before("countup", f.state, f.ident(attacker), f.ident(target))


# --- the oracle ---------------------------------------------------------------------------------
def blow(att: dict) -> dict[int, Fraction]:
    """d20 + to-hit ≥ AC 12 (the Orc's) hits for the die (a miss: 0), face by face."""
    n = int(att["dice"].split("d")[1])
    out: dict[int, Fraction] = {}
    for d20, face in product(range(1, 21), range(1, n + 1)):
        x = face if d20 + att["to_hit"] >= ORC["ac"] else 0
        out[x] = out.get(x, 0) + Fraction(1, 20 * n)
    return out


def drops(attackers: list[dict]) -> Fraction:
    """P(the Orc at ORC_HP is at 0 or below after these attacks, one after another)."""
    hp = {ORC_HP: Fraction(1)}
    for att in attackers:
        nxt: dict[int, Fraction] = {}
        for h, p in hp.items():
            for x, q in blow(att).items() if h > 0 else [(0, Fraction(1))]:
                nxt[h - x] = nxt.get(h - x, 0) + p * q
        hp = nxt
    return sum((p for h, p in hp.items() if h <= 0), Fraction(0))


def next_round_before_orc() -> dict[tuple[str, ...], Fraction]:
    """Every d10 face of the three: the count runs up, the party before an NPC on a tie, then listed."""
    people = [("Aria", A, 0), ("Bram", B, 0), ("Orc", ORC, 1)]
    out: dict[tuple[str, ...], Fraction] = {}
    for faces in product(range(1, 11), repeat=3):
        order = sorted(range(3), key=lambda i: (faces[i] + people[i][1]["modifier"], people[i][2], i))
        cut = tuple(people[i][0] for i in order[: order.index(2)])
        out[cut] = out.get(cut, 0) + Fraction(1, 1000)
    return out


STATS = {"Aria": A, "Bram": B}


# --- the tests ------------------------------------------------------------------------------------
def test_nobody_between_is_the_cards_own_figure():
    f = countup({})  # all roll 10: Aria 10, Bram 12, the Orc 11: Aria, the Orc, Bram
    assert [t["id"] for t in f.state["order"]] == [f.ident("Aria"), f.ident("Orc"), f.ident("Bram")]
    got = before(f, "Aria", "Orc")
    card = fighter.request(f.state, f.ident("Aria"), f.ident("Orc"), data.system("countup"))
    assert [x["names"] for x in got["lists"]] == [["Aria"]]
    assert got["p"] == evaluate(card)["rounds"][0]["within"][0]
    assert Fraction(got["p"]["fraction"]) == drops([A])


def test_one_ally_between_equals_the_oracle():
    f = Fight("countup")
    f.add("Aria", "pc", 10, **A)
    f.add("Bram", "pc", 8, **B)
    f.add("Orc", "foe", ORC_HP, **{**ORC, "modifier": 3})
    f.round({})  # all roll 10: Aria 10, Bram 12, Orc 13: Aria, Bram, Orc
    got = before(f, "Aria", "Orc")
    assert [x["names"] for x in got["lists"]] == [["Aria", "Bram"]]
    assert Fraction(got["p"]["fraction"]) == drops([A, B])


def test_target_already_acted_counts_the_next_rounds_initiative_exactly():
    f = at_turn(countup({}), "Bram")  # Aria, Orc, Bram: the Orc has acted
    got = before(f, "Bram", "Orc")
    want = sum((p * drops([B, *(STATS[n] for n in cut)]) for cut, p in next_round_before_orc().items()), Fraction(0))
    assert Fraction(got["p"]["fraction"]) == want
    assert sum(Fraction(x["p"]["fraction"]) for x in got["lists"]) == 1


def test_the_targets_allies_change_nothing_of_the_next_round():
    """A Goblin on the Orc's side rolls too: who of the party comes before the Orc is the same
    (the walk leaves the target's allies out); every d10 face of the four, by brute force."""
    f = Fight("countup")
    f.add("Aria", "pc", 10, **A)
    f.add("Bram", "pc", 8, **B)
    f.add("Orc", "foe", ORC_HP, **ORC)
    f.add("Goblin", "foe", 4, **{**ORC, "modifier": 1})
    f.round({})
    f = at_turn(f, "Bram")
    assert [t["id"] for t in f.state["order"]].index(f.ident("Orc")) < [t["id"] for t in f.state["order"]].index(
        f.ident("Bram")
    )  # the Orc has acted
    got = before(f, "Bram", "Orc")
    people = [("Aria", A, 0), ("Bram", B, 0), ("Orc", ORC, 1), ("Goblin", {"modifier": 1}, 1)]
    cuts: dict[tuple[str, ...], Fraction] = {}
    for faces in product(range(1, 11), repeat=4):
        order = sorted(range(4), key=lambda i: (faces[i] + people[i][1]["modifier"], people[i][2], i))
        cut = tuple(people[i][0] for i in order[: order.index(2)] if people[i][0] in STATS)
        cuts[cut] = cuts.get(cut, 0) + Fraction(1, 10_000)
    want = sum((p * drops([B, *(STATS[n] for n in cut)]) for cut, p in cuts.items()), Fraction(0))
    assert Fraction(got["p"]["fraction"]) == want


def test_initiative_rolled_once_keeps_the_order():
    f = Fight("active-defense")
    f.add("Mira", "pc", 12)
    f.add("Kai", "pc", 12)
    f.add("Orc", "foe", 8)
    f.round({})
    order = [t["id"] for t in f.state["order"]]
    names = {c["id"]: c["name"] for c in f.state["combatants"]}
    target = next(i for i in order if names[i] == "Orc")
    at = order.index(target)
    while f.state["order"][f.state["turn"]]["id"] != order[-1] or f.state["turn"] <= at:
        if f.state["turn"] == len(order) - 1:
            break
        f.do("next_turn")
    attacker = order[f.state["turn"]]
    got = fight.before("active-defense", f.state, attacker, target)
    later = [names[i] for i in order[f.state["turn"] + 1 :] if names[i] != "Orc"]
    first = [names[i] for i in order[:at]]
    assert got["lists"][0]["names"] == [names[attacker], *later, *first] and len(got["lists"]) == 1


def test_bad_values_are_named():
    f = countup({})
    with pytest.raises(InputError) as e:
        fight.before("countup", f.state, f.ident("Orc"), f.ident("Aria"))  # not the Orc's turn
    assert e.value.input == "attacker"
    with pytest.raises(InputError) as e:
        fight.before("countup", f.state, f.ident("Aria"), "nobody")
    assert e.value.input == "target"
    answer = json.loads(evaluate_json(json.dumps({"kind": "before", "system": "countup", "state": f.state, "who": 1})))
    assert answer["error"]["input"] == "who"
