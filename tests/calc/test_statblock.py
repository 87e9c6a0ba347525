"""Pasted stat blocks (calc/inputs/statblock.py) read by each system's declared grammar: every stat line
the five texts print, typical adventure lines per system, hit points printed / averaged / rolled,
notes, refused values and unreadable input."""

from __future__ import annotations

import json
import re

import pytest

from calc import __main__ as cli
from calc import browser, evaluate
from calc.errors import InputError
from calc.inputs import statblock
from macros.load.catalog import sources_dir

SOURCES = {
    "countup": "000_f18d0956b4cf3fce.txt",
    "segments": "001_aab75c09f093bb2c.txt",
    "action-points": "002_7ff4f93c82936f70.txt",
    "phases": "003_1e81d4347dd07619.txt",
    "active-defense": "004_923458811c492672.txt",
}

# Every stat line the texts print: (system, source line, the words as printed, what they hold).
# `as_pasted` is given where the text writes the stat inside a sentence whose other words are
# not a stat block ("The damage dice for a Longsword are 2d8"): the same stat as an adventure
# prints it. phases and active-defense give no creature any number.
TEXT_LINES = [
    (
        "countup",
        28,
        "5th Level Fighter with a 16 Strength",
        None,
        {"ability_score": 16, "strength_score": 16},
        {"level": "5"},
    ),
    ("countup", 28, "the 14 Armor class", None, {"ac": 14}, {}),
    ("countup", 34, "16 Strength and 14 Dexterity", None, {"strength_score": 16}, {"dexterity": "14"}),
    ("countup", 34, "the 14 Armor Class", None, {"ac": 14}, {}),
    ("countup", 48, "A 3rd Level character with a 16 Constitution", None, {}, {"level": "3", "constitution": "16"}),
    (
        "segments",
        60,
        "MELEE: 2 claws (1d8/1d8) and bite (2d6)",
        None,
        {"routine": [("Claw", "1d8"), ("Claw", "1d8"), ("Bite", "2d6")]},
        {},
    ),
    (
        "segments",
        61,
        "MISSILE: 2 longbow arrows (1d6/1d6)",
        None,
        {"routine": [("Longbow arrow", "1d6"), ("Longbow arrow", "1d6")]},
        {},
    ),
    (
        "segments",
        59,
        "MELEE/MISSILE: <attack> (<damage> [<special damage>]; [AAC0 <#>]) [plus <special effects>];",
        "MELEE: longsword (1d8; AAC0 19) plus poison",
        {"routine": [("Longsword", "1d8")], "aac0": "19"},
        {},
    ),
    ("segments", 63, "AC 5", None, {"ac": 5}, {}),
    ("segments", 63, "AC 3", None, {"ac": 3}, {}),
    ("segments", 64, "AC -1", None, {"ac": -1}, {}),
    ("segments", 65, '"20*"', "AAC0 20*", {"aac0": "20*", "attacker": "aac0"}, {}),
    ("segments", 70, "1+1 HD", None, {"hd": 1, "hd_bonus": 1, "attacker": "monster"}, {}),
    ("segments", 70, "4+4 HD", None, {"hd": 4, "hd_bonus": 4}, {}),
    ("segments", 70, "8+2 HD", None, {"hd": 8, "hd_bonus": 2}, {}),
    ("segments", 71, "5+5 HD", None, {"hd": 5, "hd_bonus": 5}, {}),
    ("segments", 73, "4+4 HD will have 4d8+16 hit points", None, {"hd": 4, "hd_bonus": 4, "target_hp": 34}, {}),
    (
        "action-points",
        97,
        "The damage dice for a Longsword are 2d8",
        "Longsword: Damage 2d8",
        {"dice": "2d8", "use_preset": False},
        {},
    ),
    ("action-points", 97, "the wielder rolls 4d8", "Damage 4d8", {"dice": "4d8"}, {}),
]

# Lines of the texts that print a stat notation but are not a creature's statistics, and why.
NOT_STATS = {
    ("countup", 28): "the attack roll of the example (d20, 1d8 and the rolls 10 and 5)",
    ("countup", 34): "the attack roll of the example",
    ("segments", 64): "a creature's attack-table number, no creature",
    ("segments", 68): "the attack tables' rule (AC 0)",
    ("segments", 71): "the enhanced hit dice rule",
    ("segments", 72): "the save rule (5+5 HD = 7 HD)",
    ("segments", 74): "the overall hit dice rule (5+5 HD = 7 HD)",
    ("action-points", 8): "initiative: 1d20 + initiative",
    ("action-points", 38): "the attack roll formula",
    ("action-points", 39): "the spell attack roll formula",
    ("action-points", 56): "standard defense: 1d20",
    ("phases", 32): "morale: 2d6",
    ("active-defense", 8): "initiative: 1d20",
    ("active-defense", 10): "initiative formula",
    ("active-defense", 38): "attack roll: 1d20",
    ("active-defense", 69): "block: 1d20",
    ("active-defense", 71): "dodge: 1d20",
}
NOTATION = re.compile(
    r"\b\d+d\d+|\d+[+-]\d+ HD|\bAC -?\d+\b|\d+ (?:Armor|Strength|Dexterity|Constitution)"
    r"|\d+(?:st|nd|rd|th) Level|AAC0|\"20\*\""
)


def source_lines(system: str) -> list[str]:
    path = sources_dir() / SOURCES[system]
    if not path.exists():
        pytest.skip(f"source texts not found at {sources_dir()} (set CODEX_SOURCES)")
    return path.read_text(encoding="utf-8").splitlines()


def test_every_line_with_a_stat_notation_is_listed_or_explained() -> None:
    listed = {(s, n) for s, n, *_ in TEXT_LINES} | set(NOT_STATS)
    for system in SOURCES:
        for n, line in enumerate(source_lines(system), 1):
            if NOTATION.search(line):
                assert (system, n) in listed, f"{system} line {n} prints a stat notation: {line[:80]}"


@pytest.mark.parametrize(("system", "line", "printed", "as_pasted", "values", "info"), TEXT_LINES)
def test_every_stat_line_of_the_texts(system, line, printed, as_pasted, values, info) -> None:
    assert printed in source_lines(system)[line - 1], "the line must be printed where the test says"
    fighter = statblock.parse(system, as_pasted or printed, hp="average")["fighters"][0]
    for name, want in values.items():
        got = fighter["values"][name]
        if name == "routine":
            got = [(a["name"], a["dice"]) for a in got]
        assert got == want, name
    shown = {f["field"]: f["shown"] for f in fighter["fields"]}
    for field, want in info.items():
        assert shown[field] == want
    assert fighter["rejected"] == []


ADVENTURE = [
    (
        "countup",
        "Orc: AC 14, HP 6, Init +0, Atk +1 longsword (1d8); #AT 1",
        {"ac": 14, "target_hp": 6, "modifier": 0, "to_hit": 1, "dice": "1d8", "attacks": 1},
    ),
    (
        "segments",
        'Bugbear: AC 5; HD 3+1; hp 16; #AT 1; D 2d4; MV 9"; SV 3; ML 9',
        {"ac": 5, "hd": 3, "hd_bonus": 1, "target_hp": 16},
    ),
    (
        "segments",
        "Ogre: AC 5, HD 4+1, AAC0 15, MELEE: club (1d10), weapon: club",
        {
            "aac0": "15",
            "attacker": "aac0",
            "weapon": "club",
            "routine": [{"name": "Club", "dice": "1d10", "modifier": 0, "to_hit": 0}],
        },
    ),
    (
        "action-points",
        "Bandit: HP 18, AC 14, Init +2, Attack +5 longsword (2d8), Crit 19/×2, Weakness 2, Resistance 1, Deft",
        {
            "target_hp": 18,
            "defense": 14,
            "bonus": 2,
            "misc": 5,
            "dice": "2d8",
            "threshold": 19,
            "multiplier": 2,
            "weakness": 2,
            "resistance": 1,
            "deft": True,
        },
    ),
    (
        "phases",
        "Goblin: HD 1, HP 5; Defense 2, Armour leather; Attack 12, Damage 1d6, Morale 7",
        {
            "hd": 1,
            "current_hp": 5,
            "defense": 2,
            "armour": "leather",
            "attack_target": 12,
            "damage_dice": "1d6",
            "morale": 7,
            "mode": "monster",
        },
    ),
    (
        "active-defense",
        "Orc warrior: HP 14, Dex +1, Agility 2, Str +2, Armor 3, Attack +5 axe (1d8), Block 4, Dodge 2",
        {
            "target_hp": 14,
            "dexterity": 1,
            "defender_dex": 1,
            "agility": 2,
            "armor": 3,
            "attack_modifier": 5,
            "damage_dice": "1d8",
            "block_skill": 4,
            "dodge_skill": 2,
        },
    ),
]


@pytest.mark.parametrize(("system", "text", "values"), ADVENTURE)
def test_adventure_style_lines(system, text, values) -> None:
    fighter = statblock.parse(system, text)["fighters"][0]
    assert {k: fighter["values"][k] for k in values} == values
    assert fighter["name"] == text.split(":")[0]
    for field in fighter["fields"]:
        assert text[field["start"] : field["end"]] == field["text"]
        assert field["rule"]["url"].startswith(f"{system}/")


def test_any_order_and_labels_after_the_value() -> None:
    a = statblock.parse("segments", "Troll: hp 30; AC 4; HD 6+6")["fighters"][0]
    b = statblock.parse("segments", "Troll — 6+6 HD, AC 4, 30 hp")["fighters"][0]
    assert a["values"] == b["values"] == {"ac": 4, "attacker": "monster", "hd": 6, "hd_bonus": 6, "target_hp": 30}
    assert a["name"] == b["name"] == "Troll"


def test_unrecognised_text_is_kept_as_named_notes() -> None:
    text = "Bugbear: AC 5; HD 3+1; SZ L; XP 65; treasure: none"
    fighter = statblock.parse("segments", text)["fighters"][0]
    assert [n["text"] for n in fighter["notes"]] == ["SZ L", "XP 65", "treasure: none"]
    for n in fighter["notes"]:
        assert text[n["start"] : n["end"]] == n["text"]


def test_a_value_out_of_range_is_refused_with_the_reason_and_the_rest_kept() -> None:
    fighter = statblock.parse("segments", "Knight: AC 15, HD 2")["fighters"][0]
    assert "ac" not in fighter["values"] and fighter["values"]["hd"] == 2
    assert "descending AC" in fighter["rejected"][0]["reason"]


def test_several_blocks_counts_and_hit_point_lists() -> None:
    text = "Orcs (3): AC 6, HD 1, hp 7, 5, 2\nOgre: AC 5, HD 4+1, hp 20\n\nKobold x2: AC 7, HD 1-1"
    fighters = statblock.parse("segments", text)["fighters"]
    assert [f["name"] for f in fighters] == ["Orcs 1", "Orcs 2", "Orcs 3", "Ogre", "Kobold 1", "Kobold 2"]
    assert [f["values"]["target_hp"] for f in fighters] == [7, 5, 2, 20, 3, 3]  # 1d8-1: average 3½, down
    assert [f["hp"]["from"] for f in fighters] == ["printed"] * 4 + ["average"] * 2


def test_hit_points_average_and_rolled_from_the_hit_dice() -> None:
    # 4+4 HD: 4d8+16 (the text's rule): average 34; the rolls 1, 2, 3, 8 make 30.
    avg = statblock.parse("segments", "Gnoll: HD 4+4, hp 20", hp="average")
    assert avg["fighters"][0]["values"]["target_hp"] == 34 and avg["dice_needed"] == []
    printed = statblock.parse("segments", "Gnoll: HD 4+4, hp 20")
    assert printed["fighters"][0]["values"]["target_hp"] == 20
    ask = statblock.parse("segments", "Gnoll: HD 4+4, hp 20\nRat: HD 1", hp="rolled")
    assert ask["dice_needed"] == [{"count": 4, "sides": 8}, {"count": 1, "sides": 8}]
    rolled = statblock.parse("segments", "Gnoll: HD 4+4, hp 20\nRat: HD 1", hp="rolled", rolls=[1, 2, 3, 8, 6])
    gnoll, rat = rolled["fighters"]
    assert gnoll["values"]["target_hp"] == 30 and gnoll["hp"]["rolls"] == [1, 2, 3, 8]
    assert rat["values"]["target_hp"] == 6 and rat["hp"]["from"] == "rolled"
    # every face sum against brute force over one die
    for face in range(1, 9):
        got = statblock.parse("segments", "Rat: HD 1+2", hp="rolled", rolls=[face])["fighters"][0]
        assert got["values"]["target_hp"] == face + 2


def test_rolled_hit_points_from_dice_printed_for_them() -> None:
    got = statblock.parse("countup", "Orc: AC 14, hp 2d8+1", hp="rolled", rolls=[3, 4])["fighters"][0]
    assert got["values"]["target_hp"] == 8 and got["hp"]["dice"] == "2d8+1"


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"text": ""}, "text", "empty"),
        ({"text": "   \n  "}, "text", "empty"),
        ({"text": "A friendly innkeeper, tall and kind."}, "text", "no field"),
        ({"text": "AC 5 " * 5000}, "text", "at most"),
        ({"text": "AC 5", "hp": "maximum"}, "hp", "printed, average, rolled"),
        ({"text": "HD 2", "hp": "rolled", "rolls": [3]}, "rolls", "2 dice are needed"),
        ({"text": "HD 2", "hp": "rolled", "rolls": [3, 9]}, "rolls", "not a face of a d8"),
        ({"text": "HD 2", "rolls": [3, 4]}, "rolls", "only read"),
        ({"text": "HD 2", "hp": "rolled", "rolls": "34"}, "rolls", "list of die faces"),
        ({"text": 12}, "text", "empty"),
    ],
)
def test_unreadable_input_is_a_typed_error_naming_the_field(kwargs, field, words) -> None:
    with pytest.raises(InputError) as err:
        statblock.parse("segments", **kwargs)
    assert err.value.input == field and words in err.value.reason


def test_browser_door_and_command_line(capsys) -> None:
    reply = json.loads(
        browser.evaluate_json(json.dumps({"kind": "statblock", "system": "segments", "text": "Orc: AC 6, HD 1"}))
    )
    assert reply["result"]["fighters"][0]["values"]["ac"] == 6
    bad = json.loads(browser.evaluate_json(json.dumps({"kind": "statblock", "system": "segments", "text": "hello"})))
    assert bad["error"]["input"] == "text"
    extra = json.loads(
        browser.evaluate_json(json.dumps({"kind": "statblock", "system": "segments", "text": "AC 5", "x": 1}))
    )
    assert extra["error"]["input"] == "x"
    assert cli.main(["segments", "statblock", "--text", "Ogre: HD 4+1", "--hp", "rolled", "--rolls", "[1,2,3,8]"]) == 0
    assert "Ogre: hit points 18 (rolled, 4d8+4)" in capsys.readouterr().out
    assert cli.main(["countup", "statblock", "--text", "nothing here"]) == 2


def test_the_texts_fighter_preset_against_the_orc_gives_the_texts_answer() -> None:
    # "the final result would be 18 which is higher than the 14 Armor class": +8 on the d20 vs AC 14.
    from calc.inputs import data

    presets = {p["id"]: p for p in data.system("countup").raw["presets"]}
    fighter, orc = presets["fifth-level-fighter"]["values"], presets["orc-in-scale-mail"]["values"]
    hit_inputs = {k for k in (d["name"] for d in data.system("countup").calculator("hit")["inputs"])}
    answer = evaluate(
        {
            "system": "countup",
            "calculator": "hit",
            "inputs": {k: v for k, v in {**fighter, **orc}.items() if k in hit_inputs},
        }
    )
    assert answer["roll_needed"]["value"] == 14 - 8
    thrown = presets["fifth-level-fighter-thrown-dagger"]["values"]
    # "+5 for the to Hit bonus and +1 for Dexterity … would be 16" on a 10: needs 8
    answer = evaluate(
        {
            "system": "countup",
            "calculator": "hit",
            "inputs": {k: v for k, v in {**thrown, **orc}.items() if k in hit_inputs},
        }
    )
    assert answer["roll_needed"]["value"] == 14 - 6


HOSTILE = {
    "a routine that never closes": "MELEE: " + "claw (1d4/" * 1900,
    "a name without end": "MELEE: " + "x" * 19000 + " (1d4)",
    "a hit point list without end": "hp " + "1, " * 6000,
    "thousands of one-line creatures": "AC 5\n" * 3900,
    "one field again and again": "AC 5 " * 3900,
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_pastes_answer_quickly(text) -> None:
    import time

    start = time.perf_counter()
    try:
        statblock.parse("segments", text[: statblock.MAX_TEXT])
    except InputError as err:
        assert err.input == "text"
    assert time.perf_counter() - start < 5
