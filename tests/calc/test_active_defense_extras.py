"""Active Defense's counterspell, feint and block planner (issue 13 item 4): brute-force enumeration
of every die face on small cases, both readings of the contest-ties ruling, and consistency with
the hit calculator."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from answers import chance_starting, pmf, runner

import calc

SYSTEM = "active-defense"
D20 = range(1, 21)


run = runner(SYSTEM)
chance = chance_starting  # these tests name chances by the start of their label


def brute_contest(mine: int, theirs: int, reroll: bool) -> Fraction:
    win = sum(1 for a, b in itertools.product(D20, D20) if a + mine > b + theirs)
    tie = sum(1 for a, b in itertools.product(D20, D20) if a + mine == b + theirs)
    return Fraction(win, 400 - tie) if reroll else Fraction(win, 400)


@pytest.mark.parametrize("ties", ["resister", "reroll"])
@pytest.mark.parametrize(("mine", "theirs"), [(5, 5), (8, 2), (0, 12), (40, 0), (0, 40)])
def test_counterspell_equals_brute_force(mine, theirs, ties):
    answer = run("counterspell", counter_skill=mine, caster_skill=theirs, contest_ties=ties)
    assert chance(answer, "Counters the spell") == brute_contest(mine, theirs, ties == "reroll")


@pytest.mark.parametrize(
    "blocked", [{"distance": 61}, {"trained": False}, {"reserved": False}], ids=["range", "training", "reserve"]
)
def test_counterspell_conditions(blocked):
    assert chance(run("counterspell", **blocked), "Counters the spell") == 0
    assert chance(run("counterspell", distance=60), "Counters the spell") > 0


def nat(face: int) -> int:
    return {20: 30, 1: -10}.get(face, face)


def lands(bonus: int, pd: int, defense_bonus: int | None, ties_to_defender: bool = True) -> Fraction:
    """P(an attack at +bonus lands against Passive Defense pd and a d20 + defense_bonus block)."""
    hits = 0
    for a in D20:
        total = nat(a) + bonus
        if total < pd:
            continue
        if defense_bonus is None:
            hits += 20
            continue
        hits += sum(
            1 for d in D20 if not (d + defense_bonus >= total if ties_to_defender else d + defense_bonus > total)
        )
    return Fraction(hits, 400)


@pytest.mark.parametrize("ties", ["resister", "reroll"])
@pytest.mark.parametrize(
    ("skill", "intel", "dodge", "wis", "kind"), [(4, 1, 3, 0, "block"), (6, 3, 5, 2, "dodge"), (2, 0, 8, 1, "block")]
)
def test_feint_equals_brute_force_and_the_hit_calculator(skill, intel, dodge, wis, kind, ties):
    common = {
        "attack_skill": skill,
        "attack_ability": 2,
        "defender_dex": 2,
        "defense": kind,
        "block_skill": 3,
        "defender_str": 1,
        "dodge_skill": dodge,
    }
    answer = run("feint", **common, attacker_int=intel, defender_wis=wis, contest_ties=ties)
    win = brute_contest(skill + intel, dodge + wis, ties == "reroll")
    defense_bonus = 3 + 1 if kind == "block" else dodge + 2
    defended = lands(skill + 2, 12, defense_bonus)
    assert chance(answer, "Feint succeeds") == win
    assert chance(answer, "Attack lands without a feint") == defended
    assert chance(run("hit", **common), "Attack lands") == defended
    assert (
        chance(answer, "Next attack lands after the feint") == win * lands(skill + 2, 12, None) + (1 - win) * defended
    )


# --- the block planner -------------------------------------------------------------------------------
def brute_plan(attacks, pd, defense_bonus, armor, reserves, see_total):
    """Expectimax over every face: the attack d20, the defender's d20 and the damage dice (d4s)."""

    def damage_faces(dice, strength):
        out = Counter()
        for faces in itertools.product(range(1, 5), repeat=dice):
            out[max(sum(faces) + strength - armor, 0)] += 1
        n = sum(out.values())
        return {x: Fraction(w, n) for x, w in out.items()}

    dmg = [damage_faces(d, s) for _, d, s in attacks]
    mean = [sum(x * p for x, p in m.items()) for m in dmg]

    def negated(total):
        return Fraction(sum(1 for d in D20 if d + defense_bonus >= total), 20)

    @cache
    def value(i, r):
        if i == len(attacks):
            return Fraction(0)
        bonus = attacks[i][0]
        if not see_total:
            p_hit = Fraction(sum(1 for a in D20 if nat(a) + bonus >= pd), 20)
            p_land = sum(
                (Fraction(1, 20) * (1 - negated(nat(a) + bonus)) for a in D20 if nat(a) + bonus >= pd), Fraction(0)
            )
            best = p_hit * mean[i] + value(i + 1, r)
            if r:
                best = min(best, p_land * mean[i] + value(i + 1, r - 1))
            return best
        total = Fraction(0)
        for a in D20:
            t = nat(a) + bonus
            if t < pd:
                total += value(i + 1, r) / 20
                continue
            options = [mean[i] + value(i + 1, r)]
            if r:
                options.append((1 - negated(t)) * mean[i] + value(i + 1, r - 1))
            total += min(options) / 20
        return total

    return value(0, reserves)


CASES = [
    ([(5, 1, 2), (3, 2, 1)], 1),
    ([(2, 2, 0), (6, 1, 3), (4, 1, 1)], 2),
    ([(8, 1, 0), (0, 2, 2), (4, 2, 0)], 1),
]


@pytest.mark.parametrize("spend", ["when-hit", "each-attack"])
@pytest.mark.parametrize(("attacks", "reserves"), CASES)
def test_block_plan_equals_brute_force_expectimax(attacks, reserves, spend):
    listed = [
        {"name": f"A{i}", "bonus": b, "dice": f"{d}d4", "strength": s} for i, (b, d, s) in enumerate(attacks, start=1)
    ]
    answer = run(
        "block_plan",
        attacks=listed,
        reserves=reserves,
        spend_reserve=spend,
        defender_dex=2,
        block_skill=3,
        defender_str=1,
        armor=1,
    )
    best = brute_plan(attacks, 12, 4, 1, reserves, spend == "when-hit")
    assert Fraction(answer["distribution"]["mean"]["fraction"]) == best
    assert sum(pmf(answer).values()) == 1


def test_block_plan_never_worse_than_the_plain_rules():
    answer = run("block_plan")
    text = answer["summary"]
    numbers = [float(w) for w in text.replace(",", " ").split() if w.replace(".", "").isdigit()]
    best, plain, none = numbers[:3]
    assert best <= plain <= none
    assert chance(answer, "No damage this round (no block)") <= chance(answer, "No damage this round (best plan)")


def test_block_plan_dice_text_error_names_the_entry():
    with pytest.raises(calc.errors.InputError) as err:
        run("block_plan", attacks=[{"name": "X", "bonus": 1, "dice": "lots", "strength": 0}])
    assert err.value.input.startswith("attacks")


@pytest.mark.parametrize("see_total", [True, False])
@pytest.mark.parametrize(("attacks", "reserves"), CASES)
def test_worked_back_figures_match_the_distribution(attacks, reserves, see_total):
    """The plain rule's mean and no-damage chance (worked back without a distribution) equal the
    distribution the same policy gives, and the best plan's distribution has the planned mean."""
    from calc.inputs import data
    from calc.systems.active_defense.reserve import first_hits, follow, incoming, plan, play

    listed = [
        {"name": f"A{i}", "bonus": b, "dice": f"{d}d4", "strength": s} for i, (b, d, s) in enumerate(attacks, start=1)
    ]
    system = data.system(SYSTEM)
    decl = system.calculator("block_plan")["inputs"]
    inputs = calc.inputs.declared.validate(decl, {"attacks": listed, "reserves": reserves, "armor": 1})
    incoming_ = incoming(inputs, system, [])
    for policy in (first_hits(incoming_, see_total), plan(incoming_, reserves, see_total)[1]):
        dist = play(incoming_, reserves, policy, see_total)
        assert follow(incoming_, reserves, policy, see_total) == (dist.mean, dist.p(0))
    value, best = plan(incoming_, reserves, see_total)
    assert play(incoming_, reserves, best, see_total).mean == value[0][reserves]


def test_one_attack_one_reserve_distribution_equals_brute_force():
    """A single attack (+5, 1d4 + 1) against Passive Defense 12, armour 1, block at +4: block every
    total that beats Passive Defense and can be blocked; enumerate the attack, block and damage dice."""
    answer = run(
        "block_plan",
        attacks=[{"name": "A", "bonus": 5, "dice": "1d4", "strength": 1}],
        defender_dex=2,
        block_skill=3,
        defender_str=1,
        armor=1,
    )
    weights = Counter()
    for a, b, d in itertools.product(D20, D20, range(1, 5)):
        total = nat(a) + 5
        landed = total >= 12 and not (b + 4 >= total)
        weights[d if landed else 0] += 1
    assert pmf(answer) == {x: Fraction(w, 1600) for x, w in weights.items()}
