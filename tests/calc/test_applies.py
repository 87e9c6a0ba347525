"""Inputs that apply only when another input has a value (`when:`): never silently ignored.

On the real data (phases' attack target applies when `target_source` is `direct`; ability score
and level when it is `ability`) and on small declarations."""

from __future__ import annotations

import pytest
from answers import chance, runner

from calc import __main__ as cli
from calc.errors import InputError
from calc.inputs import applies, data

run = runner("phases")


@pytest.mark.parametrize("calculator", ["hit", "damage"])
def test_the_declarations_say_when_the_attack_target_applies(calculator):
    decls = {d["name"]: d for d in data.system("phases").calculator(calculator)["inputs"]}
    assert decls["attack_target"]["when"] == {"target_source": "direct"}
    assert decls["ability_score"]["when"] == {"target_source": "ability"}
    assert decls["level"]["when"] == {"target_source": "ability"}


@pytest.mark.parametrize("calculator", ["hit", "damage"])
def test_a_typed_attack_target_chooses_the_direct_source(calculator):
    typed = run(calculator, attack_target=16, defense=0)
    explicit = run(calculator, target_source="direct", attack_target=16, defense=0)
    assert typed == explicit
    assert typed["inputs"]["target_source"] == "direct"
    assert "Attack target 16 (entered)." in [s["text"] for s in typed["steps"]]
    # and it changes the answer: the default source (ability 15, level 1) gives target 10
    if calculator == "hit":
        assert chance(typed, "Hit") != chance(run("hit", defense=0), "Hit")


def test_a_typed_attack_target_against_the_ability_source_is_an_error_naming_it():
    with pytest.raises(InputError) as err:
        run("hit", target_source="ability", attack_target=16)
    assert err.value.input == "attack_target"
    assert "target_source is direct" in str(err.value) and "target_source is ability" in str(err.value)


def test_ability_score_or_level_with_a_direct_target_is_an_error():
    for extra in ({"ability_score": 17}, {"level": 4}):
        with pytest.raises(InputError) as err:
            run("hit", target_source="direct", attack_target=12, **extra)
        assert err.value.input == next(iter(extra))
        assert "target_source is ability" in str(err.value)


def test_inputs_asking_for_different_sources_are_an_error():
    with pytest.raises(InputError) as err:
        run("hit", ability_score=17, attack_target=12)
    assert err.value.input == "attack_target"
    assert "ability_score" in str(err.value) and "give target_source" in str(err.value)


def test_a_bad_source_is_reported_as_itself():
    with pytest.raises(InputError) as err:
        run("hit", target_source="guess", attack_target=12)
    assert err.value.input == "target_source"


def test_blank_does_not_choose_a_condition_and_is_reported_as_missing():
    # Blank does not switch target_source (it is not a value given), and it is not silently the
    # default either (issue 11): the error names the blank input and the default it would have had.
    with pytest.raises(InputError) as err:
        run("hit", attack_target="", ability_score=17)
    assert err.value.input == "attack_target" and err.value.reason.startswith("is required — the default is ")
    assert run("hit", ability_score=17)["inputs"]["target_source"] == "ability"  # left out: defaults


def test_command_line_typed_target_switches_and_help_says_when(capsys):
    assert cli.main(["phases", "hit", "--attack-target", "16", "--defense", "0"]) == 0
    assert "Attack target 16 (entered)." in capsys.readouterr().out
    assert cli.main(["phases", "hit", "--target-source", "ability", "--attack-target", "16"]) == 2
    assert "attack_target" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["phases", "hit", "--help"])
    assert "applies when target_source is direct" in " ".join(capsys.readouterr().out.split())


DECLS = [
    {"name": "flag", "type": "boolean", "label": "Flag", "default": False},
    {"name": "n", "type": "integer", "label": "N", "min": 0, "max": 9, "default": 0, "when": {"flag": True}},
]


def test_resolve_on_small_declarations():
    assert applies.resolve(DECLS, {"n": 3}) == {"n": 3, "flag": True}
    assert applies.resolve(DECLS, {"n": 3, "flag": "true"}) == {"n": 3, "flag": "true"}
    assert applies.resolve(DECLS, {"flag": False}) == {"flag": False}
    with pytest.raises(InputError) as err:
        applies.resolve(DECLS, {"n": 3, "flag": "false"})
    assert err.value.input == "n" and "flag is true (flag is false)" in str(err.value)
    assert applies.condition_text({"flag": True}) == "flag is true"


def test_holds_reads_when_among_typed_values() -> None:
    """The tracker's combatant fields: phases' Hit Dice apply to a monster, free slots to a
    character; a condition on an input that is not among the values does not stop a field."""
    hd = {"name": "hd", "when": {"target_kind": "monster"}}
    assert applies.holds(hd, {"target_kind": "monster", "hd": 3})
    assert not applies.holds(hd, {"target_kind": "character", "hd": 3})
    assert applies.holds(hd, {"hd": 3})
    assert applies.holds({"name": "ac"}, {"ac": 5})


def test_applicable_reads_a_forms_values_as_the_engine_does() -> None:
    """The form sends every field as typed; what applies is read as `calc.inputs.declared` reads values
    (text "true", "1", a true box), a missing field takes its default, and a condition that cannot
    be read holds nothing."""
    assert applies.applicable(DECLS, {}) == ["flag"]  # flag's default is false
    for on in (True, "true", "1", " yes "):
        assert applies.applicable(DECLS, {"flag": on, "n": "3"}) == ["flag", "n"]
    for off in (False, "false", "0", "maybe", ""):
        assert applies.applicable(DECLS, {"flag": off, "n": "3"}) == ["flag"]
    kept, shown = applies.only_applicable(DECLS, {"flag": "false", "n": "oops", "extra": 1})
    assert kept == {"flag": "false", "extra": 1} and shown == {"applies": ["flag"], "cells": {}}


LIST = [{"name": "rows", "type": "list", "max_items": 4, "default": [{"flag": True}], "fields": DECLS}]


def test_each_list_entry_has_its_own_fields_that_apply() -> None:
    """A row of a list input (one attacker of a round) reads its own fields' `when`: the form
    shows, and the door sends, only those that apply to that row."""
    assert applies.cells(LIST, {}, ["rows"]) == {"rows": [["flag", "n"]]}  # the default entry
    raw = {"rows": [{"flag": "true", "n": "2"}, {"flag": False, "n": "junk"}, {"n": "1"}]}
    kept, shown = applies.only_applicable(LIST, raw)
    assert shown == {"applies": ["rows"], "cells": {"rows": [["flag", "n"], ["flag"], ["flag"]]}}
    assert kept == {"rows": [{"flag": "true", "n": "2"}, {"flag": False}, {}]}
    assert applies.cells(LIST, {"rows": "not entries"}, ["rows"]) == {}
    assert applies.cells(LIST, raw, []) == {}  # a list that does not apply has no rows to show


@pytest.mark.parametrize("calculator", ["hit", "damage"])
def test_applicable_on_the_real_declarations(calculator):
    decls = data.system("phases").calculator(calculator)["inputs"]
    names = {d["name"] for d in decls}
    default = applies.applicable(decls, {})
    assert "attack_target" not in default and {"ability_score", "level"} <= set(default)
    assert set(default) == names - {"attack_target"}
    direct = applies.applicable(decls, {"target_source": "direct", "ability_score": "x"})
    assert set(direct) == names - {"ability_score", "level"}
    # An unreadable source: neither reading's inputs apply, and the source's own error is shown.
    unreadable = applies.applicable(decls, {"target_source": "both"})
    assert set(unreadable) == names - {"attack_target", "ability_score", "level"}
