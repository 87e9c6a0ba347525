"""The round calculators of every system: the shared chain machinery (two independent algorithms
agree), each system's round against brute-force enumeration of every die face of every attack of
every round up to k, a one-attack round against the hit and damage calculators, exact sums and
monotonicity, and the issue's example (a +5 fighter with 1d8+3 against AC 15, 22 HP)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from answers import chance, pmf, runner
from hypothesis import given
from hypothesis import strategies as st

import calc
from calc.answers.result import dist_probs
from calc.chains import rounds
from calc.chains.reached import ROUNDS
from calc.chains.state_chain import StateChain
from calc.chains.track import Threshold, mean_rounds, track
from calc.numbers.dist import Dist

ROUND_SYSTEMS = ["segments", "action-points", "countup", "active-defense", "phases"]


# --- brute force ------------------------------------------------------------------------------------
def faces(*sides: int) -> list[tuple[int, ...]]:
    """Every face combination of the given dice."""
    return list(itertools.product(*(range(1, s + 1) for s in sides)))


def brute_within(outcomes: Sequence[int], need: int, k: int) -> list[Fraction]:
    """P(total damage ≥ need within j rounds), j = 1…k, by walking every sequence of per-round
    outcomes (each outcome one face combination of the round's dice, equal totals counted
    together by their number of face combinations); a sequence that has dropped counts all its
    continuations at once."""
    counts = Counter(outcomes)
    n = len(outcomes)
    hits = [0] * (k + 1)

    def walk(depth: int, taken: int, ways: int) -> None:
        for dmg, c in counts.items():
            total, w = taken + dmg, ways * c
            if total >= need:
                for j in range(depth + 1, k + 1):
                    hits[j] += w * n ** (k - depth - 1)  # every continuation of this prefix
                continue
            if depth + 1 < k:
                walk(depth + 1, total, w)

    walk(0, 0, 1)
    return [Fraction(hits[j], n**k) for j in range(1, k + 1)]


def table_within(answer: dict, column: int = 2) -> list[Fraction]:
    """The `within k` column of the table (as shown) is checked through the chances instead; this
    reads the exact chances of within 1 and 3 rounds."""
    return [chance(answer, label) for label in ("Drops in 1 round", "Drops within 3 rounds")]


# --- the shared machinery ----------------------------------------------------------------------------
def test_track_equals_brute_force_and_sums() -> None:
    per_round = Dist.from_weights({0: 5, 1: 1, 3: 2, 4: 1})
    outcomes = [0] * 5 + [1] + [3, 3] + [4]
    (reached,) = track(per_round, [Threshold("Drops", 7)], rounds=4)
    assert list(reached.within) == brute_within(outcomes, 7, 4)
    assert sum(reached.in_round(k) for k in range(1, 5)) + (1 - reached.within[-1]) == 1


@pytest.mark.parametrize("need", [1, 2, 5, 13])
def test_two_mean_algorithms_agree(need: int) -> None:
    """The renewal recurrence of `mean_rounds` against the backward solve of `StateChain`."""
    per_round = Dist.from_weights({0: 3, 1: 2, 2: 1, 5: 1})

    def step(taken: int) -> list[tuple[Fraction, int]]:
        return [(p, min(taken + d, need)) for d, p in per_round.items()]

    chain = StateChain(0, step)
    assert mean_rounds(per_round, [need]) == [chain.mean(lambda s: s >= need)]
    assert chain.reached("x", lambda s: s >= need).within == track(per_round, [Threshold("x", need)])[0].within


def test_percent_keeps_integer_zeros() -> None:
    """The round summary shows P(within 3 rounds) to whole percents: 0 and 100 must stay."""
    from calc.answers import result

    assert [result.percent(Fraction(x), 0) for x in (0, 1)] == ["0%", "100%"]
    assert result.percent(Fraction(1, 5), 0) == "20%"
    assert [result.percent(Fraction(1, 8)), result.percent(Fraction(3, 4))] == ["12.5%", "75%"]


def test_mean_rounds_simple_cases() -> None:
    assert mean_rounds(Dist.constant(3), [7, 6, 1]) == [3, 2, 1]
    assert mean_rounds(Dist.from_weights({0: 1, 1: 1}), [1, 2]) == [2, 4]  # geometric, p = 1/2
    assert mean_rounds(Dist.constant(0), [5]) == [None]


# --- every system ------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", ROUND_SYSTEMS)
def test_round_answers_with_both_distributions(system: str) -> None:
    answer = runner(system)("round")
    assert sum(pmf(answer).values()) == 1
    assert answer["table"]["rows"][0][0] == "1"
    assert len(answer["table"]["rows"]) == ROUNDS + 1
    within = [c for c in answer["chances"] if "within" in c["label"] or " in 1 round" in c["label"]]
    assert within and all(0 <= Fraction(c["p"]["fraction"]) <= 1 for c in within)
    assert "per round on average" in answer["summary"]


@pytest.mark.parametrize("system", ROUND_SYSTEMS)
def test_command_line_round_json_has_both_distributions(system: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m calc <system> round --json`: the damage of a round (a pmf summing to 1) and the
    rounds to drop the target (in round k and within k, k = 1…10, and beyond), as the engine."""
    from calc.__main__ import main

    assert main([system, "round", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == json.loads(json.dumps(runner(system)("round")))
    assert sum(dist_probs(answer["distribution"]).values()) == 1
    rows = answer["table"]["rows"]
    assert [r[0] for r in rows[:-1]] == [str(k) for k in range(1, ROUNDS + 1)]
    assert answer["table"]["columns"][1].endswith("in round k") and answer["table"]["columns"][2].endswith(
        "within k rounds"
    )
    assert "mean rounds" in answer["table"]["title"]


@pytest.mark.parametrize("system", ROUND_SYSTEMS)
def test_more_hp_never_fewer_rounds(system: str) -> None:
    run = runner(system)
    previous = None
    for hp in (1, 4, 9, 16):
        answer = run("round", target_hp=hp)
        within = [chance(answer, f"{answer['chances'][0]['label'].split(' in ')[0]} within 3 rounds")]
        if previous is not None:
            assert within[0] <= previous
        previous = within[0]


# --- segments ----------------------------------------------------------------------------------------
seg = runner("segments")


def test_segments_round_brute_force() -> None:
    """AAC0 16 against AC 4: the table asks 12; sword 1d4+1 (+1 to hit) and a 1d3 dagger in one
    routine; then a 1d2 fist in 2 routines (multi-attack)."""
    answer = seg(
        "round",
        attacker="aac0",
        aac0="16",
        ac=4,
        routine=[{"name": "Sword", "dice": "1d4", "modifier": 1, "to_hit": 1}, {"name": "Dagger", "dice": "1d3"}],
        target_hp=9,
    )

    def one(d20: int, dmg: int, to_hit: int, mod: int) -> int:
        hits = d20 == 20 or (d20 != 1 and d20 + to_hit >= 12)
        return dmg + mod if hits else 0

    per_round = [one(a, x, 1, 1) + one(b, y, 0, 0) for a, x, b, y in faces(20, 4, 20, 3)]
    want = Dist.from_weights({v: per_round.count(v) for v in set(per_round)})
    assert pmf(answer) == dict(want.items())
    twice = seg("round", attacker="aac0", aac0="16", ac=4, routine=[{"dice": "1d2"}], routines=2)
    per_round = [one(a, x, 0, 0) + one(b, y, 0, 0) for a, x, b, y in faces(20, 2, 20, 2)]
    assert pmf(twice) == dict(Dist.from_weights({v: per_round.count(v) for v in set(per_round)}).items())
    small = [one(a, x, 1, 1) for a, x in faces(20, 4)]  # one attack: rounds by brute force
    single = seg(
        "round", attacker="aac0", aac0="16", ac=4, routine=[{"dice": "1d4", "modifier": 1, "to_hit": 1}], target_hp=5
    )
    assert table_within(single) == [brute_within(small, 5, 3)[0], brute_within(small, 5, 3)[2]]


def test_segments_single_attack_equals_hit_and_damage() -> None:
    hit = seg("hit", attacker="monster", hd=3, ac=2, bonus=1)
    dmg = seg("damage", dice="2d4", modifier=1)
    answer = seg("round", attacker="monster", hd=3, ac=2, bonus=1, routine=[{"dice": "2d4", "modifier": 1}])
    p_hit = chance(hit, "Hit")
    want = rounds.attack_damage(p_hit, Dist.from_probs(pmf(dmg)))
    assert pmf(answer) == dict(want.items())
    assert Fraction(answer["distribution"]["mean"]["fraction"]) == p_hit * Fraction(
        dmg["distribution"]["mean"]["fraction"]
    )


def test_segments_drop_reading_both() -> None:
    ruling = seg("round", target_hp=6)
    other = seg("round", target_hp=6, drop_at="minus-ten")
    assert chance(ruling, "Drops in 1 round") == chance(other, "Drops in 1 round")
    assert chance(other, "Dead within 10 rounds") < chance(other, "Drops within 10 rounds")
    assert not any(c["label"].startswith("Dead") for c in ruling["chances"])


# --- action-points -----------------------------------------------------------------------------------
ap = runner("action-points")
AP_WEAPON = {"use_preset": False, "dice": "1d4", "threshold": 19, "multiplier": 2, "ability": 2, "damage_bonus": 1}


def test_action_points_round_brute_force() -> None:
    """Standard + quick attack (3 AP) with an own 1d4 weapon, crit 19+ ×2, +2 to hit vs AC 14."""
    answer = ap("round", standard=1, quick=1, defense=14, target_hp=4, dying_checks="ignored", **AP_WEAPON)

    def standard(d20: int, die: int) -> int:
        if d20 >= 19 and d20 + 2 >= 14:
            return (die + 1) * 2
        return die + 1 if d20 + 2 >= 14 or d20 >= 19 else 0

    def quick(d20: int) -> int:
        least = 1 + 1
        if d20 >= 19 and d20 + 2 >= 14:
            return least * 2
        return least if d20 + 2 >= 14 or d20 >= 19 else 0

    outcomes = [standard(a, x) + quick(b) for a, x, b in faces(20, 4, 20)]
    want = Dist.from_weights({v: outcomes.count(v) for v in set(outcomes)})
    assert pmf(answer) == dict(want.items())
    brute = brute_within(outcomes, 5, 3)  # below 0 from 4 HP takes 5 damage
    assert [chance(answer, "Unconscious in 1 round"), chance(answer, "Unconscious within 3 rounds")] == [
        brute[0],
        brute[2],
    ]
    dead = brute_within(outcomes, 14, 3)  # −10 from 4 HP takes 14
    assert chance(answer, "Dead within 3 rounds") == dead[2]


def ap_brute_with_checks(outcomes: Sequence[int], hp: int, con: int, k: int) -> tuple[list, list]:
    """(P unconscious within j, P dead within j), j = 1…k: every face of the turn's attacks, then, if
    below 0 and not dead, every face of the d20 Constitution check (fails below 15 + negative hp −
    Con: 1 more damage); sequences walked with equal hit points together."""
    counts, n = Counter(outcomes), len(outcomes)
    states: Counter = Counter({hp: 1})
    out, dead = [], []
    for j in range(1, k + 1):
        nxt: Counter = Counter()
        for left, w in states.items():
            if left <= -10:
                nxt[left] += w * n * 20
                continue
            for dmg, c in counts.items():
                now = left - dmg
                for face in range(1, 21):
                    fails = -10 < now < 0 and face + con < 15 - now
                    nxt[now - 1 if fails else now] += w * c
        states = nxt
        out.append(Fraction(sum(w for h, w in states.items() if h < 0), (n * 20) ** j))
        dead.append(Fraction(sum(w for h, w in states.items() if h <= -10), (n * 20) ** j))
    return out, dead


@pytest.mark.parametrize("con", [0, 3])
def test_action_points_round_dying_checks_brute_force(con: int) -> None:
    """The ruling: a dying target's failed Constitution checks count towards death (1 more each)."""
    answer = ap("round", standard=1, quick=1, defense=14, target_hp=2, target_con=con, **AP_WEAPON)

    def standard(d20: int, die: int) -> int:
        if d20 >= 19 and d20 + 2 >= 14:
            return (die + 1) * 2
        return die + 1 if d20 + 2 >= 14 or d20 >= 19 else 0

    def quick(d20: int) -> int:
        hit = d20 + 2 >= 14 or d20 >= 19
        return (2 * 2 if d20 >= 19 and d20 + 2 >= 14 else 2) if hit else 0

    outcomes = [standard(a, x) + quick(b) for a, x, b in faces(20, 4, 20)]
    out, dead = ap_brute_with_checks(outcomes, 2, con, 3)
    assert chance(answer, "Unconscious in 1 round") == out[0]
    assert chance(answer, "Unconscious within 3 rounds") == out[2]
    assert chance(answer, "Dead in 1 round") == dead[0]
    assert chance(answer, "Dead within 3 rounds") == dead[2]
    ignored = ap("round", standard=1, quick=1, defense=14, target_hp=2, dying_checks="ignored", **AP_WEAPON)
    assert chance(ignored, "Unconscious within 3 rounds") == out[2]  # the checks start below 0
    assert chance(ignored, "Dead within 3 rounds") < dead[2]


def test_action_points_single_attack_equals_damage_calculator() -> None:
    one = ap("damage", defense=13, attack="power")
    answer = ap("round", standard=0, quick=0, power=1, defense=13)
    assert pmf(answer) == pmf(one)
    hit = ap("hit", defense=13, attack="power")
    assert chance(answer, "Unconscious in 1 round") <= chance(hit, "Hit")


def test_action_points_budget() -> None:
    with pytest.raises(calc.InputError) as err:
        ap("round", standard=1, power=1)
    assert err.value.input == "power" and "3 AP" in err.value.reason
    with pytest.raises(calc.InputError):
        ap("round", standard=0, quick=0)
    assert ap("round", standard=0, quick=3)["distribution"]["max"] > 0


def dp_mean_rounds(outcomes: Sequence[int], hp: int) -> Fraction:
    """Expected rounds to take `hp` damage by dynamic programming over the hit points left (an
    algorithm independent of `calc.chains.rounds`)."""
    counts, n = Counter(outcomes), len(outcomes)
    expected = {h: Fraction(0) for h in range(-max(outcomes), 1)}
    for h in range(1, hp + 1):
        rest = sum((Fraction(c, n) * expected[h - d] for d, c in counts.items() if d > 0), Fraction(0))
        expected[h] = (1 + rest) / (1 - Fraction(counts[0], n))
    return expected[hp]


# --- countup -----------------------------------------------------------------------------------------
cu = runner("countup")
ISSUE = {  # the GM's example of issue 13: +5 to hit, 1d8+3, against AC 15 and 22 hit points
    "to_hit": 5,
    "ability_from": "bonus",
    "ability_bonus": 0,
    "misc": 0,
    "ac": 15,
    "dice": "1d8",
    "damage_misc": 3,
    "target_hp": 22,
}


def test_countup_issue_example() -> None:
    """Hand figures: d20 + 5 ≥ 15 on 10–20, 11/20; a hit deals 4–11 (mean 15/2); a round 33/8.
    Dropping 22 HP needs two hits of 16+ on 2d8 (1/64) within two rounds: (11/20)² / 64."""
    answer = cu("round", **ISSUE)
    assert Fraction(answer["distribution"]["mean"]["fraction"]) == Fraction(11, 20) * Fraction(15, 2) == Fraction(33, 8)
    assert chance(answer, "Dead in 1 round") == 0
    outcomes = [x + 3 if a >= 10 else 0 for a, x in faces(20, 8)]
    brute = brute_within(outcomes, 22, 3)
    assert brute[1] == Fraction(121, 400) / 64
    assert chance(answer, "Dead within 3 rounds") == brute[2]
    mean = dp_mean_rounds(outcomes, 22)
    assert answer["summary"].startswith(
        f"{float(mean):.2f}".rstrip("0") + " rounds · 11% within 3 · to kill a 22-HP foe"
    )
    assert answer["summary"].endswith("; deals 4.12 per round on average")
    assert Fraction(answer["rounds"][0]["mean"]["fraction"]) == mean
    assert f"(mean rounds: Dead: {float(mean):.2f}".rstrip("0") in answer["table"]["title"]


def test_countup_round_brute_force_two_attacks_on_a_character() -> None:
    """Attack rate 2, Str 16 (+2 both), 1d4, AC 14: hits on 20 − … ; a character at 3 HP is Hurt at 0
    and dead at −10."""
    answer = cu("round", attacks=2, ac=14, dice="1d4", ability_score=16, damage_misc=0, target="character", target_hp=3)
    # to-hit: 5 (to_hit) + 2 (Str 16) + 1 (misc) = +8: a natural 6 or more; damage 1d4 + 2
    one = [x + 2 if a + 8 >= 14 else 0 for a, x in faces(20, 4)]
    outcomes = [a + b for a in one for b in one]
    assert pmf(answer) == dict(Dist.from_weights(Counter(outcomes)).items())
    assert chance(answer, "Hurt or worse within 3 rounds") == brute_within(outcomes, 3, 3)[2]
    assert chance(answer, "Dead within 3 rounds") == brute_within(outcomes, 13, 3)[2]


def test_countup_single_attack_equals_hit_and_damage() -> None:
    hit = cu("hit", ac=17, hurt=True, natural_rolls=True)
    dmg = cu("damage", dice="2d6", damage_misc=4, hurt=True, strength_score=16)  # the round's Str: its ability
    answer = cu("round", ac=17, hurt=True, natural_rolls=True, dice="2d6", damage_misc=4)
    want = rounds.attack_damage(chance(hit, "Hit"), Dist.from_probs(pmf(dmg)))
    assert pmf(answer) == dict(want.items())


def test_countup_npc_reading_both() -> None:
    ordinary = cu("round", target_hp=5)
    important = cu("round", target_hp=5, npc_hurt=True)
    assert chance(ordinary, "Dead within 3 rounds") == chance(important, "Hurt or worse within 3 rounds")
    assert chance(important, "Dead within 3 rounds") < chance(ordinary, "Dead within 3 rounds")


def test_countup_first_round_move_and_draw_brute_force() -> None:
    """Moving into reach and drawing are two Secondary Actions and a turn has one: round 1 has no
    attack, so "within k rounds" is the brute force of k − 1 rounds of two attacks, and the mean
    one round more than the steady chain's."""
    kw = {"attacks": 2, "ac": 14, "dice": "1d4", "ability_score": 16, "damage_misc": 0, "target_hp": 5}
    answer = cu("round", first_round="move-and-draw", **kw)
    steady = cu("round", **kw)
    assert pmf(answer) == pmf(steady)  # the round shown is a full round
    one = [x + 2 if a + 8 >= 14 else 0 for a, x in faces(20, 4)]
    outcomes = [a + b for a in one for b in one]
    brute = brute_within(outcomes, 5, 2)
    assert chance(answer, "Dead in 1 round") == 0
    assert chance(answer, "Dead within 3 rounds") == brute[1]
    mean = dp_mean_rounds(outcomes, 5)
    assert f"(mean rounds: Dead: {float(1 + mean):.2f}".rstrip("0") in answer["table"]["title"]
    for ready in ("move", "draw"):  # one Secondary job: the Primary still attacks
        assert cu("round", first_round=ready, **kw)["chances"] == steady["chances"]


@pytest.mark.parametrize(("reading", "shots"), [("one-shot", 1), ("attack-rate", 3)])
def test_countup_reload_readings(reading: str, shots: int) -> None:
    """A crossbow reloaded after each shot, attack rate 3: one shot a round under the ruling, three
    under the other reading; each shot as the hit and damage calculators give it."""
    kw = {"attack": "ranged", "attacks": 3, "ac": 12, "dice": "1d6", "damage_misc": 0, "ability_from": "bonus"}
    answer = cu("round", reload=True, reload_reading=reading, **kw)
    hit = cu("hit", attack="ranged", ac=12, ability_from="bonus")
    dmg = cu("damage", attack="ranged", dice="1d6", misc=0)
    one = rounds.attack_damage(chance(hit, "Hit"), Dist.from_probs(pmf(dmg)))
    assert pmf(answer) == dict(rounds.round_total([one] * shots).items())
    unloaded = cu("round", reload=False, **kw)  # no reloading: the attack rate
    assert pmf(unloaded) == dict(rounds.round_total([one] * 3).items())


# --- active-defense ----------------------------------------------------------------------------------
ad = runner("active-defense")
AD = {  # two light-weapon attacks at skill 4, Str +2 (−4 / −8 two-weapon), 1d2 + 2 − armour 2
    "off_hand": True,
    "attacker_light": True,
    "damage_dice": "1d2",
    "off_hand_dice": "1d2",
    "defender_dex": 1,
    "defense": "block",
    "block_skill": 3,
    "defender_str": 1,
    "reserves": 1,
}


def ad_round(spend: str) -> list[int]:
    """Every face of both attack dice, both damage dice and the defender's one block die."""

    def total(face: int, bonus: int) -> int:
        return (30 if face == 20 else -10 if face == 1 else face) + bonus

    out = []
    for a, x, b, y, block in faces(20, 2, 20, 2, 20):
        reserve, dealt = 1, 0
        for face, dmg, bonus in ((a, x, 6 - 4), (b, y, 6 - 8)):
            t = total(face, bonus)
            beats = t >= 11
            if reserve and (beats or spend == "each-attack"):
                reserve = 0
                if beats and block + 4 < t:
                    dealt += dmg
            elif beats:
                dealt += dmg
        out.append(dealt)
    return out


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
def test_active_defense_round_brute_force(spend: str) -> None:
    answer = ad("round", spend_reserve=spend, target_hp=3, **AD)
    outcomes = ad_round(spend)
    assert pmf(answer) == dict(Dist.from_weights(Counter(outcomes)).items())
    brute = brute_within(outcomes, 3, 3)
    assert [chance(answer, "Drops in 1 round"), chance(answer, "Drops within 3 rounds")] == [brute[0], brute[2]]


def test_active_defense_reserve_readings_differ() -> None:
    when_hit = ad("round", **AD)
    each = ad("round", spend_reserve="each-attack", **AD)
    assert Fraction(each["distribution"]["mean"]["fraction"]) > Fraction(when_hit["distribution"]["mean"]["fraction"])


def test_active_defense_single_attack_equals_hit_and_damage() -> None:
    hit = ad("hit", defense="dodge", dodge_skill=2)
    dmg = ad("damage", defense="dodge", dodge_skill=2, damage_dice="2d4")
    answer = ad("round", defense="dodge", dodge_skill=2, damage_dice="2d4")
    want = rounds.attack_damage(chance(hit, "Attack lands"), Dist.from_probs(pmf(dmg)))
    assert pmf(answer) == dict(want.items())


# --- phases --------------------------------------------------------------------------------------------
ph = runner("phases")
PH_WOUNDS = [(1, 3, 1, False), (4, 9, 2, False), (10, None, 3, True)]  # rules notes: damage → Severity, knocks out


def ph_attack(faces_: tuple[int, ...], dmg_face: int, need: int, dice: bool, mods: int = 0) -> tuple[int, bool]:
    """One attack written from the rules: (damage to the target, natural 20). `faces_` are the d20s
    rolled (two with advantage: the higher is kept); a natural 20 hits, a natural 1 misses; damage
    is the margin + modifiers (or the monster's die), at least 1."""
    d20 = max(faces_)
    if d20 == 1 or (d20 != 20 and d20 < need):
        return 0, False
    dmg = dmg_face if dice else d20 - need + mods
    return max(1, dmg), d20 == 20


def ph_severity(read: int) -> tuple[int, bool] | None:
    for lo, hi, sev, out in PH_WOUNDS:
        if read >= lo and (hi is None or read <= hi):
            return sev, out
    return None


def ph_apply(
    state: tuple, hit: tuple[int, bool], monster: bool, limit: int, protection: int, crit_counts: bool, by_wound=None
):
    """The target after one attack: (hp, Wounds or slots, last round's critical Wound, wounded, down, dead).
    A monster counts each Wound as one (`by_wound`, the ruling) or its Severity."""
    by_wound = monster if by_wound is None else by_wound
    hp, count, last, wounded, down, dead = state
    if dead:
        return state
    dmg, crit = hit
    if not dmg:
        return (hp, count, 0, wounded, down, dead)
    wound = None
    if dmg > hp:
        wound = ph_severity(dmg - hp - protection)
    hp = max(0, hp - dmg)
    if wound:
        count += 1 if by_wound else wound[0]
        wounded = True
        down = down or wound[1]
    extra = (1 if by_wound else 2) if crit and crit_counts else 0  # a location wound: Severity 2
    wounded = wounded or bool(extra)
    live = count + last + extra
    if (live > limit) if monster else (live >= limit):
        return (0, 0, 0, True, True, True)
    return (hp, count, extra, wounded, down, False)


def ph_brute(per: list[tuple[int, bool]], rounds_: int, hp: int, **target) -> dict[str, list]:
    """P(first Wound / down / dead within j rounds), j = 1…rounds_, over every face sequence (`per`:
    one round's outcome for each face combination; equal outcomes walked together, weighted by
    their number of face combinations)."""
    counts = Counter(per)
    n = len(per)
    states = {(hp, 0, 0, False, False, False): 1}
    out: dict[str, list] = {"First Wound": [], "Down": [], "Dead": []}
    for j in range(1, rounds_ + 1):
        nxt: Counter = Counter()
        for s, w in states.items():
            for hit, c in counts.items():
                nxt[ph_apply(s, hit, **target)] += w * c
        states = nxt
        for label, i in (("First Wound", 3), ("Down", 4), ("Dead", 5)):
            out[label].append(Fraction(sum(w for s, w in states.items() if s[i]), n**j))
    return out


PH_BASE = {"target_source": "direct", "attack_target": 10, "defense": 2}


@pytest.mark.parametrize(
    ("kind", "hp", "armour", "reading"),
    [("monster", 3, "none", "counts"), ("monster", 0, "leather", "counts"), ("character", 2, "none", "counts"),
     ("character", 1, "none", "ignored"), ("monster", 1, "none", "ignored")],
)  # fmt: skip
def test_phases_round_brute_force(kind: str, hp: int, armour: str, reading: str) -> None:
    """Monster 1d6 dice (hits on 12+) against a 2-HD monster (1 Wound) or a character with 4 free
    slots: every face of every round, 3 rounds, against the chain."""
    target = {"target_kind": kind, "target_hp": hp, "armour": armour}
    target |= {"hd": 2} if kind == "monster" else {"free_slots": 4}
    answer = ph("round", mode="monster", damage_dice="1d6", critical_wound=reading, **PH_BASE, **target)
    per = [ph_attack((a,), x, 12, True) for a, x in faces(20, 6)]
    assert pmf(answer) == dict(Dist.from_weights(Counter(d for d, _ in per)).items())
    limit = 1 if kind == "monster" else 4
    protection = {"none": 0, "leather": 3}[armour]
    brute = ph_brute(
        per, 3, hp, monster=kind == "monster", limit=limit, protection=protection, crit_counts=reading == "counts"
    )
    for label, within in brute.items():
        assert chance(answer, f"{label} in 1 round") == within[0], label
        assert chance(answer, f"{label} within 3 rounds") == within[2], label


def test_phases_round_monster_counts_severity_other_reading() -> None:
    """The other reading of monster-wound-count: a 4-HD monster (2) counts its Wounds' Severity,
    so one location wound (Severity 2) is already its limit; every face of 3 rounds."""
    kw = {"mode": "monster", "damage_dice": "1d6", "target_hp": 2, "hd": 4, **PH_BASE}
    answer = ph("round", count_reading="severity", **kw)
    per = [ph_attack((a,), x, 12, True) for a, x in faces(20, 6)]
    brute = ph_brute(per, 3, 2, monster=True, limit=2, protection=0, crit_counts=True, by_wound=False)
    for label, within in brute.items():
        assert chance(answer, f"{label} in 1 round") == within[0], label
        assert chance(answer, f"{label} within 3 rounds") == within[2], label
    ruling = ph("round", **kw)
    assert chance(ruling, "Dead within 3 rounds") < chance(answer, "Dead within 3 rounds")


def test_phases_round_brute_force_margin_with_advantage() -> None:
    """The margin of success (attack target 10 + Defense 2, +1 damage) with advantage: two d20s
    kept high, every face of three rounds, against a character at 4 HP with 3 free slots."""
    answer = ph(
        "round", roll_mode="advantage", modifiers=1, target_hp=4, target_kind="character", free_slots=3, **PH_BASE
    )
    per = [ph_attack((a, b), 0, 12, False, 1) for a, b in faces(20, 20)]
    assert pmf(answer) == dict(Dist.from_weights(Counter(d for d, _ in per)).items())
    brute = ph_brute(per, 3, 4, monster=False, limit=3, protection=0, crit_counts=True)
    for label, within in brute.items():
        assert chance(answer, f"{label} in 1 round") == within[0], label
        assert chance(answer, f"{label} within 3 rounds") == within[2], label


def test_phases_single_attack_equals_hit_and_damage() -> None:
    """One round is one attack: its damage is the damage calculator's, its chance of any damage the
    hit calculator's Hit, and a 2-HD monster (1 Wound) at 0 HP dies in round 1 exactly on the
    critical hit's extra Wound (the hit calculator's natural 20)."""
    same = {"target_source": "ability", "ability_score": "16", "level": 4, "defense": 3, "parry_weapon": "shield",
            "roll_mode": "disadvantage"}  # fmt: skip
    harm = {"modifiers": 2, "weapon_property": "two-handed"}
    hit = ph("hit", **same)
    dmg = ph("damage", **same, **harm, current_hp=50)
    answer = ph("round", **same, **harm, target_hp=0, hd=2)
    assert pmf(answer) == pmf(dmg)
    assert 1 - pmf(answer)[0] == chance(hit, "Hit")
    assert chance(answer, "Dead in 1 round") == chance(hit, "Critical hit (natural 20)")
    assert chance(answer, "First Wound in 1 round") == chance(hit, "Hit")  # at 0 HP every hit wounds


def test_phases_round_mean_by_hand() -> None:
    """No natural rolls, a 2-HD monster at 0 HP: it dies on the second hit, a negative binomial:
    9/20 to hit (12+), mean 2 ÷ 9/20 = 40/9 rounds; the first Wound in 20/9."""
    answer = ph("round", natural_rolls=False, target_hp=0, hd=2, **PH_BASE)
    assert "(mean rounds: Down: 4.44; Dead: 4.44; First Wound: 2.22)" in answer["table"]["title"]
    assert chance(answer, "Dead within 3 rounds") == 3 * Fraction(9, 20) ** 2 * Fraction(11, 20) + Fraction(9, 20) ** 3


def test_phases_round_readings_differ_and_hp_order() -> None:
    counted = ph("round", target_hp=0, hd=4, **PH_BASE)
    ignored = ph("round", target_hp=0, hd=4, critical_wound="ignored", **PH_BASE)
    assert chance(counted, "Dead within 3 rounds") > chance(ignored, "Dead within 3 rounds")
    with pytest.raises(calc.InputError) as err:
        ph("round", mode="monster", damage_dice="5d6")
    assert err.value.input == "damage_dice"


# --- StateChain with cycles ------------------------------------------------------------------------------
def dense_mean(chain: StateChain, done) -> Fraction:
    """Expected rounds by one dense exact solve over every reachable state (no components)."""
    states, todo = [chain.start], [chain.start]
    while todo:
        s = todo.pop()
        if done(s):
            continue
        for _, t in chain._step(s):
            if t not in states:
                states.append(t)
                todo.append(t)
    live = [s for s in states if not done(s)]
    at = {s: i for i, s in enumerate(live)}
    n = len(live)
    m = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(1)] for i in range(n)]
    for s in live:
        for p, t in chain._step(s):
            if t in at:
                m[at[s]][at[t]] -= p
    for c in range(n):
        r = next(r for r in range(c, n) if m[r][c])
        m[c], m[r] = m[r], m[c]
        m[c] = [x / m[c][c] for x in m[c]]
        for r in range(n):
            if r != c and m[r][c]:
                m[r] = [a - m[r][c] * b for a, b in zip(m[r], m[c], strict=True)]
    return m[at[chain.start]][n]


def test_state_chain_cycles_solved_exactly() -> None:
    """A Wound that expires makes states recur: 0 → 1 (a passing Wound) → back to 0, or on to 2
    (dead) when a second comes while the first lasts."""

    def step(s: int) -> list[tuple[Fraction, int]]:
        if s == 0:
            return [(Fraction(3, 4), 0), (Fraction(1, 4), 1)]
        return [(Fraction(2, 3), 0), (Fraction(1, 3), 2)]

    chain = StateChain(0, step)
    assert chain.step(1) == [(Fraction(2, 3), 0), (Fraction(1, 3), 2)]
    # by hand: E0 = 1 + 3/4 E0 + E1/4, E1 = 1 + 2/3 E0, so E0 = 15
    assert chain.mean(lambda s: s == 2) == dense_mean(chain, lambda s: s == 2) == 15
    reached = chain.reached("Dead", lambda s: s == 2, rounds=3)
    assert reached.within == (0, Fraction(1, 12), Fraction(1, 12) + Fraction(3, 4) * Fraction(1, 12))
    never = StateChain(0, lambda s: [(Fraction(1), 1 - s)])
    assert never.mean(lambda s: s == 2) is None


def test_phases_chain_mean_equals_dense_solve() -> None:
    """The phases chain (critical Wounds that expire; leather stops the small Wounds at 0 HP, so
    states recur) against the dense solve, each mean as the table shows it."""
    from calc.inputs import data as calc_data
    from calc.inputs import declared
    from calc.systems.phases import round as ph_round

    answer = ph("round", target_hp=2, hd=3, armour="leather", **PH_BASE)
    system = calc_data.system("phases")
    parsed = declared.validate(system.calculator("round")["inputs"], answer["inputs"])
    parsed |= {"feinted": False, "phase_roll": 0}
    outcomes, total = ph_round.attack_outcomes(parsed, system, [])
    step, start, thresholds = ph_round._target(parsed, system, [], [(outcomes, total)])
    chain = StateChain(start, lambda s: [(Fraction(w, total), t) for w, t in step(s)])
    for label, done in thresholds:
        mean = chain.mean(done)
        assert mean == dense_mean(chain, done), label
        assert f"{label}: {float(mean):.2f}".rstrip("0").rstrip(".") in answer["table"]["title"]


@given(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=4), min_size=1, max_size=7), st.integers(1, 7))
def test_acyclic_chain_means_in_integers_equal_dense_solve(rows: list[list[int]], need: int) -> None:
    """Chains whose states only stay or move on (the integer paths of `reach_all`: means over one
    denominator, every round at once in packed integers) against the dense exact solve and a
    round-by-round propagation in Fractions; a state that can only stay never finishes."""
    end = len(rows)
    need = min(need, end)

    def step(s: int) -> list[tuple[Fraction, int]]:
        if s >= end:
            return [(Fraction(1), s)]
        return [(Fraction(1, len(rows[s])), min(s + k, end)) for k in rows[s]]

    def stuck(goal: int) -> bool:
        """Some state on the way to `goal` cannot move on."""
        seen, todo = {0}, [0]
        while todo:
            s = todo.pop()
            if s >= goal:
                continue
            if not any(rows[s]):
                return True
            for _, t in step(s):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return False

    chain = StateChain(0, step)
    both = chain.reach_all([("need", lambda s: s >= need), ("end", lambda s: s >= end)], rounds=6)
    at: dict[int, Fraction] = {0: Fraction(1)}  # round by round, in Fractions
    within: list[list[Fraction]] = [[], []]
    for _ in range(6):
        nxt: dict[int, Fraction] = {}
        for s, p in at.items():
            for q, t in step(s):
                nxt[t] = nxt.get(t, Fraction(0)) + p * q
        at = nxt
        for k, goal in enumerate((need, end)):
            within[k].append(sum((p for s, p in at.items() if s >= goal), Fraction(0)))
    for goal, reached, by_round in zip((need, end), both, within, strict=True):
        mean = chain.mean(lambda s, g=goal: s >= g)
        assert reached.mean == mean
        assert mean == (None if stuck(goal) else dense_mean(chain, lambda s, g=goal: s >= g))
        assert list(reached.within) == by_round
