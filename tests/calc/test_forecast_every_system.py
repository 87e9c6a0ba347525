"""What every system's fight forecast must do, one test each over the five systems: the answer reads
as the issue asks, monotonicity, a bad field named by its row, the refusal past the bound, the
command line, and each ruling's reading named in its own words with its link. The oracles and the
texts' examples stay in each system's own module (tests/calc/test_<system>_forecast.py), whose
fighters these cases borrow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from calc.__main__ import main
from calc.errors import DataError, InputError
from calc.inputs import data
from tests.calc import forecast_cases as cases
from tests.calc import test_action_points_forecast as ap
from tests.calc import test_active_defense_forecast as ad
from tests.calc import test_countup_forecast as cu
from tests.calc import test_phases_forecast as ph
from tests.calc import test_segments_forecast as seg


@dataclass(frozen=True)
class System:
    """One system's cases: its fighters and what its forecast names."""

    id: str
    module: Any
    labels: set[str]
    """Chances the answer names for the module's HERO against ORC (beside the sides')."""
    cited: set[str]
    """Rules and rulings the answer's steps cite."""
    bad: list[tuple[list[dict], list[dict], str]]
    """(party, foes, the field named) of requests refused for one fighter's field."""
    too_big: tuple[list[dict], list[dict], tuple[str, ...]]
    """A fight past the bound, with the words the refusal must say."""
    more: tuple[list[dict], list[dict], list[dict], dict]
    """(party, foes, members added, the one that must raise the chance) for monotonicity."""
    stronger: tuple[list[dict], dict, range]
    """(party, the foe, its hit points in turn)."""
    command: list[str]
    readings: dict[str, dict] = field(default_factory=dict)
    """The request that shows a ruling's readings, where the default fighters cannot (every ruling
    the forecast declares an input for is asked, `ruling_inputs`)."""
    foes: list[dict] | None = None
    rounds: int = 5
    """The rounds the answer is read over."""
    fight_rounds: int = 5
    """The rounds of the monotonicity fights."""


def many(f: dict, n: int, **change: Any) -> list[dict]:
    return [{**f, "name": f"{f['name'][0]}{i}", **change} for i in range(n)]


SYSTEMS = [
    System(
        "countup",
        cu,
        {"Hero is Hurt or worse", "Hero dies", "Orc dies"},
        {"initiative", "initiative-ties", "ruling:forecast-targets", "hurt"},
        [([cu.HERO], [{**cu.ORC, "target_hp": 0}], "foes[1].target_hp"),
         ([{**cu.HERO, "hurt": True}], [cu.ORC], "party[1].hurt")],
        (many(cu.HERO, 4, target_hp=200), many(cu.ORC, 4, target_hp=200), ("states", "fewer")),
        ([{**cu.HERO, "target_hp": 4}],
         [{**cu.ORC, "target_hp": 6, "attacks": 2}, {**cu.ORC, "name": "Orc 2", "target_hp": 5}],
         [{**cu.HERO, "name": "B", "target_hp": 2, "to_hit": -5}, {**cu.HERO, "name": "C", "target_hp": 8}],
         {**cu.HERO, "name": "C", "target_hp": 8}),
        ([{**cu.HERO, "target_hp": 6}, {**cu.HERO, "name": "B", "target_hp": 4, "dice": "1d4"}], cu.ORC, range(1, 9)),
        ["countup", "forecast", "--party", "name=A,target_hp=3", "--foes", "name=B,target=npc,target_hp=2"],
        # the other reading keeps a Hurt attacker's negative totals: NPCs, never Hurt, can be asked
        {"damage-floor": {"party": [{**cu.ORC, "name": "A"}], "foes": [cu.ORC]}},
        fight_rounds=6,
    ),
    System(
        "segments",
        seg,
        {"Hero drops", "Orc drops"},
        {"group-initiative", "action-order", "weapon-speed", "ruling:forecast-targets", "ruling:round-drop-at-zero"},
        [([seg.HERO], [{**seg.ORC, "action": "spell"}], "foes[1].action"),
         ([seg.HERO, {**seg.HERO, "name": "B", "weapon": "short bow"}], [seg.ORC], "party[2].weapon"),
         ([seg.HERO], [{**seg.ORC, "routine": [{"name": "Bad", "dice": "d", "modifier": 0, "to_hit": 0}]}],
          "foes[1].routine[1].dice"),
         ([seg.HERO], [seg.ORC, {**seg.ORC, "name": "O2", "attacker": "class", "class_group": "magic-users",
                                 "level": 0}], "foes[2].level")],  # met reading its attacks against each AC
        (many(seg.HERO, 4, target_hp=100), many(seg.ORC, 4, target_hp=100), ("states", "fewer")),
        ([{**seg.HERO, "target_hp": 4}], [{**seg.ORC, "target_hp": 6}, {**seg.ORC, "name": "Orc 2", "target_hp": 5}],
         [{**seg.HERO, "name": "B", "target_hp": 2, "bonus": -5}, {**seg.HERO, "name": "C", "target_hp": 8}],
         {**seg.HERO, "name": "C", "target_hp": 8}),
        ([seg.HERO, {**seg.ARCHER, "target_hp": 4}], seg.ORC, range(1, 9)),
        ["segments", "forecast", "--rounds", "3"],
        fight_rounds=6,
    ),
    System(
        "action-points",
        ap,
        {"Hero goes down", "Hero dies", "Orc goes down", "Orc dies"},
        {"initiative", "initiative-ties", "ruling:forecast-targets", "dying", "dead"},
        [([ap.HERO], [ap.ORC, {**ap.ORC, "name": "Orc 2", "standard": 0, "quick": 0}], "foes[2].standard"),
         ([{**ap.HERO, "standard": 1, "power": 1}], [ap.ORC], "party[1].power")],  # more than 3 AP
        (many(ap.HERO, 3, target_hp=40), many(ap.ORC, 3, target_hp=40), ("orders", "fewer fighters")),
        ([{**ap.HERO, "target_hp": 3}], [{**ap.ORC, "target_hp": 5, "quick": 2}],
         [{**ap.HERO, "name": "B", "target_hp": 2, "misc": -5}, {**ap.HERO, "name": "C", "target_hp": 5}],
         {**ap.HERO, "name": "C", "target_hp": 5}),
        ([{**ap.HERO, "target_hp": 5}], ap.ORC, range(1, 8)),
        ["action-points", "forecast", "--party", "name=A,target_hp=3", "--foes", "name=B,target_hp=2"],
    ),
    System(
        "phases",
        ph,
        {"Foes break by morale", "Hero goes down", "Hero dies", "Orc flees"},
        {"combat-round", "simultaneous-actions", "ruling:phase-ties", "ruling:forecast-targets", "wounds", "morale",
         "ruling:round-morale"},
        [([ph.HERO], [{**ph.ORC, "damage_dice": "4d6"}], "foes[1].damage_dice"),
         ([ph.HERO, {**ph.HERO, "name": "B", "target_hp": 99}], [ph.ORC], "party[2].target_hp")],
        (many(ph.HERO, 4, target_hp=60, free_slots=20), many(ph.ORC, 4, target_hp=60, hd=20), ("states", "fewer")),
        ([{**ph.HERO, "target_hp": 2}], [{**ph.ORC, "target_hp": 4, "hd": 2}],
         [{**ph.HERO, "name": "B", "attack_target": 15}, {**ph.HERO, "name": "C", "target_hp": 5}],
         {**ph.HERO, "name": "C", "target_hp": 5}),
        ([{**ph.HERO, "target_hp": 4}], ph.ORC, range(0, 8)),
        ["phases", "forecast", "--rounds", "3"],
        foes=[{**ph.ORC, "morale": 7}],
    ),
    System(
        "active-defense",
        ad,
        {"Hero drops", "Orc drops"},
        {"initiative", "ruling:initiative-ties", "ruling:forecast-targets", "reserve-actions"},
        [([ad.HERO], [ad.ORC, {**ad.ORC, "name": "Orc 2", "critical_bonus": 3}], "foes[2].critical_bonus")],
        (many(ad.HERO, 3, target_hp=60), many(ad.ORC, 3, target_hp=60), ("orders", "fewer fighters")),
        ([{**ad.HERO, "target_hp": 3}], [{**ad.ORC, "target_hp": 5, "off_hand": True}], [],
         {**ad.HERO, "name": "C", "target_hp": 4}),
        ([{**ad.HERO, "target_hp": 5}], ad.ORC, range(1, 8)),
        ["active-defense", "forecast", "--party", "name=A,target_hp=3", "--foes", "name=B,target_hp=2"],
        rounds=4,
    ),
]  # fmt: skip
IDS = [s.id for s in SYSTEMS]


def run(system: System, party: list[dict], foes: list[dict], **extra: Any) -> dict:
    return cases.run(system.id, party, foes, **extra)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_answer_reads_as_the_issue_asks(system):
    m, r = system.module, system.rounds
    foes = system.foes or [m.ORC]
    answer = run(system, [m.HERO], foes, rounds=r)
    labels = [c["label"] for c in answer["chances"]]
    assert labels[:2] == ["Party wins", "Foes win"]
    assert f"Fight still on after {r} rounds" in labels and system.labels <= set(labels)
    ends = ("Party wins", "Foes win", "Both sides fall", f"Fight still on after {r} rounds")
    assert sum(cases.chance(answer, label) for label in labels if label in ends) == 1
    table = answer["table"]
    assert table["columns"][:3] == ["Round", "Ends in this round", "Over within k rounds"]
    assert [row[0] for row in table["rows"]] == [*map(str, range(1, r + 1)), f"more than {r}"]
    mean = m.exact([m.HERO], foes, rounds=r).over.mean
    assert "median" in table["title"] and "90th percentile" in table["title"] and f"expected {mean} " in table["title"]
    assert {s["rule"] for s in answer["steps"]} >= system.cited


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_adding_a_party_member_never_lowers_the_chance_to_win(system):
    party, foes, extras, better = system.more

    def won(party: list[dict]) -> Any:
        return cases.chance(run(system, party, foes, rounds=system.fight_rounds), "Party wins")

    before = won(party)
    assert all(won([*party, extra]) >= before for extra in extras)
    assert won([*party, better]) > before


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_raising_a_foes_hit_points_never_raises_the_chance_to_win(system):
    party, foe, hps = system.stronger
    r = system.fight_rounds
    wins = [cases.chance(run(system, party, [{**foe, "target_hp": hp}], rounds=r), "Party wins") for hp in hps]
    assert all(a >= b for a, b in zip(wins, wins[1:], strict=False))
    assert wins[0] > wins[-1]


@pytest.mark.parametrize(
    ("system", "party", "foes", "named"),
    [(s, *bad) for s in SYSTEMS for bad in s.bad],
    ids=[f"{s.id}-{bad[2]}" for s in SYSTEMS for bad in s.bad],
)
def test_a_bad_fighter_field_is_named_by_its_row(system, party, foes, named):
    with pytest.raises(InputError) as err:
        run(system, party, foes)
    assert err.value.input == named


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_past_the_bound_the_answer_names_its_size_and_what_to_reduce(system):
    party, foes, words = system.too_big
    with pytest.raises(InputError) as err:
        run(system, party, foes)
    assert all(w in err.value.reason for w in words), err.value.reason


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_command_line_reaches_it(system, capsys):
    assert main(system.command) == 0
    out = capsys.readouterr().out
    assert "Party wins" in out and all(label in out for label in system.labels if "morale" in label)


def ruling_inputs(system: System) -> list[tuple[str, str]]:
    """(input, ruling) of every input of the system's forecast declared with `ruling:`, read from
    calculators.yaml (as exported), in declaration order."""
    decls = data.system(system.id).calculator("forecast")["inputs"]
    return [(d["name"], d["ruling"]) for d in decls if d.get("ruling")]


READINGS = [
    (s, name, rid, reading) for s in SYSTEMS for name, rid in ruling_inputs(s) for reading in ("ruling", "alternative")
]


@pytest.mark.parametrize(
    ("system", "name", "ruling_id", "reading"),
    READINGS,
    ids=[f"{s.id}-{name}-{reading}" for s, name, _, reading in READINGS],
)
def test_each_ruling_names_the_chosen_reading_in_its_own_words_and_links_it(system, name, ruling_id, reading):
    """Every input of the forecast that is a ruling's option, set to each reading's value (read
    from the ruling's option), makes one step say that reading, word for word from rulings.yaml,
    linked to the ruling."""
    ruling = data.system(system.id).ruling(ruling_id)
    option = ruling["option"]
    assert option["input"] == name
    m = system.module
    asked = {"party": [m.HERO], "foes": [m.ORC], **system.readings.get(ruling_id, {})}
    answer = run(system, asked["party"], asked["foes"], rounds=2, **{name: option[f"{reading}_value"]})
    (step,) = [s for s in answer["steps"] if s["rule"] == f"ruling:{ruling_id}"]
    assert (step["url"], step["title"]) == (ruling["url"], ruling["title"])
    said = "Ruling: " if reading == "ruling" else "Other reading: "
    assert step["text"] == said + ruling[reading]
    other = "alternative" if reading == "ruling" else "ruling"
    assert ruling[other] not in step["text"]


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_every_input_named_as_a_rulings_option_declares_that_ruling(system):
    """An input of the forecast under a ruling option's name is that option taken again: it says
    `ruling:` (so its reading is cited), naming a ruling whose option has its name (Countup's
    `natural_rolls` is both the attack's and the save's: the forecast's attacks read the first)."""
    sd = data.system(system.id)
    options: dict[str, set[str]] = {}
    for rid, ruling in sd.raw["rulings"].items():
        if ruling.get("option"):
            options.setdefault(ruling["option"]["input"], set()).add(rid)
    named = [d for d in sd.calculator("forecast")["inputs"] if d["name"] in options]
    assert named
    assert [d["name"] for d in named if d.get("ruling") not in options[d["name"]]] == []


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_rulings_come_last_in_the_order_declared(system):
    """The readings close the steps, one per ruling input, in calculators.yaml's order."""
    m = system.module
    steps = run(system, [m.HERO], system.foes or [m.ORC], rounds=2)["steps"]
    declared = [f"ruling:{rid}" for _, rid in ruling_inputs(system)]
    assert declared and [s["rule"] for s in steps[-len(declared) :]] == declared


def test_a_value_that_is_no_reading_of_the_ruling_is_a_data_error():
    system = data.system("segments")
    with pytest.raises(DataError):
        system.reading_step("damage-floor", "2")
    with pytest.raises(DataError):  # a ruling without an option has no readings to choose
        system.reading_step("forecast-targets", "lowest-hp")


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_focus_fire_step_names_each_sides_policy(system):
    m = system.module
    answer = run(system, [m.HERO], [m.ORC], rounds=2, party_targets="dangerous", foes_targets="listed")
    (step,) = [s for s in answer["steps"] if s["rule"] == "ruling:forecast-targets"]
    assert "the party attacks the most dangerous first, the foes in the order listed" in step["text"]
    assert step["url"] == data.system(system.id).ruling("forecast-targets")["url"]
