"""Action Points' defense, dying, spell check and AP planner calculators (issue 13 item 4): both
readings of their rulings, consistency with the hit, damage and round calculators, and brute-force
enumeration of every die face on small cases."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from answers import chance_starting, pmf, runner

from calc.errors import InputError
from calc.systems.action_points.planner import plans

SYSTEM = "action-points"


run = runner(SYSTEM)
chance = chance_starting  # these tests name chances by the start of their label


# --- standard and quick defense ---------------------------------------------------------------------
def brute_defense(ac, taken, roll_bonus, attack_bonus, threshold, own_roll, always_hits=True):
    """Every face of each defense d20 and of the attacker's d20, by the text's words."""
    bonuses = {"none": [], "standard": [4], "quick": [2], "both": [4, 2]}[taken]
    hits = total = 0
    for faces in itertools.product(range(1, 21), repeat=len(bonuses)):
        rolls = [f + roll_bonus for f in faces]
        if own_roll:
            now = ac + sum(min(b, max(0, r - ac)) for r, b in zip(rolls, bonuses, strict=True))
        else:
            now = min([ac + sum(bonuses), *rolls])
        for f in range(1, 21):
            total += 1
            if f + attack_bonus >= now or (always_hits and f >= threshold):
                hits += 1
    return Fraction(hits, total)


@pytest.mark.parametrize("taken", ["none", "standard", "quick", "both"])
@pytest.mark.parametrize("reading", ["own_roll", "literal"])
@pytest.mark.parametrize(
    ("ac", "roll_bonus", "attack_bonus", "threshold"), [(15, 5, 5, 20), (12, 0, 8, 18), (20, 12, 3, 19)]
)
def test_defense_equals_brute_force(taken, reading, ac, roll_bonus, attack_bonus, threshold):
    answer = run(
        "defense",
        defense=ac,
        taken=taken,
        roll_bonus=roll_bonus,
        attack_bonus=attack_bonus,
        threshold=threshold,
        cap_reading=reading,
    )
    assert chance(answer, "Attacker hits you") == brute_defense(
        ac, taken, roll_bonus, attack_bonus, threshold, reading == "own_roll"
    )
    assert sum(pmf(answer).values()) == 1


@pytest.mark.parametrize("miss", [0, 20, 50])
@pytest.mark.parametrize("threat_range", ["always_hits", "must_hit"])
def test_no_defense_is_the_hit_calculator(miss, threat_range):
    """With no defense taken the attacker's chance is exactly the hit calculator's."""
    mine = run(
        "defense", taken="none", defense=17, attack_bonus=4, threshold=18, miss_chance=miss, threat_range=threat_range
    )
    theirs = run(
        "hit", defense=17, ability=4, use_preset=False, threshold=18, miss_chance=miss, threat_range=threat_range
    )
    assert chance(mine, "Attacker hits you") == chance(theirs, "Hit")
    assert chance(mine, "Critical hit") == chance(theirs, "Critical hit")


def test_defense_readings_differ_only_below_the_ac():
    """A roll always above the AC gives the same answer under both readings; a low roll lowers the AC only literally."""
    high = [run("defense", roll_bonus=30, cap_reading=r) for r in ("own_roll", "literal")]
    assert chance(high[0], "Attacker hits you") == chance(high[1], "Attacker hits you")
    low = run("defense", roll_bonus=-5, cap_reading="literal")
    assert chance(low, "Your AC drops below") > 0
    assert min(pmf(run("defense", roll_bonus=-5))) == 15


def test_quick_defense_stacks_to_six():
    answer = run("defense", taken="both", roll_bonus=40, defense=15)
    assert pmf(answer) == {21: 1}


# --- dying ----------------------------------------------------------------------------------------
def brute_dying(hp, con, checks, meets):
    """Every sequence of `checks` d20 faces: (P dead, Counter of final HP weights)."""
    final = Counter()
    for faces in itertools.product(range(1, 21), repeat=checks):
        h = hp
        for f in faces:
            if h <= -10:
                break
            dc = 15 - h
            ok = f + con >= dc if meets else f + con > dc
            if not ok:
                h -= 1
        final[max(h, -10)] += 1
    n = 20**checks
    return {h: Fraction(w, n) for h, w in final.items()}


@pytest.mark.parametrize("meets", [True, False])
@pytest.mark.parametrize(("hp", "con", "checks"), [(-8, 5, 3), (-9, 4, 2), (-7, 9, 3), (-1, 0, 2)])
def test_dying_equals_brute_force(hp, con, checks, meets):
    answer = run("dying", hp=hp, constitution=con, help_after=checks, dc_ties="meets" if meets else "exceeds")
    brute = brute_dying(hp, con, checks, meets)
    assert pmf(answer) == brute
    assert chance(answer, "Alive when stabilised") == 1 - brute.get(-10, 0)
    if checks <= 3:
        within = run("dying", hp=hp, constitution=con, help_after=0, dc_ties="meets" if meets else "exceeds")
        assert chance(within, "Dead within 1 round") == brute_dying(hp, con, 1, meets).get(-10, 0)


def test_dying_mean_checks_and_never():
    # from -9 with Con 4: only a natural 20 passes (ruling), so the death check is geometric with p = 19/20
    answer = run("dying", hp=-9, constitution=4)
    assert "1.05 checks" in answer["summary"]
    # Con 30 passes every check at -1 (DC 16): never dies
    assert "never dies" in run("dying", hp=-1, constitution=30)["summary"]


def test_dying_needs_one_failure_per_hit_point_and_the_table_agrees():
    """From -5, death takes 5 failed checks: impossible within 3 rounds, possible within 10."""
    answer = run("dying", hp=-5, constitution=0)
    assert chance(answer, "Dead within 3 rounds") == 0 < chance(answer, "Dead within 10 rounds")
    rows = answer["table"]["rows"]
    assert rows[3][2] == "0%" and rows[4][2] != "0%"


@pytest.mark.parametrize("hp", [0, 3, -10, -15])
def test_dying_refuses_hit_points_outside_dying(hp):
    with pytest.raises(InputError) as err:
        run("dying", hp=hp)
    assert err.value.input == "hp"


# --- spell checks -----------------------------------------------------------------------------------
@pytest.mark.parametrize("check", ["partial", "start"])
@pytest.mark.parametrize("meets", [True, False])
@pytest.mark.parametrize(("tier", "other", "intel"), [(1, 0, 3), (3, 2, 5), (0, 0, -2), (9, 9, 30)])
def test_spell_check_dc_and_chance(check, meets, tier, other, intel):
    answer = run(
        "spell_check",
        check=check,
        tier=tier,
        other_tier=other,
        intelligence=intel,
        dc_ties="meets" if meets else "exceeds",
    )
    dc = 10 + 2 * tier + other
    assert f"DC {dc}" in answer["summary"]
    passed = sum(1 for f in range(1, 21) if (f + intel >= dc if meets else f + intel > dc))
    assert chance(answer, "Passes") == Fraction(passed, 20)


# --- the AP planner ---------------------------------------------------------------------------------
def test_plans_fill_the_budget():
    costs = {"standard": 2, "quick": 1, "power": 3}
    assert sorted(plans(costs, 3)) == sorted([("standard", "quick"), ("quick",) * 3, ("power",)])
    assert sorted(plans(costs, 2)) == sorted([("standard",), ("quick", "quick")])
    assert plans(costs, 1) == [("quick",)]


def test_charge_only_when_possible_and_kept_ap():
    names = lambda a: [r[0] for r in a["table"]["rows"]]  # noqa: E731
    assert "charge" not in names(run("ap_plan"))
    assert "charge" in names(run("ap_plan", can_charge=True))
    assert sorted(names(run("ap_plan", keep_ap=1))) == ["2 × quick", "standard"]
    with pytest.raises(InputError) as err:
        run("ap_plan", keep_ap=3)
    assert err.value.input == "keep_ap"


@pytest.mark.parametrize(
    ("plan", "counts"),
    [
        ("standard + quick", {"standard": 1, "quick": 1}),
        ("3 × quick", {"standard": 0, "quick": 3}),
        ("power", {"standard": 0, "quick": 0, "power": 1}),
    ],
)
def test_each_plan_is_the_round_calculators_turn(plan, counts):
    """The planner reuses the damage engine: a plan's mean is the round calculator's for the same attacks."""
    common = {"weapon": "long-slashing", "ability": 3, "damage_bonus": 5, "defense": 15, "miss_chance": 20}
    answer = run("ap_plan", **common)
    row = next(r for r in answer["table"]["rows"] if r[0] == plan)
    turn = run("round", **common, **({"standard": 0, "quick": 0, "power": 0} | counts))
    assert float(row[2]) == pytest.approx(float(Fraction(turn["distribution"]["mean"]["fraction"])), abs=5e-4)


def test_best_plan_distribution_equals_brute_force():
    """Own weapon 1d4, threshold 19, x3, +2 damage, +4 to hit vs AC 14: enumerate every d20 and d4 of each attack."""
    inputs = {
        "use_preset": False,
        "dice": "1d4",
        "threshold": 19,
        "multiplier": 3,
        "damage_bonus": 2,
        "ability": 4,
        "defense": 14,
    }
    answer = run("ap_plan", **inputs)

    def one(style):
        out = Counter()
        for f in range(1, 21):
            crit = f >= 19 and f + 4 >= 14
            hit = f + 4 >= 14 or f >= 19
            for d in range(1, 5):
                if not hit:
                    out[0] += 1
                    continue
                dmg = 1 + 2 if style == "quick" else d + 2  # quick: the minimum, 1 on the d4
                out[dmg * (3 if crit else 1)] += 1
        return out

    def power():
        out = Counter()
        for f in range(1, 21):
            crit = f >= 19 and f + 4 >= 14
            hit = f + 4 >= 14 or f >= 19
            for d1, d2 in itertools.product(range(1, 5), repeat=2):
                out[0 if not hit else (d1 + d2 + 2) * (3 if crit else 1)] += 1
        return out

    def total(parts):
        acc = Counter({0: 1})
        for part in parts:
            nxt = Counter()
            for a, wa in acc.items():
                for b, wb in part.items():
                    nxt[a + b] += wa * wb
            acc = nxt
        n = sum(acc.values())
        return {x: Fraction(w, n) for x, w in acc.items()}

    plans_brute = {
        "power": total([power()]),
        "standard + quick": total([one("standard"), one("quick")]),
        "3 × quick": total([one("quick")] * 3),
    }
    means = {k: sum(x * p for x, p in v.items()) for k, v in plans_brute.items()}
    best = max(means, key=means.get)
    assert answer["table"]["rows"][0][0] == best
    assert pmf(answer) == {x: p for x, p in plans_brute[best].items() if p}
