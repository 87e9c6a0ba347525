"""Dead stays dead where the text says so (issue #35, item 3): healing a dead combatant is refused
with the rule, in the GM's words, and the GM still corrects a mistake by editing its hit points.

countup: "Once a character reaches -10 hit points, it immediately dies"; "Most NPC's and monsters
simply die once they reach 0 hit points" (an important NPC uses Hurt: the ruling's other reading).
action-points: "If your hit points reach -10, you become [Dead]. Stone dead. … No more."
segments: Down at 0 (the site's ruling), dead at −10 under the other reading of round-drop-at-zero.
phases: dead by its Wounds ("they die instantly"): healing Hit Points does not lift the Wounds.
active-defense: Down at 0 and no death rule: healing brings it up."""

from __future__ import annotations

import pytest
from fight_helpers import Fight

from calc.errors import InputError


def refused_heal(f: Fight, name: str, rule_title: str) -> None:
    before = f.who(name)["hp"]
    with pytest.raises(InputError) as err:
        f.heal(name, 5)
    assert err.value.input == "action.id"
    said = err.value.reason
    assert said.startswith(f"{name} is dead: healing does not bring the dead back ({rule_title})")
    assert "edit" in said  # the GM's way to correct a mistake
    assert f.who(name)["hp"] == before


def test_countup_a_character_dead_at_minus_ten_is_not_healed_back() -> None:
    f = Fight("countup")
    f.add("Hero", side="pc", hp=10)
    f.damage("Hero", 19).heal("Hero", 12)  # Hurt at −9: healing brings it up
    assert (f.who("Hero")["hp"], f.who("Hero")["state"]) == (3, "")
    f.damage("Hero", 20)
    assert (f.who("Hero")["hp"], f.who("Hero")["state"]) == (-10, "Dead")
    refused_heal(f, "Hero", f.who("Hero")["state_title"])
    f.do("edit", id=f.ident("Hero"), changes={"hp": -3})  # the GM's correction
    assert (f.who("Hero")["state"], f.who("Hero")["acts"]) == ("Hurt", True)


def test_countup_an_npc_at_zero_both_readings() -> None:
    """Most NPCs die at 0 (final); an important NPC uses the Hurt condition and heals."""
    f = Fight("countup")
    f.add("Orc 1", hp=6, npc_hurt=True)
    f.add("Orc 2", hp=6)
    f.damage("Orc 1", 6).damage("Orc 2", 6)
    assert (f.who("Orc 1")["state"], f.who("Orc 2")["state"]) == ("Hurt", "Dead")
    f.heal("Orc 1", 4)
    assert (f.who("Orc 1")["hp"], f.who("Orc 1")["state"]) == (4, "")
    refused_heal(f, "Orc 2", f.who("Orc 2")["state_title"])


def test_action_points_dead_at_minus_ten_does_not_come_back_dying() -> None:
    f = Fight("action-points")
    f.add("Hero", side="pc", hp=10)
    f.damage("Hero", 19)
    assert f.who("Hero")["state"] == "Dying"
    f.heal("Hero", 9)  # dying at −9: healing brings it to 0, conscious
    assert (f.who("Hero")["hp"], f.who("Hero")["state"], f.who("Hero")["acts"]) == (0, "", True)
    f.damage("Hero", 10)
    assert f.who("Hero")["state"] == "Dead"
    refused_heal(f, "Hero", f.who("Hero")["state_title"])
    assert f.who("Hero")["state"] == "Dead"


def test_segments_both_readings_of_where_one_drops() -> None:
    """Down at 0 (the ruling) heals; dead at −10 (the other reading) does not."""
    f = Fight("segments")
    f.add("Orc 2", hp=10)
    f.damage("Orc 2", 10)
    assert f.who("Orc 2")["state"] == "Down"
    f.heal("Orc 2", 3)
    assert f.who("Orc 2")["state"] == ""
    f.do("option", name="drop_at", value="minus-ten")
    f.damage("Orc 2", 20)
    assert f.who("Orc 2")["state"] == "Dead"
    refused_heal(f, "Orc 2", f.who("Orc 2")["state_title"])


def test_phases_a_monster_dead_by_its_wounds_is_not_healed_but_the_gm_removes_a_wound() -> None:
    """A 1-HD monster carries one Wound (half its Hit Dice, at least one) and dies at the next."""
    f = Fight("phases")
    f.add("Orc 2", hp=2, hd=1)
    f.damage("Orc 2", 6)
    f.damage("Orc 2", 6)
    assert f.who("Orc 2")["state"] == "Dead"
    refused_heal(f, "Orc 2", f.who("Orc 2")["state_title"])
    f.do("remove_wound", id=f.ident("Orc 2"), index=1)  # the GM's correction
    assert f.who("Orc 2")["state"] == "Wounded"


def test_no_state_but_a_final_one_refuses_healing() -> None:
    """Every state the data declares final is a Dead (and active-defense, Down at 0 with no death
    rule, declares none: healing brings it up)."""
    from calc.inputs import data as data_mod

    finals = {
        system: [s["label"] for s in data_mod.system(system).raw["tracker"].get("states", []) if s.get("final")]
        for system in ("countup", "action-points", "segments", "active-defense")
    }
    assert finals == {"countup": ["Dead", "Dead"], "action-points": ["Dead"], "segments": [], "active-defense": []}
    f = Fight("active-defense")
    f.add("Orc 2", hp=8)
    f.damage("Orc 2", 8)
    assert f.who("Orc 2")["state"] == "Down"
    f.heal("Orc 2", 2)
    assert (f.who("Orc 2")["hp"], f.who("Orc 2")["acts"]) == (2, True)
