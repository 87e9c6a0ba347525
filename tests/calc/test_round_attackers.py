"""Several attackers on one target (the round calculators' `attackers` list) and the round questions
of issue 21, each against brute force over every die face of every attack of every round: countup's
party, segments' multipliers in the first round or every round, action-points' target wounds
building up (each lowering its AC for every later attack), active-defense's reserves shared by the
attackers, phases' attackers blow by blow and its morale ("out of the fight") under both readings."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from answers import chance, pmf, runner
from test_round import PH_BASE, PH_WOUNDS, brute_within, dp_mean_rounds, faces, ph_attack

import calc
from calc.__main__ import main
from calc.numbers.dist import Dist


def brute_rounds(per_round: Sequence[Sequence[int]], need: int) -> list[Fraction]:
    """P(total ≥ need within j rounds), j = 1…len(per_round): round j's damage is one of
    `per_round[j − 1]` (every face combination of that round's dice, equally likely)."""
    states: Counter = Counter({0: 1})
    den, out = 1, []
    for outcomes in per_round:
        counts = Counter(outcomes)
        nxt: Counter = Counter()
        for taken, w in states.items():
            for d, c in counts.items():
                nxt[min(need, taken + d)] += w * c
        states, den = nxt, den * len(outcomes)
        out.append(Fraction(states[need], den))
    return out


def rounds_mean(answer: dict, label: str) -> Fraction:
    (entry,) = [r for r in answer["rounds"] if r["label"] == label]
    return Fraction(entry["mean"]["fraction"])


# --- countup -------------------------------------------------------------------------------------------
cu = runner("countup")
CU_PARTY = [
    {"to_hit": 5, "ability_from": "bonus", "ability_bonus": 2, "misc": 0, "dice": "1d4", "damage_misc": 0},
    {"attack": "thrown", "to_hit": 3, "ability_from": "bonus", "ability_bonus": 1, "misc": 0, "dice": "1d4",
     "strength_from": "bonus", "strength_bonus": 3, "damage_misc": 0},
]  # fmt: skip


def cu_party_round() -> list[int]:
    """Melee +7 (d20 ≥ 7 against AC 14), 1d4 + 2 (its Strength to hit and damage); thrown +4
    (d20 ≥ 10), 1d4 + 3 (Strength to damage only)."""
    return [
        (x + 2 if a >= 7 else 0) + (y + 3 if b >= 10 else 0) for a, x, b, y in faces(20, 4, 20, 4)
    ]  # fmt: skip


def test_countup_party_brute_force() -> None:
    answer = cu("round", ac=14, target_hp=9, attackers=CU_PARTY)
    outcomes = cu_party_round()
    assert pmf(answer) == dict(Dist.from_weights(Counter(outcomes)).items())
    brute = brute_within(outcomes, 9, 3)
    assert [chance(answer, "Dead in 1 round"), chance(answer, "Dead within 3 rounds")] == [brute[0], brute[2]]
    assert rounds_mean(answer, "Dead") == dp_mean_rounds(outcomes, 9)
    # the top-level attacker inputs do not apply when the list is given
    assert cu("round", ac=14, target_hp=9, dice="3d10", to_hit=20, attackers=CU_PARTY)["chances"] == answer["chances"]


def test_countup_one_entry_equals_no_list() -> None:
    one = {"to_hit": 4, "dice": "1d6", "attacks": 2}
    assert cu("round", attackers=[one])["chances"] == cu("round", **one)["chances"]


def test_countup_party_errors_name_the_entry() -> None:
    with pytest.raises(calc.InputError) as err:
        cu("round", attackers=[{"dice": "1d6"}, {"attacks": 4, "dice": "20d100"}])
    assert err.value.input == "attackers[2].dice"
    with pytest.raises(calc.InputError) as err:
        cu("round", attackers=[{}] * 9)
    assert err.value.input == "attackers"


def test_countup_hurt_counts_the_killed_as_worse() -> None:
    """A character at 3 HP against 3 attacks (hit on 6+) of 1d4 + 13 (Strength +2, +11): every hit
    takes it to −10 or below at once, so it is never Hurt, only dead; the column says "Hurt or
    worse", which these deaths are."""
    answer = cu("round", attacks=3, dice="1d4", damage_misc=11, target="character", target_hp=3)
    assert chance(answer, "Hurt or worse in 1 round") == chance(answer, "Dead in 1 round") == 1 - Fraction(1, 4) ** 3
    assert answer["summary"].startswith("1.02 rounds · >99% within 3 · to take a 3-HP character to 0 HP or below (Hurt")
    assert not [c for c in answer["chances"] if c["label"].startswith("Hurt in")]


def test_countup_worked_example_defaults_and_strength_once() -> None:
    """The text's fighter: +5 to hit, Strength 16 (+2), longsword +1 against scale mail (AC 14):
    d20 + 8 ≥ 14 hits on 6+ (3/4); 1d8 + 2 + 1 = 1d8 + 3. Strength is typed once, for both."""
    answer = cu("round")
    assert pmf(answer) == dict(Dist.from_weights(Counter(x + 3 if a >= 6 else 0 for a, x in faces(20, 8))).items())
    stronger = cu("round", ability_score=18)  # +3 to hit and to damage (the site's table)
    assert stronger["distribution"]["max"] == answer["distribution"]["max"] + 1
    with pytest.raises(calc.InputError) as err:
        cu("round", attack="melee", strength_score=18)  # a melee attacker's Strength is its ability score
    assert err.value.input == "strength_score"


# --- segments -----------------------------------------------------------------------------------------
seg = runner("segments")
SEG = {"attacker": "aac0", "aac0": "16", "ac": 4, "target_hp": 9}  # the table asks 12
SEG_PARTY = [
    {"attacker": "aac0", "aac0": "16", "routine": [{"dice": "1d4", "modifier": 1, "to_hit": 1}],
     "multipliers": [{"source": "back stab", "factor": 2}]},
    {"attacker": "aac0", "aac0": "16", "routine": [{"dice": "1d3"}]},
]  # fmt: skip


def seg_round(factor: int) -> list[int]:
    def one(d20: int, dmg: int, to_hit: int, mod: int) -> int:
        hits = d20 == 20 or (d20 != 1 and d20 + to_hit >= 12)
        return dmg + mod if hits else 0

    return [one(a, x, 1, 1) * factor + one(b, y, 0, 0) for a, x, b, y in faces(20, 4, 20, 3)]


@pytest.mark.parametrize("reading", ["first", "every"])
def test_segments_party_multiplier_brute_force(reading: str) -> None:
    answer = seg("round", multiplier_rounds=reading, attackers=SEG_PARTY, **SEG)
    doubled, plain = seg_round(2), seg_round(1)
    later = doubled if reading == "every" else plain
    brute = brute_rounds([doubled, later, later], 9)
    assert [chance(answer, "Drops in 1 round"), chance(answer, "Drops within 3 rounds")] == [brute[0], brute[2]]
    assert pmf(answer) == dict(Dist.from_weights(Counter(later)).items())  # the round shown: a later one
    if reading == "every":
        assert rounds_mean(answer, "Drops") == dp_mean_rounds(doubled, 9)


# --- action-points: the target's wounds ----------------------------------------------------------------
ap = runner("action-points")
AP_WEAPON = {"use_preset": False, "dice": "1d4", "threshold": 19, "multiplier": 2, "ability": 2, "damage_bonus": 1}
AP_WOUNDS = {"wounds_rule": True, "target_base_hp": 3, "target_max_hp": 30}  # a wound at 3+ damage


def ap_attacks(ac: int) -> list[list[int]]:
    """[standard outcomes, quick outcomes] against AC `ac`: +2 to hit, 19+ threatens (a threat
    that misses is still a regular hit), ×2; standard 1d4 + 1, quick its minimum 2."""

    def standard(d20: int, die: int) -> int:
        if d20 >= 19 and d20 + 2 >= ac:
            return (die + 1) * 2
        return die + 1 if d20 + 2 >= ac or d20 >= 19 else 0

    def quick(d20: int) -> int:
        hit = d20 + 2 >= ac or d20 >= 19
        return (4 if d20 >= 19 and d20 + 2 >= ac else 2) if hit else 0

    return [[standard(a, x) for a, x in faces(20, 4)], [quick(a) for (a,) in faces(20)]]


def ap_wounds_brute(hp: int, ac: int, start: int, k: int, checks: bool, con: int = 0) -> tuple[list, list]:
    """(P unconscious within j, P dead within j), j = 1…k: each attack in turn at the AC the
    target's wounds leave (a wound for 3+ damage, −1 AC each, the 16th kills), then a dying target's
    d20 + Con check against 15 + its negative HP (a failure: 1 more)."""
    states: dict[tuple, Fraction] = {(hp, start): Fraction(1)}
    out, dead = [], []
    for _ in range(k):
        for attack in range(2):
            nxt: Counter = Counter()
            for (left, w), p in states.items():
                if left <= -10 or w > 15:
                    nxt[(left, w)] += p
                    continue
                outcomes = ap_attacks(ac - w)[attack]
                for d in outcomes:
                    nxt[(left - d, w + (d >= 3))] += p / len(outcomes)
            states = nxt
        if checks:
            nxt = Counter()
            for (left, w), p in states.items():
                for face in range(1, 21):
                    fails = -10 < left < 0 and w <= 15 and face + con < 15 - left
                    nxt[(left - 1 if fails else left, w)] += p / 20
            states = nxt
        out.append(sum(p for (left, w), p in states.items() if left < 0 or w > 15))
        dead.append(sum(p for (left, w), p in states.items() if left <= -10 or w > 15))
    return out, dead


@pytest.mark.parametrize(("start", "checks"), [(0, "ignored"), (0, "counted"), (14, "ignored")])
def test_action_points_target_wounds_brute_force(start: int, checks: str) -> None:
    kw = {"standard": 1, "quick": 1, "defense": 14, "target_hp": 4, "dying_checks": checks, "target_wounds": start}
    answer = ap("round", **kw, **AP_WEAPON, **AP_WOUNDS)
    out, dead = ap_wounds_brute(4, 14, start, 3, checks == "counted")
    assert [chance(answer, "Unconscious in 1 round"), chance(answer, "Unconscious within 3 rounds")] == [
        out[0],
        out[2],
    ]
    assert [chance(answer, "Dead in 1 round"), chance(answer, "Dead within 3 rounds")] == [dead[0], dead[2]]
    without = ap("round", **kw | {"target_wounds": 0}, **AP_WEAPON)
    assert chance(without, "Unconscious within 3 rounds") < out[2]  # the wounds make it easier


def test_action_points_wounds_lower_the_ac_mid_round() -> None:
    """The first round's damage: the quick attack comes after the standard one, at AC 13 when the
    standard attack wounded (3+ damage), else 14."""
    answer = ap("round", standard=1, quick=1, defense=14, target_hp=50, **AP_WEAPON, **AP_WOUNDS)
    standard, _ = ap_attacks(14)
    quick = {14: ap_attacks(14)[1], 13: ap_attacks(13)[1]}
    weights: Counter = Counter()
    for s in standard:
        for q in quick[13 if s >= 3 else 14]:
            weights[s + q] += 1
    assert pmf(answer) == dict(Dist.from_weights(weights).items())


def test_action_points_party_turns() -> None:
    """Two attackers each spend their own 3 AP; one over budget is named by its entry."""
    one = {"standard": 1, "quick": 1, **AP_WEAPON}
    two = ap("round", defense=14, target_hp=4, dying_checks="ignored", attackers=[one, one])
    single = ap_attacks(14)
    turn = [a + b for a in single[0] for b in single[1]]
    outcomes = [a + b for a in turn for b in turn]
    assert pmf(two) == dict(Dist.from_weights(Counter(outcomes)).items())
    with pytest.raises(calc.InputError) as err:
        ap("round", attackers=[one, {"standard": 1, "power": 1}])
    assert err.value.input == "attackers[2].power"


# --- active-defense: reserves shared by the attackers -------------------------------------------------------
ad = runner("active-defense")
AD_TARGET = {"defender_dex": 1, "defense": "block", "block_skill": 3, "defender_str": 1, "reserves": 1}
AD_PARTY = [
    {"attack_skill": 4, "attack_ability": 2, "damage_dice": "1d2"},
    {"attack_skill": 2, "attack_ability": 1, "damage_dice": "1d2"},
]


def ad_party(spend: str) -> list[int]:
    """Every face of both attackers' d20 and damage and of the defender's one block: Passive
    Defense 11, the block (d20 + 4) must beat the attack (ties to the defender); 1d2 + 2 − armour 2."""

    def total(face: int, bonus: int) -> int:
        return (30 if face == 20 else -10 if face == 1 else face) + bonus

    out = []
    for a, x, b, y, block in faces(20, 2, 20, 2, 20):
        reserve, dealt = 1, 0
        for face, dmg, bonus in ((a, x, 6), (b, y, 3)):
            t = total(face, bonus)
            beats = t >= 11
            if reserve and (beats or spend == "each-attack"):
                reserve = 0
                dealt += dmg if beats and block + 4 < t else 0
            elif beats:
                dealt += dmg
        out.append(dealt)
    return out


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
def test_active_defense_shared_reserve_brute_force(spend: str) -> None:
    answer = ad("round", spend_reserve=spend, target_hp=3, attackers=AD_PARTY, **AD_TARGET)
    outcomes = ad_party(spend)
    assert pmf(answer) == dict(Dist.from_weights(Counter(outcomes)).items())
    brute = brute_within(outcomes, 3, 3)
    assert [chance(answer, "Drops in 1 round"), chance(answer, "Drops within 3 rounds")] == [brute[0], brute[2]]
    swapped = ad("round", spend_reserve=spend, target_hp=3, attackers=AD_PARTY[::-1], **AD_TARGET)
    if spend == "each-attack":  # the reserve goes to whoever attacks first: the order matters
        assert swapped["distribution"]["mean"] != answer["distribution"]["mean"]


# --- phases: attackers blow by blow, and morale ---------------------------------------------------------------
ph = runner("phases")
PH_PARTY = [
    {"mode": "monster", "damage_dice": "1d4", "target_source": "direct", "attack_target": 10},
    {"mode": "monster", "damage_dice": "1d3", "target_source": "direct", "attack_target": 12},
]


def ph_round_apply(state: tuple, hits: Sequence[tuple[int, bool]], limit: int) -> tuple:
    """A 2-HD monster (1 Wound carried) after the round's blows in order: a critical hit's extra
    Wound counts for the rest of this round and the next."""
    hp, count, last, wounded, down, dead = state
    if dead:
        return state
    crits = 0
    for dmg, crit in hits:
        if not dmg:
            continue
        wound = None
        if dmg > hp:
            read = dmg - hp
            wound = next(((sev, out) for lo, hi, sev, out in PH_WOUNDS if read >= lo and (hi is None or read <= hi)))
        hp = max(0, hp - dmg)
        if wound:
            count, wounded, down = count + 1, True, down or wound[1]
        extra = 1 if crit else 0
        crits += extra
        wounded = wounded or bool(extra)
        if count + last + crits > limit:
            return (0, 0, 0, True, True, True)
    return (hp, count, crits, wounded, down, False)


PH_PAIR = [(ph_attack((a,), x, 12, True), ph_attack((b,), y, 14, True)) for a, x, b, y in faces(20, 4, 20, 3)]


def ph_party_brute(
    hp: int, k: int, morale: int = 0, when: str = "next-phase", per: list = PH_PAIR, limit: int = 1
) -> dict[str, list]:
    """First Wound / Down / Dead, and Out of the fight with a morale roll (2d6 above the score flees)
    on the first Wound, at once or at the next round's start; every face of every attack (`per`:
    each round's blows, one tuple per face combination) against a monster carrying `limit` Wounds."""
    counts = Counter(per)
    flee = Fraction(sum(1 for a, b in faces(6, 6) if a + b > morale), 36) if morale else Fraction(0)
    states: dict = {((hp, 0, 0, False, False, False), "not-yet"): Fraction(1)}
    out: dict[str, list] = {"First Wound": [], "Down": [], "Dead": [], "Out of the fight": []}
    for _ in range(k):
        nxt: Counter = Counter()
        for (s, m), p in states.items():
            if m == "out":  # fled: the rest of its fight is not followed (out is all that counts)
                nxt[(s, m)] += p
                continue
            starts = [(p, m)]
            if m == "pending":
                starts = [(p * flee, "out"), (p * (1 - flee), "held")]
            for q, mm in starts:
                if mm == "out":
                    nxt[(s, "out")] += q
                    continue
                for hits, c in counts.items():
                    t = ph_round_apply(s, hits, limit=limit)
                    r = q * Fraction(c, len(per))
                    if morale and mm == "not-yet" and t[3] and not t[4]:
                        if when == "at-once":
                            nxt[(t, "out")] += r * flee
                            nxt[(t, "held")] += r * (1 - flee)
                        else:
                            nxt[(t, "pending")] += r
                    else:
                        nxt[(t, mm)] += r
        states = nxt
        for label, i in (("First Wound", 3), ("Down", 4), ("Dead", 5)):
            if not morale:
                out[label].append(sum(p for (s, _), p in states.items() if s[i]))
        out["Out of the fight"].append(sum(p for (s, m), p in states.items() if m == "out" or s[4]))
    return out


def test_phases_party_brute_force() -> None:
    answer = ph("round", defense=2, hd=2, target_hp=3, attackers=PH_PARTY)
    brute = ph_party_brute(3, 3)
    for label in ("First Wound", "Down", "Dead"):
        assert chance(answer, f"{label} in 1 round") == brute[label][0], label
        assert chance(answer, f"{label} within 3 rounds") == brute[label][2], label


@pytest.mark.parametrize("when", ["next-phase", "at-once"])
def test_phases_morale_out_of_the_fight_brute_force(when: str) -> None:
    answer = ph("round", defense=2, hd=2, target_hp=3, morale=7, morale_when=when, attackers=PH_PARTY)
    brute = ph_party_brute(3, 3, morale=7, when=when)["Out of the fight"]
    assert [chance(answer, "Out of the fight in 1 round"), chance(answer, "Out of the fight within 3 rounds")] == [
        brute[0],
        brute[2],
    ]
    mean = Fraction(answer["rounds"][0]["mean"]["fraction"])
    assert answer["summary"].startswith(f"{float(mean):.2f}".rstrip("0").rstrip(".") + " rounds · ")
    assert "within 3 · to take a 3-HP monster out of the fight" in answer["summary"]
    fight_on = ph("round", defense=2, hd=2, target_hp=3, attackers=PH_PARTY)
    assert chance(answer, "Out of the fight within 3 rounds") > chance(fight_on, "Down within 3 rounds")


@pytest.mark.parametrize("when", ["next-phase", "at-once"])
def test_phases_one_attacker_morale_brute_force(when: str) -> None:
    """One attacker (its own chain, critical Wounds merged when they cannot matter): a 1d6 monster
    hitting on 12+ against a 4-HD monster (2 Wounds) at 2 HP with Morale 5, every face, 3 rounds."""
    kw = {"mode": "monster", "damage_dice": "1d6", "target_hp": 2, "hd": 4}
    answer = ph("round", morale=5, morale_when=when, **PH_BASE, **kw)
    per = [(ph_attack((a,), x, 12, True),) for a, x in faces(20, 6)]
    brute = ph_party_brute(2, 3, morale=5, when=when, per=per, limit=2)["Out of the fight"]
    assert [chance(answer, "Out of the fight in 1 round"), chance(answer, "Out of the fight within 3 rounds")] == [
        brute[0],
        brute[2],
    ]
    fight_on = ph("round", **PH_BASE, **kw)
    assert chance(answer, "Down within 3 rounds") == chance(fight_on, "Down within 3 rounds")


# --- every system: the command line and the cost bound --------------------------------------------------------
PARTIES: dict[str, list[dict]] = {
    "countup": CU_PARTY,
    "segments": SEG_PARTY,
    "action-points": [{"standard": 1, "quick": 1, **AP_WEAPON}] * 2,
    "active-defense": AD_PARTY,
    "phases": PH_PARTY,
}


@pytest.mark.parametrize("system", sorted(PARTIES))
def test_command_line_takes_attackers(system: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([system, "round", "--attackers", json.dumps(PARTIES[system]), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    asked = calc.evaluate({"system": system, "calculator": "round", "inputs": {"attackers": PARTIES[system]}})
    assert printed["chances"] == asked["chances"]
    assert len(printed["inputs"]["attackers"]) == len(PARTIES[system])


AP_BIG = {"standard": 0, "quick": 3, "use_preset": False, "dice": "3d12", "multiplier": 10}
LIMITS: dict[str, dict] = {  # past the bound: refused before computing, the list named
    "countup": {"attackers": [{"attacks": 4, "dice": "4d40"}] * 8, "target_hp": 200},
    "segments": {"attackers": [{"routine": [{"dice": "5d20"}] * 4, "routines": 2}] * 8},
    "action-points": {"attackers": [AP_BIG] * 8, "target_hp": 200, "wounds_rule": True, "target_base_hp": 1},
    "active-defense": {"attackers": [{"off_hand": True, "damage_dice": "20d20", "off_hand_dice": "20d20"}] * 8},
    "phases": {"attackers": [{"mode": "monster", "damage_dice": "3d12"}] * 6, "target_hp": 60,
               "target_kind": "character", "free_slots": 20},
}  # fmt: skip


@pytest.mark.parametrize("system", sorted(LIMITS))
def test_cost_bounded_before_computing(system: str) -> None:
    with pytest.raises(calc.InputError) as err:
        calc.evaluate({"system": system, "calculator": "round", "inputs": LIMITS[system]})
    assert err.value.input == "attackers"
    assert "past the limit" in err.value.reason


def test_an_entrys_conditional_input_chooses_its_condition() -> None:
    """phases' typed attack target applies when the target is entered directly: in an entry, as at
    the top level, giving it chooses that (a form row, which sends every field, keeps its own)."""
    typed = ph("round", attackers=[{"attack_target": 8}])
    assert typed["inputs"]["attackers"][0]["target_source"] == "direct"
    assert typed["chances"] == ph("round", attackers=[{"target_source": "direct", "attack_target": 8}])["chances"]
    row = ph("round", attackers=[{"target_source": "ability", "attack_target": 8}])
    assert row["chances"] == ph("round", attackers=[{}])["chances"]
