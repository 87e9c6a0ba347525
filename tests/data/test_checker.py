"""The checker against known-good and known-bad data: each bad fixture (the good mini system with
one change) must fail with the right `file:LINE: field.path: message`, and all problems of a file
are reported, not only the first."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from macros.check import coverage, loader
from macros.load import catalog

GOOD = Path(__file__).parent / "fixtures" / "good"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(GOOD, tmp_path, dirs_exist_ok=True)
    return tmp_path


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / "rules_data" / "countup" / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"fixture edit {old!r} must match once in {name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def problems(root: Path) -> list[str]:
    return [str(p) for p in loader.load(root).problems]


def test_good_fixture_has_no_problem(root: Path) -> None:
    cat = loader.load(root)
    assert [str(p) for p in cat.problems] == []
    assert coverage.check(cat.systems["countup"], root / "sources") == []


# (file, old text, new text, the exact problem expected)
BAD = {
    "missing field": (
        "rules.yaml",
        "    summary: Roll the weapon's dice.\n",
        "",
        "rules_data/countup/rules.yaml:35: rules[1]: missing required field 'summary'",
    ),
    "wrong type": (
        "rules.yaml",
        "reach: {kind: number, value: 10, unit: ft}",
        "reach: {kind: number, value: ten, unit: ft}",
        "rules_data/countup/rules.yaml:19: rules[0].facts.reach.value: 'ten' is not of type 'integer'",
    ),
    "bad dice fact": (
        "rules.yaml",
        "value: d20, label",
        "value: twenty, label",
        "rules_data/countup/rules.yaml:18: rules[0].facts.attack_die.value: 'twenty' does not match",
    ),
    "unknown field with suggestion": (
        "rules.yaml",
        "    body: Roll the weapon's damage dice.",
        "    body: x\n    sumary: x",
        "rules_data/countup/rules.yaml:41: rules[1].sumary: unknown field 'sumary' (did you mean 'summary'?)",
    ),
    "bad id": (
        "rules.yaml",
        "  - id: damage\n",
        "  - id: Damage\n",
        "rules_data/countup/rules.yaml:35: rules[1].id: 'Damage' must be a lower-case kebab-case id",
    ),
    "dangling page": (
        "rules.yaml",
        "    page: attacks\n    sources: [hitting]\n    summary: Roll the",
        "    page: atacks\n    sources: [hitting]\n    summary: Roll the",
        "rules_data/countup/rules.yaml:37: rules[1].page: no page 'atacks' in system.yaml (did you mean 'attacks'?)",
    ),
    "dangling section": (
        "rules.yaml",
        "    sources: [hitting]\n    summary: Roll the",
        "    sources: [hiting]\n    summary: Roll the",
        "rules_data/countup/rules.yaml:38: rules[1].sources[0]: no section 'hiting' (did you mean 'hitting'?)",
    ),
    "dangling term in prose, exact line of a | block": (
        "rules.yaml",
        "[[term:ac|armour class]]",
        "[[term:acc|armour class]]",
        "rules_data/countup/rules.yaml:15: rules[0].body: [[term:acc]]: no term 'acc' in countup (did you mean 'ac'?)",
    ),
    "bad markup kind": (
        "rules.yaml",
        "[[table:bonuses]]",
        "[[tabel:bonuses]]",
        "rules_data/countup/rules.yaml:15: rules[0].body: bad reference [[tabel:bonuses]]: unknown kind 'tabel'",
    ),
    "unclosed markup": (
        "rules.yaml",
        "[[ruling:nat-20]].",
        "[[ruling:nat-20.",
        "rules_data/countup/rules.yaml:16: rules[0].body: unclosed reference markup",
    ),
    "dangling rule in glossary": (
        "glossary.yaml",
        "    rule: attack",
        "    rule: atack",
        "rules_data/countup/glossary.yaml:7: terms[0].rule: no rule 'atack' (did you mean 'attack'?)",
    ),
    "cross-system reference to a missing system": (
        "system.yaml",
        "See [[rule:attack]]",
        "See [[rule:segmnts/attack]]",
        "rules_data/countup/system.yaml:5: summary: [[rule:segmnts/attack]]: no system 'segmnts'",
    ),
    "ruling option names a missing input": (
        "rulings.yaml",
        "input: nat20,",
        "input: nat_20,",
        "rules_data/countup/rulings.yaml:8: rulings[0].option.input: calculator 'hit' has no input 'nat_20'",
    ),
    "example input not declared": (
        "rules.yaml",
        "inputs: {ac: 12}",
        "inputs: {armour: 12}",
        "rules_data/countup/rules.yaml:24: rules[0].examples[0].inputs.armour: calculator 'hit' has no input 'armour'",
    ),
    "options_from names a missing column": (
        "calculators.yaml",
        "value: id, label: name}",
        "value: id, label: title}",
        "rules_data/countup/calculators.yaml:18: calculators.damage.inputs[0].options_from.label: "
        "table 'weapons' has no column 'title'",
    ),
    "choice default not an option": (
        "calculators.yaml",
        "default: sword",
        "default: axe",
        "rules_data/countup/calculators.yaml:19: calculators.damage.inputs[0].default: must be one of",
    ),
    "list default entry out of range (checked by calc.inputs.declared)": (
        "calculators.yaml",
        "default: [{name: Alice, modifier: 1}]",
        "default: [{name: Alice, modifier: 9}]",
        "rules_data/countup/calculators.yaml:33: calculators.initiative.inputs[0].default: "
        "combatants[1].modifier: must be between -5 and 5 (got 9)",
    ),
    "inputs_from names no calculator": (
        "calculators.yaml",
        "    summary: The damage dealt.\n",
        "    summary: The damage dealt.\n    inputs_from: hitt\n",
        "rules_data/countup/calculators.yaml:14: calculators.damage.inputs_from: "
        "no calculator 'hitt' (did you mean 'hit'?) to take the inputs from",
    ),
    "inputs_from names the calculator itself": (
        "calculators.yaml",
        "    summary: The damage dealt.\n",
        "    summary: The damage dealt.\n    inputs_from: damage\n",
        "rules_data/countup/calculators.yaml:14: calculators.damage.inputs_from: "
        "a calculator cannot take its inputs from itself",
    ),
    "when names an input not declared before": (
        "calculators.yaml",
        "{name: extra, type: dice, label: Extra dice, default: d6}",
        "{name: extra, type: dice, label: Extra dice, default: d6, when: {weapn: sword}}",
        "rules_data/countup/calculators.yaml:20: calculators.damage.inputs[1].when.weapn: "
        "no input 'weapn' declared before this one (did you mean 'weapon'?)",
    ),
    "when asks for a value the input cannot take": (
        "calculators.yaml",
        "{name: extra, type: dice, label: Extra dice, default: d6}",
        "{name: extra, type: dice, label: Extra dice, default: d6, when: {weapon: axe}}",
        "rules_data/countup/calculators.yaml:20: calculators.damage.inputs[1].when.weapon: "
        "must be one of sword, dagger (got 'axe')",
    ),
    "table cell of the wrong type": (
        "tables.yaml",
        "bonus: -1}",
        "bonus: minus one}",
        "rules_data/countup/tables.yaml:10: tables[0].rows[0].bonus: 'minus one' is not a whole number",
    ),
    "duplicate id": (
        "rules.yaml",
        "  - id: damage\n",
        "  - id: attack\n",
        "rules_data/countup/rules.yaml:35: rules[1].id: duplicate rule id 'attack' (first at "
        "rules_data/countup/rules.yaml:8)",
    ),
    "duplicate key": (
        "rules.yaml",
        "    body: Roll the weapon's damage dice.",
        "    body: a\n    body: b",
        "rules_data/countup/rules.yaml:41: rules[1].body: duplicate key",
    ),
    "comparison names an unknown ruling": (
        "system.yaml",
        "  initiative_ties: attack\n",
        "  initiative_ties: ruling:nat-2\n",
        "rules_data/countup/system.yaml:13: comparison.initiative_ties: no ruling 'nat-2' (did you mean 'nat-20'?)",
    ),
    "tracker names an unknown field": (
        "calculators.yaml",
        "  inputs: [modifier]\n",
        "  inputs: [modifer]\n",
        "rules_data/countup/calculators.yaml:37: tracker.inputs[0]: no field 'modifer' in combatants "
        "(did you mean 'modifier'?)",
    ),
    "tracker names an unknown calculator input": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: armor}\n",
        "rules_data/countup/calculators.yaml:42: tracker.defenses[0]: no input 'armor' in calculator 'hit'",
    ),
    "tracker names no list": (
        "calculators.yaml",
        "  list: combatants\n",
        "  list: people\n",
        "rules_data/countup/calculators.yaml:36: tracker.list: calculator 'initiative' has no list input 'people'",
    ),
    "tracker side is not a choice": (
        "calculators.yaml",
        "  inputs: [modifier]\n",
        "  inputs: [modifier]\n  side: {input: name, pc: player, foe: npc}\n",
        "rules_data/countup/calculators.yaml:38: tracker.side.input: no choice field 'name' in combatants",
    ),
    "tracker state names an unknown fact": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  states:\n"
        "    - {label: Dead, rule: attack, fact: rech, when: at-or-below}\n",
        "rules_data/countup/calculators.yaml:44: tracker.states[0].fact: rule 'attack' has no fact 'rech' "
        "(did you mean 'reach'?)",
    ),
    "tracker state compares a fact of the wrong kind": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  states:\n    - {label: Hurt, rule: attack, fact: reach, when: within}\n",
        "rules_data/countup/calculators.yaml:44: tracker.states[0].fact: "
        "'reach' is a number fact; `within` needs range",
    ),
    "tracker ruling is no ruling's option": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  rulings:\n    - {calculator: hit, input: ac}\n",
        "rules_data/countup/calculators.yaml:44: tracker.rulings[0]: input 'ac' of 'hit' is no ruling's option",
    ),
    "tracker state's unless names no boolean status": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  states:\n"
        "    - {label: Dead, rule: attack, fact: reach, when: at-or-below, unless: ac}\n",
        "rules_data/countup/calculators.yaml:44: tracker.states[0].unless: "
        "'ac' is no boolean input of the tracker's status",
    ),
    "tracker fighter names an unknown health input": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  fighter: {calculator: hit, health: acc}\n",
        "rules_data/countup/calculators.yaml:43: tracker.fighter.health: no input 'acc' in calculator 'hit' "
        "(did you mean 'ac'?)",
    ),
    "tracker fighter labels an input no combatant carries": (
        "calculators.yaml",
        "    - {calculator: hit, input: ac}\n",
        "    - {calculator: hit, input: ac}\n  fighter: {calculator: hit, health: ac, labels: {nat20: Lucky}}\n",
        "rules_data/countup/calculators.yaml:43: tracker.fighter.labels.nat20: "
        "'nat20' is no input a combatant carries as a fighter",
    ),
    "an input names no ruling": (
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        "      - {name: nat20, type: boolean, label: Nat 20, ruling: nat-2, default: true}\n",
        "rules_data/countup/calculators.yaml:21: calculators.damage.inputs[2].ruling: no ruling 'nat-2' "
        "(did you mean 'nat-20'?)",
    ),
    "an input takes a ruling under another name": (
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        "      - {name: natural, type: boolean, label: Nat 20, ruling: nat-20, default: true}\n",
        "rules_data/countup/calculators.yaml:21: calculators.damage.inputs[2].ruling: ruling 'nat-20' has no "
        "`option` naming calculator 'damage' input 'natural' (its option is 'nat20' of 'hit')",
    ),
    "an input takes a ruling without its readings' values": (
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        "      - {name: nat20, type: choice, label: Nat 20, ruling: nat-20, options: [{value: yes, label: Y}], "
        "default: yes}\n",
        "rules_data/countup/calculators.yaml:21: calculators.damage.inputs[2].ruling: ruling 'nat-20' "
        "option.ruling_value True is no value of this input:",
    ),
    "YAML syntax error": (
        "tables.yaml",
        "    rule: damage\n",
        "    rule: damage: x\n",
        "rules_data/countup/tables.yaml:14: YAML syntax:",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_fixture_fails_at_file_line_field(root: Path, case: str) -> None:
    name, old, new, expected = BAD[case]
    edit(root, name, old, new)
    found = problems(root)
    assert any(p.startswith(expected) for p in found), f"expected {expected!r}, got {found}"


def test_another_calculator_may_take_a_rulings_option_again(root: Path) -> None:
    """The forecast reads the round's rulings for every fighter: its input of the option's name and
    values, with `ruling:`, is accepted (and its steps cite the reading by that declaration)."""
    edit(
        root,
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        "      - {name: nat20, type: boolean, label: Nat 20, ruling: nat-20, default: false}\n",
    )
    assert problems(root) == []


def test_an_input_taking_a_rulings_option_again_has_no_other_value(root: Path) -> None:
    """A third value would be a reading the ruling does not have: the step citing it could not be
    written (data.reading_step raises), so the checker names the input first."""
    yes_no = "[{value: y, label: Y}, {value: n, label: N}"
    edit(
        root,
        "calculators.yaml",
        "      - {name: nat20, type: boolean, label: Natural 20 always hits, ruling: nat-20, default: true}\n",
        f"      - {{name: nat20, type: choice, label: Nat 20, ruling: nat-20, options: {yes_no}], default: y}}\n",
    )
    edit(
        root,
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        f"      - {{name: nat20, type: choice, label: Nat 20, ruling: nat-20, options: {yes_no}, "
        "{value: m, label: M}], default: y}\n",
    )
    edit(root, "rulings.yaml", "ruling_value: true, alternative_value: false", "ruling_value: y, alternative_value: n")
    expected = (
        "rules_data/countup/calculators.yaml:21: calculators.damage.inputs[2].ruling: "
        "value(s) 'm' are no reading of ruling 'nat-20'"
    )
    assert expected in problems(root)


def test_all_problems_are_reported_not_only_the_first(root: Path) -> None:
    edit(root, "rules.yaml", "reach: {kind: number, value: 10", "reach: {kind: number, value: x")
    edit(root, "glossary.yaml", "term: AC", "term: 3")
    edit(root, "calculators.yaml", "max: 30, default: 12", "max: 30, default: high")
    found = problems(root)
    assert len(found) == 3, found
    assert {p.split(":")[0] for p in found} == {
        "rules_data/countup/rules.yaml",
        "rules_data/countup/glossary.yaml",
        "rules_data/countup/calculators.yaml",
    }


def test_check_command_prints_problems_and_exits_1(root: Path) -> None:
    edit(root, "rules.yaml", "reach: {kind: number, value: 10", "reach: {kind: number, value: x")
    edit(root, "glossary.yaml", "    rule: attack", "    rule: atack")
    done = subprocess.run(
        [sys.executable, "-m", "macros.check", "--partial", "--no-coverage", "--root", str(root)],
        capture_output=True,
        text=True,
        cwd=catalog.ROOT,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "rules_data/countup/glossary.yaml:7: terms[0].rule: no rule 'atack' (did you mean 'attack'?)",
        "rules_data/countup/rules.yaml:19: rules[0].facts.reach.value: 'x' is not of type 'integer'",
    ]
    assert "Traceback" not in done.stderr


def test_coverage_finds_uncovered_lines_and_lost_numbers(root: Path) -> None:
    source = root / "sources" / "mini.txt"
    source.write_text(source.read_text() + "Extra line with 77 in it.\n")
    cat = loader.load(root)
    found = [str(p) for p in coverage.check(cat.systems["countup"], root / "sources")]
    assert any("mini.txt lines 4–4 are in no section" in p for p in found), found
    edit(root, "rules.yaml", "lines: [1, 2]", "lines: [1, 4]")
    cat = loader.load(root)
    found = [str(p) for p in coverage.check(cat.systems["countup"], root / "sources")]
    assert found == [
        "rules_data/countup/rules.yaml:5: sections[0].lines: number 77 of lines 1–4 appear in no rule citing it "
        "(attack, damage)"
    ]


def test_coverage_checks_quote_and_overlap(root: Path) -> None:
    edit(root, "rules.yaml", "quote: Hitting", "quote: Missing")
    cat = loader.load(root)
    found = [str(p) for p in coverage.check(cat.systems["countup"], root / "sources")]
    assert found == ["rules_data/countup/rules.yaml:6: sections[0].quote: line 1 reads 'Hitting a target'"]


def test_a_tracker_needs_the_engines_turns_module(root: Path) -> None:
    import dataclasses

    from macros.check import crossref

    cat = loader.load(root)
    system = cat.systems["countup"]
    assert crossref.check(system, cat, complete=True) == []
    elsewhere = dataclasses.replace(system, id="no-such")  # its engine would be calc.systems.no_such
    found = [str(p) for p in crossref.check(elsewhere, cat, complete=True) if "TURNS" in str(p)]
    assert found == [
        "rules_data/countup/calculators.yaml:34: tracker: cannot load the engine's TURNS of calc.systems.no_such: "
        "UnknownSystem: system: system 'no-such' has no engine"
    ]


@pytest.mark.parametrize(
    ("second", "why"),
    [
        ("{name: ac, type: boolean, role: target, label: AC known, default: true}", "is boolean here, integer there"),
        (
            "{name: ac, type: integer, role: attacker, label: AC, min: 0, max: 30, default: 12}",
            "has role 'attacker' here, 'target' there",
        ),
    ],
    ids=["type", "role"],
)
def test_inputs_sharing_a_value_must_agree(root: Path, second: str, why: str) -> None:
    """An input with a `role` carries its value by name to the system's other calculators, so two
    of one name and role must be the same kind of value; without a role they are independent."""
    edit(root, "calculators.yaml", "{name: ac, type: integer,", "{name: ac, type: integer, role: target,")
    edit(root, "calculators.yaml", "{name: extra, type: dice, label: Extra dice, default: d6}", second)
    found = problems(root)
    assert [p for p in found if "shares its value" in p] == [
        f"rules_data/countup/calculators.yaml:20: calculators.damage.inputs[1].role: input 'ac' shares its value "
        f"with calculator 'hit' but {why}"
    ], found
    edit(root, "calculators.yaml", second, second.replace(", role: target", "").replace(", role: attacker", ""))
    assert problems(root) == []


def test_inputs_from_copies_the_other_calculators_inputs_first(root: Path) -> None:
    """One attack, one set of inputs: `inputs_from: hit` puts hit's inputs (without `ruling`) before
    damage's own, so nothing is typed twice; a name typed again is a duplicate at its own line."""
    edit(
        root,
        "calculators.yaml",
        "    summary: The damage dealt.\n",
        "    summary: The damage dealt.\n    inputs_from: hit\n",
    )
    cat = loader.load(root)
    assert [str(p) for p in cat.problems] == []
    damage = cat.systems["countup"].calculators["damage"]
    assert [d["name"] for d in damage["inputs"]] == ["ac", "nat20", "weapon", "extra"]
    assert "ruling" not in damage["inputs"][1]
    assert "ruling" in cat.systems["countup"].calculators["hit"]["inputs"][1]  # the declaration is untouched
    edit(root, "calculators.yaml", "{name: extra, type: dice", "{name: ac, type: dice")
    assert problems(root) == [
        "rules_data/countup/calculators.yaml:21: calculators.damage.inputs[1].name: "
        "duplicate input name 'ac' (it comes from `inputs_from: hit`)"
    ]


def test_inputs_from_is_one_level(root: Path) -> None:
    edit(
        root,
        "calculators.yaml",
        "    summary: The damage dealt.\n",
        "    summary: The damage dealt.\n    inputs_from: hit\n",
    )
    edit(
        root,
        "calculators.yaml",
        "    summary: Who acts first.\n",
        "    summary: Who acts first.\n    inputs_from: damage\n",
    )
    assert problems(root) == [
        "rules_data/countup/calculators.yaml:26: calculators.initiative.inputs_from: "
        "calculator 'damage' takes its inputs from another: name that one"
    ]


def test_fields_from_copies_the_calculators_own_inputs_as_a_lists_fields(root: Path) -> None:
    """The round calculators' `attackers`: `fields_from` copies the named inputs (without `was`)
    as the entries' fields, under the same names; every `role: attacker` input must be named, and
    a name that is not an input of the calculator is reported at its line."""
    edit(
        root,
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, role: attacker, default: d6}\n"
        "      - {name: bonus, type: integer, label: Bonus, role: attacker, was: plus, min: 0, max: 5, default: 0}\n"
        "      - {name: attackers, type: list, label: Attackers, max_items: 4, fields_from: [extra, bonus],"
        " default: []}\n",
    )
    cat = loader.load(root)
    assert [str(p) for p in cat.problems] == []
    (listed,) = [d for d in cat.systems["countup"].calculators["damage"]["inputs"] if d["name"] == "attackers"]
    assert [f["name"] for f in listed["fields"]] == ["extra", "bonus"]
    assert listed["fields"][0]["type"] == "dice" and "was" not in listed["fields"][1]
    edit(root, "calculators.yaml", "fields_from: [extra, bonus]", "fields_from: [extra, bonnus]")
    found = problems(root)
    assert any("fields_from[1]: no input 'bonnus'" in p for p in found), found
    assert any("an attacker's inputs must all be fields: add bonus" in p for p in found), found


def test_fields_from_copies_another_calculators_inputs_after_the_written_fields(root: Path) -> None:
    """The forecast's fighters: `calculator.input` copies another calculator's input (a list input
    too, which written fields cannot be); written `fields` come first; a wrong name is reported,
    and a copy drops its `ruling`."""
    edit(
        root,
        "calculators.yaml",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n",
        "      - {name: extra, type: dice, label: Extra dice, default: d6}\n"
        "      - {name: fighters, type: list, label: Fighters, max_items: 4, default: [],\n"
        "         fields: [{name: name, type: text, label: Name, max_length: 20, default: A}],\n"
        "         fields_from: [initiative.combatants, hit.ac, hit.nat20]}\n",
    )
    cat = loader.load(root)
    assert [str(p) for p in cat.problems] == []
    (listed,) = [d for d in cat.systems["countup"].calculators["damage"]["inputs"] if d["name"] == "fighters"]
    assert [f["name"] for f in listed["fields"]] == ["name", "combatants", "ac", "nat20"]
    assert listed["fields"][1]["type"] == "list" and listed["fields"][1]["fields"]
    assert "ruling" not in listed["fields"][3]
    edit(root, "calculators.yaml", "[initiative.combatants, hit.ac,", "[initiative.combatants, hit.acc,")
    found = problems(root)
    assert any("fields_from[1]: no input 'acc' (did you mean" in p and "in calculator 'hit'" in p for p in found), found


def test_a_fighters_neutral_and_derived_inputs_are_checked() -> None:
    """action-points' fighter fills Strength and level neutrally and derives its damage bonus: each
    name must be an input of the round calculator (a misspelling would silently do nothing)."""
    from macros.check import tracker

    cat = loader.load(Path(__file__).resolve().parents[2])
    system = cat.systems["action-points"]
    fighter = system.tracker["fighter"]
    assert tracker.fighter_problems(system, fighter) == []
    bad = {
        **fighter,
        "neutral": {"abilty": 0},
        "derived": {"damage_bonus": {"rule": "power-atack", "add": ["ability", {"value": "levle", "divide": 2}]}},
    }
    found = [(field, why.split(" in calculator")[0]) for field, why in tracker.fighter_problems(system, bad)]
    assert (("neutral", "abilty"), "no input 'abilty'") in found
    assert (("derived", "damage_bonus", "add", 1), "no input 'levle'") in found
    assert any(field == ("derived", "damage_bonus", "rule") for field, _ in found)
